"""The `charlesworth` preset against the published self-play agent's game logic
(henrycharlesworth/big2_PPOalgorithm: gameLogic.py, big2Game.py, rules.md; RULES.md, "Decisions
added after review").

`CharlesworthLogic` below re-states that code's rules step by step in its own card numbering
(1..52: 3♦ = 1, 3♣ = 2, 3♥ = 3, 3♠ = 4, 4♦ = 5, ..., 2♠ = 52; a card's number is ceil(n / 4)):
which card sets are real hands, and which real hand may be played on which (`validate`, its
validatePlayedHand without control). The library's plays, comparisons, opening and payments must
agree with it everywhere: zero differences."""
from __future__ import annotations

import itertools
import random

import numpy as np
import pytest

import handrank as hr
from handrank import bigtwo
from handrank.bigtwo import Game, IllegalMove, Kind, Rules

RULES = Rules.preset("charlesworth")
# its numbering: 4 * (Big Two rank) + suit, diamonds 1, clubs 2, hearts 3, spades 4
_SUIT_NUMBER = {"d": 1, "c": 2, "h": 3, "s": 4}


def _number(card: int) -> int:
    """handrank's card id -> the agent's card number."""
    text = hr.card_str(card)
    return 4 * "3456789TJQKA2".index(text[0]) + _SUIT_NUMBER[text[1]]


NUMBER = [_number(c) for c in range(52)]


class CharlesworthLogic:
    """gameLogic.py's tests, one function each, on sorted lists of card numbers."""

    @staticmethod
    def value(n: int) -> int:
        return (n + 3) // 4                 # np.ceil(n / 4) for 1..52

    def is_pair(self, h: list[int]) -> bool:
        return len(h) == 2 and self.value(h[0]) == self.value(h[1])

    def is_three(self, h: list[int]) -> bool:
        return len(h) == 3 and self.value(h[0]) == self.value(h[1]) == self.value(h[2])

    def is_four(self, h: list[int]) -> bool:
        return len(h) == 4 and len({self.value(n) for n in h}) == 1

    def is_two_pair(self, h: list[int]) -> bool:
        return len(h) == 4 and not self.is_four(h) and self.is_pair(h[0:2]) and self.is_pair(h[2:])

    def is_straight_flush(self, h: list[int]) -> bool:
        return len(h) == 5 and all(h[i] + 4 == h[i + 1] for i in range(4))

    def is_straight(self, h: list[int]) -> bool:
        return len(h) == 5 and all(self.value(h[i]) + 1 == self.value(h[i + 1]) for i in range(4))

    def is_flush(self, h: list[int]) -> bool:
        return len(h) == 5 and len({n % 4 for n in h}) == 1

    def full_house(self, h: list[int]) -> int | None:
        """The value of the triple of a full house, else None."""
        if len(h) != 5:
            return None
        if self.is_pair(h[0:2]) and self.is_three(h[2:]):
            return self.value(h[3])
        if self.is_three(h[0:3]) and self.is_pair(h[3:]):
            return self.value(h[0])
        return None

    def is_real(self, h: list[int]) -> bool:
        k = len(h)
        if k == 1:
            return True
        if k == 2:
            return self.is_pair(h)
        if k == 3:
            return self.is_three(h)
        if k == 4:
            return self.is_two_pair(h) or self.is_four(h)
        if k == 5:
            return self.is_straight(h) or self.is_flush(h) or self.full_house(h) is not None
        return False

    def validate(self, hand: list[int], prev: list[int]) -> bool:
        """validatePlayedHand(hand, prevHand, control=0): may `hand` be played on `prev`?"""
        if not self.is_real(hand) or len(hand) != len(prev):
            return False
        k = len(hand)
        if k <= 3:
            return hand[-1] > prev[-1]                      # the highest card
        if k == 4:
            if self.is_four(hand):
                return not self.is_four(prev) or hand[3] > prev[3]
            return not self.is_four(prev) and hand[3] > prev[3]
        if self.is_straight_flush(hand):
            return not self.is_straight_flush(prev) or hand[4] > prev[4]
        triple = self.full_house(hand)
        if triple is not None:
            if self.is_straight_flush(prev):
                return False
            theirs = self.full_house(prev)
            return theirs is None or triple > theirs
        if self.is_flush(hand):
            if self.full_house(prev) is not None or self.is_straight_flush(prev):
                return False
            return not self.is_flush(prev) or hand[4] > prev[4]
        # a straight
        if self.full_house(prev) is not None or self.is_flush(prev) or self.is_straight_flush(prev):
            return False
        return hand[4] > prev[4]


LOGIC = CharlesworthLogic()


def as_numbers(cards) -> list[int]:
    return sorted(NUMBER[c] for c in cards)


def test_the_preset_is_the_published_rule_set():
    """RULES.md: suits ♦<♣<♥<♠; singles, pairs, triples; 4-card two pair and four of a kind;
    straight < flush < full house < straight flush, no 5-card four of a kind; straights 3-4-5-6-7
    ... J-Q-K-A-2; flushes by their highest card; losers pay 1 per card left."""
    assert RULES.suit_order == "dchs" and RULES.opening == "alone"
    assert RULES.five_card_kinds == (Kind.STRAIGHT, Kind.FLUSH, Kind.FULL_HOUSE, Kind.STRAIGHT_FLUSH)
    assert RULES.sizes == (1, 2, 3, 4, 5)
    assert [ranks for ranks, _ in RULES.straights][-1] == "JQKA2"
    # the example: flushes by the highest card, then its suit, not card by card
    assert bigtwo.beats("3s 5s 7s 9s Ks", "4h 6h 8h Th Qh", RULES)
    assert bigtwo.beats("3s 4s 6s 7s Ks", "Qh Jh 8h 9h Kh", RULES)          # K♠ over K♥
    assert not bigtwo.beats("Qh Jh 8h 9h Kh", "3s 4s 6s 7s Ks", RULES)
    assert bigtwo.beats("Qh Jh 8h 9h Kh", "3s 4s 6s 7s Ks", "indonesia")       # card by card
    assert bigtwo.classify("Ks Kh Kd Kc 3d", RULES) is None                 # no 5-card four
    assert bigtwo.classify("Ks Kh Kd Kc", RULES).kind is Kind.FOUR
    assert bigtwo.beats("3s 3h 3d 3c", "2s 2h As Ah", RULES)                # four over two pair
    assert bigtwo.payments([0, 3, 11, 13], RULES) == [27, -3, -11, -13]     # no multipliers


def random_plays(rng: random.Random, hand: list[int]) -> dict[int, list]:
    by_size: dict[int, list] = {}
    for combo in bigtwo.legal_moves(hand, None, RULES):
        by_size.setdefault(combo.size, []).append(combo)
    return by_size


def test_comparisons_against_its_logic():
    """Random same-size comparisons of plays from two hands of one deck (as they meet in a game),
    by `beats` and by the combos' order, against validatePlayedHand: zero differences, over every
    size and every pair of five-card kinds (flush against flush among them)."""
    rng = random.Random(28)
    compared = 0
    flush_pairs = 0
    for deal in hr.random_hands(400, 26, seed=28).tolist():
        mine, theirs = random_plays(rng, deal[:13]), random_plays(rng, deal[13:])
        for size in set(mine) & set(theirs):
            for _ in range(40):
                a, b = rng.choice(mine[size]), rng.choice(theirs[size])
                expected = LOGIC.validate(as_numbers(a.cards), as_numbers(b.cards))
                assert (a > b) == expected, (a, b)
                assert LOGIC.validate(as_numbers(b.cards), as_numbers(a.cards)) == (b > a), (b, a)
                flush_pairs += a.kind == b.kind == Kind.FLUSH
                compared += 2
                if compared % 50 == 0:                      # the public API on a share of them
                    assert bigtwo.beats(a.cards, b.cards, RULES) == expected
    assert compared > 100_000 and flush_pairs > 1000


def test_plays_are_its_real_hands():
    """Which card sets are plays: classify against isRealHand, exhaustively for 1 to 4 cards and
    on 100,000 random 5-card sets (with a full check of every flush and straight rank pattern)."""
    for k in (1, 2, 3, 4):
        sets = np.array(list(itertools.combinations(range(52), k)), dtype=np.uint8)
        keys = bigtwo.classify_batch(sets, RULES)
        real = np.array([LOGIC.is_real(as_numbers(s)) for s in sets.tolist()])
        assert ((keys > 0) == real).all()
    sets = hr.random_hands(100_000, 5, seed=5)
    keys = bigtwo.classify_batch(sets, RULES)
    real = np.array([LOGIC.is_real(as_numbers(s)) for s in sets.tolist()])
    assert ((keys > 0) == real).all()
    for ranks in itertools.combinations(range(13), 5):      # every five distinct ranks, suited or not
        for suits in ((3, 3, 3, 3, 3), (3, 3, 3, 3, 2)):
            cards = [4 * r + s for r, s in zip(ranks, suits)]
            assert (bigtwo.classify(cards, RULES) is not None) == LOGIC.is_real(as_numbers(cards))


def legal_by_its_logic(hand: list[int], prev: tuple[int, ...] | None) -> set[tuple[int, ...]]:
    """Every subset of the hand that its logic lets the player play (with control: any real hand)."""
    found = set()
    for k in ((1, 2, 3, 4, 5) if prev is None else (len(prev),)):
        for cards in itertools.combinations(sorted(hand), k):
            numbers = as_numbers(cards)
            if LOGIC.is_real(numbers) and (prev is None or LOGIC.validate(numbers, as_numbers(prev))):
                found.add(cards)
    return found


def test_the_lone_three_of_diamonds_opens_every_deal():
    """big2Game.reset: "whoever has the 3 of diamonds goes first (and must play the 3 of diamonds
    as a single card)": in every one of 300 deals the only legal first play is the lone 3♦, by
    legal_moves, the 8192 mask and the ComboSpace mask; any other play is refused."""
    three = hr.card("3d")
    space = bigtwo.ComboSpace(RULES)
    for seed in range(300):
        game = Game(4, RULES, seed=seed)
        assert three in game.hands[game.turn]
        assert [m.cards for m in game.legal_moves()] == [(three,)]
        cards, sizes, _ = game.legal_move_arrays()
        assert cards[:, 0].tolist() == [three] and sizes.tolist() == [1]
        mask = game.action_mask()
        assert mask.sum() == 1 and hr.cards(bigtwo.action_cards(game.hand(), int(mask.argmax()))) == [three]
        if seed % 30 == 0:
            spaced = game.action_mask(space)
            assert [space.cards(a) for a in np.flatnonzero(spaced)] == [[three]]
        assert not game.can_pass
        others = [m for m in bigtwo.legal_moves(game.hand(), None, RULES, must_include=three) if m.size > 1]
        for other in others[:3]:
            with pytest.raises(IllegalMove, match="alone"):
                game.play(other)
        game.play([three])


def test_games_against_its_logic():
    """Random games under the preset: on every turn the legal moves are exactly the subsets its
    logic allows (with control: any real hand), the pass is legal exactly when not in control,
    and the payments are its assignRewards (minus the cards left; the winner the sum)."""
    rng = random.Random(9)
    for seed in range(4):
        game = Game(4, RULES, seed=seed)
        game.play(["3d"])
        while not game.over:
            prev = None if game.to_beat is None else game.to_beat.cards
            moves = game.legal_moves()
            assert {m.cards for m in moves} == legal_by_its_logic(game.hand(), prev)
            assert game.can_pass == (prev is not None)
            if game.can_pass and (not moves or rng.random() < 0.3):
                game.pass_()
            else:
                game.play(rng.choice(moves))
        left = [len(h) for h in game.hands]
        assert game.payments() == [sum(left) if n == 0 else -n for n in left]


def test_the_environment_under_the_preset():
    """The PettingZoo environment under the preset: the first mask is the lone 3♦; every mask
    lists the legal moves (the pass exactly when not in control); rewards are the payments."""
    pytest.importorskip("pettingzoo")
    from handrank.bigtwo.env import raw_env
    env = raw_env(4, "charlesworth")
    rng = random.Random(4)
    for seed in range(5):
        env.reset(seed=seed)
        first = env.observe(env.agent_selection)["action_mask"]
        assert [env.space.cards(a) for a in np.flatnonzero(first)] == [hr.cards("3d")]
        while not env.game.over:
            mask = env.observe(env.agent_selection)["action_mask"]
            assert sorted(tuple(env.space.cards(a)) for a in np.flatnonzero(mask) if a) == \
                sorted(m.cards for m in env.game.legal_moves())
            assert bool(mask[0]) == (env.game.to_beat is not None)
            env.step(int(rng.choice(np.flatnonzero(mask).tolist())))
        left = [len(h) for h in env.game.hands]
        assert [env.rewards[f"player_{i}"] for i in range(4)] == [sum(left) if n == 0 else -n for n in left]
