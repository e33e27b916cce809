"""Big Two (dai di, capsa, pusoy dos): combos under every common ruleset, batch classification,
legal moves, end-of-game payments and a game engine for bots and RL.

Cards use the package's ids (``4 * rank + suit``, ``2c = 0``, ``As = 51``); Big Two's own order
(3 lowest, 2 highest; suits per ruleset) lives in the keys. ``rules`` arguments take a `Rules`,
a preset name (``"taiwan"``) or None for the default ``hk`` ruleset.
"""
from handrank.bigtwo.actions import ComboSpace
from handrank.bigtwo.combo import (ACTIONS, Combo, action_cards, action_mask, beats, card_strength,
                                    classify, classify_batch, legal_move_arrays, legal_moves)
from handrank.bigtwo.game import Game, IllegalMove, Turn
from handrank.bigtwo.match import GameResult, Gift, Match, president_exchange
from handrank.bigtwo.rules import Kind, Rules
from handrank.bigtwo.scoring import TeamResult, finish_points, holds_bonus, is_bonus_play, payments, team_result

__all__ = ["Rules", "Kind", "Combo", "classify", "beats", "classify_batch", "legal_moves",
           "legal_move_arrays", "action_mask", "action_cards", "ACTIONS", "ComboSpace", "card_strength",
           "payments", "holds_bonus", "is_bonus_play", "Game", "IllegalMove", "Turn",
           "TeamResult", "team_result", "finish_points", "Match", "GameResult", "Gift", "president_exchange"]
