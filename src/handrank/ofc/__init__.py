"""Open-Face Chinese poker: rows on one scale, fouls, royalties, Fantasyland, 1-6 scoring and an
exact Fantasyland solver, for the classic, pineapple, progressive and 2-7 ("deuce") variants.

``rules`` arguments take an `ofc.Rules`, a preset name (``"progressive"``) or None for the default
(``pineapple``). Boards take an `ofc.Board`, its text form (``"Qs Qh 5d / ... / ..."``) or a
(top, middle, bottom) tuple; batch functions take (N, 13) arrays in row order top, middle, bottom.

Play: `Game` deals and plays one hand street by street (`PartialBoard` boards, `Placement`
turns, the fixed action space of `ofc.actions`), `Match` carries scores and Fantasyland from
hand to hand, `best_placement` ranks the placements of a street by their expected score (`complete`
finishes a partial board), and `handrank.ofc.env` (extra ``rl``) is a PettingZoo environment over `Game`.
`simulate` plays whole hands under a random policy in compiled code (a baseline, millions of
hands a minute), and `handrank.ofc.vector` steps N hands together for reinforcement learning.
"""
from handrank._threerow.board import Board, BoardArrays
from handrank._threerow.solver import SolutionArrays
from handrank.ofc.advise import Advice, PlacementValue, best_placement, complete
from handrank.ofc.board import evaluate_batch, fantasyland, is_foul, royalties, score, score_batch
from handrank.ofc.game import Game, legal_placements, streets
from handrank.ofc.match import Match
from handrank.ofc.partial import PartialBoard
from handrank.ofc.placement import IllegalPlacement, Placement
from handrank.ofc.placements import Placements
from handrank.ofc.rules import Rules
from handrank.ofc.simulate import Simulation, simulate
from handrank.ofc.solver import Solution, solve_fantasyland, solve_fantasyland_batch
from handrank.rows import value as row_value, value_batch as row_value_batch

__all__ = ["Rules", "Board", "row_value", "row_value_batch", "is_foul", "royalties", "fantasyland",
           "score", "evaluate_batch", "BoardArrays", "score_batch", "solve_fantasyland",
           "solve_fantasyland_batch", "Solution", "SolutionArrays", "PartialBoard", "Placement", "Placements",
           "IllegalPlacement", "Game", "Match", "streets", "simulate", "Simulation", "legal_placements",
           "best_placement", "complete", "Advice", "PlacementValue"]
