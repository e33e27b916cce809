"""Postflop solving: a heads-up hold'em spot (board, ranges, pot, stack, bet sizes) and its
betting tree, solved by Discounted CFR in compiled code, with exact exploitability by best
response and the results (strategy, EV, equity) at every node. See docs/solver.md.

>>> from handrank import solver
>>> spot = solver.Spot("Td9d6hQc2s", "AA,QQ", "KK", pot=100, stack=100, bet="100%", raise_="")
>>> game = solver.Game(spot)
>>> game.solve(target=0.001, progress=False).stopped
'target'
"""
from handrank.solver.game import FORMAT_VERSION, Game, NodeView, SolveReport, load, memory_estimate
from handrank.solver.spot import Size, Spot, StreetSizes, parse_sizes
from handrank.solver.tree import Action, Node, Tree

__all__ = ["Spot", "Size", "StreetSizes", "parse_sizes", "Tree", "Node", "Action", "Game",
           "NodeView", "SolveReport", "load", "memory_estimate", "FORMAT_VERSION"]
