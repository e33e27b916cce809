"""The documentation's pictures, made by the package itself: PNGs in docs/images/.

    python examples/docs_pictures.py                 # every picture, full size (a few minutes)
    python examples/docs_pictures.py --quick --out /tmp/pictures    # small budget (CI: seconds)
    python examples/docs_pictures.py bench equity    # some of them

Pictures: bench (hands/s against the peer evaluators, `handrank bench --plot`), equity (heads-up
preflop equity of the 169 starting-hand classes against each other, Monte Carlo), ofc (royalty
and foul rates of random play by variant, `ofc.simulate`), bigtwo (how long random Big Two games
last, by ruleset), chinese (the value of the best setting of random 13-card hands), solver (the
root strategy of docs/solver.md's river spot by hand class, `handrank.solver`). Every
picture has a fixed seed; the committed ones were made by the full run (the default) on the
machine named in docs/benchmarks.md. Needs matplotlib: pip install 'handrank[plot]'.
"""
from __future__ import annotations

import argparse
import itertools
import sys
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np

import handrank as hr
from handrank import bench, bigtwo, chinese, equity, high, ofc, peers, solver

SEED = 20241202
DEFAULT_OUT = Path(__file__).resolve().parent.parent / "docs" / "images"


def pyplot():  # noqa: ANN201 (matplotlib is optional: typed only where installed)
    try:
        import matplotlib
    except ImportError:
        sys.exit("the pictures need matplotlib: pip install 'handrank[plot]'")
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    return plt


# ----------------------------------------------------------------------------- bench
def bench_chart(out: Path, quick: bool) -> None:
    """hands/s of every evaluator and every installed peer (log scale): `handrank bench --plot`."""
    found, _missing = peers.available()
    results = bench.run(n=100_000 if quick else 2_000_000, rounds=1 if quick else 5, peers=found)
    bench.plot(results, out / "bench.png", title="handrank bench: hands per second, higher is better")


# ----------------------------------------------------------------------------- equity
def class_names() -> list[str]:
    """The 169 starting-hand classes, strongest first (the order behind ranges like "15%")."""
    return list(equity.PREFLOP_ORDER)


def class_equities(samples: int, seed: int, names: list[str] | None = None) -> np.ndarray:
    """(169, 169): the row class's heads-up equity against the column class, by Monte Carlo
    (or over `names` only, in their order).

    Each unordered pair of classes gets `samples` deals: a uniform combo of each class (redrawn
    while they share a card), then a uniform board of 5 of the 48 cards left; equity counts half
    the ties. The table is filled by symmetry (the two equities of a matchup add up to 1, and a
    class against itself has 1/2)."""
    names = class_names() if names is None else names
    combos = [np.array([hr.cards(c) for c in equity.class_combos(name)], dtype=np.uint8) for name in names]
    rng = np.random.default_rng(seed)
    pairs = [(i, j) for i, j in itertools.combinations(range(len(names)), 2)]
    table = np.full((len(names), len(names)), 0.5)
    chunk = max(1, 200_000 // samples)
    for start in range(0, len(pairs), chunk):
        block = pairs[start:start + chunk]
        first = np.concatenate([combos[i][rng.integers(len(combos[i]), size=samples)] for i, _ in block])
        second = np.concatenate([_disjoint(combos[j], first[k * samples:(k + 1) * samples], rng)
                                 for k, (_, j) in enumerate(block)])
        board = _boards(np.concatenate([first, second], axis=1), rng)
        v1 = high.evaluate_batch(np.concatenate([first, board], axis=1))
        v2 = high.evaluate_batch(np.concatenate([second, board], axis=1))
        share = ((v1 > v2) + 0.5 * (v1 == v2)).reshape(len(block), samples).mean(axis=1)
        for (i, j), value in zip(block, share):
            table[i, j], table[j, i] = value, 1.0 - value
    return table


def _boards(dealt: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """A uniform 5-card board per row from the cards not in that row of `dealt`: each card is
    the x-th unused one, found by stepping x over the used cards in ascending order."""
    used = np.sort(dealt.astype(np.int64), axis=1)
    board = np.empty((len(dealt), 5), dtype=np.uint8)
    for k in range(5):
        x = rng.integers(0, 52 - used.shape[1], size=len(dealt))
        for column in range(used.shape[1]):
            x += x >= used[:, column]
        board[:, k] = x
        used = np.sort(np.concatenate([used, x[:, None]], axis=1), axis=1)
    return board


def _disjoint(combos: np.ndarray, against: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """One uniform combo per row of `against`, sharing no card with it."""
    drawn = combos[rng.integers(len(combos), size=len(against))]
    while True:
        clash = (drawn[:, :, None] == against[:, None, :]).any(axis=(1, 2))
        if not clash.any():
            return drawn
        drawn[clash] = combos[rng.integers(len(combos), size=int(clash.sum()))]


def equity_heatmap(out: Path, quick: bool) -> None:
    plt = pyplot()
    names = class_names()
    samples = 16 if quick else 3000
    table = class_equities(samples, SEED)
    figure, axes = plt.subplots(figsize=(8.5, 7.5))
    image = axes.imshow(table, cmap="RdYlGn", vmin=0.0, vmax=1.0, interpolation="nearest")
    ticks = list(range(0, 169, 12))
    axes.set_xticks(ticks, [names[t] for t in ticks], rotation=90, fontsize=8)
    axes.set_yticks(ticks, [names[t] for t in ticks], fontsize=8)
    axes.set_xlabel("opponent's class (strongest first)")
    axes.set_ylabel("hero's class (strongest first)")
    axes.set_title(f"Heads-up preflop equity, 169 x 169 classes ({samples:,} deals a matchup)")
    figure.colorbar(image, ax=axes, fraction=0.046, pad=0.04, label="hero's equity")
    figure.tight_layout()
    figure.savefig(out / "preflop_equity.png", dpi=110)
    plt.close(figure)


# ----------------------------------------------------------------------------- OFC
OFC_VARIANTS = ("classic", "pineapple", "progressive", "deuce")


def ofc_rates(out: Path, quick: bool) -> None:
    """Random play by variant: how often a board fouls, and among the boards that stand, how
    often they score royalties and how many points of royalties they average."""
    plt = pyplot()
    hands = 2_000 if quick else 200_000
    fouls, scoring, points = [], [], []
    for variant in OFC_VARIANTS:
        result = ofc.simulate(hands, variant, players=2, seed=SEED)
        standing = ~result.foul
        royalties = result.royalties.sum(axis=2)[standing]
        fouls.append(100 * result.foul.mean())
        scoring.append(100 * (royalties > 0).mean())
        points.append(royalties.mean())
    figure, (left, right) = plt.subplots(1, 2, figsize=(10, 4))
    x = np.arange(len(OFC_VARIANTS))
    bars = left.bar(x, fouls, color="tab:red")
    left.bar_label(bars, fmt="%.1f%%", fontsize=8)
    left.set_xticks(x, OFC_VARIANTS)
    left.set_ylim(0, 100)
    left.set_ylabel("% of boards")
    left.set_title("boards that foul")
    width = 0.4
    bars = right.bar(x - width / 2, scoring, width, color="tab:green", label="% scoring royalties")
    right.bar_label(bars, fmt="%.1f", fontsize=8)
    twin = right.twinx()
    bars = twin.bar(x + width / 2, points, width, color="tab:blue", label="mean royalty points")
    twin.bar_label(bars, fmt="%.2f", fontsize=8)
    right.set_xticks(x, OFC_VARIANTS)
    right.set_ylabel("% of boards that stand", color="tab:green")
    twin.set_ylabel("royalty points per board that stands", color="tab:blue")
    right.set_title("royalties of the boards that stand")
    figure.suptitle(f"OFC under uniformly random placements ({hands:,} two-player hands a variant)")
    figure.tight_layout()
    figure.savefig(out / "ofc_rates.png", dpi=110)
    plt.close(figure)


# ----------------------------------------------------------------------------- Big Two
BIGTWO_RULES = ("hk", "taiwan", "pusoy", "vietnam")


def bigtwo_game_length(rules: str, rng: np.random.Generator) -> int:
    """Plays (passes excluded) in one 4-player game where every player picks a uniformly random
    legal move, passing as one more choice whenever passing is allowed."""
    game = bigtwo.Game(4, rules, seed=rng)
    plays = 0
    while not game.over:
        moves = game.legal_moves()
        pick = rng.integers(len(moves) + game.can_pass)
        if pick == len(moves):
            game.pass_()
        else:
            game.play(moves[pick])
            plays += 1
    return plays


def bigtwo_lengths(out: Path, quick: bool) -> None:
    plt = pyplot()
    games = 40 if quick else 4000
    figure, axes = plt.subplots(figsize=(8, 4))
    for name in BIGTWO_RULES:
        rng = np.random.default_rng(SEED)
        lengths = [bigtwo_game_length(name, rng) for _ in range(games)]
        axes.hist(lengths, bins=np.arange(0, 60) - 0.5, histtype="step", linewidth=1.5,
                  density=True, label=f"{name} (mean {np.mean(lengths):.1f})")
    axes.set_xlabel("plays in a game (passes not counted)")
    axes.set_ylabel("share of games")
    axes.set_title(f"Big Two, 4 players, uniformly random legal moves ({games:,} games a ruleset)")
    axes.legend(frameon=False)
    figure.tight_layout()
    figure.savefig(out / "bigtwo_lengths.png", dpi=110)
    plt.close(figure)


# ----------------------------------------------------------------------------- Chinese poker
def chinese_values(out: Path, quick: bool) -> None:
    """The best setting's value of random 13-card hands, for royalty units and expected points."""
    plt = pyplot()
    hands = hr.random_hands(200 if quick else 20_000, 13, seed=SEED)
    royalties = chinese.best_setting_batch(hands, "1-6", objective="royalties").value
    points = chinese.best_setting_batch(hands, "1-6", objective="ev").value
    figure, (left, right) = plt.subplots(1, 2, figsize=(10, 4))
    left.hist(royalties, bins=np.arange(0, royalties.max() + 2) - 0.5, color="tab:green")
    left.set_yscale("log")
    left.set_xlabel("royalty units of the best setting")
    left.set_ylabel("hands")
    left.set_title(f"most royalties (none: {np.mean(royalties == 0):.0%} of hands)")
    right.hist(points, bins=60, color="tab:blue")
    right.axvline(float(np.mean(points)), color="black", linewidth=1, label=f"mean {np.mean(points):+.2f}")
    right.set_xlabel("expected points against a well-played opponent")
    right.set_title("best expected points (1-6 scoring)")
    right.legend(frameon=False)
    figure.suptitle(f"13-card Chinese poker: the best setting of {len(hands):,} random hands")
    figure.tight_layout()
    figure.savefig(out / "chinese_values.png", dpi=110)
    plt.close(figure)


# ----------------------------------------------------------------------------- solver
RANKS = "AKQJT98765432"


def class_grid(by_class: dict[str, dict[str, float]], actions: list[str]) -> np.ndarray:
    """(13, 13): the summed frequency of `actions` for each hand class, aces first, pairs on the
    diagonal, suited above it, offsuit below; nan for a class out of the range."""
    grid = np.full((13, 13), np.nan)
    for i, high_rank in enumerate(RANKS):
        for j, low_rank in enumerate(RANKS):
            name = (high_rank + low_rank if i == j else high_rank + low_rank + "s" if i < j
                    else low_rank + high_rank + "o")
            if name in by_class:
                grid[i, j] = sum(by_class[name][a] for a in actions)
    return grid


def solver_root(out: Path, quick: bool) -> None:
    """OOP's bet frequency at the root of docs/solver.md's river spot, by hand class, solved to
    0.3% of the pot (quick: 10 iterations)."""
    plt = pyplot()
    spot = solver.Spot(
        "Td9d6hQc2s", oop_range="66+,A8s+,A5s-A4s,AJo+,K9s+,KQo,QTs+,JTs,96s+,85s+,75s+,65s,54s",
        ip_range="QQ-22,AQs-A2s,ATo+,K5s+,KJo+,Q8s+,J8s+,T7s+,96s+,86s+,75s+,64s+,53s+",
        pot=200, stack=900, bet="50%,100%", raise_="60%")
    game = solver.Game(spot)
    report = game.solve(target=0.003, max_iterations=10 if quick else 1000, progress=False)
    root = game.node()
    bets = [a for a in root.actions if a != "Check"]
    grid = class_grid(root.by_class(), bets)
    figure, axes = plt.subplots(figsize=(7.5, 6.5))
    cmap = plt.get_cmap("RdYlGn_r").with_extremes(bad="#eeeeee")
    image = axes.imshow(np.ma.masked_invalid(grid), cmap=cmap, vmin=0.0, vmax=1.0, interpolation="nearest")
    for i in range(13):
        for j in range(13):
            name = RANKS[min(i, j)] + RANKS[max(i, j)] + ("" if i == j else "s" if i < j else "o")
            label = name if np.isnan(grid[i, j]) else f"{name}\n{grid[i, j]:.0%}"
            axes.text(j, i, label, ha="center", va="center", fontsize=6,
                      color="#999999" if np.isnan(grid[i, j]) else "black")
    axes.set_xticks([])
    axes.set_yticks([])
    axes.set_title(f"River Td9d6hQc2s: OOP's bet frequency at the root\n({report.iterations} iterations, "
                   f"exploitability {report.exploitability_pot:.2%} of the pot; grey: not in the range)",
                   fontsize=10)
    figure.colorbar(image, ax=axes, fraction=0.046, pad=0.04, label="bets (both sizes)")
    figure.tight_layout()
    figure.savefig(out / "solver_root.png", dpi=110)
    plt.close(figure)


PICTURES: dict[str, Callable[[Path, bool], None]] = {
    "bench": bench_chart, "equity": equity_heatmap, "ofc": ofc_rates, "bigtwo": bigtwo_lengths,
    "chinese": chinese_values, "solver": solver_root}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("names", nargs="*", choices=[*PICTURES, []], metavar="NAME",
                        help=f"pictures to make (default: all of {', '.join(PICTURES)})")
    parser.add_argument("--quick", action="store_true", help="a small budget: seconds, noisy pictures")
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT, help="folder (default: docs/images)")
    args = parser.parse_args(argv)
    pyplot()
    args.out.mkdir(parents=True, exist_ok=True)
    for name in args.names or PICTURES:
        start = time.perf_counter()
        PICTURES[name](args.out, args.quick)
        print(f"{name}: {time.perf_counter() - start:.1f} s", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
