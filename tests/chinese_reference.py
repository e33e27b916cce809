"""A slow, obviously-correct oracle for 13-card Chinese poker, written from RULES.md ("Cards",
"3-card high hands", "Open-Face Chinese poker" for the rows, "Chinese poker") and the seed text
(seeds/001: scoring, naturals, royalties) without handrank.chinese.

* Rules are plain dicts (PRESETS) written out from RULES.md; their keys are the field names of
  ``chinese.Rules`` so a test can build the same rules both ways (``rules_kwargs``). Tables are
  dicts ``{threshold text: units}`` read as tests/ofc_reference.py reads them ("222" = trips of
  deuces or better, a category name = that category or better; the strongest threshold reached
  pays).
* Hands are compared with the keys of tests/reference.py; a top row is compared with a 5-card row
  by RULES.md's rule (a key padded with "missing kicker" entries below every card), the same rule
  as ofc_reference.top_beats.
* Naturals: whether three flushes / three straights exist is read off the suit / rank counts by
  trying every choice of a suit (or a run of ranks) per row; ``natural_kinds_brute`` tries every
  one of the 72,072 splits instead (the tests check the two agree). The setting that shows a
  three-straights or three-flushes natural, and its strength, come from trying every split.
* ``brute_force`` enumerates all 72,072 splits of a hand with numpy: per-subset facts (reference
  strength, royalty, and the package's row value for the objectives that take row values) are
  computed once per hand and gathered over the splits. The "ev" objective is the formula of the
  spec, evaluated from ``chinese.row_tables(rules)`` (the tables are the package's; the search,
  the royalties and the formula are the reference's).
* ``pair_points`` / ``score``: the pairwise score (naturals, mis-sets, rows, 1-6 or 2-4 bonus,
  royalties to the row's winner or as net differences), and the variants of RULES.md "Decisions
  added after review": surrender, the natural variants, one royalty per hand, the wheel as the
  second-highest straight (a wheel's key takes the rank 11.5, between the king and the ace), the
  middle as a 2-7 low (compared by tests/reference.py's low27_key; only the top and the bottom are
  ordered), the scoop bonus as a number, mis-set hands still played.
* ``eleven_points``: one deal of the game to 11, from the seed's sentence: each row to the player
  whose row beats every other player's (pair by pair), a fourth point for all three rows at a
  table of four, a natural that beats every other natural taking the deal.

Card ids follow RULES.md: id = 4 * rank + suit, rank 0..12 = 2..A, suit 0..3 = c d h s.
"""
from __future__ import annotations

import itertools
from collections import Counter
import dataclasses
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

import ofc_reference as ofc_ref
from handrank.cards import cards as parse_cards
from reference import (ACE, STRAIGHT, STRAIGHT_FLUSH, high3_key, high5_key, low27_key, rank_of,
                       suit_of)

RANKS = "23456789TJQKA"
ROWS = ("top", "middle", "bottom")

# ----------------------------------------------------------------------------- RULES.md tables
# top: 222 .. AAA = 3 each; middle: full house 2, quads 8, straight flush 10, royal 20;
# bottom: full house 0 (no bonus: no entry), quads 4, straight flush 5, royal 10
TOP_ROYALTIES = {r * 3: 3 for r in RANKS}
MIDDLE_ROYALTIES = {"full house": 2, "quads": 8, "straight flush": 10, "royal flush": 20}
BOTTOM_ROYALTIES = {"quads": 4, "straight flush": 5, "royal flush": 10}
# naturals: dragon 13, three straights 3, three flushes 3, six pairs 3 (this order breaks ties)
NATURALS = {"dragon": 13, "three straights": 3, "three flushes": 3, "six pairs": 3}
NATURAL_KINDS = tuple(NATURALS)

# the variants (RULES.md "Decisions added after review"), all off; a surrender pays 3
VARIANT_NATURALS = ("no picture cards", "six and above", "12 of one colour", "13 of one colour",
                    "no broadway cards")
ONE_SIX = dict(scoring="1-6", top_royalties=TOP_ROYALTIES, middle_royalties=MIDDLE_ROYALTIES,
               bottom_royalties=BOTTOM_ROYALTIES, royalties_to_winner=True, naturals=NATURALS,
               surrender_allowed=False, surrender=3, one_royalty=False, wheel_second=False,
               low_middle=False, middle_low_royalties={}, scoop_bonus=None, mis_set_played=False)
PRESETS = {
    "1-6": ONE_SIX,
    "2-4": {**ONE_SIX, "scoring": "2-4"},
    "net-royalties": {**ONE_SIX, "royalties_to_winner": False},
    # the house rules of seeds/001, one preset each (see docs/chinese.md)
    "surrender": {**ONE_SIX, "surrender_allowed": True},
    "variant-naturals": {**ONE_SIX, "naturals": {**NATURALS, "no picture cards": 3, "six and above": 3,
                                                 "13 of one colour": 3, "12 of one colour": 3}},
    "no-broadway": {**ONE_SIX, "naturals": {**NATURALS, "no broadway cards": 3}},
    "one-royalty": {**ONE_SIX, "one_royalty": True},
    "wheel-second": {**ONE_SIX, "wheel_second": True},
    # seeds/001 "Other variations": "Low in the middle"; "only get an additional unit if they win
    # all three hands"; mis-set: "In some variations players are still required to play their hands"
    "low-middle": {**ONE_SIX, "low_middle": True},
    "scoop-unit": {**ONE_SIX, "scoop_bonus": 1},
    "mis-set-played": {**ONE_SIX, "mis_set_played": True},
}
# what sweeping all three rows pays: 3 rows + 3 bonus (1-6), 3 rows + the overall unit (2-4)
SCOOP = {"1-6": 6, "2-4": 4}


def scoop(rules) -> int:
    """What sweeping all three rows pays: SCOOP, with a scoop_bonus in place of the 1-6 bonus of 3
    (or, under 2-4, next to the overall unit)."""
    r = get_rules(rules)
    if r["scoop_bonus"] is None:
        return SCOOP[r["scoring"]]
    return SCOOP[r["scoring"]] - (3 if r["scoring"] == "1-6" else 0) + r["scoop_bonus"]


def get_rules(rules) -> dict:
    """A preset name, None (1-6), or a rules dict (anything missing is taken from 1-6)."""
    if rules is None:
        return ONE_SIX
    if isinstance(rules, str):
        return PRESETS[rules]
    return {**ONE_SIX, **rules}


def rules_kwargs(rules) -> dict:
    """Keyword arguments that build the same rules as ``chinese.Rules(**kwargs)``."""
    r = get_rules(rules)
    return {k: tuple(v.items()) if isinstance(v, dict) else v for k, v in r.items()}


def _frozen(r: dict) -> tuple:
    return tuple(sorted((k, tuple(v.items()) if isinstance(v, dict) else v) for k, v in r.items()))


# ----------------------------------------------------------------------------- one row
def ids_of(hand) -> list[int]:
    return [int(c) for c in parse_cards(hand)] if isinstance(hand, str) else [int(c) for c in hand]


def row_key(row, wheel_second: bool = False) -> tuple[int, ...]:
    """One ladder for 3- and 5-card rows (RULES.md "3-card high hands"): category on the 5-card
    ladder, then the ranks in order; a missing kicker (-1) is lower than any card. With
    `wheel_second` a wheel (5-high straight or straight flush) ranks between K-high and A-high."""
    key = high3_key(row) if len(row) == 3 else high5_key(row)
    if wheel_second and len(row) == 5 and key[0] in (STRAIGHT, STRAIGHT_FLUSH) and key[1] == 3:
        key = (key[0], 11.5)
    return tuple(key) + (-1,) * (6 - len(key))


def is_valid(top, middle, bottom, wheel_second: bool = False, low_middle: bool = False) -> bool:
    """Not mis-set: bottom >= middle >= top as high hands (the top by the 3-card rule); with a low
    middle bottom >= top alone."""
    if low_middle:
        return row_key(top, wheel_second) <= row_key(bottom, wheel_second)
    return row_key(top, wheel_second) <= row_key(middle, wheel_second) <= row_key(bottom, wheel_second)


def middle_key(middle, wheel_second: bool = False, low_middle: bool = False) -> tuple:
    """What two middles compare by: the high key, or the 2-7 key (bigger is the better low)."""
    return tuple(low27_key(middle)) if low_middle else row_key(middle, wheel_second)


def row_royalties(top, middle, bottom, rules=None) -> tuple[int, int, int]:
    """The royalty each row's hand earns by the rules' tables (whether or not the hand is valid)."""
    r = get_rules(rules)
    middle_royalty = (ofc_ref.low_table(list(middle), r["middle_low_royalties"]) if r["low_middle"]
                      else ofc_ref.five_table(list(middle), r["middle_royalties"]))
    return (ofc_ref.top_table(list(top), r["top_royalties"]), middle_royalty,
            ofc_ref.five_table(list(bottom), r["bottom_royalties"]))


def royalties(top, middle, bottom, rules=None) -> tuple[int, int, int]:
    """Row royalties of a valid setting as the hand collects them; (0, 0, 0) when mis-set."""
    r = get_rules(rules)
    if not is_valid(top, middle, bottom, r["wheel_second"], r["low_middle"]):
        return (0, 0, 0)
    return collected(row_royalties(top, middle, bottom, r), r)


def collected(row_royalty, rules) -> tuple[int, int, int]:
    """What a hand collects of its row royalties: all, or with one_royalty only the largest (of
    equal ones the lowest row's: bottom, then middle)."""
    if not get_rules(rules)["one_royalty"]:
        return tuple(row_royalty)
    keep = max((2, 1, 0), key=lambda k: row_royalty[k])      # max keeps the first of equals
    return tuple(u if k == keep else 0 for k, u in enumerate(row_royalty))


# ----------------------------------------------------------------------------- naturals
# runs of ranks, the ace also low, no wrap-around (K-A-2 is nothing)
RUNS3 = [(ACE, 0, 1)] + [tuple(range(s, s + 3)) for s in range(11)]     # A-2-3 .. Q-K-A
RUNS5 = [(ACE, 0, 1, 2, 3)] + [tuple(range(s, s + 5)) for s in range(9)]  # A-2-3-4-5 .. T-J-Q-K-A
# seeds/001: "The Wheel (A, 2, 3, 4, 5) is the second highest straight. Therefore, it is ranked
# above a 9, 10, J, Q, K straight, but below a 10, J, Q, K, A straight." (A-2-3 is no wheel)
RUNS5_WHEEL_SECOND = RUNS5[1:9] + [RUNS5[0], RUNS5[9]]
RUN3_RANKS = frozenset(tuple(sorted(w)) for w in RUNS3)


def is_straight3(row) -> bool:
    """A 3-card straight (for three straights only: as a hand, a top never is one)."""
    return tuple(sorted(rank_of(c) for c in row)) in RUN3_RANKS


@lru_cache(maxsize=1)
def _three_run_counts() -> frozenset:
    """Rank counts (13-tuples) of every (3-run, 5-run, 5-run) choice."""
    out = set()
    for runs in itertools.product(RUNS3, RUNS5, RUNS5):
        counts = Counter(itertools.chain(*runs))
        out.add(tuple(counts[r] for r in range(13)))
    return frozenset(out)


@lru_cache(maxsize=1)
def _three_suit_counts() -> frozenset:
    """Suit counts (4-tuples) of every choice of one suit for each row."""
    out = set()
    for suits in itertools.product(range(4), repeat=3):
        counts = [0] * 4
        for size, s in zip((3, 5, 5), suits):
            counts[s] += size
        out.add(tuple(counts))
    return frozenset(out)


def natural_kinds(cards) -> set[str]:
    """Every standard natural kind the 13 cards hold (whatever the rules pay); `variant_kinds`
    has the others."""
    ids = ids_of(cards)
    assert len(ids) == 13 and len(set(ids)) == 13
    ranks = Counter(rank_of(c) for c in ids)
    suits = Counter(suit_of(c) for c in ids)
    kinds = set()
    if len(ranks) == 13:
        kinds.add("dragon")
    if sum(n // 2 for n in ranks.values()) == 6:          # trips hold one pair, quads two
        kinds.add("six pairs")
    if tuple(ranks[r] for r in range(13)) in _three_run_counts():
        kinds.add("three straights")
    if tuple(suits[s] for s in range(4)) in _three_suit_counts():
        kinds.add("three flushes")
    return kinds


def variant_kinds(cards) -> set[str]:
    """The variant naturals (RULES.md "Decisions added after review") the 13 cards hold, read
    off the cards' text."""
    ids = ids_of(cards)
    ranks = {RANKS[rank_of(c)] for c in ids}
    colours = Counter("red" if "cdhs"[suit_of(c)] in "dh" else "black" for c in ids)
    kinds = set()
    if not ranks & set("JQK"):                      # the ace is not a picture
        kinds.add("no picture cards")
    if ranks <= set("6789TJQKA"):
        kinds.add("six and above")
    if max(colours.values()) >= 12:
        kinds.add("12 of one colour")
    if max(colours.values()) == 13:
        kinds.add("13 of one colour")
    if ranks <= set("23456789"):
        kinds.add("no broadway cards")
    return kinds


def _showing(f: HandFacts, kind: str) -> np.ndarray:
    """The split indices whose rows show three straights / three flushes."""
    b, m, t = split_table()
    if kind == "three straights":
        return np.flatnonzero(f.straight3[t] & f.straight5[m] & f.straight5[b])
    return np.flatnonzero(f.flush3[t] & f.flush5[m] & f.flush5[b])


def natural_kinds_brute(cards) -> set[str]:
    """natural_kinds by trying every one of the 72,072 splits for the row naturals."""
    ids = tuple(sorted(ids_of(cards)))
    f = hand_facts(ids)
    b, m, t = split_table()
    kinds = set()
    if len({rank_of(c) for c in ids}) == 13:
        kinds.add("dragon")
    if sum(n // 2 for n in Counter(rank_of(c) for c in ids).values()) == 6:
        kinds.add("six pairs")
    if (f.straight3[t] & f.straight5[m] & f.straight5[b]).any():
        kinds.add("three straights")
    if (f.flush3[t] & f.flush5[m] & f.flush5[b]).any():
        kinds.add("three flushes")
    return kinds


@dataclass(frozen=True)
class RefNatural:
    kind: str
    units: int
    key: tuple          # compares naturals of the same kind (reference keys; bigger wins)
    strength: tuple | None = None   # three straights / flushes: (bottom, middle, top) keys
    settings: tuple = ()            # every setting showing it with that strength


def strongest_natural_setting(cards, kind: str, wheel_second: bool = False):
    """(strength, settings): the strongest (bottom, middle, top) reference keys among the splits
    that show the natural, and every split that shows it with that strength. With `wheel_second`
    the rows compare with the wheel second-highest (also in straight order: RUNS5_WHEEL_SECOND)."""
    f = hand_facts(_sorted_hand(cards), wheel_second)
    b, m, t = split_table()
    shown = _showing(f, kind)
    assert shown.size, kind
    if kind == "three straights":      # rows compare in straight order, never as high cards
        shown = shown[f.strength5[b][shown] >= f.strength5[m][shown]]     # among valid settings
        runs5 = RUNS5_WHEEL_SECOND if wheel_second else RUNS5
        strengths = (run_place(f.hands5, runs5)[b], run_place(f.hands5, runs5)[m],
                     run_place(f.hands3, RUNS3)[t])
    else:
        strengths = (f.strength5[b], f.strength5[m], f.strength3[t])
    for strength in strengths:      # lexicographic max
        shown = shown[strength[shown] == strength[shown].max()]
    settings = tuple((tuple(f.hands3[t[i]].tolist()), tuple(f.hands5[m[i]].tolist()),
                      tuple(f.hands5[b[i]].tolist())) for i in shown)
    top, middle, bottom = settings[0]
    if kind == "three straights":
        return tuple(int(strength[shown[0]]) for strength in strengths), settings
    return (row_key(bottom, wheel_second), row_key(middle, wheel_second), row_key(top)), settings


def run_place(hands: np.ndarray, runs: list) -> np.ndarray:
    """Each row's place in straight order (the index of its run in `runs`, weakest first), -1
    for a row that is no run."""
    places = {frozenset(run): i for i, run in enumerate(runs)}
    return np.array([places.get(frozenset(rank_of(c) for c in row), -1) if len(row) == len(
        {rank_of(c) for c in row}) else -1 for row in hands.tolist()])


def natural(cards, rules=None) -> RefNatural | None:
    """The natural the rules pay for these cards: the most units, then the rules' order."""
    return _natural(_sorted_hand(cards), _frozen(get_rules(rules)))


@lru_cache(maxsize=4096)
def _natural(ids: tuple, frozen: tuple) -> RefNatural | None:
    held = natural_kinds(ids) | variant_kinds(ids)
    paid = [(kind, units) for kind, units in dict(frozen)["naturals"] if kind in held]
    if not paid:
        return None
    most = max(units for _, units in paid)
    kind = next(k for k, units in paid if units == most)
    if kind == "dragon":
        return RefNatural(kind, most, ())
    if kind == "six pairs":
        counts = Counter(rank_of(c) for c in ids)
        return RefNatural(kind, most, (max(rank for rank, n in counts.items() if n >= 2),))
    if kind in VARIANT_NATURALS:
        return RefNatural(kind, most, ())           # nothing ranks two of them: they tie
    strength, settings = strongest_natural_setting(ids, kind, dict(frozen)["wheel_second"])
    return RefNatural(kind, most, strength, strength, settings)


def compare_naturals(a: RefNatural, b: RefNatural) -> int:
    """More units win; equal units of different kinds tie; the same kind compares keys."""
    if a.units != b.units:
        return 1 if a.units > b.units else -1
    if a.kind != b.kind:
        return 0
    return (a.key > b.key) - (a.key < b.key)


# ----------------------------------------------------------------------------- every split
@lru_cache(maxsize=1)
def split_table() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Every split of 13 positions: (bottom, middle, top) indices into COMBOS5 / COMBOS5 / COMBOS3,
    72,072 of them in lexicographic order of (bottom, middle) position tuples."""
    index5 = {c: i for i, c in enumerate(COMBOS5)}
    index3 = {c: i for i, c in enumerate(COMBOS3)}
    b, m, t = [], [], []
    for bottom in COMBOS5:
        rest = [p for p in range(13) if p not in bottom]
        for middle in itertools.combinations(rest, 5):
            b.append(index5[bottom])
            m.append(index5[middle])
            t.append(index3[tuple(p for p in rest if p not in middle)])
    out = tuple(np.array(x, dtype=np.int64) for x in (b, m, t))
    assert len(out[0]) == 72_072
    return out


COMBOS5 = list(itertools.combinations(range(13), 5))     # lexicographic
COMBOS3 = list(itertools.combinations(range(13), 3))


@dataclass
class HandFacts:
    """Per-subset facts of one sorted 13-card hand (index = position in COMBOS5 / COMBOS3). The
    reference keys and royalties depend only on a subset's class (sorted ranks, all one suit or
    not), so they are computed once per class (and memoized across hands)."""

    ids: tuple
    hands5: np.ndarray        # (1287, 5) ids
    hands3: np.ndarray        # (286, 3)
    classes5: list            # the class codes present, and each subset's index into them
    classes3: list
    class_of5: np.ndarray
    class_of3: np.ndarray
    strength5: np.ndarray     # reference strength on one ladder with the tops (dense in this hand)
    strength3: np.ndarray
    row5: np.ndarray          # the package's row values (handrank.rows), for value objectives
    row3: np.ndarray
    straight5: np.ndarray
    straight3: np.ndarray
    flush5: np.ndarray
    flush3: np.ndarray


def _class_codes(hands: np.ndarray) -> np.ndarray:
    """An int per row of an (N, k) id array, equal exactly when the sorted ranks and whether all
    cards share a suit are equal."""
    ranks = np.sort(hands // 4, axis=1).astype(np.int64)
    suits = hands % 4
    code = np.zeros(len(hands), dtype=np.int64)
    for j in range(hands.shape[1]):
        code = code * 13 + ranks[:, j]
    return code * 2 + (suits == suits[:, :1]).all(axis=1)


_KEY_MEMO: dict = {}
_SAMPLE: dict = {}


def _class_keys(hands: np.ndarray, wheel_second: bool = False):
    """(class codes present, their row keys, each row's index into them)."""
    codes, first, inverse = np.unique(_class_codes(hands), return_index=True, return_inverse=True)
    keys = []
    for code, i in zip(codes.tolist(), first.tolist()):
        memo = (hands.shape[1], code)
        if memo not in _SAMPLE:
            _SAMPLE[memo] = tuple(hands[i].tolist())
        if memo + (wheel_second,) not in _KEY_MEMO:
            _KEY_MEMO[memo + (wheel_second,)] = row_key(_SAMPLE[memo], wheel_second)
        keys.append(_KEY_MEMO[memo + (wheel_second,)])
    return [(hands.shape[1], c) for c in codes.tolist()], keys, inverse.ravel()


@lru_cache(maxsize=32)
def hand_facts(ids: tuple, wheel_second: bool = False) -> HandFacts:
    from handrank import rows      # the package's row scale (verified by tests/test_rows.py)

    assert list(ids) == sorted(ids) and len(set(ids)) == 13
    arr = np.array(ids, dtype=np.uint8)
    hands5, hands3 = arr[np.array(COMBOS5)], arr[np.array(COMBOS3)]
    classes5, keys5, of5 = _class_keys(hands5, wheel_second)
    classes3, keys3, of3 = _class_keys(hands3, wheel_second)
    dense = {k: i for i, k in enumerate(sorted(set(keys5) | set(keys3)))}
    strength5 = np.array([dense[k] for k in keys5])[of5]
    strength3 = np.array([dense[k] for k in keys3])[of3]
    row5 = rows.value_batch(hands5, threads=1).astype(np.int64)
    row3 = rows.value_batch(hands3, threads=1).astype(np.int64)
    if wheel_second:
        # the ten straights (straight flushes) take ten consecutive row values, the wheel first:
        # the wheel moves up past the 6-high .. K-high ones, each of which moves down one
        key_top = np.array([k[1] if k[0] in (STRAIGHT, STRAIGHT_FLUSH) else -1 for k in keys5])[of5]
        row5 = row5 + np.where(key_top == 11.5, 8, 0) - np.isin(key_top, range(4, 12))
    # the package's scale orders this hand's rows exactly as the reference keys do
    both_rows = np.concatenate([row5, row3])
    both_strengths = np.concatenate([strength5, strength3])
    assert np.array_equal(np.unique(both_rows, return_inverse=True)[1].ravel(), both_strengths)
    suits5, suits3 = hands5 % 4, hands3 % 4
    return HandFacts(
        ids=ids, hands5=hands5, hands3=hands3, classes5=classes5, classes3=classes3,
        class_of5=of5, class_of3=of3, strength5=strength5, strength3=strength3,
        row5=row5, row3=row3,
        straight5=np.array([k[0] in (STRAIGHT, STRAIGHT_FLUSH) for k in keys5])[of5],
        straight3=np.array([is_straight3(_SAMPLE[c3]) for c3 in classes3])[of3],
        flush5=(suits5 == suits5[:, :1]).all(axis=1),
        flush3=(suits3 == suits3[:, :1]).all(axis=1))


_ROYALTY_MEMO: dict = {}


def _class_royalty(cls: tuple, which: str, frozen: tuple) -> int:
    """The royalty of a row of class `cls` in the row `which` (from one real hand of the class)."""
    memo = (cls, which, frozen)
    if memo not in _ROYALTY_MEMO:
        table = dict(dict(frozen)[f"{which}_royalties"])
        sample = list(_SAMPLE[cls])
        earned = {"top": ofc_ref.top_table, "middle_low": ofc_ref.low_table}.get(which, ofc_ref.five_table)
        _ROYALTY_MEMO[memo] = earned(sample, table)
    return _ROYALTY_MEMO[memo]


def subset_royalties(f: HandFacts, rules) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(top royalty per 3-subset, middle and bottom royalty per 5-subset)."""
    frozen = _frozen(get_rules(rules))
    middle_table = "middle_low" if get_rules(rules)["low_middle"] else "middle"
    top = np.array([_class_royalty(c, "top", frozen) for c in f.classes3])[f.class_of3]
    middle = np.array([_class_royalty(c, middle_table, frozen) for c in f.classes5])[f.class_of5]
    bottom = np.array([_class_royalty(c, "bottom", frozen) for c in f.classes5])[f.class_of5]
    return top, middle, bottom


def _sorted_hand(cards) -> tuple:
    ids = tuple(sorted(ids_of(cards)))
    assert len(ids) == 13 and len(set(ids)) == 13, ids
    return ids


def valid_splits(cards, wheel_second: bool = False, low_middle: bool = False,
                 every: bool = False):
    """(facts, b, m, t): the split indices of every valid setting (of every split, with `every`),
    in split order."""
    f = hand_facts(_sorted_hand(cards), wheel_second)
    b, m, t = split_table()
    if every:
        return f, b, m, t
    if low_middle:
        ok = f.strength3[t] <= f.strength5[b]
    else:
        ok = (f.strength3[t] <= f.strength5[m]) & (f.strength5[m] <= f.strength5[b])
    return f, b[ok], m[ok], t[ok]


@lru_cache(maxsize=32)
def low_facts(ids: tuple) -> tuple[np.ndarray, np.ndarray]:
    """(strength as a 2-7 middle of each 5-subset, dense in the hand; the package's 2-7 value of
    each, for the objectives that take row values), checked to order the subsets alike."""
    from handrank import low27

    f = hand_facts(ids)
    keys = [tuple(low27_key(_SAMPLE[c])) for c in f.classes5]
    dense = {k: i for i, k in enumerate(sorted(set(keys)))}
    strength = np.array([dense[k] for k in keys])[f.class_of5]
    value = low27.evaluate_batch(f.hands5, threads=1).astype(np.int64)
    assert np.array_equal(np.unique(value, return_inverse=True)[1].ravel(), strength)
    return strength, value


def boards_of(f: HandFacts, b, m, t) -> np.ndarray:
    """(M, 13) settings: top, middle, bottom, each ascending."""
    return np.concatenate([f.hands3[t], f.hands5[m], f.hands5[b]], axis=1).astype(np.uint8)


def valid_settings(cards, wheel_second: bool = False) -> np.ndarray:
    """Every valid setting as an (M, 13) uint8 array in lexicographic (bottom, middle) order."""
    f, b, m, t = valid_splits(cards, wheel_second)
    return boards_of(f, b, m, t)


def row_values(cards) -> np.ndarray:
    """(M, 3) package row values (top, middle, bottom) of the valid settings, in settings order."""
    f, b, m, t = valid_splits(cards)
    return np.stack([f.row3[t], f.row5[m], f.row5[b]], axis=1)


# ----------------------------------------------------------------------------- the "ev" formula
def ev_values(values: np.ndarray, my_royalty: np.ndarray, rules, tables) -> np.ndarray:
    """The spec's expectation for settings with row values (M, 3) and own royalties (M, 3)."""
    r = get_rules(rules)
    bonus = scoop(r) - SCOOP[r["scoring"]] + (3 if r["scoring"] == "1-6" else 0)
    w = np.stack([tables.win[k][values[:, k]] for k in range(3)], axis=1)
    lo = np.stack([tables.lose[k][values[:, k]] for k in range(3)], axis=1)
    if r["royalties_to_winner"]:
        beaten = np.stack([tables.beaten_royalty[k][values[:, k]] for k in range(3)], axis=1)
        royalty = my_royalty * w - beaten
    else:
        royalty = my_royalty - np.asarray(tables.mean_royalty)[None, :]
    base = (w - lo) + royalty
    total = base[:, 0] + base[:, 1] + base[:, 2]
    coupled = bonus * (w.prod(axis=1) - lo.prod(axis=1))
    if r["scoring"] == "2-4":
        # every outcome of the three rows (+1 won, 0 tied, -1 lost), rows independent
        tie = 1.0 - w - lo
        for outcome in itertools.product((1, 0, -1), repeat=3):
            p = np.ones(len(values))
            for k, o in enumerate(outcome):
                p = p * (w[:, k] if o == 1 else lo[:, k] if o == -1 else tie[:, k])
            coupled += np.sign(sum(outcome)) * p
    return total + coupled


def brute_force(cards, rules=None, objective="royalties", tables=None) -> dict:
    """The best valid setting over all 72,072 splits: top, middle, bottom (ascending tuples),
    value, the number of valid settings and the row royalties of the best.

    objective: "royalties" (total royalty units), "ev" (needs ``tables``, the package's
    row_tables) or a callable on the (M, 3) row values (a low middle's: the package's 2-7 value).
    Ties: the strongest bottom, then middle, then top, then the lowest ascending ids (bottom,
    middle, top) -- the first in split order. With mis_set_played "ev" and a callable choose
    among every split (a mis-set one collects no royalty)."""
    r = get_rules(rules)
    low = r["low_middle"]
    every = r["mis_set_played"] and objective != "royalties"
    f, b, m, t = valid_splits(cards, r["wheel_second"], low, every)
    assert len(b) > 0                          # bottom 5 highest cards etc. is always valid
    roy_t, roy_m, roy_b = subset_royalties(f, rules)
    mine = np.stack([roy_t[t], roy_m[m], roy_b[b]], axis=1)
    middle_strength, middle_value = low_facts(f.ids) if low else (f.strength5, f.row5)
    if every:
        valid = f.strength3[t] <= f.strength5[b]
        if not low:
            valid &= (f.strength3[t] <= f.strength5[m]) & (f.strength5[m] <= f.strength5[b])
        mine = np.where(valid[:, None], mine, 0)
    if r["one_royalty"]:
        # the largest row royalty alone; of equals the lowest row's (bottom, then middle)
        keep = 2 - np.argmax(mine[:, ::-1], axis=1)
        mine = np.where(np.arange(3)[None, :] == keep[:, None], mine, 0)
    if objective == "royalties":
        value = mine.sum(axis=1).astype(np.float64)
    elif objective == "ev":
        value = ev_values(np.stack([f.row3[t], middle_value[m], f.row5[b]], axis=1), mine, rules,
                          tables)
    else:
        value = np.asarray(objective(np.stack([f.row3[t], middle_value[m], f.row5[b]], axis=1)),
                           dtype=np.float64)
    candidates = np.flatnonzero(value == value.max())
    for strength in (f.strength5[b], middle_strength[m], f.strength3[t]):
        candidates = candidates[strength[candidates] == strength[candidates].max()]
    best = int(candidates[0])                  # split order: the lowest (bottom, middle, top) ids
    below = value[value < value[best]]
    return dict(top=tuple(f.hands3[t[best]].tolist()), middle=tuple(f.hands5[m[best]].tolist()),
                bottom=tuple(f.hands5[b[best]].tolist()), value=float(value[best]),
                row_royalties=tuple(int(x) for x in mine[best]), count=len(b),
                ties=len(candidates), gap=float(value[best] - below.max()) if below.size else None)


# ----------------------------------------------------------------------------- scoring
def _sign(a, b) -> int:
    return (a > b) - (a < b)


def setting_rows(setting):
    """(top, middle, bottom) id lists from 13 ids in row order, "a / b / c" text or a triple."""
    return ofc_ref.board_rows(setting)


def row_results(a, b, wheel_second: bool = False, low_middle: bool = False) -> list[int]:
    """+1 / 0 / -1 for a's top, middle and bottom against b's (as high hands; a low middle as a
    2-7 low)."""
    return [_sign(row_key(a[0], wheel_second), row_key(b[0], wheel_second)),
            _sign(middle_key(a[1], wheel_second, low_middle), middle_key(b[1], wheel_second, low_middle)),
            _sign(row_key(a[2], wheel_second), row_key(b[2], wheel_second))]


def pair_points(a, b, rules=None, surrendered=(False, False)) -> int:
    """What setting a wins from setting b (both (top, middle, bottom) or 13 ids in row order);
    `surrendered`: whether a, b surrendered."""
    r = get_rules(rules)
    wheel = r["wheel_second"]
    a, b = setting_rows(a), setting_rows(b)
    # naturals are paid at once, whatever the setting; rows are not compared
    nat_a, nat_b = natural(a[0] + a[1] + a[2], r), natural(b[0] + b[1] + b[2], r)
    if nat_a is not None or nat_b is not None:
        if nat_b is None:
            return nat_a.units
        if nat_a is None:
            return -nat_b.units
        winner = compare_naturals(nat_a, nat_b)
        return nat_a.units if winner > 0 else -nat_b.units if winner < 0 else 0
    # then surrenders (naturals are paid before anyone surrenders): no rows, no royalties
    if any(surrendered):
        assert r["surrender_allowed"]
        return 0 if all(surrendered) else -r["surrender"] if surrendered[0] else r["surrender"]
    sweep = scoop(r)
    low = r["low_middle"]
    valid_a, valid_b = is_valid(*a, wheel, low), is_valid(*b, wheel, low)
    if not r["mis_set_played"]:
        if not valid_a and not valid_b:
            return 0
        if not valid_a:
            return -(sweep + sum(collected(row_royalties(*b, rules=r), r)))  # b wins every row
        if not valid_b:
            return sweep + sum(collected(row_royalties(*a, rules=r), r))
    rows = row_results(a, b, wheel, low)
    wins, losses = rows.count(1), rows.count(-1)
    points = wins - losses
    if r["scoring"] == "2-4":
        points += _sign(wins, losses)                          # the overall unit
    if wins == 3:
        points += sweep - 3 - (r["scoring"] == "2-4")
    if losses == 3:
        points -= sweep - 3 - (r["scoring"] == "2-4")
    # a mis-set hand, played, collects nothing (and pays the other's royalties as usual)
    roy_a = collected(row_royalties(*a, rules=r), r) if valid_a else (0, 0, 0)
    roy_b = collected(row_royalties(*b, rules=r), r) if valid_b else (0, 0, 0)
    if r["royalties_to_winner"]:
        for k, result in enumerate(rows):
            points += roy_a[k] if result > 0 else -roy_b[k] if result < 0 else 0
    else:
        points += sum(roy_a) - sum(roy_b)
    return points


def score(settings, rules=None, surrendered=()) -> list[int]:
    """Net units of each of 2..4 players: the sum of its pair results against every other;
    `surrendered`: the indices of the players who surrendered."""
    assert 2 <= len(settings) <= 4
    totals = [0] * len(settings)
    for i, j in itertools.combinations(range(len(settings)), 2):
        p = pair_points(settings[i], settings[j], rules, (i in surrendered, j in surrendered))
        totals[i] += p
        totals[j] -= p
    return totals


# ----------------------------------------------------------------------------- the game to 11
def eleven_points(settings, rules=None, surrendered=()) -> list[int]:
    """One deal of the game to 11 (seeds/001: "1 point per hand ... If a player wins all 3 hands
    and there are 4 players, the winning player gets a 4th point"; RULES.md: a point per row won,
    a fourth for all three rows against every opponent at a table of four)."""
    r = get_rules(rules)
    n = len(settings)
    rows = [setting_rows(s) for s in settings]
    naturals = [natural(x[0] + x[1] + x[2], r) for x in rows]
    points = [0] * n
    if any(x is not None for x in naturals):
        # "they automatically win the hand": the natural that beats every other natural
        for i in range(n):
            if naturals[i] is not None and all(
                    naturals[j] is None or compare_naturals(naturals[i], naturals[j]) > 0
                    for j in range(n) if j != i):
                points[i] = 3 + (n == 4)
        return points
    playing = [i for i in range(n) if i not in surrendered
               and (r["mis_set_played"] or is_valid(*rows[i], r["wheel_second"], r["low_middle"]))]
    for i in playing:
        won = 0
        for k in range(3):
            others = [row_results(rows[i], rows[j], r["wheel_second"], r["low_middle"])[k]
                      for j in playing if j != i]
            won += all(result > 0 for result in others)
        points[i] = won + (won == 3 and n == 4)
    return points


# ----------------------------------------------------------------------------- test data
def natural_hand(rng: np.random.Generator, kind: str, deck=None) -> list[int] | None:
    """13 cards from `deck` (default: all 52) holding the natural `kind` (by construction), or
    None when the deck cannot give one after a few tries. Rows ascending, in row order."""
    deck = set(range(52)) if deck is None else {int(c) for c in deck}
    for _ in range(200):
        if kind == "dragon":
            hand = [4 * r + int(rng.integers(4)) for r in range(13)]
        elif kind == "six pairs":
            ranks = rng.choice(13, size=7, replace=False)
            hand = []
            for i, r in enumerate(ranks):
                suits = rng.choice(4, size=2 if i < 6 else 1, replace=False)
                hand += [4 * int(r) + int(s) for s in suits]
        elif kind == "three straights":
            runs = [RUNS3[rng.integers(len(RUNS3))], RUNS5[rng.integers(len(RUNS5))],
                    RUNS5[rng.integers(len(RUNS5))]]
            hand = [4 * r + int(rng.integers(4)) for run in runs for r in run]
        elif kind == "three flushes":
            suits = rng.integers(4, size=3)
            hand = []
            for size, s in zip((3, 5, 5), suits):
                free = [4 * r + int(s) for r in range(13) if 4 * r + int(s) not in hand]
                hand += [int(c) for c in rng.choice(free, size=size, replace=False)]
        elif kind in ("12 of one colour", "13 of one colour"):
            colour = ("dh", "cs")[int(rng.integers(2))]
            same = [c for c in range(52) if "cdhs"[suit_of(c)] in colour]
            other = [c for c in range(52) if c not in same]
            odd = 0 if kind == "13 of one colour" else int(rng.integers(2))
            hand = [int(c) for c in rng.choice(same, size=13 - odd, replace=False)]
            hand += [int(c) for c in rng.choice(other, size=odd, replace=False)]
        elif kind in VARIANT_NATURALS:
            allowed = {"no picture cards": "23456789TA", "six and above": "6789TJQKA",
                       "no broadway cards": "23456789"}[kind]
            pool = [c for c in range(52) if RANKS[rank_of(c)] in allowed]
            hand = [int(c) for c in rng.choice(pool, size=13, replace=False)]
        else:
            raise ValueError(kind)
        if len(set(hand)) == 13 and set(hand) <= deck:
            return hand
    return None


def royalty_rich_hand(rng: np.random.Generator, i: int) -> list[int]:
    """13 cards: by i % 3 uniform, from a few ranks (trips, quads, full houses), or from two suits
    (flushes, straight flushes)."""
    kind = i % 3
    if kind == 1:
        ranks = rng.choice(13, size=int(rng.integers(5, 8)), replace=False)
        deck = (4 * ranks[:, None] + np.arange(4)).ravel()
        if len(deck) < 13:
            deck = np.arange(52)
    elif kind == 2:
        suits = rng.choice(4, size=2, replace=False)
        deck = (4 * np.arange(13)[:, None] + suits).ravel()
    else:
        deck = np.arange(52)
    return [int(c) for c in rng.choice(deck, size=13, replace=False)]


def rules_dict(rules):
    """The reference's dict of a ``chinese.Rules`` (its fields; tables as dicts)."""
    return {f.name: getattr(rules, f.name) if not isinstance(getattr(rules, f.name), tuple)
            else dict(getattr(rules, f.name)) for f in dataclasses.fields(rules) if f.name != "name"}
