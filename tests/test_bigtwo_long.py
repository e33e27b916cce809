"""Big Two runs longer than five cards (issue 20): `Rules.long_straights` (6 to 12 cards) and
`Rules.dragon` (the 13-card run of the three-player game dealt 17 cards), from these lines of the
Big Two text (shared/seeds/000_*.txt):

    "Some variations allow for straights longer than five cards, or even as short as three cards."

    "A rare variation involves a three-player game, where each is dealt 17 cards. A 'Dragon'
    consists of 13 cards in straight (A-K-Q-J-10-9-8-7-6-5-4-3-2), is considered a valid
    combination and may be played once the player has gained control of the game. Suit of 2 is
    tie-breaker."

and, for how a run ranks, the straight's: "Rank is determined by the value of the biggest card,
with the suit used only as a tie-breaker."

Every check runs against a reference written apart from the library: the reference of
test_bigtwo_reference for 1 to 5 cards, and below a run read off the cards sorted by strength."""
from __future__ import annotations

import itertools
import pickle
import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import handrank as hr
from handrank import bigtwo
from handrank.bigtwo import Kind, Rules
from test_bigtwo_reference import assert_same_order
from test_bigtwo_variants import Follow, forbidden_last, play_to_the_end, reference_of, seed_rules

BIG_TWO = "3456789TJQKA2"
LONG = Rules(long_straights=True)
DRAGON = Rules(dragon=True)
BOTH = Rules(long_straights=True, dragon=True)


class LongReference:
    """Comparison numbers (0: no combo, higher beats lower among plays of a length): the reference
    of test_bigtwo_reference up to five cards; above, a run is k cards whose Big Two strengths,
    strongest first, fall by one rank at each step, worth its strongest card (the suit only where
    suits break ties of five-card plays)."""

    def __init__(self, rules: Rules, table: str = "hk"):
        self.small = reference_of(rules, table)
        self.level = self.small.level                       # what Follow reads
        self.run_sizes = set(rules.run_sizes)
        self.suits = rules.suit_tiebreak == "all"

    def strengths(self, hands: np.ndarray) -> np.ndarray:
        return self.small.strengths(hands)

    def values(self, hands: np.ndarray) -> np.ndarray:
        k = hands.shape[1]
        if k <= 5:
            return self.small.values(hands)
        st = self.small.strengths(hands)
        ranks, suits = st // 4, st % 4
        run = (ranks[:, :-1] - ranks[:, 1:] == 1).all(axis=1) & (k in self.run_sizes)
        return np.where(run, 4 * ranks[:, 0] + suits[:, 0] * self.suits + 1, 0)


def run_cards(low: int, length: int, rng: random.Random) -> list[int]:
    """A run of Big Two ranks low .. low + length - 1, each card of a random suit."""
    return [4 * ((low + j + 1) % 13) + rng.randrange(4) for j in range(length)]


# ----------------------------------------------------------------------------- the seed's lines
def test_straights_longer_than_five_cards():
    """"Some variations allow for straights longer than five cards": 6 to 12 cards of consecutive
    ranks, by the biggest card, "with the suit used only as a tie-breaker"; a run beats only a run
    of its own length."""
    six = bigtwo.classify("3d 4c 5h 6s 7d 8c", LONG)
    assert (six.kind, six.size, str(six)) == (Kind.LONG_STRAIGHT, 6, "long straight 3d 4c 5h 6s 7d 8c")
    assert bigtwo.classify("3d 4d 5d 6d 7d 8d", LONG).kind is Kind.LONG_STRAIGHT     # suits free
    assert bigtwo.classify("9d Tc Jh Qs Kd Ac 2h", LONG).size == 7                    # the 2 on top
    assert bigtwo.classify("Ad 2c 3h 4s 5d 6c", LONG) is None                         # no wrap
    assert bigtwo.classify("3d 4c 5h 6s 7d 9c", LONG) is None                         # a gap
    assert bigtwo.classify("3d 3c 4h 5s 6d 7c", LONG) is None                         # a pair
    assert bigtwo.beats("4d 5c 6h 7s 8d 9d", "3s 4s 5s 6s 7s 8s", LONG)
    assert bigtwo.beats("3d 4d 5d 6d 7d 8s", "3s 4s 5s 6s 7s 8h", LONG)               # 8s over 8h
    assert not bigtwo.beats("3s 4s 5s 6s 7s 8h", "3d 4d 5d 6d 7d 8s", LONG)
    assert not bigtwo.beats("4d 5c 6h 7s 8d 9d", "3s 4s 5s 6s 7s 8s 9s", LONG)        # other lengths
    assert not bigtwo.beats("4d 5c 6h 7s 8d 9d", "3s 4s 5s 6s 7s", LONG)
    assert not bigtwo.beats("3d 4c 5h 6s 7d", "3s 4s 5s 6s 7s 8s", LONG)
    # twelve cards at most: the thirteen-card run is the dragon
    assert bigtwo.classify("3d 4c 5h 6s 7d 8c 9h Ts Jd Qc Kh As", LONG).size == 12
    assert bigtwo.classify("3d 4c 5h 6s 7d 8c 9h Ts Jd Qc Kh As 2d", BOTH).kind is Kind.DRAGON
    with pytest.raises(ValueError, match="a Big Two play has 1 to 12 cards, got 13"):
        bigtwo.classify("3d 4c 5h 6s 7d 8c 9h Ts Jd Qc Kh As 2d", LONG)
    with pytest.raises(ValueError, match="a Big Two play has 1 to 5 cards, got 6"):
        bigtwo.classify("3d 4c 5h 6s 7d 8c")                                          # hk
    moves = bigtwo.legal_moves("3c 4c 5c 6c 7c 8c 9d 9h", "4s 5s 6s 7s 8s 9s", LONG)
    assert [str(m) for m in moves] == []
    moves = bigtwo.legal_moves("3c 4c 5c 6c 7c 8c 9d 9s", "4h 5s 6s 7s 8s 9h", LONG)
    assert [str(m) for m in moves] == ["long straight 4c 5c 6c 7c 8c 9s"]


def test_dragon():
    """"A 'Dragon' consists of 13 cards in straight (A-K-Q-J-10-9-8-7-6-5-4-3-2), is considered a
    valid combination ... Suit of 2 is tie-breaker."""
    spades_two = "3d 4d 5d 6d 7d 8d 9d Td Jd Qd Kd Ad 2s"
    hearts_two = "3s 4s 5s 6s 7s 8s 9s Ts Js Qs Ks As 2h"
    dragon = bigtwo.classify(spades_two, DRAGON)
    assert (dragon.kind, dragon.size) == (Kind.DRAGON, 13)
    assert bigtwo.beats(spades_two, hearts_two, DRAGON) and not bigtwo.beats(hearts_two, spades_two, DRAGON)
    assert bigtwo.classify("3d 4c 5h 6s 7d 8c 9h", DRAGON) is None           # no shorter long runs
    assert bigtwo.classify("3d 4c 5h 6s 7d 8c 9h Ts Jd Qc Kh As Ad", DRAGON) is None
    assert not bigtwo.beats(spades_two, "2s", DRAGON)                       # a lead, not a bomb
    assert bigtwo.legal_moves(spades_two, "3c", DRAGON)[-1].kind is Kind.SINGLE
    assert bigtwo.legal_moves(spades_two, None, DRAGON)[-1] == dragon
    # the same thirteen cards under suits that break no ties of five-card plays: equal dragons
    tied = Rules(dragon=True, suit_tiebreak="below_five")
    assert not bigtwo.beats(spades_two, hearts_two, tied) and not bigtwo.beats(hearts_two, spades_two, tied)
    with pytest.raises(ValueError, match="a Big Two play has 1 to 5 cards, got 13"):
        bigtwo.classify(spades_two)


def test_rules_fields():
    """The two fields are checked bools, in the sizes a play may have; pickled and compared by value."""
    assert LONG.sizes == (1, 2, 3, 5, 6, 7, 8, 9, 10, 11, 12) and DRAGON.sizes == (1, 2, 3, 5, 13)
    assert Rules().run_sizes == () and BOTH.run_sizes == tuple(range(6, 14))
    for name in ("long_straights", "dragon"):
        for bad in (1, "yes", None):
            with pytest.raises(TypeError, match=f"Rules.{name} must be a bool, got {bad!r}"):
                Rules(**{name: bad})
    assert pickle.loads(pickle.dumps(BOTH)) == BOTH != LONG
    assert bigtwo.classify("3d 4c 5h 6s 7d 8c", pickle.loads(pickle.dumps(LONG))).size == 6


@pytest.fixture(scope="module")
def both_space():
    return bigtwo.ComboSpace(BOTH)


@st.composite
def two_runs(draw):
    """Two runs of one length (6 to 13), each of random suits, maybe over different ranks."""
    length = draw(st.integers(6, 13))
    lows = draw(st.lists(st.integers(0, 13 - length), min_size=2, max_size=2))
    suits = draw(st.lists(st.lists(st.integers(0, 3), min_size=length, max_size=length),
                          min_size=2, max_size=2))
    return [[4 * ((low + j + 1) % 13) + s[j] for j in range(length)] for low, s in zip(lows, suits)]


@settings(max_examples=60, deadline=None)
@given(runs=two_runs())
def test_runs_properties(both_space, runs):
    """Two runs of one length: each is a run, exactly one beats the other (their top cards differ)
    or neither (the same top card), by the top card; their actions invert."""
    a, b = (bigtwo.classify(run, BOTH) for run in runs)
    assert a.kind is b.kind is (Kind.DRAGON if a.size == 13 else Kind.LONG_STRAIGHT)
    def strength(card):
        return bigtwo.card_strength(card, BOTH)
    top_a, top_b = (max(run, key=strength) for run in runs)
    assert bigtwo.beats(a, b, BOTH) == (strength(top_a) > strength(top_b))
    assert bigtwo.beats(b, a, BOTH) == (strength(top_b) > strength(top_a))
    for combo in (a, b):
        assert both_space.cards(both_space.action(combo)) == list(combo.cards)


# ----------------------------------------------------------------------------- classify_batch
def test_batch_against_the_reference():
    """Every length 6..13: runs planted among random sets and near misses (one card moved one
    rank), keyed by classify_batch in the reference's order, under rule sets mixing suit orders
    and suit tie-breaks; the keys equal classify's."""
    rng = random.Random(6)
    for suit_order, tiebreak in (("dchs", "all"), ("cshd", "all"), ("dchs", "below_five"), ("cdhs", "none")):
        rules = BOTH.replace(suit_order=suit_order, suit_tiebreak=tiebreak)
        ref = LongReference(rules)
        for k in range(6, 14):
            runs = [run_cards(rng.randrange(14 - k), k, rng) for _ in range(1500)]
            near = [[c if i else (c + 4) % 52 for i, c in enumerate(run)] for run in runs[:500]]
            near = [row for row in near if len(set(row)) == k]
            hands = np.concatenate([np.array(runs + near, dtype=np.uint8),
                                    hr.random_hands(1500, k, seed=k)])
            hands = np.unique(np.sort(hands, axis=1), axis=0)
            keys = bigtwo.classify_batch(hands, rules)
            assert_same_order(keys, ref.values(hands))
            for row, key in zip(hands[::97].tolist(), keys[::97].tolist()):
                combo = bigtwo.classify(row, rules)
                assert (combo.key if combo else 0) == key


def test_batch_shapes_and_errors():
    """Long rows are passed as an (N, k) array per length; a bad row is named; other lengths are
    refused by shape; the five-card path is unchanged."""
    with pytest.raises(ValueError, match=r"shape \(N, 1 or 2 or 3 or 5\), got \(1, 6\)"):
        bigtwo.classify_batch(np.zeros((1, 6), dtype=np.uint8))
    with pytest.raises(ValueError, match=r"got \(1, 13\)"):
        bigtwo.classify_batch(np.zeros((1, 13), dtype=np.uint8), LONG)
    rows = np.array([hr.cards("3d 4c 5h 6s 7d 8c 9h"), hr.cards("3d 4c 5h 6s 7d 8c 8h")], dtype=np.uint8)
    assert bigtwo.classify_batch(rows, LONG).tolist() == [bigtwo.classify(rows[0], LONG).key, 0]
    bad = rows.copy()
    bad[1, 6] = bad[1, 0]
    out = np.full(2, 7, dtype=np.int32)
    with pytest.raises(ValueError, match="row 1.*3d"):
        bigtwo.classify_batch(bad, LONG, out=out)
    assert out.tolist() == [7, 7]
    fives = hr.random_hands(20_000, 5, seed=1)
    assert (bigtwo.classify_batch(fives, BOTH) == bigtwo.classify_batch(fives)).all()


# ----------------------------------------------------------------------------- legal moves
def with_long_runs(rules: Rules, rng: random.Random) -> Rules:
    """`rules` with long runs, the dragon or both."""
    long_straights, dragon = rng.choice([(True, False), (False, True), (True, True)])
    return rules.replace(long_straights=long_straights, dragon=dragon)


def seed_long_rules(n: int) -> list[tuple[Rules, str]]:
    """The random rule sets of test_bigtwo_variants (whose class tables a whole run has built
    already) with random follow rules, long runs and the dragon."""
    rng = random.Random(21)
    return [(with_long_runs(rules.replace(
        bombs_beat_small=rng.random() < 0.5, four_beats_all=rng.random() < 0.5,
        five_card_match=rng.choice(["any", "same_kind", "top_card"]),
        three_card_straights=rng.random() < 0.5), rng), table) for rules, table in seed_rules(n)]


def deal_with_runs(rules: Rules, rng: random.Random, size: int) -> tuple[list[int], list[int]]:
    """Two hands of `size` cards that hold runs of one of the rules' lengths over the same ranks
    (so that one may beat the other), the rest of each hand random."""
    length = rng.choice(rules.run_sizes)
    low = rng.randrange(14 - length)
    hand, rest = [], []
    for j in range(length):
        suits = rng.sample(range(4), 2)
        rank = (low + j + 1) % 13
        hand.append(4 * rank + suits[0])
        rest.append(4 * rank + suits[1])
    others = [c for c in range(52) if c not in hand + rest]
    rng.shuffle(others)
    return hand + others[:size - length], rest + others[size - length:2 * size - length]


def test_legal_moves_under_random_rule_sets():
    """legal_moves, legal_move_arrays, beats and classify against brute force over every subset
    (1 to 13 cards) of hands that hold long runs, leading and following, under 30 random rule sets
    that mix long runs and the dragon with every other new field."""
    rng = random.Random(20)
    for rules, table in seed_long_rules(30):
        ref = LongReference(rules, table)
        follow = Follow(rules, ref)
        for _ in range(4):
            hand, rest = deal_with_runs(rules, rng, 13)
            theirs = bigtwo.legal_moves(rest, None, rules)
            by_size = {m.size: m for m in theirs}               # the strongest of each size
            current = rng.choice([None, rng.choice(theirs)] + list(by_size.values()))
            moves = bigtwo.legal_moves(hand, current, rules)
            if current is None:
                expected = set()
                for k in rules.sizes:
                    sets = np.array(list(itertools.combinations(sorted(hand), k)), dtype=np.uint8)
                    expected.update(map(tuple, sets[ref.values(sets) > 0].tolist()))
            else:
                expected = follow.legal(hand, current.cards)
            # the play-flow fields of seed_rules: a play that empties the hand may be forbidden
            expected = {s for s in expected if not (len(s) == len(hand) and forbidden_last(rules, s))}
            assert {m.cards for m in moves} == expected, (rules, hand, current)
            assert len(moves) == len(expected)
            cards, sizes, keys = bigtwo.legal_move_arrays(hand, current, rules)
            assert cards.shape == (len(moves), max(rules.sizes))
            assert [tuple(row[:s]) for row, s in zip(cards.tolist(), sizes.tolist())] == [m.cards for m in moves]
            assert keys.tolist() == [m.key for m in moves]
            for m in moves[-40:]:
                assert bigtwo.classify(m.cards, rules) == m and bigtwo.beats(m, current, rules)


def test_the_short_plays_are_unchanged():
    """With long runs on, the plays of 1 to 5 cards and their keys are those of the same rules
    without them."""
    for i, (rules, _) in enumerate(seed_long_rules(8)):
        short = rules.replace(long_straights=False, dragon=False)
        for hand in hr.random_hands(3, 17, seed=i).tolist():
            assert [m for m in bigtwo.legal_moves(hand, None, rules) if m.size <= 5] == \
                bigtwo.legal_moves(hand, None, short)


def test_hands_too_big_for_the_run_listing():
    """A whole deck holds about 119 million long runs: listing them is refused, with the count."""
    with pytest.raises(ValueError, match="a hand of 52 cards holds 119,.* long runs"):
        bigtwo.legal_moves(list(range(52)), None, BOTH)
    assert len(bigtwo.legal_moves(list(range(52)), None, Rules())) == bigtwo.ComboSpace().size - 1


# ----------------------------------------------------------------------------- the action space
def run_count(lengths) -> int:
    return sum((14 - n) * 4 ** n for n in lengths)


def test_combo_space_covers_the_runs():
    """The action space numbers every run after the plays of 1 to 5 cards (whose actions do not
    change), in the order of legal_moves: by size, then key; cards and action invert each other."""
    assert bigtwo.ComboSpace().size == 19_899
    for rules in (LONG, DRAGON, BOTH.replace(suit_order="cshd"), LONG.replace(suit_tiebreak="none")):
        space = bigtwo.ComboSpace(rules)
        base = bigtwo.ComboSpace(rules.replace(long_straights=False, dragon=False))
        assert space.size == base.size + run_count(rules.run_sizes)
        assert [space.cards(a) for a in (1, 500, base.size - 1)] == [base.cards(a) for a in (1, 500, base.size - 1)]
        rng = random.Random(len(rules.run_sizes))
        samples = sorted({base.size, space.size - 1} | {rng.randrange(base.size, space.size) for _ in range(300)})
        previous = (5, 1 << 30)
        for action in samples:
            cards = space.cards(action)
            combo = bigtwo.classify(cards, rules)
            assert combo is not None and combo.size > 5, (action, cards)
            assert space.action(cards) == space.action(combo) == action
            assert (combo.size, combo.key) >= previous
            previous = (combo.size, combo.key)
    with pytest.raises(ValueError, match="not a Big Two combo under these rules"):
        bigtwo.ComboSpace(LONG).action("3d 4c 5h 6s 7d 9c")
    with pytest.raises(ValueError, match="1 to 12 distinct cards"):
        bigtwo.ComboSpace(LONG).action("3d 4c 5h 6s 7d 8c 9h Ts Jd Qc Kh As 2d")


def test_combo_space_masks_are_the_legal_moves():
    rng = random.Random(9)
    for rules in (LONG, BOTH.replace(three_card_straights=True, four_beats_all=True)):
        space = bigtwo.ComboSpace(rules)
        for trial in range(16):
            hand, rest = deal_with_runs(rules, rng, [13, 17, 13, 26][trial % 4])
            moves = bigtwo.legal_moves(rest, None, rules)
            current = rng.choice(moves) if trial % 2 else None
            actions = space.legal_actions(hand, current)
            assert (actions[:1] == 0).all() == (current is not None)
            played = sorted(tuple(space.cards(int(a))) for a in actions if a)
            assert played == sorted(m.cards for m in bigtwo.legal_moves(hand, current, rules))
            if trial == 1:
                assert (np.flatnonzero(space.mask(hand, current)) == actions).all()


# ----------------------------------------------------------------------------- games
def dragon_deals(rules: Rules, count: int) -> list[int]:
    """Seeds of three-player whole-deck games in which someone is dealt a dragon."""
    seeds = []
    for seed in itertools.count():
        game = bigtwo.Game(3, rules, seed=seed, deal="all")
        if any(len({c // 4 for c in hand}) == 13 for hand in game.hands):
            seeds.append(seed)
            if len(seeds) == count:
                return seeds
    raise AssertionError("unreachable")


def test_games_with_long_runs_and_dragons():
    """Three-player games dealt 17 cards each in which a player holds a dragon run to the end with
    only legal moves, over the ComboSpace mask; the dragon is among the leader's moves; the dragon
    rules need that game."""
    rng = random.Random(12)
    for i, seed in enumerate(dragon_deals(BOTH, 6)):
        rules = BOTH if i % 2 else DRAGON.replace(four_beats_all=True)
        game = bigtwo.Game(3, rules, seed=seed, deal="all")
        holder = next(p for p, hand in enumerate(game.hands) if len({c // 4 for c in hand}) == 13)
        # the others pass or lead their weakest play, the holder beats what it can without
        # breaking the dragon, until the holder leads
        while not game.over and (game.turn != holder or game.to_beat is not None):
            moves = game.legal_moves()
            if game.turn == holder:
                moves = [m for m in moves if len({c // 4 for c in game.hand() if c not in m.cards}) == 13]
            if game.can_pass and (game.turn != holder or not moves):
                game.pass_()
            else:
                game.play(moves[0])
        if not game.over:
            dragons = [m for m in game.legal_moves() if m.kind is Kind.DRAGON]
            assert dragons
            played = game.play(rng.choice(dragons))
            assert game.to_beat == played and played.size == 13
            # only a higher dragon follows (or, under four_beats_all, a play holding four of a kind)
            assert all(m.kind in (Kind.DRAGON, Kind.FOUR_OF_A_KIND) for m in game.legal_moves())
        space = bigtwo.ComboSpace(rules) if i < 2 else None
        play_to_the_end(game, rules, space, rng)
    for players, deal in ((4, "thirteen"), (3, "thirteen"), (2, "all")):
        with pytest.raises(ValueError, match="Rules.dragon is the three-player game dealt 17 cards"):
            bigtwo.Game(players, DRAGON, deal=deal)
    game = bigtwo.Game(4, LONG, seed=1)
    play_to_the_end(game, LONG, None, rng)
