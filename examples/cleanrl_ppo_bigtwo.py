"""A CleanRL-style PPO on the Big Two vector environment through Gymnasium (issue 39): one file, torch.

Seat 0 learns against three uniformly random players. The environment is
``bigtwo.VectorEnv(n, legal="compact").to_gymnasium(seat=0, autoreset_mode=SAME_STEP)``: ``step`` returns seat 0's payment
in each game that ended on that step (whoever made the last move), and ``infos`` the seat to act
(``current_player``) and the legal action ids as CSR arrays (``legal_indptr``, ``legal_ids``),
without the 19,899-entry mask. The policy scores only the legal ids: a network reads the
observation into a query vector, each legal action is embedded from its cards and its size, and
the logits are their dot products, padded to the longest list of the batch and masked (-inf)
beyond each game's own. Random players draw uniformly from the same ids.

PPO as CleanRL's ``ppo.py`` has it (clipped objective, GAE, value loss, entropy bonus, minibatch
epochs), over the learner's decisions only: each game's decisions form its sequence, the reward of
a decision is what seat 0 was paid before its next one (the payment at the end of the game), and
a decision still waiting for its successor when the rollout ends is left out of that update.
Rewards are divided by 13 (a hand) for the value's sake.

Evaluation plays the same deals twice, seat 0 taken by the trained policy (greedy) and by a random
player: the win rate (seat 0 went out first) and the points per game. A random player wins about
25% and breaks even.

    python examples/cleanrl_ppo_bigtwo.py             # about 2 minutes on one core
    python examples/cleanrl_ppo_bigtwo.py --quick     # CI's budget: under 2 minutes on one core
"""
from __future__ import annotations

import argparse
import time
from collections.abc import Sequence
from typing import Any

import numpy as np
import torch
from gymnasium.vector import AutoresetMode
from torch import nn
from torch.distributions.categorical import Categorical

from handrank.bigtwo import ComboSpace
from handrank.bigtwo.vector import VectorEnv

LEARNER = 0
# the rewards the learner sees: payments in hands of 13 cards, so that the value's targets stay
# near 1 (a loser pays up to 39 under hk)
SCALE = 13.0


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="CI's budget: under 2 minutes on one core")
    parser.add_argument("--iterations", type=int, default=None, help="rollouts (default 100; quick 20)")
    parser.add_argument("--envs", type=int, default=64, help="games stepped at once")
    parser.add_argument("--num-steps", type=int, default=128, help="vector steps per rollout")
    parser.add_argument("--eval-games", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--learning-rate", type=float, default=1e-3)
    parser.add_argument("--gamma", type=float, default=1.0, help="a game ends: no discount needed")
    parser.add_argument("--gae-lambda", type=float, default=0.95)
    parser.add_argument("--update-epochs", type=int, default=4)
    parser.add_argument("--minibatches", type=int, default=4)
    parser.add_argument("--clip-coef", type=float, default=0.2)
    parser.add_argument("--ent-coef", type=float, default=0.01)
    parser.add_argument("--vf-coef", type=float, default=0.5)
    parser.add_argument("--max-grad-norm", type=float, default=0.5)
    args = parser.parse_args(argv)
    if args.iterations is None:
        args.iterations = 20 if args.quick else 100
    return args


def action_features(space: ComboSpace) -> np.ndarray:
    """(actions, 58) float32: each action's cards (52, card id = column) and its size one-hot
    (0 = the pass, 1 to 5 cards)."""
    features = np.zeros((space.size, 58), dtype=np.float32)
    features[0, 52] = 1.0
    for action in range(1, space.size):
        cards = space.cards(action)
        features[action, cards] = 1.0
        features[action, 52 + len(cards)] = 1.0
    return features


def padded(indptr: np.ndarray, ids: np.ndarray, rows: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The legal ids of `rows` (CSR `indptr`, `ids`) as a (len(rows), longest) array and the mask
    of its real entries (the padding reads id 0 and is masked)."""
    starts = indptr[rows]
    counts = indptr[rows + 1] - starts
    columns = np.arange(counts.max())
    valid = columns < counts[:, None]
    legal = np.where(valid, ids[np.minimum(starts[:, None] + columns, len(ids) - 1)], 0)
    return legal.astype(np.int64), valid


def random_legal(indptr: np.ndarray, ids: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """A uniformly random legal id of each game."""
    counts = np.diff(indptr)
    return ids[indptr[:-1] + (rng.random(len(counts)) * counts).astype(np.int64)].astype(np.int64)


class Agent(nn.Module):
    """Value and policy over a shared body; the policy scores the legal ids only."""

    def __init__(self, observation_size: int, features: np.ndarray, hidden: int = 128, embed: int = 64) -> None:
        super().__init__()
        self.register_buffer("features", torch.as_tensor(features))
        self.body = nn.Sequential(nn.Linear(observation_size, 2 * hidden), nn.Tanh(),
                                  nn.Linear(2 * hidden, hidden), nn.Tanh())
        self.query = nn.Linear(hidden, embed)
        self.embed = nn.Linear(features.shape[1], embed)
        self.critic = nn.Linear(hidden, 1)

    def get_value(self, obs: torch.Tensor) -> torch.Tensor:
        return self.critic(self.body(obs)).squeeze(-1)

    def logits(self, hidden: torch.Tensor, legal: torch.Tensor, valid: torch.Tensor) -> torch.Tensor:
        """The score of each of the padded legal ids `legal` (-inf on the padding)."""
        keys = self.embed(self.features[legal])                        # (B, K, embed)
        logits = (keys @ self.query(hidden).unsqueeze(-1)).squeeze(-1)
        return logits.masked_fill(~valid, -torch.inf)

    def get_action_and_value(self, obs: torch.Tensor, legal: torch.Tensor, valid: torch.Tensor,
                             choice: torch.Tensor | None = None) -> tuple[torch.Tensor, ...]:
        """`choice` indexes each row of `legal` (the padded legal ids); sampled when None."""
        hidden = self.body(obs)
        dist = Categorical(logits=self.logits(hidden, legal, valid))
        if choice is None:
            choice = dist.sample()
        return choice, dist.log_prob(choice), dist.entropy(), self.critic(hidden).squeeze(-1)


def make_env(envs: int, seed: int) -> Any:
    # SAME_STEP: the loop reads each step's infos as the state of the games it returns, every
    # one of them a game to play (under the default NEXT_STEP an ended game's entry waits a step)
    env = VectorEnv(envs, seed=seed, legal="compact", threads=1).to_gymnasium(
        seat=LEARNER, autoreset_mode=AutoresetMode.SAME_STEP)
    assert env.metadata["autoreset_mode"] == AutoresetMode.SAME_STEP
    return env


def train(args: argparse.Namespace) -> tuple[Agent, dict[str, Any]]:
    rng = np.random.default_rng(args.seed)
    torch.manual_seed(args.seed)
    envs = make_env(args.envs, args.seed)
    agent = Agent(envs.single_observation_space["observation"].shape[0], action_features(envs.env.space))
    optimizer = torch.optim.Adam(agent.parameters(), lr=args.learning_rate, eps=1e-5)
    obs, infos = envs.reset(seed=args.seed)
    curve: list[float] = []
    for _ in range(args.iterations):
        # one rollout: the learner's decisions, each linked to the game's next one (`after`)
        buf_obs, buf_legal, buf_choice, buf_logp, buf_value = [], [], [], [], []
        reward: list[float] = []
        done: list[bool] = []
        after: list[int] = []
        waiting = np.full(args.envs, -1)              # each game's last decision, or -1
        finished: list[float] = []
        for _ in range(args.num_steps):
            indptr, ids = infos["legal_indptr"], infos["legal_ids"]
            actions = random_legal(indptr, ids, rng)
            mine = np.flatnonzero(infos["current_player"] == LEARNER)
            if len(mine):
                legal, valid = padded(indptr, ids, mine)
                with torch.no_grad():
                    choice, logp, _, value = agent.get_action_and_value(
                        torch.as_tensor(obs["observation"][mine], dtype=torch.float32),
                        torch.as_tensor(legal), torch.as_tensor(valid))
                actions[mine] = legal[np.arange(len(mine)), choice.numpy()]
                for game in mine.tolist():
                    if waiting[game] >= 0:
                        after[waiting[game]] = len(reward)
                    waiting[game] = len(reward)
                    buf_obs.append(obs["observation"][game])
                    buf_legal.append(ids[indptr[game]:indptr[game + 1]])
                    reward.append(0.0)
                    done.append(False)
                    after.append(-1)
                buf_choice.append(choice)
                buf_logp.append(logp)
                buf_value.append(value)
            obs, paid, terminated, truncated, infos = envs.step(actions)
            for game in np.flatnonzero(paid != 0).tolist():
                if waiting[game] >= 0:
                    reward[waiting[game]] += float(paid[game]) / SCALE
            for game in np.flatnonzero(terminated | truncated).tolist():
                finished.append(float(paid[game]))
                if waiting[game] >= 0:
                    done[waiting[game]] = True
                    waiting[game] = -1

        # GAE over each game's decisions, the last first
        values = torch.cat(buf_value).numpy()
        advantages = np.zeros(len(reward), dtype=np.float32)
        for d in range(len(reward) - 1, -1, -1):
            if done[d]:
                advantages[d] = reward[d] - values[d]
            elif after[d] >= 0:
                delta = reward[d] + args.gamma * values[after[d]] - values[d]
                advantages[d] = delta + args.gamma * args.gae_lambda * advantages[after[d]]
        usable = np.flatnonzero(np.array(done) | (np.array(after) >= 0))
        returns = advantages + values
        b_obs = torch.as_tensor(np.array(buf_obs), dtype=torch.float32)
        lengths = np.array([len(legal) for legal in buf_legal])
        b_indptr = np.concatenate([[0], np.cumsum(lengths)])
        b_ids = np.concatenate(buf_legal)
        b_choice, b_logp = torch.cat(buf_choice), torch.cat(buf_logp)
        b_adv, b_ret = torch.as_tensor(advantages), torch.as_tensor(returns)

        # PPO's clipped update, CleanRL's
        for _ in range(args.update_epochs):
            rng.shuffle(usable)
            for rows in np.array_split(usable, args.minibatches):
                legal, valid = padded(b_indptr, b_ids, rows)
                t = torch.as_tensor(rows)
                _, logp, entropy, value = agent.get_action_and_value(
                    b_obs[t], torch.as_tensor(legal), torch.as_tensor(valid), b_choice[t])
                ratio = (logp - b_logp[t]).exp()
                adv = b_adv[t]
                adv = (adv - adv.mean()) / (adv.std() + 1e-8)
                pg_loss = torch.max(-adv * ratio,
                                    -adv * ratio.clamp(1 - args.clip_coef, 1 + args.clip_coef)).mean()
                v_loss = 0.5 * ((value - b_ret[t]) ** 2).mean()
                loss = pg_loss - args.ent_coef * entropy.mean() + args.vf_coef * v_loss
                optimizer.zero_grad()
                loss.backward()
                nn.utils.clip_grad_norm_(agent.parameters(), args.max_grad_norm)
                optimizer.step()
        if finished:
            curve.append(float(np.mean(finished)))
    return agent, {"curve": curve}


def evaluate(agent: Agent | None, games: int, seed: int, envs: int = 256) -> dict[str, float]:
    """Seat 0's win rate and points per game over the first `games` games to end, played by
    `agent` (greedy) or, when None, by a random player; the other seats random."""
    env = make_env(envs, seed)
    rng = np.random.default_rng(seed)
    obs, infos = env.reset(seed=seed)
    results: list[float] = []
    while len(results) < games:
        indptr, ids = infos["legal_indptr"], infos["legal_ids"]
        actions = random_legal(indptr, ids, rng)
        mine = np.flatnonzero(infos["current_player"] == LEARNER)
        if agent is not None and len(mine):
            legal, valid = padded(indptr, ids, mine)
            with torch.no_grad():
                hidden = agent.body(torch.as_tensor(obs["observation"][mine], dtype=torch.float32))
                choice = agent.logits(hidden, torch.as_tensor(legal), torch.as_tensor(valid)).argmax(dim=1)
            actions[mine] = legal[np.arange(len(mine)), choice.numpy()]
        obs, paid, terminated, truncated, infos = env.step(actions)
        results += paid[terminated | truncated].tolist()
    results = results[:games]
    return {"games": len(results), "win_rate": float(np.mean(np.array(results) > 0)),
            "points_per_game": float(np.mean(results))}


def main(argv: Sequence[str] | None = None) -> dict[str, Any]:
    args = parse_args(argv)
    torch.set_num_threads(1)
    start = time.perf_counter()
    agent, log = train(args)
    trained = time.perf_counter() - start
    # the same deals for the learner and for a random player in its seat
    learner = evaluate(agent, args.eval_games, 10_000 + args.seed)
    random_seat = evaluate(None, args.eval_games, 10_000 + args.seed)
    print(f"trained {args.iterations} rollouts of {args.envs} x {args.num_steps} steps in {trained:.1f} s")
    for name, r in (("learner", learner), ("random", random_seat)):
        print(f"{name:>8}: win rate {r['win_rate']:.3f}, points per game {r['points_per_game']:+.2f} "
              f"over {r['games']:,} games at seat 0 against 3 random players")
    return {"train_seconds": trained, "learner": learner, "random": random_seat, **log}


if __name__ == "__main__":
    main()
