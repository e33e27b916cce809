"""A slow, obviously-correct equity: every deal of the players' combos (itertools.product, colliding
deals skipped, weights multiplied), then every board (itertools.combinations of the rest of the
deck), each 7-card hand valued by the batch evaluator. Nothing of handrank.equity is used."""
import itertools

import numpy as np

from handrank import high


def reference_equity(players, board=(), dead=()):
    """players: per player a list of (combo, weight), combo two card ids. Returns (equity, win,
    tie, showdowns): per-player tuples of fractions and the weighted count of showdowns."""
    n = len(players)
    wins = np.zeros(n)
    ties = np.zeros(n)
    shares = np.zeros(n)
    total = 0.0
    out = set(board) | set(dead)
    for deal in itertools.product(*players):
        held = [c for combo, _ in deal for c in combo]
        if len(set(held)) != len(held) or out & set(held):
            continue
        weight = float(np.prod([w for _, w in deal]))
        deck = [c for c in range(52) if c not in out and c not in held]
        runs = np.array(list(itertools.combinations(deck, 5 - len(board))), dtype=np.uint8)
        runs = runs.reshape(len(runs), 5 - len(board))
        boards = np.hstack([np.tile(np.array(board, dtype=np.uint8), (len(runs), 1)), runs])
        values = np.stack([high.evaluate_batch(np.hstack([np.tile(np.array(combo, dtype=np.uint8),
                                                                  (len(boards), 1)), boards]))
                           for combo, _ in deal])
        best = values.max(axis=0)
        top = values == best
        tied = top.sum(axis=0)
        wins += weight * (top & (tied == 1)).sum(axis=1)
        ties += weight * (top & (tied > 1)).sum(axis=1)
        shares += weight * (top / tied).sum(axis=1)
        total += weight * len(boards)
    return tuple(shares / total), tuple(wins / total), tuple(ties / total), total


def hand(text):
    """[(combo, 1.0)] for an exact hand."""
    from handrank.cards import cards
    return [(tuple(cards(text)), 1.0)]


def range_of(text, out=()):
    """[(combo, weight)] of a range, less the combos holding a card of `out`."""
    from handrank.equity import Range
    return [(c, w) for c, w in Range(text) if not set(c) & set(out)]
