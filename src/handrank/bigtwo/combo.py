"""Big Two plays: `Combo`, classifying cards (one play or a batch), comparing plays, legal moves."""
from __future__ import annotations

from collections.abc import Iterable
from functools import partial
from typing import TYPE_CHECKING, NamedTuple, Union

import numpy as np

from handrank import _batch
from handrank.bigtwo import _bigtwo
from handrank.bigtwo.flow import allowed_last, forbidden_last
from handrank.bigtwo.follow import follows, is_smack, plain, smacks
from handrank.bigtwo.rules import Kind, Rules
from handrank.bigtwo.tables import KIND_SHIFT, TWO_PAIR4_TOP, big_two_rank, tables
from handrank.cards import SUITS, card as parse_card, card_str, cards as parse_cards

if TYPE_CHECKING:
    import numpy.typing as npt

__all__ = ["Combo", "classify", "beats", "classify_batch", "legal_moves", "legal_move_arrays",
           "action_mask", "action_cards", "card_strength", "ACTIONS"]

Cards = Union[str, Iterable[Union[str, int]]]
RulesLike = Union["Rules", str, None]

# The RL action space of `action_mask`: a bit set over the hand's cards sorted by id (13 bits).
ACTIONS = 1 << 13
# by size for 1..4 cards; at 0 the kind of a four-card two pair, at 5 of a three-card straight
# (see _bigtwo.combos)
_SMALL_KINDS = (Kind.TWO_PAIR, Kind.SINGLE, Kind.PAIR, Kind.TRIPLE, Kind.FOUR, Kind.THREE_CARD_STRAIGHT)
_RUN_KINDS = (Kind.LONG_STRAIGHT, Kind.DRAGON)       # the kinds of plays of 6..12 and 13 cards
_PAIR_RUN_KINDS = (Kind.PAIR_RUN, Kind.PAIR_RUN)     # in their place under smack_down (6..24 cards)
_DEFAULT = Rules()


class Combo(NamedTuple):
    """A play: its kind, number of cards, the cards (ids, ascending) and its key.

    Keys of plays of the same size compare directly (higher beats lower); so do combos:
    ``a > b`` is True when `a` beats `b`. Comparing combos of different sizes is a TypeError."""

    kind: Kind
    size: int
    cards: tuple[int, ...]
    key: int

    def __str__(self) -> str:
        """``"straight 3d 4c 5h 6s 7d"``: cards in Big Two rank order, 3 first, 2 last."""
        return f"{self.kind} {' '.join(card_str(c) for c in sorted(self.cards, key=big_two_rank))}"

    def _other_key(self, other: object) -> int:
        if not isinstance(other, Combo):
            raise TypeError(f"a Combo compares only with a Combo, not {type(other).__name__}")
        if other.size != self.size:
            raise TypeError(f"a {self.size}-card play does not compare with a {other.size}-card play")
        return other.key

    def __lt__(self, other: object) -> bool:
        return self.key < self._other_key(other)

    def __le__(self, other: object) -> bool:
        return self.key <= self._other_key(other)

    def __gt__(self, other: object) -> bool:
        return self.key > self._other_key(other)

    def __ge__(self, other: object) -> bool:
        return self.key >= self._other_key(other)


class _Context(NamedTuple):
    """What the hot paths need of a ruleset, stashed on the Rules object."""
    rules: Rules
    tables: _bigtwo.Tables
    five_kinds: tuple[Kind, ...]
    sizes: tuple[int, ...]
    kinds: tuple[Kind, ...]            # by size for 1..4 cards, the five-card kinds, the run kinds
    plain: bool                        # a play follows one of its size with a lower key, only
    longest: int                       # the most cards a play may have


def resolve_rules(rules: RulesLike) -> Rules:
    if rules is None:
        return _DEFAULT
    if isinstance(rules, Rules):
        return rules
    if isinstance(rules, str):
        return Rules.preset(rules)
    raise TypeError(f"rules must be a bigtwo.Rules, a preset name or None, not {type(rules).__name__}")


def context(rules: RulesLike) -> _Context:
    r = resolve_rules(rules)
    try:
        cached: _Context = r.__dict__["_context"]
        return cached
    except KeyError:
        ctx = _Context(r, tables(r), r.five_card_kinds, r.sizes,
                       _SMALL_KINDS + r.five_card_kinds + (_PAIR_RUN_KINDS if r.smack_down else _RUN_KINDS),
                       plain(r), max(r.sizes))
        object.__setattr__(r, "_context", ctx)   # a cache, not a field: eq and hash ignore it
        return ctx


def make_combo(ctx: _Context, cards: tuple[int, ...], key: int) -> Combo:
    size = len(cards)
    if size > 5:
        kind = Kind.PAIR_RUN if ctx.rules.smack_down else _RUN_KINDS[size == 13]
    elif size == 5:
        kind = ctx.five_kinds[(key >> KIND_SHIFT) - 1]
    elif size == 4 and key <= TWO_PAIR4_TOP and ctx.rules.two_pair_size == 4:
        kind = Kind.TWO_PAIR
    elif size == 3 and key >> KIND_SHIFT:
        kind = Kind.THREE_CARD_STRAIGHT
    else:
        kind = _SMALL_KINDS[size]
    return tuple.__new__(Combo, (kind, size, cards, key))


def classify(cards: Cards | Combo, rules: RulesLike = None) -> Combo | None:
    """The combo that 1 to 5 cards (up to 13 where the rules allow long runs, 24 with runs of
    pairs) form under `rules` (default hk), or None when they form none.

    ``classify("Ks Kc").kind is Kind.PAIR``; 4 cards form a combo only when the rules let four of a
    kind or two pairs be played alone. Raises ValueError for bad or repeated cards, and for 0 or
    more cards than the rules' longest play (5, or 12 / 13 with `Rules.long_straights` /
    `Rules.dragon`, 24 with `Rules.smack_down`'s runs of pairs)."""
    ctx = context(rules)
    if isinstance(cards, Combo):
        cards = cards.cards
    ids = sorted(parse_cards(cards))
    if not 1 <= len(ids) <= ctx.longest:
        raise ValueError(f"a Big Two play has 1 to {ctx.longest} cards, got {len(ids)}")
    key = _bigtwo.key(ctx.tables, bytes(ids))
    return make_combo(ctx, tuple(ids), key) if key else None


def _as_combo(play: Cards | Combo, ctx: _Context, what: str) -> Combo:
    # a Combo stands for its cards: one built by hand is checked and classified like any cards
    combo = classify(play, ctx.rules)
    if combo is None:
        raise ValueError(f"{what} {play!r} is not a Big Two combo")
    return combo


def beats(play: Cards | Combo, current: Cards | Combo | None, rules: RulesLike = None) -> bool:
    """Whether `play` may be played on `current` (None: leading, any combo may be played): the same
    number of cards and a strictly higher key, or as the rules' bombs and five-card matching allow
    (`Rules.bombs_beat_small`, `four_beats_all`, `five_card_match`). A play that is no combo beats
    nothing."""
    ctx = context(rules)
    mine = classify(play, ctx.rules)
    if mine is None:
        return False
    if current is None:
        return not is_smack(ctx.rules, mine.size)
    theirs = _as_combo(current, ctx, "the combo to beat")
    return may_follow(ctx, mine, theirs)


def may_follow(ctx: _Context, play: Combo, current: Combo) -> bool:
    """Whether the combo `play` may be played on the combo `current` under the context's rules."""
    if ctx.plain:
        return play.size == current.size and play.key > current.key
    row = np.full((1, max(5, play.size)), 255, dtype=np.uint8)
    row[0, :play.size] = play.cards
    return bool(follows(ctx.rules, row, np.array([play.size]), np.array([play.key]),
                        (current.cards, current.size, current.key))[0])


def classify_batch(cards: npt.ArrayLike, rules: RulesLike = None, out: npt.NDArray[np.int32] | None = None,
                   threads: int | None = None) -> npt.NDArray[np.int32]:
    """Keys of the plays in an (N, k) integer array, k in {1, 2, 3, 5} (4 where the rules allow
    four-card plays, 6..12 and 13 where they allow long runs: one array per length), as an (N,)
    int32 array: 0 where the cards form no combo.

    The GIL is released; `threads` splits the rows over that many threads. A bad row (id outside
    0..51, repeated card) raises ValueError naming the row and the card; `out` is then unchanged."""
    ctx = context(rules)
    return _batch.evaluate(partial(_bigtwo.batch, ctx.tables), cards, ctx.sizes, out, threads,
                           "bigtwo.classify_batch", dtype=np.int32, checks_first=True)


# ----------------------------------------------------------------------------- legal moves
def _move_query(hand: Cards, current: Cards | Combo | None, must_include: str | int | None,
                ctx: _Context) -> tuple[Combo | None, int]:
    """The combo to beat and the bit set of the card every move must hold (0: none)."""
    combo = None if current is None else _as_combo(current, ctx, "the combo to beat")
    must = 0
    if must_include is not None:
        required = parse_card(must_include)
        if required not in parse_cards(hand):
            raise ValueError(f"must_include card {card_str(required)} is not in the hand")
        must = 1 << required
    return combo, must


def move_arrays(ctx: _Context, hand: Cards, current: Combo | None, must: int
                ) -> tuple[npt.NDArray[np.uint8], npt.NDArray[np.uint8], npt.NDArray[np.int32]]:
    """legal_move_arrays of a checked query."""
    if current is None:
        cards, sizes, keys = _bigtwo.moves(ctx.tables, hand, 0, 0, must)
        if ctx.rules.smack_down:                 # smacks never lead
            lead = ~smacks(ctx.rules, sizes)
            cards, sizes, keys = cards[lead], sizes[lead], keys[lead]
    elif ctx.plain:
        cards, sizes, keys = _bigtwo.moves(ctx.tables, hand, current.size, current.key, must)
    else:
        cards, sizes, keys = _bigtwo.moves(ctx.tables, hand, 0, 0, must)
        ok = follows(ctx.rules, cards, sizes, keys, (current.cards, current.size, current.key))
        cards, sizes, keys = cards[ok], sizes[ok], keys[ok]
    if ctx.rules.last_play != "any":             # a last-card rule may forbid emptying the hand
        ok = allowed_last(ctx.rules, cards, sizes, len(parse_cards(hand)))
        cards, sizes, keys = cards[ok], sizes[ok], keys[ok]
    return cards, sizes, keys


def move_list(ctx: _Context, hand: Cards, current: Combo | None, must: int) -> list[Combo]:
    """legal_moves of a checked query."""
    if current is None:
        moves = _bigtwo.combos(ctx.tables, hand, 0, 0, must, Combo, ctx.kinds)
        if ctx.rules.smack_down:                 # smacks never lead
            moves = [m for m in moves if not is_smack(ctx.rules, m.size)]
    elif ctx.plain:
        moves = _bigtwo.combos(ctx.tables, hand, current.size, current.key, must, Combo, ctx.kinds)
    else:
        # every move, kept where its row of the (equally ordered) arrays follows `current`
        cards, sizes, keys = _bigtwo.moves(ctx.tables, hand, 0, 0, must)
        ok = follows(ctx.rules, cards, sizes, keys, (current.cards, current.size, current.key))
        every = _bigtwo.combos(ctx.tables, hand, 0, 0, must, Combo, ctx.kinds)
        moves = [combo for combo, keep in zip(every, ok.tolist()) if keep]
    if ctx.rules.last_play != "any":             # a last-card rule may forbid emptying the hand
        left = len(parse_cards(hand))
        moves = [m for m in moves if m.size != left or not forbidden_last(ctx.rules, m.cards)]
    return moves


def legal_move_arrays(hand: Cards, current: Cards | Combo | None = None, rules: RulesLike = None,
                      must_include: str | int | None = None
                      ) -> tuple[npt.NDArray[np.uint8], npt.NDArray[np.uint8], npt.NDArray[np.int32]]:
    """The legal moves as arrays: (cards (M, w) uint8 with unused slots 255, sizes (M,), keys (M,)),
    in the order of `legal_moves` (by size, then key); w is the rules' longest play (5, or 12 / 13
    with long runs). Passing is not listed."""
    ctx = context(rules)
    return move_arrays(ctx, hand, *_move_query(hand, current, must_include, ctx))


def legal_moves(hand: Cards, current: Cards | Combo | None = None, rules: RulesLike = None,
                must_include: str | int | None = None) -> list[Combo]:
    """Every combo `hand` can play on `current` (same size, strictly higher key, or as `beats`
    allows under the rules), or every combo when leading (current None); with `must_include`, only
    those holding that card (the opening 3♦). A play that would empty the hand is left out where
    ``rules.last_play`` forbids it as a last play. Ordered by size, then key (weakest first); each
    combo once. Passing is not listed."""
    ctx = context(rules)
    return move_list(ctx, hand, *_move_query(hand, current, must_include, ctx))


def action_mask(hand: Cards, current: Cards | Combo | None = None, rules: RulesLike = None,
                must_include: str | int | None = None) -> npt.NDArray[np.bool_]:
    """The legal actions as a (8192,) bool mask for RL. Action `a` plays the cards of the hand
    (sorted by id, at most 13 cards) whose positions are the set bits of `a`; action 0 is the
    pass, legal only when there is a combo to beat."""
    ids = _action_hand(hand, "action_mask")
    cards, sizes, _ = legal_move_arrays(ids, current, rules, must_include)
    mask = np.zeros(ACTIONS, dtype=bool)
    position = np.full(256, 0, dtype=np.int64)
    position[ids] = 1 << np.arange(len(ids), dtype=np.int64)
    mask[position[cards].sum(axis=1)] = True          # unused slots (255) map to 0
    mask[0] = current is not None
    return mask


def _action_hand(hand: Cards, caller: str) -> list[int]:
    """The hand's ids sorted, the positions the actions of `action_mask` number."""
    ids = sorted(parse_cards(hand))
    if len(ids) > 13:
        raise ValueError(f"{caller} takes hands of at most 13 cards, got {len(ids)} "
                         "(bigtwo.ComboSpace serves hands of any size)")
    return ids


def action_cards(hand: Cards, action: int) -> list[int]:
    """The cards action `action` of `action_mask` plays from `hand` (read as `action_mask` reads
    it). An action naming a position the hand does not have is a ValueError: it is no action of
    this hand's mask."""
    ids = _action_hand(hand, "action_cards")
    if isinstance(action, bool) or not isinstance(action, (int, np.integer)) \
            or not 0 <= action < 1 << len(ids):
        raise ValueError(f"action must be an int in 0..{(1 << len(ids)) - 1} for a hand of "
                         f"{len(ids)} cards, got {action!r}")
    return [c for i, c in enumerate(ids) if action >> i & 1]


def card_strength(card_id: str | int, rules: RulesLike = None) -> int:
    """0 (lowest card) .. 51 (highest) in the Big Two order of `rules`; the card is an id or text
    (``"3d"``), checked as everywhere."""
    c = parse_card(card_id)
    r = resolve_rules(rules)
    return 4 * big_two_rank(c, r.twos_low) + r.suit_order.index(SUITS[c % 4])
