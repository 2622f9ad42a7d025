"""Exact Laser solver: the fewest movement points that complete every revealed prism card.

The round's state and its legal moves are in space.py (with the "straight away" rule, a
solution is a sequence of chains, each ending in a completed card); the admissible bounds
that prune every search are in bounds.py and chains.py. Here: the optimum from A*, and
impossibility from a depth-first search with the costs ignored. Exact totals per bid and the
removed-figure counts per cost come from the depth-first searches in totals.py.
"""

from __future__ import annotations

import heapq
import itertools
from collections.abc import Sequence

from companion.errors import IllegalMove

from ..board import COLOURS, FLOORS, TEAM, TILES, Position
from .chains import INF
from .limit import Limit, LimitReached
from .moves import Move, Solution, as_move
from .space import State
from .totals import TEAM_BIDS, Totals

DEFAULT_MAX_COST = 20
# more than any round can cost: at most 10 mixes (each leaves one figure fewer) of at most
# 6 MP the short way, and one cat move of at most 12 MP
MOST = 100


class _Search(Totals):
    """One position's searches, sharing the memoised bounds."""

    # optimum ------------------------------------------------------------------------
    def astar(self, max_cost: int) -> tuple[int | None, list[tuple[Move, State]]]:
        """The optimal cost and a path (moves with the states they lead to) to the goal
        state removing most figures among all optimal ones.

        With "straight away", a state between chains gets the refined bound when it comes
        up, and the states inside a chain take theirs from one backward pass made where the
        chain starts; otherwise every state gets the quick bound."""
        start = self.start
        h0 = self.h(start)
        if h0 > max_cost:
            return None, []
        counter = itertools.count()
        heap = [(h0, 0, next(counter), start)]  # (f, -g: deeper first on ties, n, state)
        best = {start: 0}
        parent: dict[State, tuple[State, tuple] | None] = {start: None}
        found: int | None = None
        goals: list[State] = []
        chain_of: dict[State, tuple] = {}  # a state inside a chain: its chain's bounds
        straight = self.straight_away
        while heap:
            f, g, _, s = heapq.heappop(heap)
            g = -g
            if found is not None and f > found:
                break
            if g > best[s]:
                continue
            if self.limit is not None:
                self.limit.spend()
            limit = max_cost if found is None else found
            if straight and not s[4]:
                hs = self.refined(s, limit - g)
                if g + hs > f:
                    if g + hs <= limit:
                        heapq.heappush(heap, (g + hs, -g, next(counter), s))
                    continue
            if self.is_goal(s):
                found = g if found is None else found
                goals.append(s)
                continue
            hs = f - g
            chain = None
            if straight:
                chain = chain_of.get(s) or self.chain_bounds(s, limit - g - 1)
            for step, cost in self.steps(s, False, limit - g):
                ng = g + cost
                if chain is not None:  # or the parent's bound less the step, if that is more
                    hn = max(self.in_chain(chain, s[0], step), hs - cost)
                    if ng + hn > limit:
                        continue
                ns = self.apply(s, step)
                if ng >= best.get(ns, INF):
                    continue
                if chain is None:
                    hn = self.h(ns)
                    if ng + hn > limit:
                        continue
                elif ns[4]:
                    chain_of[ns] = chain
                best[ns] = ng
                parent[ns] = (s, step)
                heapq.heappush(heap, (ng + hn, -ng, next(counter), ns))
        if found is None:
            return None, []
        goal = max(goals, key=self.removed)
        path: list[tuple[Move, State]] = []
        s = goal
        while parent[s] is not None:
            prev, step = parent[s]
            path.append((self.make_move(prev, step), s))
            s = prev
        return found, path[::-1]

    def feasible(self) -> bool:
        """Whether any solution exists at any cost: depth-first with the costs ignored, dead
        states cut by the same bounds as the A* search."""
        seen: set[State] = set()
        stack: list[tuple[State, tuple | None]] = [(self.start, None)]
        while stack:
            s, chain = stack.pop()
            if self.is_goal(s):
                return True
            if s in seen:
                continue
            seen.add(s)
            if self.limit is not None:
                self.limit.spend()
            if chain is None:
                if self.refined(s, MOST) > MOST:
                    continue
                if self.straight_away:
                    chain = self.chain_bounds(s, MOST)
            for step, _cost in self.steps(s, long_way=False):
                if chain is None or self.in_chain(chain, s[0], step) <= MOST:
                    ns = self.apply(s, step)
                    if ns not in seen:
                        stack.append((ns, chain if ns[4] else None))
        return False


# public API ------------------------------------------------------------------------------
def solve(
    pos: Position,
    max_cost: int = DEFAULT_MAX_COST,
    totals: bool | None = None,
    straight_away: bool = True,
    limit: Limit | None = None,
) -> Solution:
    """Solve a position. `totals` (default: team mode only) adds every exact bid 2-10.
    `straight_away` (the rulebook's wording, default): a mixed figure that completes no card
    must be used in the very next mix; False lets it wait for any later mix.
    `limit`: where to give up. Then `solved` is False and nothing unproven is claimed: the
    optimum and its moves only if A* finished, no exact totals, not impossible."""
    search = _Search(pos, straight_away, limit)
    try:
        cost, path = search.astar(max_cost)
    except LimitReached as stop:
        return Solution(None, (), 0, 0, False, (), solved=False, note=str(stop))
    moves = tuple(m for m, _ in path)
    removed = sum(m.removed for m in moves)
    if totals is None:
        totals = pos.mode == TEAM
    try:
        exact: tuple[int, ...] = ()
        if totals and search.h(search.start) < INF:
            least = cost if cost is not None else max_cost + 1
            exact = tuple(t for t in TEAM_BIDS if t >= least and search.spends(search.start, t))
        impossible = cost is None and not search.feasible()
    except LimitReached as stop:
        return Solution(cost, moves, removed, removed, False, (), solved=False, note=str(stop))
    return Solution(cost, moves, removed, removed, impossible, exact)


def exact_profile(
    pos: Position, budget: int, straight_away: bool = True, limit: Limit | None = None
) -> dict[int, int]:
    """{exact cost: most figures removed at that cost} for every cost <= budget.
    Raises LimitReached past `limit`."""
    search = _Search(pos, straight_away, limit)
    return dict(sorted(search.profile(search.start, budget).items()))


def max_removed_for(
    pos: Position, cost: int, straight_away: bool = True, limit: Limit | None = None
) -> int | None:
    """Most figures a solution costing exactly `cost` removes, or None if none costs that.
    Raises LimitReached past `limit`."""
    search = _Search(pos, straight_away, limit)
    return search.profile(search.start, cost).get(cost)


def solution_for(pos: Position, cost: int, straight_away: bool = True) -> list[Move] | None:
    """A legal move list costing exactly `cost` (most figures removed), or None."""
    return _Search(pos, straight_away).path_for(cost)


def replay(
    pos: Position, moves: Sequence[Move | dict], straight_away: bool = True
) -> tuple[int, int]:
    """Play a move list on `pos` by the rules; return (cost, figures removed).
    Raises IllegalMove naming the first move that breaks a rule or leaves a card open."""
    search = _Search(pos, straight_away)
    s = search.start
    cost = 0
    for n, raw in enumerate(moves, 1):
        mv = as_move(raw)
        for step, c, ns in search.successors(s, long_way=True):
            cand = search.make_move(s, step)
            same_way = cand.clockwise == mv.clockwise or mv.steps == TILES // 2
            if (cand.kind, cand.src, cand.dst, cand.steps) == (
                mv.kind,
                mv.src,
                mv.dst,
                mv.steps,
            ) and same_way:
                s, cost = ns, cost + c
                break
        else:
            owed = s[4]
            if owed and search.straight_away:
                tile = owed.bit_length() - 1
                raise IllegalMove(
                    f"move {n} ({mv.kind} {mv.src}->{mv.dst}) leaves the {COLOURS[s[0][tile]]} "
                    f"mixed on tile {tile} unused; it must be used straight away"
                )
            raise IllegalMove(f"move {n} ({mv.kind} {mv.src}->{mv.dst}) is not allowed here")
    if s[3]:
        open_cards = ", ".join(search.kinds[k].label() for k in s[3])
        raise IllegalMove(f"the moves leave {open_cards} open")
    if s[4]:
        raise IllegalMove("a mixed figure was never used: no unneeded moves are allowed")
    return cost, search.removed(s)


__all__ = [
    "COLOURS",
    "DEFAULT_MAX_COST",
    "FLOORS",
    "Limit",
    "LimitReached",
    "Move",
    "Solution",
    "exact_profile",
    "max_removed_for",
    "replay",
    "solution_for",
    "solve",
]
