"""Train a Big Two player on the vector environment and show it beating random players (issue 32).

numpy only: a linear softmax policy over hand-crafted features of each legal action (its size,
how high it plays, whether it passes, leads or empties the hand, ...), trained by REINFORCE with
a running-mean baseline. Each game of `bigtwo.VectorEnv` seats the learner at seat
``game % 4`` and three uniformly random players (`VectorEnv.sample_legal`); the learner's return is
its payment at the end of the game (`Game.payments`, in cards).

Evaluation plays a fixed number of games, the learner seat-rotated (seat ``game % 4``) against
three random players, with its greedy policy, beside a random player in the same seats over the
same deals: the win rate (the learner went out first) and the points per game. Random play wins
25% and scores 0 per game on average (the game is zero-sum and symmetric).

    python examples/train_bigtwo.py                 # about 2 minutes on one core
    python examples/train_bigtwo.py --quick         # under a minute: CI's budget
    python examples/train_bigtwo.py --plot out.png  # the learning curve (extra ``plot``: matplotlib)
"""
from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Sequence
from typing import Any

import numpy as np

from handrank.bigtwo import ComboSpace, Rules
from handrank.bigtwo.vector import VectorEnv

SEATS = 4
HAND, TRICK, CARDS_LEFT = 0, 52, 156    # observation entries (handrank.bigtwo.env)


def static_features(space: ComboSpace) -> np.ndarray:
    """Per action: pass, size one-hot (1, 2, 3, 4, 5), how high its top card is (0..1), whether
    it holds a 2, its five-card kind (0..1), and a bias."""
    cards = np.vstack([np.full((1, 5), 255, np.uint8), space._cards[:, :5]])
    held = cards != 255
    size = held.sum(axis=1)
    strength = np.where(held, (cards.astype(np.int64) // 4 + 12) % 13 * 4 + cards % 4, -1)
    top = strength.max(axis=1) / 51.0
    two = (held & (cards < 4)).any(axis=1)
    kinds = np.zeros(len(cards))
    rules = space.rules
    from handrank.bigtwo import classify
    for a in np.flatnonzero(size == 5):
        combo = classify(cards[a, :5].tolist(), rules)
        assert combo is not None
        kinds[a] = (rules.five_card_kinds.index(combo.kind) + 1) / len(rules.five_card_kinds)
    onehot = np.stack([size == k for k in range(0, 6)], axis=1).astype(np.float64)
    table = np.column_stack([onehot, np.where(size > 0, top, 0.0), two, kinds, np.ones(len(cards))])
    return table.astype(np.float64)


class LinearPolicy:
    """Softmax over the legal actions of w . phi(state, action)."""

    def __init__(self, space: ComboSpace) -> None:
        self.static = static_features(space)
        self.sizes = self.static[:, :6].argmax(axis=1)
        self.dim = 2 * self.static.shape[1] + 4
        self.w = np.zeros(self.dim)

    def features(self, obs: np.ndarray, ids: np.ndarray, owner: np.ndarray) -> np.ndarray:
        """phi of each (decision, legal action) row: the action's static features, again when
        leading, then: empties the hand, cards left after it (/13), a pass while an opponent
        holds 2 cards or fewer, and the top card when the hand is nearly empty."""
        static = self.static[ids]
        hand = obs[owner, CARDS_LEFT].astype(np.float64)
        leading = (obs[owner, TRICK:TRICK + 52] == 0).all(axis=1).astype(np.float64)
        left = hand - self.sizes[ids]
        danger = obs[owner, CARDS_LEFT + 1:CARDS_LEFT + SEATS].astype(np.float64)
        danger = np.where(danger > 0, danger, 99).min(axis=1) <= 2
        extra = np.column_stack([left == 0, left / 13.0, (ids == 0) & danger, static[:, 6] * (hand <= 4)])
        return np.hstack([static, static * leading[:, None], extra])

    def choose(self, obs: np.ndarray, indptr: np.ndarray, legal: np.ndarray, games: np.ndarray,
               rng: np.random.Generator, greedy: bool = False) -> tuple[np.ndarray, np.ndarray]:
        """An action for each of `games` (their observations and CSR legal ids), and each
        choice's gradient of log pi."""
        starts, ends = indptr[games], indptr[games + 1]
        counts = ends - starts
        owner = np.repeat(np.arange(len(games)), counts)
        rows = np.concatenate([np.arange(s, e) for s, e in zip(starts.tolist(), ends.tolist())])
        ids = legal[rows]
        phi = self.features(obs[games], ids, owner)
        logits = phi @ self.w
        first = np.concatenate([[0], np.cumsum(counts)[:-1]])
        peak = np.maximum.reduceat(logits, first)
        expo = np.exp(logits - peak[owner])
        probs = expo / np.add.reduceat(expo, first)[owner]
        if greedy:
            score = logits - peak[owner]
            pick = first + np.array([int(np.argmax(score[s:s + c])) for s, c in zip(first, counts)])
        else:
            cum = np.cumsum(probs)
            base = np.concatenate([[0.0], cum])[first]
            u = base + rng.random(len(games)) * np.add.reduceat(probs, first)
            pick = np.minimum(np.searchsorted(cum, u, side="right"), first + counts - 1)
            pick = np.maximum(pick, first)
        mean_phi = np.add.reduceat(phi * probs[:, None], first)
        return ids[pick], phi[pick] - mean_phi


def play(env: VectorEnv, policy: LinearPolicy, games: int, rng: np.random.Generator, learn: bool,
         lr: float = 0.02, greedy: bool = False, agent: bool = True,
         curve: list[tuple[int, float]] | None = None) -> dict[str, float]:
    """Play until `games` games have ended; the learner (or, with agent=False, a random player in
    its seat) at seat ``game % 4`` of each vector slot's current game. Returns its win rate and
    points per game; trains the policy when `learn`."""
    n = env.num_envs
    step = env.reset()
    seat = np.arange(n) % SEATS
    grads = np.zeros((n, policy.dim))
    baseline, done, wins, points = 0.0, 0, 0, 0.0
    recent: list[float] = []
    while done < games:
        actions = env.sample_legal(rng)
        mine = np.flatnonzero(step.current_player == seat)
        if agent and len(mine):
            assert step.legal_indptr is not None and step.legal_ids is not None
            chosen, grad = policy.choose(step.observation, step.legal_indptr, step.legal_ids, mine, rng, greedy)
            actions[mine] = chosen
            if learn:
                grads[mine] += grad
        step = env.step(actions)
        for i in np.flatnonzero(step.terminated).tolist():
            if done == games:               # (other slots' games ending in the last step)
                break
            ret = float(step.rewards[i, seat[i]])
            done += 1
            wins += ret > 0
            points += ret
            if learn:
                policy.w += lr * (ret - baseline) / 13.0 * grads[i]
                baseline += 0.01 * (ret - baseline)
                recent.append(ret)
                if curve is not None and len(recent) == 500:
                    curve.append((done, float(np.mean(recent))))
                    recent.clear()
            grads[i] = 0.0
            seat[i] = (seat[i] + 1) % SEATS          # the next game of this slot: the next seat
    return {"games": done, "win_rate": wins / done, "points_per_game": points / done}


def main(argv: Sequence[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="a small budget (CI): under a minute")
    parser.add_argument("--games", type=int, default=None, help="training games (default 60,000; quick 12,000)")
    parser.add_argument("--eval-games", type=int, default=4000, help="evaluation games (seat-rotated)")
    parser.add_argument("--envs", type=int, default=256, help="games stepped at once")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--plot", metavar="PNG", help="draw the learning curve (needs matplotlib)")
    args = parser.parse_args(argv)
    train_games = args.games if args.games is not None else (12_000 if args.quick else 60_000)
    rules = Rules()
    env = VectorEnv(args.envs, rules=rules, seed=args.seed, legal="compact", threads=1)
    policy = LinearPolicy(env.space)
    rng = np.random.default_rng(args.seed)
    curve: list[tuple[int, float]] = []
    start = time.perf_counter()
    play(env, policy, train_games, rng, learn=True, curve=curve)
    trained = time.perf_counter() - start
    # evaluation: the same deals (seed) for the learner and for a random player in its seats
    eval_env = VectorEnv(args.envs, rules=rules, seed=10_000 + args.seed, legal="compact", threads=1)
    learner = play(eval_env, policy, args.eval_games, np.random.default_rng(1), learn=False, greedy=True)
    random_seat = play(eval_env, policy, args.eval_games, np.random.default_rng(1), learn=False, agent=False)
    result: dict[str, Any] = {"train_games": train_games, "train_seconds": trained, "learner": learner,
                              "random": random_seat, "curve": curve}
    print(f"trained on {train_games:,} games in {trained:.1f} s")
    for name, r in (("learner", learner), ("random", random_seat)):
        print(f"{name:>8}: win rate {r['win_rate']:.3f}, points per game {r['points_per_game']:+.2f} "
              f"over {r['games']:,} seat-rotated games against 3 random players")
    if args.plot:
        draw(curve, learner, random_seat, args.plot)
        print(f"learning curve: {args.plot}")
    return result


def draw(curve: list[tuple[int, float]], learner: dict[str, float], random_seat: dict[str, float],
         path: str) -> None:
    """The mean return per 500 training games, with the evaluation results as lines."""
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        sys.exit("--plot needs matplotlib: pip install 'handrank[plot]'")
    fig, ax = plt.subplots(figsize=(7, 4))
    if curve:
        x, y = zip(*curve)
        ax.plot(x, y, label="training: mean points per game (500 games)")
    ax.axhline(learner["points_per_game"], color="C2", linestyle="--",
               label=f"greedy learner, evaluation ({learner['win_rate']:.0%} wins)")
    ax.axhline(random_seat["points_per_game"], color="C3", linestyle=":",
               label=f"random player, evaluation ({random_seat['win_rate']:.0%} wins)")
    ax.set_xlabel("training games")
    ax.set_ylabel("points per game (cards)")
    ax.set_title("Big Two: linear softmax policy vs 3 random players")
    ax.legend(loc="lower right", fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)


if __name__ == "__main__":
    main()
