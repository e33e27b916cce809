"""handrank.iso against independent oracles: a brute-force canonical form (the least, over the 24
suit permutations, of the hand's rounds as card sets), class counts by Burnside's lemma, and full
enumeration of the small structures."""
from __future__ import annotations

import itertools
import math
import time

import numpy as np
import pytest

from handrank import _iso, iso
from handrank.cards import random_hands

# Both sets of loops: with pext, pdep and popcnt (where this CPU has fast ones), and portable.
INDEX_LOOPS = ["pext", "portable"]


@pytest.fixture(autouse=True, params=INDEX_LOOPS)
def index_loop(request: pytest.FixtureRequest) -> object:
    """Every test runs with each set of loops this CPU can run (the other is skipped)."""
    if request.param == "pext" and not _iso.has_fast_pext():
        pytest.skip("this CPU has no fast pext")
    before = _iso.kernel_name()
    _iso.set_kernel(request.param)
    yield request.param
    _iso.set_kernel(before)

PERMUTATIONS = np.array([[4 * (c >> 2) + p[c & 3] for c in range(52)]
                         for p in itertools.permutations(range(4))], dtype=np.int64)


def brute_keys(rows: np.ndarray, cards_per_round: list[int]) -> np.ndarray:
    """Each hand's canonical form: the lexicographically least tuple of per-round card masks over
    the 24 suit permutations, as an (N, rounds) uint64 array."""
    ends = list(itertools.accumulate(cards_per_round))
    rows = rows[:, :ends[-1]].astype(np.int64)
    best = None
    for perm in PERMUTATIONS:
        bits = np.left_shift(np.uint64(1), perm[rows].astype(np.uint64))
        masks = np.stack([np.bitwise_or.reduce(bits[:, a:b], axis=1)
                          for a, b in zip([0, *ends[:-1]], ends)], axis=1)
        if best is None:
            best = masks
            continue
        less = np.zeros(len(rows), dtype=bool)
        equal = np.ones(len(rows), dtype=bool)
        for r in range(len(ends)):
            less |= equal & (masks[:, r] < best[:, r])
            equal &= masks[:, r] == best[:, r]
        best[less] = masks[less]
    assert best is not None
    return best


def same_partition(a: np.ndarray, b: np.ndarray) -> bool:
    """a[i] == a[j] exactly where b[i] == b[j] (a: indices, b: rows of keys)."""
    _, a_ids = np.unique(a, return_inverse=True)
    _, b_ids = np.unique(b, axis=0, return_inverse=True)
    pairs = np.unique(np.stack([a_ids.ravel(), b_ids.ravel()], axis=1), axis=0)
    return len(pairs) == a_ids.max() + 1 == b_ids.max() + 1


def burnside(cards_per_round: list[int]) -> int:
    """The number of classes by Burnside's lemma: the mean over the 24 suit permutations of the
    hands each fixes. A fixed hand deals every card cycle (for each rank, one cycle per cycle of
    the permutation) whole to one round or to none: a product of generating functions."""
    total = 0
    shape = tuple(n + 1 for n in cards_per_round)
    for perm in itertools.permutations(range(4)):
        cycles, seen = [], set()
        for s in range(4):
            if s not in seen:
                length, t = 0, s
                while t not in seen:
                    seen.add(t)
                    t = perm[t]
                    length += 1
                cycles.append(length)
        ways = np.zeros(shape, dtype=object)
        ways[(0,) * len(shape)] = 1
        for length in cycles * 13:
            grown = ways.copy()
            for r in range(len(shape)):
                if length < shape[r]:
                    moved = np.zeros(shape, dtype=object)
                    src = [slice(None)] * len(shape)
                    dst = [slice(None)] * len(shape)
                    src[r] = slice(0, shape[r] - length)
                    dst[r] = slice(length, shape[r])
                    moved[tuple(dst)] = ways[tuple(src)]
                    grown = grown + moved
            ways = grown
        total += ways[tuple(n for n in cards_per_round)]
    assert total % 24 == 0
    return total // 24


@pytest.mark.parametrize("structure", [[2, 3, 1, 1], [4, 3, 1, 1], [2, 4], [2, 5], [4, 5], [13],
                                       [1, 1, 1], [3, 2], [6, 3]])
def test_sizes_match_burnside(structure: list[int]) -> None:
    ix = iso.Indexer(structure)
    assert [ix.size(r) for r in range(len(structure))] == [
        burnside(structure[:r + 1]) for r in range(len(structure))]


def test_sizes_of_the_reference_indexer() -> None:
    # The sizes Waugh's indexer gives (its README), for the structures it holds.
    assert [iso.Indexer([2, 3, 1, 1]).size(r) for r in range(4)] == [169, 1286792, 55190538, 2428287420]
    assert iso.Indexer([2, 5]).size() == 123156254
    assert iso.Indexer([13]).size() == 26607292908


def all_hands(structure: list[int]) -> np.ndarray:
    """Every hand of the structure (cards in round order, each round in increasing order)."""
    rows: list[tuple[int, ...]] = [()]
    for n in structure:
        rows = [row + extra for row in rows
                for extra in itertools.combinations([c for c in range(52) if c not in row], n)]
    return np.array(rows, dtype=np.uint8)


@pytest.mark.parametrize("structure", [[2], [3], [1, 1], [2, 1], [1, 1, 1]])
def test_every_hand_of_a_small_structure(structure: list[int]) -> None:
    ix = iso.Indexer(structure)
    hands = all_hands(structure)
    indices = ix.index_batch(hands)
    assert np.array_equal(np.unique(indices), np.arange(ix.size(), dtype=np.uint64))
    assert same_partition(indices, brute_keys(hands, structure))
    canon = ix.unindex_batch(len(structure) - 1, np.arange(ix.size()))
    assert np.array_equal(ix.index_batch(canon), np.arange(ix.size(), dtype=np.uint64))


# The structures the index loop has constant-size copies for, and others (one-card rounds in the
# middle or at the end, the hash table of configurations for many shapes).
@pytest.mark.parametrize("structure", [[2, 3, 1, 1], [4, 3, 1, 1], [2, 5], [4, 5], [6, 3], [13],
                                       [1, 1, 1, 1, 1, 1, 1, 1], [5, 5, 3], [2, 4], [2, 3], [4, 3],
                                       [5, 3], [2, 3, 1], [2, 1, 3], [3, 1, 1, 2], [12], [4, 4, 1, 1]])
def test_random_hands_group_as_the_brute_force_form(structure: list[int]) -> None:
    ix = iso.Indexer(structure)
    hands = random_hands(20000, sum(structure), seed=sum(structure) * 7 + len(structure))
    # a hand in every class of a few: each with its suits permuted and its rounds reordered
    rng = np.random.default_rng(1)
    copies = PERMUTATIONS[rng.integers(0, 24, len(hands))][np.arange(len(hands))[:, None], hands]
    ends = list(itertools.accumulate(structure))
    for a, b in zip([0, *ends[:-1]], ends):
        copies[:, a:b] = rng.permuted(copies[:, a:b], axis=1)
    hands = np.concatenate([hands, copies.astype(np.uint8)])
    for r in range(len(structure)):
        rows = np.ascontiguousarray(hands[:, :ends[r]])
        indices = ix.index_batch(rows)
        assert np.array_equal(indices, ix.index_batch(hands, r))
        assert indices.max() < ix.size(r)
        assert same_partition(indices, brute_keys(rows, structure[:r + 1]))
        canon = ix.unindex_batch(r, indices)
        assert np.array_equal(brute_keys(canon, structure[:r + 1]), brute_keys(rows, structure[:r + 1]))


@pytest.mark.parametrize("structure", [[2, 3, 1, 1], [4, 3, 1, 1], [4, 5], [13], [6, 3]])
def test_unindex_round_trips_over_the_whole_range(structure: list[int]) -> None:
    ix = iso.Indexer(structure)
    rng = np.random.default_rng(5)
    for r in range(len(structure)):
        size = ix.size(r)
        indices = np.unique(np.concatenate([
            rng.integers(0, size, 5000, dtype=np.uint64, endpoint=False),
            np.array([0, 1, size - 2, size - 1], dtype=np.uint64)]))
        canon = ix.unindex_batch(r, indices)
        assert canon.shape == (len(indices), sum(structure[:r + 1]))
        assert all(len(set(row)) == canon.shape[1] for row in canon.tolist())
        assert np.array_equal(ix.index_batch(canon), indices)


def test_scalar_calls_agree_with_the_batch() -> None:
    ix = iso.Indexer([2, 3, 1, 1])
    assert ix.index("As Ks") == ix.index("Ah Kh") == ix.index(["Kd", "Ad"])
    assert ix.index("As Kd") != ix.index("As Ks")
    hand = "As Kd Qh Jh 2c 3s 4d"
    assert ix.index(hand) == int(ix.index_batch([hand])[0])
    assert ix.index(hand, round=1) == ix.index("As Kd Qh Jh 2c")
    canon = ix.canonical(hand)
    assert ix.index(canon) == ix.index(hand) and canon == ix.unindex(3, ix.index(hand))
    assert iso.canonical("Ah Kh") == iso.canonical("Kc Ac") == iso.canonical("As Ks")
    assert iso.canonical("As Kd 2c", [2, 1]) == iso.Indexer([2, 1]).canonical("Ac Kh 2d")
    assert iso.canonical("As Kd 2c", [2, 1]) != iso.canonical("As 2c Kd", [2, 1])


@pytest.mark.parametrize("structure", [[2, 3, 1, 1], [4, 3, 1, 1], [2, 5], [2, 4], [4, 3], [4, 5], [5, 3],
                                       [6, 3], [13], [2, 1, 3], [3, 2, 1, 1, 1], [1] * 8, [13, 9]])
def test_the_two_sets_of_loops_agree(structure: list[int], index_loop: str) -> None:
    # The same indices, canonical hands and first bad row from the pext loops and the portable
    # ones (on a CPU without fast pext only the portable ones run).
    ix = iso.Indexer(structure)
    hands = random_hands(30000, sum(structure), seed=len(structure) * 11 + sum(structure))
    expected = ix.index_batch(hands)
    canon = ix.unindex_batch(len(structure) - 1, expected)
    for loop in ("pext", "portable") if _iso.has_fast_pext() else ("portable",):
        _iso.set_kernel(loop)
        assert np.array_equal(ix.index_batch(hands), expected)
        assert np.array_equal(ix.unindex_batch(len(structure) - 1, expected), canon)
        for r in range(len(structure)):
            assert np.array_equal(ix.index_batch(hands, r), ix.index_batch(np.ascontiguousarray(
                hands[:, :sum(structure[:r + 1])])))
        bad = hands.copy()
        bad[777, -1] = bad[777, 0]
        bad[900, 0] = 60
        with pytest.raises(ValueError, match="row 777"):
            ix.index_batch(bad)
        with pytest.raises(ValueError, match="row 777"):
            ix.index_batch(bad, 0)      # a repeat past the indexed round
        _iso.set_kernel(index_loop)


def test_choosing_an_index_loop() -> None:
    assert _iso.kernel_name() in INDEX_LOOPS
    with pytest.raises(ValueError, match="no 'avx' index loop"):
        _iso.set_kernel("avx")
    if not _iso.has_fast_pext():
        with pytest.raises(ValueError, match="no 'pext' index loop"):
            _iso.set_kernel("pext")


def test_threads_give_the_same_indices() -> None:
    ix = iso.Indexer([2, 5])
    hands = random_hands(150000, 7, seed=3)
    assert np.array_equal(ix.index_batch(hands, threads=1), ix.index_batch(hands, threads=2))


def test_bad_rows_are_named() -> None:
    ix = iso.Indexer([2, 3])
    hands = random_hands(10, 5, seed=1)
    repeat = hands.copy()
    repeat[6, 4] = repeat[6, 0]
    with pytest.raises(ValueError, match="row 6"):
        ix.index_batch(repeat)
    wide = hands.astype(np.int64)
    wide[4, 2] = 52
    with pytest.raises(ValueError, match="row 4.*52"):
        ix.index_batch(wide)
    ids = hands.copy()
    ids[3, 1] = 200
    with pytest.raises(ValueError, match="row 3"):
        ix.index_batch(ids)
    with pytest.raises(ValueError, match=r"shape \(N, 2 or 5\)"):
        ix.index_batch(hands[:, :4].copy())
    with pytest.raises(ValueError, match="round 1 needs 5 cards"):
        ix.index_batch(hands[:, :2].copy(), 1)
    with pytest.raises(TypeError):
        ix.index_batch(hands.astype(float))
    # the cards past the indexed round are checked too
    later = hands.copy()
    later[8, 3] = later[8, 0]
    with pytest.raises(ValueError, match="row 8"):
        ix.index_batch(later, 0)
    assert np.array_equal(ix.index_batch(hands, 0), ix.index_batch(hands[:, :2].copy()))
    with pytest.raises(ValueError, match="As"):
        ix.index("As As Kd 2c 3c")


def first_bad_row(rows: np.ndarray) -> int:
    """The oracle: the first row with an id over 51 or a repeated card, or -1."""
    sorted_rows = np.sort(rows.astype(np.int64), axis=1)
    bad = (sorted_rows[:, -1] > 51) | (np.diff(sorted_rows, axis=1) == 0).any(axis=1)
    return int(np.flatnonzero(bad)[0]) if bad.any() else -1


# Every copy of the index loop (constant round ends, one-card rounds, the generic copies) and
# rows of 16 cards and more, where a sum of the card bits would wrap round.
@pytest.mark.parametrize("structure", [[2, 5], [4, 3], [6, 3], [13], [2, 3, 1, 1], [4, 3, 1, 1],
                                       [3, 2, 1, 1, 1], [1] * 8, [13, 9], [5, 5, 3]])
def test_bad_rows_are_found_as_the_oracle_finds_them(structure: list[int], index_loop: str) -> None:
    # Each kind of bad card (a repeat in its own round, from an earlier round, in a later round
    # than the indexed one; an id over 51, one or two of them) in random rows: the error names the
    # first bad row, whichever loop runs, and the good rows before it index as alone.
    ix = iso.Indexer(structure)
    k = sum(structure)
    rng = np.random.default_rng(k * 31 + len(structure))
    good = random_hands(400, k, seed=rng)
    expected = ix.index_batch(good)
    for trial in range(60):
        rows = good.copy()
        for row in rng.choice(len(rows), 3, replace=False):
            a, b = rng.choice(k, 2, replace=False)
            kind = trial % 3
            if kind == 0:
                rows[row, a] = rows[row, b]                         # a repeat, anywhere
            elif kind == 1:
                rows[row, a] = rng.integers(52, 256)                # an id over 51
            else:
                rows[row, [a, b]] = rng.integers(52, 256, 2)        # two of them, maybe equal
        first = first_bad_row(rows)
        with pytest.raises(ValueError, match=f"row {first}"):
            ix.index_batch(rows)
        assert np.array_equal(ix.index_batch(np.ascontiguousarray(rows[:first])), expected[:first])
        for r in range(len(structure) - 1):
            # indexing an earlier round still checks every card of the row
            with pytest.raises(ValueError, match=f"row {first}"):
                ix.index_batch(rows, r)


@pytest.mark.parametrize("card", [0, 51, 52, 255])
def test_rows_of_one_card_repeated_are_refused(card: int, index_loop: str) -> None:
    # Up to 22 copies of one card: more copies of the top card's bit than a 64-bit sum holds.
    for structure in ([13, 9], [2, 5], [13], [1] * 8):
        rows = random_hands(50, sum(structure), seed=card)
        rows[17] = card
        with pytest.raises(ValueError, match="row 17"):
            iso.Indexer(structure).index_batch(rows)


def test_bad_indices_are_named() -> None:
    ix = iso.Indexer([2, 3])
    with pytest.raises(ValueError, match="row 2: index 169 is out of range 0..168"):
        ix.unindex_batch(0, [0, 5, 169])
    with pytest.raises(ValueError, match="row 1: index -1"):
        ix.unindex_batch(0, [0, -1])
    with pytest.raises(ValueError, match="out of range"):
        ix.unindex(1, ix.size(1))
    with pytest.raises(ValueError, match="round must be in 0..1"):
        ix.unindex_batch(2, [0])
    with pytest.raises(TypeError):
        ix.unindex_batch(0, [0.5])
    with pytest.raises(TypeError):
        ix.unindex(0, "3")


@pytest.mark.parametrize("structure, error", [([], ValueError), ([1] * 9, ValueError), ([0, 2], ValueError),
                                              ([40, 13], ValueError), ([13, 13, 13, 13], ValueError),
                                              ("2,3", TypeError), ([2.0], TypeError), (5, TypeError)])
def test_bad_structures(structure: object, error: type[Exception]) -> None:
    with pytest.raises(error):
        iso.Indexer(structure)  # type: ignore[arg-type]


def test_a_structure_too_big_to_build_is_refused_up_front() -> None:
    # [2, 2, 2, 2, 2, 1, 1, 1] fits 64 bits, but listing its configurations took 3 minutes and
    # 2.4 GB: the estimate refuses it before anything is listed
    start = time.perf_counter()
    with pytest.raises(ValueError, match=r"^cards_per_round \[2, 2, 2, 2, 2, 1, 1, 1\]: building the tables "
                                         r"would list 6,400,000 partial deals \(about 2.6 GB\); the limit is "
                                         r"1,048,576 \(about 0.4 GB\)$"):
        iso.Indexer([2, 2, 2, 2, 2, 1, 1, 1])
    assert time.perf_counter() - start < 1


def test_a_structure_near_the_64_bit_limit() -> None:
    ix = iso.Indexer([13, 9])
    assert ix.size() == burnside([13, 9]) > 2**62
    assert math.comb(52, 13) * math.comb(39, 9) // 24 <= ix.size() < 2**64
    with pytest.raises(ValueError, match="do not fit in 64 bits"):
        iso.Indexer([13, 13])
    hands = random_hands(1000, 22, seed=2)
    indices = ix.index_batch(hands)
    assert np.array_equal(ix.index_batch(ix.unindex_batch(1, indices)), indices)


def test_module_examples() -> None:
    import doctest
    failures, tried = doctest.testmod(iso)
    assert tried >= 5 and failures == 0
