"""A match of many OFC hands: `Match` carries the running scores, who is in Fantasyland and the
button from one `Game` to the next."""
from __future__ import annotations

import numpy as np

from handrank.ofc.game import Game
from handrank.ofc.rules import Rules, as_rules
from handrank.ofc.seed import check_seed

__all__ = ["Match"]


class Match:
    """Hands of OFC played one after another at one table.

    ``match.game`` is the hand in play; once it is over, ``match.next_hand()`` adds its points to
    ``match.scores``, deals each player the Fantasyland hand their board earned (entry, or stay
    for those who played in Fantasyland) and moves the button one seat left, except into a
    Fantasyland hand when ``button_stays_in_fantasyland`` (the default): a Fantasyland hand is
    "the extension of a previous hand" (seeds 000 and 002), dealt with the button of the hand
    that earned it, and the button moves on after it as usual (RULES.md, "Decisions added after
    review"). With False the button moves every hand.
    Each hand's deck comes from `seed`, so a match replays exactly."""

    def __init__(self, players: int = 2, rules: Rules | str | None = None,
                 seed: int | np.random.Generator | None = None, button: int = 0,
                 button_stays_in_fantasyland: bool = True) -> None:
        if not isinstance(button_stays_in_fantasyland, bool):
            raise TypeError("button_stays_in_fantasyland must be a bool")
        self.rules = as_rules(rules)
        self.button_stays_in_fantasyland = button_stays_in_fantasyland
        self._rng = np.random.default_rng(check_seed(seed))
        self.game = self._deal(players, button, None)
        self.players = self.game.players
        self.scores = [0] * self.players
        #: the points of each hand played, oldest first
        self.results: list[list[int]] = []

    @property
    def hands_played(self) -> int:
        return len(self.results)

    def next_hand(self) -> Game:
        """Score the finished hand and deal the next one (ValueError while the hand is on)."""
        game = self.game
        if not game.over:
            raise ValueError("the hand is not over yet")
        points = game.points()
        fantasyland = game.next_fantasyland()
        # "It's common for the button not to move": the hand that earned Fantasyland keeps its
        # button for the Fantasyland hand (a stay earns another such hand, with it again)
        stays = self.button_stays_in_fantasyland and any(fantasyland)
        button = game.button if stays else (game.button + 1) % self.players
        self.game = self._deal(self.players, button, fantasyland)
        self.results.append(points)
        self.scores = [s + p for s, p in zip(self.scores, points)]
        return self.game

    def _deal(self, players: int, button: int, fantasyland: tuple[int, ...] | None) -> Game:
        seed = int(self._rng.integers(2 ** 63))
        return Game(players, self.rules, seed, button, fantasyland)

    def __repr__(self) -> str:
        return (f"<ofc.Match of {self.players} players ({self.rules.name}), "
                f"{self.hands_played} hands, scores {self.scores}>")
