"""A spot's game, solved by Discounted CFR: the expanded tree (a street's betting once for every
card dealt), the players' combos, the showdown tables, the compiled solver state; exploitability
by best response; results at any node (strategy, EV, equity); saving and loading.

>>> from handrank.solver.spot import Spot
>>> game = Game(Spot("Td9d6hQc2s", "AA,QQ,JJ", "KK", pot=100, stack=100, bet="100%", raise_=""))
>>> report = game.solve(target=0.001, progress=False)
>>> report.exploitability <= 0.001 * 100
True
"""
from __future__ import annotations

import itertools
import math
import time
from collections import deque
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from handrank.cards import card as parse_card, card_str
from handrank import _batch
from handrank.equity.range import Range
from handrank.showdown import COMBOS, strengths_batch
from handrank.solver import _cfr
from handrank.solver.spot import Spot
from handrank.solver.tree import CHANCE, DECISION, FOLD, SHOWDOWN, Tree

if TYPE_CHECKING:
    import numpy.typing as npt

__all__ = ["Game", "NodeView", "SolveReport", "load", "memory_estimate", "discounts", "FORMAT_VERSION", "ALPHA", "BETA",
           "GAMMA"]

FORMAT_VERSION = 2
"""The version of the saved-game format (`Game.save`); `load` reads it and version 1 (games
without suit isomorphism), and refuses others."""
# Discounted CFR (Brown and Sandholm 2019) with alpha 1.5 and gamma 3 as published, and beta 0:
# negative regrets halved every iteration. Measured on the anchor's spots against the published
# beta 0.5: the turn reaches 0.5% of the pot in 80 iterations instead of 100, the river 0.3% in
# 60 instead of 70.
ALPHA, BETA, GAMMA = 1.5, 0.0, 3.0
PLAYERS = ("oop", "ip")
_KIND_CODE = {FOLD: _cfr.KINDS["fold"], SHOWDOWN: _cfr.KINDS["showdown"], CHANCE: _cfr.KINDS["chance"]}
# the permutations of the suits (c, d, h, s: a card is rank x 4 + suit), the identity first
_SUIT_PERMUTATIONS = list(itertools.permutations(range(4)))


@dataclass(frozen=True)
class SolveReport:
    """How a `Game.solve` call ended: iterations run in all, the exploitability reached (chips,
    and as a fraction of the starting pot), the seconds it took, and why it stopped ('target',
    'iterations' or 'interrupted')."""

    iterations: int
    exploitability: float
    exploitability_pot: float
    seconds: float
    stopped: str


class Game:
    """The game of a spot, ready to solve (see the module docstring). ``game.tree`` is the
    betting tree; ``combos(player)`` the combos of OOP (0) or IP (1), in the order of every
    per-combo array this class returns.

    `isomorphism`: where the board, the dead cards and both ranges leave suits interchangeable
    (Td9d6h: clubs and spades), solve one card of each class of interchangeable cards dealt and
    read the others' results through the suit permutation (less memory and time, the same
    results to float rounding).

    `compress`: keep the regrets (int16) and strategy sums (uint16) in 16 bits, each node's scaled
    by its largest magnitude: half the memory, for a slightly higher exploitability at a given
    number of iterations (docs/solver.md gives the figures)."""

    def __init__(self, spot: Spot, *, isomorphism: bool = True, compress: bool = False) -> None:
        self.spot = spot
        self.tree = Tree(spot)
        self.iterations = 0
        self.isomorphism = bool(isomorphism)
        self.compress = bool(compress)
        removed = spot.board_cards + spot.dead_cards
        self._combos: list[npt.NDArray[np.int64]] = []
        self._cards: list[npt.NDArray[np.uint8]] = []
        self._weights: list[npt.NDArray[np.float32]] = []
        kept_ranges = [Range(rng).without(removed) for rng in (spot.oop_range, spot.ip_range)]
        for kept in kept_ranges:
            pairs = [(max(h, l) * (max(h, l) - 1) // 2 + min(h, l), w) for (h, l), w in kept]
            self._combos.append(np.array([c for c, _ in pairs], dtype=np.int64))
            self._cards.append(np.ascontiguousarray(COMBOS[self._combos[-1]]))
            self._weights.append(np.array([w for _, w in pairs], dtype=np.float32))
        where = [{int(c): i for i, c in enumerate(combos)} for combos in self._combos]
        same = [np.array([where[1 - p].get(int(c), -1) for c in self._combos[p]], dtype=np.int32)
                for p in (0, 1)]
        self._deck = [c for c in range(52) if c not in removed]
        self._symmetries = _symmetries(spot, kept_ranges) if self.isomorphism else [_SUIT_PERMUTATIONS[0]]
        # per suit permutation kept and player: the index of each combo's image
        self._index_of = [np.full(len(COMBOS), -1, dtype=np.int32) for _ in (0, 1)]
        for p in (0, 1):
            self._index_of[p][self._combos[p]] = np.arange(len(self._combos[p]), dtype=np.int32)
        self._perms = [np.ascontiguousarray([self._combo_images(p, perm) for perm in self._symmetries],
                                            dtype=np.int32) for p in (0, 1)]
        self._expand()
        self._tables()
        self.regrets: npt.NDArray[np.float32] | npt.NDArray[np.int16]
        self.strategy_sum: npt.NDArray[np.float32] | npt.NDArray[np.uint16]
        if compress:
            self.regrets = np.zeros(self._storage, dtype=np.int16)
            self.strategy_sum = np.zeros(self._storage, dtype=np.uint16)
        else:
            self.regrets = np.zeros(self._storage, dtype=np.float32)
            self.strategy_sum = np.zeros(self._storage, dtype=np.float32)
        # compressed: per node, the step of its regrets (row 0) and of its strategy sums (row 1)
        self._scales = np.zeros((2, len(self._kind) if compress else 1), dtype=np.float32)
        self._engine = _cfr.Engine(
            self._kind, self._player, self._first, self._count, self._stake, self._offset,
            self._board, self._card, self._cards[0], self._cards[1], same[0], same[1],
            self._card_start[0], self._card_start[1], self._card_combos[0], self._card_combos[1],
            self._order[0], self._order[1], self._segments[0], self._segments[1],
            self._sweep_index[0], self._sweep_index[1],
            self.regrets, self.strategy_sum, self._iso_first, self._iso_count, self._iso_perm,
            self._perms[0], self._perms[1], self._scales)
        self._engine.set_ranges(self._weights[0], self._weights[1])
        self.locked = np.zeros(len(self._kind), dtype=np.int8)
        self._engine.set_locked(self.locked)
        # the weight of the pairs of combos that share no card: what EVs are averaged over
        self._pairs = float(np.dot(self._weights[0], self._compatible(0, self._weights[1])))

    def _combo_images(self, player: int, perm: Sequence[int]) -> npt.NDArray[np.int32]:
        """The index of each of `player`'s combos with its suits permuted by `perm`."""
        cards = self._cards[player].astype(np.int64)
        moved = cards - cards % 4 + np.asarray(perm)[cards % 4]
        high, low = moved.max(axis=1), moved.min(axis=1)
        images: npt.NDArray[np.int32] = self._index_of[player][high * (high - 1) // 2 + low]
        return images

    # -- the expanded tree
    def _expand(self) -> None:
        """Breadth first, so that a node's children are numbered together."""
        tree, spot = self.tree, self.spot
        kind, player, stake, offset, board, card, abstract, dealt_of = [], [], [], [], [], [], [], []
        first, count, iso_first, iso_count = [], [], [], []
        iso_perm: list[int] = []
        iso_card: list[int] = []
        boards: dict[frozenset[int], int] = {}
        classes: dict[frozenset[int], list[tuple[int, list[tuple[int, int]]]]] = {}
        storage = 0
        Item = tuple[int, tuple[int, ...], int, list[tuple[int, int]]]
        queue: deque[Item] = deque([(0, (), -1, [])])
        children: list[Item]
        next_index = 1
        while queue:
            index, dealt, dealt_card, isomorphic = queue.popleft()
            node = tree.nodes[index]
            abstract.append(index)
            dealt_of.append(dealt)
            card.append(dealt_card)
            iso_first.append(len(iso_perm))
            iso_count.append(len(isomorphic))
            iso_card.extend(c for c, _ in isomorphic)
            iso_perm.extend(g for _, g in isomorphic)
            known = len(spot.board_cards) + len(dealt)
            first.append(next_index)
            if node.kind == DECISION:
                kind.append(node.player)
                player.append(node.player)
                stake.append(0.0)
                offset.append(storage)
                storage += len(node.actions) * len(self._combos[node.player])
                children = [(child, dealt, -1, []) for child in node.children]
            else:
                kind.append(_KIND_CODE[node.kind])
                player.append(node.player)
                offset.append(0)
                if node.kind == CHANCE:
                    # every card left is as likely for a pair of combos: 52 - known - dead - 4 of them
                    stake.append(1.0 / (52 - known - len(spot.dead_cards) - 4))
                    shown = frozenset(spot.board_cards + dealt)
                    if shown not in classes:
                        classes[shown] = _deal_classes(shown, self._deck, self._symmetries)
                    children = [(node.children[0], dealt + (c,), c, members) for c, members in classes[shown]]
                else:
                    who = node.player if node.kind == FOLD else 0
                    stake.append(spot.pot / 2 + node.committed[who])
                    children = []
            if node.kind == SHOWDOWN:
                key = frozenset(spot.board_cards + dealt)
                board.append(boards.setdefault(key, len(boards)))
            else:
                board.append(-1)
            count.append(len(children))
            next_index += len(children)
            queue.extend(children)
        self._kind = np.array(kind, dtype=np.int8)
        self._player = np.array(player, dtype=np.int8)
        self._first = np.array(first, dtype=np.int32)
        self._count = np.array(count, dtype=np.int32)
        self._stake = np.array(stake, dtype=np.float32)
        self._offset = np.array(offset, dtype=np.int64)
        self._board = np.array(board, dtype=np.int32)
        self._card = np.array(card, dtype=np.int8)
        self._iso_first = np.array(iso_first, dtype=np.int32)
        self._iso_count = np.array(iso_count, dtype=np.int32)
        self._iso_perm = np.array(iso_perm or [0], dtype=np.int32)
        self._iso_card = np.array(iso_card or [-1], dtype=np.int8)
        self._abstract = abstract
        self._dealt = dealt_of
        self._boards = [sorted(key) for key in sorted(boards, key=boards.__getitem__)]
        self._storage = max(storage, 1)

    def _tables(self) -> None:
        """The showdown tables. Per player: its combos grouped by card (`_card_start`: where each
        card's group begins, `_card_combos`: the combos holding that card). Per 5-card board and
        player: the combos by rising strength (those that share a card with the board first, at
        strength 0), each card's group in the same order (`_segments`), and for each combo as the
        hero the stopping points of the other player's sweep (`_sweep_index`: how many of the
        other's combos are weaker, weaker among those holding each of its cards, not stronger,
        not stronger among those, and each card group's end, as indices into the sweep's prefix
        sums: one run of sums per card, one slot longer than the group)."""
        strengths = strengths_batch(np.array(self._boards, dtype=np.uint8), threads=1).astype(np.int64)
        local = [strengths[:, self._combos[p]] for p in (0, 1)]
        self._order = [np.ascontiguousarray(np.argsort(local[p], axis=1, kind="stable"), dtype=np.int32)
                       for p in (0, 1)]
        self._card_start, self._card_combos, self._segments = [], [], []
        group_of, keys = [], []
        for p in (0, 1):
            holding = np.concatenate([np.nonzero((self._cards[p] == c).any(axis=1))[0] for c in range(52)])
            counts = np.bincount(self._cards[p].ravel(), minlength=52)
            group = np.repeat(np.arange(52), counts)
            self._card_start.append(np.concatenate([[0], np.cumsum(counts)]).astype(np.int32))
            self._card_combos.append(holding.astype(np.int32))
            # per board: each group's combos by rising strength, and the (group, strength) keys
            # they are sorted by, for the other player's searches
            by_strength = np.lexsort((local[p][:, holding], np.broadcast_to(group, (len(self._boards), len(group)))),
                                     axis=-1)
            self._segments.append(np.ascontiguousarray(holding[by_strength], dtype=np.uint16))
            keys.append(group * (1 << 20) + np.take_along_axis(local[p][:, holding], by_strength, axis=1))
            group_of.append(group)
        self._sweep_index = []
        for p in (0, 1):
            o = 1 - p
            ordered = np.take_along_axis(local[o], self._order[o], axis=1)
            index = np.empty((len(self._boards), len(self._combos[p]), 8), dtype=np.uint16)
            start = self._card_start[o]
            for b in range(len(self._boards)):
                mine = local[p][b]
                index[b, :, 0] = np.searchsorted(ordered[b], mine, side="left")
                index[b, :, 3] = np.searchsorted(ordered[b], mine, side="right")
                for k in (0, 1):
                    card = self._cards[p][:, k].astype(np.int64)
                    query = card * (1 << 20) + mine
                    index[b, :, 1 + k] = np.searchsorted(keys[o][b], query, side="left") + card
                    index[b, :, 4 + k] = np.searchsorted(keys[o][b], query, side="right") + card
                    index[b, :, 6 + k] = start[card + 1] + card
            self._sweep_index.append(index)

    # -- sizes
    def memory_usage(self) -> int:
        """Bytes of solver state: regrets and strategy sums (float32, or 16 bits and a scale per
        node with `compress`), the showdown tables and
        the expanded tree, all allocated when the game is built (`memory_estimate` gives the
        regrets and sums from the spot alone, before building)."""
        arrays: list[npt.NDArray[Any]] = [
            self.regrets, self.strategy_sum, self._scales, *self._order, *self._segments, *self._sweep_index,
            *self._card_start, *self._card_combos, self._kind, self._player, self._first, self._count, self._stake,
            self._offset, self._board, self._card, self._iso_first, self._iso_count,
            self._iso_perm, self._iso_card, *self._perms]
        return int(sum(a.nbytes for a in arrays))

    def combos(self, player: int) -> list[str]:
        """The combos of `player` (0 OOP, 1 IP) that are in its range and off the board, as text."""
        return [" ".join(card_str(int(c)) for c in pair) for pair in self._cards[_player(player)]]

    def weights(self, player: int) -> npt.NDArray[np.float32]:
        """The range weights of `player`'s combos at the root."""
        return self._weights[_player(player)].copy()

    # -- solving
    def solve(self, target: float = 0.005, max_iterations: int = 1000, *, check_every: int = 10,
              progress: bool | None = None, threads: int | None = 1,
              callback: Callable[[int, float], Any] | None = None) -> SolveReport:
        """Run Discounted CFR until the exploitability is at most `target` x the starting pot
        (checked every `check_every` iterations, once sooner where the trend of the last two
        checks reaches the target, and at the end) or `max_iterations` have run in all. Ctrl-C stops cleanly after the current iteration, keeping what was solved.
        `progress`: a tqdm bar (None: when stderr is a terminal); `threads`: the cards of each
        chance node shared among that many threads, each taking the next card left (None: one per
        core; the results are the same for any number); `callback(iterations, exploitability)`
        after each check."""
        if not (isinstance(target, (int, float)) and math.isfinite(target) and target >= 0):
            raise ValueError(f"target is a fraction of the pot >= 0, got {target!r}")
        for name, value in (("max_iterations", max_iterations), ("check_every", check_every)):
            if isinstance(value, bool) or not isinstance(value, int) or value < (1 if name == "check_every" else 0):
                raise ValueError(f"{name} is a whole number >= {1 if name == 'check_every' else 0}, got {value!r}")
        self.set_threads(threads)
        bar = _progress_bar(progress, max_iterations, self.iterations)
        start = time.perf_counter()
        stopped = "iterations"
        exploitability = self.exploitability() if self.iterations else math.inf
        checked = self.iterations           # the iterations `exploitability` was measured at
        # Checks every `check_every` iterations, and one sooner in between where the trend of the
        # last two regular ones reaches the target (a guess that fails is not repeated).
        trend: deque[tuple[int, float]] = deque([(checked, exploitability)], maxlen=2)
        regular = next_check = self.iterations + check_every
        try:
            while self.iterations < max_iterations:
                if exploitability <= target * self.spot.pot:
                    stopped = "target"
                    break
                self.iterations += 1
                self._engine.iterate(*discounts(self.iterations))
                if bar is not None:
                    bar.update(1)
                if self.iterations >= next_check or self.iterations == max_iterations:
                    exploitability = self.exploitability()
                    checked = self.iterations
                    next_check = regular
                    if checked >= regular:
                        trend.append((checked, exploitability))
                        regular = checked + check_every
                        next_check = checked + _next_check(trend, target * self.spot.pot, check_every)
                    if bar is not None:
                        bar.set_postfix_str(f"exploitability {exploitability / self.spot.pot:.3%} of the pot")
                    if callback is not None:
                        callback(self.iterations, exploitability)
            else:
                if exploitability <= target * self.spot.pot:
                    stopped = "target"
        except KeyboardInterrupt:
            stopped = "interrupted"
        finally:
            if bar is not None:
                bar.close()
        if checked != self.iterations or not self.iterations:   # (a best response costs an iteration)
            exploitability = self.exploitability()
        return SolveReport(self.iterations, exploitability, exploitability / self.spot.pot,
                           time.perf_counter() - start, stopped)

    def set_threads(self, threads: int | None) -> None:
        """Share the cards of each chance node among `threads` threads from now on, for solving,
        best responses and EVs alike (None: one per core, at most one per card)."""
        cards = max(self._count[self._kind == _cfr.KINDS["chance"]], default=1)
        count = min(_batch.cpu_count(), int(cards)) if threads is None else _batch.thread_count(threads, int(cards))
        self._engine.set_threads(count)

    def exploitability(self) -> float:
        """In chips: the average of what each player's best response to the other's average
        strategy wins over the game's value (0 at an equilibrium)."""
        return float(sum(self._engine.best_responses()) / self._pairs / 2)

    def best_response_value(self, player: int) -> float:
        """The EV (chips, as `ev`) of `player`'s best response to the other's average strategy."""
        p = _player(player)
        values = self._engine.values(0, p, self._weights[p], self._weights[1 - p], True)
        return float(np.dot(self._weights[p], values.astype(np.float64)) / self._pairs) + self.spot.pot / 2

    def _compatible(self, hero: int, opp_reach: npt.NDArray[np.float32]) -> npt.NDArray[np.float64]:
        clash = (self._cards[hero][:, None, :, None] == self._cards[1 - hero][None, :, None, :]).any(axis=(2, 3))
        out: npt.NDArray[np.float64] = (~clash).astype(np.float64) @ opp_reach.astype(np.float64)
        return out

    # -- navigation and results
    def _walk(self, path: Sequence[str] | str) -> tuple[int, list[npt.NDArray[np.float32]], list[int],
                                                          list[npt.NDArray[np.int32]]]:
        """The expanded node at `path`, both players' reach there (range x average strategy), the
        cards dealt on the way, and per player the combos' places at the node: where a card was
        dealt that the game reads through an isomorphic one, the node is that card's and combo j
        there is combo ``places[p][j]`` (the reaches are in the node's order)."""
        steps = path.split() if isinstance(path, str) else list(path)
        index = 0
        reach = [w.copy() for w in self._weights]
        dealt_cards: list[int] = []
        to_node = _SUIT_PERMUTATIONS[0]      # the suits of the path's cards as the node's
        for step in steps:
            kind = self._kind[index]
            first, count = int(self._first[index]), int(self._count[index])
            node = self.tree.nodes[self._abstract[index]]
            if kind == _cfr.KINDS["chance"]:
                try:
                    dealt = parse_card(step)
                except ValueError:
                    raise ValueError(f"at [{' '.join(node.history)}] a card is dealt: "
                                     f"the next step is a card, not {step!r}") from None
                moved = _move(dealt, to_node)
                found = self._dealing(first, count, moved)
                if found is None:
                    raise ValueError(f"{step} cannot be dealt at [{' '.join(node.history)}]")
                index, g = found
                dealt_cards.append(dealt)
                for p in (0, 1):
                    reach[p] = (reach[p] * (self._cards[p] != moved).all(axis=1))[self._perms[p][g]]
                inverse = np.argsort(self._symmetries[g])
                to_node = tuple(int(inverse[s]) for s in to_node)
                continue
            names = [str(a) for a in node.actions]
            if step not in names:
                raise ValueError(f"no action {step!r} at [{' '.join(node.history)}]; "
                                 f"the actions are {' '.join(names) or 'none (terminal)'}")
            a = names.index(step)
            p = int(self._player[index])
            reach[p] = reach[p] * self._average(index)[a]
            index = first + a
        return index, reach, dealt_cards, [self._combo_images(p, to_node) for p in (0, 1)]

    def _dealing(self, first: int, count: int, card: int) -> tuple[int, int] | None:
        """Among a chance node's children (`count` from `first`), the one that deals `card` or a
        card of its class, and the index of the symmetry taking that card to `card`."""
        for child in range(first, first + count):
            if self._card[child] == card:
                return child, 0
            start = int(self._iso_first[child])
            for k in range(start, start + int(self._iso_count[child])):
                if self._iso_card[k] == card:
                    return child, int(self._iso_perm[k])
        return None

    def _average(self, index: int) -> npt.NDArray[np.float32]:
        p = int(self._player[index])
        n, na = len(self._combos[p]), int(self._count[index])
        sums = self.strategy_sum[self._offset[index]:self._offset[index] + na * n].reshape(na, n)
        if self.compress:
            sums = sums * self._scales[1, index]
        total = sums.sum(axis=0)
        with np.errstate(invalid="ignore", divide="ignore"):
            return np.where(total > 0, sums / np.where(total > 0, total, 1), np.float32(1.0 / na)).astype(np.float32)

    def node(self, path: Sequence[str] | str = ()) -> NodeView:
        """The results at the node reached by `path`: actions (``"Check"``, ``"Bet(100)"``) and
        cards dealt (``"As"``), as a list or one space-separated string."""
        return NodeView(self, *self._walk(path))

    # -- node locking
    def lock(self, path: Sequence[str] | str, strategy: npt.ArrayLike) -> None:
        """Fix the strategy of the player acting at `path` (see `node`) there: (actions,) for
        every combo alike, or (actions, combos); each combo's column sums to 1. The solver no
        longer changes it, and the exploitability counts it as part of the game (no best
        response deviates there). Below a card dealt, the lock is for that card's node only (and
        the cards isomorphic to it: with `isomorphism`, a strategy must treat the suits the node
        leaves interchangeable alike)."""
        index, _, _, places = self._walk(path)
        if self._kind[index] > 1:
            raise ValueError(f"[{' '.join(self.tree.nodes[self._abstract[index]].history)}] is not "
                             f"a decision node")
        p, na = int(self._player[index]), int(self._count[index])
        arr = np.asarray(strategy)
        if arr.dtype.kind not in "iuf":
            raise TypeError(f"a strategy is numbers, got dtype {arr.dtype}")
        n = len(self._combos[p])
        if arr.shape == (na,):
            arr = np.repeat(arr[:, None], n, axis=1)
        if arr.shape != (na, n):
            raise ValueError(f"a strategy here has shape ({na},) or ({na}, {n}), got {arr.shape}")
        arr = arr.astype(np.float64)
        bad = np.flatnonzero(~np.isfinite(arr).all(axis=0) | (arr < 0).any(axis=0)
                             | (np.abs(arr.sum(axis=0) - 1) > 1e-6))
        if bad.size:
            raise ValueError(f"combo {bad[0]} ({self.combos(p)[bad[0]]}): its action "
                             f"probabilities must be >= 0 and sum to 1, got {arr[:, bad[0]].tolist()}")
        at_node = np.empty_like(arr)
        at_node[:, places[p]] = arr
        shown = frozenset(self.spot.board_cards + self._dealt[index])
        for g, perm in enumerate(self._symmetries):
            if _moves(shown, perm) == shown and not np.allclose(
                    at_node[:, self._perms[p][g]], at_node, rtol=0, atol=1e-6):
                raise ValueError("the strategy treats suits that the board leaves interchangeable "
                                 "differently: build the game with isomorphism=False to lock it")
        start = int(self._offset[index])
        if self.compress:       # in 65535 steps of 1/65535
            self.strategy_sum[start:start + na * n] = np.rint(at_node * 65535).ravel()
            self._scales[:, index] = 0, 1 / 65535
        else:
            self.strategy_sum[start:start + na * n] = at_node.astype(np.float32).ravel()
        self.regrets[start:start + na * n] = 0
        self.locked[index] = 1

    def unlock(self, path: Sequence[str] | str) -> None:
        """Let the solver change the strategy at `path` again."""
        self.locked[self._walk(path)[0]] = 0

    # -- saving
    def save(self, path: str | Path) -> None:
        """Save the spot and the solver state to a .npz file (`load` reads it back)."""
        np.savez_compressed(path, format_version=np.int64(FORMAT_VERSION),
                            spot=np.array(repr(self.spot.to_mapping())), iterations=np.int64(self.iterations),
                            isomorphism=np.bool_(self.isomorphism), compress=np.bool_(self.compress),
                            scales=self._scales,
                            regrets=self.regrets, strategy_sum=self.strategy_sum,
                            locked=self.locked)


def memory_estimate(spot: Spot, *, isomorphism: bool = True, compress: bool = False) -> int:
    """Bytes of the regrets and strategy sums (float32, or 16 bits with `compress`) that
    ``Game(spot, isomorphism=..., compress=...)`` allocates, the bulk of `Game.memory_usage`,
    from the betting tree alone: to check a big (flop) spot before building its game."""
    tree = Tree(spot)
    removed = spot.board_cards + spot.dead_cards
    ranges = [Range(rng).without(removed) for rng in (spot.oop_range, spot.ip_range)]
    symmetries = _symmetries(spot, ranges) if isomorphism else [_SUIT_PERMUTATIONS[0]]
    deck = [c for c in range(52) if c not in removed]
    below: dict[tuple[int, frozenset[int]], int] = {}

    def size(index: int, shown: frozenset[int]) -> int:
        """Regrets (one array) below abstract node `index` with the cards `shown`."""
        node = tree.nodes[index]
        # below a river decision, no card is dealt: the size is the same whatever was shown
        key = (index, frozenset() if node.street == "river" and node.kind != CHANCE else shown)
        if key not in below:
            if node.kind == DECISION:
                below[key] = len(node.actions) * len(ranges[node.player]) + sum(
                    size(child, shown) for child in node.children)
            elif node.kind == CHANCE:
                below[key] = sum(size(node.children[0], shown | {c})
                                 for c, _ in _deal_classes(shown, deck, symmetries))
            else:
                below[key] = 0
        return below[key]

    return 2 * (2 if compress else 4) * max(size(0, frozenset(spot.board_cards)), 1)


def _move(card: int, perm: Sequence[int]) -> int:
    """`card` with its suit permuted by `perm`."""
    return card - card % 4 + perm[card % 4]


def _moves(cards: Iterable[int], perm: Sequence[int]) -> frozenset[int]:
    return frozenset(_move(c, perm) for c in cards)


def _symmetries(spot: Spot, ranges: Sequence[Range]) -> list[tuple[int, ...]]:
    """The suit permutations that leave the board, the dead cards and both ranges (the combos
    off the board, with their weights) as they are: a group, the identity first."""
    fixed = [frozenset(spot.board_cards), frozenset(spot.dead_cards)]
    weights = [dict(r) for r in ranges]

    def keeps(perm: tuple[int, ...]) -> bool:
        return (all(_moves(cards, perm) == cards for cards in fixed)
                and all(w.get((max(_move(h, perm), _move(l, perm)), min(_move(h, perm), _move(l, perm)))) == x
                        for w in weights for (h, l), x in w.items()))

    return [perm for perm in _SUIT_PERMUTATIONS if keeps(perm)]


def _deal_classes(shown: frozenset[int], deck: Sequence[int], symmetries: Sequence[tuple[int, ...]]
                  ) -> list[tuple[int, list[tuple[int, int]]]]:
    """The cards of `deck` not `shown` that a chance node deals, one per class of cards that the
    symmetries leaving `shown` as it is make interchangeable: (the card, [(each other card of
    its class, the index in `symmetries` of a permutation taking the card there)])."""
    keeping = [g for g, perm in enumerate(symmetries) if _moves(shown, perm) == shown]
    seen: set[int] = set()
    classes = []
    for card in deck:
        if card in shown or card in seen:
            continue
        members = []
        for g in keeping:           # the identity first: the card itself
            image = _move(card, symmetries[g])
            if image not in seen:
                seen.add(image)
                if image != card:
                    members.append((image, g))
        classes.append((card, members))
    return classes


def load(path: str | Path) -> Game:
    """A game saved by `Game.save`, ready to read or to solve further. ValueError for another
    format version or a file that is not a saved game."""
    import ast

    with np.load(path, allow_pickle=False) as data:
        if "format_version" not in data.files:
            raise ValueError(f"{path}: not a saved handrank.solver game")
        version = int(data["format_version"])
        if version not in (1, FORMAT_VERSION):
            raise ValueError(f"{path}: saved game format {version}; this handrank reads formats 1 "
                             f"to {FORMAT_VERSION}")
        game = Game(Spot.from_mapping(ast.literal_eval(str(data["spot"]))),
                    isomorphism=version > 1 and bool(data["isomorphism"]),
                    compress=version > 1 and bool(data["compress"]))
        if data["regrets"].shape != game.regrets.shape:
            raise ValueError(f"{path}: the solver state does not fit the spot's game")
        game.regrets[:] = data["regrets"]
        game.strategy_sum[:] = data["strategy_sum"]
        if version > 1:
            game._scales[:] = data["scales"]
        game.locked[:] = data["locked"]
        game.iterations = int(data["iterations"])
    return game


class NodeView:
    """The results at one node of a game: who acts, the actions, the average strategy (per combo
    and aggregated), and each player's EV and equity per combo and overall, given the reach of
    both players' average strategies down to the node. EVs are chips won from the spot's start
    (pot share at the end minus everything put in since the spot began), so the two players'
    EVs at the root add up to the starting pot."""

    def __init__(self, game: Game, index: int, reach: list[npt.NDArray[np.float32]], dealt: list[int],
                 places: list[npt.NDArray[np.int32]]) -> None:
        # the node's own arrays (`_reach`, the engine's) hold combo j's entry at places[p][j]
        self._game, self._index, self._reach, self._places = game, index, reach, places
        self.reach = [r[at] for r, at in zip(reach, places)]
        self.tree_node = game.tree.nodes[game._abstract[index]]
        self.kind = self.tree_node.kind
        self.player = int(game._player[index]) if self.kind == DECISION else None
        self.actions = [str(a) for a in self.tree_node.actions]
        self.board = [card_str(c) for c in game.spot.board_cards + tuple(dealt)]

    def strategy(self) -> npt.NDArray[np.float32]:
        """(actions, combos of the acting player): the average strategy of every combo."""
        if self.kind != DECISION:
            raise ValueError(f"a {self.kind} node has no strategy")
        return self._game._average(self._index)[:, self._places[self.player]]  # type: ignore[index]

    def frequencies(self) -> dict[str, float]:
        """Each action's frequency over the acting player's range here (weighted by reach)."""
        strategy = self.strategy()
        reach = self.reach[self.player].astype(np.float64)  # type: ignore[index]
        total = reach.sum()
        return {a: float(strategy[i] @ reach / total) if total > 0 else math.nan
                for i, a in enumerate(self.actions)}

    def by_class(self) -> dict[str, dict[str, float]]:
        """The acting player's strategy by hand class (``"AKs"``, ``"QQ"``, ...): each action's
        frequency over the class's combos, weighted by their reach; classes with no reach left
        out (the cells of a 13 x 13 grid)."""
        from handrank.equity.range import hand_class

        strategy = self.strategy()
        p = self.player
        totals: dict[str, npt.NDArray[np.float64]] = {}
        weights: dict[str, float] = {}
        for i, pair in enumerate(self._game._cards[p]):           # type: ignore[index]
            reach = float(self.reach[p][i])                         # type: ignore[index]
            if reach > 0:
                name = hand_class((int(pair[0]), int(pair[1])))
                totals[name] = totals.get(name, 0) + reach * strategy[:, i].astype(np.float64)
                weights[name] = weights.get(name, 0.0) + reach
        return {name: {a: float(x / weights[name]) for a, x in zip(self.actions, total)}
                for name, total in totals.items()}

    def _compatible(self, player: int) -> npt.NDArray[np.float64]:
        return self._game._compatible(player, self.reach[1 - player])

    def ev(self, player: int) -> npt.NDArray[np.float64]:
        """`player`'s EV of each of its combos here (nan where no opposing combo is left)."""
        p = _player(player)
        game = self._game
        values = game._engine.values(self._index, p, self._reach[p], self._reach[1 - p], False)[self._places[p]]
        compatible = self._compatible(p)
        with np.errstate(invalid="ignore", divide="ignore"):
            return np.where(compatible > 0, values / compatible, np.nan) + game.spot.pot / 2

    def equity(self, player: int) -> npt.NDArray[np.float64]:
        """`player`'s showdown equity of each combo here against the other's reach (win + tie /
        2, averaged over the cards still to come), nan where no opposing combo is left."""
        p = _player(player)
        game = self._game
        opp = self._reach[1 - p]
        known = frozenset(game.spot.board_cards + game._dealt[self._index])
        # every board still possible, each once: the game's boards and, with isomorphism, their
        # images under the symmetries that keep the known cards (the combos moved with them)
        keeping = [g for g, perm in enumerate(game._symmetries) if _moves(known, perm) == known]
        images: dict[frozenset[int], tuple[int, int]] = {}
        for b, cards in enumerate(game._boards):
            if known <= set(cards):
                for g in keeping:
                    images.setdefault(_moves(cards, game._symmetries[g]), (b, g))
        won = np.zeros(len(game._combos[p]))
        total = np.zeros(len(game._combos[p]))
        for b, g in images.values():
            extra = [c for c in game._boards[b] if c not in known]
            mask_o = (~np.isin(game._cards[1 - p], extra).any(axis=1)).astype(np.float32)
            mask_h = ~np.isin(game._cards[p], extra).any(axis=1)
            hero_image = game._perms[p][g]
            w, l, c = game._engine.showdown_sums(b, p, opp[game._perms[1 - p][g]] * mask_o)
            won[hero_image] += mask_h * (w + (c - w - l) / 2)
            total[hero_image] += mask_h * c
        with np.errstate(invalid="ignore", divide="ignore"):
            return np.where(total > 0, won / total, np.nan)[self._places[p]]

    def _overall(self, player: int, per_combo: npt.NDArray[np.float64]) -> float:
        p = _player(player)
        weight = self.reach[p] * self._compatible(p)
        ok = weight > 0
        return float(np.dot(weight[ok], per_combo[ok]) / weight[ok].sum()) if ok.any() else math.nan

    def overall_ev(self, player: int) -> float:
        """`player`'s EV over its range here (each combo weighted by its reach and the opposing
        reach it can meet)."""
        return self._overall(player, self.ev(player))

    def overall_equity(self, player: int) -> float:
        """`player`'s equity over its range here (weighted as `overall_ev`)."""
        return self._overall(player, self.equity(player))


def _next_check(trend: Sequence[tuple[int, float]], goal: float, most: int) -> int:
    """Iterations until the next exploitability check: where the last two checks' power-law trend
    (DCFR's exploitability falls about as a power of the iterations) reaches `goal`, at least one
    and at most `most`. A check costs about an iteration, so checking at the crossing rather than
    up to `most` - 1 iterations after it saves time near the target, and nothing far from it."""
    if len(trend) < 2 or goal <= 0:
        return most
    (t1, e1), (t2, e2) = trend[-2], trend[-1]
    if not (0 < t1 < t2 and math.isfinite(e1) and e1 > e2 > goal):   # no falling trend to follow
        return most
    growth = math.log(e2 / goal) * math.log(t2 / t1) / math.log(e1 / e2)   # log(crossing / t2)
    if growth >= math.log1p(most / t2):
        return most
    return max(1, math.ceil(t2 * math.expm1(growth)))


def discounts(t: int) -> tuple[float, float, float]:
    """Discounted CFR's factors at iteration t (from 1) for what earlier iterations left: positive
    regrets x (t-1)^alpha / ((t-1)^alpha + 1), negative ones the same with beta, strategy sums
    x ((t-1) / t)^gamma."""
    prev = t - 1
    return (prev ** ALPHA / (prev ** ALPHA + 1), prev ** BETA / (prev ** BETA + 1) if prev else 0.0,
            (prev / t) ** GAMMA)


def _player(player: int | str) -> int:
    if isinstance(player, str) and player in PLAYERS:
        return PLAYERS.index(player)
    if isinstance(player, bool) or player not in (0, 1):
        raise ValueError(f"a player is 0 (OOP) or 1 (IP), got {player!r}")
    return int(player)


def _progress_bar(wanted: bool | None, total: int, done: int) -> Any:
    import sys

    if wanted is None:
        wanted = sys.stderr.isatty()
    if not wanted:
        return None
    try:
        from tqdm import tqdm  # type: ignore[import-untyped]
    except ImportError:         # progress is a nicety: solve without it
        return None
    return tqdm(total=total, initial=done, unit="it", desc="solving", leave=False)
