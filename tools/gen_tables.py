#!/usr/bin/env python3
"""Generate the lookup tables of handrank as C headers: handrank_tables.h (the high, lowball and
row evaluators) and one header per variant that needs tables of its own (handrank_omaha_tables.h,
handrank_shortdeck_tables.h, handrank_badugi_tables.h), so that a change to one recompiles only
the extensions that include it.

Usage: python tools/gen_tables.py OUTPUT_DIR

Standard library only and deterministic: the same headers come out on every machine. A header is
rewritten only when its content changes, so an unchanged build does not recompile the extensions.

How a hand is looked up (the kernels live in src/handrank/_kernels.pxd):

* Every card has a 64-bit *key* and a 64-bit *mask*. The key holds, in its high 32 bits, a rank
  multiplier chosen so that the sum over any multiset of at most 7 ranks (at most 4 of each) is
  unique, and in its low 16 bits a 4-bit counter per suit. Summing the keys of a hand gives the
  rank multiset and the suit counts in one integer.
* The mask holds one bit per card, 16 bits per suit. The OR of the masks is the flush rank mask of
  each suit; comparing the OR with the SUM of the masks detects a repeated card for free.
* Suit counters start at 3, so a suit holding 5 or more cards sets bit 3 of its counter: one AND
  tells whether the hand holds a flush, and which suit.
* Flush hands are looked up by the 13-bit rank mask of the flush suit (8192 entries). All other
  hands depend on the rank multiset alone, found through a minimal-space perfect hash of the rank
  sum, one per hand size: slot = ((h >> s) ^ D[h >> b]) & (size - 1) with h = rank_sum * C
  (a "hash and displace" scheme; D is searched here, bucket by bucket, largest buckets first).
  C's low 16 bits are zero, so the batch loops sum pre-multiplied card keys (hr_card_hashes).
"""
from __future__ import annotations

import collections
import hashlib
import importlib.util
import itertools
import math
import os
import sys

RANKS = "23456789TJQKA"
SUITS = "cdhs"
MASK64 = (1 << 64) - 1

# Greedy smallest rank multipliers such that every multiset of at most 7 ranks, at most 4 of each,
# has a distinct sum (found once by an exhaustive greedy search; checked below on every build).
RANK_MULTIPLIERS = (1, 5, 24, 112, 521, 2247, 9244, 30823, 103066, 250154, 667453, 1526359, 3453520)
SUIT_COUNTER_START = 0x3333      # 3 in each suit's 4-bit counter
FLUSH_BITS = 0x8888              # bit 3 of each counter: 5 or more cards of that suit
INVALID_CARD_BIT = 1 << 63       # mask of every byte value 52..255: flags an invalid card id

# The first multiplier C the perfect hashes try: an odd 48-bit factor shifted left by 16, so that
# every product rank_sum * C has its low 16 bits zero. The batch loops' card table
# (hr_card_hashes) holds each card's RANK_MULTIPLIERS[rank] * C with the suit counter added in
# those free bits: a hand's sum of entries is then its hash h and its suit counters at once, and
# the loops skip the shift and the multiply. Every hand size must end with this same C (checked).
HASH_MULTIPLIER = ((0x9E3779B97F4A7C15 >> 16) | 1) << 16

# (hand size, log2 of slots, log2 of buckets) of each rank perfect hash
HASH_SHAPES = ((3, 10, 7), (5, 13, 11), (6, 15, 12), (7, 16, 13))

# Categories on the high ladder (same order as handrank.high.Category)
HIGH_CARD, PAIR, TWO_PAIR, TRIPS, STRAIGHT, FLUSH, FULL_HOUSE, QUADS, STRAIGHT_FLUSH = range(9)
WHEEL = (12, 3, 2, 1, 0)         # A-5-4-3-2


# ----------------------------------------------------------------------------- hand classes
def straight_top(distinct_ranks):
    """Top rank of the best straight among a set of ranks (3 for the wheel), or None."""
    present = set(distinct_ranks)
    for top in range(12, 3, -1):
        if all(top - i in present for i in range(5)):
            return top
    if present.issuperset(WHEEL):
        return 3
    return None


def grouped(ranks):
    """Ranks ordered by (count, rank), highest first: the order in which ties are broken."""
    counts = collections.Counter(ranks)
    return sorted(ranks, key=lambda r: (counts[r], r), reverse=True), sorted(counts.values(), reverse=True)


def high5_class(ranks, suited):
    """Class of a 5-card high hand as a comparable tuple (category, tie-break ranks...)."""
    order, shape = grouped(ranks)
    top = straight_top(ranks) if shape == [1, 1, 1, 1, 1] else None
    if top is not None:
        return (STRAIGHT_FLUSH if suited else STRAIGHT, top)
    if suited:
        return (FLUSH, *order)
    category = {
        (4, 1): QUADS, (3, 2): FULL_HOUSE, (3, 1, 1): TRIPS, (2, 2, 1): TWO_PAIR,
        (2, 1, 1, 1): PAIR, (1, 1, 1, 1, 1): HIGH_CARD,
    }[tuple(shape)]
    return (category, *_dedup(order))


def _dedup(order):
    seen = []
    for r in order:
        if r not in seen:
            seen.append(r)
    return seen


def low27_class(ranks, suited):
    """A 5-card hand's class for 2-7 lowball: the high class, except that A-5-4-3-2 is no straight."""
    if sorted(ranks, reverse=True) == list(WHEEL):
        return (FLUSH, *WHEEL) if suited else (HIGH_CARD, *WHEEL)
    return high5_class(ranks, suited)


def lowa5_badness(ranks):
    """A 5-card hand's A-5 lowball class: aces low, no straights or flushes; smaller is better."""
    low = [(r + 1) % 13 for r in ranks]                # ace -> 0, deuce -> 1, ..., king -> 12
    order, shape = grouped(low)
    category = {
        (1, 1, 1, 1, 1): 0, (2, 1, 1, 1): 1, (2, 2, 1): 2, (3, 1, 1): 3, (3, 2): 4, (4, 1): 5,
    }[tuple(shape)]
    return (category, *_dedup(order))


def high3_class(ranks):
    order, shape = grouped(ranks)
    category = {(1, 1, 1): HIGH_CARD, (2, 1): PAIR, (3,): TRIPS}[tuple(shape)]
    return (category, *_dedup(order))


def rank_multisets(size):
    for combo in itertools.combinations_with_replacement(range(13), size):
        if max(collections.Counter(combo).values(), default=0) <= 4:
            yield combo


# ----------------------------------------------------------------------------- values
class Tables:
    def __init__(self):
        multisets5 = list(rank_multisets(5))
        flush_sets = list(itertools.combinations(range(13), 5))

        high_classes = sorted({high5_class(m, False) for m in multisets5}
                              | {high5_class(s, True) for s in flush_sets})
        assert len(high_classes) == 7462
        self.high_value = {c: i + 1 for i, c in enumerate(high_classes)}
        self.high_classes = high_classes
        self.high5_plain = {m: self.high_value[high5_class(m, False)] for m in multisets5}

        low27_classes = sorted({low27_class(m, False) for m in multisets5}
                               | {low27_class(s, True) for s in flush_sets}, reverse=True)
        assert len(low27_classes) == 7462
        low27_value = {c: i + 1 for i, c in enumerate(low27_classes)}
        # 2-7 reorders whole high classes: the wheel classes move, every other class keeps its hands.
        self.low27_of_high = [0] * 7463
        for m in multisets5:
            self.low27_of_high[self.high_value[high5_class(m, False)]] = low27_value[low27_class(m, False)]
        for s in flush_sets:
            self.low27_of_high[self.high_value[high5_class(s, True)]] = low27_value[low27_class(s, True)]
        assert sorted(self.low27_of_high[1:]) == list(range(1, 7463))
        self.low27_classes = low27_classes

        a5_classes = sorted({lowa5_badness(m) for m in multisets5}, reverse=True)
        assert len(a5_classes) == 6175
        a5_value = {c: i + 1 for i, c in enumerate(a5_classes)}
        self.lowa5_classes = a5_classes
        self.lowa5_5 = {m: a5_value[lowa5_badness(m)] for m in multisets5}

        h3_classes = sorted({high3_class(m) for m in itertools.combinations_with_replacement(range(13), 3)})
        assert len(h3_classes) == 455
        self.high3_classes = h3_classes
        self.high3_value = {c: i + 1 for i, c in enumerate(h3_classes)}

    def high_best(self, multiset):
        return max(self.high5_plain[s] for s in itertools.combinations(multiset, 5))

    def lowa5_best(self, multiset):
        return max(self.lowa5_5[s] for s in itertools.combinations(multiset, 5))

    def flush_table(self):
        table = [0] * 8192
        for mask in range(8192):
            ranks = [r for r in range(13) if mask >> r & 1]
            if 5 <= len(ranks) <= 7:
                table[mask] = max(self.high_value[high5_class(s, True)] for s in itertools.combinations(ranks, 5))
        return table


# ----------------------------------------------------------------------------- perfect hash
def check_multipliers():
    sums = set()
    count = 0
    for size in range(8):
        for m in rank_multisets(size):
            sums.add(sum(RANK_MULTIPLIERS[r] for r in m))
            count += 1
    if len(sums) != count:
        raise SystemExit("gen_tables: rank multipliers do not give distinct sums")


def build_hash(keys, slot_bits, bucket_bits):
    """Find C and D so that slot(key) is a distinct slot for every key. Returns (C, D, slot_of)."""
    nslots = 1 << slot_bits
    bucket_shift = 64 - bucket_bits
    slot_shift = 64 - bucket_bits - slot_bits
    multiplier = HASH_MULTIPLIER
    for _attempt in range(1000):
        buckets = collections.defaultdict(list)
        for key in keys:
            h = key * multiplier & MASK64
            buckets[h >> bucket_shift].append((key, h >> slot_shift & (nslots - 1)))
        if all(len({s for _, s in b}) == len(b) for b in buckets.values()):
            placed = _displace(buckets, nslots, bucket_bits)
            if placed is not None:
                displacement, slot_of = placed
                return multiplier, displacement, slot_of
        # the next odd 48-bit factor, shifted: C keeps its low 16 bits zero (see HASH_MULTIPLIER)
        odd = ((multiplier >> 16) * 6364136223846793005 + 1442695040888963407) & (MASK64 >> 16) | 1
        multiplier = odd << 16
    raise SystemExit("gen_tables: no perfect hash found")


def _displace(buckets, nslots, bucket_bits):
    used = bytearray(nslots)
    displacement = [0] * (1 << bucket_bits)
    slot_of = {}
    for b in sorted(buckets, key=lambda b: (-len(buckets[b]), b)):
        entries = buckets[b]
        for d in range(min(nslots, 1 << 16)):
            if not any(used[s ^ d] for _, s in entries):
                break
        else:
            return None
        displacement[b] = d
        for key, s in entries:
            used[s ^ d] = 1
            slot_of[key] = s ^ d
    return displacement, slot_of


# ----------------------------------------------------------------------------- output
def c_array(ctype, name, values, per_line=16):
    lines = [f"static const {ctype} {name}[{len(values)}] = {{"]
    for i in range(0, len(values), per_line):
        lines.append("    " + ", ".join(str(v) for v in values[i:i + per_line]) + ",")
    lines.append("};")
    return "\n".join(lines)


def pack_class(category, ranks):
    packed = len(ranks) << 24 | category << 20
    for i, r in enumerate(ranks):
        packed |= r << (16 - 4 * i)
    return packed


def generate(shared=None):
    """The main header's text. `shared`, a dict, receives what the other headers reuse: the
    Tables and, by hand size, the perfect hash's (keys, slot_of)."""
    check_multipliers()
    t = Tables()
    if shared is not None:
        shared["tables"] = t
    out = ["/* generated by tools/gen_tables.py, do not edit */",
           "#ifndef HANDRANK_TABLES_H", "#define HANDRANK_TABLES_H", "#include <stdint.h>", ""]

    cards = []
    for card in range(256):
        if card < 52:
            rank, suit = divmod(card, 4)
            cards.append((RANK_MULTIPLIERS[rank] << 32 | 1 << (4 * suit), 1 << (16 * suit + rank)))
        else:
            cards.append((0, INVALID_CARD_BIT))
    # two plain arrays rather than an array of pairs: an index scaled by 8 fits x86 addressing
    out.append(c_array("uint64_t", "hr_card_key", [f"{k}ULL" for k, _ in cards], 4))
    out.append(c_array("uint64_t", "hr_card_mask", [f"{m}ULL" for _, m in cards], 4))
    # The batch loops' table: key and card bit side by side (16-byte aligned), added in one
    # 128-bit add per card. An id 52..255 adds no bit, so k cards are k distinct valid cards
    # exactly when their bits sum to a word with k bits set (a repeated card carries).
    sums = []
    for card, (key, mask) in enumerate(cards):
        sums += [f"{key}ULL", f"{mask if card < 52 else 0}ULL"]
    out.append("#if defined(_MSC_VER)\n#define HR_ALIGN16 __declspec(align(16))\n#else\n"
               "#define HR_ALIGN16 __attribute__((aligned(16)))\n#endif")
    out.append(c_array("uint64_t", "hr_card_sums", sums, 4).replace("static", "HR_ALIGN16 static", 1))
    # The same with the key already hashed: RANK_MULTIPLIERS[rank] * C (low 16 bits zero, see
    # HASH_MULTIPLIER) plus the suit counter. Summed with HR_SUIT_COUNTER_START, the word is
    # rank_sum * C + suit counters, and every slot shift (>= 35) skips the counters.
    hashes = []
    for card, (key, mask) in enumerate(cards):
        hashed = ((key >> 32) * HASH_MULTIPLIER & MASK64) | (key & 0xffff)
        hashes += [f"{hashed}ULL", f"{mask if card < 52 else 0}ULL"]
    out.append(c_array("uint64_t", "hr_card_hashes", hashes, 4).replace("static", "HR_ALIGN16 static", 1))
    out.append(f"#define HR_SUIT_COUNTER_START {SUIT_COUNTER_START}ULL")
    out.append(f"#define HR_FLUSH_BITS {FLUSH_BITS}ULL")
    out.append(f"#define HR_INVALID_CARD_BIT {INVALID_CARD_BIT}ULL")
    out.append("")

    for size, slot_bits, bucket_bits in HASH_SHAPES:
        multisets = list(rank_multisets(size))
        keys = {m: sum(RANK_MULTIPLIERS[r] for r in m) for m in multisets}
        multiplier, displacement, slot_of = build_hash(list(keys.values()), slot_bits, bucket_bits)
        if multiplier != HASH_MULTIPLIER or 64 - bucket_bits - slot_bits < 16:
            # hr_card_hashes holds products by HASH_MULTIPLIER, counters below bit 16
            raise SystemExit(f"gen_tables: the {size}-card hash needs another multiplier")
        if shared is not None:
            shared[size] = (keys, slot_of)
        out.append(f"#define HR_HASH{size}_MUL {multiplier}ULL")
        out.append(f"#define HR_HASH{size}_BUCKET_SHIFT {64 - bucket_bits}")
        out.append(f"#define HR_HASH{size}_SLOT_SHIFT {64 - bucket_bits - slot_bits}")
        out.append(f"#define HR_HASH{size}_SLOT_MASK {(1 << slot_bits) - 1}")
        out.append(c_array("uint16_t", f"hr_hash{size}_displacement", displacement))
        if size == 3:
            values = [0] * (1 << slot_bits)
            for m in multisets:
                values[slot_of[keys[m]]] = t.high3_value[high3_class(m)]
            out.append(c_array("uint16_t", "hr_high3", values))
            continue
        high = [0] * (1 << slot_bits)
        lowa5 = [0] * (1 << slot_bits)
        for m in multisets:
            high[slot_of[keys[m]]] = t.high_best(m)
            lowa5[slot_of[keys[m]]] = t.lowa5_best(m)
        out.append(c_array("uint16_t", f"hr_high{size}", high))
        out.append(c_array("uint16_t", f"hr_lowa5_{size}", lowa5))
        if size == 5:
            # 2-7 values by the same slots, so the batch loop saves the reordering lookup
            out.append(c_array("uint16_t", "hr_low27_5", [t.low27_of_high[v] for v in high]))
        out.append("")

    flush = t.flush_table()
    out.append(c_array("uint16_t", "hr_flush", flush))
    out.append(c_array("uint16_t", "hr_low27_flush", [t.low27_of_high[v] for v in flush]))
    out.append(c_array("uint16_t", "hr_low27_of_high", t.low27_of_high))
    out.append("/* class of each value: rank count << 24 | category << 20 | ranks, 4 bits each, most significant first */")
    out.append(c_array("uint32_t", "hr_high_class", [0] + [pack_class(c[0], c[1:]) for c in t.high_classes], 8))
    out.append(c_array("uint32_t", "hr_low27_class", [0] + [pack_class(c[0], c[1:]) for c in t.low27_classes], 8))
    # A-5 classes are stored on the high ladder (ranks with ace high) so describe() shares code.
    a5 = [0]
    for c in t.lowa5_classes:
        category = (HIGH_CARD, PAIR, TWO_PAIR, TRIPS, FULL_HOUSE, QUADS)[c[0]]
        a5.append(pack_class(category, [(r - 1) % 13 for r in c[1:]]))
    out.append(c_array("uint32_t", "hr_lowa5_class", a5, 8))
    out.append(c_array("uint32_t", "hr_high3_class", [0] + [pack_class(c[0], c[1:]) for c in t.high3_classes], 8))
    row_of_high, row_of_high3 = row_scale(t)
    out.append("/* OFC / Chinese poker rows: 3- and 5-card high values on one interleaved scale */")
    out.append(c_array("uint16_t", "hr_row_of_high", row_of_high))
    out.append(c_array("uint16_t", "hr_row_of_high3", row_of_high3))
    out.append(f"#define HR_ROW_MAX {len(t.high_classes) + len(t.high3_classes)}")
    out.extend(bigtwo_default(t))
    out.append("/* Chinese poker's three straights: rank counts (2 bits each, deuce lowest) that split into")
    out.append("   a 3-card run and two 5-card runs, the ace playing high or low; sorted */")
    three_runs = three_straights_counts()
    out.append(c_array("uint32_t", "hr_three_runs", three_runs, 8))
    out.append(f"#define HR_THREE_RUNS {len(three_runs)}")
    eight_low = t.lowa5_5[(2, 3, 4, 5, 6)]          # 8-7-6-5-4: the worst qualifying low
    out.append(f"#define HR_LOWA5_QUALIFY8 {eight_low}")
    out.append("")
    out.append("#endif")
    return "\n".join(out) + "\n"


def bigtwo_default(t):
    """The default Big Two ruleset's five-card class table, built by the package's own code."""
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "src", "handrank", "bigtwo", "classes.py")
    spec = importlib.util.spec_from_file_location("bigtwo_classes", path)
    classes = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(classes)
    kind = classes.Kind
    # handrank.bigtwo.Rules(): the hk straights, flushes by ranks, no two pair, quads with a kicker
    # (tests check that Rules() has this signature)
    facts = (classes.HK_STRAIGHTS, "ranks",
             (kind.STRAIGHT, kind.FLUSH, kind.FULL_HOUSE, kind.FOUR_OF_A_KIND, kind.STRAIGHT_FLUSH))
    table = classes.class_table(lambda ranks, suited: t.high_value[high5_class(ranks, suited)], *facts)
    return [f'#define HR_BIGTWO_DEFAULT_SIGNATURE "{classes.signature(*facts)}"',
            c_array("uint32_t", "hr_bigtwo_default_classes", table, 8)]


def three_straights_counts():
    """Packed rank counts of every 13 cards that form a run of 3 and two runs of 5 (A-2-3 and
    A-2-3-4-5 count, K-A-2 does not)."""
    def run(start, length):            # start -1: the ace played low
        return [12 if start + j < 0 else start + j for j in range(length)]
    found = set()
    for top in range(-1, 11):
        for middle in range(-1, 9):
            for bottom in range(middle, 9):
                counts = collections.Counter(run(top, 3) + run(middle, 5) + run(bottom, 5))
                found.add(sum(n << (2 * r) for r, n in counts.items()))
    return sorted(found)


def row_scale(t):
    """Interleave the 455 three-card classes with the 7462 five-card classes (RULES.md): compare
    the category on the 5-card ladder, then the ranks in order, a missing kicker lower than any
    card. So a 3-card hand never ties a 5-card one: QQ5 sits between QQ4xx and QQ5xx."""
    def padded(cls):
        return (cls[0], *cls[1:], *[-1] * (6 - len(cls)))
    rows = sorted([(padded(c), 5, v) for c, v in t.high_value.items()]
                  + [(padded(c), 3, v) for c, v in t.high3_value.items()])
    assert len({r[0] for r in rows}) == len(rows), "a 3-card class ties a 5-card class"
    row_of_high, row_of_high3 = [0] * 7463, [0] * 456
    for scale_value, (_, size, value) in enumerate(rows, 1):
        (row_of_high if size == 5 else row_of_high3)[value] = scale_value
    return row_of_high, row_of_high3


# ----------------------------------------------------------------------------- Omaha
# Rank pairs (low, high), low <= high, numbered in this order: a hole pair's column in hr_omaha5.
OMAHA_PAIRS = [(a, b) for a in range(13) for b in range(a, 13)]


def omaha_board5(t, keys5, slot_of5):
    """For every 5-card board rank multiset (by its 5-card hash slot) and every hole rank pair:
    the best plain (non-flush) high value of the pair plus three of the board's ranks, 0 where no
    real hand has them. A PLO hand then costs one lookup per hole pair."""
    plain = t.high5_plain
    slots = 1 << {size: slot_bits for size, slot_bits, _ in HASH_SHAPES}[5]
    table = [0] * (slots * len(OMAHA_PAIRS))
    for board, key in keys5.items():
        triples = set(itertools.combinations(board, 3))
        row = slot_of5[key] * len(OMAHA_PAIRS)
        for column, pair in enumerate(OMAHA_PAIRS):
            best = 0
            for triple in triples:
                hand = tuple(sorted(pair + triple))
                value = plain.get(hand, 0)      # five of a rank is no hand
                if value > best:
                    best = value
            table[row + column] = best
    return table


def omaha_low8(t):
    """The best 8-or-better low of two ranks of a hole and three of a board, by their low rank
    sets (8 bits each, A..8 as bits 0..7): index board_set << 8 | hole_set, 0 for no low. Among
    sets of five ranks the smaller number is the better low, and the A-5 value is lowa5's."""
    value_of = {}
    for ranks in itertools.combinations(range(8), 5):
        card_ranks = tuple(sorted((r - 1) % 13 for r in ranks))     # bit 0 is the ace (rank 12)
        value_of[sum(1 << r for r in ranks)] = t.lowa5_5[card_ranks]
    table = [0] * (256 * 256)
    for board in range(256):
        for hole in range(256):
            best = None
            for a, b in itertools.combinations([r for r in range(8) if hole >> r & 1], 2):
                pair = 1 << a | 1 << b
                rest = [r for r in range(8) if board >> r & 1 and not pair >> r & 1]
                if len(rest) >= 3:
                    low = pair | sum(1 << r for r in rest[:3])
                    best = low if best is None or low < best else best
            table[board << 8 | hole] = 0 if best is None else value_of[best]
    return table


def generate_omaha(shared):
    """The Omaha header (its own file: only handrank._omaha reads its 1.5 MB table)."""
    keys5, slot_of5 = shared[5]
    # Indexed by c1 * 64 + c2 for any two bytes c1, c2 (card ids): the loops read it before they
    # know the cards are valid (an id past 51 gets column 0, a value that is thrown away), and
    # the valid ids use its first 3.3 KB. Each entry is the column's byte offset in its row, so
    # that a read needs no scaling.
    column_of = {pair: column for column, pair in enumerate(OMAHA_PAIRS)}
    pair_index = [0] * (255 * 64 + 256)
    for c1 in range(52):
        for c2 in range(52):
            pair_index[c1 * 64 + c2] = 2 * column_of[tuple(sorted((c1 // 4, c2 // 4)))]
    out = ["/* generated by tools/gen_tables.py, do not edit */",
           "#ifndef HANDRANK_OMAHA_TABLES_H", "#define HANDRANK_OMAHA_TABLES_H", "#include <stdint.h>", "",
           f"#define HR_OMAHA_PAIRS {len(OMAHA_PAIRS)}",
           "/* byte offset in a row of hr_omaha5 of the column of two hole cards' ranks: index",
           "   card * 64 + card, either order; 0 for ids past 51 */",
           c_array("uint8_t", "hr_omaha_pair", pair_index),
           "/* best plain high value of a hole rank pair and three of a 5-card board: row = the",
           "   board's 5-card hash slot, column by hr_omaha_pair */",
           c_array("uint16_t", "hr_omaha5", omaha_board5(shared["tables"], keys5, slot_of5), 24),
           "/* best 8-or-better low (lowa5's value, 0 for none): index board low ranks << 8 | hole",
           "   low ranks, A..8 as bits 0..7 */",
           c_array("uint16_t", "hr_omaha_low8", omaha_low8(shared["tables"]), 24),
           "", "#endif"]
    return "\n".join(out) + "\n"


# ----------------------------------------------------------------------------- short deck
SHORT_RANKS = range(4, 13)              # 6..A
SHORT_WHEEL = (12, 4, 5, 6, 7)          # A-6-7-8-9, the lowest straight (nine high)
# Each rule set's ladder: the high ladder's categories, weakest first
SHORT_LADDERS = {
    "standard": (HIGH_CARD, PAIR, TWO_PAIR, TRIPS, STRAIGHT, FULL_HOUSE, FLUSH, QUADS, STRAIGHT_FLUSH),
    "triton": (HIGH_CARD, PAIR, TWO_PAIR, STRAIGHT, TRIPS, FULL_HOUSE, FLUSH, QUADS, STRAIGHT_FLUSH),
}


def short5_class(ranks, suited):
    """A short-deck 5-card hand's class on the high ladder's categories: as high5_class, with
    A-6-7-8-9 a straight topped by the nine."""
    if sorted(ranks) == sorted(SHORT_WHEEL):
        return (STRAIGHT_FLUSH if suited else STRAIGHT, 7)
    return high5_class(ranks, suited)


def generate_shortdeck(shared):
    """The short-deck header: for each rule set, values by the 5-, 6- and 7-card hash slots (the
    same slots as the high tables) and by the flush suit's rank mask, and each value's class."""
    out = ["/* generated by tools/gen_tables.py, do not edit */",
           "#ifndef HANDRANK_SHORTDECK_TABLES_H", "#define HANDRANK_SHORTDECK_TABLES_H",
           "#include <stdint.h>", ""]
    multisets5 = [m for m in rank_multisets(5) if min(m) >= 4]
    flush_sets = list(itertools.combinations(SHORT_RANKS, 5))
    classes = {short5_class(m, False) for m in multisets5} | {short5_class(f, True) for f in flush_sets}
    out.append(f"#define HR_SHORTDECK_MAX {len(classes)}")
    for rules, ladder in SHORT_LADDERS.items():
        position = {category: i for i, category in enumerate(ladder)}
        ordered = sorted(classes, key=lambda c: (position[c[0]], *c[1:]))
        value = {c: i + 1 for i, c in enumerate(ordered)}
        plain = {m: value[short5_class(m, False)] for m in multisets5}
        for size in (5, 6, 7):
            keys, slot_of = shared[size]
            table = [0] * (1 << {n: bits for n, bits, _ in HASH_SHAPES}[size])
            for m, key in keys.items():
                if min(m) >= 4:
                    table[slot_of[key]] = max(plain[s] for s in itertools.combinations(m, 5))
            out.append(c_array("uint16_t", f"hr_shortdeck_{rules}{size}", table))
        flush = [0] * 8192
        for mask in range(8192):
            ranks = [r for r in range(13) if mask >> r & 1]
            if 5 <= len(ranks) <= 7 and min(ranks) >= 4:
                flush[mask] = max(value[short5_class(s, True)] for s in itertools.combinations(ranks, 5))
        out.append(c_array("uint16_t", f"hr_shortdeck_{rules}_flush", flush))
        out.append(c_array("uint32_t", f"hr_shortdeck_{rules}_class",
                           [0] + [pack_class(c[0], c[1:]) for c in ordered], 8))
    out += ["", "#endif"]
    return "\n".join(out) + "\n"


# ----------------------------------------------------------------------------- badugi
# The largest colex index of four sorted ids a <= b <= c <= d <= 51, a repeat among them included:
# the batch kernel clamps bad ids to 51 and reads the table before it reports the row.
BADUGI_TABLE_SIZE = 51 + math.comb(51, 2) + math.comb(51, 3) + math.comb(51, 4) + 1


def badugi_value(ranks, size):
    """handrank.badugi's dense value of a badugi of `size` cards whose ranks, as positions 0..12 in
    the ordering (0 the lowest), are `ranks`: sizes in turn, each size's sets best last."""
    below = sum(math.comb(13, k) for k in range(1, size))
    colex = sum(math.comb(p, i + 1) for i, p in enumerate(sorted(ranks)))
    return below + math.comb(13, size) - colex


def badugi_best(cards, ace_low):
    """The value of the best badugi among four (rank, suit) cards."""
    best = 0
    for size in range(4, 0, -1):
        for subset in itertools.combinations(cards, size):
            if len({r for r, _ in subset}) == size and len({s for _, s in subset}) == size:
                positions = [(r + 1) % 13 if ace_low else r for r, _ in subset]
                best = max(best, badugi_value(positions, size))
        if best:
            return best
    raise AssertionError("every card is a badugi of one")


def badugi_tables():
    """Values by the colex index of the four sorted card ids, 0 past the real hands: the ace-low
    table and the ace-high one."""
    low, high = [0] * BADUGI_TABLE_SIZE, [0] * BADUGI_TABLE_SIZE
    cache = {}
    for hand in itertools.combinations(range(52), 4):
        cards = [(c >> 2, c & 3) for c in hand]
        relabel = {}            # suits in order of appearance: only which cards share one matters
        for _, s in cards:
            relabel.setdefault(s, len(relabel))
        key = tuple((r, relabel[s]) for r, s in cards)
        values = cache.get(key)
        if values is None:
            values = cache[key] = (badugi_best(key, True), badugi_best(key, False))
        a, b, c, d = hand
        index = a + math.comb(b, 2) + math.comb(c, 3) + math.comb(d, 4)
        low[index], high[index] = values
    return low, high


def generate_badugi(shared):
    """The badugi header: a value per colex index of four cards, for each ordering (its own file:
    only handrank._badugi reads its tables)."""
    low, high = badugi_tables()
    out = ["/* generated by tools/gen_tables.py, do not edit */",
           "#ifndef HANDRANK_BADUGI_TABLES_H", "#define HANDRANK_BADUGI_TABLES_H", "#include <stdint.h>", "",
           "/* value of four cards by the colex index a + C(b,2) + C(c,3) + C(d,4) of their sorted ids */",
           c_array("uint16_t", "hr_badugi_ace_low", low, 24),
           c_array("uint16_t", "hr_badugi_ace_high", high, 24),
           "", "#endif"]
    return "\n".join(out) + "\n"


def write_if_changed(path, text):
    data = text.encode()
    try:
        with open(path, "rb") as f:
            if hashlib.sha256(f.read()).digest() == hashlib.sha256(data).digest():
                return False
    except FileNotFoundError:
        pass
    tmp = path + ".tmp"
    with open(tmp, "wb") as f:
        f.write(data)
    os.replace(tmp, path)
    return True


def main(argv):
    if len(argv) != 2:
        raise SystemExit(__doc__.splitlines()[2])
    os.makedirs(argv[1], exist_ok=True)
    path = os.path.join(argv[1], "handrank_tables.h")
    shared = {}
    changed = write_if_changed(path, generate(shared))
    print(f"gen_tables: {path} {'written' if changed else 'unchanged'}")
    for name, generator in (("omaha", generate_omaha), ("shortdeck", generate_shortdeck),
                            ("badugi", generate_badugi)):
        path = os.path.join(argv[1], f"handrank_{name}_tables.h")
        changed = write_if_changed(path, generator(shared))
        print(f"gen_tables: {path} {'written' if changed else 'unchanged'}")


if __name__ == "__main__":
    main(sys.argv)
