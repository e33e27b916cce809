"""Chinese poker scoring: naturals, mis-sets, rows, the 1-6 or 2-4 bonus and royalties, for a
table of 2 to 4 players or for (N, 13) arrays of settings pair by pair.

The batch loop (compiled, without the GIL) scores rows, mis-sets and royalties and reports the
standard naturals each hand holds (the variant naturals, when the rules pay any, are read here off
the cards); what they pay is applied here, and the rare pairs where both hands hold naturals worth
the same are compared with `natural`. Surrenders are settled last: a natural is paid before anyone
surrenders.
"""
from __future__ import annotations

from collections.abc import Collection, Sequence
from functools import lru_cache, partial
from itertools import combinations
from typing import TYPE_CHECKING, Any, NamedTuple

import numpy as np

from handrank._threerow import _kernel
from handrank.chinese.naturals import compare_naturals, natural, variant_naturals
from handrank.chinese.ev import _royalty_by_row
from handrank.chinese.rules import (NATURAL_VARIANTS, NATURALS, Rules, as_rules, breaks_order,
                                    natural_bit, row_order, solver_tables)
from handrank._threerow.board import Board, as_board, evaluate_with, pair_scores, table_points

if TYPE_CHECKING:
    import numpy.typing as npt

__all__ = ["score", "score_batch", "as_setting", "is_mis_set", "royalties", "evaluate_batch",
           "SettingArrays"]


def as_setting(setting: Any) -> Board:
    """A setting as an ofc.Board: anything with .top, .middle and .bottom, a Board's text form,
    a (top, middle, bottom) tuple, or 13 cards in row order (a row of `settings`)."""
    if isinstance(setting, Board):
        return setting
    if all(hasattr(setting, row) for row in ("top", "middle", "bottom")):
        return Board(setting.top, setting.middle, setting.bottom)
    if isinstance(setting, (np.ndarray, list, tuple)) and len(setting) == 13:
        return Board.from_cards(list(setting))       # a row of `settings`: 13 cards in row order
    return as_board(setting)


class SettingArrays(NamedTuple):
    """Results of `evaluate_batch`, one entry (or row) per setting."""

    mis_set: npt.NDArray[np.bool_]           # (N,)
    royalties: npt.NDArray[np.int32]         # (N, 3) top, middle, bottom; 0 when mis-set
    values: npt.NDArray[np.uint16]           # (N, 3) row values (handrank.rows scale)


def evaluate_batch(cards: npt.ArrayLike, rules: Rules | str | None = None,
                   threads: int | None = None) -> SettingArrays:
    """Mis-set flags, row royalties (what the hand collects) and row values (on the rules' order
    of straights) of the settings of an (N, 13) integer array (row order top, middle, bottom).
    GIL released, `threads` splits the rows."""
    rules = as_rules(rules)
    found = evaluate_with(solver_tables(rules), cards, False, threads, "chinese.evaluate_batch")
    return _with_options(SettingArrays(found.foul, found.royalties, found.values), rules)


# ---------------------------------------------------------------------- the options
# The compiled scorer compares rows on the handrank.rows scale (a 2-7 middle by its 2-7 value),
# adds every row's royalty and settles a mis-set hand as a scoop of 1-6 or 2-4 units; the options
# it does not know (wheel_second, one_royalty, scoop_bonus, mis_set_played) are applied here, in
# numpy, from its per-board results (kept out of the compiled loop, which every three-row game
# shares: any step added there slowed it by 4-18%).
def _with_options(found: SettingArrays, rules: Rules) -> SettingArrays:
    mis_set, royalties, values = found
    if rules.wheel_second:
        order = row_order(rules)
        values = values.copy()
        values[:, 0], values[:, 2] = order[values[:, 0]], order[values[:, 2]]
        if not rules.low_middle:            # (a 2-7 middle keeps its 2-7 value)
            values[:, 1] = order[values[:, 1]]
        mis_set = breaks_order(values, rules)
        by_row = _royalty_by_row(rules)
        royalties = np.stack([by_row[k][values[:, k]] for k in range(3)], axis=1).astype(np.int32)
        royalties[mis_set] = 0
    if rules.one_royalty:
        # the largest; of equal ones the bottom's, then the middle's
        keep = 2 - np.argmax(royalties[:, ::-1], axis=1)
        royalties = np.where(np.arange(3) == keep[:, None], royalties, 0).astype(np.int32)
    return SettingArrays(mis_set, royalties, values)


def _needs_options(rules: Rules) -> bool:
    """Whether the compiled pair scores miss an option of `rules` (then _points_with_options)."""
    return (rules.wheel_second or rules.one_royalty or rules.mis_set_played
            or rules.scoop_bonus is not None)


def _points_with_options(a: npt.NDArray[np.uint8], b: npt.NDArray[np.uint8], rules: Rules,
                         threads: int | None) -> npt.NDArray[np.int32]:
    """What the settings of a win from those of b (naturals aside), rows compared and royalties
    taken under the options."""
    mis_a, roy_a, val_a = evaluate_batch(a, rules, threads)
    mis_b, roy_b, val_b = evaluate_batch(b, rules, threads)
    rows = np.sign(val_a.astype(np.int32) - val_b)
    wins, losses = (rows > 0).sum(axis=1), (rows < 0).sum(axis=1)
    points = wins - losses + rules.scoop_extra * ((wins == 3).astype(np.int32) - (losses == 3))
    if rules.scoring == "2-4":
        points += np.sign(wins - losses)
    # (a mis-set hand's royalties are 0: played, it collects none and pays the others' as usual)
    if rules.royalties_to_winner:
        points += (roy_a * (rows > 0) - roy_b * (rows < 0)).sum(axis=1)
    else:
        points += roy_a.sum(axis=1) - roy_b.sum(axis=1)
    if not rules.mis_set_played:
        scoop = rules.scoop_units
        points = np.where(mis_a, -(scoop + roy_b.sum(axis=1)), points)
        points = np.where(mis_b, scoop + roy_a.sum(axis=1), points)
        points = np.where(mis_a & mis_b, 0, points)
    result: npt.NDArray[np.int32] = points.astype(np.int32)
    return result


def _one(setting: Any, rules: Rules | str | None) -> SettingArrays:
    return evaluate_batch(np.array([as_setting(setting).cards], dtype=np.uint8), rules, 1)


def is_mis_set(setting: Any, rules: Rules | str | None = None) -> bool:
    """Whether a setting breaks bottom >= middle >= top (3-card top against the middle as
    RULES.md compares them; with ``low_middle`` only bottom >= top; with ``wheel_second`` on that
    order of straights)."""
    return bool(_one(setting, rules).mis_set[0])


def royalties(setting: Any, rules: Rules | str | None = None) -> tuple[int, int, int]:
    """Royalty units of the (top, middle, bottom) rows; (0, 0, 0) for a mis-set hand."""
    top, middle, bottom = _one(setting, rules).royalties[0].tolist()
    return top, middle, bottom


def score(settings: Sequence[Any], rules: Rules | str | None = None,
          surrendered: Collection[int] = ()) -> list[int]:
    """Net units of each of 2 to 4 players, summed over every pair (zero-sum).

    Per pair: a natural is paid its units at once (between two naturals the stronger wins, a
    tie pays nothing); a player who surrendered (the indices in `surrendered`, when the rules
    allow it) pays ``rules.surrender`` to one who did not, nothing to one who did, and no
    royalties; a mis-set hand pays a valid one as if scooped plus its royalties; else 1 per row
    won, the 1-6 scoop bonus or the 2-4 overall unit, and royalties (to the row's winner, or as
    net differences). A surrendered player's setting is only read for naturals."""
    players = [as_setting(s) for s in settings]
    if not 2 <= len(players) <= 4:
        raise ValueError(f"chinese.score takes 2 to 4 settings, got {len(players)}")
    gave_up = _players(surrendered, len(players))
    if gave_up and not as_rules(rules).surrender_allowed:
        raise ValueError(f"chinese.score: players {sorted(gave_up)} surrendered but these rules do not "
                         f"allow surrender (Rules.surrender_allowed; the 'surrender' preset does)")
    # table_points scores the pairs in combinations() order: the surrender flags follow it
    pairs = list(combinations(range(len(players)), 2))
    flags_a = np.array([i in gave_up for i, _ in pairs])
    flags_b = np.array([j in gave_up for _, j in pairs])
    return table_points(players, partial(score_batch, rules=rules, threads=1,
                                         surrendered_a=flags_a, surrendered_b=flags_b))


def _players(surrendered: Collection[int], count: int) -> frozenset[int]:
    if isinstance(surrendered, (str, bytes)) or not isinstance(surrendered, Collection):
        raise TypeError(f"surrendered must be a collection of player indices, got {surrendered!r}")
    for i in surrendered:
        if not isinstance(i, (int, np.integer)) or isinstance(i, bool):
            raise TypeError(f"surrendered holds player indices (ints), got {i!r}")
        if not 0 <= i < count:
            raise ValueError(f"surrendered: no player {i} among {count}")
    return frozenset(int(i) for i in surrendered)


def score_batch(a: npt.ArrayLike, b: npt.ArrayLike, rules: Rules | str | None = None,
                threads: int | None = None, surrendered_a: npt.ArrayLike | None = None,
                surrendered_b: npt.ArrayLike | None = None) -> npt.NDArray[np.int32]:
    """Net units of each setting of `a` against the setting in the same row of `b`, both
    (N, 13) arrays in row order top, middle, bottom (naturals included). GIL released.
    `surrendered_a` / `surrendered_b`: optional (N,) bool arrays, whose player surrendered
    (rules with ``surrender_allowed``; see `score`)."""
    rules = as_rules(rules)
    scoring = _kernel.SCORE_CHINESE_1_6 if rules.scoring == "1-6" else _kernel.SCORE_CHINESE_2_4
    out, naturals, arr_a, arr_b = pair_scores(solver_tables(rules), scoring, rules.royalties_to_winner,
                                              a, b, threads, "chinese.score_batch")
    if _needs_options(rules):
        out = _points_with_options(arr_a, arr_b, rules, threads)
    gave_up = [_surrender_flags(flags, len(out), rules, name)
               for flags, name in ((surrendered_a, "surrendered_a"), (surrendered_b, "surrendered_b"))]
    paid = np.zeros(len(out), dtype=np.bool_)
    variants = [kind for kind, _ in rules.naturals if kind in NATURAL_VARIANTS]
    if variants or naturals.any():
        kinds_a, kinds_b = naturals & 15, naturals >> 4
        if variants:
            kinds_a = kinds_a | variant_naturals(arr_a, variants)
            kinds_b = kinds_b | variant_naturals(arr_b, variants)
        units = _units_of_kinds(rules)
        units_a, units_b = units[kinds_a], units[kinds_b]
        # A natural is paid at once and the larger one wins. Equal units tie, unless both hands
        # show the same kind that has a key (six pairs, three straights or flushes): those are
        # settled one row at a time.
        paid = (units_a > 0) | (units_b > 0)
        out[paid] = np.where(units_a > units_b, units_a, -units_b)[paid]
        even = paid & (units_a == units_b)
        out[even] = 0
        keyed = _keyed_kind(rules)
        keyed_a = keyed[kinds_a]
        for i in np.flatnonzero(even & (keyed_a > 0) & (keyed_a == keyed[kinds_b])):
            out[i] = _naturals(arr_a[i], arr_b[i], rules)
    if gave_up[0] is not None or gave_up[1] is not None:
        # the naturals were paid first; in every other pair a surrender settles it
        a_out = np.zeros(len(out), dtype=np.bool_) if gave_up[0] is None else gave_up[0]
        b_out = np.zeros(len(out), dtype=np.bool_) if gave_up[1] is None else gave_up[1]
        out[~paid & a_out] = np.where(b_out, 0, -rules.surrender)[~paid & a_out]
        out[~paid & b_out & ~a_out] = rules.surrender
    return out


def _surrender_flags(flags: npt.ArrayLike | None, n: int, rules: Rules,
                     name: str) -> npt.NDArray[np.bool_] | None:
    if flags is None:
        return None
    arr = np.asarray(flags)
    if arr.dtype != np.bool_:
        raise TypeError(f"chinese.score_batch: {name} must be a bool array, got dtype {arr.dtype}")
    if arr.shape != (n,):
        raise ValueError(f"chinese.score_batch: {name} must have shape ({n},), got {arr.shape}")
    if arr.any() and not rules.surrender_allowed:
        raise ValueError(f"chinese.score_batch: {name}: row {int(np.argmax(arr))} surrendered but "
                         f"these rules do not allow surrender (Rules.surrender_allowed)")
    return arr


@lru_cache(maxsize=16)
def _units_of_kinds(rules: Rules) -> npt.NDArray[np.int32]:
    """For each set of natural kinds (`chinese.rules.natural_bit`: the standard four as the
    compiled scorer reports them, then the variants), the units of the best natural these rules
    pay among them; 0 for none (a natural pays at least 1)."""
    return np.array([max([units for kind, units in rules.naturals if kinds & natural_bit(kind)],
                         default=0) for kinds in range(1 << len(NATURALS + NATURAL_VARIANTS))],
                    dtype=np.int32)


@lru_cache(maxsize=16)
def _keyed_kind(rules: Rules) -> npt.NDArray[np.int32]:
    """For each set of natural kinds (as `_units_of_kinds`), 1 + the position in rules.naturals
    of the kind `natural` shows (the first worth the most units) when that kind is compared by a
    key (six pairs, three straights, three flushes); else 0."""
    out = np.zeros(1 << len(NATURALS + NATURAL_VARIANTS), dtype=np.int32)
    for kinds in range(len(out)):
        held = [(units, -i, kind) for i, (kind, units) in enumerate(rules.naturals)
                if kinds & natural_bit(kind)]
        if held:
            _, first, kind = max(held)
            out[kinds] = 1 - first if kind in _KEYED else 0
    return out


_KEYED = ("six pairs", "three straights", "three flushes")     # the kinds compare_naturals ranks


def _naturals(a: npt.NDArray[np.uint8], b: npt.NDArray[np.uint8], rules: Rules) -> int:
    """What the naturals of a and b (both hold one) settle between them."""
    natural_a, natural_b = natural(a.tolist(), rules), natural(b.tolist(), rules)
    assert natural_a is not None and natural_b is not None
    winner = compare_naturals(natural_a, natural_b)
    return natural_a.units if winner > 0 else -natural_b.units if winner < 0 else 0
