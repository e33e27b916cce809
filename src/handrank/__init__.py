"""handrank: fast, verified poker hand evaluators with numpy batch APIs."""
from handrank import high, high3, low27, lowa5, rows
from handrank.cards import card, card_str, cards, hand_str, random_hands

__version__ = "0.1.0"

evaluate = high.evaluate
"""The same function as `handrank.high.evaluate`: the value 1..7462 of a 5-, 6- or 7-card high hand."""

__all__ = ["__version__", "card", "card_str", "cards", "hand_str", "random_hands", "evaluate",
           "high", "high3", "low27", "lowa5", "rows", "bigtwo", "ofc", "chinese", "equity", "omaha",
           "badugi", "shortdeck", "iso", "showdown", "ehs"]

# The game layers load on first use (`handrank.ofc`, `from handrank import ofc`), so that
# `import handrank` costs the evaluators alone.
_GAMES = ("bigtwo", "ofc", "chinese", "equity", "omaha", "badugi", "shortdeck", "iso", "showdown",
          "ehs")


def __getattr__(name: str) -> object:
    if name in _GAMES:
        import importlib
        return importlib.import_module(f"handrank.{name}")
    raise AttributeError(f"module 'handrank' has no attribute {name!r}")
