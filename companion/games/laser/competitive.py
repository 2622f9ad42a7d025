"""Laser's competitive mode: open bidding down from the first bid, the lowest bidder's
demonstration, figures removed as points, X marks, first to 15."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from companion.cues import Announce, AskHuman, Cue, Scored
from companion.errors import IllegalMove

from .board import CARD_CAPACITY, COMPETITIVE, TILES, Position
from .limit import Limit, LimitReached
from .state import X_LIMIT, X_PENALTY, LaserState

PROPOSAL_SLACK = 3  # bids this far above the optimum still get a proposal (time grows fast)
# The proposal is computed as the bidding clock runs out, so the rules bound it: at most this
# many searched states (a work count, not seconds, so a replayed log proposes the same). Two
# and three cards never come near it; four rarely (benchmarks/laser_solver.py).
PROPOSAL_WORK = 10_000
# A board holds at most 11 figures (the cat stands on the twelfth tile); the colour cards 12.
MOST_ON_TABLE = TILES - 1 + 6 * CARD_CAPACITY


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
        new = self._timed(state, "demonstration", **self._proposal(state, bid))
        name = state.players[seat]
        cues = cues + [self._started(new, seat), Announce(f"{name}: show it in {bid} steps!")]
        return new, cues + proposal_cues(new, name, bid)

    def _proposal(self, state: LaserState, bid: int) -> dict[str, Any]:
        """The solver's word on the demonstrated bid, if the board is entered (bounded)."""
        pos = self.position(state)
        if pos is None:
            return {"proposal": None, "no_solution": False}
        most, known = propose(pos, bid)
        return {"proposal": most, "no_solution": known and most is None}

    def _competitive_result(self, state: LaserState, success: bool, removed: int | None):
        seat, bid = state.best
        name = state.players[seat]
        scores, xs, pens = list(state.scores), list(state.xs), list(state.penalties)
        cues: list[Cue] = []
        if success:
            if state.no_solution:
                raise IllegalMove(
                    f"the board as entered has no solution in exactly {bid} steps: "
                    "correct the board, or judge it failed"
                )
            if removed is None:
                removed = state.proposal
            if removed is None:
                raise IllegalMove("enter how many figures were removed")
            if not isinstance(removed, int) or isinstance(removed, bool) or not 1 <= removed <= 24:
                raise IllegalMove("removed figures must be a whole number 1-24")
            most, why = self.most_removable(state)
            if removed > most:
                raise IllegalMove(f"{removed} figures cannot be right: {why}")
            scores[seat] += removed
            cues.append(Scored(name, removed))
            text = f"{name} did it in {bid}: +{removed} (figures removed)"
        else:
            cues += take_x(state.players, seat, scores, xs, pens)
            text = f"{name} failed {bid}: X"
        new = replace(state, scores=tuple(scores), xs=tuple(xs), penalties=tuple(pens))
        return self._end_round(new, cues, (text,))

    def most_removable(self, state: LaserState) -> tuple[int, str]:
        """The most figures the demonstrated bid can remove, and why, for people: the
        solver's count on the entered board, else counting (a mix removes 2 figures for at
        least 1 step; only figures on the board and the colour cards can leave it)."""
        bid = state.best[1]
        if state.proposal is not None:
            return state.proposal, (
                f"on the board as entered, {bid} steps remove at most {state.proposal} figures"
            )
        pos = self.position(state)
        if pos is None:
            in_play, where = MOST_ON_TABLE, "the board and the colour cards hold at most"
        else:
            in_play = sum(t is not None for t in pos.tiles) + sum(pos.supply)
            where = "the board and the colour cards as entered hold"
        if 2 * bid <= in_play:
            return 2 * bid, f"{bid} steps remove at most {2 * bid} figures (2 per mix)"
        return in_play, f"{where} {in_play} figures"


def proposal_cues(state: LaserState, name: str, bid: int) -> list[Cue]:
    if state.no_solution:
        return [Announce(f"The board as entered has no solution in exactly {bid} steps.")]
    if state.proposal is not None:
        return [AskHuman(f"{name} removes how many figures?", (str(state.proposal),))]
    return []


def propose(pos: Position, bid: int, work: int = PROPOSAL_WORK) -> tuple[int | None, bool]:
    """(the most figures a solution of exactly `bid` steps removes, whether that is known).
    (None, True): no solution costs exactly `bid`. Unknown when the bid is more than
    PROPOSAL_SLACK above the optimum or the search used up `work` searched states."""
    from .solver import DEFAULT_MAX_COST, max_removed_for, solve

    limit = Limit(work=work)
    sol = solve(pos, totals=False, limit=limit)
    if not sol.solved:
        return None, False
    if sol.min_cost is None:  # nothing within DEFAULT_MAX_COST
        return None, bid <= DEFAULT_MAX_COST
    if bid < sol.min_cost:
        return None, True
    if bid == sol.min_cost:
        return sol.max_removed, True
    if bid > sol.min_cost + PROPOSAL_SLACK:
        return None, False
    try:
        return max_removed_for(pos, bid, limit=limit), True
    except LimitReached:
        return None, False


def propose_removed(pos: Position, bid: int) -> int | None:
    """The most figures a solution of exactly `bid` steps removes, when the solver can say
    within its limit: at the optimum (one A* search) or up to PROPOSAL_SLACK above it."""
    return propose(pos, bid)[0]


def take_x(players, seat: int, scores: list[int], xs: list[int], pens: list[int]) -> list[Cue]:
    """One X for `seat`; the third becomes -6 and the count starts again."""
    xs[seat] += 1
    if xs[seat] >= X_LIMIT:
        xs[seat] = 0
        pens[seat] += 1
        scores[seat] += X_PENALTY
        return [Announce(f"{players[seat]}: third X, -6 instead"), Scored(players[seat], X_PENALTY)]
    return [Announce(f"{players[seat]} takes an X ({xs[seat]} of {X_LIMIT})")]
