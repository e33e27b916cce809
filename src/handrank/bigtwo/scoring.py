"""End-of-game payments in Big Two (RULES.md): the losers pay for the cards they still hold."""
from __future__ import annotations

import operator
from collections.abc import Iterable, Sequence
from typing import SupportsIndex, Union

import numpy as np

from handrank.bigtwo.combo import Cards, Combo, RulesLike, classify, context, legal_move_arrays
from handrank.bigtwo.rules import Kind, Rules
from handrank.bigtwo.tables import KIND_SHIFT
from handrank.cards import cards as parse_cards

__all__ = ["payments", "holds_bonus", "is_bonus_play"]

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
    if isinstance(held, np.ndarray):    # card ids, or a count as a 0-d array: both have __index__
        held = held.tolist()
    if isinstance(held, SupportsIndex):
        return operator.index(held)
    return len(parse_cards(held))


def payments(cards_left: Sequence[Union[SupportsIndex, Cards]], rules: RulesLike = None, *,
             winning_play: Cards | Combo | None = None,
             bonus_held: Sequence[bool] | None = None, whole_deck: bool = False) -> list[int]:
    """What each player receives (the winner, holding 0 cards) or pays (negative) at the end.

    `cards_left[i]` is player i's card count or remaining hand. Each loser pays 1 per card, times
    ``rules.double_multiplier`` (2) from ``rules.double_at`` cards, times ``rules.triple_multiplier``
    (3) from ``rules.triple_at``; with `whole_deck` (three players dealt the whole deck, 17 cards
    each: ``Game(3, deal="all")``) from ``rules.whole_deck_double_at`` (12) and
    ``rules.whole_deck_triple_at`` (17). With ``rules.double_held``
    a loser who still holds a 2, four of a kind or a straight flush pays double (`bonus_held[i]`
    says so, or it is read from the hand); with ``rules.double_winning_play`` every payment doubles
    when `winning_play` held a 2, four of a kind or a straight flush.
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
        result.append(-pay)
    result[winners[0]] = -sum(result)
    return result
