"""The opponent adapters (issue 39): `bigtwo.vector.against`, `ofc.vector.against` and the
PettingZoo ones. Each adapter's games are checked against the bare game driven by the same
opponents' moves (the compiled random opponents through a Python twin of their draws)."""
from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from handrank._against import opponent_rng
from handrank.bigtwo import vector as bigtwo_vector
from handrank.ofc import vector as ofc_vector

MASK64 = (1 << 64) - 1


def _rotl(x: int, k: int) -> int:
    return ((x << k) | (x >> (64 - k))) & MASK64


class Xoshiro:
    """A Python twin of the compiled random opponents' stream (xoshiro256**, _random.pxd)."""

    def __init__(self, state: np.ndarray) -> None:
        self.s = [int(v) for v in state]

    def pick(self, legal: np.ndarray) -> int:
        s = self.s
        result = (_rotl((s[1] * 5) & MASK64, 7) * 9) & MASK64
        t = (s[1] << 17) & MASK64
        s[2] ^= s[0]
        s[3] ^= s[1]
        s[1] ^= s[2]
        s[0] ^= s[3]
        s[2] ^= t
        s[3] = _rotl(s[3], 45)
        return int(legal[((result >> 32) * len(legal)) >> 32])


def greedy(legal: np.ndarray) -> int:
    return int(legal[1] if len(legal) > 1 and legal[0] == 0 else legal[0])


def largest(observation, indptr, ids):
    """A batched callable: each game's largest legal id."""
    return ids[indptr[1:] - 1].astype(np.int64)


def _legal(step, game: int = 0) -> np.ndarray:
    if step.legal_mask is not None:
        return np.flatnonzero(step.legal_mask[game])
    return step.legal_ids[step.legal_indptr[game]:step.legal_indptr[game + 1]]


def _same_step(got, want) -> None:
    np.testing.assert_array_equal(got.observation, want.observation)
    np.testing.assert_array_equal(got.rewards, want.rewards)
    np.testing.assert_array_equal(got.terminated, want.terminated)
    np.testing.assert_array_equal(got.truncated, want.truncated)
    np.testing.assert_array_equal(got.current_player, want.current_player)
    for game in range(len(got.current_player)):
        np.testing.assert_array_equal(_legal(got, game), _legal(want, game))


def _bare_until(env, step, seat, choose):
    """Step the bare one-game `env` from `step` with `choose(player, legal)` until `seat` acts:
    the step where it does, with the rewards and ends of every step from `step` on."""
    rewards, ended = step.rewards.copy(), step.terminated.copy()
    while step.current_player[0] != seat:
        step = env.step(np.array([choose(int(step.current_player[0]), _legal(step))]))
        rewards += step.rewards
        ended |= step.terminated
    return replace(step, rewards=rewards, terminated=ended)


@pytest.mark.parametrize("players, seat, opponents, legal", [
    (4, 0, "random", "compact"), (4, 2, "random", "dense"), (3, 1, "greedy", "compact"),
    (2, 1, "random", "compact"), (4, 3, largest, "compact"),
    (4, 1, {0: "random", 2: largest, 3: "greedy"}, "dense")])
def test_bigtwo_vector_equals_bare_game(players, seat, opponents, legal):
    seed = 11
    adapter = bigtwo_vector.against(opponents, 1, seat=seat, seed=seed, players=players, legal=legal)
    bare = bigtwo_vector.VectorEnv(1, seed=seed, players=players, legal=legal)
    twin = Xoshiro(opponent_rng(seed).bit_generator.random_raw((1, 4))[0])
    policy = opponents if isinstance(opponents, dict) else dict.fromkeys(range(players), opponents)

    def choose(player, legal_ids):
        chosen = policy[player]
        if chosen == "random":
            return twin.pick(legal_ids)
        if chosen == "greedy":
            return greedy(legal_ids)
        return int(chosen(None, np.array([0, len(legal_ids)]), legal_ids)[0])

    learner = np.random.default_rng(5)
    got = adapter.reset()
    _same_step(got, _bare_until(bare, bare.reset(), seat, choose))
    ends = 0
    for _ in range(300):
        action = int(learner.choice(_legal(got)))
        got = adapter.step(np.array([action]))
        _same_step(got, _bare_until(bare, bare.step(np.array([action])), seat, choose))
        ends += int(got.terminated[0])
    assert ends >= 3                     # whole games played through


def smallest_play(observation, indptr, ids):
    """A batched callable twin of "greedy", checking that it gets one row per game."""
    assert len(observation) == len(indptr) - 1
    first = ids[indptr[:-1]]
    second = ids[np.minimum(indptr[:-1] + 1, len(ids) - 1)]
    return np.where((first == 0) & (np.diff(indptr) > 1), second, first).astype(np.int64)


@pytest.mark.parametrize("legal", ["compact", "dense"])
def test_bigtwo_callable_batched_over_games(legal):
    """A callable opponent sees every game waiting on its seat at once and plays as the compiled
    policy it copies: the same games, over many games and threads."""
    calls = []

    def counted(observation, indptr, ids):
        calls.append(len(observation))
        return smallest_play(observation, indptr, ids)

    compiled = bigtwo_vector.against("greedy", 64, seat=1, seed=3, legal=legal, threads=2)
    batched = bigtwo_vector.against(counted, 64, seat=1, seed=3, legal=legal, threads=2)
    rng = np.random.default_rng(0)
    _same_step(batched.reset(), compiled.reset())
    for _ in range(60):
        actions = compiled.sample_legal(rng)
        _same_step(batched.step(actions), compiled.step(actions))
    assert max(calls) > 1                   # batched: several games in one call


def test_bigtwo_dense_rows_follow_every_step():
    """The dense adapter's mask buffer, cleared entry by entry between steps (as the env's own
    step does), holds each game's legal set after every kind of step: the compiled opponents'
    moves, a callable's rounds, a next-step end, a failed step that changed nothing and a reset
    of chosen games; compared with a compact twin's legal ids (each Step read at once: its mask
    is the env's buffer)."""
    calls = iter(range(10**6))

    def flaky(observation, indptr, ids):
        if next(calls) == 7:
            raise RuntimeError("the policy failed")
        return largest(observation, indptr, ids)

    dense = bigtwo_vector.against({0: "random", 2: flaky, 3: "greedy"}, 24, seat=1, seed=4,
                                  legal="dense", threads=2)
    compact = bigtwo_vector.against({0: "random", 2: largest, 3: "greedy"}, 24, seat=1, seed=4,
                                    legal="compact")
    _same_step(dense.reset(), compact.reset())
    rng = np.random.default_rng(1)
    failed = ended = 0
    for turn in range(80):
        actions = compact.sample_legal(rng)
        mode = "next_step" if turn % 3 else "same_step"
        try:
            got = dense.step(actions, autoreset=mode)
        except RuntimeError:
            failed += 1
            actions = compact.sample_legal(rng)       # other moves: the failed step's rows are stale
            got = dense.step(actions, autoreset=mode)
        want = compact.step(actions, autoreset=mode)
        _same_step(got, want)
        ended += int(want.terminated.sum())
        if turn == 40:
            chosen = np.arange(24) % 5 == 0
            _same_step(dense.reset(seed=list(range(24)), games=chosen),
                       compact.reset(seed=list(range(24)), games=chosen))
    assert failed == 1 and ended > 0


@pytest.mark.parametrize("players", [2, 3, 4])
def test_bigtwo_seat_and_learner_rewards(players):
    """Every game returned waits on the learner's seat, whichever it is; the Gymnasium wrapper's
    reward is that seat's column of the rewards (every seat's in infos), its ends the games'."""
    pytest.importorskip("gymnasium")
    for seat in range(players):
        adapter = bigtwo_vector.against("random", 16, seat=seat, seed=seat, players=players, legal="compact")
        twin = bigtwo_vector.against("random", 16, seat=seat, seed=seat, players=players, legal="compact")
        gym = twin.to_gymnasium()           # NEXT_STEP: a game that ended waits on the learner
        step = adapter.reset()
        gym.reset()
        rng = np.random.default_rng(seat)
        for _ in range(40):
            assert (step.current_player == seat).all()
            actions = adapter.sample_legal(rng)
            step = adapter.step(actions, autoreset="next_step")
            _, reward, terminated, _, infos = gym.step(actions)
            np.testing.assert_array_equal(reward, step.rewards[:, seat])
            np.testing.assert_array_equal(infos["rewards"], step.rewards)
            np.testing.assert_array_equal(terminated, step.terminated)


@pytest.mark.parametrize("players, rules, seat, opponents, legal", [
    (2, None, 0, "random", "dense"), (2, None, 1, "random", "compact"),
    (3, "pineapple", 2, {0: largest, 1: "random"}, "compact")])
def test_ofc_vector_equals_bare_games(players, rules, seat, opponents, legal):
    """OFC's hands move in step, so the bare env of as many games, driven with the same draws
    from the opponents' stream, is the adapter's twin game for game."""
    n, seed = 8, 21
    adapter = ofc_vector.against(opponents, n, seat=seat, seed=seed, players=players, rules=rules, legal=legal)
    bare = ofc_vector.VectorEnv(n, seed=seed, players=players, rules=rules, legal=legal)
    draws = opponent_rng(seed)
    policy = opponents if isinstance(opponents, dict) else dict.fromkeys(range(players), opponents)

    def until_learner(step):
        rewards, ended = step.rewards.copy(), step.terminated.copy()
        while step.current_player[0] != seat:
            chosen = policy[int(step.current_player[0])]
            if chosen == "random":
                acts = bare.sample_legal(draws)
            else:
                acts = np.array([int(chosen(None, np.array([0, len(_legal(step, g))]), _legal(step, g))[0])
                                 for g in range(n)])
            step = bare.step(acts)
            rewards += step.rewards
            ended |= step.terminated
        return replace(step, rewards=rewards, terminated=ended)

    learner = np.random.default_rng(1)
    got = adapter.reset()
    _same_step(got, until_learner(bare.reset()))
    ends = 0
    for _ in range(30):
        actions = adapter.sample_legal(learner)
        got = adapter.step(actions)
        _same_step(got, until_learner(bare.step(actions)))
        ends += int(got.terminated.sum())
    assert ends >= n


def test_reset_seed_replays():
    """reset(seed) restarts the deals and the opponents' draws: the same games again."""
    adapter = bigtwo_vector.against("random", 8, seat=2, seed=1, legal="compact")
    runs = []
    for _ in range(2):
        steps = [adapter.reset(seed=9)]
        rng = np.random.default_rng(0)
        for _ in range(30):
            steps.append(adapter.step(adapter.sample_legal(rng)))
        runs.append(steps)
    for got, want in zip(*runs):
        _same_step(got, want)


def _copy_step(step):
    """A Step whose arrays are copies (a dense mask is the env's buffer)."""
    return replace(step, **{name: None if value is None else np.array(value)
                            for name, value in vars(step).items() if isinstance(value, np.ndarray)})


@pytest.mark.parametrize("make, options", [
    (bigtwo_vector.against, dict(legal="dense", players=3)),
    (bigtwo_vector.against, dict(legal="compact")),
    (ofc_vector.against, dict(players=3, rules="pineapple"))])
def test_snapshot_restore_replays(make, options):
    """restore(snapshot) puts back every game and the opponents' draws: the same learner actions
    replay the same steps, and a snapshot is a copy (the steps after it leave it as it was)."""
    adapter = make("random", 6, seat=1, seed=5, **options)
    adapter.reset()
    rng = np.random.default_rng(3)
    for _ in range(7):
        adapter.step(adapter.sample_legal(rng))
    saved = adapter.snapshot()
    runs = []
    for _ in range(2):
        actions = np.random.default_rng(4)
        steps = []
        for _ in range(25):
            steps.append(_copy_step(adapter.step(adapter.sample_legal(actions), autoreset="next_step")))
        runs.append(steps)
        adapter.restore(saved)
    for got, want in zip(*runs):
        _same_step(got, want)


def test_bigtwo_restore_chosen_games():
    """restore(snapshot, games=mask) puts back the chosen games and their opponents' streams only:
    each chosen game replays its steps from the snapshot, the others go on from where they are."""
    adapter = bigtwo_vector.against("random", 8, seat=0, seed=2, legal="compact")
    adapter.reset()
    saved = adapter.snapshot()
    rng = np.random.default_rng(1)
    first = [adapter.sample_legal(rng)]
    after = [_copy_step(adapter.step(first[0]))]
    for _ in range(5):
        first.append(adapter.sample_legal(rng))
        after.append(_copy_step(adapter.step(first[-1])))
    chosen = np.arange(8) % 3 == 0
    adapter.restore(saved, games=chosen)
    now = adapter.sample_legal(rng)
    now[chosen] = first[0][chosen]                  # the chosen games' first action again
    step = adapter.step(now)
    np.testing.assert_array_equal(step.observation[chosen], after[0].observation[chosen])
    np.testing.assert_array_equal(step.rewards[chosen], after[0].rewards[chosen])
    for game in np.flatnonzero(chosen):
        np.testing.assert_array_equal(_legal(step, game), _legal(after[0], game))
    assert not np.array_equal(step.observation[~chosen], after[0].observation[~chosen])


@pytest.mark.parametrize("make", [bigtwo_vector.against, ofc_vector.against])
def test_bad_snapshots_change_nothing(make):
    adapter = make("random", 4, seat=1, seed=0)
    adapter.reset()
    other = make("random", 5, seat=1, seed=0)
    other.reset()
    saved = adapter.snapshot()
    before = adapter.render(0)
    with pytest.raises(TypeError, match="snapshot"):
        adapter.restore({"env": saved["env"]})
    with pytest.raises(ValueError, match="another"):
        adapter.restore(other.snapshot())
    broken = dict(saved, opponents={"bit_generator": "nonsense"})
    with pytest.raises((TypeError, ValueError)):
        adapter.restore(broken)
    assert adapter.render(0) == before


def test_ofc_restores_every_hand_at_once():
    adapter = ofc_vector.against("random", 3, seat=0, seed=0)
    adapter.reset()
    with pytest.raises(ValueError, match="every hand at once"):
        adapter.restore(adapter.snapshot(), games=[True, False, True])


def _bad_float(observation, indptr, ids):
    return ids[indptr[:-1]].astype(float)


def _bad_shape(observation, indptr, ids):
    return ids[indptr[:-1]][:-1] if len(indptr) > 2 else ids[:0]


def _bad_illegal(observation, indptr, ids):
    return np.full(len(indptr) - 1, 10**6)


@pytest.mark.parametrize("make", [bigtwo_vector.against, ofc_vector.against])
def test_bad_seats_and_policies(make):
    with pytest.raises(TypeError, match="seat must be an int"):
        make("random", 2, seat="0")
    with pytest.raises(TypeError, match="seat must be an int"):
        make("random", 2, seat=True)
    with pytest.raises(ValueError, match=r"seat must be 0\.\.1"):
        make("random", 2, seat=2, players=2)
    with pytest.raises(ValueError, match=r"seat must be 0\.\.1"):
        make("random", 2, seat=-1, players=2)
    with pytest.raises(ValueError, match="policies by name"):
        make("smart", 2)
    with pytest.raises(TypeError, match="a policy is one of"):
        make(42, 2)
    with pytest.raises(ValueError, match="each seat but the learner's"):
        make({0: "random"}, 2, seat=1, players=3)
    with pytest.raises(ValueError, match="each seat but the learner's"):
        make({0: "random", 1: "random"}, 2, seat=1, players=2)


def test_ofc_has_no_greedy():
    with pytest.raises(ValueError, match="policies by name are \\('random',\\)"):
        ofc_vector.against("greedy", 2)


class Switch:
    """A callable policy whose answers a test changes between steps."""

    def __init__(self) -> None:
        self.policy = largest

    def __call__(self, observation, indptr, ids):
        return self.policy(observation, indptr, ids)


def _saved(adapter):
    saved = adapter.env._core.save()
    return [saved] if isinstance(saved, bytes) else [np.array(part) for part in saved]


@pytest.mark.parametrize("make", [bigtwo_vector.against, ofc_vector.against])
@pytest.mark.parametrize("policy, error, text", [
    (_bad_float, TypeError, "must return integer actions"),
    (_bad_shape, ValueError, "must return \\(\\d,\\) actions"),
    (_bad_illegal, ValueError, "game \\d: seat 1's policy played action 1000000, not legal")])
def test_bad_policy_answer_changes_nothing(make, policy, error, text):
    """A bad answer raises naming the game and the seat, and the games are as before: the same
    step then plays as on an adapter that never saw it."""
    switch = Switch()
    bad = make({1: switch}, 4, seat=0, seed=2, players=2)
    good = make({1: largest}, 4, seat=0, seed=2, players=2)
    _same_step(bad.reset(), good.reset())
    actions = good.sample_legal(np.random.default_rng(0))
    before = _saved(bad)
    switch.policy = policy
    with pytest.raises(error, match=text):
        bad.step(actions)
    for got, want in zip(_saved(bad), before):
        np.testing.assert_array_equal(np.frombuffer(got, np.uint8) if isinstance(got, bytes) else got,
                                      np.frombuffer(want, np.uint8) if isinstance(want, bytes) else want)
    switch.policy = largest
    for _ in range(5):
        _same_step(bad.step(actions), good.step(actions))
        actions = good.sample_legal(np.random.default_rng(0))


@pytest.mark.parametrize("make", [bigtwo_vector.against, ofc_vector.against])
def test_bad_learner_action(make):
    adapter = make("random", 3, seed=0)
    with pytest.raises(RuntimeError, match="reset"):
        adapter.step(np.zeros(3, dtype=np.int64))
    adapter.reset()
    with pytest.raises(TypeError, match="integer array"):
        adapter.step(np.zeros(3))
    with pytest.raises(ValueError, match="game 0"):
        adapter.step(np.full(3, 10**6))
