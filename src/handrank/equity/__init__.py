"""Equity (hold'em, and Omaha, Omaha hi-lo and short deck with `game=`): each player's share of the pot from any point of a hand, for exact hands or
ranges, by exact enumeration or Monte Carlo (see docs/equity.md).

    from handrank import equity
    equity.calculate(["AsKs", "QQ+,AKs"], board="Jh Th 2c").equity
"""
from handrank.equity.batch import hand_vs_hand_batch
from handrank.equity.calculate import (DEFAULT_STDERR, EXACT_LIMIT, EXACT_MAX, MAX_PLAYERS, MAX_SAMPLES,
                                       calculate)
from handrank.equity.order import PREFLOP_ORDER
from handrank.equity.range import Range, class_combos, hand_class
from handrank.equity.result import Result

__all__ = ["calculate", "Result", "Range", "hand_vs_hand_batch", "hand_class", "class_combos",
           "PREFLOP_ORDER", "EXACT_LIMIT", "EXACT_MAX", "MAX_SAMPLES", "DEFAULT_STDERR", "MAX_PLAYERS"]
