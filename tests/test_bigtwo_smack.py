"""The smack-down and the smack-back (`Rules.smack_down`), from the Big Two seed's line (quoted in
the first test) as RULES.md settles it, against an independent brute force over every subset of
random hands."""
from __future__ import annotations

import itertools
import pickle
import random

import numpy as np
import pytest

import handrank as hr
from handrank import bigtwo
from handrank.bigtwo import Game, IllegalMove, Kind, Rules

SMACK = Rules(smack_down=True)
BIG_TWO = "3456789TJQKA2"


def test_the_seed_line():
    """"Smack-down: Also known as a chop, can be played to defeat the 'big 2' only when the 2♠ is
    played as a single. A smack-down is either four-of-a-kind or a run of pairs (Example:
    4-4-5-5-6-6), and is often executed with a violent smack of the playing surface. The run of
    pairs may be any length of at least 3. After a smack-down has been played, any player is
    allowed to 'smack-back', or 'chop-chop', with a higher four-of-a-kind or run of pairs of equal
    length as the smack-down.\""""
    run = bigtwo.classify("4d 4c 5h 5s 6d 6c", SMACK)
    assert run.kind is Kind.PAIR_RUN and run.size == 6
    assert bigtwo.classify("4d 4c 4h 4s", SMACK).kind is Kind.FOUR
    assert bigtwo.classify("Ad Ac 2h 2s Kd Kc", SMACK) is None               # a 2 is never in a run
    assert bigtwo.classify("4d 4c 5h 5s", SMACK) is None                     # at least 3 pairs
    assert bigtwo.classify("4d 4c 5h 5s 7d 7c", SMACK) is None               # consecutive ranks
    assert bigtwo.classify("4d 4c 4h 5s 6d 6c", SMACK) is None
    assert bigtwo.classify("4d 4c 4h 4s", "hk") is None                     # not without the rule
    assert bigtwo.beats("4d 4c 5h 5s 6d 6c", "2s", SMACK) and bigtwo.beats("3d 3c 3h 3s", "2s", SMACK)
    assert not bigtwo.beats("4d 4c 5h 5s 6d 6c", "2h", SMACK)                 # only the 2♠ alone
    assert not bigtwo.beats("3d 3c 3h 3s", "2s 2h", SMACK)
    assert not bigtwo.beats("4d 4c 5h 5s 6d 6c", None, SMACK)                 # never a lead
    # the smack-back: a higher four, a higher run of as many pairs
    assert bigtwo.beats("5d 5c 5h 5s", "4d 4c 4h 4s", SMACK)
    assert bigtwo.beats("5d 5c 6h 6s 7d 7c", "4d 4c 5h 5s 6d 6c", SMACK)
    assert bigtwo.beats("4h 4s 5d 5c 6h 6s", "4d 4c 5h 5s 6d 6c", SMACK)     # 6♠ over 6♦ 6♣
    assert not bigtwo.beats("3d 3c 4h 4s 5d 5c 6h 6s", "4d 4c 5h 5s 6d 6c", SMACK)
    assert not bigtwo.beats("Ad Ac Ah As", "4d 4c 5h 5s 6d 6c", SMACK)
    assert not bigtwo.beats("4d 4c 5h 5s 6d 6c", "3d 3c 3h 3s", SMACK)
    with pytest.raises(ValueError, match="smack_down .* needs four_of_a_kind='with_kicker'"):
        Rules(smack_down=True, four_of_a_kind="both")
    with pytest.raises(ValueError, match="needs four_beats_all=False"):
        Rules(smack_down=True, four_beats_all=True)
    with pytest.raises(TypeError, match="Rules.smack_down must be a bool"):
        Rules(smack_down=1)


# ----------------------------------------------------------------------------- brute force
def strength(card: int, rules: Rules) -> tuple[int, int]:
    text = hr.card_str(card)
    return BIG_TWO.index(text[0]), rules.suit_order.index(text[1])


def smack_value(cards: tuple[int, ...], rules: Rules) -> tuple[str, int, int] | None:
    """("four", 0, rank) or ("run", pairs, top pair) of a smack, else None."""
    ranks = sorted(strength(c, rules)[0] for c in cards)
    if len(cards) == 4 and len(set(ranks)) == 1:
        return "four", 0, ranks[0]
    if len(cards) >= 6 and len(cards) % 2 == 0:
        distinct = sorted(set(ranks))
        if all(ranks.count(r) == 2 for r in distinct) and distinct[-1] < 12 \
                and distinct == list(range(distinct[0], distinct[0] + len(distinct))):
            top = max(strength(c, rules) for c in cards)
            return "run", len(distinct), 4 * top[0] + top[1]
    return None


def brute_force(hand: list[int], current: tuple[int, ...] | None, rules: Rules) -> set[tuple[int, ...]]:
    """Every subset of the hand the seed's line lets the player play on `current` (None: leading):
    the hk plays as hk compares them; smacks only on the lone top card or on a lower smack of the
    same kind and length."""
    plain = rules.replace(smack_down=False)
    theirs = None if current is None else smack_value(current, rules)
    found = set()
    for k in range(1, len(hand) + 1):
        for cards in itertools.combinations(sorted(hand), k):
            mine = smack_value(cards, rules)
            if mine is not None:
                if current is None:
                    continue
                if current == (rules.highest_card,) or (
                        theirs is not None and mine[:2] == theirs[:2] and mine[2] > theirs[2]):
                    found.add(cards)
            elif k <= 5 and theirs is None and bigtwo.classify(cards, plain) is not None \
                    and (current is None or (len(current) == k and bigtwo.beats(cards, current, plain))):
                found.add(cards)
    return found


def pair_heavy_hand(rng: random.Random) -> tuple[list[int], list[int]]:
    """13 cards with pairs of consecutive ranks (and sometimes a four), and the rest of the deck."""
    low = rng.randrange(0, 8)
    hand: list[int] = []
    for r in range(low, low + rng.randint(3, 5)):
        poker = (r + 1) % 13
        hand += rng.sample([4 * poker + s for s in range(4)], rng.choice([2, 2, 3, 4]))
    hand = hand[:13]
    rest = [c for c in range(52) if c not in hand]
    rng.shuffle(rest)
    fill = 13 - len(hand)
    return sorted(hand + rest[:fill]), rest[fill:]


def test_legal_moves_against_brute_force():
    """legal_moves, legal_move_arrays, the 8192 mask and ComboSpace.legal_actions equal the brute
    force over every subset of 24 random hands, leading and on: the lone 2♠, the 2♥, a four, a
    run of pairs, a random play."""
    rng = random.Random(54)
    space = bigtwo.ComboSpace(SMACK)
    for i in range(24):
        rules = SMACK if i % 3 else SMACK.replace(suit_order="cshd")
        hand, rest = pair_heavy_hand(rng)
        top = rules.highest_card
        others = rest[:20]
        currents = [None, (top,) if top not in hand else None, (hr.card("2h"),) if hr.card("2h") not in hand else None]
        smacks = [m.cards for m in bigtwo.legal_moves(others, (top,) if top in others else None, rules)
                  if m.kind in (Kind.FOUR, Kind.PAIR_RUN)] if top in others else []
        currents += rng.sample(smacks, min(2, len(smacks)))
        currents.append(rng.choice(bigtwo.legal_moves(rest[:13], None, rules)).cards)
        for current in currents:
            moves = bigtwo.legal_moves(hand, current, rules)
            assert {m.cards for m in moves} == brute_force(hand, current, rules), (hand, current)
            _, sizes, keys = bigtwo.legal_move_arrays(hand, current, rules)
            assert list(zip(sizes.tolist(), keys.tolist())) == [(m.size, m.key) for m in moves]
            mask = bigtwo.action_mask(hand, current, rules)
            assert sorted(tuple(bigtwo.action_cards(hand, a)) for a in np.flatnonzero(mask) if a) == \
                sorted(m.cards for m in moves)
            if rules is SMACK:
                actions = space.legal_actions(hand, current)
                assert sorted(tuple(space.cards(int(a))) for a in actions if a) == sorted(m.cards for m in moves)
                assert all(space.action(m) == a for m, a in zip(sorted(moves, key=space.action), sorted(actions[actions > 0])))


def test_pair_runs_in_a_batch():
    """classify_batch keys runs of pairs of each length as classify does, and nothing else."""
    rng = np.random.default_rng(6)
    for k in (6, 8, 12):
        rows = np.sort(np.array([rng.permutation(52)[:k] for _ in range(3000)], dtype=np.uint8), axis=1)
        keys = bigtwo.classify_batch(rows, SMACK)
        assert (keys > 0).tolist() == [smack_value(tuple(r), SMACK) is not None for r in rows.tolist()]
    run = hr.cards("3d 3c 4h 4s 5d 5c 6h 6s 7d 7c 8h 8s")
    assert bigtwo.classify_batch(np.array([run], dtype=np.uint8), SMACK)[0] == bigtwo.classify(run, SMACK).key


# ----------------------------------------------------------------------------- games
def test_smack_down_and_smack_back_in_a_game():
    """The 2♠ alone, a smack-down, each player in turn answering it or passing (any player may
    smack back, the one who played the 2♠ too), and no smack as a lead."""
    hands = ["2s 3d 7d 7c 7h 7s", "4d 4c 5h 5s 6d 6c 9d Tc", "8d 8c 8h 8s Td", "Jd Jc Qh Qs Kd"]
    game = Game(4, SMACK, hands=hands)
    game.play("3d")
    game.play("9d")
    game.pass_()
    game.pass_()
    game.play("2s")                                  # player 0 jumps back in with the 2♠
    assert [m.kind for m in game.legal_moves()] == [Kind.PAIR_RUN]
    game.play("4d 4c 5h 5s 6d 6c")
    assert game.turn == 2 and game.legal_moves() == []          # a four is no answer to a run
    game.pass_()
    game.pass_()
    assert game.turn == 0 and game.legal_moves() == []
    game.pass_()
    assert game.turn == 1 and game.to_beat is None               # the smack-down won the trick
    # on the 2♠, fours answer fours: the four of 8s smacks back the four of 7s
    game = Game(4, SMACK, hands=["2s 3d", "7d 7c 7h 7s 9d", "8d 8c 8h 8s Td", "Jd Jc Qh Qs Kd"], leader=0)
    game.play("2s")
    game.play("7d 7c 7h 7s")
    assert [str(m) for m in game.legal_moves()] == ["four 8c 8d 8h 8s"]
    game.play("8d 8c 8h 8s")
    game.pass_()
    game.pass_()
    game.pass_()
    assert game.turn == 2 and game.to_beat is None
    leading = Game(4, SMACK, hands=hands, leader=0)
    with pytest.raises(IllegalMove, match="smack-down, played only on a single 2s"):
        leading.play("7d 7c 7h 7s")
    assert not any(m.kind is Kind.FOUR for m in leading.legal_moves())


def test_random_games_with_smacks():
    """Random games under smack rules (and whole-deck two-player deals, long hands): only legal
    moves, the masks equal them, cards conserved, payments zero-sum (the environment's games:
    tests/test_bigtwo_env.py)."""
    rng = random.Random(55)
    smacked = 0
    for i in range(30):
        rules = SMACK.replace(suit_order=rng.choice(["dchs", "cdhs"]), passing=rng.choice(["jump_back", "out_of_trick"]),
                              double_held=rng.random() < 0.5)
        if i % 3:                           # one hand rich in pairs, so that smacks come up
            hand, rest = pair_heavy_hand(rng)
            game = Game(4, rules, hands=[hand, rest[:13], rest[13:26], rest[26:39]])
        else:
            game = Game(2, rules, seed=i, deal="all")
        held = sorted(c for hand in game.hands for c in hand)
        played: list[int] = []
        while not game.over:
            moves = game.legal_moves()
            if len(game.hand()) <= 13:
                mask = game.action_mask()
                assert sorted(tuple(bigtwo.action_cards(game.hand(), a)) for a in np.flatnonzero(mask) if a) == \
                    sorted(m.cards for m in moves)
                assert bool(mask[0]) == game.can_pass
            smacks = [m for m in moves if m.kind in (Kind.FOUR, Kind.PAIR_RUN)]
            tops = [m for m in moves if m.cards == (rules.highest_card,)]    # invite a smack-down
            if tops and rng.random() < 0.7:
                played.extend(game.play(tops[0]).cards)
            elif smacks and rng.random() < 0.8:
                played.extend(game.play(rng.choice(smacks)).cards)
                smacked += 1
            elif game.can_pass and (not moves or rng.random() < 0.3):
                game.pass_()
            else:
                played.extend(game.play(rng.choice(moves)).cards)
        assert sorted(played + [c for hand in game.hands for c in hand]) == held
        assert sum(game.payments()) == 0
    assert smacked >= 10, smacked


# ----------------------------------------------------------------------------- a bounded space
def pair_run(low: int, suit_pairs: list[tuple[int, int]]) -> list[int]:
    """The run of pairs from Big Two rank `low` (3 = 0), one pair of suits (c, d, h, s = 0..3) per rank."""
    return sorted(4 * ((low + j + 1) % 13) + suit for j, pair in enumerate(suit_pairs) for suit in pair)


SUIT_PAIRS = list(itertools.combinations(range(4), 2))


def test_a_space_bounded_by_the_hand_numbers_its_actions_as_the_whole_space():
    """ComboSpace(rules, max_hand_size=13) is the first actions of ComboSpace(rules): the plays of
    1 to 5 cards and the runs of 3 to 6 pairs, each with the number the whole space gives it."""
    full, bounded = bigtwo.ComboSpace(SMACK), bigtwo.ComboSpace(SMACK, 13)
    assert full.size == 3_134_585_992 and bounded.max_hand_size == 13 and full.max_hand_size is None
    listed = len(bigtwo.ComboSpace("hk")) + 13                 # hk's plays and the thirteen bare fours
    assert bounded.size == listed + sum((13 - n) * 6 ** n for n in range(3, 7)) == 422_536
    # the next action of the whole space is its lowest run of 7 pairs: 3c 3d .. 9c 9d
    assert full.action(pair_run(0, [(0, 1)] * 7)) == bounded.size
    assert full.cards(bounded.size) == pair_run(0, [(0, 1)] * 7)
    assert bounded.cards(bounded.size - 1) == full.cards(bounded.size - 1) == pair_run(6, [(2, 3)] * 6)
    # every run of 3 pairs, and random longer ones, by cards and by number, both ways
    rng = random.Random(28)
    runs = [pair_run(low, list(pairs)) for low in range(10) for pairs in itertools.product(SUIT_PAIRS, repeat=3)]
    runs += [pair_run(rng.randrange(13 - n), [rng.choice(SUIT_PAIRS) for _ in range(n)])
             for n in (4, 5, 6) for _ in range(300)]
    for run in runs:
        assert bigtwo.classify(run, SMACK).kind is Kind.PAIR_RUN
        action = bounded.action(run)
        assert action == full.action(run) and listed <= action < bounded.size
        assert bounded.cards(action) == full.cards(action) == run
    assert len({bounded.action(run) for run in runs[:2160]}) == 2160
    for action in [rng.randrange(1, bounded.size) for _ in range(2000)] + list(range(1, listed)):
        assert bounded.cards(action) == full.cards(action)
        assert bounded.action(bounded.cards(action)) == action


def test_a_bounded_space_marks_the_legal_moves_as_the_whole_space_lists_them():
    """The bounded space's mask and legal actions of 13-card hands, leading, on the lone 2♠, on
    a smack and on a random play, are the whole space's legal actions."""
    full, bounded = bigtwo.ComboSpace(SMACK), bigtwo.ComboSpace(SMACK, 13)
    rng = random.Random(29)
    for _ in range(12):
        hand, rest = pair_heavy_hand(rng)
        top = SMACK.highest_card
        currents = [None, rng.choice(bigtwo.legal_moves(rest[:13], None, SMACK)).cards]
        if top in rest:
            currents.append((top,))
            currents += [m.cards for m in bigtwo.legal_moves(rest[:20], (top,), SMACK)
                         if m.kind in (Kind.FOUR, Kind.PAIR_RUN)][:2]
        for current in currents:
            expected = full.legal_actions(hand, current)
            assert np.array_equal(bounded.legal_actions(hand, current), expected)
            assert np.array_equal(np.flatnonzero(bounded.mask(hand, current)), expected)


def test_a_bounded_space_refuses_what_it_left_out():
    bounded = bigtwo.ComboSpace(SMACK, 13)
    seven = pair_run(0, [(0, 1)] * 7)
    with pytest.raises(ValueError, match="no action of this space: it serves hands of at most 13 cards"):
        bounded.action(seven)
    with pytest.raises(ValueError, match="action must be an int in 0..422535"):
        bounded.cards(bounded.size)
    for ask in (bounded.mask, bounded.legal_actions):
        with pytest.raises(ValueError, match="serves hands of at most 13 cards .*, got 14"):
            ask(seven, [SMACK.highest_card] if SMACK.highest_card not in seven else None)
    with pytest.raises(ValueError, match="not a Big Two combo"):
        bounded.action(pair_run(0, [(0, 1)] * 2) + [hr.card("6d"), hr.card("6c")])
    for bad, error in ((0, ValueError), (-3, ValueError), (13.0, TypeError), (True, TypeError), ("13", TypeError)):
        with pytest.raises(error, match="max_hand_size"):
            bigtwo.ComboSpace(SMACK, bad)
    # where the bound leaves nothing out, the space is the whole one and takes any hand
    hk = bigtwo.ComboSpace("hk", 13)
    assert hk.size == bigtwo.ComboSpace("hk").size and hk.mask(list(range(20)), None).sum() > 0
    assert repr(bounded) == "<ComboSpace of 422536 actions for hands of at most 13 cards>"
    copied = pickle.loads(pickle.dumps(bounded))                # the bound travels with the space
    with pytest.raises(ValueError, match="serves hands of at most 13 cards"):
        copied.legal_actions(seven, None)
    assert copied.size == bounded.size and copied.cards(bounded.size - 1) == bounded.cards(bounded.size - 1)
