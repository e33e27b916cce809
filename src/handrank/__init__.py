"""handrank: fast, verified poker hand evaluators with numpy batch APIs."""
from handrank import bigtwo, chinese, high, high3, low27, lowa5, ofc, rows
from handrank.cards import card, card_str, cards, hand_str, random_hands

__version__ = "0.1.0"

evaluate = high.evaluate

__all__ = ["__version__", "card", "card_str", "cards", "hand_str", "random_hands", "evaluate",
           "high", "high3", "low27", "lowa5", "rows", "bigtwo", "ofc", "chinese"]
