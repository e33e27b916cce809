"""Hold'em showdowns for solvers: every hole combo's strength on a board, and each combo's result
against a weighted range on the river, card removal included.

The 1326 combos are numbered in one fixed order, ``COMBOS`` (a (1326, 2) uint8 array, the higher
card id first): combo i = (high, low) with ``i = high * (high - 1) // 2 + low``, so 2d2c is 0 and
AsAh is 1325. A range over them is a (1326,) float array of weights (relative frequencies).

>>> COMBOS[0].tolist(), combo_str(1325), combo_index("Ah As")
([1, 0], 'As Ah', 1325)
>>> s = strengths("Ah Kh Qh Jh 2c")
>>> int(s[combo_index("Th 3d")]), int(s[combo_index("Ah 3d")])
(7462, 0)

On the river, each hero combo against a villain range: ``river_equity`` (win + tie / 2, as a share
of the villain weight that shares no card with the combo) and ``river_payoffs`` (the weights it
beats, ties and loses to). Both sort the combos by strength once and read every result from
running sums, removing the combos that share a card with the hero's through per-card sums: one
pass over 1326 combos instead of 1326 x 1326 pairs. Where that subtraction would cancel (most of
the weight blocked, say a weight 1e16 times the rest), the result is summed again directly over
the combos it counts, so every result is good to 1e-11 of itself whatever the weights: weights
are never negative and equities never leave [0, 1].

>>> villain = range_weights("QQ+, AKs")
>>> eq = river_equity("Kd 7s 2c 3h 9d", "random", villain)
>>> float(eq[combo_index("Ks Kh")]), round(float(eq[combo_index("Qs Qh")]), 4)
(1.0, 0.0385)
"""
from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from handrank import _batch, _showdown
from handrank.cards import cards as parse_hand, hand_str
from handrank.equity.range import Range

if TYPE_CHECKING:
    import numpy.typing as npt

    Weights = npt.NDArray[np.float64]
    RangeLike = Range | str | npt.ArrayLike

__all__ = ["COMBOS", "COMBO_COUNT", "combo_index", "combo_str", "range_weights", "weights_range",
           "strengths", "strengths_batch", "river_equity", "river_payoffs", "Payoffs"]

COMBO_COUNT = 1326
"""The number of hold'em hole-card combos."""
COMBOS = np.array([(high, low) for high in range(1, 52) for low in range(high)], dtype=np.uint8)
COMBOS.flags.writeable = False


def combo_index(combo: str | Iterable[str | int]) -> int:
    """The number of a two-card combo in ``COMBOS`` (either card first)."""
    ids = parse_hand(combo)
    if len(ids) != 2:
        raise ValueError(f"a combo is two cards, got {len(ids)}")
    high, low = max(ids), min(ids)
    return high * (high - 1) // 2 + low


def combo_str(index: int) -> str:
    """The text of combo `index`, the higher card first: ``combo_str(1325) == "As Ah"``."""
    if isinstance(index, bool) or not isinstance(index, (int, np.integer)):
        raise TypeError(f"a combo index is an int, not {type(index).__name__}")
    if not 0 <= index < COMBO_COUNT:
        raise ValueError(f"a combo index is in 0..{COMBO_COUNT - 1}, got {index}")
    return hand_str(COMBOS[index].tolist())


def range_weights(spec: RangeLike, what: str = "range") -> Weights:
    """A range as a new (1326,) float64 array of weights: from an ``equity.Range``, range text
    (``"QQ+, AKs"``, ``"random"``) or 1326 weights (checked: finite, not negative)."""
    if isinstance(spec, str):
        spec = Range(spec)
    if isinstance(spec, Range):
        weights = np.zeros(COMBO_COUNT)
        for (high, low), weight in spec:
            weights[high * (high - 1) // 2 + low] = weight
        return weights
    arr = np.asarray(spec)
    if arr.dtype.kind not in "iuf":
        raise TypeError(f"{what}: weights must be numbers, got dtype {arr.dtype}")
    if arr.shape != (COMBO_COUNT,):
        raise ValueError(f"{what}: weights must have shape ({COMBO_COUNT},), got {arr.shape}")
    weights = arr.astype(np.float64)
    bad = np.flatnonzero(~np.isfinite(weights) | (weights < 0))
    if bad.size:
        raise ValueError(f"{what}: combo {bad[0]} ({combo_str(int(bad[0]))}) has weight "
                         f"{weights[bad[0]]}; weights are finite and not negative")
    return weights


def weights_range(weights: npt.ArrayLike) -> Range:
    """The ``equity.Range`` of the combos with a positive weight."""
    arr = range_weights(weights, "weights_range")
    return Range({(int(COMBOS[i, 0]), int(COMBOS[i, 1])): float(arr[i]) for i in np.flatnonzero(arr)})


def _board(board: str | Iterable[str | int]) -> npt.NDArray[np.uint8]:
    ids = parse_hand(board)
    if len(ids) != 5:
        raise ValueError(f"a river board has 5 cards, got {len(ids)}")
    return np.array(ids, dtype=np.uint8)


def strengths(board: str | Iterable[str | int]) -> npt.NDArray[np.uint16]:
    """Every combo's high value (1..7462) with the 5-card board, as a (1326,) uint16 array; 0 for
    the combos that share a card with the board."""
    out: npt.NDArray[np.uint16] = strengths_batch(_board(board)[None, :], threads=1)[0]
    return out


def strengths_batch(boards: npt.ArrayLike, *, threads: int | None = None) -> npt.NDArray[np.uint16]:
    """``strengths`` of every board in an (N, 5) integer array, as an (N, 1326) uint16 array. A bad
    board raises ValueError naming its row."""
    arr = _batch.card_array(boards, (5,), "showdown.strengths_batch")
    out = np.empty((arr.shape[0], COMBO_COUNT), dtype=np.uint16)
    # a board costs 1326 evaluations: a thread is worth it from a few dozen boards
    nthreads = 1 if threads is None and arr.shape[0] < 64 else _batch.thread_count(threads, arr.shape[0] * 512)
    bad = _batch.run(_strengths_rows, arr, out, min(nthreads, max(1, arr.shape[0])))
    if bad >= 0:
        raise _batch.row_error(arr, bad)
    return out


def _strengths_rows(rows: npt.NDArray[np.uint8], out: npt.NDArray[np.uint16]) -> int:
    return int(_showdown.strengths_rows(rows, out))


@dataclass(frozen=True)
class Payoffs:
    """Each hero combo's showdown against a villain range: the villain weight it beats (`win`),
    ties (`tie`) and loses to (`lose`), counting only villain combos that share no card with it;
    zero for combos outside the hero's range or sharing a card with the board. `strength` is
    every combo's high value on the board (0 where blocked)."""

    win: Weights
    tie: Weights
    lose: Weights
    strength: npt.NDArray[np.uint16]

    @property
    def net(self) -> Weights:
        """Ties split: the weight won minus the weight lost (a tie gives each side its stake
        back), per unit staked: a solver's terminal showdown value before the pot size."""
        return self.win - self.lose

    @property
    def equity(self) -> Weights:
        """win + tie / 2 as a share of the villain weight left; nan where none is left or the
        combo is not the hero's."""
        total = self.win + self.tie + self.lose
        with np.errstate(invalid="ignore", divide="ignore"):
            return np.where(total > 0, (self.win + 0.5 * self.tie) / total, np.nan)


def _weights_fast(spec: RangeLike, what: str) -> Weights:
    """A contiguous (1326,) float64 array passes as it is (the kernel checks its values), anything
    else through range_weights."""
    if isinstance(spec, np.ndarray) and spec.dtype == np.float64 and spec.shape == (COMBO_COUNT,) \
            and spec.flags.c_contiguous:
        return spec
    return range_weights(spec, what)


def _raise_for(bad: int, hero: Weights, villain: Weights) -> None:
    if bad == _showdown.BAD_BOARD:      # pragma: no cover - _board checked the cards
        raise AssertionError("a bad board passed the checks")
    if bad == _showdown.BAD_TOTAL:
        raise ValueError("villain: the weights add up past the largest float (1.8e308); "
                         "scale them down")
    what, weights = ("hero", hero) if bad < COMBO_COUNT else ("villain", villain)
    range_weights(weights, what)        # raises, naming the combo
    raise AssertionError("a bad weight went unnamed")   # pragma: no cover


def river_payoffs(board: str | Iterable[str | int], hero: RangeLike, villain: RangeLike) -> Payoffs:
    """Every hero combo's weighted wins, ties and losses against `villain` on a 5-card board,
    card removal included (see ``Payoffs``). Ranges: ``equity.Range``, range text or 1326
    weights (the hero's only say which combos to report)."""
    ids = _board(board)
    hero_weights, villain_weights = _weights_fast(hero, "hero"), _weights_fast(villain, "villain")
    win, tie, lose = np.empty(COMBO_COUNT), np.empty(COMBO_COUNT), np.empty(COMBO_COUNT)
    strength = np.empty(COMBO_COUNT, dtype=np.uint16)
    bad = _showdown.river_payoffs_into(ids, hero_weights, villain_weights, win, tie, lose, strength)
    if bad >= 0:
        _raise_for(bad, hero_weights, villain_weights)
    return Payoffs(win, tie, lose, strength)


def river_equity(board: str | Iterable[str | int], hero: RangeLike, villain: RangeLike) -> Weights:
    """Every hero combo's equity (win + tie / 2) against `villain` on a 5-card board, as a (1326,)
    float64 array, card removal included; nan for combos outside the hero's range, sharing a card
    with the board, or left with no villain combo."""
    ids = _board(board)
    hero_weights, villain_weights = _weights_fast(hero, "hero"), _weights_fast(villain, "villain")
    equity = np.empty(COMBO_COUNT)
    bad = _showdown.river_equity_into(ids, hero_weights, villain_weights, equity)
    if bad >= 0:
        _raise_for(bad, hero_weights, villain_weights)
    return equity
