"""handrank.ofc.vector: N OFC hands stepped together, checked step by step against the scalar
ofc.Game (and the planes of ofc.env) under random actions, tables and rules."""
from __future__ import annotations

import importlib
import sys

import numpy as np
import pytest

from handrank import ofc
from handrank.ofc import actions
from handrank.ofc.vector import Step, VectorEnv


def planes_of(game: ofc.Game, seat: int) -> np.ndarray:
    """The observation of `seat` as ofc.env documents it, from the Game's public view."""
    planes = np.zeros((14, 52), dtype=np.int8)
    for i, row in enumerate(game.boards[seat].rows):
        planes[i, list(row)] = 1
    if game.turn == seat:
        planes[3, list(game.dealt)] = 1
    planes[4, list(game.discards(seat))] = 1
    for k in range(1, game.players):
        for i, row in enumerate(game.visible_board((seat + k) % game.players, seat).rows):
            planes[5 + 3 * (k - 1) + i, list(row)] = 1
    return planes


class Reference:
    """The scalar games of a VectorEnv: ofc.Game dealt from each game's deck, Fantasyland hands
    set by the solver as ofc.env sets them."""

    def __init__(self, env: VectorEnv) -> None:
        self.env = env
        self.games = [self.new_game(i) for i in range(env.num_envs)]

    def new_game(self, i: int) -> ofc.Game:
        env = self.env
        game = ofc.Game(env.players, env.rules, None, env.button, env.fantasyland,
                        deck=env.decks[i].tolist())
        self.settle(game)
        return game

    @staticmethod
    def settle(game: ofc.Game) -> None:
        while game.fantasyland_turn:
            game.play_fantasyland()

    def step(self, chosen: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Play the actions; the rewards and ends (the new games are dealt by `renew`)."""
        rewards = np.zeros((len(self.games), self.env.players), dtype=np.float32)
        ended = np.zeros(len(self.games), dtype=bool)
        for i, (game, action) in enumerate(zip(self.games, chosen.tolist())):
            game.play_action(action)
            self.settle(game)
            if game.over:
                rewards[i] = game.values()
                ended[i] = True
        return rewards, ended

    def renew(self, ended: np.ndarray) -> None:
        for i in np.flatnonzero(ended):
            self.games[i] = self.new_game(int(i))

    def check(self, step: Step) -> None:
        for i, game in enumerate(self.games):
            assert not game.over
            seat = game.turn
            assert step.current_player[i] == seat
            np.testing.assert_array_equal(step.observation[i], planes_of(game, seat), err_msg=f"game {i}")
            legal = actions.mask(game)
            if step.legal_mask is not None:
                np.testing.assert_array_equal(step.legal_mask[i], legal, err_msg=f"game {i}")
            else:
                assert step.legal_indptr is not None and step.legal_ids is not None
                ids = step.legal_ids[step.legal_indptr[i]:step.legal_indptr[i + 1]]
                np.testing.assert_array_equal(ids, np.flatnonzero(legal))


def play_against_reference(env: VectorEnv, steps: int, seed: int) -> int:
    """Random legal steps, compared after each; the number of hands finished."""
    rng = np.random.default_rng(seed)
    step = env.reset(seed=seed)
    reference = Reference(env)
    reference.check(step)
    finished = 0
    for _ in range(steps):
        chosen = env.sample_legal(rng)
        step = env.step(chosen)
        rewards, ended = reference.step(chosen)
        np.testing.assert_array_equal(step.terminated, ended)
        assert not step.truncated.any()
        np.testing.assert_array_equal(step.rewards, rewards)
        assert (step.rewards[~ended] == 0).all()
        finished += int(ended.sum())
        reference.renew(ended)
        reference.check(step)
    return finished


def test_heads_up_pineapple_equals_the_scalar_game_step_by_step() -> None:
    env = VectorEnv(48, seed=1)
    assert play_against_reference(env, 420, seed=7) >= 2000


@pytest.mark.parametrize("variant,players,fantasyland,steps", [
    ("classic", 3, (0, 0, 0), 440), ("progressive", 3, (0, 16, 0), 170),
    ("deuce", 2, (0, 0), 170), ("classic", 4, (13, 0, 0, 0), 440)])
def test_each_variant_equals_the_scalar_game_over_a_thousand_hands(
        variant: str, players: int, fantasyland: tuple[int, ...], steps: int) -> None:
    rules = ofc.Rules.preset(variant).replace(fantasyland_value=3.0)
    env = VectorEnv(64, rules=rules, players=players, fantasyland=fantasyland, button=1, seed=3)
    assert play_against_reference(env, steps, seed=11) >= 1000


def random_table(rng: np.random.Generator) -> dict:
    """A random mix of every Rules field that changes play or payoffs, a table size, a button
    and Fantasyland seats."""
    variant = str(rng.choice(["pineapple", "classic", "progressive", "deuce"]))
    rules = ofc.Rules.preset(variant)
    changes: dict = {"scoring": str(rng.choice(["1-6", "2-4"])),
                     "royalties_cancel": bool(rng.integers(2)),
                     "scoop_bonus": int(rng.choice([0, 3, 6])),
                     "fantasyland_value": float(rng.choice([0.0, 4.5, -2.0, 10.0]))}
    if rng.random() < 0.4:
        changes["shoot_the_moon"] = int(rng.choice([5, 20]))
    if rng.random() < 0.3:
        changes["naturals"] = (("dragon", 13), ("six pairs", 3), ("three flushes", 3),
                               ("three straights", 3))
    if rng.random() < 0.3:
        changes["stay_cards"] = int(rng.choice([13, 15]))
    if rng.random() < 0.3 and not rules.middle_lowball:
        changes["fantasyland_middle"] = (("trips", 14),)
        changes["super_fantasyland"] = 16
    rules = rules.replace(**changes)
    most = 4 if rules.dealing == "classic" else 3
    players = int(rng.integers(2, most + 1))
    per_hand = 13 if rules.dealing == "classic" else 17
    fantasyland = [0] * players
    for seat in rng.permutation(players)[:players - 1]:
        cards = int(rng.integers(13, 18))
        if rng.random() < 0.4 and sum(n or per_hand for n in fantasyland) - per_hand + cards <= 52:
            fantasyland[seat] = cards
    return {"rules": rules, "players": players, "button": int(rng.integers(players)),
            "fantasyland": tuple(fantasyland)}


@pytest.mark.parametrize("seed", range(24))
def test_random_rules_and_tables_equal_the_scalar_game(seed: int) -> None:
    rng = np.random.default_rng(1000 + seed)
    table = random_table(rng)
    legal = "compact" if seed % 3 == 0 else "dense"
    env = VectorEnv(12, seed=seed, legal=legal, threads=1 + seed % 2, **table)
    assert play_against_reference(env, 60, seed=seed) > 0


def test_the_reference_planes_are_those_of_the_pettingzoo_env() -> None:
    ofc_env = pytest.importorskip("handrank.ofc.env")
    rng = np.random.default_rng(5)
    for players, rules, fantasyland in ((2, "pineapple", None), (3, "deuce", (0, 15, 0)),
                                        (4, "classic", (0, 0, 13, 0))):
        env = ofc_env.OFCEnv(players=players, rules=rules, fantasyland=fantasyland)
        for episode in range(5):
            env.reset(seed=episode)
            for agent in env.agent_iter():
                obs, _, terminated, truncated, _ = env.last()
                if terminated or truncated:
                    env.step(None)
                    continue
                seat = env.possible_agents.index(agent)
                np.testing.assert_array_equal(obs["observation"], planes_of(env.game, seat))
                for other in env.possible_agents:
                    np.testing.assert_array_equal(env.observe(other)["observation"],
                                                  planes_of(env.game, env.possible_agents.index(other)))
                env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))


def assert_steps_equal(a: Step, b: Step) -> None:
    for name in Step.__dataclass_fields__:
        x, y = getattr(a, name), getattr(b, name)
        if x is None or y is None:
            assert x is None and y is None, name
        else:
            assert x.dtype == y.dtype, name
            np.testing.assert_array_equal(x, y, err_msg=name)


@pytest.mark.parametrize("legal", ["dense", "compact"])
def test_the_same_seed_and_actions_give_the_same_arrays_whatever_the_threads(legal: str) -> None:
    envs = [VectorEnv(5000, seed=9, threads=t, legal=legal, players=3) for t in (1, 2, 3)]
    steps = [env.reset() for env in envs]
    for _ in range(40):
        for other in steps[1:]:
            assert_steps_equal(steps[0], other)
        chosen = envs[0].sample_legal(np.random.default_rng(len(steps)))
        for env in envs[1:]:
            np.testing.assert_array_equal(env.sample_legal(np.random.default_rng(len(steps))), chosen)
        steps = [env.step(chosen) for env in envs]


def test_shapes_and_dtypes() -> None:
    env = VectorEnv(3, players=3, seed=0)
    step = env.reset()
    assert step.observation.shape == (3, 14, 52) and step.observation.dtype == np.int8
    assert step.current_player.shape == (3,) and step.current_player.dtype == np.int8
    assert step.legal_mask is not None and step.legal_mask.shape == (3, 1024)
    assert step.legal_mask.dtype == np.bool_
    assert step.legal_indptr is None and step.legal_ids is None
    assert step.rewards.shape == (3, 3) and step.rewards.dtype == np.float32
    assert step.terminated.dtype == np.bool_ and step.truncated.dtype == np.bool_
    compact = VectorEnv(3, players=3, seed=0, legal="compact").reset()
    assert compact.legal_mask is None and compact.legal_indptr is not None and compact.legal_ids is not None
    assert compact.legal_indptr.dtype == np.int64 and compact.legal_ids.dtype == np.int32
    assert compact.legal_indptr.tolist() == [0, 232, 464, 696]
    assert env.num_actions == 1024 and env.observation_shape == (14, 52)


def test_reset_with_a_seed_replays_and_without_one_goes_on() -> None:
    env = VectorEnv(4, seed=2)
    first = env.reset()
    np.testing.assert_array_equal(VectorEnv(4, seed=2).reset().observation, first.observation)
    decks = env.decks
    second = env.reset()
    assert not np.array_equal(env.decks, decks)         # new hands of the same stream
    again = env.reset(seed=2)
    assert not np.array_equal(second.observation, again.observation)
    np.testing.assert_array_equal(env.decks, decks)
    np.testing.assert_array_equal(again.observation, first.observation)


def test_a_finished_hand_is_replaced_in_the_same_step() -> None:
    env = VectorEnv(8, seed=4)
    env.reset()
    rng = np.random.default_rng(0)
    for turn in range(10):                  # heads-up pineapple: 10 turns a hand
        decks = env.decks
        step = env.step(env.sample_legal(rng))
        assert step.terminated.all() == (turn == 9)
    assert (step.rewards.sum(axis=1) == 0).all() and step.rewards.any()
    assert not np.array_equal(env.decks, decks)
    assert (step.observation.reshape(8, -1).sum(axis=1) == 5).all()     # the next hand's 5 cards


def test_sample_legal_is_uniform_over_the_legal_actions() -> None:
    env = VectorEnv(4000, seed=6)
    step = env.reset()                  # every game: 5 cards on an empty board, 232 legal actions
    rng = np.random.default_rng(1)
    counts = np.zeros(1024)
    for _ in range(20):
        chosen = env.sample_legal(rng)
        np.add.at(counts, chosen, 1)
    legal = np.flatnonzero(actions.legal(5, (3, 5, 5), 0))
    assert set(np.flatnonzero(counts)) == set(legal)
    expected = counts.sum() / len(legal)
    chi2 = ((counts[legal] - expected) ** 2 / expected).sum()
    assert chi2 < 340           # 231 degrees of freedom: 340 is five standard deviations out
    for _ in range(12):         # and always legal, on every street
        chosen = env.sample_legal(rng)
        assert step.legal_mask is not None and step.legal_mask[np.arange(4000), chosen].all()
        step = env.step(chosen)
    np.testing.assert_array_equal(env.sample_legal(5), env.sample_legal(np.random.default_rng(5)))


@pytest.mark.parametrize("bad,message", [
    (lambda a: a[:-1], r"shape \(6,\)"),
    (lambda a: np.where(np.arange(6) == 4, 1024, a), "game 4: action 1024 is out of range"),
    (lambda a: np.where(np.arange(6) == 2, -1, a), "game 2: action -1 is out of range"),
    (lambda a: np.where(np.arange(6) == 3, 2 ** 64 - 1, a.astype(np.uint64)), "game 3: action 18446744073709551615"),
    (lambda a: np.where(np.arange(6) == 1, 0, a), "game 1: action 0 is not legal"),
])
def test_bad_actions_are_refused_naming_the_game_and_change_nothing(bad, message: str) -> None:
    env, twin = VectorEnv(6, seed=8), VectorEnv(6, seed=8)
    env.reset(), twin.reset()
    rng = np.random.default_rng(2)
    env.step(env.sample_legal(rng))
    twin.step(twin.sample_legal(np.random.default_rng(2)))
    good = env.sample_legal(3)
    with pytest.raises(ValueError, match=message):
        env.step(bad(good))
    assert_steps_equal(env.step(good), twin.step(good))


@pytest.mark.parametrize("dtype", [np.float64, bool, object])
def test_actions_not_integers_are_a_type_error(dtype: type) -> None:
    env = VectorEnv(3, seed=1)
    env.reset()
    decks = env.decks
    with pytest.raises(TypeError, match="integer array"):
        env.step(env.sample_legal(1).astype(dtype))
    np.testing.assert_array_equal(env.decks, decks)


@pytest.mark.parametrize("n", [2**24 + 1, 10**20])
def test_a_huge_num_envs_is_refused_before_allocating(n: int) -> None:
    with pytest.raises(ValueError, match=r"num_envs must be 1\.\.16,777,216 .*got " + str(n)):
        VectorEnv(n)


def test_construction_errors() -> None:
    with pytest.raises(ValueError, match="num_envs"):
        VectorEnv(0)
    with pytest.raises(TypeError, match="num_envs"):
        VectorEnv(2.0)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="2 to 3 players"):
        VectorEnv(2, players=4)
    with pytest.raises(ValueError, match="legal"):
        VectorEnv(2, legal="sparse")
    with pytest.raises(ValueError, match="every seat in Fantasyland"):
        VectorEnv(2, fantasyland=(14, 14))
    with pytest.raises(ValueError, match="threads"):
        VectorEnv(2, threads=0)
    with pytest.raises(RuntimeError, match="reset"):
        VectorEnv(2).step([0, 0])


def test_game_replays_a_deck() -> None:
    deck = list(range(51, -1, -1))
    game = ofc.Game(deck=deck)
    assert game.dealt == tuple(sorted(deck[:5]))
    with pytest.raises(ValueError, match="not both"):
        ofc.Game(seed=1, deck=deck)
    with pytest.raises(ValueError, match="each of the 52 cards"):
        ofc.Game(deck=deck[:-1])


def test_without_gymnasium_the_core_works_and_the_wrapper_says_what_to_install(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "gymnasium", None)
    monkeypatch.delitem(sys.modules, "handrank._gym_vector", raising=False)
    env = VectorEnv(2, seed=1)
    env.reset()
    env.step(env.sample_legal(0))
    with pytest.raises(ImportError, match=r"pip install 'handrank\[rl\]'"):
        env.to_gymnasium()
    with pytest.raises(ImportError, match=r"pip install 'handrank\[rl\]'"):
        importlib.import_module("handrank._gym_vector")


@pytest.mark.parametrize("legal", ["dense", "compact"])
def test_gymnasium_vector_env(legal: str) -> None:
    gymnasium = pytest.importorskip("gymnasium")
    env = VectorEnv(6, seed=2, players=3, legal=legal)
    gym = env.to_gymnasium(autoreset_mode="SameStep")
    assert isinstance(gym, gymnasium.vector.VectorEnv)
    assert gym.metadata["autoreset_mode"] == gymnasium.vector.AutoresetMode.SAME_STEP
    assert gym.single_action_space == gymnasium.spaces.Discrete(1024)
    twin = VectorEnv(6, seed=2, players=3)          # dense, stepped alongside
    obs, infos = gym.reset(seed=4)
    step = twin.reset(seed=4)
    rng = np.random.default_rng(0)
    ended = 0
    for _ in range(60):
        assert gym.observation_space.contains(obs)
        for i in range(6):
            assert gym.single_observation_space.contains({k: v[i] for k, v in obs.items()})
        np.testing.assert_array_equal(obs["observation"], step.observation)
        np.testing.assert_array_equal(gym.action_masks(), step.legal_mask)
        np.testing.assert_array_equal(infos["current_player"], step.current_player)
        chosen = twin.sample_legal(rng)
        obs, rewards, terminated, truncated, infos = gym.step(chosen)
        step = twin.step(chosen)
        assert rewards.dtype == np.float32 and rewards.shape == (6,)
        np.testing.assert_array_equal(rewards, step.rewards[:, 0])      # seat 0, the default
        np.testing.assert_array_equal(infos["rewards"], step.rewards)
        np.testing.assert_array_equal(terminated, step.terminated)
        assert not truncated.any()
        ended += int(terminated.sum())
    assert ended >= 20
    with pytest.raises(TypeError, match="VectorEnv"):
        type(gym)(object())


def test_the_training_example_beats_random_on_its_quick_budget(tmp_path) -> None:
    """examples/train_ofc.py --quick (the CI budget): the trained player beats the random one by
    well over a point per hand (it reaches 3 to 5 where the untrained one is near 0)."""
    import importlib.util
    from pathlib import Path

    path = Path(__file__).resolve().parents[1] / "examples" / "train_ofc.py"
    spec = importlib.util.spec_from_file_location("train_ofc", path)
    assert spec is not None and spec.loader is not None
    example = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(example)
    plot = tmp_path / "curve.png"
    result = example.main(["--quick"] + (["--plot", str(plot)]
                                         if importlib.util.find_spec("matplotlib") else []))
    assert abs(result["baseline"]) < 0.6                # random against random: about 0
    assert result["final"] > result["baseline"] + 2.0
    assert result["final"] > result["curve"][0][1] + 2.0
    assert len(result["curve"]) == 7
    if importlib.util.find_spec("matplotlib"):
        assert plot.stat().st_size > 0
