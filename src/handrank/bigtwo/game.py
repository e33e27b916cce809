"""A compact Big Two game state for bots and RL: deal, turns, tricks, the end and the payments."""
from __future__ import annotations

import operator
from bisect import insort
from collections.abc import Sequence
from functools import lru_cache
from typing import TYPE_CHECKING, Any, NamedTuple

import numpy as np

from handrank.bigtwo import _bigtwo
from handrank.bigtwo.actions import ComboSpace
from handrank.bigtwo.combo import (Cards, Combo, RulesLike, action_cards, action_mask, card_strength,
                                    context, legal_move_arrays, make_combo, may_follow, move_arrays,
                                    move_list)
from handrank.bigtwo.flow import forbidden_last, four_twos_holder, instant_result
from handrank.bigtwo.follow import is_smack
from handrank.bigtwo.rules import Rules
from handrank.bigtwo.scoring import payments
from handrank.cards import RANKS, SUITS, card_str, cards as parse_cards, hand_str

if TYPE_CHECKING:
    import numpy.typing as npt

__all__ = ["Game", "IllegalMove", "Turn"]

DEALS = ("thirteen", "all")
_TWO, _THREE = RANKS.index("2"), RANKS.index("3")     # card ids are 4 * rank + suit


@lru_cache(maxsize=None)
def _strengths(rules: Rules) -> tuple[int, ...]:
    """card_strength of every card id under `rules` (a deal looks up every card: the table makes
    dealing several times faster)."""
    return tuple(card_strength(c, rules) for c in range(52))


@lru_cache(maxsize=None)
def _weakest_first(rules: Rules) -> tuple[int, ...]:
    """Every card id, the lowest under `rules` first (the first leader holds the first one dealt)."""
    return tuple(sorted(range(52), key=_strengths(rules).__getitem__))


class IllegalMove(ValueError):
    """An action the rules do not allow now; the game state is unchanged."""


class Turn(NamedTuple):
    """One entry of `Game.history`: who acted and what they played (None: a pass)."""
    player: int
    combo: Combo | None


class Game:
    """One game of Big Two for 2 to 4 players.

    ``deal``: with 4 players every player gets 13 cards. With 2 or 3 players, ``"thirteen"``
    (default) deals 13 cards each and leaves the rest out (with 3 players that is the text's
    "ghost hand"); ``"all"`` deals the whole deck (26 each, or 17 each with the 52nd card placed as
    ``rules.extra_card`` says: by default to the holder of the lowest card dealt). The holder of
    the lowest card in play (3♦ in hk) leads the first trick with a play holding it, unless
    ``leader`` names the player who leads it with any play (a `bigtwo.Match` game after the first). ``hands`` deals the given hands
    (one per player: ids, text or card strings) instead of shuffling, as a `bigtwo.Match` does
    after the president's exchange; ``undealt`` then gives the cards dealt to no one, top card
    first (the stock under ``rules.draw_on_pass``; by default every card outside the hands,
    shuffled from `seed` where they are a stock). ``play_out=True`` (with ``hands``): the hands
    are what the players still holding cards have left of a game played on, as in a
    `bigtwo.Match` play-out, with ``undealt`` what that game left (its stock, say): nothing is
    decided at the deal again (four 2s, a dragun, the trade), and dragon rules keep holding for
    the two players left of a three-player whole-deck deal. Play passes to the next player
    (``(turn + 1) % players``, or ``turn - 1`` under ``rules.direction == "anticlockwise"``,
    skipping those out of
    the trick under ``rules.passing``); when every other player has passed the last player to play
    leads a new trick. The first player to shed every card wins and the game ends; the rules may
    end it at the deal (`outcome`). Invalid actions raise `IllegalMove` and leave the state
    unchanged."""

    def __init__(self, players: int = 4, rules: RulesLike = None, seed: int | np.random.Generator | None = None,
                 deal: str = "thirteen", *, leader: int | None = None,
                 hands: Sequence[Cards] | None = None, undealt: Cards | None = None,
                 play_out: bool = False) -> None:
        players = player_count(players)
        if deal not in DEALS:
            raise ValueError(f"deal must be one of {DEALS}, got {deal!r}")
        if leader is not None:
            seat = _whole_number(leader)
            if seat is None or not 0 <= seat < players:
                raise ValueError(f"leader must be None or a player 0..{players - 1}, got {leader!r}")
            leader = seat
        if hands is None and (undealt is not None or play_out):
            raise ValueError(f"{'undealt' if undealt is not None else 'play_out'} goes with hands: "
                             "a shuffled deal is a new deal, with its own undealt cards")
        if not isinstance(play_out, bool):
            raise TypeError(f"play_out must be a bool, got {play_out!r}")
        rng = deal_generator(seed)
        self._ctx = context(rules)
        self.rules = self._ctx.rules
        #: the rules the game is played by: `rules`, with the 2s lowest (``twos_low``) once a
        #: bomb is dealt under ``rules.dealt_bomb``
        self.play_rules = self.rules
        # the play-out of that game, by the two players left, is still the game the dragon is of
        if self.rules.dragon and (players, deal) != (3, "all") and not (play_out and deal == "all"):
            raise ValueError("Rules.dragon is the three-player game dealt 17 cards each: "
                             "Game(players=3, deal='all'), or its play-out "
                             "(Game(players=2, deal='all', hands=..., play_out=True))")
        self.players = players
        self.deal = deal
        # the seat-to-seat step of ``rules.direction``: +1 clockwise, -1 anticlockwise
        self._step = 1 if self.rules.direction == "clockwise" else -1
        #: the player who leads the first trick with any play; None: the holder of the lowest card
        self.leader = leader
        #: the combo to beat; None when the player to act leads
        self.to_beat: Combo | None = None
        #: passes in a row since the last play
        self.passes: int = 0
        #: whether the combo to beat led its trick (``rules.three_threes_force`` reads it)
        self.led: bool = False
        #: bit set of the players out of the current trick (``rules.passing == "out_of_trick"``)
        self.out_of_trick: int = 0
        self.winner: int | None = None
        #: the player who lost at the deal (a dragun holding a pair of 3s), else None
        self.loser: int | None = None
        #: why the game ended: None while it runs, "out" (the winner shed every card), "four_twos"
        #: or "dragun" (won at the deal; a draw when "four_twos" has no winner), "dragun_bla_bajd"
        #: (`loser` lost at the deal), "stalemate" (a draw: no player may lead any card)
        self.outcome: str | None = None
        #: the holder of the lowest card decides whether to swap it for the extra card (`trade`)
        self.pending_trade = False
        self.history: list[Turn] = []
        #: the lowest card in play, which may be the extra card of a whole-deck deal: its holder
        #: leads, and the first play must hold it; None when `leader` leads with any play
        self.opening_card: int | None = None
        self.turn = self.last_player = 0          # set when the deal is settled (_open)
        self.hands: list[list[int]]
        self.undealt: list[int]
        if hands is None:
            self._deal(rng)
            while self.rules.four_twos == "redeal" and four_twos_holder(self.hands) is not None:
                self._deal(rng)
        else:
            self.hands = _given_hands(hands, players)
            rest = self._given_undealt(undealt, rng)
            self.undealt = rest if self._stock else sorted(rest)
        if play_out:                    # the deal was settled in the game played on
            self._first_leader()
        else:
            self._open()

    def _deal(self, rng: np.random.Generator) -> None:
        """Shuffle and deal: `hands`, and `undealt` (sorted; in drawing order under
        ``rules.draw_on_pass``), the extra card of a three-player whole-deck deal placed by the rules."""
        deck: list[int] = rng.permutation(52).tolist()
        per_player = 13 if self.deal == "thirteen" or self.players == 4 else 52 // self.players
        extra_card = self.rules.extra_card if self.deal == "all" and 52 % self.players else None
        if extra_card == "remove_lowest":         # the lowest card, not a dealt one, stays out
            deck.remove(self.rules.lowest_card)
            deck.append(self.rules.lowest_card)
        self.hands = [sorted(deck[i * per_player:(i + 1) * per_player]) for i in range(self.players)]
        rest = deck[self.players * per_player:]
        holder = self._extra_card_holder() if extra_card else None
        if holder is not None:
            self.hands[holder] = sorted(self.hands[holder] + rest)
            rest = []
        self.undealt = rest if self._stock else sorted(rest)

    def _given_undealt(self, undealt: Cards | None, rng: np.random.Generator) -> list[int]:
        """The undealt cards of a game dealt the given `hands`: `undealt` in its order, or every
        card outside the hands, in the order of a shuffle when they are a stock to draw from."""
        in_hands = {c for hand in self.hands for c in hand}
        if undealt is None:
            rest = [c for c in range(52) if c not in in_hands]
            return [rest[i] for i in rng.permutation(len(rest)).tolist()] if self._stock else rest
        try:
            rest = parse_cards(undealt)
        except (TypeError, ValueError) as e:
            raise type(e)(f"undealt: {e}") from None
        dealt = sorted(in_hands.intersection(rest))
        if dealt:
            raise ValueError(f"undealt holds {hand_str(dealt)}, dealt to a hand too")
        return rest

    @property
    def _stock(self) -> bool:
        """Whether the undealt cards are a stock to draw from (``rules.draw_on_pass``, 13 cards
        dealt each to 2 or 3 players: with 4 players there is none, and the cards put aside in a
        whole-deck deal are never drawn)."""
        return self.rules.draw_on_pass and self.deal == "thirteen" and self.players < 4

    def _extra_card_holder(self) -> int | None:
        """Who receives the extra card under ``rules.extra_card``: the holder of the lowest card
        dealt, of the highest or of the lowest diamond (the next one when that card is the extra
        card itself); None when it goes to no one (discarded, removed, or offered in a trade)."""
        mode = self.rules.extra_card
        strength = _strengths(self.rules).__getitem__
        dealt = [c for hand in self.hands for c in hand]
        if mode == "lowest":
            card = min(dealt, key=strength)
        elif mode == "highest":
            card = max(dealt, key=strength)
        elif mode == "lowest_diamond":
            card = min((c for c in dealt if SUITS[c % 4] == "d"), key=strength)
        else:
            return None
        return next(i for i, hand in enumerate(self.hands) if card in hand)

    def _open(self) -> None:
        """Settle the deal's instant result, or the trade, or who leads the first trick."""
        result = instant_result(self.rules, self.hands)
        if result is not None:
            self._end_at_deal(*result)
        elif self.rules.extra_card == "trade" and self._extra_card_to_trade():
            self.pending_trade = True
            self.turn = self.last_player = next(i for i, h in enumerate(self.hands)
                                                if self.rules.lowest_card in h)
            return
        self._first_leader()

    def _extra_card_to_trade(self) -> bool:
        """Whether this is a deal of the whole deck to three players, 17 cards each and one
        undealt, and a player holds the lowest card to trade for it."""
        return (self.players == 3 and self.deal == "all" and len(self.undealt) == 1
                and [len(hand) for hand in self.hands] == [17, 17, 17]
                and any(self.rules.lowest_card in hand for hand in self.hands))

    def _first_leader(self) -> None:
        if self.rules.dealt_bomb and any(_holds_four(hand) for hand in self.hands):
            self._ctx = context(self.rules.replace(twos_low=True))
            self.play_rules = self._ctx.rules
        lowest, holder = next((card, i) for card in _weakest_first(self.play_rules)   # (usually the first)
                              for i, hand in enumerate(self.hands) if card in hand)
        self.opening_card = lowest if self.leader is None else None
        self.turn = holder if self.leader is None else self.leader
        self.last_player = self.turn

    def _end_at_deal(self, outcome: str, player: int) -> None:
        self.outcome = outcome
        if outcome == "dragun_bla_bajd":
            self.loser = player
        elif not (outcome == "four_twos" and self.rules.four_twos == "draw"):
            self.winner = player

    def trade(self, accept: bool) -> None:
        """Under ``rules.extra_card == "trade"`` (three players dealt the whole deck), the holder
        of the lowest card (the player to act, `pending_trade`) swaps it for the extra card or
        keeps it; the card not taken stays out. Then the holder of the lowest card in play (3♣ in
        hk after a swap) or `leader` leads."""
        if not self.pending_trade:
            raise IllegalMove("there is no trade to decide")
        if not isinstance(accept, bool):
            raise TypeError(f"accept must be a bool, got {accept!r}")
        if accept:                              # one card for one card
            lowest, (extra,) = self.rules.lowest_card, self.undealt
            self.hands[self.turn] = sorted([c for c in self.hands[self.turn] if c != lowest] + [extra])
            self.undealt = [lowest]
        self.pending_trade = False
        self._first_leader()

    # ------------------------------------------------------------------ queries
    @property
    def over(self) -> bool:
        return self.outcome is not None

    @property
    def first_play(self) -> bool:
        return not self.history

    @property
    def can_pass(self) -> bool:
        """Whether the player to act may pass: when there is a combo to beat, or when leading
        with nothing the last-card rule lets them play."""
        if self.outcome is not None or self.pending_trade:
            return False
        if self.to_beat is not None:
            return not (self.rules.three_threes_force and self._must_answer_threes())
        return self._stuck(self.turn)

    def _must_answer_threes(self) -> bool:
        """``rules.three_threes_force``: the player right after a lead of three 3s holds three 2s
        and has no other legal play, so may not pass."""
        beat = self.to_beat
        if beat is None or not self.led or self.passes or beat.size != 3 \
                or any(c // 4 != _THREE for c in beat.cards):
            return False
        moves = self.legal_moves()
        return bool(moves) and all(c // 4 == _TWO for m in moves for c in m.cards)

    def _stuck(self, player: int) -> bool:
        """Whether `player`, leading, could play nothing: their one card may not be a last play.
        (With two cards or more a single that keeps another card is always allowed.)"""
        hand = self.hands[player]
        return len(hand) == 1 and forbidden_last(self.play_rules, hand)

    def hand(self, player: int | None = None) -> list[int]:
        """The cards of `player` (default: the player to act), sorted by id."""
        return list(self.hands[self.turn if player is None else player])

    def _query(self) -> tuple[list[int], Combo | None, int | None]:
        if self.outcome is not None or self.pending_trade:
            raise IllegalMove(self._why_not_now())
        return self.hands[self.turn], self.to_beat, None if self.history else self.opening_card

    def _lone_opening(self, must: int | None) -> bool:
        """Whether the play to make is the first, the opening card alone (``rules.opening``)."""
        return must is not None and self.rules.opening == "alone"

    def legal_moves(self) -> list[Combo]:
        """Every combo the player to act may play (weakest first); passing is `pass_()`."""
        hand, to_beat, must = self._query()
        moves = move_list(self._ctx, hand, to_beat, 0 if must is None else 1 << must)
        return [m for m in moves if m.size == 1] if self._lone_opening(must) else moves

    def legal_move_arrays(self) -> tuple[npt.NDArray[np.uint8], npt.NDArray[np.uint8], npt.NDArray[np.int32]]:
        """`legal_moves` as arrays (see bigtwo.legal_move_arrays)."""
        hand, to_beat, must = self._query()
        cards, sizes, keys = legal_move_arrays(hand, to_beat, self.play_rules, must)
        if self._lone_opening(must):
            cards, sizes, keys = cards[sizes == 1], sizes[sizes == 1], keys[sizes == 1]
        return cards, sizes, keys

    def action_mask(self, space: ComboSpace | None = None) -> npt.NDArray[np.bool_]:
        """The legal actions as a bool mask: over `space` (a ComboSpace of this game's rules, any
        hand size), or by default the (8192,) mask of bigtwo.action_mask (hands of <= 13 cards)."""
        if space is None:
            hand, to_beat, must = self._query()
            mask = action_mask(hand, to_beat, self.play_rules, must)
            if must is not None and self._lone_opening(must):   # of the plays holding it, the card alone
                alone = 1 << hand.index(must)
                singles = np.zeros_like(mask)
                singles[alone] = mask[alone]
                mask = singles
            mask[0] = self.can_pass
        else:
            mask = np.zeros(self._checked(space).size, dtype=bool)
            self._mark(space, mask)
        return mask

    def _mark(self, space: ComboSpace, out: npt.NDArray[np.bool_] | npt.NDArray[np.int8]) -> None:
        """Set to 1 the entries of `out` (zeros, one per action of `space`, a ComboSpace of the
        rules) at the legal actions, the pass included (the RL environment's mask on every turn)."""
        hand, to_beat, must = self._query()
        if self.play_rules is self.rules and (must is None or self.rules.opening == "holding"):
            space._mark(hand, to_beat, 0 if must is None else 1 << must, out)
        else:   # a dealt bomb (the same card sets as combos, ordered otherwise) or a lone opening
            cards, sizes, _ = move_arrays(self._ctx, hand, to_beat, 0 if must is None else 1 << must)
            if self._lone_opening(must):
                cards = cards[sizes == 1]
            out[space._actions_of(cards[:, :5])] = 1
        if to_beat is not None:
            if not (self.rules.three_threes_force and self._must_answer_threes()):
                out[0] = 1
        elif self._stuck(self.turn):
            out[0] = 1

    def _why_not_now(self) -> str:
        if self.pending_trade:
            return (f"player {self.turn} must first accept or decline the trade of "
                    f"{card_str(self.rules.lowest_card)} for the extra card (Game.trade)")
        if self.outcome == "out":
            return f"the game is over: player {self.winner} won"
        return f"the game is over at the deal or in a draw ({self.outcome})"

    # ------------------------------------------------------------------ actions
    def play(self, combo: Combo | Cards) -> Combo:
        """Play `combo` (a Combo or cards) for the player to act; returns the Combo played."""
        hand, _, _ = self._query()
        try:                # a Combo stands for its cards: one built by hand is checked too
            ids = sorted(parse_cards(combo.cards if isinstance(combo, Combo) else combo))
        except ValueError as e:
            raise IllegalMove(str(e)) from None
        missing = [c for c in ids if c not in hand]
        if missing:
            raise IllegalMove(f"player {self.turn} does not hold {hand_str(missing)}")
        key = _bigtwo.key(self._ctx.tables, bytes(ids)) if 1 <= len(ids) <= self._ctx.longest else 0
        if not key:
            raise IllegalMove(f"{hand_str(ids) or 'no cards'} is not a Big Two combo")
        played = make_combo(self._ctx, tuple(ids), key)
        refusal = self._refusal(played)
        if refusal:
            raise IllegalMove(refusal)
        self._apply(played)
        return played

    def _refusal(self, played: Combo) -> str:
        """Why the player to act may not play `played`, a Combo of the rules made of cards they
        hold ("" when they may)."""
        must = None if self.history else self.opening_card
        if must is not None and must not in played.cards:
            return f"the first play must include {card_str(must)}"
        if must is not None and played.size > 1 and self.rules.opening == "alone":
            return f"the first play is {card_str(must)} alone (rules.opening='alone')"
        if self.to_beat is not None and not may_follow(self._ctx, played, self.to_beat):
            return f"{played} does not beat {self.to_beat}"
        if self.to_beat is None and is_smack(self.rules, played.size):
            return (f"{played} is a smack-down, played only on a single {card_str(self.rules.highest_card)} "
                    "(rules.smack_down)")
        if played.size == len(self.hands[self.turn]) and forbidden_last(self.play_rules, played.cards):
            return f"{played} may not be the last play (rules.last_play={self.rules.last_play!r})"
        return ""

    def _allows(self, played: Combo) -> bool:
        """Whether the player to act may play `played`, a Combo of the rules (the RL environment's
        check of an action: `play` without reading cards)."""
        hand = self.hands[self.turn]
        for card in played.cards:               # (a loop: all() over a generator costs more)
            if card not in hand:
                return False
        return not self._refusal(played)

    def _rekeyed(self, combo: Combo) -> Combo:
        """`combo`, a Combo of `rules`, keyed under `play_rules` (after a dealt bomb: the same
        cards form a combo of the same kind, ordered otherwise)."""
        return make_combo(self._ctx, combo.cards, _bigtwo.key(self._ctx.tables, bytes(combo.cards)))

    def _apply(self, played: Combo) -> None:
        """Play `played`, a move the caller knows legal (`play` has checked it, or `_allows`)."""
        remaining = [c for c in self.hands[self.turn] if c not in played.cards]
        self.hands[self.turn] = remaining
        self.history.append(tuple.__new__(Turn, (self.turn, played)))   # (Turn() is a Python call)
        self.led = self.to_beat is None
        self.to_beat = played
        self.last_player = self.turn
        self.passes = 0
        if not remaining:
            self.winner = self.turn
            self.outcome = "out"
        else:
            self.turn = self._next_player()

    def play_action(self, action: int, space: ComboSpace | None = None) -> Combo | None:
        """Play action `action` of `action_mask(space)` (0: pass); returns the Combo, or None for a
        pass."""
        if action == 0:
            self.pass_()
            return None
        try:
            cards = (action_cards(self.hands[self.turn], action) if space is None
                     else self._checked(space).cards(action))
        except ValueError as e:
            raise IllegalMove(str(e)) from None
        return self.play(cards)

    def _checked(self, space: ComboSpace) -> ComboSpace:
        if space.rules is not self.rules and space.rules != self.rules:
            raise ValueError("the action space was built for other rules than this game's")
        return space

    def pass_(self) -> None:
        """Pass. Illegal when leading a trick, unless the last-card rule leaves nothing to lead."""
        if self.outcome is not None or self.pending_trade:
            raise IllegalMove(self._why_not_now())
        if self.to_beat is None:
            if not self._stuck(self.turn):
                raise IllegalMove(f"player {self.turn} leads the trick and cannot pass")
            self._record_pass()
            self._pass_the_lead()
            return
        if self.rules.three_threes_force and self._must_answer_threes():
            raise IllegalMove(f"player {self.turn} holds three 2s and nothing else to play on the "
                              "lead of three 3s (rules.three_threes_force)")
        self._record_pass()
        self.passes += 1
        if self.rules.passing == "out_of_trick":
            self.out_of_trick |= 1 << self.turn
        if self._trick_over():
            self._new_trick()
        else:
            self.turn = self._next_player()

    def _record_pass(self) -> None:
        """Log the pass; under ``rules.draw_on_pass`` the passer draws the stock's top card."""
        self.history.append(tuple.__new__(Turn, (self.turn, None)))
        if self.undealt and self._stock:
            insort(self.hands[self.turn], self.undealt.pop(0))

    def _trick_over(self) -> bool:
        """Whether the pass just made ends the trick under ``rules.passing``: every other player
        has passed (in a row, or each once when passing puts a player out of the trick), or any
        pass at all under "ends_trick"."""
        passing = self.rules.passing
        if passing == "out_of_trick":
            return bin(self.out_of_trick).count("1") == self.players - 1
        return passing == "ends_trick" or self.passes == self.players - 1

    def _next_player(self) -> int:
        """The next player in turn (``rules.direction``) who is still in the trick."""
        step = self._step
        player = (self.turn + step) % self.players
        while self.out_of_trick >> player & 1:
            player = (player + step) % self.players
        return player

    def _new_trick(self) -> None:
        """Every other player has passed (or one pass ends the trick): the last player to play
        leads a new trick, with everyone in it."""
        self.to_beat = None
        self.passes = 0
        self.out_of_trick = 0
        self.turn = self.last_player

    def _pass_the_lead(self) -> None:
        """A leader with nothing to play hands the lead to the next player; when no player may
        lead any card, the game is a draw."""
        self.turn = (self.turn + self._step) % self.players
        if all(self._stuck(p) for p in range(self.players)):
            self.outcome = "stalemate"

    # ------------------------------------------------------------------ the end
    def payments(self) -> list[int]:
        """What each player receives or pays (bigtwo.payments, by the whole-deck thresholds when
        three players were dealt the whole deck); the game must be over. A win at the deal is paid
        for every card the others hold; a dragun holding a pair of 3s pays each other player what
        a loser holding it pays; a draw pays nothing."""
        if self.outcome is None:
            raise IllegalMove("the game is not over")
        whole_deck = self.deal == "all"
        if self.outcome == "out":
            last = self.history[-1].combo
            return payments(self.hands, self.rules, winning_play=last, whole_deck=whole_deck)
        if self.winner is not None:
            return payments([[] if i == self.winner else h for i, h in enumerate(self.hands)],
                            self.rules, whole_deck=whole_deck)
        if self.loser is not None:
            owed = payments([[], self.hands[self.loser]], self.rules)[0]
            return [-owed * (self.players - 1) if i == self.loser else owed for i in range(self.players)]
        return [0] * self.players

    def copy(self) -> Game:
        """An independent copy of the state (for search and RL rollouts)."""
        clone = object.__new__(Game)
        clone.__dict__.update(self.__dict__)
        clone.hands = [list(h) for h in self.hands]
        clone.undealt = list(self.undealt)
        clone.history = list(self.history)
        return clone

    def __getstate__(self) -> dict[str, Any]:
        return {k: v for k, v in self.__dict__.items() if k != "_ctx"}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)
        self._ctx = context(self.play_rules)

    def __repr__(self) -> str:
        state = (f"turn={self.turn}, to_beat={self.to_beat}" if not self.over else
                 f"winner={self.winner}" if self.outcome == "out" else f"outcome={self.outcome!r}")
        counts = [len(h) for h in self.hands]
        return f"Game(players={self.players}, cards={counts}, {state})"


def player_count(players: int) -> int:
    """`players` checked: 2 to 4, a Python or numpy int."""
    count = _whole_number(players)
    if count is None or not 2 <= count <= 4:
        raise ValueError(f"Big Two has 2 to 4 players, got {players!r}")
    return count


def _whole_number(value: Any) -> int | None:
    """`value` as a Python int when it is an int or a numpy integer (never a bool), else None."""
    if isinstance(value, (bool, np.bool_)):
        return None
    try:
        return operator.index(value)
    except TypeError:
        return None


def deal_generator(seed: int | np.random.Generator | None) -> np.random.Generator:
    """The random generator of deals: a numpy Generator is used as it is; None is fresh
    entropy; else a seed as numpy takes one (an int >= 0)."""
    if isinstance(seed, (bool, np.bool_)):
        raise TypeError("seed must be None, an int >= 0 or a numpy Generator, not bool")
    if isinstance(seed, (int, np.integer)) and seed < 0:
        raise ValueError(f"seed must be None, an int >= 0 or a numpy Generator, got {seed}")
    try:
        return np.random.default_rng(seed)
    except (TypeError, ValueError) as e:
        raise type(e)(f"seed must be None, an int >= 0 or a numpy Generator, got {seed!r} ({e})") from None


def _holds_four(hand: Sequence[int]) -> bool:
    """Whether a hand holds four of a kind (a dealt bomb)."""
    counts = [0] * 13
    for card in hand:
        counts[card // 4] += 1
    return 4 in counts


def _given_hands(hands: Sequence[Cards], players: int) -> list[list[int]]:
    """The `hands=` of a Game: one non-empty hand per player, no card twice."""
    if isinstance(hands, str) or len(hands) != players:
        raise ValueError(f"hands must hold one hand for each of the {players} players")
    given = [sorted(parse_cards(hand)) for hand in hands]
    seen: set[int] = set()
    for i, hand in enumerate(given):
        if not hand:
            raise ValueError(f"hands[{i}] is empty")
        twice = seen.intersection(hand)
        if twice:
            raise ValueError(f"hands[{i}] holds {hand_str(sorted(twice))}, dealt to an earlier hand too")
        seen.update(hand)
    return given
