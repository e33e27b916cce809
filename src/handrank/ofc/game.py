"""One hand of OFC played street by street, for 2 to 4 players: the deal, the turns, the legal
placements, Fantasyland hands set at once, and the points of the finished boards."""
from __future__ import annotations

from handrank._threerow.board import Board, Cards
from handrank.cards import cards as parse_cards, hand_problem, hand_str
from handrank.ofc import actions
from handrank.ofc.board import fantasyland
from handrank.ofc.partial import CAPACITY, PartialBoard
from handrank.ofc.placement import IllegalPlacement, Placement
from handrank.ofc.placements import Placements
from handrank.ofc.rules import Rules, as_rules
from handrank.ofc._game import STREETS as _STREETS, GameCore
from handrank.ofc.seed import as_int
from handrank.ofc.solver import solve_fantasyland

__all__ = ["Game", "streets", "legal_placements", "next_street", "streets_to_come"]

DECK = 52


def streets(rules: Rules | str | None = None) -> tuple[tuple[int, int], ...]:
    """(cards dealt, cards discarded) of each street of a hand played street by street: classic
    5 then 1 at a time (9 deals); pineapple and deuce 5 then 3, one of them discarded (5 deals)."""
    return _STREETS[as_rules(rules).dealing == "classic"]



def streets_to_come(board: PartialBoard, rules: Rules | str | None = None) -> tuple[tuple[int, int], ...]:
    """The (cards dealt, cards discarded) of the streets still to come for `board`, told by how
    many cards it holds (ValueError for a count no street ends on: 6 cards in pineapple)."""
    rules = as_rules(rules)
    plan = streets(rules)
    held = 0
    for done, (dealt, discarded) in enumerate(plan):
        if held == len(board):
            return plan[done:]
        held += dealt - discarded
    if held == len(board):
        return ()
    raise ValueError(f"a board of {len(board)} cards is not reached street by street in "
                     f"{rules.dealing} dealing ({board})")


def next_street(board: PartialBoard, rules: Rules | str | None = None) -> tuple[int, int]:
    """(cards dealt, cards discarded) of the street `board` is dealt next (ValueError when the
    board is full or holds a count no street ends on)."""
    to_come = streets_to_come(board, rules)
    if not to_come:
        raise ValueError(f"the board {board} is full: no street is dealt to it")
    return to_come[0]


def legal_placements(board: PartialBoard, dealt: Cards, rules: Rules | str | None = None) -> Placements:
    """Every legal placement of the cards `dealt` on `board` (any card form), in the order of
    their actions (`ofc.actions`): rows not over-full and the street's discards (the first
    street places all 5 cards; a pineapple street places 2 of 3 and discards 1, a classic street
    places its 1 card). ValueError for the wrong number of cards or a card already on the board.

    The placements come as a `Placements` sequence, read like a list; each `Placement` is built
    when it is read, and ``.actions`` holds the action ids."""
    if not isinstance(board, PartialBoard):
        raise TypeError(f"legal_placements takes an ofc.PartialBoard, not {type(board).__name__}")
    ids = sorted(parse_cards(dealt))
    count, discards = next_street(board, rules)
    if len(ids) != count:
        raise ValueError(f"the board {board} is dealt {count} cards next, got {len(ids)} "
                         f"({hand_str(ids)})")
    problem = hand_problem(list(board.cards) + ids)
    if problem:
        raise ValueError(f"dealt {hand_str(ids)} on the board {board}: {problem}")
    return Placements(actions.legal_ids(count, board.free, discards), tuple(ids))


class Game(GameCore):
    """One hand of OFC for 2 to 4 players (at most 3 when dealing pineapple: discards leave the
    deck) from a deck shuffled by `seed`, or dealt from `deck` (the 52 cards in dealing order, as
    `ofc.vector.VectorEnv.decks` gives them).

    Players sit 0 .. players - 1; the first to act sits left of the `button` (``button + 1``) and
    every street goes round the table in that order. A player in Fantasyland (``fantasyland[p]``:
    the cards dealt, 0 for none) is dealt every card at their first turn and sets the whole board
    at once, face down until the hand is over; the others are dealt street by street (`streets`).
    Placements that the rules do not allow raise `IllegalPlacement` and change nothing."""

    # ------------------------------------------------------------------ queries
    @property
    def fantasyland_turn(self) -> bool:
        """Whether the player to act is in Fantasyland (sets a whole board at once)."""
        return self.turn is not None and self.fantasyland[self.turn] > 0

    def discards(self, player: int) -> tuple[int, ...]:
        """The cards `player` has discarded (known to that player only)."""
        return self._discarded(self._seat_of(player, "player"))

    def visible_board(self, player: int, viewer: int) -> PartialBoard:
        """`player`'s board as `viewer` sees it: a Fantasyland board stays face down (empty) to
        the others until the hand is over."""
        player, viewer = self._seat_of(player, "player"), self._seat_of(viewer, "viewer")
        if player != viewer and self.fantasyland[player] and not self.over:
            return PartialBoard()
        return self.boards[player]

    def unseen(self, viewer: int) -> tuple[int, ...]:
        """The cards `viewer` has not seen, ascending: on no board they see, not among their
        discards, not dealt to them now (what may still come, for `PartialBoard.is_dead`)."""
        viewer = self._seat_of(viewer, "viewer")
        seen = set(self._discarded(viewer))
        for player in range(self.players):
            seen.update(self.visible_board(player, viewer).cards)
        if self.turn == viewer:
            seen.update(self.dealt)
        return tuple(c for c in range(DECK) if c not in seen)

    def to_place(self) -> tuple[int, int]:
        """(cards to place, cards to discard) of the player to act."""
        self._check_not_over()
        if self.fantasyland_turn:
            return 13, len(self.dealt) - 13
        dealt, discarded = self.streets[self.street]
        return dealt - discarded, discarded

    def legal_placements(self) -> Placements:
        """Every legal placement of the dealt cards (rows not over-full; the right number of
        discards), in the order of their actions (`ofc.actions`), as a `Placements` sequence
        (read like a list; each `Placement` is built when read). A Fantasyland hand is set with
        `play` (a whole board) or `play_fantasyland`; its settings are not listed."""
        return Placements(self.legal_actions(), self.dealt)

    # ------------------------------------------------------------------ actions
    def play(self, placement: Placement) -> None:
        """Make `placement` for the player to act."""
        self._check_not_over()
        if not isinstance(placement, Placement):
            raise TypeError(f"play takes an ofc.Placement, not {type(placement).__name__}")
        player = self.turn
        assert player is not None
        placed, discarded = self.to_place()
        if sorted(placement.cards) != list(self.dealt):
            extra = sorted(set(placement.cards) - set(self.dealt))
            missing = sorted(set(self.dealt) - set(placement.cards))
            problems = ([f"{hand_str(extra)} not dealt"] if extra else []) + (
                [f"{hand_str(missing)} left out"] if missing else []) or ["a card twice"]
            raise IllegalPlacement(f"player {player} was dealt {hand_str(self.dealt)}: the placement "
                                   f"has {' and '.join(problems)}")
        if len(placement.discards) != discarded:
            raise IllegalPlacement(f"player {player} must discard {discarded} card(s), "
                                   f"got {len(placement.discards)}")
        for name, row, free, size in zip(("top", "middle", "bottom"), placement.rows, self._free(player), CAPACITY):
            if len(row) > free:
                raise IllegalPlacement(f"the {name} row of player {player} has {free} free "
                                       f"slot(s) of {size}; the placement adds {len(row)}")
        self._place(player, placement)

    def play_fantasyland(self) -> Placement:
        """Set the Fantasyland hand of the player to act with the exact solver (most royalties,
        plus the rules' `fantasyland_value` for staying); returns the placement made."""
        self._check_not_over()
        if not self.fantasyland_turn:
            raise IllegalPlacement(f"player {self.turn} is not in Fantasyland")
        best = solve_fantasyland(self.dealt, self.rules, self.rules.fantasyland_value)
        placement = Placement(best.board.top, best.board.middle, best.board.bottom, best.discards)
        self.play(placement)
        return placement

    # ------------------------------------------------------------------ the end
    def next_fantasyland(self) -> tuple[int, ...]:
        """The cards each player is dealt in Fantasyland next hand (0: none): entry for those
        who played street by street, stay for those in Fantasyland."""
        return tuple(fantasyland(board, self.rules, in_fantasyland=n > 0)
                     for board, n in zip(self._finished(), self.fantasyland))

    def values(self) -> list[float]:
        """The points plus the rules' `fantasyland_value` for each hand earning Fantasyland: what
        the decisions of the hand are worth, for bots and RL rewards."""
        bonus = self.rules.fantasyland_value
        return [p + (bonus if n else 0.0) for p, n in zip(self.points(), self.next_fantasyland())]

    # ------------------------------------------------------------------ internals
    def _seat_of(self, seat: object, name: str) -> int:
        """`seat` as a seat index; TypeError or ValueError naming `name` (no negative indexing)."""
        seat = as_int(seat)
        if isinstance(seat, bool) or not isinstance(seat, int):
            raise TypeError(f"{name} must be a seat (an int), not {type(seat).__name__}")
        if not 0 <= seat < self.players:
            raise ValueError(f"{name} must be a seat in 0..{self.players - 1}, got {seat}")
        return seat

    def _check_not_over(self) -> None:
        if self.turn is None:
            raise IllegalPlacement("the hand is over")

    def _finished(self) -> list[Board]:
        if not self.over:
            raise ValueError("the hand is not over yet")
        return [board.board() for board in self.boards]

    def __repr__(self) -> str:
        state = "over" if self.over else f"street {self.street + 1}, player {self.turn} to act"
        return f"<ofc.Game of {self.players} players ({self.rules.name}), {state}>"
