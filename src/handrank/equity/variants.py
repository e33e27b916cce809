"""Equity for the variant games: Omaha (4, 5 or 6 hole cards), Omaha hi-lo 8-or-better and short
deck (both rule sets), exactly or by Monte Carlo.

Each player is an exact hand, a weighted list of exact hands (a mapping hand -> weight) or
"random". A deal gives each player one hand; the boards that complete it are evaluated for all
players at once through the batch evaluators (handrank.omaha, handrank.shortdeck), and each
board's pot is shared out: in Omaha and short deck among the best high hands; in Omaha hi-lo half
to the best high and half to the best qualifying low (ties share their half), the whole pot to
the high when no low qualifies. `win` is the share of showdowns a player takes the whole pot
alone (in hi-lo: scoops), `tie` the share where the player takes part of it.

handrank.equity.calculate dispatches here on `game`; this module answers with
(a `Result`, as for hold'em).
"""
from __future__ import annotations

import itertools
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING, Any

import numpy as np

from handrank import omaha, shortdeck
from handrank.cards import card_str, cards as parse_cards, hand_str
from handrank.equity.deal import NO_WEIGHT, scaled
from handrank.equity.range import check_weight
from handrank.equity.result import Result

if TYPE_CHECKING:
    import numpy.typing as npt

GAMES = ("omaha", "omaha8", "shortdeck", "shortdeck-triton")
# `exact=None` enumerates when deals x boards is at most this many showdowns and there are at most
# EXACT_DEALS deals (each deal costs a Python step).
EXACT_LIMIT = 20_000_000
EXACT_DEALS = 20_000
# `exact=True` refuses jobs above EXACT_MAX showdowns, each deal counting as DEAL_SHOWDOWNS more (its
# Python step costs about as much as that many boards): about an hour on a core, the hours that
# hold'em's equity.EXACT_MAX stands for in its compiled walk. Measured on one core of a busy 2-core
# AMD EPYC: 2 to 6 M showdowns a second, about 0.3 ms a deal (a PLO hand against random on the
# river: 123,410 deals of one board in 33 to 36 s).
EXACT_MAX = 10**10
"""`exact=True` refuses jobs above this many showdowns (a deal counting as DEAL_SHOWDOWNS)."""
DEAL_SHOWDOWNS = 1000
DEFAULT_STDERR = 1e-3
ROUND = 1 << 15             # Monte Carlo deals drawn per round
MAX_SAMPLES = 1 << 28       # a stderr target that needs more than this many showdowns stops here
SHORT_DECK = tuple(range(16, 52))
FULL_DECK = tuple(range(52))


@dataclass(frozen=True)
class _Seat:
    label: str
    hands: tuple[tuple[int, ...], ...]      # empty for a random player
    weights: tuple[float, ...]


def calculate(players: Sequence[object], board: Sequence[int], dead: Sequence[int], game: str,
              *, exact: bool | None, samples: int | None, stderr: float | None, seed: int | None,
              threads: int | None) -> Result:
    """Each player's equity in `game` (one of GAMES): the players, board and dead cards (as ids)
    and the options as `equity.calculate` checked them."""
    deck = SHORT_DECK if game.startswith("shortdeck") else FULL_DECK
    for c in [*board, *dead]:
        if c not in deck:
            raise ValueError(f"{card_str(c)} is not in the short deck (6 through A)")
    seats = [_seat(p, i, game, deck) for i, p in enumerate(players)]
    sizes = {len(h) for s in seats for h in s.hands}
    if len(sizes) > 1:
        raise ValueError(f"every player holds as many cards; got hands of {sorted(sizes)} cards")
    k = sizes.pop() if sizes else (2 if game.startswith("shortdeck") else 4)
    fixed = [c for s in seats if len(s.hands) == 1 for c in s.hands[0]]
    taken = [*board, *dead, *fixed]
    if len(set(taken)) != len(taken):
        repeated = next(c for c in taken if taken.count(c) > 1)
        raise ValueError(f"{card_str(repeated)} is dealt twice (hands, board and dead cards)")
    if len(seats) * k + 5 + len(dead) > len(deck):
        most = (len(deck) - 5 - len(dead)) // k
        raise ValueError(f"too many players for the deck: {len(seats)} hands of {k} cards, 5 board "
                         f"cards and {len(dead)} dead cards need {len(seats) * k + 5 + len(dead)} of its "
                         f"{len(deck)} cards (at most {most} players)")
    labels = tuple(s.label for s in seats)
    out = [*board, *dead]
    sampling = exact is False or (exact is None and (samples is not None or stderr is not None))
    if not sampling:
        deals, boards = _sizes(seats, k, deck, out, len(board))
        if exact is None and (deals * boards > EXACT_LIMIT or deals > EXACT_DEALS):
            sampling = True
        elif exact and deals * (boards + DEAL_SHOWDOWNS) > EXACT_MAX:
            raise ValueError(f"exact enumeration of {deals * boards:.3g} showdowns in {deals:.3g} deals is "
                             f"above the limit of {EXACT_MAX:.0e} showdowns, a deal counting as "
                             f"{DEAL_SHOWDOWNS:,} more (equity.variants.EXACT_MAX): sample instead")
    if sampling:
        return _sample(seats, k, deck, list(board), out, game, labels, samples, stderr, seed, threads)
    return _enumerate(seats, k, deck, list(board), out, game, labels, threads)


def _seat(player: object, index: int, game: str, deck: Sequence[int]) -> _Seat:
    where = f"player {index + 1}"
    if isinstance(player, str) and player.strip().lower() == "random":
        return _Seat("random", (), ())
    if isinstance(player, Mapping):
        hands, weights = [], []
        for text, weight in player.items():
            hands.append(_hand(text, game, deck, where))
            weights.append(check_weight(weight, f"{where}: {hand_str(hands[-1])}"))
        if not hands:
            raise ValueError(f"{where}: a weighted list holds at least one hand")
        if len({frozenset(h) for h in hands}) != len(hands):
            raise ValueError(f"{where}: a hand is listed twice")
        label = ", ".join(f"{hand_str(h)}:{w:g}" for h, w in zip(hands, weights))
        # scaled as hold'em's are, so that the products of the players' weights and their sums
        # stay inside a double's range (1e200 twice overflows, 1e-200 twice underflows)
        return _Seat(label, tuple(hands), tuple(scaled(np.array(weights)).tolist()))
    hand = _hand(player, game, deck, where)
    return _Seat(hand_str(hand), (hand,), (1.0,))


def _hand(spec: object, game: str, deck: Sequence[int], where: str) -> tuple[int, ...]:
    try:
        ids = parse_cards(spec)       # type: ignore[arg-type]
    except (TypeError, ValueError) as exc:
        raise type(exc)(f"{where}: {exc}") from None
    sizes = (2,) if game.startswith("shortdeck") else (4, 5, 6)
    if len(ids) not in sizes:
        raise ValueError(f"{where}: a hand of {game} has {', '.join(map(str, sizes[:-1]))}"
                         f"{' or ' if len(sizes) > 1 else ''}{sizes[-1]} cards, got {len(ids)}")
    for c in ids:
        if c not in deck:
            raise ValueError(f"{where}: {card_str(c)} is not in the short deck (6 through A)")
    return tuple(ids)


@lru_cache(maxsize=None)
def _index_combos(n: int, k: int) -> npt.NDArray[np.uint8]:
    """Every k-subset of range(n) in lexicographic order, as rows of indices (read-only, cached):
    each first index followed by the subsets of the indices after it, built a block at a time."""
    if k == 0:
        rows = np.zeros((1, 0), dtype=np.uint8)
    elif k > n:
        rows = np.zeros((0, k), dtype=np.uint8)
    else:
        blocks = []
        for first in range(n - k + 1):
            rest = _index_combos(n - first - 1, k - 1)
            block = np.empty((len(rest), k), dtype=np.uint8)
            block[:, 0] = first
            block[:, 1:] = rest + (first + 1)
            blocks.append(block)
        rows = np.concatenate(blocks)
    rows.flags.writeable = False
    return rows


def _sizes(seats: list[_Seat], k: int, deck: Sequence[int], out: list[int], board: int) -> tuple[float, int]:
    """Upper bounds of the deals and of the boards per deal of the enumeration."""
    free = len(deck) - len(out) - sum(k for s in seats if len(s.hands) == 1)
    deals = 1.0
    for s in seats:
        if not s.hands:
            deals *= math.comb(free, k)
            free -= k
        elif len(s.hands) > 1:
            deals *= len(s.hands)
    return deals, math.comb(max(free, 0), 5 - board)


# ----------------------------------------------------------------------------- showdowns
def _shares(game: str, holes: list[npt.NDArray[np.uint8]], boards: npt.NDArray[np.uint8],
            threads: int | None) -> npt.NDArray[np.float64]:
    """(P, B): each player's share of each board's pot. holes[p]: (B, k) the player's hands.
    Players are rows, so that every pass over a player's boards reads contiguous memory."""
    if game.startswith("shortdeck"):
        rules = "triton" if game == "shortdeck-triton" else "standard"
        return _split(np.stack([shortdeck.evaluate_batch(np.concatenate((h, boards), axis=1), rules=rules,
                                                         threads=threads) for h in holes]))
    high = _split(np.stack([omaha.evaluate_batch(h, boards, threads=threads) for h in holes]))
    if game == "omaha":
        return high
    low = np.stack([omaha.evaluate_low8_batch(h, boards, threads=threads) for h in holes])
    has_low = low.max(axis=0) != omaha.NO_LOW
    # halves where a low qualifies; the high's share is whole elsewhere
    split: npt.NDArray[np.float64] = np.where(has_low, 0.5 * high + 0.5 * _split(low), high)
    return split


def _split(values: npt.NDArray[Any]) -> npt.NDArray[np.float64]:
    """(P, B) values -> each player's share of one pot per board: the best values share it."""
    best = values == values.max(axis=0)
    shares: npt.NDArray[np.float64] = best / best.sum(axis=0, dtype=np.float64)
    return shares


class _Tally:
    def __init__(self, players: int) -> None:
        self.equity = np.zeros(players)
        self.square = np.zeros(players)
        self.win = np.zeros(players)
        self.tie = np.zeros(players)
        self.weight = 0.0

    def add(self, shares: npt.NDArray[np.float64], weight: float = 1.0, squares: bool = False) -> None:
        """Boards of one weight: shares (P, B). `squares` (Monte Carlo) also sums their squares,
        for the standard error."""
        boards = shares.shape[1]
        self.equity += weight * shares.sum(axis=1)
        if squares:
            self.square += weight * np.einsum("pb,pb->p", shares, shares)
        whole = np.count_nonzero(shares == 1.0, axis=1)
        self.win += weight * whole
        self.tie += weight * (np.count_nonzero(shares, axis=1) - whole)
        self.weight += weight * boards

    def stderr(self) -> tuple[float, ...]:
        n = self.weight
        mean = self.equity / n
        variance = np.maximum(self.square / n - mean * mean, 0.0)
        return tuple(float(x) for x in np.sqrt(variance / max(n - 1.0, 1.0)))

    def outcome(self, labels: tuple[str, ...], exact: bool, acceptance: float | None = None) -> Result:
        n = self.weight
        return Result(labels, tuple(float(x) for x in self.equity / n), tuple(float(x) for x in self.win / n),
                       tuple(float(x) for x in self.tie / n), n, exact,
                       None if exact else self.stderr(), acceptance)


# ----------------------------------------------------------------------------- exact
def _enumerate(seats: list[_Seat], k: int, deck: Sequence[int], board: list[int], out: list[int],
               game: str, labels: tuple[str, ...], threads: int | None) -> Result:
    tally = _Tally(len(seats))
    fixed = {c for s in seats if len(s.hands) == 1 for c in s.hands[0]}
    free = [c for c in deck if c not in set(out) | fixed]
    choices: list[Sequence[tuple[tuple[int, ...], float]]] = []
    for s in seats:
        if s.hands:
            choices.append(list(zip(s.hands, s.weights)))
        else:
            choices.append([(h, 1.0) for h in itertools.combinations(free, k)])
    board_arr = np.array(board, dtype=np.uint8)
    fits = False
    for deal in itertools.product(*choices):
        held = [c for hand, _ in deal for c in hand]
        if len(set(held)) != len(held) or set(held) & set(out):
            continue
        fits = True
        weight = math.prod(w for _, w in deal)
        if not weight:      # underflowed: its boards count for nothing
            continue
        left = np.array([c for c in deck if c not in set(out) and c not in set(held)], dtype=np.uint8)
        rest = left[_index_combos(len(left), 5 - len(board))]
        boards = np.ascontiguousarray(np.concatenate((np.broadcast_to(board_arr, (len(rest), len(board))), rest),
                                                     axis=1))
        holes = [np.ascontiguousarray(np.broadcast_to(np.array(hand, dtype=np.uint8), (len(boards), k)))
                 for hand, _ in deal]
        tally.add(_shares(game, holes, boards, threads), weight)
    if tally.weight == 0:
        raise ValueError(NO_WEIGHT if fits else "no deal is possible: the players' hands always share a card")
    return tally.outcome(labels, True)


# ----------------------------------------------------------------------------- Monte Carlo
def _distinct(rows: npt.NDArray[np.uint8]) -> npt.NDArray[np.bool_]:
    """Which rows hold no card twice: column pairs compared when there are few columns (cheaper
    than sorting every row), else the rows sorted."""
    width = rows.shape[1]
    ok: npt.NDArray[np.bool_]
    if width > 10:
        every = np.sort(rows, axis=1)
        ok = ~(every[:, 1:] == every[:, :-1]).any(axis=1)
        return ok
    ok = np.ones(len(rows), dtype=bool)
    for i in range(width):
        for j in range(i + 1, width):
            ok &= rows[:, i] != rows[:, j]
    return ok


def _draw(free: npt.NDArray[np.uint8], need: int, m: int, rng: np.random.Generator) -> npt.NDArray[np.uint8]:
    """m rows of `need` distinct cards of `free`, each row a uniformly random ordered draw: the first
    `need` steps of a Fisher-Yates shuffle, run on all rows at once (a deck per column, so that
    each step reads and writes contiguous rows); about half the time of sorting random keys."""
    n = len(free)
    decks = np.repeat(free[:, None], m, axis=1)         # (position, row)
    flat = decks.reshape(-1)
    columns = np.arange(m)
    for i in range(need):
        swap = rng.integers(i, n, size=m) * m + columns
        card = flat[swap]
        flat[swap] = decks[i]
        decks[i] = card
    return np.ascontiguousarray(decks[:need].T)


def _sample(seats: list[_Seat], k: int, deck: Sequence[int], board: list[int], out: list[int], game: str,
            labels: tuple[str, ...], samples: int | None, stderr: float | None, seed: int | None,
            threads: int | None) -> Result:
    rng = np.random.default_rng(seed)
    target = DEFAULT_STDERR if samples is None and stderr is None else stderr
    fixed = {c for s in seats if len(s.hands) == 1 for c in s.hands[0]}
    free = np.array([c for c in deck if c not in set(out) | fixed], dtype=np.uint8)
    randoms = [i for i, s in enumerate(seats) if not s.hands]
    need = k * len(randoms) + 5 - len(board)
    weighted = any(len(s.hands) > 1 for s in seats)
    fixed_cards = np.array(sorted(fixed | set(out)), dtype=np.uint8)     # a weighted hand may hold them
    tally = _Tally(len(seats))
    drawn = accepted = 0
    while True:
        m = ROUND if samples is None else min(ROUND, max(samples - accepted, 1))
        # the random players' cards and the rest of the board from the free cards: a few drawn
        # with replacement, rows that repeat one rejected below; many as a random prefix
        replaced = need <= 8
        picks = free[rng.integers(0, len(free), size=(m, need))] if replaced else _draw(free, need, m, rng)
        chosen = [None if len(seat.hands) < 2 else np.array(seat.hands, dtype=np.uint8)[
            rng.choice(len(seat.hands), size=m, p=np.array(seat.weights) / sum(seat.weights))]
            for seat in seats]
        # exact hands never meet the free cards: only drawn and weighted cards can collide (a
        # draw without replacement is distinct by construction: no check when nothing else is)
        extra = [h for h in chosen if h is not None]
        ok = _distinct(np.concatenate([picks, *extra], axis=1)) if replaced or extra else np.ones(m, dtype=bool)
        if weighted:
            for h in chosen:
                if h is not None:
                    ok &= ~np.isin(h, fixed_cards).any(axis=1)
        n_ok = int(ok.sum())
        kept = picks[ok]
        holes = []
        for i, (seat, h) in enumerate(zip(seats, chosen)):
            if h is not None:
                holes.append(np.ascontiguousarray(h[ok]))
            elif seat.hands:
                hand = np.empty((n_ok, k), dtype=np.uint8)
                hand[:] = seat.hands[0]
                holes.append(hand)
            else:
                j = randoms.index(i)
                holes.append(np.ascontiguousarray(kept[:, k * j:k * (j + 1)]))
        boards = np.empty((n_ok, 5), dtype=np.uint8)
        boards[:, :len(board)] = board
        boards[:, len(board):] = kept[:, k * len(randoms):]
        drawn += m
        if n_ok:
            tally.add(_shares(game, holes, boards, threads), squares=True)
            accepted += n_ok
        elif drawn >= 100 * ROUND:
            raise ValueError("the weighted hands almost never fit together: no deal drawn")
        if samples is not None:
            if accepted >= samples:
                break
        elif accepted >= 2 * ROUND and (max(tally.stderr()) <= (target or DEFAULT_STDERR)
                                        or accepted >= MAX_SAMPLES):
            break
    return tally.outcome(labels, False, accepted / drawn)
