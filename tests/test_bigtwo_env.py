"""handrank.bigtwo.env: the PettingZoo AEC environment over bigtwo.Game (extra ``rl``)."""
from __future__ import annotations

import copy
import importlib
import pickle
import sys

import numpy as np
import pytest

from handrank import bigtwo


def test_without_the_extra_the_import_says_what_to_install(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "pettingzoo", None)
    monkeypatch.delitem(sys.modules, "handrank.bigtwo.env", raising=False)
    monkeypatch.delitem(sys.modules, "handrank._env", raising=False)
    with pytest.raises(ImportError, match=r"pip install 'handrank\[rl\]'"):
        importlib.import_module("handrank.bigtwo.env")


pettingzoo_test = pytest.importorskip("pettingzoo.test")
bigtwo_env = pytest.importorskip("handrank.bigtwo.env")

# (players, rules, deal): the default table, the whole deck to three under other suits and
# straights, two players under rules with four-card plays and bombs (plays beyond "same size,
# higher key")
TABLES = [(4, "hk", "thirteen"), (3, "taiwan", "all"),
          (2, bigtwo.Rules(four_of_a_kind="both", bombs_beat_small=True, four_beats_all=True), "thirteen")]


@pytest.mark.filterwarnings("ignore:Observation:UserWarning")  # the dict observation of action masks
@pytest.mark.parametrize("players,rules,deal", TABLES[:2])
@pytest.mark.parametrize("make", ["env", "raw_env"])
def test_api(players: int, rules: str, deal: str, make: str) -> None:
    env = getattr(bigtwo_env, make)(players=players, rules=rules, deal=deal)
    pettingzoo_test.api_test(env, num_cycles=100)


def test_seed() -> None:
    pettingzoo_test.seed_test(bigtwo_env.env, num_cycles=100)
    pettingzoo_test.seed_test(lambda: bigtwo_env.raw_env(players=3, rules="taiwan", deal="all"), num_cycles=100)


def test_render(capsys: pytest.CaptureFixture[str]) -> None:
    pettingzoo_test.render_test(lambda render_mode=None: bigtwo_env.env(players=2, render_mode=render_mode))
    assert "Game(players=2" in capsys.readouterr().out
    with pytest.raises(ValueError, match="render_mode"):
        bigtwo_env.raw_env(render_mode="rgb_array")


def expected_observation(game: bigtwo.Game, seat: int) -> np.ndarray:
    """The documented layout, built from the game's public state (and `seat`'s hand)."""
    obs = np.zeros(bigtwo_env.SIZE, dtype=np.int8)
    obs[list(game.hands[seat])] = 1
    order = [(seat + k) % game.players for k in range(game.players)]
    for k, other in enumerate(order):
        obs[156 + k] = len(game.hands[other])
    if game.to_beat is not None:
        obs[[52 + c for c in game.to_beat.cards]] = 1
        obs[160 + order.index(game.last_player)] = 1
    for turn in game.history:
        if turn.combo is not None:
            obs[[104 + c for c in turn.combo.cards]] = 1
    return obs


def play_episode(env, seed: int, check: bool = False) -> tuple[dict[str, float], list[int]]:
    """Random legal actions to the end; the rewards summed per agent and the actions taken. With
    `check`, every observation of every agent is compared with the game's state."""
    rng = np.random.default_rng(seed)
    env.reset(seed=seed)
    game, space = env.unwrapped.game, env.unwrapped.space
    totals, taken = {a: 0.0 for a in env.possible_agents}, []
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, _ = env.last()
        totals[agent] += reward
        if terminated or truncated:
            env.step(None)
            continue
        if check:
            seat = env.possible_agents.index(agent)
            assert seat == game.turn
            mask = obs["action_mask"]
            assert mask.dtype == np.int8 and mask.shape == (space.size,)
            assert np.array_equal(mask.astype(bool), game.action_mask(space))
            assert set(np.flatnonzero(mask[1:]) + 1) == {space.action(c) for c in game.legal_moves()}
            for other in env.possible_agents:
                seen = env.observe(other)
                assert np.array_equal(seen["observation"], expected_observation(game, env.possible_agents.index(other)))
                assert other == agent or not seen["action_mask"].any()
        action = int(rng.choice(np.flatnonzero(obs["action_mask"])))
        taken.append(action)
        env.step(action)
    assert game.over and not env.agents
    return totals, taken


@pytest.mark.parametrize("players,rules,deal", TABLES)
def test_masks_observations_and_rewards_follow_the_game(players: int, rules: object, deal: str) -> None:
    env = bigtwo_env.raw_env(players=players, rules=rules, deal=deal)
    for seed in range(2):
        totals, _ = play_episode(env, seed, check=True)
        game = env.game
        assert [totals[a] for a in env.possible_agents] == game.payments()
        assert sum(totals.values()) == 0 and totals[f"player_{game.winner}"] > 0


def test_episodes_replay_from_the_seed() -> None:
    rules = bigtwo.Rules.preset("vietnam")
    first = play_episode(bigtwo_env.env(players=3, rules=rules), 11)
    again = bigtwo_env.env(players=3, rules=rules)
    assert play_episode(again, 11) == first
    assert play_episode(again, 12) != first


def test_the_actions_are_those_of_the_combo_space() -> None:
    env = bigtwo_env.raw_env(rules="indonesia")
    space = env.space
    assert space.rules == bigtwo.Rules.preset("indonesia") and space.size == 18879
    assert env.action_space("player_0").n == space.size
    assert env.observation_space("player_3")["action_mask"].shape == (space.size,)
    env.reset(seed=5)
    game = env.game
    lead = env.observe(env.agent_selection)["action_mask"]
    assert lead[0] == 0                                  # the leader cannot pass
    opening = space.action([game.opening_card])
    assert lead[opening] == 1
    env.step(opening)
    assert game.to_beat == bigtwo.classify([game.opening_card], "indonesia")


def test_illegal_actions(caplog: pytest.LogCaptureFixture) -> None:
    env = bigtwo_env.raw_env()
    env.reset(seed=2)
    agent = env.agent_selection
    before = env.observe(agent)
    illegal = int(np.flatnonzero(before["action_mask"] == 0)[1])
    for action in (0, illegal, -1, env.space.size):      # pass on the lead, a move not held, out of range
        with pytest.raises(bigtwo.IllegalMove):
            env.step(action)
    for action in (None, True, "1", 1.0):
        with pytest.raises(TypeError, match="must act"):
            env.step(action)
    after = env.observe(agent)
    assert env.agent_selection == agent and env.game.history == []
    assert all(np.array_equal(before[k], after[k]) for k in before)

    # wrapped, as PettingZoo's classic games: the game ends and the offender pays the most a
    # loser can (13 cards, tripled, doubled for a bonus held and for a bonus winning play)
    wrapped = bigtwo_env.env(rules=bigtwo.Rules(double_held=True, double_winning_play=True))
    wrapped.reset(seed=2)
    offender = wrapped.agent_selection
    wrapped.step(illegal)
    assert "Illegal move" in caplog.text                 # PettingZoo's log
    assert all(wrapped.terminations.values())
    assert wrapped.rewards == {a: (-13 * 3 * 4 if a == offender else 0) for a in wrapped.possible_agents}
    for _ in wrapped.agent_iter():                       # the terminated agents step out
        wrapped.step(None)
    wrapped.step(None)                                   # after the game: PettingZoo's warning
    assert not wrapped.agents and "after all agents are terminated" in caplog.text
    assert bigtwo_env.env(illegal_reward=-5).unwrapped.worst_payment() == -39


@pytest.mark.parametrize("clone", [copy.deepcopy, lambda env: pickle.loads(pickle.dumps(env))])
def test_copies_play_on_independently(clone) -> None:
    env = bigtwo_env.raw_env(players=3)
    env.reset(seed=4)
    rng = np.random.default_rng(0)
    for _ in range(10):
        env.step(int(rng.choice(np.flatnonzero(env.observe(env.agent_selection)["action_mask"]))))
    twin = clone(env)
    for other in (env, twin):            # the same moves from the same state: the same game
        moves = np.random.default_rng(1)
        while not other.game.over:
            other.step(int(moves.choice(np.flatnonzero(other.observe(other.agent_selection)["action_mask"]))))
    assert twin.game.history == env.game.history and twin.rewards == env.rewards
    assert twin.game is not env.game and twin.space is env.space       # the space is shared
    assert np.array_equal(twin.observe("player_0")["observation"], expected_observation(twin.game, 0))


@pytest.mark.parametrize("players,deal", [(2, "thirteen"), (4, "thirteen"), (3, "all")])
def test_play_flow_rules_reach_the_environment(players: int, deal: str) -> None:
    """Rules of who may play when (passing, last plays, a stock to draw from) and games decided
    at the deal: the masks, observations and rewards still follow the game."""
    rules = bigtwo.Rules(passing="out_of_trick", last_play="no_single_or_pair_of_twos",
                         draw_on_pass=True, four_twos="draw", dragun=True)
    env = bigtwo_env.raw_env(players=players, rules=rules, deal=deal)
    at_the_deal = next(s for s in range(10_000) if bigtwo.Game(players, rules, np.random.default_rng(s), deal).over)
    decided = bigtwo.Game(players, rules, np.random.default_rng(at_the_deal), deal)
    for seed in (0, 1, at_the_deal):
        env.reset(seed=seed)        # a deal decided at once is settled by the reset, dealt again
        settled = [env.infos[a]["settled"] for a in env.possible_agents]
        assert settled == (decided.payments() if seed == at_the_deal else [0.0] * players)
        totals, taken = play_episode(env, seed, check=True)
        assert [totals[a] for a in env.possible_agents] == env.game.payments()
        assert taken


def test_rules_the_action_space_cannot_carry() -> None:
    with pytest.raises(ValueError, match="does not take Rules.long_straights"):
        bigtwo_env.raw_env(rules=bigtwo.Rules(long_straights=True))
    with pytest.raises(ValueError, match="does not take Rules.extra_card='trade'"):
        bigtwo_env.raw_env(players=3, rules=bigtwo.Rules(extra_card="trade"), deal="all")


def test_observations_are_the_agents_own() -> None:
    """An observation kept (or written to) by an agent is never changed by the environment later,
    and changes nothing the environment decides: each holds fresh arrays."""
    env = bigtwo_env.raw_env()
    env.reset(seed=6)
    first = env.observe(env.agent_selection)
    kept = {k: v.copy() for k, v in first.items()}
    again = env.observe(env.agent_selection)
    assert again["action_mask"] is not first["action_mask"]
    action = int(np.flatnonzero(first["action_mask"])[0])
    first["action_mask"][:] = 0                       # the agent's copy: still legal
    first["observation"][:] = 0
    env.step(action)
    assert np.array_equal(again["action_mask"], kept["action_mask"])
    assert np.array_equal(again["observation"], kept["observation"])
    now = env.observe(env.agent_selection)
    now["action_mask"][:] = 1                         # nor does this make every action legal
    illegal = int(np.flatnonzero(env.observe(env.agent_selection)["action_mask"] == 0)[1])
    with pytest.raises(bigtwo.IllegalMove):
        env.step(illegal)


def test_the_wrapped_environment_enforces_the_order_and_refuses_actions_outside_the_space() -> None:
    wrapped = bigtwo_env.env()
    for read in ("last", "agents", "agent_selection", "rewards"):   # PettingZoo's order enforcing
        with pytest.raises(AttributeError, match="before reset"):
            getattr(wrapped, read)() if read == "last" else getattr(wrapped, read)
    for call in (wrapped.step, lambda _: wrapped.agent_iter()):
        with pytest.raises(AssertionError, match="reset"):
            call(0)
    wrapped.reset(seed=3)
    turns = wrapped.agent_iter()
    assert next(turns) == wrapped.agent_selection
    with pytest.raises(AssertionError, match="call step"):          # a turn only after a step
        next(turns)
    assert wrapped.last()[0]["action_mask"].any()
    for action in (-1, wrapped.unwrapped.space.size):
        with pytest.raises(bigtwo.IllegalMove):
            wrapped.step(action)
    assert not any(wrapped.terminations.values())


# ----------------------------------------------------------------------------- smack-down
SMACK = bigtwo.Rules(smack_down=True)


@pytest.mark.filterwarnings("ignore:Observation:UserWarning")
@pytest.mark.parametrize("players", [4, 2])
@pytest.mark.parametrize("make", ["env", "raw_env"])
def test_api_under_smack_down(players: int, make: str) -> None:
    env = getattr(bigtwo_env, make)(players=players, rules=SMACK)
    assert env.unwrapped.space.size == 422_536 == bigtwo.ComboSpace(SMACK, 13).size
    pettingzoo_test.api_test(env, num_cycles=100)


def holds_a_smack(hand: list[int], rules: bigtwo.Rules) -> bool:
    return any(m.kind in (bigtwo.Kind.FOUR, bigtwo.Kind.PAIR_RUN)
               for m in bigtwo.legal_moves(hand, [rules.highest_card], rules))


SMACK_TABLES = [(4, SMACK), (2, SMACK.replace(passing="out_of_trick", suit_order="cshd")),
                (3, SMACK.replace(last_play="no_single_top_card", double_held=True, direction="anticlockwise"))]


def test_smack_down_games_through_the_environment_follow_the_bare_game() -> None:
    """Deals where a player without the 2♠ holds a smack, played by agents keen on the lone 2♠
    and on smacks, step by step against a bare Game dealt the same hands and played through
    `Game.play_action`: the masks are its legal moves (and the pass), illegal actions (a smack
    as a lead or on anything but the 2♠, a run of pairs not held, one past the space) are refused
    and change nothing, and the games, histories and rewards are the same."""
    smacks = runs = backs = refused = 0
    for players, rules in SMACK_TABLES:
        env = bigtwo_env.raw_env(players=players, rules=rules)
        space = env.space
        top = space.action([rules.highest_card])
        full = bigtwo.ComboSpace(rules)                    # the unbounded space: the same numbers
        seeds = [s for s in range(400) if env.reset(seed=s) is None
                 and any(holds_a_smack(h, rules) for h in env.game.hands if rules.highest_card not in h)][:12]
        for seed in seeds:
            rng = np.random.default_rng(seed)
            env.reset(seed=seed)
            twin = bigtwo.Game(players, rules, hands=[list(h) for h in env.game.hands])
            assert twin.turn == env.game.turn
            totals = dict.fromkeys(env.possible_agents, 0.0)
            for agent in env.agent_iter():
                obs, reward, terminated, truncated, _ = env.last()
                totals[agent] += reward
                if terminated or truncated:
                    env.step(None)
                    continue
                mask = obs["action_mask"].view(bool)
                moves = twin.legal_moves()
                assert set(np.flatnonzero(mask[1:]) + 1) == {space.action(m) for m in moves} \
                    == {full.action(m) for m in moves}
                assert mask[0] == twin.can_pass
                hand = twin.hand()
                held = [space.action(m) for m in bigtwo.legal_moves(hand, [rules.highest_card], rules)
                        if m.kind in (bigtwo.Kind.FOUR, bigtwo.Kind.PAIR_RUN)]
                unheld = next(a for a in rng.integers(space.size - 402_624, space.size, 20).tolist()
                              if not set(space.cards(a)) <= set(hand))
                for illegal in [a for a in held if not mask[a]] + [unheld, space.size]:
                    before = len(env.game.history)
                    with pytest.raises(bigtwo.IllegalMove):
                        env.step(illegal)
                    assert len(env.game.history) == before and env.agent_selection == agent
                    refused += 1
                legal_smacks = [a for a in held if mask[a]]
                if mask[top] and rng.random() < 0.8:
                    action = top
                elif legal_smacks and rng.random() < 0.9:
                    action = int(rng.choice(legal_smacks))
                    smacks += 1
                    runs += len(space.cards(action)) > 5               # a run of pairs, not a four
                    backs += twin.to_beat.size > 1
                else:
                    action = int(rng.choice(np.flatnonzero(mask)))
                twin.play_action(action, space)
                env.step(action)
            assert env.game.history == twin.history and env.game.hands == twin.hands
            assert [totals[a] for a in env.possible_agents] == twin.payments()
    assert smacks >= 15 and runs >= 10 and backs >= 3 and refused > 1000, (smacks, runs, backs, refused)


def test_smack_down_tables_whose_hands_outgrow_a_mask_are_refused() -> None:
    """A hand of 13 cards holds runs of up to 6 pairs (402,624 actions); the tables whose hands
    may hold more are refused with the count, the others (draw_on_pass without a stock, four
    players) taken, and the environment's copies keep their space."""
    for players, rules, deal, text in [
            (3, SMACK, "all", "one may hold 18, so runs of up to 9 pairs, 50,791,104"),
            (3, SMACK.replace(extra_card="discard"), "all", "one may hold 17, so runs of up to 8 pairs, 10,480,320"),
            (2, SMACK, "all", "one may hold 26, so runs of up to 12 pairs, 3,134,566,080"),
            (3, SMACK.replace(draw_on_pass=True), "thirteen", r"one may hold 26 \(drawing the stock")]:
        with pytest.raises(ValueError, match="takes Rules.smack_down only where a hand holds at most 13 "
                                             f"cards: here {text}"):
            bigtwo_env.raw_env(players=players, rules=rules, deal=deal)
    for players, deal in [(4, "all"), (4, "thirteen")]:          # four players: no stock
        assert bigtwo_env.raw_env(players=players, rules=SMACK.replace(draw_on_pass=True), deal=deal).space.size == 422_536
    env = bigtwo_env.raw_env(rules=SMACK)
    env.reset(seed=1)
    twin = pickle.loads(pickle.dumps(env))
    assert twin.space is env.space and twin.space.max_hand_size == 13
