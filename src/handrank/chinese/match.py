"""The game to 11 (seeds/001: "Another variation scores the game 1 point per hand, with the winner
of the game being the first to 11 points. If a player wins all 3 hands and there are 4 players,
the winning player gets a 4th point."): `eleven_points` scores one deal, `Match` plays deals at a
table until a player wins.

A deal's points are not units paid between players: each row goes to the player whose row beats
every other player's (``rules`` decide how rows compare: ``low_middle``, ``wheel_second``), one
point each, and with four players a fourth point to a player who takes all three rows. Royalties,
the scoring (1-6, 2-4) and the scoop bonus take no part. A natural wins the deal: the player whose
natural beats every other one takes the three rows (and the fourth point with four players); when
no natural beats all the others, the deal scores nothing. A surrendered player, and a mis-set hand
unless ``mis_set_played``, takes no row; the others' rows are compared among themselves.
"""
from __future__ import annotations

from collections.abc import Collection, Sequence
from typing import Any

import numpy as np

from handrank.cards import hand_str
from handrank.chinese.naturals import compare_naturals, natural
from handrank.chinese.rules import Rules, as_rules
from handrank.chinese.scoring import _players, as_setting, evaluate_batch
from handrank._threerow.board import _check_one_deck

__all__ = ["Match", "eleven_points", "TARGET"]

TARGET = 11
ROWS = 3


def eleven_points(settings: Sequence[Any], rules: Rules | str | None = None,
                  surrendered: Collection[int] = ()) -> list[int]:
    """The points of each of 2 to 4 players in one deal of the game to 11 (see the module)."""
    players = [as_setting(s) for s in settings]
    if not 2 <= len(players) <= 4:
        raise ValueError(f"chinese.eleven_points takes 2 to 4 settings, got {len(players)}")
    rules = as_rules(rules)
    gave_up = _players(surrendered, len(players))
    if gave_up and not rules.surrender_allowed:
        raise ValueError(f"chinese.eleven_points: players {sorted(gave_up)} surrendered but these "
                         f"rules do not allow surrender (Rules.surrender_allowed)")
    _check_one_deck(players)
    sweep = ROWS + (len(players) == 4)
    naturals = [natural(p.cards, rules) for p in players]
    holders = [i for i, n in enumerate(naturals) if n is not None]
    points = [0] * len(players)
    if holders:
        for i in holders:
            mine = naturals[i]
            assert mine is not None
            if all(compare_naturals(mine, theirs) > 0
                   for j, theirs in enumerate(naturals) if j != i and theirs is not None):
                points[i] = sweep
        return points
    found = evaluate_batch(np.array([p.cards for p in players], dtype=np.uint8), rules, threads=1)
    in_play = [i for i in range(len(players))
               if i not in gave_up and (rules.mis_set_played or not found.mis_set[i])]
    won = [0] * len(players)
    for row in range(ROWS):
        values = {i: int(found.values[i, row]) for i in in_play}
        best = max(values.values(), default=None)
        leaders = [i for i, v in values.items() if v == best]
        if len(leaders) == 1:
            won[leaders[0]] += 1
    return [w + (w == ROWS and len(players) == 4) for w in won]


class Match:
    """The game to 11 at a table of 2 to 4 players: each deal is dealt from `seed` (a match
    replays exactly); ``match.hands`` are the players' 13 cards, ``match.play(settings)`` scores
    their settings of them (`eleven_points`), adds the points to ``match.scores`` and deals the
    next hand.

    The match ends after the first deal at which a player has `target` points or more (an
    overshoot counts: 12 after a deal that began at 9 wins) and more points than every other
    player. Two or more players level at the top with `target` or more play on, deal by deal,
    until one leads alone."""

    def __init__(self, players: int = 2, rules: Rules | str | None = None,
                 seed: int | np.random.Generator | None = None, target: int = TARGET) -> None:
        for name, value in (("players", players), ("target", target)):
            if isinstance(value, bool) or not isinstance(value, int):
                raise TypeError(f"{name} must be an int, got {value!r}")
        if not 2 <= players <= 4:
            raise ValueError(f"a game to 11 has 2 to 4 players, got {players}")
        if target < 1:
            raise ValueError(f"target must be at least 1, got {target}")
        self.rules = as_rules(rules)
        self.players = players
        self.target = target
        self._rng = np.random.default_rng(seed)
        self.scores = [0] * players
        #: the points of each deal played, oldest first
        self.results: list[list[int]] = []
        self.hands: list[tuple[int, ...]] = []
        self._deal()

    @property
    def winner(self) -> int | None:
        """The player who won the match, or None while it is on."""
        best = max(self.scores)
        leaders = [i for i, s in enumerate(self.scores) if s == best]
        return leaders[0] if best >= self.target and len(leaders) == 1 else None

    @property
    def over(self) -> bool:
        return self.winner is not None

    def play(self, settings: Sequence[Any], surrendered: Collection[int] = ()) -> list[int]:
        """Score the players' settings of ``self.hands`` (one each, in seat order), add the points
        and deal the next hand; the deal's points. ValueError once the match is over, or for a
        setting that is not its player's cards; nothing changes then."""
        if self.over:
            raise ValueError(f"the match is over: player {self.winner} won")
        boards = [as_setting(s) for s in settings]
        if len(boards) != self.players:
            raise ValueError(f"this match has {self.players} players, got {len(boards)} settings")
        for p, (board, hand) in enumerate(zip(boards, self.hands)):
            if sorted(board.cards) != list(hand):
                raise ValueError(f"setting {p} ({board}) is not the cards dealt to player {p}: "
                                 f"{hand_str(hand)}")
        points = eleven_points(boards, self.rules, surrendered)
        self.results.append(points)
        self.scores = [s + p for s, p in zip(self.scores, points)]
        if not self.over:
            self._deal()
        return points

    def _deal(self) -> None:
        deck = self._rng.permutation(52)
        self.hands = [tuple(sorted(int(c) for c in deck[13 * p:13 * p + 13]))
                      for p in range(self.players)]

    def __repr__(self) -> str:
        state = f"player {self.winner} won" if self.over else "on"
        return (f"<chinese.Match to {self.target} of {self.players} players ({self.rules.name}), "
                f"{len(self.results)} deals, scores {self.scores}, {state}>")
