"""The Laser solver's depth-first searches over exact costs: whether a bid can be spent
exactly (team mode's exact totals), and the most figures removed at each exact cost (the
competitive proposal). Both are pruned by the same bounds as the A* search."""

from __future__ import annotations

from ..board import Position
from .bounds import Bounds
from .limit import Limit
from .moves import Move
from .space import State

TEAM_BIDS = range(2, 11)


class Totals(Bounds):
    """The bounded state space with its exact-cost searches, memoised per state. Every
    search counts the states it expands against `limit`, if any (LimitReached past it)."""

    def __init__(
        self, pos: Position, straight_away: bool = True, limit: Limit | None = None
    ) -> None:
        super().__init__(pos, straight_away)
        self.limit = limit
        self._profile: dict[State, tuple[int, dict[int, int]]] = {}
        self._spends: dict[tuple[State, int], bool] = {}

    def profile(self, s: State, budget: int, chain: tuple | None = None) -> dict[int, int]:
        """Every exact cost <= budget that completes the round from `s`, each with the most
        figures removed (counted from the start of the round) at that cost. `chain`: the
        bounds of the chain `s` is in, if known (see astar)."""
        if self.is_goal(s):
            return {0: self.removed(s)}
        memo = self._profile.get(s)
        if memo is not None and memo[0] >= budget:
            if memo[0] == budget:
                return memo[1]
            return {c: r for c, r in memo[1].items() if c <= budget}
        if self.limit is not None:
            self.limit.spend()
        if chain is None:
            if self.refined(s, budget) > budget:
                return {}
            if self.straight_away:
                chain = self.chain_bounds(s, budget)
        out: dict[int, int] = {}
        for step, cost in self.steps(s, True, budget):
            left = budget - cost
            if chain is not None and self.in_chain(chain, s[0], step) > left:
                continue
            ns = self.apply(s, step)
            for c, r in self.profile(ns, left, chain if ns[4] else None).items():
                total = c + cost
                if r > out.get(total, -1):
                    out[total] = r
        self._profile[s] = (budget, out)
        return out

    def spends(self, s: State, left: int, chain: tuple | None = None) -> bool:
        """Whether exactly `left` more MP can complete the round from `s` (depth-first, stops
        at the first way found; both answers are remembered)."""
        if self.is_goal(s):
            return left == 0
        known = self._spends.get((s, left))
        if known is not None:
            return known
        if self.limit is not None:
            self.limit.spend()
        if chain is None:
            if self.refined(s, left) > left:
                self._spends[s, left] = False
                return False
            if self.straight_away:
                chain = self.chain_bounds(s, max(left, TEAM_BIDS[-1]))
        ok = False
        for step, cost in self.steps(s, True, left):
            rest = left - cost
            if chain is not None and self.in_chain(chain, s[0], step) > rest:
                continue
            ns = self.apply(s, step)
            if self.spends(ns, rest, chain if ns[4] else None):
                ok = True
                break
        self._spends[s, left] = ok
        return ok

    def path_for(self, total: int) -> list[Move] | None:
        """A legal move list costing exactly `total` that removes the most figures."""
        want = self.profile(self.start, total).get(total)
        if want is None:
            return None
        s, left, moves = self.start, total, []
        while left:
            for step, cost, ns in self.successors(s, long_way=True):
                if cost <= left and self.profile(ns, left - cost).get(left - cost) == want:
                    moves.append(self.make_move(s, step))
                    s, left = ns, left - cost
                    break
            else:  # pragma: no cover - the profile promised a continuation
                raise AssertionError("profile and successors disagree")
        return moves
