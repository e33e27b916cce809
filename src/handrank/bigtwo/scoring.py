"""The end of a game of Big Two (RULES.md): the losers pay for the cards they still hold, or the
players are ranked by the order they went out, or two teams compare the cards they hold."""
from __future__ import annotations

import operator
from collections.abc import Iterable, Sequence
from typing import NamedTuple, SupportsIndex, Union

import numpy as np

from handrank.bigtwo.combo import Cards, Combo, RulesLike, classify, context, legal_move_arrays
from handrank.bigtwo.rules import Kind, Rules
from handrank.bigtwo.tables import KIND_SHIFT
from handrank.cards import cards as parse_cards

__all__ = ["payments", "holds_bonus", "is_bonus_play", "TeamResult", "team_result", "finish_points"]

_BONUS_KINDS = (Kind.FOUR, Kind.FOUR_OF_A_KIND, Kind.STRAIGHT_FLUSH)


def _has_two(ids: Iterable[int]) -> bool:
    return any(c < 4 for c in ids)         # card ids 0..3 are the twos


def is_bonus_play(play: Cards | Combo, rules: RulesLike = None) -> bool:
    """Whether a play holds a 2, or is four of a kind or a straight flush."""
    combo = classify(play, rules)          # (a Combo built by hand is checked like any cards)
    if combo is None:
        raise ValueError(f"the winning play {play!r} is not a Big Two combo")
    return _has_two(combo.cards) or combo.kind in _BONUS_KINDS


def holds_bonus(hand: Cards, rules: RulesLike = None) -> bool:
    """Whether a hand still holds a 2, four of a kind or a straight flush."""
    ids = parse_cards(hand)
    if _has_two(ids):
        return True
    ranks = [c // 4 for c in ids]
    if any(ranks.count(r) == 4 for r in set(ranks)):
        return True
    ctx = context(rules)
    if Kind.STRAIGHT_FLUSH not in ctx.five_kinds or len(ids) < 5:
        return False
    straight_flush = ctx.five_kinds.index(Kind.STRAIGHT_FLUSH) + 1
    _, _, keys = legal_move_arrays(ids, None, ctx.rules)
    return bool(((keys >> KIND_SHIFT) == straight_flush).any())


def _card_count(held: SupportsIndex | Cards) -> int:
    if isinstance(held, (list, tuple, str)):     # a hand, as a Game gives them: no protocol check
        return len(parse_cards(held))
    if isinstance(held, np.ndarray):    # card ids, or a count as a 0-d array: both have __index__
        held = held.tolist()
    if isinstance(held, SupportsIndex):
        return operator.index(held)
    return len(parse_cards(held))


def payments(cards_left: Sequence[Union[SupportsIndex, Cards]], rules: RulesLike = None, *,
             winning_play: Cards | Combo | None = None,
             bonus_held: Sequence[bool] | None = None, twos_held: Sequence[int] | None = None,
             whole_deck: bool = False) -> list[int]:
    """What each player receives (the winner, holding 0 cards) or pays (negative) at the end.

    `cards_left[i]` is player i's card count or remaining hand. Each loser pays 1 per card, times
    ``rules.double_multiplier`` (2) from ``rules.double_at`` cards, times ``rules.triple_multiplier``
    (3) from ``rules.triple_at``; with `whole_deck` (three players dealt the whole deck, 17 cards
    each: ``Game(3, deal="all")``) from ``rules.whole_deck_double_at`` (12) and
    ``rules.whole_deck_triple_at`` (17). With ``rules.double_held``
    a loser who still holds a 2, four of a kind or a straight flush pays double (`bonus_held[i]`
    says so, or it is read from the hand); with ``rules.double_winning_play`` every payment doubles
    when `winning_play` held a 2, four of a kind or a straight flush. Each 2 a loser still holds
    multiplies their payment by ``rules.unplayed_two_multiplier`` (`twos_held[i]` counts them, or
    they are read from the hand). These are the points of ``rules.scoring == "points"``; the other
    scorings are `finish_points` and `team_result`, which `bigtwo.Match` applies.
    ``payments([0, 3, 11, 8]) == [33, -3, -22, -8]``; ``payments([0, 16, 11], whole_deck=True)
    == [43, -32, -11]``."""
    r: Rules = context(rules).rules
    if any(isinstance(c, bool) for c in cards_left):
        raise TypeError("cards_left holds card counts or hands, not bools")
    counts = [_card_count(c) for c in cards_left]
    if not 2 <= len(counts) <= 4:
        raise ValueError(f"Big Two has 2 to 4 players, got {len(counts)}")
    if any(c < 0 for c in counts):
        raise ValueError(f"card counts must be >= 0, got {counts}")
    winners = [i for i, c in enumerate(counts) if c == 0]
    if len(winners) != 1:
        raise ValueError(f"exactly one player (the winner) must hold 0 cards, got {counts}")
    if bonus_held is not None and len(bonus_held) != len(counts):
        raise ValueError(f"bonus_held has {len(bonus_held)} entries for {len(counts)} players")
    if twos_held is not None and len(twos_held) != len(counts):
        raise ValueError(f"twos_held has {len(twos_held)} entries for {len(counts)} players")
    if not isinstance(whole_deck, bool):
        raise TypeError(f"whole_deck must be a bool, got {whole_deck!r}")
    double_at, triple_at = ((r.whole_deck_double_at, r.whole_deck_triple_at) if whole_deck and len(counts) == 3
                            else (r.double_at, r.triple_at))
    everyone = 2 if r.double_winning_play and winning_play is not None and is_bonus_play(winning_play, r) else 1
    result = []
    for i, (count, left) in enumerate(zip(counts, cards_left)):
        if count == 0:
            result.append(0)
            continue
        pay = count * (r.triple_multiplier if count >= triple_at else
                       r.double_multiplier if count >= double_at else 1) * everyone
        if r.double_held:
            held = bonus_held[i] if bonus_held is not None else (
                not isinstance(left, SupportsIndex) and holds_bonus(left, r))
            if held:
                pay *= 2
        if r.unplayed_two_multiplier > 1:
            pay *= r.unplayed_two_multiplier ** _twos(i, left, twos_held)
        result.append(-pay)
    result[winners[0]] = -sum(result)
    return result


def _twos(player: int, left: SupportsIndex | Cards, twos_held: Sequence[int] | None) -> int:
    """How many 2s a loser still holds: `twos_held[player]`, or read from the hand."""
    if twos_held is not None:
        twos = twos_held[player]
        if isinstance(twos, bool) or not isinstance(twos, int) or not 0 <= twos <= 4:
            raise ValueError(f"twos_held[{player}] must be a count 0..4, got {twos!r}")
        return twos
    if isinstance(left, np.ndarray):
        left = left.tolist()
    if isinstance(left, SupportsIndex):
        raise ValueError("Rules.unplayed_two_multiplier counts the 2s a loser holds: give the "
                         "losers' hands, or twos_held, not card counts")
    return sum(c < 4 for c in parse_cards(left))    # card ids 0..3 are the twos


class TeamResult(NamedTuple):
    """The end of a 2-against-2 game: the cards held by team 0 (players 0 and 2, partners sit
    opposite) and team 1 (players 1 and 3), and the team holding fewer (None on a tie, which a
    five-card shootout settles)."""
    totals: tuple[int, int]
    winner: int | None

    def points(self) -> list[int]:
        """Per player: 1 for each player of the winning team, -1 for each loser (0 on a tie)."""
        if self.winner is None:
            return [0, 0, 0, 0]
        return [1 if seat % 2 == self.winner else -1 for seat in range(4)]


def team_result(cards_left: Sequence[Union[SupportsIndex, Cards]]) -> TeamResult:
    """Team play (``Rules.scoring == "teams"``): `cards_left[i]` is player i's card count or hand
    when one player has gone out; the team holding fewer cards in all wins, whoever went out.
    ``team_result([4, 10, 5, 0]) == TeamResult((9, 10), 0)``."""
    if any(isinstance(c, bool) for c in cards_left):
        raise TypeError("cards_left holds card counts or hands, not bools")
    counts = [_card_count(c) for c in cards_left]
    if len(counts) != 4:
        raise ValueError(f"team play has 4 players, got {len(counts)}")
    if any(c < 0 for c in counts) or counts.count(0) != 1:
        raise ValueError(f"exactly one player (who went out) must hold 0 cards, the others more: got {counts}")
    totals = (counts[0] + counts[2], counts[1] + counts[3])
    return TeamResult(totals, None if totals[0] == totals[1] else int(totals[1] < totals[0]))


def finish_points(order: Sequence[int]) -> list[int]:
    """Ranking by finishing order (``Rules.scoring == "finish_order"``): `order` lists the players
    as they went out, the last one left at the end; each scores the number of players who went
    out after them (the first out n - 1, the last 0): ``finish_points([3, 1, 0, 2]) == [1, 2, 0, 3]``."""
    players = len(order)
    if sorted(order) != list(range(players)) or not 2 <= players <= 4:
        raise ValueError(f"order must list each of 2 to 4 players once, got {list(order)}")
    points = [0] * players
    for place, player in enumerate(order):
        points[player] = players - 1 - place
    return points
