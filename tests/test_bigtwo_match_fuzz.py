"""Random Big Two matches under every rule of the deal, the play flow and the payments, mixed at
random (2 to 4 players, both deals), checked as issue 27's review checked them: no card is dealt
or played twice in a deal (its play-outs included), every stock is what the rules say (shuffled,
drawn from the top only, carried into the play-outs, none with 4 players or a whole-deck deal),
every action mask holds exactly the legal moves, and every payment sums to zero. Derandomised:
the same matches on every run (about ten seconds on one core). A failure names the match's seed
and rules: `run_match` replays it."""
from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass, field
from typing import Optional

import numpy as np

from handrank.bigtwo import ComboSpace, Game, Match, Rules, finish_points
from handrank.bigtwo.rules import EXTRA_CARDS, FOUR_TWOS, LAST_PLAYS, PASSINGS, PLAY_OUT_LEADS

from bigtwo_support import play_out

MATCHES = 150
TEAM_MATCHES = 60
GAMES = 2                       # games scored per match (each with its play-outs and shootouts)
MOST_NEXT_GAMES = 40            # a bound on next_game() calls: ties and stalemates end


def random_table(rng: random.Random, teams: bool = False) -> tuple[int, str, Rules]:
    """Players, deal and rules: every field that changes the deal, the flow or the payments
    (`teams`: four players scored as two teams)."""
    players, deal = 4 if teams else rng.randint(2, 4), rng.choice(["thirteen", "all"])
    exchange = rng.random() < 0.5
    double_at, whole_deck_double_at = rng.randint(1, 14), rng.randint(1, 18)
    rules = Rules(
        suit_order=rng.choice(["dchs", "cdhs", "cshd"]),
        dragon=players == 3 and deal == "all" and rng.random() < 0.5,
        double_at=double_at, triple_at=rng.randint(double_at, 14),
        double_multiplier=rng.randint(1, 3), triple_multiplier=rng.randint(1, 4),
        whole_deck_double_at=whole_deck_double_at,
        whole_deck_triple_at=rng.randint(whole_deck_double_at, 18),
        unplayed_two_multiplier=rng.randint(1, 2),
        double_held=rng.random() < 0.5, double_winning_play=rng.random() < 0.5,
        scoring="teams" if teams else rng.choice(["points", "finish_order"] + ["teams"] * (players == 4)),
        play_out_lead=rng.choice(PLAY_OUT_LEADS),
        winner_leads_next=rng.random() < 0.5, president_exchange=exchange,
        president_chooses=exchange and rng.random() < 0.5,
        passing=rng.choice(PASSINGS), extra_card=rng.choice(EXTRA_CARDS),
        draw_on_pass=rng.random() < 0.6, last_play=rng.choice(LAST_PLAYS),
        four_twos=rng.choice(FOUR_TWOS), dragun=rng.random() < 0.5)
    return players, deal, rules


def held(game: Game) -> list[int]:
    return [c for hand in game.hands for c in hand]


@dataclass
class Referee:
    """Watches the games of one match action by action (`watch`, through bigtwo_support's
    play_out) and between games (`deal_checked`, `play_out_checked`)."""
    rules: Rules
    players: int                                    # seats at the table
    deal: str
    space: Optional[ComboSpace]
    played: set[int] = field(default_factory=set)   # played in this deal, its play-outs included
    # the cards of this deal out of the game unplayed: a hand that won at the deal (four 2s, a dragun)
    won_unplayed: set[int] = field(default_factory=set)
    draws: bool = False                             # whether a pass draws from this deal's stock
    stage: str = "game"
    before: Optional[tuple[int, list[list[int]], list[int], bool]] = None
    seen: Counter[str] = field(default_factory=Counter)   # what was checked, to show it was

    # ------------------------------------------------------------------ between games
    def deal_checked(self, game: Game, stage: str) -> None:
        """A new deal (a game or a shootout): the cards and stock its rules give."""
        self.played, self.won_unplayed, self.before, self.stage = set(), set(), None, stage
        self.seen[stage] += 1
        self.seen["over at the deal"] += game.over
        self.seen["trade offered"] += game.pending_trade
        rules, n = self.rules, game.players
        sizes = sorted(len(h) for h in game.hands)
        assert sorted(held(game) + game.undealt) == list(range(52))
        if stage == "shootout":
            assert sizes == [5] * 4 and game.undealt == sorted(game.undealt)
            self.draws = False
            return
        assert n == self.players
        self.draws = rules.draw_on_pass and self.deal == "thirteen" and n < 4
        if self.deal == "thirteen" or n == 4:
            assert sizes == [13] * n and len(game.undealt) == 52 - 13 * n
            if self.draws:              # the deal's shuffled order (sorted by chance: 1 in 13!)
                assert game.undealt != sorted(game.undealt)
            else:
                assert game.undealt == sorted(game.undealt)
        elif n == 2:
            assert sizes == [26, 26] and game.undealt == []
        elif rules.extra_card in ("lowest", "highest", "lowest_diamond"):
            assert sizes == [17, 17, 18] and game.undealt == []
        else:
            assert sizes == [17, 17, 17] and len(game.undealt) == 1
            if rules.extra_card == "remove_lowest":
                assert game.undealt == [rules.lowest_card]
        assert game.pending_trade == (rules.extra_card == "trade" and n == 3 and self.deal == "all"
                                      and not game.over and game.undealt != [rules.lowest_card])

    def play_out_checked(self, finished: Game, game: Game, seats: tuple[int, ...]) -> None:
        """A play-out: the players still holding cards, their hands and the stock as the game
        left them; the cards played stay out."""
        assert game.players == finished.players - 1 and finished.winner is not None
        self.won_unplayed.update(finished.hands[finished.winner])      # empty unless won at the deal
        assert not self.won_unplayed & self.played
        rest = [(finished.winner + k) % finished.players for k in range(1, finished.players)]
        assert game.hands == [finished.hands[p] for p in rest]
        assert game.undealt == finished.undealt and game.deal == finished.deal
        assert not game.pending_trade and not game.over
        assert not (self.played | self.won_unplayed) & set(held(game) + game.undealt)
        assert len(seats) == game.players
        self.before, self.stage = None, "play_out"
        self.seen["play_out"] += 1
        self.seen["play_out of a dragon game"] += self.rules.dragon

    # ------------------------------------------------------------------ action by action
    def watch(self, game: Game) -> None:
        hands, undealt = [list(h) for h in game.hands], list(game.undealt)
        if self.before is not None:
            self._step_checked(game)
        self.before = (len(game.history), hands, undealt, game.pending_trade)
        gone = self.played | self.won_unplayed
        assert len(gone) + len(held(game)) + len(undealt) == 52 and not gone & set(held(game) + undealt)
        if not game.over and not game.pending_trade:
            self._masks_checked(game)
        if game.over:
            assert sum(game.payments()) == 0

    def _step_checked(self, game: Game) -> None:
        steps, hands, undealt, trading = self.before
        if trading and not game.pending_trade:          # the trade: one card for one card
            assert len(game.history) == steps and [len(h) for h in game.hands] == [len(h) for h in hands]
            if game.hands != hands:
                assert game.undealt == [self.rules.lowest_card] and len(undealt) == 1
                assert self.rules.lowest_card not in held(game) and undealt[0] in held(game)
                self.seen["trade accepted"] += 1
            return
        assert len(game.history) == steps + 1
        player, combo = game.history[-1]
        others = [h for i, h in enumerate(game.hands) if i != player]
        assert others == [h for i, h in enumerate(hands) if i != player]
        if combo is None:                               # a pass: a draw from the top, or none
            drawn = undealt[:1] if self.draws else []
            assert game.hands[player] == sorted(hands[player] + drawn)
            assert game.undealt == undealt[len(drawn):]
            self.seen[f"draw in a {self.stage}"] += len(drawn)
        else:
            assert set(combo.cards) <= set(hands[player]) and not self.played & set(combo.cards)
            assert game.hands[player] == sorted(set(hands[player]) - set(combo.cards))
            assert game.undealt == undealt
            self.played.update(combo.cards)

    def _masks_checked(self, game: Game) -> None:
        """Both action masks hold exactly the legal moves (and the pass when it is legal)."""
        moves = game.legal_moves()
        passing = {0} if game.can_pass else set()
        hand = game.hand()
        if len(hand) <= 13:
            expected = {sum(1 << hand.index(c) for c in m.cards) for m in moves} | passing
            assert set(np.flatnonzero(game.action_mask()).tolist()) == expected
        if self.space is not None:
            expected = {self.space.action(m.cards) for m in moves} | passing
            assert set(np.flatnonzero(game.action_mask(self.space)).tolist()) == expected
        self.seen["mask"] += 1


def points_checked(match: Match, result, first: Game) -> None:
    """A game's points by `Rules.scoring`; `first`: the game of the deal (before any play-out)."""
    rules, n = match.rules, match.players
    if rules.scoring == "points":
        assert result.points == first.payments() and sum(result.points) == 0
    elif first.winner is None:                          # a draw or a loss at the deal
        assert result.points == [0] * n and result.order == ()
    elif rules.scoring == "finish_order":
        assert sorted(result.order) == list(range(n)) and result.points == finish_points(list(result.order))
    else:
        assert sorted(result.points) == [-1, -1, 1, 1] and result.points[0] == result.points[2]
    played_out = first.winner is not None and (rules.scoring == "finish_order" or rules.president_exchange)
    if first.winner is not None:
        assert sorted(result.order) == (list(range(n)) if played_out else [first.winner])


def run_match(players: int, deal: str, rules: Rules, seed: int, games_to_play: int = GAMES) -> Counter[str]:
    """Play a match of `games_to_play` games under the referee; returns what the referee saw."""
    chooser = random.Random(seed)
    gift = (lambda hand, count: chooser.sample(hand, count)) if rules.president_chooses else None
    match = Match(players, rules, seed=seed, deal=deal, president_gift=gift)
    referee = Referee(rules, players, deal, None if rules.dragon else ComboSpace(rules))
    referee.deal_checked(match.game, "game")
    first, games = match.game, 0
    while match.games_played < games_to_play and games < MOST_NEXT_GAMES:
        finished = match.game
        play_out(finished, chooser, referee.watch)
        results = len(match.results)
        game = match.next_game()
        games += 1
        if match.stage == "play_out":
            referee.play_out_checked(finished, game, match.seats)
        elif match.stage == "shootout":
            referee.deal_checked(game, "shootout")
        else:
            assert len(match.results) == results + 1
            points_checked(match, match.results[-1], first)
            assert match.scores == [sum(r.points[i] for r in match.results) for i in range(players)]
            referee.seen["president exchange"] += bool(match.gifts)
            referee.deal_checked(game, "game")
            first = game
    assert match.games_played == games_to_play
    referee.seen["shootout after a play-out"] += sum(
        r.shootouts > 0 and len(r.order) == players for r in match.results)
    return referee.seen


def replayable(players: int, deal: str, rules: Rules, seed: int, games_to_play: int) -> Counter[str]:
    """`run_match`, a failure naming what replays it."""
    try:
        return run_match(players, deal, rules, seed, games_to_play)
    except AssertionError as e:
        raise AssertionError(f"run_match({players}, {deal!r}, {rules}, seed={seed}, "
                             f"games_to_play={games_to_play}): {e}") from e


def test_random_matches_under_every_rule():
    """`MATCHES` random tables, each a match of `GAMES` games; the referee must have seen each
    kind of game and event it checks (one that never sees them checks nothing)."""
    seen: Counter[str] = Counter()
    for seed in range(MATCHES):
        players, deal, rules = random_table(random.Random(seed))
        seen += replayable(players, deal, rules, seed, GAMES)
    for kind in ("game", "play_out", "play_out of a dragon game", "trade offered",
                 "trade accepted", "over at the deal", "president exchange", "draw in a game",
                 "draw in a play_out"):
        assert seen[kind] >= 3, (kind, seen)
    assert seen["mask"] > 10_000, seen


def test_random_team_matches():
    """Ties in the team totals are rare (about 3 games in 100): team matches alone, to see
    shootouts, after a play-out too (``president_exchange``)."""
    seen: Counter[str] = Counter()
    for seed in range(TEAM_MATCHES):
        players, deal, rules = random_table(random.Random(seed), teams=True)
        seen += replayable(players, deal, rules, seed, 3)
    assert seen["shootout"] >= 3 and seen["shootout after a play-out"] >= 1, seen
