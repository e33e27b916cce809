"""ofc.Placements reads exactly as the list of its placements does (collections.abc.Sequence):
indexing with any key, slices, `index` with start and stop; and the legal action ids it is built
from cannot be made writable (issue 37, the OFC minor items)."""
from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from handrank import ofc

PLACEMENTS = ofc.Game(rules="pineapple", seed=3).legal_placements()     # five cards: 232 of them
AS_LIST = list(PLACEMENTS)
SMALL = 3 * len(AS_LIST)

ints = st.integers(-SMALL, SMALL) | st.sampled_from([10**20, -10**20, 2**63, -2**63 - 1])
bounds = st.none() | ints
keys = (ints | st.booleans() | st.builds(np.int64, st.integers(-SMALL, SMALL))
        | st.floats(allow_nan=False) | st.text(max_size=2)
        | st.builds(slice, bounds, bounds, st.none() | st.integers(-5, 5)))


def outcome(read: Any) -> tuple[str, Any]:
    try:
        return "value", read()
    except (TypeError, ValueError, IndexError) as e:
        return type(e).__name__, None


@given(keys)
@settings(max_examples=300, deadline=None)
def test_indexing_is_that_of_the_list(key: Any) -> None:
    assert outcome(lambda: PLACEMENTS[key]) == outcome(lambda: AS_LIST[key])


@given(st.integers(0, len(AS_LIST) - 1), ints, st.none() | ints)
@settings(max_examples=300, deadline=None)
def test_index_takes_start_and_stop_as_the_list(at: int, start: int, stop: int | None) -> None:
    placement = AS_LIST[at]
    assert outcome(lambda: PLACEMENTS.index(placement, start, stop)) == \
        outcome(lambda: AS_LIST.index(placement, start, *([] if stop is None else [stop])))


def test_index_examples() -> None:
    last = len(AS_LIST) - 1
    assert PLACEMENTS.index(AS_LIST[last], -1) == last
    with pytest.raises(ValueError):
        PLACEMENTS.index(AS_LIST[0], -1)            # -1: the last placement only, as a list
    assert PLACEMENTS.index(AS_LIST[0], 0, -last) == 0
    with pytest.raises(ValueError):
        PLACEMENTS.index(AS_LIST[1], 0, -last)


@pytest.mark.parametrize("key,error,text", [
    (1.0, TypeError, "integers or slices, not float"),
    ("1", TypeError, "integers or slices, not str"),
    (10**20, IndexError, "Placements index out of range"),
    (-len(AS_LIST) - 1, IndexError, "Placements index out of range"),
])
def test_bad_keys_say_so_in_the_list_s_words(key: Any, error: type, text: str) -> None:
    with pytest.raises(error, match=text):
        PLACEMENTS[key]


def test_a_bool_indexes_as_in_a_list() -> None:
    assert PLACEMENTS[True] == AS_LIST[1] and PLACEMENTS[False] == AS_LIST[0]


def test_the_cached_legal_actions_cannot_be_made_writable() -> None:
    game = ofc.Game(rules="pineapple", seed=3)
    ids = game.legal_actions()
    before = ids.copy()
    for array in (ids, ids.base, PLACEMENTS.actions, ofc.actions.legal(5, (3, 5, 5), 0)):
        if isinstance(array, np.ndarray):
            with pytest.raises(ValueError):
                array.setflags(write=True)
            with pytest.raises(ValueError):
                array[0] = 1
    np.testing.assert_array_equal(ofc.Game(rules="pineapple", seed=3).legal_actions(), before)
