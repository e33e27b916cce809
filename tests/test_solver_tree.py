"""The spot and its betting tree: equal to postflop-solver's dumped trees for the anchor's spots,
and the sizing rules (min-raise, all-in clamps, donk sizes, add/force all-in) on small cases."""
from __future__ import annotations

from pathlib import Path

import pytest

from handrank.solver.spot import Size, Spot, StreetSizes, parse_sizes
from handrank.solver.tree import CHANCE, DECISION, FOLD, SHOWDOWN, Tree

ANCHOR = Path(__file__).resolve().parents[1].parent / "shared" / "anchors" / "postflop-solver"
RANGES = dict(oop_range="AA,KK", ip_range="QQ,JJ")


def _anchor(name: str) -> Path:
    if not (ANCHOR / "results" / name).exists():
        pytest.skip("the postflop-solver anchor (shared/anchors) is not beside this checkout")
    return ANCHOR


@pytest.mark.parametrize("street", ["river", "turn", "flop"])
def test_tree_equals_postflop_solver_dump(street: str) -> None:
    root = _anchor(f"tree-{street}.txt")
    tree = Tree(Spot.from_file(root / "spots" / f"{street}.toml"))
    assert tree.lines() == (root / "results" / f"tree-{street}.txt").read_text().splitlines()


def test_sizes_parse_and_reject() -> None:
    assert parse_sizes("50%, 2.5x,a", raises=True) == (Size("%", 0.5), Size("x", 2.5), Size("a"))
    with pytest.raises(ValueError, match="'2x': a multiple"):
        parse_sizes("2x", raises=False)
    with pytest.raises(ValueError, match="'abc' is not a size"):
        parse_sizes("abc", raises=True)
    with pytest.raises(ValueError, match="'-5%' must be positive"):
        parse_sizes("-5%", raises=True)


def test_spot_rejects_bad_input() -> None:
    with pytest.raises(ValueError, match="3 to 5 cards"):
        Spot("Td9d", **RANGES)
    with pytest.raises(ValueError, match="repeat a card"):
        Spot("Td9d6h", dead="Td", **RANGES)
    with pytest.raises(ValueError, match="no combo left"):
        Spot("AsAhAd", oop_range="AA", ip_range="KK")
    with pytest.raises(TypeError, match="pot is a whole number"):
        Spot("Td9d6h", pot=1.5, **RANGES)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="merging"):
        Spot.from_mapping({"board": "Td9d6h", "merge": 0.1, **RANGES})


def _actions(tree: Tree, path: str = "") -> str:
    return " ".join(str(a) for a in tree.node(path).actions)


def test_min_raise_and_allin_clamps() -> None:
    # a 10% raise of 100 into 100 is under a min-raise (to 200): it becomes the min-raise
    tree = Tree(Spot("Td9d6hQc2s", pot=100, stack=250, bet="100%", raise_="10%", **RANGES))
    assert _actions(tree, "Bet(100)") == "Fold Call Raise(200)"
    assert _actions(tree, "Bet(100) Raise(200)") == "Fold Call AllIn(250)"
    assert _actions(tree, "Bet(100) Raise(200) AllIn(250)") == "Fold Call"
    tree = Tree(Spot("Td9d6hQc2s", pot=100, stack=60, bet="50%,100%", raise_="3x", **RANGES))
    assert _actions(tree) == "Check Bet(50) AllIn(60)"


def test_add_and_force_allin() -> None:
    spot = Spot("Td9d6hQc2s", pot=100, stack=140, bet="50%", raise_="", add_allin=1.5, **RANGES)
    assert _actions(Tree(spot)) == "Check Bet(50) AllIn(140)"
    # 50 into 100 leaves 40 behind, under 0.2 x the pot of 200 after a call: all-in instead
    spot = Spot("Td9d6hQc2s", pot=100, stack=90, bet="50%", raise_="", force_allin=0.25, **RANGES)
    assert _actions(Tree(spot)) == "Check AllIn(90)"


def test_donk_sizes_only_after_oop_calls() -> None:
    spot = Spot("Td9d6hQc", pot=100, stack=1000, bet="50%", raise_="", donk="10%", **RANGES)
    tree = Tree(spot)
    assert _actions(tree, "Check Bet(50) Call /") == "Check Bet(20)"       # OOP called: donk 10%
    assert _actions(tree, "Check Check /") == "Check Bet(50)"
    assert _actions(tree, "Bet(50) Call /") == "Check Bet(100)"            # IP called
    spot = Spot("Td9d6hQc", pot=100, stack=1000, bet="50%", raise_="", donk="10%",
                sizes_by={("turn", "ip"): StreetSizes(parse_sizes("100%", raises=False))}, **RANGES)
    assert _actions(Tree(spot), "Check") == "Check Bet(100)"


def test_node_kinds_and_committed_chips() -> None:
    tree = Tree(Spot("Td9d6hQc", pot=100, stack=100, bet="a", raise_="", **RANGES))
    assert tree.root.kind == DECISION
    allin_call = tree.node("AllIn(100) Call")
    assert allin_call.kind == CHANCE and allin_call.committed == (100, 100)
    assert tree.nodes[allin_call.children[0]].kind == SHOWDOWN
    fold = tree.node("Check AllIn(100) Fold")
    assert fold.kind == FOLD and fold.player == 0 and fold.committed == (0, 100)
    with pytest.raises(ValueError, match="no action 'Bet.50.'"):
        tree.node("Bet(50)")
