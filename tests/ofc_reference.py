"""A slow, obviously-correct oracle for Open-Face Chinese poker, written from RULES.md ("Open-Face
Chinese poker", "3-card high hands", "2-7 lowball") without handrank.ofc or handrank.rows.

* Rules are plain dicts (PRESETS), written out from RULES.md. Their keys are the field names of
  the package's ``ofc.Rules`` so a test can build the same rules both ways (``rules_kwargs``);
  the tables are dicts ``{threshold text: number}``.
* Hands are compared with the keys of tests/reference.py (a bigger key is a better hand). A top
  row is compared with a 5-card row the way RULES.md words it (``top_beats``): the category on
  the 5-card ladder, then the ranks in order for as many cards as the top has.
* Thresholds are read literally: "66" = a pair of sixes or better (any kicker), "222" = trips,
  a category name = that category or better, "T9875" = an unpaired 2-7 low, no straight, no
  flush, whose ranks (high to low) are at most those. A row earns the number of the strongest
  threshold it reaches.
* ``brute_force_fantasyland`` tries every setting of the n cards (13 to 15) with numpy: the
  per-subset facts (strengths, royalties, stays) are computed once per hand from the reference
  keys, then gathered over the whole list of settings.

Card ids follow RULES.md: id = 4 * rank + suit, rank 0..12 = 2..A, suit 0..3 = c d h s.
"""
from __future__ import annotations

import itertools
from collections import Counter
from functools import lru_cache
from math import comb

import numpy as np

from handrank.cards import cards as parse_cards
from reference import (ACE, FLUSH, FULL_HOUSE, HIGH_CARD, PAIR, QUADS, STRAIGHT, STRAIGHT_FLUSH,
                       TRIPS, TWO_PAIR, high3_key, high5_key, low27_key, rank_of, suit_of)

RANKS = "23456789TJQKA"
ROYAL_FLUSH = 9           # one step above STRAIGHT_FLUSH on the royalty ladder
CATEGORY = {"high card": HIGH_CARD, "pair": PAIR, "two pair": TWO_PAIR, "trips": TRIPS,
            "straight": STRAIGHT, "flush": FLUSH, "full house": FULL_HOUSE, "quads": QUADS,
            "straight flush": STRAIGHT_FLUSH, "royal flush": ROYAL_FLUSH}

# ----------------------------------------------------------------------------- RULES.md tables
# top: 66 = 1, 77 = 2, ..., AA = 9; 222 = 10, 333 = 11, ..., AAA = 22
TOP_ROYALTIES = {**{r * 2: i + 1 for i, r in enumerate("6789TJQKA")},
                 **{r * 3: i + 10 for i, r in enumerate(RANKS)}}
MIDDLE_ROYALTIES = {"trips": 2, "straight": 4, "flush": 8, "full house": 12, "quads": 20,
                    "straight flush": 30, "royal flush": 50}
BOTTOM_ROYALTIES = {"straight": 2, "flush": 4, "full house": 6, "quads": 10,
                    "straight flush": 15, "royal flush": 25}
# deuce middle: 9-low 1, 8-low 2, 7-low 4, 7-5-4-3-2 = 8 (the worst 9-, 8-, 7-low as thresholds)
MIDDLE_LOW_ROYALTIES = {"98764": 1, "87653": 2, "76542": 4, "75432": 8}

PINEAPPLE = dict(
    name="pineapple",
    top_royalties=TOP_ROYALTIES, middle_royalties=MIDDLE_ROYALTIES,
    bottom_royalties=BOTTOM_ROYALTIES,
    middle_lowball=False, middle_qualifier=None, middle_low_royalties={},
    scoop_bonus=3,
    fantasyland_top={"QQ": 14}, fantasyland_middle={}, super_fantasyland=0,
    stay_top="222", stay_middle=None, stay_bottom="quads", stay_cards=14,
)
PRESETS = {
    # 13 cards in FL on QQ+; stay with trips on top, full house+ middle, quads+ bottom
    "classic": {**PINEAPPLE, "name": "classic", "fantasyland_top": {"QQ": 13},
                "stay_middle": "full house", "stay_cards": 13},
    "pineapple": PINEAPPLE,
    "progressive": {**PINEAPPLE, "name": "progressive",
                    "fantasyland_top": {"QQ": 14, "KK": 15, "AA": 16, "222": 17}},
    # 2-7 middle, ten-low or better; FL on KK+ top or a 75432 middle, both = 15 ("super")
    "deuce": {**PINEAPPLE, "name": "deuce", "middle_lowball": True, "middle_qualifier": "T9875",
              "middle_low_royalties": MIDDLE_LOW_ROYALTIES,
              "fantasyland_top": {"KK": 14}, "fantasyland_middle": {"75432": 14},
              "super_fantasyland": 15, "stay_middle": "75432"},
}


def get_rules(rules) -> dict:
    """A preset name or a rules dict (anything missing is taken from pineapple)."""
    if rules is None:
        return PINEAPPLE
    if isinstance(rules, str):
        return PRESETS[rules]
    return {**PINEAPPLE, **rules}


def rules_kwargs(rules) -> dict:
    """The keyword arguments that build the same rules as ``ofc.Rules(**kwargs)`` (tables as tuples)."""
    rules = get_rules(rules)
    return {k: tuple(v.items()) if isinstance(v, dict) else v for k, v in rules.items()}


# ----------------------------------------------------------------------------- rows
def _ids(hand) -> list[int]:
    return [int(c) for c in parse_cards(hand)] if isinstance(hand, str) else [int(c) for c in hand]


def board_rows(board):
    """(top, middle, bottom) id lists from a (top, middle, bottom) triple, "a / b / c" text or 13 ids."""
    if isinstance(board, str):
        parts = board.replace("|", "/").split("/")
        assert len(parts) == 3, board
        rows = [_ids(p) for p in parts]
    elif len(board) == 13:
        flat = [int(c) for c in board]
        rows = [flat[:3], flat[3:8], flat[8:]]
    else:
        rows = [_ids(r) for r in board]
    top, middle, bottom = rows
    assert (len(top), len(middle), len(bottom)) == (3, 5, 5), rows
    every = top + middle + bottom
    assert len(set(every)) == 13 and all(0 <= c < 52 for c in every), every
    return top, middle, bottom


def _groups(hand) -> tuple[int, list[int]]:
    """(size of the biggest rank group, the ranks card by card: bigger groups first, then higher)."""
    counts = Counter(rank_of(c) for c in hand)
    order = sorted(counts.items(), key=lambda item: (-item[1], -item[0]))
    return order[0][1], [r for r, n in order for _ in range(n)]


def top_beats(top, five) -> bool:
    """RULES.md: is the 3-card top better than the 5-card row? Category on the 5-card ladder, then
    the ranks in order for as many cards as the top has (a missing kicker is lower than any card,
    so equal first three ranks mean the top is not better)."""
    top_cat, five_cat = high3_key(top)[0], high5_key(five)[0]
    if top_cat != five_cat:
        return top_cat > five_cat
    return tuple(_groups(top)[1]) > tuple(_groups(five)[1][:3])


def category(five) -> int:
    """Category on the royalty ladder: 0..8 as tests/reference.py, 9 = royal flush."""
    key = high5_key(five)
    if key[0] == STRAIGHT_FLUSH and key[1] == ACE:
        return ROYAL_FLUSH
    return key[0]


def _low_ranks(text: str) -> tuple[int, ...]:
    ranks = sorted((RANKS.index(ch.upper()) for ch in text), reverse=True)
    assert len(text) == 5 and len(set(ranks)) == 5, text
    return tuple(ranks)


def is_unpaired_low(five) -> bool:
    """No pair, no straight (A-2-3-4-5 is none in 2-7), no flush."""
    ranks = sorted({rank_of(c) for c in five})
    flush = len({suit_of(c) for c in five}) == 1
    straight = len(ranks) == 5 and ranks[-1] - ranks[0] == 4
    return len(ranks) == 5 and not flush and not straight


def low_reaches(five, threshold: str) -> bool:
    """A 2-7 low at least as good as the (offsuit) threshold hand."""
    ranks = tuple(sorted((rank_of(c) for c in five), reverse=True))
    return is_unpaired_low(five) and ranks <= _low_ranks(threshold)


def _top_threshold(text: str) -> tuple[int, int]:
    """"QQ" -> (2, rank of Q), "222" -> (3, rank of 2)."""
    assert len(text) in (2, 3) and len(set(text)) == 1 and text[0] in RANKS, text
    return len(text), RANKS.index(text[0])


def top_reaches(top, threshold: str) -> bool:
    size, rank = _top_threshold(threshold)
    group, ranks = _groups(top)
    if group == 3:
        return size == 2 or ranks[0] >= rank          # trips reach every pair threshold
    return group == 2 and size == 2 and ranks[0] >= rank


def five_reaches(five, threshold: str) -> bool:
    return category(five) >= CATEGORY[threshold]


def _earned(table: dict, reaches, strength) -> int:
    """The number of the strongest threshold reached, 0 if none."""
    reached = [t for t in table if reaches(t)]
    return table[max(reached, key=strength)] if reached else 0


def top_table(top, table) -> int:
    return _earned(table, lambda t: top_reaches(top, t), _top_threshold)


def five_table(five, table) -> int:
    return _earned(table, lambda t: five_reaches(five, t), CATEGORY.__getitem__)


def low_table(five, table) -> int:
    return _earned(table, lambda t: low_reaches(five, t), lambda t: tuple(-r for r in _low_ranks(t)))


# ----------------------------------------------------------------------------- one board
def is_foul(top, middle=None, bottom=None, rules=None) -> bool:
    top, middle, bottom = board_rows(top if middle is None else (top, middle, bottom))
    r = get_rules(rules)
    if top_beats(top, bottom):
        return True
    if r["middle_lowball"]:
        return not low_reaches(middle, r["middle_qualifier"])
    return top_beats(top, middle) or high5_key(middle) > high5_key(bottom)


def royalties(top, middle=None, bottom=None, rules=None) -> tuple[int, int, int]:
    top, middle, bottom = board_rows(top if middle is None else (top, middle, bottom))
    r = get_rules(rules)
    if is_foul(top, middle, bottom, r):
        return (0, 0, 0)
    if r["middle_lowball"]:
        mid = low_table(middle, r["middle_low_royalties"])
    else:
        mid = five_table(middle, r["middle_royalties"])
    return (top_table(top, r["top_royalties"]), mid, five_table(bottom, r["bottom_royalties"]))


def _middle_reaches(middle, threshold, r) -> bool:
    return low_reaches(middle, threshold) if r["middle_lowball"] else five_reaches(middle, threshold)


def stays(top, middle, bottom, rules=None) -> bool:
    """A stay condition is reached (whether or not the board fouls)."""
    r = get_rules(rules)
    return ((r["stay_top"] is not None and top_reaches(top, r["stay_top"]))
            or (r["stay_middle"] is not None and _middle_reaches(middle, r["stay_middle"], r))
            or (r["stay_bottom"] is not None and five_reaches(bottom, r["stay_bottom"])))


def fantasyland(top, middle=None, bottom=None, rules=None, in_fantasyland=False) -> int:
    top, middle, bottom = board_rows(top if middle is None else (top, middle, bottom))
    r = get_rules(rules)
    if is_foul(top, middle, bottom, r):
        return 0
    if in_fantasyland:
        return r["stay_cards"] if stays(top, middle, bottom, r) else 0
    by_top = top_table(top, r["fantasyland_top"])
    if r["middle_lowball"]:
        by_middle = low_table(middle, r["fantasyland_middle"])
    else:
        by_middle = five_table(middle, r["fantasyland_middle"])
    if by_top and by_middle and r["super_fantasyland"] > 0:
        return r["super_fantasyland"]
    return max(by_top, by_middle)


def _sign(a, b) -> int:
    return (a > b) - (a < b)


def row_results(a, b, rules=None) -> list[int] | None:
    """+1 / 0 / -1 for a's top, middle and bottom against b's, None when either board fouls."""
    r = get_rules(rules)
    a, b = board_rows(a), board_rows(b)
    if is_foul(*a, rules=r) or is_foul(*b, rules=r):
        return None
    middle_key = low27_key if r["middle_lowball"] else high5_key
    return [_sign(high3_key(a[0]), high3_key(b[0])),
            _sign(middle_key(a[1]), middle_key(b[1])),
            _sign(high5_key(a[2]), high5_key(b[2]))]


def pair_points(a, b, rules=None) -> int:
    """What board a wins from board b (RULES.md "1-6" with royalties as net differences)."""
    r = get_rules(rules)
    a, b = board_rows(a), board_rows(b)
    foul_a, foul_b = is_foul(*a, rules=r), is_foul(*b, rules=r)
    if foul_a and foul_b:
        return 0
    loss = 3 + r["scoop_bonus"]
    if foul_a:
        return -(loss + sum(royalties(*b, rules=r)))
    if foul_b:
        return loss + sum(royalties(*a, rules=r))
    rows = row_results(a, b, r)
    points = sum(rows)
    if rows == [1, 1, 1]:
        points += r["scoop_bonus"]
    elif rows == [-1, -1, -1]:
        points -= r["scoop_bonus"]
    return points + sum(royalties(*a, rules=r)) - sum(royalties(*b, rules=r))


def score(boards, rules=None) -> list[int]:
    """Net points of each of 2..4 boards: the sum of its pair results against every other board."""
    assert 2 <= len(boards) <= 4
    totals = [0] * len(boards)
    for i, j in itertools.combinations(range(len(boards)), 2):
        p = pair_points(boards[i], boards[j], rules)
        totals[i] += p
        totals[j] -= p
    return totals


# ----------------------------------------------------------------------------- Fantasyland
def _padded(key) -> tuple[int, ...]:
    """A key on one ladder for 3- and 5-card rows: a missing kicker is lower than any card."""
    return tuple(key) + (-1,) * (8 - len(key))


class _Layout:
    """Every setting of n cards, as positions 0..n-1 of the sorted hand. combos5 / combos3 list
    the 5- and 3-card subsets in lexicographic order; a setting is a (bottom, middle) pair of
    disjoint 5-subsets (pair_b[p], pair_m[p]) and one of the 3-subsets of the n - 10 cards left,
    tops[j, p] (indices into combos5 and combos3)."""

    def __init__(self, n: int):
        assert 13 <= n <= 15, "the reference enumerates at most 15 cards"
        self.n = n
        self.combos5 = np.array(list(itertools.combinations(range(n), 5)), dtype=np.int64)
        self.combos3 = np.array(list(itertools.combinations(range(n), 3)), dtype=np.int64)
        masks5 = (1 << self.combos5).sum(axis=1)
        index3 = np.full(1 << n, -1, dtype=np.int64)
        index3[(1 << self.combos3).sum(axis=1)] = np.arange(len(self.combos3))
        self.pair_b, self.pair_m = np.nonzero((masks5[:, None] & masks5[None, :]) == 0)
        left = ((1 << n) - 1) ^ masks5[self.pair_b] ^ masks5[self.pair_m]
        bits = (left[:, None] >> np.arange(n)) & 1
        positions = np.nonzero(bits)[1].reshape(len(left), n - 10)     # ascending in each row
        tops = [index3[(1 << positions[:, list(c)]).sum(axis=1)]
                for c in itertools.combinations(range(n - 10), 3)]
        self.tops = np.stack(tops, axis=0)
        assert (self.tops >= 0).all()
        assert self.tops.size == comb(n, 13) * 72_072                 # RULES.md's counts
        assert self.tops.size == comb(n, 5) * comb(n - 5, 5) * comb(n - 10, 3)


@lru_cache(maxsize=None)
def layout(n: int) -> _Layout:
    return _Layout(n)


def _class_hand(ranks: tuple[int, ...], suited: bool) -> tuple[int, ...]:
    """One hand with these sorted ranks, all of one suit or not (the facts depend on nothing else)."""
    if suited:
        return tuple(4 * r for r in ranks)
    seen: Counter = Counter()
    suits = []
    for r in ranks:
        suits.append(seen[r])
        seen[r] += 1
    if len(set(suits)) == 1:
        suits[-1] = 1                      # five distinct ranks: break the flush
    return tuple(4 * r + s for r, s in zip(ranks, suits))


def _classes(ids: tuple[int, ...], combos: np.ndarray):
    """The (sorted ranks, suited) class of every subset, and each class's one hand."""
    hands = np.array(ids, dtype=np.int64)[combos]
    ranks = np.sort(hands // 4, axis=1).tolist()
    suits = hands % 4
    suited = (suits == suits[:, :1]).all(axis=1).tolist()
    classes = [(tuple(r), s) for r, s in zip(ranks, suited)]
    return [tuple(h) for h in hands.tolist()], classes


@lru_cache(maxsize=None)
def _strength_keys(ranks: tuple[int, ...], suited: bool) -> tuple[tuple[int, ...], tuple[int, ...]]:
    hand = _class_hand(ranks, suited)
    if len(hand) == 3:
        return _padded(high3_key(hand)), ()
    return _padded(high5_key(hand)), low27_key(hand)


@lru_cache(maxsize=64)
def _hand_facts(ids: tuple[int, ...]):
    """Per-subset strengths of a sorted hand: the 3- and 5-card subsets on one ladder (dense ranks
    of the padded keys, so a top compares with a 5-card row as RULES.md says), and 2-7 strength."""
    lay = layout(len(ids))
    hands5, classes5 = _classes(ids, lay.combos5)
    hands3, classes3 = _classes(ids, lay.combos3)
    keys5 = [_strength_keys(*c) for c in classes5]
    keys3 = [_strength_keys(*c)[0] for c in classes3]
    dense = {k: i for i, k in enumerate(sorted({k for k, _ in keys5} | set(keys3)))}
    strength5 = np.array([dense[k] for k, _ in keys5], dtype=np.int32)
    strength3 = np.array([dense[k] for k in keys3], dtype=np.int32)
    dense_low = {k: i for i, k in enumerate(sorted({low for _, low in keys5}))}
    low5 = np.array([dense_low[low] for _, low in keys5], dtype=np.int32)
    return hands5, hands3, classes5, classes3, strength5, strength3, low5


def _frozen(r: dict) -> tuple:
    """Rules as a hashable value (the tables, the only dicts, become tuples of items)."""
    return tuple(sorted((k, tuple(v.items()) if isinstance(v, dict) else v) for k, v in r.items()))


def _thawed(frozen: tuple) -> dict:
    return {k: dict(v) if isinstance(v, tuple) else v for k, v in frozen}


@lru_cache(maxsize=None)
def _top_facts(ranks: tuple[int, ...], suited: bool, frozen: tuple) -> tuple[int, bool]:
    """(royalty, stay) of a top of this class: the scalar functions on one hand of the class."""
    r = _thawed(frozen)
    hand = _class_hand(ranks, suited)
    royalty = top_table(hand, r["top_royalties"])
    return royalty, r["stay_top"] is not None and top_reaches(hand, r["stay_top"])


@lru_cache(maxsize=None)
def _five_facts(ranks: tuple[int, ...], suited: bool, frozen: tuple):
    """(middle royalty, bottom royalty, qualifies as a 2-7 middle, middle stay, bottom stay)."""
    r = _thawed(frozen)
    hand = _class_hand(ranks, suited)
    if r["middle_lowball"]:
        middle = low_table(hand, r["middle_low_royalties"])
        qualifies = low_reaches(hand, r["middle_qualifier"])
    else:
        middle = five_table(hand, r["middle_royalties"])
        qualifies = True
    return (middle, five_table(hand, r["bottom_royalties"]), qualifies,
            r["stay_middle"] is not None and _middle_reaches(hand, r["stay_middle"], r),
            r["stay_bottom"] is not None and five_reaches(hand, r["stay_bottom"]))


def _subset_rules(ids: tuple[int, ...], r: dict):
    """Per-subset royalties, stay flags and (2-7) middle qualification under rules r."""
    *_, classes5, classes3, _, _, _ = _hand_facts(ids)
    frozen = _frozen(r)
    top = np.array([_top_facts(*c, frozen) for c in classes3], dtype=np.int64)
    five = np.array([_five_facts(*c, frozen) for c in classes5], dtype=np.int64)
    top_roy, stay_t = top[:, 0], top[:, 1].astype(bool)
    mid_roy, bot_roy = five[:, 0], five[:, 1]
    qualifies, stay_m, stay_b = (five[:, j].astype(bool) for j in (2, 3, 4))
    return top_roy, mid_roy, bot_roy, qualifies, stay_t, stay_m, stay_b


def fouled_fallback(cards) -> dict:
    """The specified setting when nothing is valid: bottom = 5 highest ids, middle the next 5,
    top the next 3, the rest discarded (ascending within rows)."""
    ids = sorted(int(c) for c in cards)
    return dict(top=tuple(ids[-13:-10]), middle=tuple(ids[-10:-5]), bottom=tuple(ids[-5:]),
                discards=tuple(ids[:-13]), royalties=0, row_royalties=(0, 0, 0), stays=False,
                value=0.0, fouled=True)


def brute_force_fantasyland_multi(cards, rules=None, stay_values=(0.0,)) -> list[dict]:
    """brute_force_fantasyland for several stay values at once (one enumeration)."""
    r = get_rules(rules)
    ids = tuple(sorted(int(c) for c in (parse_cards(cards) if isinstance(cards, str) else cards)))
    assert len(set(ids)) == len(ids) and 13 <= len(ids) <= 15
    lay = layout(len(ids))
    hands5, hands3, _, _, strength5, strength3, low5 = _hand_facts(ids)
    top_roy, mid_roy, bot_roy, qualifies, stay_t, stay_m, stay_b = _subset_rules(ids, r)

    pb, pm, tops = lay.pair_b, lay.pair_m, lay.tops          # every setting: (pb[p], pm[p], tops[j, p])
    # the pairs (bottom, middle) that can be part of a valid setting; then the tops over them
    if r["middle_lowball"]:
        ok = qualifies[pm]                                   # the middle is not compared
        mid_strength = low5
    else:
        ok = strength5[pm] <= strength5[pb]
        mid_strength = strength5
    keep = np.flatnonzero(ok)
    if keep.size == 0:
        return [fouled_fallback(ids) for _ in stay_values]
    pb, pm, tops = pb[keep], pm[keep], tops[:, keep]
    # one gather for the tops: strength << 16 | royalty << 1 | stay
    assert top_roy.max() < 1 << 15
    top_code = ((strength3.astype(np.int32) << 16) | (top_roy.astype(np.int32) << 1)
                | stay_t.astype(np.int32))[tops]
    top_strength = top_code >> 16
    # the top is no better than the row below it (the middle; in 2-7 the bottom)
    valid = top_strength <= strength5[pb if r["middle_lowball"] else pm]
    if not valid.any():
        return [fouled_fallback(ids) for _ in stay_values]
    # royalties of every setting (-1 where it fouls) and whether it stays
    pair_total = (bot_roy[pb] + mid_roy[pm]).astype(np.int32)
    total = np.where(valid, pair_total + ((top_code >> 1) & 0x7FFF), -1)
    stay = (stay_b[pb] | stay_m[pm]) | (top_code & 1).astype(bool)
    # value = royalties + stay_value * stays: the best value is the best royalties among the
    # settings that stay (plus stay_value) or among those that do not, whichever is higher
    best_staying = int(np.max(total, where=stay, initial=-1))
    best_leaving = int(np.max(total, where=~stay, initial=-1))
    staying = stay & (total == best_staying) if best_staying >= 0 else None
    leaving = ~stay & (total == best_leaving) if best_leaving >= 0 else None

    answers = []
    for stay_value in stay_values:
        options = {}
        if staying is not None:
            options[True] = best_staying + float(stay_value)
        if leaving is not None:
            options[False] = float(best_leaving)
        value = max(options.values())
        groups = [staying if stays else leaving for stays, v in options.items() if v == value]
        best = groups[0] if len(groups) == 1 else groups[0] | groups[1]
        # ties: strongest bottom, then middle (both the same for a pair p), then top; then the
        # lowest sorted card tuples (subset indices are lexicographic in the sorted cards)
        pairs = np.flatnonzero(best.any(axis=0))
        for key in (strength5[pb], mid_strength[pm]):
            pairs = pairs[key[pairs] == key[pairs].max()]
        j, rows = np.nonzero(best[:, pairs])
        p = pairs[rows]
        for key, pick in ((lambda: top_strength[j, p], np.max), (lambda: pb[p], np.min),
                          (lambda: pm[p], np.min), (lambda: tops[j, p], np.min)):
            k = key()
            keep = k == pick(k)
            p, j = p[keep], j[keep]
        assert p.size == 1
        p, j = int(p[0]), int(j[0])
        b, m, t = pb[p], pm[p], tops[j, p]
        top, middle, bottom = hands3[t], hands5[m], hands5[b]
        used = set(top) | set(middle) | set(bottom)
        answers.append(dict(
            top=top, middle=middle, bottom=bottom,
            discards=tuple(c for c in ids if c not in used),
            royalties=int(total[j, p]),
            row_royalties=(int(top_roy[t]), int(mid_roy[m]), int(bot_roy[b])),
            stays=bool(stay[j, p]), value=float(total[j, p] + float(stay_value) * stay[j, p]),
            fouled=False))
        assert answers[-1]["value"] == value
    return answers


def brute_force_fantasyland(cards, rules=None, stay_value=0.0) -> dict:
    """The optimal setting of 13..15 Fantasyland cards, by trying every setting.

    Returns a dict: top, middle, bottom (ascending id tuples), discards, royalties (total),
    row_royalties (t, m, b), stays, value (royalties + stay_value * stays) and fouled."""
    return brute_force_fantasyland_multi(cards, rules, (stay_value,))[0]


def brute_force_fantasyland_slow(cards, rules=None, stay_value=0.0) -> dict:
    """The same by plain loops (13 cards only), every row's facts from the scalar functions above
    (memoized per row), the foul test and the tie-break written out as RULES.md and the spec say."""
    ids = sorted(int(c) for c in cards)
    assert len(ids) == 13
    r = get_rules(rules)
    lowball = r["middle_lowball"]

    @lru_cache(maxsize=None)
    def top_facts(top):
        return (top_table(top, r["top_royalties"]),
                r["stay_top"] is not None and top_reaches(top, r["stay_top"]), high3_key(top))

    @lru_cache(maxsize=None)
    def five_facts(five):
        middle = (low_table(five, r["middle_low_royalties"]) if lowball
                  else five_table(five, r["middle_royalties"]))
        return dict(middle=middle, bottom=five_table(five, r["bottom_royalties"]),
                    qualifies=lowball and low_reaches(five, r["middle_qualifier"]),
                    stay_m=r["stay_middle"] is not None and _middle_reaches(five, r["stay_middle"], r),
                    stay_b=r["stay_bottom"] is not None and five_reaches(five, r["stay_bottom"]),
                    high=high5_key(five), low=low27_key(five))

    beats = lru_cache(maxsize=None)(top_beats)
    best_key, best = None, None
    for bottom in itertools.combinations(ids, 5):
        rest = [c for c in ids if c not in bottom]
        for middle in itertools.combinations(rest, 5):
            top = tuple(c for c in rest if c not in middle)
            fb, fm = five_facts(bottom), five_facts(middle)
            roy_t, stay_t, key_t = top_facts(top)
            if beats(top, bottom):
                continue
            if lowball and not fm["qualifies"]:
                continue
            if not lowball and (beats(top, middle) or fm["high"] > fb["high"]):
                continue
            roy = (roy_t, fm["middle"], fb["bottom"])
            stay = stay_t or fm["stay_m"] or fb["stay_b"]
            value = sum(roy) + stay_value * stay
            key = (value, fb["high"], fm["low"] if lowball else fm["high"], key_t,
                   tuple(-c for c in bottom), tuple(-c for c in middle), tuple(-c for c in top))
            if best_key is None or key > best_key:
                best_key = key
                best = dict(top=top, middle=middle, bottom=bottom, discards=(), royalties=sum(roy),
                            row_royalties=roy, stays=bool(stay), value=float(value), fouled=False)
    return best if best is not None else fouled_fallback(ids)


# ----------------------------------------------------------------------------- test data
def arrange(hands13: np.ndarray, modes: np.ndarray, lowball: bool) -> np.ndarray:
    """Set each 13-card hand (N, 13) into a board (top 3, middle 5, bottom 5) by its mode:
    0 = as dealt (mostly fouls), 1 = greedy (best 5 on the bottom, best 5 of the rest in the middle;
    in 2-7 the best low in the middle first), 2 = greedy with middle and bottom swapped,
    3 = the highest pair (or trips) of the hand on top, then greedy.
    Test data only: uses the package's verified evaluators for speed."""
    from handrank import high, low27

    hands13 = np.asarray(hands13, dtype=np.uint8)
    out = hands13.copy()
    for i in np.flatnonzero(modes != 0):
        hand = [int(c) for c in hands13[i]]
        mode = int(modes[i])
        top: list[int] = []
        if mode == 3:
            counts = Counter(c // 4 for c in hand)
            rank = max((r for r, n in counts.items() if n >= 2), default=None,
                       key=lambda r: (min(counts[r], 3), r))
            if rank is not None:
                top = [c for c in hand if c // 4 == rank][:3]
        rest = [c for c in hand if c not in top]

        def best5(cards, evaluator):
            subsets = np.array(list(itertools.combinations(cards, 5)), dtype=np.uint8)
            return [int(c) for c in subsets[int(np.argmax(evaluator.evaluate_batch(subsets)))]]

        if lowball:
            middle = best5(rest, low27)
            rest = [c for c in rest if c not in middle]
            bottom = best5(rest, high)
        else:
            bottom = best5(rest, high)
            rest = [c for c in rest if c not in bottom]
            middle = best5(rest, high)
        rest = [c for c in rest if c not in middle and c not in bottom]
        top = top + rest                       # 13 cards: the top gets what is left
        assert len(top) == 3
        if mode == 2:
            middle, bottom = bottom, middle
        out[i] = top + middle + bottom
    return out


def deal(rng: np.random.Generator, n_deals: int, players: int, lowball: bool = False) -> np.ndarray:
    """(n_deals, players, 13) boards, one deck per deal (no card twice in a deal), each board set
    by a random mode of ``arrange``: a mix of fouled boards, valid ones and royalties."""
    decks = np.argsort(rng.random((n_deals, 52)), axis=1)[:, :13 * players].astype(np.uint8)
    hands = decks.reshape(n_deals * players, 13)
    modes = rng.choice(4, size=len(hands), p=[0.3, 0.35, 0.1, 0.25])
    return arrange(hands, modes, lowball).reshape(n_deals, players, 13)
