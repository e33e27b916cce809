"""Train one Big Two seat with sb3-contrib's MaskablePPO against random players.

``handrank.bigtwo.env.against("random", seat=0)`` turns the PettingZoo environment into the
single-agent ``gymnasium.Env`` that SB3 trains: the other seats play inside ``step``, and
``action_masks()`` gives MaskablePPO the legal actions (the pattern of PettingZoo's SB3 action-mask
tutorial, without its hand-written wrapper). Then the trained policy and a uniformly random one
each play the same evaluation deals against the same opponents.

    pip install 'handrank[rl]' sb3-contrib
    python examples/maskable_ppo_bigtwo.py --quick     # CI's budget: a minute or two on one core
    python examples/maskable_ppo_bigtwo.py --steps 200000
"""
from __future__ import annotations

import argparse
import time
from typing import Any

import numpy as np
import torch
from sb3_contrib import MaskablePPO

from handrank.bigtwo import env as bigtwo_env

QUICK_STEPS = 8_192
QUICK_GAMES = 300


def play(env: Any, games: int, seed: int, model: MaskablePPO | None) -> tuple[float, float]:
    """The learner's mean payment and win rate over `games` games dealt from `seed`, acting by
    `model` (deterministic) or, without one, uniformly at random among its legal actions."""
    rng = np.random.default_rng(seed)
    env.reset(seed=seed)
    total, wins = 0.0, 0
    for _ in range(games):
        obs, _ = env.reset()
        while True:
            mask = env.action_masks()
            if model is None:
                action = int(rng.choice(np.flatnonzero(mask)))
            else:
                action = int(model.predict(obs, action_masks=mask, deterministic=True)[0])
            obs, reward, terminated, truncated, _ = env.step(action)
            if terminated or truncated:
                total += reward
                wins += reward > 0
                break
    return total / games, wins / games


def main(argv: list[str] | None = None) -> dict[str, float]:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help=f"{QUICK_STEPS:,} steps, {QUICK_GAMES} games")
    parser.add_argument("--steps", type=int, default=100_000, help="training steps of the learner")
    parser.add_argument("--games", type=int, default=1000, help="evaluation games for each policy")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    steps, games = (QUICK_STEPS, QUICK_GAMES) if args.quick else (args.steps, args.games)
    torch.set_num_threads(1)        # small networks: one thread is the fastest, and CI's budget

    env = bigtwo_env.against("random", seat=0, players=args.players)
    env.reset(seed=args.seed)
    # few epochs of large batches: the 19,899-way head makes each gradient step the cost
    model = MaskablePPO("MlpPolicy", env, n_steps=1024, batch_size=256, n_epochs=5, learning_rate=1e-3,
                        ent_coef=0.01, seed=args.seed, device="cpu", verbose=0)
    start, cpu = time.perf_counter(), time.process_time()
    model.learn(total_timesteps=steps)
    seconds, cpu = time.perf_counter() - start, time.process_time() - cpu

    evaluation = bigtwo_env.against("random", seat=0, players=args.players)
    trained = play(evaluation, games, args.seed + 1, model)
    random = play(evaluation, games, args.seed + 1, None)
    print(f"{steps:,} learner steps in {seconds:.0f} s, {cpu:.0f} s of CPU ({steps / cpu:,.0f}/s of CPU)")
    print(f"mean payment against {args.players - 1} random players over {games} games: "
          f"trained {trained[0]:+.2f} (wins {trained[1]:.0%}), random {random[0]:+.2f} (wins {random[1]:.0%})")
    return {"trained": trained[0], "trained_wins": trained[1], "random": random[0], "random_wins": random[1]}


if __name__ == "__main__":
    main()
