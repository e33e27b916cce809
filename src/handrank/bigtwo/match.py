"""Big Two matches: games played one after another at one table, with running scores, the next
leader, play-outs to a full finishing order, team shootouts and the president's card exchange."""
from __future__ import annotations

import copy
from collections.abc import Callable, Sequence
from typing import NamedTuple, Optional

import numpy as np

from handrank.bigtwo.combo import Cards, RulesLike, card_strength, context
from handrank.bigtwo.game import DEALS, Game, deal_generator, player_count
from handrank.bigtwo.rules import Rules
from handrank.bigtwo.scoring import TeamResult, finish_points, team_result
from handrank.cards import cards as parse_cards, hand_str

__all__ = ["Match", "GameResult", "Gift", "president_exchange", "SHOOTOUT_CARDS"]

SHOOTOUT_CARDS = 5
STAGES = ("game", "play_out", "shootout")

#: the president's choice under ``Rules.president_chooses``: given their hand (ids, after
#: receiving the scum's cards) and how many cards to give, the cards they give
PresidentGift = Callable[[list[int], int], Cards]


class GameResult(NamedTuple):
    """One game of a match. `points`: what each seat scored (payments, finish points or the team
    result's points, by ``Rules.scoring``); `order`: the seats as they went out (every seat when
    the game was played out, else the winner alone); `teams`: under team play, the result that
    decided (the last shootout's after a tie); `shootouts`: how many five-card shootouts it took."""
    points: list[int]
    order: tuple[int, ...]
    teams: Optional[TeamResult]
    shootouts: int


class Gift(NamedTuple):
    """Cards handed over in the president's exchange before a game."""
    giver: int
    receiver: int
    cards: tuple[int, ...]


class Match:
    """Games of Big Two played one after another at one table, with running scores.

    ``match.game`` is the game in play; players are ``match.seats[i]`` for its player ``i`` (the
    identity, except in a play-out). Once it is over, ``match.next_game()`` returns the next game
    to play, which is, by ``match.stage``:

    - ``"play_out"``: the same game played on by those still holding cards (their hands as they
      were, a new trick led as ``Rules.play_out_lead`` says: by default by the next player after
      the one who went out), until one is left; it continues the deal (``Game(play_out=True)``:
      its stock is what the game left, and nothing is decided at the deal again);
      under ``Rules.scoring == "finish_order"`` or ``Rules.president_exchange``, which need the
      whole finishing order;
    - ``"shootout"``: under team play, after a tie in the team totals: four new hands of
      `SHOOTOUT_CARDS`, played as a game (the holder of the lowest card leads), whose team totals
      decide the tied game, again until there is no tie (a shootout drawn at the deal or in a
      stalemate leaves the tie as it was);
    - ``"game"``: the next game, after the finished one was scored (``match.results``,
      ``match.scores``). With ``Rules.winner_leads_next`` the first out of the previous game leads
      it with any play; with ``Rules.president_exchange`` the cards change hands first (see
      `president_exchange`; ``match.gifts`` lists them), the president's gift chosen by
      `president_gift` under ``Rules.president_chooses`` (default: the lowest cards).

    A game that ends at the deal without a winner (a draw, or a dragun holding a pair of 3s) is
    scored by its payments under points scoring, else 0 each, and the next game is dealt with
    neither an exchange nor a winner to lead; a play-out that ends in a stalemate places the players
    left in seat order.

    Every deal comes from `seed`, so a match replays exactly; a match pickles (with a
    `president_gift` defined at module level)."""

    def __init__(self, players: int = 4, rules: RulesLike = None, seed: int | np.random.Generator | None = None,
                 deal: str = "thirteen", president_gift: PresidentGift | None = None) -> None:
        self.rules: Rules = context(rules).rules
        players = player_count(players)
        if self.rules.scoring == "teams" and players != 4:
            raise ValueError(f"Rules.scoring 'teams' is played by 4 players (2 against 2), got {players}")
        if deal not in DEALS:
            raise ValueError(f"deal must be one of {DEALS}, got {deal!r}")
        if president_gift is not None and not callable(president_gift):
            raise TypeError(f"president_gift must be callable, got {president_gift!r}")
        if president_gift is not None and not self.rules.president_chooses:
            raise ValueError("president_gift needs Rules.president_chooses=True")
        self.players = players
        self.deal = deal
        self.president_gift = president_gift
        self._rng = deal_generator(seed)
        self.scores = [0] * players
        #: the result of each game played, oldest first
        self.results: list[GameResult] = []
        #: the president's exchange before the game in play (empty before the first game)
        self.gifts: list[Gift] = []
        self.game = Game(players, self.rules, _seed(self._rng), deal)
        self.seats: tuple[int, ...] = tuple(range(players))
        self.stage = "game"
        self._order: list[int] = []                          # seats out so far in this game
        self._first_out: list[int] | TeamResult | None = None   # payments or team result then
        self._shootouts = 0

    @property
    def games_played(self) -> int:
        return len(self.results)

    def next_game(self) -> Game:
        """The game to play once ``match.game`` is over (ValueError while it is on): its
        play-out, a shootout, or the next game (see the class)."""
        game = self.game
        if not game.over:
            raise ValueError("the game is not over yet")
        rules = self.rules
        if game.winner is None:
            if self.stage == "game":    # drawn, or lost at the deal: no finishing order to play out
                points = game.payments() if rules.scoring == "points" else [0] * self.players
                return self._next_deal([], points)
            if self.stage == "play_out":    # a stalemate: the players left place in seat order
                return self._next_deal(self._order + list(self.seats), self._first_out)
        # the order the game's players went out in (a shootout decides the teams, not the order)
        out = [] if game.winner is None or self.stage == "shootout" else [self.seats[game.winner]]
        order = self._order + out
        first_out = self._first_out
        if self.stage == "game":
            first_out = (game.payments() if rules.scoring == "points" else
                         team_result(_cards_left(game)) if rules.scoring == "teams" else None)
        if self.stage == "shootout":
            if game.winner is not None:     # a drawn shootout leaves the tie as it was: another one
                first_out = team_result(_cards_left(game))
        elif rules.scoring == "finish_order" or rules.president_exchange:
            assert game.winner is not None      # only a shootout gets here without one
            rest = [(game.winner + k) % game.players for k in range(1, game.players)]
            if len(rest) > 1:
                # the next player after the one out, in ``rules.direction`` (`rest` is in seat order)
                leader = (0 if rules.direction == "clockwise" else len(rest) - 1) \
                    if rules.play_out_lead == "next" else None                  # else the lowest card
                # the same deal played on, by its rules in play (a dealt bomb's 2s stay low): what
                # was played stays out, and the stock is what is left of it
                play_out = Game(len(rest), game.play_rules.replace(dealt_bomb=False), deal=game.deal,
                                hands=[game.hands[p] for p in rest], leader=leader,
                                undealt=game.undealt, play_out=True)
                self._start(play_out, tuple(self.seats[p] for p in rest), "play_out", order, first_out)
                return play_out
            order.append(self.seats[rest[0]])
        if isinstance(first_out, TeamResult) and first_out.winner is None:
            hands = self._rng.permutation(52)[:4 * SHOOTOUT_CARDS].reshape(4, SHOOTOUT_CARDS).tolist()
            self._shootouts += 1
            shootout = Game(4, rules, hands=hands)
            self._start(shootout, tuple(range(4)), "shootout", order, first_out)
            return shootout
        return self._next_deal(order, first_out)

    def _next_deal(self, order: list[int], first_out: list[int] | TeamResult | None) -> Game:
        rules = self.rules
        points = (first_out if isinstance(first_out, list) else
                  first_out.points() if isinstance(first_out, TeamResult) else finish_points(order))
        rng = copy.deepcopy(self._rng)      # kept only once the deal stands (president_gift may fail)
        dealt = Game(self.players, rules, _seed(rng), self.deal)
        gifts: list[Gift] = []
        hands = dealt.hands
        if rules.president_exchange and len(order) == self.players:     # not after a draw
            hands, gifts = president_exchange(hands, order, rules, self.president_gift)
        leader = order[0] if rules.winner_leads_next and order else None
        game = dealt if not gifts and leader is None else Game(self.players, rules, deal=self.deal, hands=hands,
                                                               leader=leader, undealt=dealt.undealt)
        result = GameResult(points, tuple(order), first_out if isinstance(first_out, TeamResult) else None,
                            self._shootouts)
        # nothing above changed the match: a failing president_gift leaves it as it was
        self.results.append(result)
        self.scores = [s + p for s, p in zip(self.scores, points)]
        self.gifts = gifts
        self._rng = rng
        self._shootouts = 0
        self._start(game, tuple(range(self.players)), "game", [], None)
        return game

    def _start(self, game: Game, seats: tuple[int, ...], stage: str, order: list[int],
               first_out: list[int] | TeamResult | None) -> None:
        self.game, self.seats, self.stage = game, seats, stage
        self._order, self._first_out = order, first_out

    def __repr__(self) -> str:
        return (f"<bigtwo.Match of {self.players} players, {self.games_played} games, "
                f"scores {self.scores}, {self.stage} in play>")


def _cards_left(game: Game) -> list[list[int]]:
    """The hands of a won game, the winner's empty: a win at the deal counts as going out."""
    return [[] if player == game.winner else hand for player, hand in enumerate(game.hands)]


def _seed(rng: np.random.Generator) -> int:
    return int(rng.integers(2 ** 63))


def president_exchange(hands: Sequence[Sequence[int]], order: Sequence[int], rules: RulesLike = None,
                       president_gift: PresidentGift | None = None) -> tuple[list[list[int]], list[Gift]]:
    """The exchange before a game of the president variation (``Rules.president_exchange``):
    `order` lists the players as they went out in the previous game (president first, scum last).
    The scum gives their 2 highest cards to the president and receives the president's 2 lowest;
    with 4 players the vice-scum (third out) gives their highest card to the vice-president (second
    out) and receives their lowest. Under ``Rules.president_chooses`` the president gives any 2
    cards after receiving: ``president_gift(hand, 2)``, or by default the 2 lowest. Returns the new
    hands (sorted ids) and the gifts; `hands` is not changed."""
    r = context(rules).rules
    new = [sorted(parse_cards(list(hand))) for hand in hands]
    if sorted(order) != list(range(len(new))):
        raise ValueError(f"order must list each of the {len(new)} players once, got {list(order)}")

    def by_strength(ids: list[int]) -> list[int]:
        return sorted(ids, key=lambda c: card_strength(c, r))

    pairs = [(order[0], order[-1], 2)] + ([(order[1], order[-2], 1)] if len(order) == 4 else [])
    gifts = []
    for i, (high, low, count) in enumerate(pairs):
        up = by_strength(new[low])[-count:]
        if r.president_chooses and i == 0:
            received = sorted(new[high] + up)
            down = (by_strength(received)[:count] if president_gift is None
                    else _chosen(president_gift(list(received), count), received, count))
        else:
            down = by_strength(new[high])[:count]
        # up first, then down: a card the president chooses to hand back returns to the giver
        kept = [c for c in new[low] if c not in up]
        new[high] = sorted(c for c in new[high] + up if c not in down)
        new[low] = sorted(kept + down)
        gifts += [Gift(low, high, tuple(sorted(up))), Gift(high, low, tuple(sorted(down)))]
    return new, gifts


def _chosen(choice: Cards, hand: list[int], count: int) -> list[int]:
    try:
        ids = parse_cards(choice)
    except (TypeError, ValueError) as e:
        raise ValueError(f"president_gift must give {count} cards of the president's hand: {e}") from None
    if len(ids) != count or len(set(ids)) != count or not set(ids) <= set(hand):
        raise ValueError(f"president_gift must give {count} cards of the president's hand "
                         f"{hand_str(hand)}, got {choice!r}")
    return ids
