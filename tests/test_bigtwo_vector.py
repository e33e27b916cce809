"""handrank.bigtwo.vector (issue 32): N compiled Big Two games against the scalar `bigtwo.Game`
behind the PettingZoo environment, step by step, under the default rules, every preset and random
mixes of every rule field that changes play."""
from __future__ import annotations

import os
import random
import zlib
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from handrank import bigtwo
from handrank.bigtwo import Game, Rules
from handrank.bigtwo.rules import (DIRECTIONS, FIVE_CARD_MATCHES, FLUSH_ORDERS, FOUR_OF_A_KIND_MODES,
                                   FOUR_TWOS, LAST_PLAYS, OPENINGS, PASSINGS, STRAIGHT_TABLES, SUIT_TIEBREAKS)
from handrank.bigtwo.vector import OBSERVATION_SIZE, Step, VectorEnv

env_module = pytest.importorskip("handrank.bigtwo.env")


# ----------------------------------------------------------------------------- the scalar twin
class Twin:
    """The PettingZoo environment (raw_env) playing one game dealt by the vector environment:
    its Game is rebuilt from the vector game's hands and stock, its observation state synced."""

    def __init__(self, rules: Rules, players: int) -> None:
        self.env = env_module.raw_env(players, rules)
        self.env.reset(seed=0)
        self.players = players

    def deal(self, hands: list[list[int]], stock: list[int]) -> None:
        env = self.env
        env.reset(seed=0)
        env.game = Game(self.players, env.rules, hands=hands, undealt=stock if env._draws else None)
        env._state = bytearray(env_module._ZERO + 1)
        env._state_array = np.frombuffer(env._state, dtype=np.int8)
        for seat in range(self.players):
            env._sync_hand(seat)
        # a deal the rules decide at once: the vector game is one step, the pass alone, paying this
        self.owed = [float(x) for x in env.game.payments()] if env.game.over else None
        if self.owed is None:
            env.agent_selection = env.possible_agents[env.game.turn]

    def view(self) -> tuple[int, np.ndarray, np.ndarray]:
        agent = self.env.agent_selection
        seen = self.env.observe(agent)
        return self.env.game.turn, seen["observation"], np.flatnonzero(seen["action_mask"])

    def step(self, action: int) -> list[float] | None:
        """Play `action`; the payments when the game ends."""
        if self.owed is not None:
            assert action == 0
            return self.owed
        self.env.step(action)
        if self.env.game.over:
            return [self.env.rewards[agent] for agent in self.env.possible_agents]
        return None


def legal_ids(step: Step, i: int) -> np.ndarray:
    if step.legal_ids is not None:
        assert step.legal_indptr is not None
        return step.legal_ids[step.legal_indptr[i]:step.legal_indptr[i + 1]]
    assert step.legal_mask is not None
    return np.flatnonzero(step.legal_mask[i])


def play_against_twins(rules: Rules, players: int, games: int, seed: int, n: int = 8,
                       legal: str = "compact", threads: int = 1) -> int:
    """Step n vector games and their twins with the same random legal actions until `games`
    games have ended; every step the same player, observation, legal set, rewards and ends.
    Returns the number of steps compared."""
    vec = VectorEnv(n, rules=rules, players=players, seed=seed, legal=legal, threads=threads)
    twins = [Twin(vec.rules, players) for _ in range(n)]
    step = vec.reset()
    assert not step.rewards.any()
    for i, twin in enumerate(twins):
        twin.deal(*vec.hands(i))
    rng = np.random.default_rng(seed)
    ended = steps = 0
    while ended < games:
        for i, twin in enumerate(twins):
            assert vec._core.pending(i) == twin.owed, (i, rules)
            if twin.owed is not None:
                np.testing.assert_array_equal(legal_ids(step, i), [0])
                continue
            turn, obs, legal_set = twin.view()
            assert step.current_player[i] == turn, (i, rules)
            np.testing.assert_array_equal(step.observation[i], obs, err_msg=f"game {i}")
            np.testing.assert_array_equal(legal_ids(step, i), legal_set, err_msg=f"game {i}")
        actions = vec.sample_legal(rng)
        step = vec.step(actions)
        steps += n
        for i, twin in enumerate(twins):
            paid = twin.step(int(actions[i]))
            assert bool(step.terminated[i]) == (paid is not None), (i, rules)
            np.testing.assert_allclose(step.rewards[i], paid if paid is not None else 0.0, err_msg=f"game {i}")
            if paid is not None:
                ended += 1
                twin.deal(*vec.hands(i))
    assert not step.truncated.any()
    return steps


def test_default_rules_equal_the_scalar_game() -> None:
    """The main check: thousands of random games of the default rules, 4 players."""
    play_against_twins(Rules(), 4, games=1500, seed=1, n=16)


@pytest.mark.parametrize("legal", ["dense", "compact"])
@pytest.mark.parametrize("threads", [1, 2])
def test_legal_forms_and_threads_equal_the_scalar_game(legal: str, threads: int) -> None:
    play_against_twins(Rules(), 4, games=120, seed=2, n=12, legal=legal, threads=threads)


@pytest.mark.parametrize("players", [2, 3])
def test_fewer_players_equal_the_scalar_game(players: int) -> None:
    play_against_twins(Rules(), players, games=300, seed=3 + players)


@pytest.mark.parametrize("preset", Rules.presets())
def test_presets_equal_the_scalar_game(preset: str) -> None:
    play_against_twins(Rules.preset(preset), 4, games=150, seed=11)


def random_rules(r: random.Random) -> Rules:
    """A random ruleset over every field that changes one game's play (retried until valid)."""
    while True:
        fields: dict[str, Any] = {
            "suit_order": "".join(r.sample("dchs", 4)),
            "straights": r.choice([k for k in STRAIGHT_TABLES if k != "poker"]),
            "flushes": r.random() < 0.8,
            "flush_order": r.choice(FLUSH_ORDERS),
            "straight_above_flush": r.random() < 0.3,
            "four_of_a_kind": r.choice(FOUR_OF_A_KIND_MODES),
            "three_of_a_kind_hand": r.random() < 0.3,
            "suit_tiebreak": r.choice(SUIT_TIEBREAKS),
            "bombs_beat_small": r.random() < 0.3,
            "four_beats_all": r.random() < 0.3,
            "five_card_match": r.choice(FIVE_CARD_MATCHES),
            "three_card_straights": r.random() < 0.3,
            "passing": r.choice(PASSINGS),
            "draw_on_pass": r.random() < 0.4,
            "last_play": r.choice(LAST_PLAYS),
            "four_twos": r.choice(FOUR_TWOS),
            "dragun": r.random() < 0.3,
            "opening": r.choice(OPENINGS),
            "direction": r.choice(DIRECTIONS),
            "bare_triples": r.random() < 0.8,
            "three_threes_force": r.random() < 0.4,
            "dealt_bomb": r.random() < 0.3,
            "twos_low": r.random() < 0.15,
            "smack_down": r.random() < 0.2,
            "double_held": r.random() < 0.4,
            "double_winning_play": r.random() < 0.4,
            "unplayed_two_multiplier": r.choice([1, 1, 2]),
            "double_at": r.choice([5, 8, 10]),
            "triple_at": r.choice([10, 13]),
            "double_multiplier": r.choice([1, 2]),
            "triple_multiplier": r.choice([1, 3]),
        }
        pairs = r.choice(["none", "two_pair", "two_pair4", "sisters"])
        fields["two_pair"] = pairs in ("two_pair", "two_pair4")
        fields["two_pair_size"] = 4 if pairs == "two_pair4" else 5
        fields["sisters"] = pairs == "sisters"
        if r.random() < 0.1:
            fields.update(poker_order=True, straights="poker", flush_order="ranks",
                          suit_tiebreak=r.choice(["below_five", "none"]))
        if fields["smack_down"]:         # its rules need these off: turn it off half the time instead
            fields.update(four_of_a_kind="with_kicker", two_pair_size=5, dealt_bomb=False, twos_low=False,
                          four_beats_all=False)
            if pairs == "two_pair4":
                fields["two_pair"] = False
        try:
            return Rules(**fields)
        except ValueError:
            continue


@pytest.mark.parametrize("case", range(24))
def test_random_rule_mixes_equal_the_scalar_game(case: int) -> None:
    r = random.Random(1000 + case)
    rules = random_rules(r)
    players = r.choice([2, 3, 4, 4])
    if rules.smack_down and rules.draw_on_pass and players < 4:
        players = 4
    play_against_twins(rules, players, games=40, seed=case)


# Games per variant in the slow comparison below (HANDRANK_TWIN_GAMES: more for a deeper run).
TWIN_GAMES = int(os.environ.get("HANDRANK_TWIN_GAMES", 120))


@pytest.mark.slow
@pytest.mark.parametrize("case", ["preset:" + name for name in Rules.presets()] + [f"mix:{k}" for k in range(8)])
def test_many_games_per_variant_equal_the_scalar_game(case: str) -> None:
    """TWIN_GAMES games of each preset and of eight random rule mixes (2 to 4 players): 120 each
    by default, to keep CI's time; HANDRANK_TWIN_GAMES=1000 runs a thousand per variant."""
    kind, name = case.split(":")
    if kind == "preset":
        rules, players = Rules.preset(name), 4
    else:
        r = random.Random(5000 + int(name))
        rules = random_rules(r)
        players = 4 if rules.smack_down and rules.draw_on_pass else r.choice([2, 3, 4])
    play_against_twins(rules, players, games=TWIN_GAMES, seed=zlib.crc32(case.encode()) % 1000, n=16)


@pytest.mark.parametrize("field,value", [
    ("passing", "out_of_trick"), ("passing", "ends_trick"), ("direction", "anticlockwise"),
    ("opening", "alone"), ("last_play", "no_single_top_card"), ("last_play", "no_top_card"),
    ("last_play", "no_single_two"), ("last_play", "no_single_or_pair_of_twos"),
    ("four_twos", "win"), ("four_twos", "draw"), ("four_twos", "redeal"), ("dragun", True),
    ("three_threes_force", True), ("dealt_bomb", True), ("twos_low", True), ("smack_down", True),
    ("bombs_beat_small", True), ("four_beats_all", True), ("five_card_match", "same_kind"),
    ("five_card_match", "top_card"), ("three_card_straights", True), ("double_held", True),
    ("double_winning_play", True), ("unplayed_two_multiplier", 2), ("bare_triples", False),
])
def test_each_play_rule_equals_the_scalar_game(field: str, value: Any) -> None:
    play_against_twins(Rules().replace(**{field: value}), 4, games=80, seed=7)


@pytest.mark.parametrize("players", [2, 3])
def test_draw_on_pass_equals_the_scalar_game(players: int) -> None:
    rules = Rules(draw_on_pass=True, passing="ends_trick", last_play="no_single_two")
    play_against_twins(rules, players, games=120, seed=5)


# ----------------------------------------------------------------------------- deals decided at once
def hands_with(rng: np.random.Generator, first: list[int], players: int = 4) -> list[list[int]]:
    """A deal whose hand 0 holds `first` (the rest shuffled)."""
    rest = [c for c in rng.permutation(52).tolist() if c not in first]
    hands = [sorted(first + rest[:13 - len(first)])]
    rest = rest[13 - len(first):]
    for p in range(1, players):
        hands.append(sorted(rest[(p - 1) * 13:p * 13]))
    return hands


@pytest.mark.parametrize("rules", [Rules(four_twos="win"), Rules(four_twos="draw"),
                                   Rules(dragun=True), Rules(dragun=True, double_held=True, unplayed_two_multiplier=2),
                                   Rules(four_twos="win", double_held=True, triple_at=11, double_at=9)])
def test_deals_decided_at_once_pay_as_the_scalar_game(rules: Rules) -> None:
    vec = VectorEnv(1, rules=rules)
    rng = np.random.default_rng(4)
    decided = 0
    for trial in range(300):
        if trial % 3 == 0:
            first = [0, 1, 2, 3]
        elif trial % 3 == 1:      # a dragun: six pairs and a single (threes paired on odd trials)
            ranks = rng.permutation(13)[:7].tolist()
            if trial % 2 and 1 not in ranks[:6]:
                ranks[0] = 1 if 1 not in ranks else ranks[0]
                ranks = [1] + [r for r in ranks if r != 1][:6]
            first = [4 * r + s for r in ranks[:6] for s in (0, 1)] + [4 * ranks[6] + 2]
        else:
            first = []
        hands = hands_with(rng, first)
        game = Game(4, rules, hands=hands)
        expected = game.payments() if game.over else None
        got = vec._core.settle(hands)
        if expected is None:
            assert got is None
        else:
            assert got == [float(x) for x in expected]
            decided += 1
    assert decided >= 90          # the four 2s, or the draguns, decide a third of the trials


# ----------------------------------------------------------------------------- invariants
@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32), players=st.sampled_from([2, 3, 4]), draw=st.booleans(),
       steps=st.integers(1, 120))
def test_invariants_hold_whatever_the_play(seed: int, players: int, draw: bool, steps: int) -> None:
    """Whatever the seed and the random play: every card is in one hand, the stock or played; the
    legal ids are distinct, ascending, in range, and each plays cards the player to act holds; a
    game's rewards sum to zero and appear only where it ended."""
    rules = Rules(draw_on_pass=draw)
    vec = VectorEnv(5, rules=rules, players=players, seed=seed, legal="compact")
    step = vec.reset()
    space = vec.space
    for k in range(steps):
        for i in range(5):
            hands, stock = vec.hands(i)
            played = np.flatnonzero(step.observation[i, 104:156]).tolist()
            cards = sorted([c for h in hands for c in h] + stock + played)
            assert len(cards) == len(set(cards))
            if players == 4:
                assert cards == list(range(52))
            ids = legal_ids(step, i)
            assert len(ids) > 0 and (np.diff(ids) > 0).all() and ids[-1] < vec.num_actions
            hand = set(hands[int(step.current_player[i])])
            assert all(set(space.cards(int(a))) <= hand for a in ids)
            assert step.observation[i, 156] == len(hand)
        step = vec.step(vec.sample_legal(seed + k))
        np.testing.assert_allclose(step.rewards.sum(axis=1), 0, atol=1e-4)
        assert not step.rewards[~step.terminated].any()


# ----------------------------------------------------------------------------- the API
def test_shapes_dtypes_and_reproducibility() -> None:
    for legal in ("dense", "compact"):
        vec = VectorEnv(5, seed=3, legal=legal)
        first = vec.reset()
        assert first.observation.shape == (5, OBSERVATION_SIZE) and first.observation.dtype == np.int8
        assert first.current_player.dtype == np.int8
        assert first.rewards.shape == (5, 4) and first.rewards.dtype == np.float32
        assert first.terminated.dtype == bool and first.truncated.dtype == bool
        if legal == "dense":
            assert first.legal_mask is not None and first.legal_mask.shape == (5, vec.num_actions)
            assert first.legal_ids is None and first.legal_indptr is None
        else:
            assert first.legal_mask is None
            assert first.legal_indptr is not None and first.legal_indptr.dtype == np.int64
            assert first.legal_ids is not None and first.legal_ids.dtype == np.int32
    runs = []
    for threads in (1, 2, 3):
        vec = VectorEnv(700, seed=9, threads=threads, legal="compact")
        step = vec.reset()
        trace = []
        for k in range(60):
            step = vec.step(vec.sample_legal(k))
            trace.append((step.observation.copy(), step.legal_ids.copy(), step.rewards.copy()))
        runs.append(trace)
    for other in runs[1:]:
        for a, b in zip(runs[0], other):
            for x, y in zip(a, b):
                np.testing.assert_array_equal(x, y)


def test_reset_seeds() -> None:
    a, b = VectorEnv(6, seed=1), VectorEnv(6)
    np.testing.assert_array_equal(a.reset().observation, b.reset(seed=1).observation)
    again = a.reset()          # a new deal from the stream
    assert not np.array_equal(again.observation, b.reset(seed=1).observation)
    np.testing.assert_array_equal(VectorEnv(6, seed=2).reset(seed=1).observation, b.reset(seed=1).observation)


def test_deals_are_uniform_enough() -> None:
    """Every card lands in every seat about equally often, and hands never share a card."""
    vec = VectorEnv(2000, seed=5, legal="compact")
    vec.reset()
    counts = np.zeros((4, 52))
    for i in range(2000):
        hands, stock = vec.hands(i)
        assert sorted(c for h in hands for c in h) == list(range(52)) and stock == []
        for p, hand in enumerate(hands):
            counts[p, hand] += 1
    assert abs(counts - 500).max() < 5 * np.sqrt(500 * 0.75)


def test_sample_legal_is_legal_and_uniform() -> None:
    vec = VectorEnv(3, seed=1, legal="compact")
    step = vec.reset()
    rng = np.random.default_rng(0)
    seen = [dict.fromkeys(legal_ids(step, i).tolist(), 0) for i in range(3)]
    for _ in range(4000):
        for i, action in enumerate(vec.sample_legal(rng).tolist()):
            seen[i][action] += 1
    for tally in seen:
        expected = 4000 / len(tally)
        assert all(abs(v - expected) < 6 * np.sqrt(expected) for v in tally.values())
    a = vec.sample_legal(np.random.default_rng(5))
    np.testing.assert_array_equal(a, vec.sample_legal(5))


def snapshot(vec: VectorEnv) -> list[Any]:
    return [vec.hands(i) for i in range(vec.num_envs)]


@pytest.mark.parametrize("bad,error,text", [
    (np.zeros(4, dtype=np.int64), ValueError, "shape"),
    (np.zeros((3, 1), dtype=np.int64), ValueError, "shape"),
    (np.zeros(3, dtype=np.float64), TypeError, "integer"),
    (np.zeros(3, dtype=bool), TypeError, "integer"),
    ("abc", TypeError, "integer"),
])
def test_bad_action_arrays_are_refused(bad: Any, error: type, text: str) -> None:
    vec = VectorEnv(3, seed=1)
    vec.reset()
    before = snapshot(vec)
    with pytest.raises(error, match=text):
        vec.step(bad)
    assert snapshot(vec) == before


def test_bad_actions_name_the_game_and_change_nothing() -> None:
    vec = VectorEnv(3, seed=1, legal="compact")
    step = vec.reset()
    good = vec.sample_legal(0)
    before = snapshot(vec)
    for value in (-1, vec.num_actions):
        actions = good.copy()
        actions[1] = value
        with pytest.raises(ValueError, match="game 1: action .* outside"):
            vec.step(actions)
    illegal = next(a for a in range(1, vec.num_actions) if a not in set(legal_ids(step, 2).tolist()))
    actions = good.copy()
    actions[2] = illegal
    with pytest.raises(ValueError, match=f"game 2: action {illegal} is not legal"):
        vec.step(actions)
    assert snapshot(vec) == before
    vec.step(good)                       # still playable, with the same actions
    with pytest.raises(RuntimeError, match="reset"):
        VectorEnv(2).step(np.zeros(2, dtype=np.int64))


def test_the_message_names_the_player_of_the_bad_game_whatever_the_caller_did_to_its_arrays() -> None:
    vec = VectorEnv(3, seed=1)
    step = vec.reset()
    player = int(step.current_player[1])
    step.current_player[:] = 9                      # the caller's array: not the env's record
    actions = vec.sample_legal(0)
    actions[1] = next(a for a in range(vec.num_actions) if a not in set(np.flatnonzero(step.legal_mask[1])))
    with pytest.raises(ValueError, match=rf"^game 1: action {actions[1]} is not legal for player {player} now"):
        vec.step(actions)


@pytest.mark.parametrize("n", [2**24 + 1, 10**20])
def test_a_huge_num_envs_is_refused_before_allocating(n: int) -> None:
    with pytest.raises(ValueError, match=r"num_envs must be 1\.\.16,777,216 .*got " + str(n)):
        VectorEnv(n)


def test_bad_arguments() -> None:
    with pytest.raises(ValueError, match="num_envs"):
        VectorEnv(0)
    with pytest.raises(TypeError, match="num_envs"):
        VectorEnv(2.0)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="players"):
        VectorEnv(2, players=5)
    with pytest.raises(ValueError, match="legal"):
        VectorEnv(2, legal="sparse")
    with pytest.raises(ValueError, match="threads"):
        VectorEnv(2, threads=0)
    for field in ("long_straights", "dragon"):
        with pytest.raises(ValueError, match=f"Rules.{field}"):
            VectorEnv(2, rules=Rules(**{field: True}), players=3 if field == "dragon" else 4)
    with pytest.raises(ValueError, match="smack_down"):
        VectorEnv(2, players=2, rules=Rules(smack_down=True, draw_on_pass=True))
    with pytest.raises(ValueError, match="game must be"):
        VectorEnv(2).hands(2)
    with pytest.raises(ValueError, match="seed"):
        VectorEnv(2, seed=-1)
    with pytest.raises(TypeError, match="seed"):
        VectorEnv(2).reset(seed=True)  # type: ignore[arg-type]


def test_action_ids_are_the_combo_space() -> None:
    vec = VectorEnv(4, seed=8, legal="compact")
    step = vec.reset()
    space = bigtwo.ComboSpace()
    for _ in range(30):
        for i in range(4):
            hands, _ = vec.hands(i)
            hand = hands[int(step.current_player[i])]
            for action in legal_ids(step, i).tolist():
                assert set(space.cards(action)) <= set(hand)
        step = vec.step(vec.sample_legal(1))


# ----------------------------------------------------------------------------- gymnasium
def test_gymnasium_vector_api() -> None:
    gymnasium = pytest.importorskip("gymnasium")
    from gymnasium.vector import AutoresetMode
    from gymnasium.wrappers.vector import RecordEpisodeStatistics
    for legal in ("dense", "compact"):
        env = VectorEnv(6, seed=3, legal=legal).to_gymnasium(autoreset_mode=AutoresetMode.SAME_STEP)
        assert isinstance(env, gymnasium.vector.VectorEnv)
        assert env.metadata["autoreset_mode"] is AutoresetMode.SAME_STEP
        assert env.single_action_space.n == bigtwo.ComboSpace().size
        wrapped = RecordEpisodeStatistics(env)
        obs, infos = wrapped.reset(seed=4)
        assert env.observation_space.contains(obs)
        twin = VectorEnv(6, seed=4, legal="compact")
        step = twin.reset()
        finished = 0
        for k in range(150):
            actions = twin.sample_legal(k)
            mask = env.action_masks()
            assert mask.dtype == np.bool_
            if legal == "dense":
                np.testing.assert_array_equal(obs["action_mask"], mask)
            for i in range(6):
                np.testing.assert_array_equal(np.flatnonzero(mask[i]), legal_ids(step, i))
            obs, rewards, terminated, truncated, infos = wrapped.step(actions)
            step = twin.step(actions)
            assert env.observation_space.contains(obs)
            np.testing.assert_array_equal(rewards, step.rewards[:, 0])      # seat 0, the default
            np.testing.assert_array_equal(terminated, step.terminated)
            np.testing.assert_array_equal(infos["rewards"], step.rewards)
            finished += int(terminated.sum())
            if terminated.any():        # gymnasium's wrapper saw the ends, with their lengths
                assert infos["_episode"].tolist() == terminated.tolist()
                assert (infos["episode"]["l"][terminated] > 0).all()
        assert finished > 0


# ----------------------------------------------------------------------------- the training example
def test_training_example_beats_random_players(tmp_path: Any) -> None:
    """examples/train_bigtwo.py --quick (CI's budget): the trained policy, seat-rotated against 3
    random players, wins far more than the 25% a random player wins in its seats (it reaches
    about 70%), and scores points where a random player breaks even."""
    import importlib.util
    import pathlib
    path = pathlib.Path(__file__).resolve().parent.parent / "examples" / "train_bigtwo.py"
    spec = importlib.util.spec_from_file_location("train_bigtwo", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    args = ["--quick", "--eval-games", "2000"]
    if importlib.util.find_spec("matplotlib") is not None:
        args += ["--plot", str(tmp_path / "curve.png")]
    result = module.main(args)
    assert result["learner"]["games"] == result["random"]["games"] == 2000
    assert 0.20 < result["random"]["win_rate"] < 0.30
    assert result["learner"]["win_rate"] > 0.45
    assert result["learner"]["points_per_game"] > result["random"]["points_per_game"] + 4
    assert len(result["curve"]) >= 10
    if "--plot" in args:
        assert (tmp_path / "curve.png").stat().st_size > 1000


@pytest.mark.skipif(not hasattr(__import__("os"), "fork"), reason="the platform has no fork")
def test_threads_work_in_a_forked_child() -> None:
    """The pool is handrank._batch's: a child forked after it started gets its own, and its
    threaded steps finish with the parent's results."""
    import os
    import signal
    import time
    vec = VectorEnv(600, seed=2, threads=2, legal="compact")
    vec.reset()
    expected = [vec.step(vec.sample_legal(k)).legal_ids.copy() for k in range(5)]
    pid = os.fork()
    if pid == 0:                                    # the child: exit 0 when it agrees
        code = 1
        try:
            again = VectorEnv(600, seed=2, threads=2, legal="compact")
            again.reset()
            got = [again.step(again.sample_legal(k)).legal_ids for k in range(5)]
            code = 0 if all(np.array_equal(a, b) for a, b in zip(got, expected)) else 1
        finally:
            os._exit(code)
    end = time.monotonic() + 60
    while time.monotonic() < end:
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            assert os.waitstatus_to_exitcode(status) == 0
            return
        time.sleep(0.05)
    os.kill(pid, signal.SIGKILL)
    os.waitpid(pid, 0)
    pytest.fail("the forked child's threaded steps did not finish")


def test_compiled_core_checks_its_calls() -> None:
    """The compiled core's methods refuse wrong ranges and arrays (a ValueError, never a write
    outside an array): vector.py calls them right, a caller of the private module may not."""
    from handrank.bigtwo import _vector
    bare = _vector.Core.__new__(_vector.Core)
    with pytest.raises(ValueError, match="outside"):
        bare.hands(0)
    vec = VectorEnv(3, seed=1, legal="compact")
    vec.reset()
    core = vec._core
    with pytest.raises(ValueError, match="rows"):
        core.sample(np.zeros(2, np.uint32), np.zeros(2, np.int64))
    with pytest.raises(ValueError, match="game 0: legal-list index 99"):
        core.step(0, 3, np.full(3, 99, np.int32), np.zeros((3, 4), np.float32), np.zeros(3, np.uint8),
                  np.zeros((3, 164), np.int8), np.zeros(3, np.int8), np.zeros(3, np.int64), None)
    with pytest.raises(ValueError, match="164 columns"):
        core.write(0, 3, np.zeros((3, 100), np.int8), np.zeros(3, np.int8), np.zeros(3, np.int64))
    with pytest.raises(ValueError, match="outside"):
        core.write(2, 4, np.zeros((3, 164), np.int8), np.zeros(3, np.int8), np.zeros(3, np.int64))
    with pytest.raises(RuntimeError, match="once"):
        core.__init__(3, {}, None, None, np.zeros(1, np.uint64), np.zeros(13, np.int64),
                      np.zeros((2, 52), np.uint8), np.zeros((2, 52), np.int32))
