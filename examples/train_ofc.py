"""Train an OFC player on the vector environment and show it beating a random player.

A small, self-contained learner (numpy only): a linear value of the board a placement leaves
(the afterstate), fitted by least squares to the points each hand finally paid (Monte Carlo
regression, both seats of self-play, epsilon-greedy). The features of a board are read from the
observation planes: per row its filling, pair / two pair / trips, the rank of its best pair, its
high card and its suits, and how far the rows are out of order (the foul risk). Each turn the
player scores every legal placement of the cards dealt and makes the best.

It is evaluated heads-up in pineapple against a player choosing uniformly among the legal
placements (`VectorEnv.sample_legal`), in points per hand over a fixed number of hands dealt from
a fixed seed, on both seats; the random player against itself scores 0 on average.

    python examples/train_ofc.py                  # about 2 minutes on one core
    python examples/train_ofc.py --quick          # under a minute (the CI budget)
    python examples/train_ofc.py --plot curve.png # the learning curve (needs matplotlib)
"""
from __future__ import annotations

import argparse
import time
from typing import Any

import numpy as np

from handrank.ofc.vector import VectorEnv

# The candidate actions of each street (cards dealt -> ids): every card to a row (5 cards), or
# two cards to rows and one discarded (3 cards), or the one card to a row (classic).
DIGITS = (np.arange(1024)[:, None] >> (2 * np.arange(5))[None, :]) & 3
CANDIDATES = {5: np.flatnonzero((DIGITS < 3).all(axis=1)),
              3: np.flatnonzero(((DIGITS[:, :3] == 3).sum(axis=1) == 1) & (DIGITS[:, 3:] == 0).all(axis=1)),
              1: np.arange(3)}
CAPACITY = np.array([3, 5, 5])
RANKS = np.arange(1, 14)
FEATURES = 32


def row_features(ranks: np.ndarray, suits: np.ndarray) -> tuple[np.ndarray, list[np.ndarray]]:
    """Per row, from rank counts (..., 3, 13) and suit counts (..., 3, 4): a strength on one
    scale (pattern, then the rank of its best pair) and the row's features."""
    size = ranks.sum(axis=-1)
    pairs = (ranks >= 2).sum(axis=-1)
    trips = (ranks >= 3).any(axis=-1)
    quads = (ranks >= 4).any(axis=-1)
    best = ((ranks >= 2) * RANKS).max(axis=-1) / 13.0
    high = ((ranks >= 1) * RANKS).max(axis=-1) / 13.0
    suited = suits.max(axis=-1)
    flush = (suited == 5) & (size == 5)
    pattern = np.where(quads, 6, np.where(trips & (pairs >= 2), 5, np.where(
        trips, 3, np.where(pairs >= 2, 2, np.where(pairs == 1, 1, 0))))).astype(np.float64)
    pattern = np.where(flush & (pattern < 4), 4, pattern)
    strength = pattern + best
    features = [size / CAPACITY, (pairs >= 1) * 1.0, (pairs >= 2) * 1.0, trips * 1.0, best, high,
                (suited == size) * (size >= 2) * 1.0]
    return strength, features


def afterstate_features(obs: np.ndarray, count: int) -> np.ndarray:
    """(n, candidates, FEATURES): the features of the acting player's board after each candidate
    placement of the `count` cards dealt (obs: (n, 14, 52) planes of games on such a street)."""
    n = obs.shape[0]
    rows = obs[:, :3, :].reshape(n, 3, 13, 4).astype(np.int16)
    dealt = np.sort(np.argsort(-obs[:, 3, :], axis=1, kind="stable")[:, :count], axis=1)
    candidates = CANDIDATES[count]
    digits = DIGITS[candidates, :count]                                  # (A, count)
    where = (digits[:, :, None] == np.arange(3)).astype(np.int16)      # (A, count, 3)
    rank_of = np.eye(13, dtype=np.int16)[dealt // 4]                    # (n, count, 13)
    suit_of = np.eye(4, dtype=np.int16)[dealt % 4]
    ranks = rows.sum(axis=3)[:, None] + np.einsum("akr,nkm->narm", where, rank_of)
    suits = rows.sum(axis=2)[:, None] + np.einsum("akr,nkm->narm", where, suit_of)
    strength, per_row = row_features(ranks, suits)
    top, middle, bottom = strength[..., 0], strength[..., 1], strength[..., 2]
    full = (ranks.sum(axis=-1) == CAPACITY).all(axis=-1)
    out_of_order = (top > middle) | (middle > bottom)
    columns = [np.ones_like(top)] + [f[..., r] for f in per_row for r in range(3)] + [
        np.maximum(top - middle, 0), np.maximum(middle - bottom, 0), (top > middle) * 1.0,
        (middle > bottom) * 1.0, full * out_of_order * 1.0, (top >= 1 + 11 / 13) * 1.0,
        ((top >= 3) & ~out_of_order) * 1.0, (middle >= 2) * (bottom >= middle) * 1.0,
        np.minimum(bottom - middle, 3) / 3, np.minimum(middle - top, 3) / 3]
    return np.stack(columns, axis=-1)


class LinearPlayer:
    """A linear afterstate value; `act` makes the best legal placement (epsilon-greedy)."""

    def __init__(self) -> None:
        self.weights = np.zeros(FEATURES)
        self.gram = np.eye(FEATURES) * 1e-2          # least squares: X^T X (ridge) and X^T y
        self.target = np.zeros(FEATURES)

    def act(self, obs: np.ndarray, mask: np.ndarray, rng: np.random.Generator,
            epsilon: float = 0.0) -> tuple[np.ndarray, np.ndarray]:
        """The actions of every game and the features of the boards they leave."""
        n = obs.shape[0]
        chosen = np.zeros(n, dtype=np.int64)
        features = np.zeros((n, FEATURES))
        counts = obs[:, 3, :].sum(axis=1)
        for count in (5, 3, 1):
            games = np.flatnonzero(counts == count)
            if not games.size:
                continue
            phi = afterstate_features(obs[games], count)
            value = phi @ self.weights
            candidates = CANDIDATES[count]
            legal = mask[games][:, candidates]
            value = np.where(legal, value, -np.inf)
            explore = rng.random(games.size) < epsilon
            noise = rng.random(value.shape)
            pick = np.where(explore, np.argmax(np.where(legal, noise, -1.0), axis=1), np.argmax(value, axis=1))
            chosen[games] = candidates[pick]
            features[games] = phi[np.arange(games.size), pick]
        return chosen, features

    def fit(self) -> None:
        self.weights = np.linalg.solve(self.gram, self.target)


def train(player: LinearPlayer, env: VectorEnv, steps: int, rng: np.random.Generator,
          epsilon: float, decay: float = 0.98) -> None:
    """Self-play for `steps` steps of every game: each seat's afterstates of a hand are regressed
    on the hand's final points for that seat."""
    n, players = env.num_envs, env.players
    step = env.reset()
    pending = np.zeros((n, players, FEATURES))         # a hand's afterstate features, summed
    for _ in range(steps):
        chosen, features = player.act(step.observation, step.legal_mask, rng, epsilon)
        seat = step.current_player.astype(np.int64)
        pending[np.arange(n), seat] += features
        player.gram += features.T @ features
        step = env.step(chosen)
        ended = np.flatnonzero(step.terminated)
        if ended.size:
            player.target += np.einsum("gpf,gp->f", pending[ended], step.rewards[ended])
            pending[ended] = 0.0
    player.fit()
    player.gram *= decay                   # older hands count a little less next round
    player.target *= decay


def evaluate(player: LinearPlayer | None, hands: int, seed: int, num_envs: int = 500) -> float:
    """Points per hand of `player` (None: a random player) against a random player over the
    first `hands` hands of each seat's env, dealt from `seed` (half with each button)."""
    total, played = 0.0, 0
    for button in (0, 1):
        env = VectorEnv(num_envs, rules="pineapple", players=2, seed=seed, button=button)
        rng = np.random.default_rng(seed + button)
        step = env.reset()
        finished = 0
        learner_seat = 0
        while finished < hands // 2:
            chosen = env.sample_legal(rng)
            if player is not None:
                mine = step.current_player == learner_seat
                if mine.any():
                    assert step.legal_mask is not None
                    greedy, _ = player.act(step.observation[mine], step.legal_mask[mine], rng)
                    chosen[mine] = greedy
            step = env.step(chosen)
            ended = np.flatnonzero(step.terminated)
            take = ended[:hands // 2 - finished]
            total += float(step.rewards[take, learner_seat].sum())
            finished += take.size
        played += finished
    return total / played


def main(argv: list[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a small budget (under a minute)")
    parser.add_argument("--rounds", type=int, help="training rounds (default 12, quick 6)")
    parser.add_argument("--eval-hands", type=int, help="hands per evaluation (default 4000, quick 2000)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--plot", metavar="PNG", help="save the learning curve (needs matplotlib)")
    args = parser.parse_args(argv)
    rounds = args.rounds or (6 if args.quick else 12)
    eval_hands = args.eval_hands or (2000 if args.quick else 4000)
    games, steps = (256, 100) if args.quick else (512, 200)

    start = time.perf_counter()
    rng = np.random.default_rng(args.seed)
    player = LinearPlayer()
    env = VectorEnv(games, rules="pineapple", players=2, seed=args.seed)
    baseline = evaluate(None, eval_hands, seed=10_000)
    curve = [(0, evaluate(player, eval_hands, seed=10_000))]
    print(f"random vs random: {baseline:+.3f} points per hand over {eval_hands} hands")
    print(f"round  0 (untrained): {curve[0][1]:+.3f} points per hand against random")
    hands_seen = 0
    for round_ in range(1, rounds + 1):
        epsilon = max(0.05, 0.5 * (1 - round_ / rounds))
        train(player, env, steps, rng, epsilon)
        hands_seen += games * steps // 10        # heads-up pineapple: 10 turns a hand
        curve.append((hands_seen, evaluate(player, eval_hands, seed=10_000)))
        print(f"round {round_:2d} ({hands_seen:7d} training hands): {curve[-1][1]:+.3f} points per hand "
              f"against random")
    seconds = time.perf_counter() - start
    print(f"trained and evaluated in {seconds:.1f} s")
    if args.plot:
        plot(curve, baseline, args.plot)
    return {"curve": curve, "baseline": baseline, "final": curve[-1][1], "seconds": seconds}


def plot(curve: list[tuple[int, float]], baseline: float, path: str) -> None:
    import matplotlib                       # the plot extra, only when asked for
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    hands, points = zip(*curve)
    fig, ax = plt.subplots(figsize=(6, 3.5))
    ax.plot(hands, points, marker="o", label="linear afterstate player")
    ax.axhline(baseline, color="grey", linestyle="--", label="random player")
    ax.set_xlabel("self-play training hands")
    ax.set_ylabel("points per hand vs random")
    ax.set_title("OFC pineapple heads-up, ofc.vector")
    ax.legend()
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    print(f"learning curve saved to {path}")


if __name__ == "__main__":
    main()
