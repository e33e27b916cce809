"""13-card Chinese poker: naturals, every valid setting, the best setting for an objective (royalty
units, expected points, or your own), and 1-6 or 2-4 scoring with royalties and mis-sets.

Rows, validity and royalty tables are OFC's machinery (handrank.rows, handrank.ofc): a setting is
an `ofc.Board`. ``rules`` arguments take a `chinese.Rules`, a preset name (``"2-4"``) or None for
the default (``1-6``). `Match` plays the game to 11 (`eleven_points` scores one of its deals).
"""
from handrank.chinese.ev import RowTables, row_tables
from handrank.chinese.match import Match, eleven_points
from handrank.chinese.naturals import Natural, compare_naturals, natural
from handrank.chinese.rules import NATURAL_VARIANTS, NATURALS, Rules
from handrank.chinese.scoring import (SettingArrays, evaluate_batch, is_mis_set, royalties, score,
                                       score_batch)
from handrank.chinese.setting import (OBJECTIVES, BestSetting, BestSettingArrays, best_setting,
                                       best_setting_batch, settings)
from handrank._threerow.board import Board

__all__ = ["Rules", "NATURALS", "NATURAL_VARIANTS", "Board", "Natural", "natural", "compare_naturals", "settings",
           "best_setting", "best_setting_batch", "BestSetting", "BestSettingArrays", "OBJECTIVES",
           "row_tables", "RowTables", "is_mis_set", "royalties", "evaluate_batch", "SettingArrays",
           "score", "score_batch", "Match", "eleven_points"]
