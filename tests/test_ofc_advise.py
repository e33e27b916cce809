"""The placement solver: ofc.legal_placements, ofc.complete and ofc.best_placement, against slow
references built from itertools and the board evaluators."""
from __future__ import annotations

import json
from itertools import combinations, product

import numpy as np
import pytest

from handrank import ofc
from handrank.cards import cards as parse_cards
from handrank.ofc import _placement
from handrank.ofc.advise import (EXACT_DEALS, RACE_MORE, _board_arrays, _deal_arrays, _estimates,
                                 foul_value)
from handrank.ofc.rules import tables
from handrank.ofc.game import streets_to_come

RULESETS = {
    "pineapple": ofc.Rules.preset("pineapple"),
    "progressive+fl": ofc.Rules.preset("progressive").replace(fantasyland_value=8.0),
    "deuce": ofc.Rules.preset("deuce").replace(fantasyland_value=5.0),
    "classic": ofc.Rules.preset("classic"),
}


# ----------------------------------------------------------------------------- references
def all_completions(board: ofc.PartialBoard, to_come: list[int], rules: ofc.Rules) -> list[tuple[int, ...]]:
    """Every finished board (13 ids, rows top, middle, bottom) the cards to come allow, street by
    street: each street keeps all but its discards, and the kept cards fill the free slots any
    way."""
    kept_choices = []
    start = 0
    for dealt, discarded in streets_to_come(board, rules):
        street = to_come[start:start + dealt]
        start += dealt
        kept_choices.append(list(combinations(street, dealt - discarded)))
    free_top, free_middle, _ = board.free
    boards = []
    for kept in product(*kept_choices):
        cards = [c for part in kept for c in part]
        for top in combinations(cards, free_top):
            rest = [c for c in cards if c not in top]
            for middle in combinations(rest, free_middle):
                bottom = tuple(c for c in rest if c not in middle)
                boards.append(board.top + top + board.middle + middle + board.bottom + bottom)
    return boards


def values(boards: list[tuple[int, ...]], rules: ofc.Rules) -> list[tuple[float, int, int, int]]:
    """(value, bottom, middle, top strength) of each board: the order `complete("best")` ranks
    by (royalties plus the Fantasyland value on entry; a foul below every valid board)."""
    result = ofc.evaluate_batch(np.array(boards, dtype=np.uint8), rules, threads=1)
    out = []
    for foul, royalties, rows, fantasyland in zip(result.foul, result.royalties, result.values,
                                                  result.fantasyland):
        if foul:
            out.append((-1e9, 0, 0, 0))
        else:
            value = float(royalties.sum()) + (rules.fantasyland_value if fantasyland else 0.0)
            out.append((value, int(rows[2]), int(rows[1]), int(rows[0])))
    return out


def board_value(board: ofc.Board, rules: ofc.Rules) -> float:
    """A finished board's worth on its own, from the public scoring functions."""
    if ofc.is_foul(board, rules):
        return foul_value(rules)
    bonus = rules.fantasyland_value if ofc.fantasyland(board, rules) else 0.0
    return sum(ofc.royalties(board, rules)) + bonus


def random_spot(rng: np.random.Generator, rules: ofc.Rules, placed: int) -> tuple[ofc.PartialBoard, list[int]]:
    """A board after `placed` cards placed at random (legal placements, biased away from the top
    so that fewer boards are dead), and the cards still to come."""
    deck = [int(c) for c in rng.permutation(52)]
    board = ofc.PartialBoard()
    while len(board) < placed:
        dealt_count, _ = ofc.game.next_street(board, rules)
        dealt, deck = deck[:dealt_count], deck[dealt_count:]
        options = ofc.legal_placements(board, dealt, rules)
        weights = np.array([1.0 + len(p.bottom) + 0.5 * len(p.middle) for p in options])
        choice = options[rng.choice(len(options), p=weights / weights.sum())]
        board = board.place(*choice.rows)
    need = sum(dealt for dealt, _ in streets_to_come(board, rules))
    return board, deck[:need]


# ----------------------------------------------------------------------------- legal placements
def test_legal_placements_counts_and_game_agree() -> None:
    empty = ofc.PartialBoard()
    first = ofc.legal_placements(empty, "As Ks Qs Js Ts")
    assert len(first) == len({p for p in first}) == 232    # 3**5 minus the over-full tops
    assert all(not p.discards and len(p.top) <= 3 for p in first)
    board = empty.place("As", "Kd 9h", "2c 3c")
    later = ofc.legal_placements(board, "Qs Qh 7d")
    assert len(later) == 27 and all(len(p.discards) == 1 for p in later)
    classic = ofc.legal_placements(empty.place("As", "Kd 9h 8h", "2c"), "Qs", "classic")
    assert [p.rows for p in classic] == [((parse_cards("Qs")[0],), (), ()),
                                         ((), (parse_cards("Qs")[0],), ()),
                                         ((), (), (parse_cards("Qs")[0],))]
    game = ofc.Game(2, seed=3)
    assert game.legal_placements() == ofc.legal_placements(game.boards[game.turn], game.dealt)


def test_legal_placements_full_rows() -> None:
    board = ofc.PartialBoard("As Ks Qs", "2c 3c 4c 5c", "6d 7d 8d 9d")
    placements = ofc.legal_placements(board, "Th Jh Jd")
    assert {(len(p.top), len(p.middle), len(p.bottom)) for p in placements} == {(0, 1, 1)}
    assert len(placements) == 6


@pytest.mark.parametrize("board, dealt, message", [
    (ofc.PartialBoard("As"), "Ks Qs Js", "is not reached street by street"),
    (ofc.PartialBoard(), "Ks Qs Js", "is dealt 5 cards next, got 3"),
    (ofc.PartialBoard("As", "Kd 9h", "2c 3c"), "As Qh 7d", "duplicate card As"),
    (ofc.PartialBoard("As 2c 3c", "Kd 9h 8h 7h 6h", "2d 3d 4d 5d 6d"), "Qs Qh 7d", "is full"),
])
def test_legal_placements_errors(board: ofc.PartialBoard, dealt: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        ofc.legal_placements(board, dealt)


def test_legal_placements_type_error() -> None:
    with pytest.raises(TypeError, match="PartialBoard"):
        ofc.legal_placements("As / Kd / 2c", "Qs Qh 7d")    # type: ignore[arg-type]


# ----------------------------------------------------------------------------- completion
@pytest.mark.parametrize("name", sorted(RULESETS))
def test_best_completion_equals_brute_force(name: str) -> None:
    """On boards one to three streets from the end (classic: 1 to 3 cards to come) the best
    completion is the best of every completion, ties to the stronger bottom, middle and top;
    when every completion fouls, the board returned fouls."""
    rules = RULESETS[name]
    rng = np.random.default_rng(sorted(RULESETS).index(name))
    stages = (10, 11, 12) if rules.dealing == "classic" else (9, 11, 7)
    fouled = 0
    for case in range(30):
        board, to_come = random_spot(rng, rules, stages[case % 3])
        expected = max(values(all_completions(board, to_come, rules), rules))
        got = ofc.complete(board, to_come, rules)
        assert set(got.cards) - set(board.cards) <= set(to_come)
        for row, placed in zip((got.top, got.middle, got.bottom), board.rows):
            assert row[:len(placed)] == placed
        assert values([got.cards], rules)[0] == expected, (str(board), to_come)
        fouled += expected[0] < -1e8
    assert 0 < fouled < 30          # both kinds of spot were met


def test_best_completion_from_the_first_street() -> None:
    """Twelve cards to come (81 ways to discard, up to 560 ways to split): the search equals
    brute force."""
    rules = RULESETS["progressive+fl"]
    rng = np.random.default_rng(7)
    for _ in range(2):
        board, to_come = random_spot(rng, rules, 5)
        expected = max(values(all_completions(board, to_come, rules), rules))
        assert values([ofc.complete(board, to_come, rules).cards], rules)[0] == expected


def test_greedy_completion_is_legal_and_never_beats_best() -> None:
    for name, rules in RULESETS.items():
        rng = np.random.default_rng(11)
        for placed in (5, 7, 9, 11) if rules.dealing != "classic" else (5, 8, 11, 12):
            board, to_come = random_spot(rng, rules, placed)
            greedy = ofc.complete(board, to_come, rules, "greedy")
            best = ofc.complete(board, to_come, rules, "best")
            kept = set(greedy.cards) - set(board.cards)
            assert kept <= set(to_come) and len(kept) == 13 - len(board)
            start = 0
            for dealt, discarded in streets_to_come(board, rules):
                street = set(to_come[start:start + dealt])
                start += dealt
                assert len(street - kept) == discarded, name
            assert board_value(greedy, rules) <= board_value(best, rules), (name, str(board))


def test_complete_errors() -> None:
    board = ofc.PartialBoard("As", "Kd 9h", "2c 3c")
    with pytest.raises(ValueError, match="dealt 12 more cards, got 3"):
        ofc.complete(board, "Qs Qh 7d")
    with pytest.raises(ValueError, match="duplicate card As"):
        ofc.complete(board, "As Qh 7d 2d 3d 4d 5d 6d 7c 8c 9c Tc")
    with pytest.raises(ValueError, match="completion must be one of"):
        ofc.complete(board, "Qs Qh 7d 2d 3d 4d 5d 6d 7c 8c 9c Tc", completion="perfect")


# ----------------------------------------------------------------------------- best_placement
ROYAL = ofc.PartialBoard("2c 3d", "7h 7d 8c 8d 9c", "As Ks Qs Js")


def test_obvious_decisions_on_the_last_street() -> None:
    """The ten that completes a royal flush goes to the bottom; anything else fouls for sure (an
    ace-high bottom under two pair) and ranks below."""
    advice = ofc.best_placement(ROYAL, "Ts 4h 5d")
    assert advice.exact and advice.deals == 1
    ten = parse_cards("Ts")[0]
    royal = [v for v in advice.ranked if ten in v.placement.bottom]
    assert list(advice.ranked[:len(royal)]) == royal and len(royal) == 2
    assert all(v.mean == 25 and v.foul_rate == 0 for v in royal)
    assert all(v.mean == foul_value("pineapple") == -6 and v.foul_rate == 1
               for v in advice.ranked[len(royal):])


def test_last_street_equals_enumeration() -> None:
    """Alone: each placement's value is its finished board's. Against an opponent with a street
    to come: the mean over every 3 unseen cards of the points against the opponent's best
    completion, by brute force."""
    rules = RULESETS["progressive+fl"]
    rng = np.random.default_rng(5)
    board, rest = random_spot(rng, rules, 11)
    dealt = rest[:3]
    alone = ofc.best_placement(board, dealt, rules=rules)
    assert alone.exact
    for value in alone.ranked:
        finished = ofc.Board(*board.extended(*value.placement.rows).rows)
        assert value.mean == pytest.approx(board_value(finished, rules))
    free = [c for c in range(52) if c not in set(board.cards) | set(dealt)][::3][:11]   # spread ranks
    opponent = ofc.PartialBoard(free[:2], free[2:6], free[6:])
    seen = [c for c in range(52) if c not in set(board.cards) | set(dealt) | set(opponent.cards)][:15]
    advice = ofc.best_placement(board, dealt, opponents=[opponent], seen=seen, rules=rules)
    unseen = [c for c in range(52) if c not in set(board.cards) | set(dealt) | set(opponent.cards) | set(seen)]
    assert advice.exact and advice.deals == len(list(combinations(unseen, 3)))
    theirs = []
    for deal in combinations(unseen, 3):
        options = all_completions(opponent, list(deal), rules)
        scores = values(options, rules)
        theirs.append(options[max(range(len(options)), key=scores.__getitem__)])
    for value in advice.ranked:
        mine = board.extended(*value.placement.rows).cards
        points = ofc.score_batch(np.array([mine] * len(theirs), dtype=np.uint8),
                                 np.array(theirs, dtype=np.uint8), rules)
        assert value.mean == pytest.approx(points.mean())
        assert value.stderr == 0


@pytest.mark.parametrize("options", [{}, {"scoring": "2-4"}, {"royalties_cancel": False},
                                     {"shoot_the_moon": 20}])
def test_points_against_finished_boards_follow_score(options: dict[str, object]) -> None:
    rules = ofc.Rules.preset("pineapple").replace(**options)
    rng = np.random.default_rng(2)
    for _ in range(4):
        board, rest = random_spot(rng, rules, 11)
        deck = [c for c in range(52) if c not in set(board.cards) | set(rest[:3])]
        rng.shuffle(deck)
        others = [ofc.PartialBoard(deck[:3], deck[3:8], deck[8:13]),
                  ofc.PartialBoard(deck[13:16], deck[16:21], deck[21:26])]
        advice = ofc.best_placement(board, rest[:3], opponents=others, rules=rules)
        assert advice.exact
        for value in advice.ranked:
            mine = ofc.Board(*board.extended(*value.placement.rows).rows)
            expected = ofc.score([mine] + [o.board() for o in others], rules)[0]
            assert value.mean == expected


def test_monte_carlo_is_seeded_and_thread_independent() -> None:
    board = ofc.PartialBoard("As", "Kd 9h", "2c 3c")
    opponent = ofc.PartialBoard("Qc", "Jd Jc", "5h 6h")
    one = ofc.best_placement(board, "Qs Qh 7d", opponents=[opponent], samples=60, seed=4, threads=1)
    two = ofc.best_placement(board, "Qs Qh 7d", opponents=[opponent], samples=60, seed=4, threads=2)
    assert one == two and not one.exact and one.deals == 60
    assert [v.samples for v in one.ranked] == [60] * 27
    assert all(v.stderr > 0 for v in one.ranked)
    other = ofc.best_placement(board, "Qs Qh 7d", opponents=[opponent], samples=60, seed=5)
    assert other != one
    means = [v.mean for v in one.ranked]
    assert means == sorted(means, reverse=True)


def test_racing_keeps_the_leader_and_reports_samples() -> None:
    board = ofc.PartialBoard()
    advice = ofc.best_placement(board, "As Ad Kh 7c 2s", samples=300, seed=1, completion="greedy")
    assert not advice.exact and len(advice.ranked) == 232
    counts = sorted({v.samples for v in advice.ranked})
    assert counts[0] == 64 and advice.deals == counts[-1]          # some dropped after one round
    # the survivors of `samples` deals go on, doubling, up to RACE_MORE times it
    assert 300 <= advice.deals <= RACE_MORE * 300 and advice.ranked[0].samples == advice.deals
    means = [v.mean for v in advice.ranked]
    assert means == sorted(means, reverse=True)


def test_race_estimates_put_dropped_placements_on_the_leaders_scale() -> None:
    """A placement dropped after n deals: its mean difference from the leader over those deals
    plus the leader's mean over all, and the standard error of that sum, against a direct
    reference (loops over the deals)."""
    rng = np.random.default_rng(3)
    points = rng.normal(size=(5, 40)) * 4 + rng.normal(size=40) * 10     # shared luck per deal
    points[1] += 0.5
    fouls = (rng.random((5, 40)) < 0.2).astype(np.uint8)
    scored = np.array([40, 40, 10, 20, 20])
    means, errors, foul_rates = _estimates(points, fouls, scored, exact=False)
    leader = 1                                     # the best of those scored on all 40 deals
    assert points[1].mean() > points[0].mean()
    for i, n in enumerate(scored.tolist()):
        assert foul_rates[i] == pytest.approx(sum(fouls[i, :n]) / n)
        if n == 40:
            assert means[i] == points[i].mean()
            assert errors[i] == pytest.approx(np.std(points[i], ddof=1) / np.sqrt(40))
            continue
        gap = sum(points[i, d] - points[leader, d] for d in range(n)) / n
        assert means[i] == pytest.approx(gap + sum(points[leader]) / 40)
        # the estimate is sum over d < n of (x_d - L_d) / n + L_d / 40, plus sum over d >= n of L_d / 40
        early = [(points[i, d] - points[leader, d]) / n + points[leader, d] / 40 for d in range(n)]
        late = [points[leader, d] / 40 for d in range(n, 40)]
        variance = n * np.var(early, ddof=1) + (40 - n) * np.var(late, ddof=1)
        assert errors[i] == pytest.approx(np.sqrt(variance))


def test_shared_rows_equal_one_completion_per_board() -> None:
    """score_placements completes each distinct row once per deal for every board holding it:
    its scores equal each board completed on its own by ofc.complete and valued."""
    rules = RULESETS["progressive+fl"]
    board = ofc.PartialBoard("As", "Kd 9h", "2c 3c")
    placements = ofc.legal_placements(board, parse_cards("Qs Qh 7d"), rules)
    boards = [board.extended(*p.rows) for p in placements]
    plan = streets_to_come(boards[0], rules)
    rest = [c for c in range(52) if c not in board.cards and c not in parse_cards("Qs Qh 7d")]
    rng = np.random.default_rng(5)
    draws = np.array([rng.permutation(rest)[:9] for _ in range(12)], dtype=np.uint8)
    arr, held = _board_arrays([b.rows for b in boards])
    sizes, discards = _deal_arrays(plan)
    scores = np.zeros((len(draws), len(boards)))
    fouls = np.zeros((len(draws), len(boards)), dtype=np.uint8)
    _placement.score_placements(tables(rules), _placement.BEST, rules.fantasyland_value,
                                foul_value(rules), _placement.SCORE_1_6, True, 0, 0, sizes,
                                discards, draws, np.zeros((len(draws), 0, 13), dtype=np.uint8),
                                arr, held, scores, fouls)
    for j, deal in enumerate(draws.tolist()):
        for i, placed in enumerate(boards):
            finished = ofc.complete(placed, deal, rules)
            assert scores[j, i] == board_value(finished, rules)
            assert fouls[j, i] == ofc.is_foul(finished, rules)


def test_exact_only_when_few_deals() -> None:
    board = ofc.PartialBoard("As", "Kd 9h 8h", "2c 3c 4d")            # two streets to come
    advice = ofc.best_placement(board, "Qs Qh 7d", samples=50, seed=0, completion="greedy")
    assert not advice.exact and advice.deals == 50
    later = ofc.PartialBoard("As", "Kd 9h 8h 8c", "2c 3c 4d 5d")        # one street: C(40, 3) deals
    assert not ofc.best_placement(later, "Qs Qh 7d", samples=9879, completion="greedy").exact
    advice = ofc.best_placement(later, "Qs Qh 7d", samples=9880, completion="greedy")
    assert advice.exact and advice.deals == 9880
    # the last street against an opponent with a street to come: C(27, 3) = 2925 deals
    last = ofc.best_placement(ofc.PartialBoard("As 2d", "Kd 9h 8h 8c 7c", "2c 3c 4d 5d"), "Qs Qh 7d",
                              opponents=["Ah Ac / Kh Kc 6d 6c Jh / Jd Js Td Ts"], samples=10)
    assert last.exact and last.deals == 2925 <= EXACT_DEALS


@pytest.mark.parametrize("kwargs, error, message", [
    ({"dealt": "Qs Qh"}, ValueError, "dealt 3 cards next, got 2"),
    ({"dealt": "As Qh 7d"}, ValueError, "duplicate card As"),
    ({"opponents": ["Qs / - / -"]}, ValueError, "Qs is in the dealt cards and in opponent 1's board"),
    ({"seen": "Kd"}, ValueError, "Kd is in the board and in seen"),
    ({"opponents": "Qc / - / -"}, TypeError, "sequence of boards"),
    ({"rules": "nope"}, ValueError, "nope"),
    ({"completion": "perfect"}, ValueError, "completion must be one of"),
    ({"samples": 0}, ValueError, "samples must be >= 1"),
    ({"samples": 1.5}, TypeError, "samples must be an int"),
    ({"threads": 0}, ValueError, "threads must be >= 1"),
    ({"board": "As Kd / 9h 9d / 2c 3c"}, ValueError, "not reached street by street"),
    ({"board": "As Kd / 9h"}, ValueError, "three rows"),
])
def test_best_placement_errors(kwargs: dict[str, object], error: type, message: str) -> None:
    call: dict[str, object] = {"board": "As / Kd 9h / 2c 3c", "dealt": "Qs Qh 7d", **kwargs}
    with pytest.raises(error, match=message):
        ofc.best_placement(call.pop("board"), call.pop("dealt"), **call)  # type: ignore[arg-type]


# ----------------------------------------------------------------------------- self-play
def play_hand(deck: list[int], rules: ofc.Rules, choose: object) -> float:
    board = ofc.PartialBoard()
    seen: list[int] = []
    while not board.full:
        count, _ = ofc.game.next_street(board, rules)
        dealt, deck = deck[:count], deck[count:]
        placement = choose(board, dealt, seen)  # type: ignore[operator]
        seen.extend(placement.discards)
        board = board.place(*placement.rows)
    return board_value(board.board(), rules)


def self_play(hands: int, samples: int) -> tuple[float, float]:
    """The mean value per hand of best_placement's choice (greedy completions) and of a random
    legal placement, on the same seeded decks."""
    rules = ofc.Rules.preset("pineapple")
    rng = np.random.default_rng(2024)
    ev, rand = [], []
    for hand in range(hands):
        deck = [int(c) for c in rng.permutation(52)]
        ev.append(play_hand(deck, rules, lambda b, d, s, h=hand: ofc.best_placement(
            b, d, seen=s, rules=rules, samples=samples, seed=h, threads=1, completion="greedy").best))
        rand.append(play_hand(deck, rules, lambda b, d, s: (
            lambda options: options[rng.integers(len(options))])(ofc.legal_placements(b, d, rules))))
    return float(np.mean(ev)), float(np.mean(rand))


def test_self_play_beats_random_quick() -> None:
    ev, rand = self_play(12, 4)
    assert ev - rand > 3


@pytest.mark.slow
def test_self_play_beats_random() -> None:
    """2,000 seeded hands: the EV-chosen placement against a random legal one."""
    ev, rand = self_play(2000, 4)
    assert ev - rand > 3


# ----------------------------------------------------------------------------- command line
def test_cli_advise_table_and_json(capsys: pytest.CaptureFixture[str]) -> None:
    from cli_support import run
    args = ("ofc", "advise", str(ROYAL), "--dealt", "Ts 4h 5d")
    status, out, err = run(capsys, *args)
    assert status == 0 and not err
    lines = out.splitlines()
    assert "exact over all 1 deals" in lines[0]
    assert lines[2].split()[:5] == ["1", "5d", "-", "Ts", "4h"] and "+25.000" in lines[2]
    assert len(lines) == 2 + 6 and "100.0%" in lines[-1]
    status, out, err = run(capsys, *args, "--json", "--top", "2")
    record = json.loads(out)
    assert record["exact"] and len(record["placements"]) == 2
    assert record["placements"][0] == {"top": "5d", "middle": "", "bottom": "Ts", "discards": "4h",
                                       "mean": 25.0, "stderr": 0.0, "foul_rate": 0.0, "samples": 1}
    expected = ofc.best_placement("As / Kd 9h 9d / 2c 3c 4c", "Qs Qh 7d",
                                  opponents=["Qc / Jd Jc 2d / 5h 6h 7h"], samples=40, seed=3)
    status, out, err = run(capsys, "ofc", "advise", "As / Kd 9h 9d / 2c 3c 4c", "-d", "Qs Qh 7d",
                           "--opponent", "Qc / Jd Jc 2d / 5h 6h 7h", "-n", "40", "--seed", "3", "--json")
    assert [p["mean"] for p in json.loads(out)["placements"]] == [v.mean for v in expected.ranked]


@pytest.mark.parametrize("argv, says", [
    (("As / Kd 9h 9d / 2c 3c", "--dealt", "Qs Qh 7d"), "not reached street by street"),
    (("As / Kd 9h 9d / 2c 3c 4c", "--dealt", "Qs Qh Zz"), "Zz"),
    (("As / Kd 9h 9d / 2c 3c 4c", "--dealt", "As Qh 7d"), "duplicate card As"),
    (("As Kd 9h", "--dealt", "Qs Qh 7d"), "three rows"),
])
def test_cli_advise_errors(capsys: pytest.CaptureFixture[str], argv: tuple[str, ...], says: str) -> None:
    from cli_support import run
    status, out, err = run(capsys, "ofc", "advise", *argv)
    assert status == 1 and not out
    assert err.startswith("handrank: ofc advise: ") and says in err and "Traceback" not in err
