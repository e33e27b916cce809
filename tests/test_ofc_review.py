"""OFC findings of the fuzzing review (issue 27: F3, F13, U5, U6, U7, U9, U11, U13), each a test
that failed before its fix, and the review's method kept as a test: ``best_placement``'s exact
answers against full enumeration (every deal, each board finished by ``complete`` and scored by
the independent reference of tests/ofc_reference.py)."""
from __future__ import annotations

import itertools
import math
import random

import numpy as np
import pytest

import ofc_reference as ref
from handrank import ofc
from handrank.ofc import advise
from handrank.ofc.partial import PartialBoard


# ----------------------------------------------------------------------------- brute force
def _random_partial(rng: random.Random, deck: list[int], held: int) -> PartialBoard:
    """A board of `held` cards from the top of `deck` (rows within their sizes)."""
    while True:
        sizes = [rng.randint(0, 3), rng.randint(0, 5)]
        sizes.append(held - sum(sizes))
        if 0 <= sizes[2] <= 5:
            break
    cards = [deck.pop() for _ in range(held)]
    return PartialBoard(cards[:sizes[0]], cards[sizes[0]:sizes[0] + sizes[1]], cards[sizes[0] + sizes[1]:])


def _all_deals(unseen: list[int], blocks: list[int]):
    """Every deal: a combination per street of what the earlier streets left (itertools)."""
    def rest(left: list[int], blocks: list[int]):
        if not blocks:
            yield ()
            return
        for combo in itertools.combinations(left, blocks[0]):
            remaining = [c for c in left if c not in combo]
            for tail in rest(remaining, blocks[1:]):
                yield combo + tail
    return list(rest(unseen, blocks))


def _brute_force(own, dealt, opponents, seen, placements):
    """The exact expected score of each of `placements`: the mean over every deal of the unseen
    cards of the finished boards' value (alone: royalties, or the foul value) or points against
    each opponent (the reference's 1-6 scoring), and the number of deals."""
    known = set(own.cards) | set(dealt) | set(seen)
    for other in opponents:
        known |= set(other.cards)
    unseen = [c for c in range(52) if c not in known]
    after = own.extended(*placements[0].rows)
    mine = [n for n, _ in ofc.game.streets_to_come(after)]
    theirs = [[n for n, _ in ofc.game.streets_to_come(o)] for o in opponents]
    deals = _all_deals(unseen, mine + [n for plan in theirs for n in plan])
    totals = [0.0] * len(placements)
    for deal in deals:
        at, others = sum(mine), []
        for other, plan in zip(opponents, theirs):
            done = ofc.complete(other, deal[at:at + sum(plan)])
            at += sum(plan)
            others.append((done.top, done.middle, done.bottom))
        for i, placement in enumerate(placements):
            finished = ofc.complete(own.extended(*placement.rows), deal[:sum(mine)])
            rows = (finished.top, finished.middle, finished.bottom)
            if others:
                totals[i] += ref.score([rows] + others)[0]
            else:
                totals[i] += advise.foul_value() if ref.is_foul(*rows) else sum(ref.royalties(*rows))
    return [total / len(deals) for total in totals], len(deals)


def _spot(seed: int):
    """A random pineapple spot whose every deal is few: this player's last street against one or
    two opponents on theirs, or this player alone with two streets to come; the rest of the deck
    seen (folded hands, discards), leaving 7 to 10 cards unseen."""
    rng = random.Random(seed)
    deck = list(range(52))
    rng.shuffle(deck)
    kind = seed % 3
    if kind == 2:
        own, opponents, unseen = _random_partial(rng, deck, 7), [], 7
    else:
        own = _random_partial(rng, deck, 11)
        opponents = [_random_partial(rng, deck, 11) for _ in range(kind + 1)]
        unseen = 10 if kind == 0 else 7
    dealt = [deck.pop() for _ in range(3)]
    seen = deck[unseen:]
    return own, dealt, opponents, seen


@pytest.mark.parametrize("seed", range(9))
def test_exact_advice_equals_full_enumeration(seed):
    """The review's method: every placement's exact mean equals the brute-force mean over every
    deal. `samples` is set below the number of deals, where the exact path used to stop (F3)."""
    own, dealt, opponents, seen = _spot(seed)
    advice = ofc.best_placement(own, dealt, seen=seen, opponents=opponents,
                                samples=40 if opponents else 1000, seed=seed, threads=1)
    assert advice.exact
    means, deals = _brute_force(own, dealt, opponents, seen, [v.placement for v in advice.ranked])
    for value, mean in zip(advice.ranked, means):
        assert advice.deals == deals and value.samples == deals and value.stderr == 0
        assert value.mean == pytest.approx(mean, abs=1e-9), str(value.placement)
    means = [v.mean for v in advice.ranked]
    assert means == sorted(means, reverse=True)


def test_issue_example_exact_scores_every_deal():
    """F3's example: the exact answer does not depend on `samples` (it scored 1,000 of the 2,024
    deals before the fix: 5.105 against the true 4.335)."""
    kw = dict(opponents=["4s 5s 9d / 8d Js Th Ad / 5c Kh As 3s"], seen="3d 6s 7d", seed=1, threads=1)
    a = ofc.best_placement("2d 9s / 6c 4h Qs Jh / 2c 5h Qc 5d Qh", "4c 7h 9h", **kw)
    b = ofc.best_placement("2d 9s / 6c 4h Qs Jh / 2c 5h Qc 5d Qh", "4c 7h 9h", samples=10 ** 6, **kw)
    assert a.exact and b.exact and a.deals == b.deals == 2024
    assert [(v.placement, v.mean) for v in a.ranked] == [(v.placement, v.mean) for v in b.ranked]
    assert a.ranked[0].mean == pytest.approx(4.335, abs=1e-3)


# ----------------------------------------------------------------------------- F13: bounded
def test_huge_samples_refused_naming_the_limit():
    """F13: samples=10**13 on the second street (1.2e12 deals) used to enumerate every deal in a
    Python list until memory ran out; now it is refused at once, naming the limit."""
    with pytest.raises(ValueError, match="samples=10000000000000 .*limit of 400,000,000 bytes"):
        ofc.best_placement("As / Kd 9h / 2c 3c", "Qs Qh 7d", samples=10 ** 13)


def test_exact_enumeration_is_capped(monkeypatch):
    """F13: deals above EXACT_LIMIT are sampled, however many samples are asked for (before, any
    `samples` at least the number of deals enumerated them all, in a Python list)."""
    own, dealt, opponents, seen = _spot(2)                       # alone, two streets to come
    unseen = 52 - len(own) - 3 - len(seen)
    deals = math.comb(unseen, 3) * math.comb(unseen - 3, 3)
    assert ofc.best_placement(own, dealt, seen=seen, samples=deals, seed=1).exact
    monkeypatch.setattr(advise, "EXACT_LIMIT", deals - 1)
    advice = ofc.best_placement(own, dealt, seen=seen, samples=deals, seed=1)
    assert not advice.exact and advice.deals == deals
    assert all(v.stderr > 0 for v in advice.ranked if v.foul_rate not in (0.0, 1.0)) 


# ----------------------------------------------------------------------------- U5, U6
def test_numpy_integers_work_like_ints():
    """U5: ofc.Game(np.int64(2)) said "has 2 to 3 players, got np.int64(2)"."""
    game = ofc.Game(np.int64(2), seed=np.int64(3), button=np.int32(1),
                    fantasyland=(np.int64(0), np.int64(14)))
    plain = ofc.Game(2, seed=3, button=1, fantasyland=(0, 14))
    assert game.players == 2 and type(game.players) is int and game.button == 1
    assert game.dealt == plain.dealt and game.fantasyland == (0, 14)
    with pytest.raises(ValueError, match="players"):
        ofc.Game(np.bool_(True))


@pytest.mark.parametrize("call", [
    lambda: ofc.Game(2, seed=-1),
    lambda: ofc.Match(2, seed=-5),
    lambda: ofc.best_placement("", "As Kd 9h 2c 3c", seed=-1),
    lambda: ofc.best_placement("", "As Kd 9h 2c 3c", seed=np.int64(-2)),
])
def test_negative_seed_names_seed(call):
    """U6: numpy's "expected non-negative integer" named no parameter."""
    with pytest.raises(ValueError, match="seed must be >= 0"):
        call()


def test_bad_seed_type_names_seed():
    with pytest.raises(TypeError, match="seed must be an int"):
        ofc.Game(2, seed=1.5)


# ----------------------------------------------------------------------------- U11
def test_seats_out_of_range_are_refused():
    """U11: visible_board(5, 0) and unseen(7) raised IndexError; discards(-1) gave the last
    seat's discards."""
    game = ofc.Game(2, seed=1)
    with pytest.raises(ValueError, match="player must be a seat in 0..1, got 5"):
        game.visible_board(5, 0)
    with pytest.raises(ValueError, match="viewer must be a seat in 0..1, got 2"):
        game.visible_board(0, 2)
    with pytest.raises(ValueError, match="viewer must be a seat in 0..1, got 7"):
        game.unseen(7)
    with pytest.raises(ValueError, match="player must be a seat in 0..1, got -1"):
        game.discards(-1)
    with pytest.raises(TypeError, match="player must be a seat"):
        game.discards("0")
    assert game.discards(np.int64(1)) == () and game.unseen(np.int64(0))


@pytest.mark.parametrize("rows, where", [
    (("As", "As"), "in top and in middle"),
    (("As Ad As",), "duplicate card As"),
    (("", "Kd", "2c", "Kd"), "in middle and in discards"),
])
def test_placement_with_a_card_twice_is_refused(rows, where):
    """U11: Placement("As", "As") was accepted, and only `play` refused it."""
    with pytest.raises(ValueError, match=where):
        ofc.Placement(*rows)


# ----------------------------------------------------------------------------- U13
def test_empty_opponent_board_is_accepted():
    """U13: an opponent's board before their first street is '' (or '-'), as this player's."""
    assert advise.as_partial("") == PartialBoard() == advise.as_partial(" - ")
    advice = ofc.best_placement("", "As Kd 9h 2c 3c", opponents=[""], samples=64, seed=1, race=False)
    assert not advice.exact and len(advice.ranked) == 232


def test_cli_empty_opponent(capsys):
    from handrank.cli import main
    code = main(["ofc", "advise", "As / Kd 9h / 2c 3c", "--dealt", "Qs Qh 7d", "--opponent", "",
                 "--samples", "50", "--seed", "1", "--top", "1"])
    out, err = capsys.readouterr()
    assert code == 0 and "1 opponent" in out, (out, err)


def test_memory_bound_counts_every_placement_and_the_opponents():
    """F13: the bound is on the bytes the deals take, so the first street (232 placements, a
    race drawing RACE_MORE times the samples) allows fewer samples than a later one."""
    first = advise.MEMORY_LIMIT // ((9 * 232 + 47 + 13) * advise.RACE_MORE)
    with pytest.raises(ValueError, match=f"at most samples={first} here"):
        ofc.best_placement("", "As Kd 9h 2c 3c", opponents=[""], samples=first + 1)
    with pytest.raises(ValueError, match="bytes"):
        ofc.best_placement("", "As Kd 9h 2c 3c", samples=10 ** 7, race=False)


def test_cli_huge_samples_is_one_line(capsys):
    """F13's command line: it ran until memory ran out; now one line naming the limit."""
    from handrank.cli import main
    code = main(["ofc", "advise", "As / Kd 9h / 2c 3c", "--dealt", "Qs Qh 7d",
                 "--samples", "100000000000000000"])
    out, err = capsys.readouterr()
    assert code == 1 and out == "" and "limit of 400,000,000 bytes" in err and len(err.splitlines()) == 1
