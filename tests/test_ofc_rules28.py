"""OFC rules of issue 28, each tested from its seed line (../shared/seeds/, RULES.md "Decisions
added after review"): the Fantasyland hand dealt with the button of the hand that earned it, and
naturals paid as in Chinese poker; then random games and matches under random rule sets mixing
the new fields with the old (cards conserved, payments zero-sum, masks equal to the legal sets)."""
from __future__ import annotations

import random

import numpy as np
import pytest

import chinese_reference as cref
import ofc_reference as ref
from ofc_support import dealt_sequences
from handrank import chinese, ofc
from handrank.chinese.rules import NATURAL_VARIANTS, NATURALS
from handrank.ofc import actions
from handrank.ofc.partial import PartialBoard

KINDS = NATURALS + NATURAL_VARIANTS


# ----------------------------------------------------------------------------- policies
def seeing_policy(game: ofc.Game):
    """Each street-by-street player sets the board `ofc.complete` finds for every card they will
    be dealt (it sees the future: Fantasyland comes often); Fantasyland hands by the solver."""
    plans = {}
    for player, deals in dealt_sequences(game).items():
        if game.fantasyland[player] or not deals:
            continue
        board = ofc.complete(PartialBoard(), [c for d in deals for c in d], game.rules)
        plans[player] = {c: i for i, row in enumerate((board.top, board.middle, board.bottom)) for c in row}

    def choose(game: ofc.Game) -> None:
        if game.fantasyland_turn:
            game.play_fantasyland()
            return
        rows = plans[game.turn]
        placed = [[], [], []]
        for c in game.dealt:
            if c in rows:
                placed[rows[c]].append(c)
        game.play(ofc.Placement(*placed, discards=[c for c in game.dealt if c not in rows]))
    return choose


def random_policy(rng: random.Random):
    def choose(game: ofc.Game) -> None:
        if game.fantasyland_turn:
            game.play_fantasyland()
        else:
            game.play(rng.choice(game.legal_placements()))
    return choose


# ----------------------------------------------------------------------------- the button
def _play_match(match: ofc.Match, hands: int, policy_of) -> list[tuple[int, tuple[int, ...]]]:
    """(button, fantasyland) of each hand of `match`, played by `policy_of(game)`."""
    seen = []
    for _ in range(hands):
        game = match.game
        seen.append((game.button, game.fantasyland))
        policy = policy_of(game)
        while not game.over:
            policy(game)
        match.next_hand()
    seen.append((match.game.button, match.game.fantasyland))
    return seen


@pytest.mark.parametrize("players, seed", [(2, 1), (3, 4)])
def test_fantasyland_hand_keeps_the_button_of_the_hand_that_earned_it(players, seed):
    """Seeds 000 and 002: "Fantasyland is treated as a bonus round of OFC. It's common for the
    button not to move", and "Fantasyland is treated as the extension of a previous hand".
    RULES.md: the Fantasyland hand is dealt with the button of the hand that earned it; after it
    the button moves on as usual. (Before, the button moved into the Fantasyland hand and stayed
    after it.)"""
    rules = ofc.Rules.preset("progressive").replace(fantasyland_value=40.0)
    seen = _play_match(ofc.Match(players, rules, seed=seed), 8, seeing_policy)
    kept = 0
    for (button, _), (after, fantasyland) in zip(seen, seen[1:]):
        if any(fantasyland):                       # a Fantasyland hand: the earning hand's button
            assert after == button
            kept += 1
        else:                                      # any other hand: one seat left
            assert after == (button + 1) % players
    assert kept >= 1, seen
    # a Fantasyland hand followed by a hand without: the button moved on after it
    assert any(any(a[1]) and not any(b[1]) and b[0] == (a[0] + 1) % players
               for a, b in zip(seen, seen[1:])), seen


def test_button_moves_every_hand_without_the_option():
    rules = ofc.Rules.preset("progressive").replace(fantasyland_value=40.0)
    seen = _play_match(ofc.Match(2, rules, seed=1, button_stays_in_fantasyland=False), 6, seeing_policy)
    assert any(any(fl) for _, fl in seen)
    assert all(b == (a + 1) % 2 for (a, _), (b, _) in zip(seen, seen[1:]))


# ----------------------------------------------------------------------------- naturals
def _pick(pool: list[int], rng: random.Random, want) -> list[int] | None:
    """Cards of `pool` for a natural: `want(pool, rng)` or None when the pool cannot make it."""
    try:
        cards = want(pool, rng)
    except (ValueError, IndexError, KeyError):
        return None
    return cards if cards is not None and len(set(cards)) == 13 else None


def _by_rank(pool):
    ranks = {}
    for c in pool:
        ranks.setdefault(c // 4, []).append(c)
    return ranks


def _dragon(pool, rng):
    ranks = _by_rank(pool)
    return [rng.choice(ranks[r]) for r in range(13)]


def _six_pairs(pool, rng):
    ranks = _by_rank(pool)
    pairs = rng.sample([r for r, cs in ranks.items() if len(cs) >= 2], 6)
    cards = [c for r in pairs for c in rng.sample(ranks[r], 2)]
    return cards + [rng.choice([c for c in pool if c not in cards])]


def _three_flushes(pool, rng):
    cards: list[int] = []
    for size in (3, 5, 5):
        suit = rng.choice([s for s in range(4) if len([c for c in pool if c % 4 == s and c not in cards]) >= size])
        cards += rng.sample([c for c in pool if c % 4 == suit and c not in cards], size)
    return cards


def _three_straights(pool, rng):
    cards: list[int] = []
    for size in (3, 5, 5):
        start = rng.randrange(-1, 13 - size)                       # -1: the ace plays low
        ranks = [(start + k) % 13 for k in range(size)]
        cards += [rng.choice([c for c in pool if c // 4 == r and c not in cards]) for r in ranks]
    return cards


def _from_ranks(ranks):
    return lambda pool, rng: rng.sample([c for c in pool if c // 4 in ranks], 13)


def _colour(count):
    def want(pool, rng):
        red = [c for c in pool if c % 4 in (1, 2)]
        black = [c for c in pool if c % 4 in (0, 3)]
        main, other = (red, black) if rng.random() < 0.5 else (black, red)
        return rng.sample(main, count) + rng.sample(other, 13 - count)
    return want


MAKERS = {"dragon": _dragon, "six pairs": _six_pairs, "three flushes": _three_flushes,
          "three straights": _three_straights, "no picture cards": _from_ranks(set(range(13)) - {9, 10, 11}),
          "six and above": _from_ranks(set(range(4, 13))), "no broadway cards": _from_ranks(set(range(8))),
          "12 of one colour": _colour(12), "13 of one colour": _colour(13)}
assert set(MAKERS) == set(KINDS)


def _board_of(cards: list[int], rng: random.Random, rules: ofc.Rules) -> list[int]:
    """13 cards in row order: a valid setting (the solver's) or, one time in three, at random."""
    if rng.random() < 0.34:
        cards = list(cards)
        rng.shuffle(cards)
        return cards
    board = ofc.solve_fantasyland(cards, rules).board
    return list(board.top + board.middle + board.bottom)


def _expected(a, b, naturals: dict[str, int]) -> int:
    """The reference: a valid board's natural (tests/chinese_reference.py) pays as in Chinese
    poker; otherwise OFC's 1-6 (tests/ofc_reference.py)."""
    found = [None if ref.is_foul(x) else cref.natural(x, {"naturals": naturals}) for x in (a, b)]
    if found[0] is None and found[1] is None:
        return ref.pair_points(a, b)
    if found[0] is not None and found[1] is not None:
        winner = cref.compare_naturals(*found)
        return found[0].units if winner > 0 else -found[1].units if winner < 0 else 0
    return found[0].units if found[0] is not None else -found[1].units


@pytest.mark.parametrize("seed", range(4))
def test_naturals_paid_as_in_chinese_poker(seed):
    """Seed 003: "Other variations play with naturals and can be scored the same as standard
    Chinese poker". RULES.md: a completed, valid board that is a Chinese-poker natural (three
    straights, three flushes, six pairs, dragon, and the variants) is paid as in Chinese poker,
    instead of its rows and royalties. Random natural-rich boards against each other and against
    ordinary boards, checked against the two references."""
    rng = random.Random(seed)
    naturals = {kind: rng.randint(1, 20) for kind in rng.sample(KINDS, rng.randint(1, len(KINDS)))}
    rules = ofc.Rules(naturals=naturals)
    a_rows, b_rows = [], []
    while len(a_rows) < 40:
        deck = list(range(52))
        rng.shuffle(deck)
        hands = []
        for _ in range(2):
            maker = (MAKERS[rng.choice(sorted(naturals))] if rng.random() < 0.8
                     else (lambda pool, r: r.sample(pool, 13)))
            cards = _pick([c for c in deck if c not in {x for h in hands for x in h}], rng, maker)
            if cards is None:
                break
            hands.append(cards)
        if len(hands) < 2:
            continue
        a_rows.append(_board_of(hands[0], rng, rules))
        b_rows.append(_board_of(hands[1], rng, rules))
    got = ofc.score_batch(np.array(a_rows), np.array(b_rows), rules).tolist()
    want = [_expected(a, b, naturals) for a, b in zip(a_rows, b_rows)]
    assert got == want
    held = sum(not ref.is_foul(a) and cref.natural(a, {"naturals": naturals}) is not None for a in a_rows)
    assert held >= 10                                    # the boards did hold naturals
    both = sum(not ref.is_foul(x) and cref.natural(x, {"naturals": naturals}) is not None
               for pair in zip(a_rows, b_rows) for x in pair if all(
                   not ref.is_foul(y) and cref.natural(y, {"naturals": naturals}) for y in pair))
    assert both >= 2                                     # and some pairs held two
    # one board against the table: the sum of its pairs, zero-sum
    a, b = a_rows[0], b_rows[0]
    assert ofc.score([ofc.Board.from_cards(a), ofc.Board.from_cards(b)], rules) == [want[0], -want[0]]


def test_naturals_are_off_by_default_and_need_a_valid_board():
    dragon = "3s 4d 5c / 2c 6c 7d 8h 9s / Tc Jd Qh Kc Ac"
    other = "Qs Qd 5d / 9c 9d Jh Js 2h / Kd Kh Ks 3c 3d"
    assert ofc.Rules().naturals == () and ofc.score([dragon, other]) == [-17, 17]
    rules = ofc.Rules(naturals={"dragon": 13})
    assert ofc.score([dragon, other], rules) == [13, -13] == chinese.score([dragon, other])
    fouled = "Tc Jd Qh / 2c 6c 7d 8h 9s / 3s 4d 5c Kc Ac"     # the same cards, fouled: no natural
    assert ofc.is_foul(fouled) and ofc.score([fouled, other], rules) == ofc.score([fouled, other])


def test_naturals_in_games_matches_and_the_solver():
    """Game.points and Match pay naturals (through ofc.score); best_placement's compiled scorer
    does not, so it refuses them against opponents, saying so."""
    rules = ofc.Rules.preset("classic").replace(naturals={"six pairs": 3, "three flushes": 3})
    game = ofc.Game(2, rules, seed=5)
    policy = random_policy(random.Random(1))
    while not game.over:
        policy(game)
    boards = [b.board() for b in game.boards]
    assert game.points() == ofc.score(boards, rules)
    with pytest.raises(ValueError, match="naturals is not supported against opponents"):
        ofc.best_placement("", "As Kd 9h 2c 3c", opponents=[""], rules=rules)
    assert ofc.best_placement("", "As Kd 9h 2c 3c", rules=rules, samples=32, race=False).ranked


@pytest.mark.parametrize("bad, error", [
    ({"dragons": 13}, ValueError), ({"dragon": 0}, ValueError), ({"dragon": 1.5}, TypeError), (5, TypeError)])
def test_naturals_field_is_checked(bad, error):
    with pytest.raises(error, match="Rules.naturals"):
        ofc.Rules(naturals=bad)


# ----------------------------------------------------------------------------- random rule sets
def _random_rules(rng: random.Random) -> tuple[ofc.Rules, int]:
    rules = ofc.Rules.preset(rng.choice(["pineapple", "classic", "progressive", "deuce"]))
    changes = {}
    if rng.random() < 0.6:
        changes["naturals"] = {k: rng.randint(1, 13) for k in rng.sample(KINDS, rng.randint(1, 4))}
    if rng.random() < 0.3:
        changes["scoring"] = "2-4"
    if rng.random() < 0.3:
        changes["royalties_cancel"] = False
    if rng.random() < 0.3:
        changes["shoot_the_moon"] = 20
    if rng.random() < 0.5:
        changes["fantasyland_value"] = 30.0
    rules = rules.replace(**changes)
    return rules, rng.randint(2, 4 if rules.dealing == "classic" else 3)


def _check_hand(game: ofc.Game, rng: random.Random, policy) -> None:
    """Play `game` out checking at every turn that the mask equals the legal placements and, at
    the end, that no card is on two boards or discards and the points are zero-sum."""
    while not game.over:
        if not game.fantasyland_turn:
            legal = game.legal_placements()
            from_mask = [actions.placement(int(a), game.dealt) for a in np.flatnonzero(actions.mask(game))]
            assert from_mask == legal
        policy(game)
    cards = [c for b in game.boards for c in b.cards] + [c for p in range(game.players) for c in game.discards(p)]
    assert len(cards) == len(set(cards)) and all(0 <= c < 52 for c in cards)
    assert all(b.full for b in game.boards)
    for p, n in enumerate(game.fantasyland):
        assert len(game.discards(p)) == (n - 13 if n else (4 if game.rules.dealing == "pineapple" else 0))
    points = game.points()
    assert sum(points) == 0 and points == ofc.score([b.board() for b in game.boards], game.rules)


@pytest.mark.parametrize("seed", range(16))
def test_random_matches_under_random_rules(seed):
    rng = random.Random(seed)
    rules, players = _random_rules(rng)
    match = ofc.Match(players, rules, seed=seed, button=rng.randrange(players),
                      button_stays_in_fantasyland=rng.random() < 0.8)
    totals = [0] * players
    for _ in range(4):
        game = match.game
        policy = seeing_policy(game) if rng.random() < 0.5 else random_policy(rng)
        _check_hand(game, rng, policy)
        points, earned, button = game.points(), game.next_fantasyland(), game.button
        nxt = match.next_hand()
        totals = [t + p for t, p in zip(totals, points)]
        assert match.scores == totals and sum(match.scores) == 0
        assert nxt.fantasyland == earned
        stays = match.button_stays_in_fantasyland and any(earned)
        assert nxt.button == (button if stays else (button + 1) % players)
