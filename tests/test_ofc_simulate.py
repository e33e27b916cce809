"""ofc.simulate: whole hands of OFC played by the random policy in compiled code.

Oracles: tests/ofc_reference.py scores every finished board (test_ofc_game's reference scorer for
the scoring options); each hand is replayed street by street on `PartialBoard`s from the cards it
was dealt; the policy is checked, by counting, to be uniform over the legal placements `Game` lists
(`ofc.actions`) in every state a street can start from.
"""
from __future__ import annotations

import threading
import time

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import ofc_reference as ref
from handrank import ofc
from handrank.ofc import actions
from test_ofc_game import OPTIONS, ref_score

CASES = [("classic", 2), ("classic", 3), ("classic", 4), ("pineapple", 2), ("pineapple", 3),
         ("progressive", 2), ("deuce", 2), ("deuce", 3)]
SCORED = 60         # hands per case scored by the slow reference
REPLAYED = 300      # hands per case replayed street by street


@pytest.fixture(scope="module")
def played() -> dict[tuple[str, int], ofc.Simulation]:
    return {case: ofc.simulate(REPLAYED, case[0], players=case[1], seed=i) for i, case in enumerate(CASES)}


@pytest.mark.parametrize("case", CASES, ids=lambda c: f"{c[0]}-{c[1]}")
def test_points_match_the_reference(played, case) -> None:
    variant, players = case
    sim = played[case]
    for h in range(SCORED):
        boards = [ref.board_rows(sim.boards[h, p].tolist()) for p in range(players)]
        assert sim.points[h].tolist() == ref.score(boards, variant), h
        assert sim.foul[h].tolist() == [ref.is_foul(*b, rules=variant) for b in boards]
        assert sim.royalties[h].tolist() == [list(ref.royalties(*b, rules=variant)) for b in boards]
        assert sim.fantasyland[h].tolist() == [ref.fantasyland(*b, rules=variant) for b in boards]
    assert (sim.points.sum(axis=1) == 0).all()


@pytest.mark.parametrize("options", OPTIONS,
                         ids=lambda o: ",".join(f"{k}={v}" for k, v in o.items()) or "default")
def test_scoring_options_match_the_reference(options) -> None:
    for i, (variant, players) in enumerate([("classic", 4), ("deuce", 3)]):
        rules = ofc.Rules.preset(variant).replace(name=variant, **options)
        sim = ofc.simulate(25, rules, players=players, seed=i)
        for h in range(len(sim.boards)):
            boards = [ofc.Board.from_cards(sim.boards[h, p].tolist()) for p in range(players)]
            assert sim.points[h].tolist() == ref_score(boards, rules), h


@pytest.mark.parametrize("case", CASES, ids=lambda c: f"{c[0]}-{c[1]}")
def test_hands_replay_street_by_street(played, case) -> None:
    """Each street's cards go to rows with room (or the discards, as many as the street
    discards), cards never move, and the board grows by the street's placed cards."""
    variant, players = case
    sim = played[case]
    plan = ofc.streets(variant)
    assert sim.dealt.shape[2] == sum(k for k, _ in plan) and sim.discards.shape[2] == sum(d for _, d in plan)
    for h in range(len(sim.boards)):
        every = sim.dealt[h].ravel().tolist()
        assert len(set(every)) == len(every)        # one deck: no card dealt twice in a hand
        on_boards = set(sim.boards[h].ravel().tolist())
        for p in range(players):
            row_of = {c: row for row, cards in enumerate((sim.boards[h, p, :3], sim.boards[h, p, 3:8],
                                                          sim.boards[h, p, 8:])) for c in cards.tolist()}
            dropped = sim.discards[h, p].tolist()
            assert not on_boards.intersection(dropped)      # a discard is on no board, anyone's
            board, start, placed = ofc.PartialBoard(), 0, 0
            for street, (k, d) in enumerate(plan):
                cards = sim.dealt[h, p, start:start + k].tolist()
                start += k
                assert cards == sorted(cards)
                parts: list[list[int]] = [[], [], [], []]
                for c in cards:
                    parts[row_of.get(c, 3)].append(c)
                assert parts[3] == dropped[street - 1:street] if d else not parts[3]
                board = board.place(*parts[:3])     # raises if a row overflows
                placed += k - d
                assert len(board) == placed
            assert board.board().cards == tuple(sim.boards[h, p].tolist())
            assert sorted(board.cards + tuple(dropped)) == sorted(sim.dealt[h, p].tolist())


def _street_actions(sim: ofc.Simulation, plan) -> list[tuple[int, tuple[int, int, int], int, np.ndarray]]:
    """(street, free slots before it, cards dealt, the action of each player-hand) per street."""
    boards = sim.boards.reshape(-1, 13)
    dealt = sim.dealt.reshape(len(boards), -1)
    row_of = np.full((len(boards), 52), 3, dtype=np.int64)      # where each card ended: 3 = discarded
    for row, (a, b) in enumerate(((0, 3), (3, 8), (8, 13))):
        np.put_along_axis(row_of, boards[:, a:b].astype(np.int64), row, axis=1)
    free = np.tile(np.array([3, 5, 5]), (len(boards), 1))
    out, start = [], 0
    for street, (k, d) in enumerate(plan):
        digits = np.take_along_axis(row_of, dealt[:, start:start + k].astype(np.int64), axis=1)
        action = (digits * 4 ** np.arange(k)).sum(axis=1)
        codes = free @ np.array([36, 6, 1])
        for code in np.unique(codes):
            state = (int(code) // 36, int(code) // 6 % 6, int(code) % 6)
            out.append((street, state, k, action[codes == code]))
        for row in range(3):
            free[:, row] -= (digits == row).sum(axis=1)
        start += k
    return out


@pytest.mark.parametrize("variant", ["pineapple", "classic"])
def test_the_policy_is_uniform_over_the_legal_placements(variant) -> None:
    """Grouped by street and free slots, the placements made are legal ones (as Game lists them)
    and every legal one comes up equally often: a chi-square statistic per group, and pooled."""
    sim = ofc.simulate(12_000, variant, players=2, seed=99)
    plan = ofc.streets(variant)
    statistic = freedom = 0.0
    for street, state, k, made in _street_actions(sim, plan):
        legal = np.flatnonzero(actions.legal(k, state, plan[street][1]))
        assert np.isin(made, legal).all(), (street, state)
        if len(made) < 20 * len(legal) or len(legal) < 2:
            continue
        counts = np.bincount(np.searchsorted(legal, made), minlength=len(legal))
        expected = len(made) / len(legal)
        chi2 = float(((counts - expected) ** 2 / expected).sum())
        dof = len(legal) - 1
        assert chi2 < dof + 6 * np.sqrt(2 * dof), (street, state, counts)
        statistic += chi2
        freedom += dof
    assert freedom > 300       # the first street alone has 232 legal placements
    assert abs(statistic - freedom) < 4 * np.sqrt(2 * freedom)


@settings(max_examples=30, deadline=None)
@given(case=st.sampled_from(CASES), seed=st.integers(0, 2 ** 64 - 1), hands=st.integers(0, 40),
       threads=st.integers(1, 3))
def test_any_seed_plays_whole_hands(case, seed, hands, threads) -> None:
    """Invariants for any seed: one deck per hand, each board the player's cards less their
    discards, zero-sum points, and the points and fouls of ofc.score / evaluate_batch."""
    variant, players = case
    sim = ofc.simulate(hands, variant, players=players, seed=seed, threads=threads)
    every = np.sort(sim.dealt.reshape(hands, players * sim.dealt.shape[2]), axis=1)
    assert not (every[:, 1:] == every[:, :-1]).any()
    kept = np.sort(np.concatenate([sim.boards, sim.discards], axis=2), axis=2)
    assert np.array_equal(kept, np.sort(sim.dealt, axis=2))
    assert (sim.points.sum(axis=1) == 0).all()
    for h in range(min(hands, 5)):
        boards = [ofc.Board.from_cards(b) for b in sim.boards[h].tolist()]
        assert sim.points[h].tolist() == ofc.score(boards, variant)
        assert sim.foul[h].tolist() == [ofc.is_foul(b, variant) for b in boards]


def test_seeding() -> None:
    one = ofc.simulate(3000, "pineapple", seed=7, threads=1)
    assert all(np.array_equal(a, b) for a, b in zip(one, ofc.simulate(3000, "pineapple", seed=7, threads=2)))
    assert all(np.array_equal(a[:100], b) for a, b in zip(one, ofc.simulate(100, "pineapple", seed=7)))
    sequence = ofc.simulate(50, seed=np.random.SeedSequence(7))
    assert np.array_equal(sequence.boards, one.boards[:50])
    other = ofc.simulate(3000, "pineapple", seed=8)
    assert (other.dealt != one.dealt).any(axis=(1, 2)).mean() > 0.99
    # a random placement, not a fixed one: the same deal seldom ends in the same boards
    assert len({tuple(b) for b in one.boards[:, 0, :3].tolist()}) > 2900


def test_the_gil_is_released() -> None:
    """Python runs in another thread while simulate plays (it would wait for the whole call if
    the compiled loops held the GIL)."""
    window: list[float] = []

    def play() -> None:
        start = time.perf_counter()
        ofc.simulate(200_000, "pineapple", seed=3, threads=1)
        window.extend((start, time.perf_counter()))

    ticks = []
    worker = threading.Thread(target=play)
    worker.start()
    while worker.is_alive():
        ticks.append(time.perf_counter())
        time.sleep(0)
    worker.join()
    start, end = window
    margin = (end - start) / 5
    assert any(start + margin < t < end - margin for t in ticks)


def test_shapes_and_empty() -> None:
    sim = ofc.simulate(0, "classic", players=4)
    assert [a.shape for a in sim] == [(0, 4, 13), (0, 4, 13), (0, 4, 0), (0, 4), (0, 4), (0, 4, 3), (0, 4)]
    sim = ofc.simulate(5, players=3, seed=1)
    assert [a.dtype for a in sim] == [np.uint8, np.uint8, np.uint8, np.int32, np.bool_, np.int32, np.uint8]
    assert [a.shape for a in sim] == [(5, 3, 13), (5, 3, 17), (5, 3, 4), (5, 3), (5, 3), (5, 3, 3), (5, 3)]


@pytest.mark.parametrize("call, error, text", [
    (lambda: ofc.simulate(-1), ValueError, "hands must be >= 0"),
    (lambda: ofc.simulate(2.0), TypeError, "hands must be an int"),
    (lambda: ofc.simulate(True), TypeError, "hands must be an int"),
    (lambda: ofc.simulate(1, "pineapple", players=4), ValueError, "2 to 3 players, got 4"),
    (lambda: ofc.simulate(1, "deuce", players=1), ValueError, "2 to 3 players, got 1"),
    (lambda: ofc.simulate(1, "classic", players=5), ValueError, "2 to 4 players, got 5"),
    (lambda: ofc.simulate(1, "classic", players="2"), TypeError, "players must be an int"),
    (lambda: ofc.simulate(1, "omaha"), ValueError, "omaha"),
    (lambda: ofc.simulate(1, 3), TypeError, "rules must be OFC rules"),
    (lambda: ofc.simulate(1, policy="greedy"), ValueError, "policy must be one of 'random'"),
    (lambda: ofc.simulate(1, seed=-1), ValueError, "seed must be >= 0"),
    (lambda: ofc.simulate(1, seed="x"), TypeError, "seed must be an int"),
    (lambda: ofc.simulate(1, threads=0), ValueError, "threads must be >= 1"),
])
def test_bad_arguments_raise(call, error, text) -> None:
    with pytest.raises(error, match=text):
        call()
