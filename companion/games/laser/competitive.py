"""Laser's competitive mode: open bidding down from the first bid, the lowest bidder's
demonstration, figures removed as points, X marks, first to 15."""

from __future__ import annotations

from dataclasses import replace

from companion.cues import Announce, AskHuman, Cue, Scored
from companion.errors import IllegalMove

from .board import COMPETITIVE, Position
from .state import X_LIMIT, X_PENALTY, LaserState

PROPOSAL_SLACK = 3  # bids this far above the optimum still get a proposal (time grows fast)


class CompetitiveMode:
    """LaserGame's competitive-mode steps (it supplies _timed, _started, position and
    _end_round)."""

    def _bid_button(self, state: LaserState):
        if state.mode != COMPETITIVE or state.phase != "thinking":
            raise IllegalMove(
                "the bid button starts the clock in competitive mode, before the first bid"
            )
        new = self._timed(state, "bidding", best=None, bid_log=())
        return new, [self._started(new), AskHuman("Who bid, and how many steps?", ())]

    def _competitive_bid(self, state: LaserState, seat: int, bid: int):
        player = state.players[seat]
        if state.phase == "thinking":
            new = self._timed(state, "bidding", best=(seat, bid), bid_log=((seat, bid),))
            return new, [
                self._started(new, seat),
                Announce(f"{player} bids {bid}. Anyone lower? 30 seconds!"),
            ]
        if state.best is not None and bid >= state.best[1]:
            raise IllegalMove(f"only bids below {state.best[1]} count now")
        new = replace(state, best=(seat, bid), bid_log=state.bid_log + ((seat, bid),))
        return new, [Announce(f"{player} bids {bid}.")]

    def _start_demo(self, state: LaserState, seat: int, bid: int, cues: list[Cue]):
        proposal = None
        pos = self.position(state)
        if pos is not None:
            proposal = propose_removed(pos, bid)
        new = self._timed(state, "demonstration", proposal=proposal)
        name = state.players[seat]
        cues = cues + [self._started(new, seat), Announce(f"{name}: show it in {bid} steps!")]
        if proposal is not None:
            cues.append(AskHuman(f"{name} removes how many figures?", (str(proposal),)))
        return new, cues

    def _competitive_result(self, state: LaserState, success: bool, removed: int | None):
        seat, bid = state.best
        name = state.players[seat]
        scores, xs, pens = list(state.scores), list(state.xs), list(state.penalties)
        cues: list[Cue] = []
        if success:
            if removed is None:
                removed = state.proposal
            if removed is None:
                raise IllegalMove("enter how many figures were removed")
            if (
                not isinstance(removed, int)
                or isinstance(removed, bool)
                or not (1 <= removed <= 24)
            ):
                raise IllegalMove("removed figures must be a whole number 1-24")
            scores[seat] += removed
            cues.append(Scored(name, removed))
            text = f"{name} did it in {bid}: +{removed} (figures removed)"
        else:
            cues += take_x(state.players, seat, scores, xs, pens)
            text = f"{name} failed {bid}: X"
        new = replace(state, scores=tuple(scores), xs=tuple(xs), penalties=tuple(pens))
        return self._end_round(new, cues, (text,))


def propose_removed(pos: Position, bid: int) -> int | None:
    """The most figures a solution of exactly `bid` steps removes, when the solver can say
    quickly: at the optimum (one A* search) or up to PROPOSAL_SLACK above it."""
    from .solver import max_removed_for, solve

    sol = solve(pos, totals=False)
    if sol.min_cost is None or bid < sol.min_cost or bid > sol.min_cost + PROPOSAL_SLACK:
        return None
    if bid == sol.min_cost:
        return sol.max_removed
    return max_removed_for(pos, bid)


def take_x(players, seat: int, scores: list[int], xs: list[int], pens: list[int]) -> list[Cue]:
    """One X for `seat`; the third becomes -6 and the count starts again."""
    xs[seat] += 1
    if xs[seat] >= X_LIMIT:
        xs[seat] = 0
        pens[seat] += 1
        scores[seat] += X_PENALTY
        return [Announce(f"{players[seat]}: third X, -6 instead"), Scored(players[seat], X_PENALTY)]
    return [Announce(f"{players[seat]} takes an X ({xs[seat]} of {X_LIMIT})")]
