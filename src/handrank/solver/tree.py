"""The betting tree of a spot: every decision node with its actions and amounts, chance nodes
where a card is dealt, and the terminal nodes (a fold, a showdown).

Amounts are chips put in on the current street by the player acting (``Bet(100)``,
``Raise(340)``: to 340 in all this street), as in postflop-solver's trees, so that
``Tree.lines()`` prints the same text as its dumps: one decision node a line, ``/`` for a card
dealt.

>>> from handrank.solver.spot import Spot
>>> tree = Tree(Spot("Td9d6hQc2s", "AA", "KK", pot=200, stack=900, bet="50%,100%", raise_="60%"))
>>> print(tree.lines()[2])
river [Check Bet(100)] : Fold Call Raise(340)
"""
from __future__ import annotations

import math
from dataclasses import dataclass

from handrank.solver.spot import STREETS, Size, Spot

__all__ = ["Action", "Node", "Tree", "DECISION", "CHANCE", "FOLD", "SHOWDOWN"]

DECISION, CHANCE, FOLD, SHOWDOWN = "decision", "chance", "fold", "showdown"
# the order actions are listed in at a node (postflop-solver's, then by amount)
_KINDS = ("Fold", "Check", "Call", "Bet", "Raise", "AllIn")


@dataclass(frozen=True, order=True)
class Action:
    """An action: kind (Fold, Check, Call, Bet, Raise, AllIn) and, for the last three, the chips
    the player has in on this street after it."""

    rank: int
    amount: int = 0

    @classmethod
    def of(cls, kind: str, amount: int = 0) -> Action:
        return cls(_KINDS.index(kind), amount)

    @property
    def kind(self) -> str:
        return _KINDS[self.rank]

    def __str__(self) -> str:
        return f"{self.kind}({self.amount})" if self.rank >= 3 else self.kind

    __repr__ = __str__


@dataclass
class Node:
    """A node: its kind (decision, chance, fold, showdown), the street, the player to act (0 OOP,
    1 IP; at a fold, the player who folded), the chips each player has put in since the spot
    began (`committed`), the actions and the child for each (a chance node has one child: the
    next street, for every card), and the history of actions from the root."""

    kind: str
    street: str
    player: int
    committed: tuple[int, int]
    history: tuple[str, ...]
    actions: list[Action]
    children: list[int]


def _round(x: float) -> int:
    """Half away from zero, as postflop-solver rounds sizes."""
    return int(math.floor(x + 0.5))


class Tree:
    """The spot's betting tree, built once: ``nodes`` (a list of Node, the root first),
    ``lines()`` the text dump, ``node(path)`` a node by its history."""

    def __init__(self, spot: Spot) -> None:
        self.spot = spot
        self.nodes: list[Node] = []
        self._build(STREETS.index(spot.street), (0, 0), ())

    # -- building
    def _add(self, node: Node) -> int:
        self.nodes.append(node)
        return len(self.nodes) - 1

    def _build(self, street: int, committed: tuple[int, int], history: tuple[str, ...],
               oop_called: bool = False) -> int:
        """A street's first decision node (its subtree built), both players even at `committed`;
        `oop_called`: OOP called the last street's bet (the donk sizes apply)."""
        return self._decision(street, 0, committed, (0, 0), history, None, False, oop_called)

    def _decision(self, street: int, player: int, committed: tuple[int, int], bets: tuple[int, int],
                  history: tuple[str, ...], last: Action | None, allin: bool, oop_called: bool) -> int:
        spot = self.spot
        name = STREETS[street]
        me, opp = player, 1 - player
        base = spot.pot + 2 * committed[0]
        stack_left = spot.stack - committed[0]          # behind at the street's start (even)
        prev = bets[opp]
        to_call = prev - bets[me]
        pot = base + 2 * prev                              # the pot after a call
        max_amount = stack_left
        sizes = spot.sizes(name, me)
        actions: list[Action] = []
        facing = last is not None and last.kind in ("Bet", "Raise", "AllIn")
        if not facing:
            actions.append(Action.of("Check"))
            options = sizes.donk if (sizes.donk is not None and me == 0 and last is None and oop_called) \
                else sizes.bet
            for size in options:
                actions.append(Action.of("AllIn", max_amount) if size.kind == "a"
                               else Action.of("Bet", _round(pot * size.value)))
            if spot.add_allin and max_amount <= _round(pot * spot.add_allin):
                actions.append(Action.of("AllIn", max_amount))
        else:
            actions += [Action.of("Fold"), Action.of("Call")]
            if not allin:
                for size in sizes.raise_:
                    actions.append(self._raise(size, prev, pot, max_amount))
                if spot.add_allin and max_amount <= prev + _round(pot * spot.add_allin):
                    actions.append(Action.of("AllIn", max_amount))
        min_amount = min(max(prev + to_call, 1), max_amount)
        actions = sorted({self._clamp(a, min_amount, max_amount, prev, pot) for a in actions})

        index = self._add(Node(DECISION, name, me, committed, history, actions, []))
        children = []
        for action in actions:
            children.append(self._child(street, me, committed, bets, history, action, allin, oop_called))
        self.nodes[index].children = children
        return index

    @staticmethod
    def _raise(size: Size, prev: int, pot: int, max_amount: int) -> Action:
        if size.kind == "a":
            return Action.of("AllIn", max_amount)
        if size.kind == "x":
            return Action.of("Raise", _round(prev * size.value))
        return Action.of("Raise", prev + _round(pot * size.value))

    def _clamp(self, action: Action, low: int, high: int, prev: int, pot: int) -> Action:
        if action.kind not in ("Bet", "Raise"):
            return action
        amount = min(max(action.amount, low), high)
        new_pot = pot + 2 * (amount - prev)
        if high <= amount + _round(new_pot * self.spot.force_allin):
            return Action.of("AllIn", high)
        return Action(action.rank, amount)

    def _child(self, street: int, me: int, committed: tuple[int, int], bets: tuple[int, int],
               history: tuple[str, ...], action: Action, allin: bool, oop_called: bool) -> int:
        name = STREETS[street]
        line = history + (str(action),)
        kind = action.kind
        if kind == "Fold":
            spent = (committed[0] + bets[0], committed[1] + bets[1])
            return self._add(Node(FOLD, name, me, spent, line, [], []))
        if kind == "Check" and me == 0:
            return self._decision(street, 1, committed, bets, line, action, allin, oop_called)
        if kind in ("Check", "Call"):
            matched = committed[0] + max(bets)
            even = (matched, matched)
            if street == 2:
                return self._add(Node(SHOWDOWN, name, -1, even, line, [], []))
            return self._deal(street + 1, even, line, allin, oop_called=kind == "Call" and me == 0)
        new_bets = (action.amount, bets[1]) if me == 0 else (bets[0], action.amount)
        return self._decision(street, 1 - me, committed, new_bets, line, action,
                              allin or kind == "AllIn", oop_called)

    def _deal(self, street: int, even: tuple[int, int], line: tuple[str, ...], allin: bool,
              oop_called: bool) -> int:
        """A chance node dealing `street`'s card; after a called all-in nothing is left to bet,
        so the cards run out to the showdown."""
        chance = self._add(Node(CHANCE, STREETS[street], -1, even, line, [], []))
        line = line + ("/",)
        if not allin:
            child = self._build(street, even, line, oop_called)
        elif street == 2:
            child = self._add(Node(SHOWDOWN, "river", -1, even, line, [], []))
        else:
            child = self._deal(street + 1, even, line, allin, oop_called)
        self.nodes[chance].children = [child]
        return chance

    # -- reading
    @property
    def root(self) -> Node:
        return self.nodes[0]

    def lines(self) -> list[str]:
        """One line per decision node, depth first: ``street [history] : actions``."""
        out: list[str] = []

        def visit(index: int) -> None:
            node = self.nodes[index]
            if node.kind == DECISION:
                out.append(f"{node.street} [{' '.join(node.history)}] : "
                           f"{' '.join(str(a) for a in node.actions)}")
            for child in node.children:
                visit(child)

        visit(0)
        return out

    def node(self, path: list[str] | tuple[str, ...] | str = ()) -> Node:
        """The node reached by a history of actions (``"Check Bet(100)"`` or a list; ``/`` for a
        card dealt); ValueError naming the first action that does not exist there."""
        steps = path.split() if isinstance(path, str) else list(path)
        index = 0
        for step in steps:
            node = self.nodes[index]
            if node.kind == CHANCE:
                if step != "/":
                    raise ValueError(f"at [{' '.join(node.history)}] a card is dealt: the next step is '/'")
                index = node.children[0]
                continue
            names = [str(a) for a in node.actions]
            if step not in names:
                raise ValueError(f"no action {step!r} at [{' '.join(node.history)}]; "
                                 f"the actions are {' '.join(names) or 'none (terminal)'}")
            index = node.children[names.index(step)]
        return self.nodes[index]
