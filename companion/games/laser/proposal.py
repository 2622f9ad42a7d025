"""The solver's word on a demonstrated bid, as the rules use it: the entered board as a
position, the removed figures it proposes, the check that success is possible at all, and the
most figures a bid can remove. Plain functions over the frozen state, shared by every
demonstration (team mixing, competitive, the proof of an Impossible! claim)."""

from __future__ import annotations

from typing import Any

from companion.cues import Announce, AskHuman, Cue
from companion.errors import IllegalMove

from .board import CARD_CAPACITY, COLOURS, COMPETITIVE, FLOORS, TEAM, TILES, Card, Position
from .solver import DEFAULT_MAX_COST, max_removed_for, solve
from .solver.limit import Limit, LimitReached
from .state import LaserState

PROPOSAL_SLACK = 3  # bids this far above the optimum still get a proposal (time grows fast)
# The proposal is computed as the bidding clock runs out, so the rules bound it: at most this
# many searched states (a work count, not seconds, so a replayed log proposes the same). Two
# and three cards never come near it; four rarely (benchmarks/laser_solver.py).
PROPOSAL_WORK = 10_000
# A board holds at most 11 figures (the cat stands on the twelfth tile); the colour cards 12.
MOST_ON_TABLE = TILES - 1 + 6 * CARD_CAPACITY


def position(state: LaserState, board=None, cards=None) -> Position | None:
    """The entered board with this round's cards as a solver position, if complete."""
    board = state.board if board is None else board
    cards = state.cards if cards is None else cards
    if board is None or not cards:
        return None
    tiles, floors, cat, supply = board
    return Position(
        state.mode,
        tuple(None if t is None else COLOURS.index(t) for t in tiles),
        cat,
        tuple(supply),
        tuple(Card(COLOURS.index(c), None if f is None else FLOORS.index(f)) for c, f in cards),
        None if floors is None else tuple(FLOORS.index(f) for f in floors),
    )


def proposal(state: LaserState, bid: int) -> dict[str, Any]:
    """The solver's word on the demonstrated bid, if the board is entered (bounded): the
    state fields `proposal` and `no_solution`."""
    pos = position(state)
    if pos is None:
        return {"proposal": None, "no_solution": False}
    most, known = propose(pos, bid)
    return {"proposal": most, "no_solution": known and most is None}


def proposal_cues(state: LaserState, name: str, bid: int) -> list[Cue]:
    if state.no_solution:
        return [Announce(f"The board as entered has no solution in exactly {bid} steps.")]
    if state.proposal is not None and state.mode == COMPETITIVE and state.phase != "proof":
        return [AskHuman(f"{name} removes how many figures?", (str(state.proposal),))]
    return []


def judged_bid(state: LaserState) -> int | None:
    """The bid being demonstrated: the team's (the active player's), else the lowest bid."""
    if state.mode == TEAM and state.phase in ("mixing", "verdict"):
        return state.bids[state.active]
    return state.best[1] if state.best else None


def refuse_unsolvable(state: LaserState, bid: int) -> None:
    """Success cannot be given where the solver proved the entered board has no solution in
    exactly the bid: one check for every demonstration (team mixing, competitive, proof)."""
    if state.no_solution:
        raise IllegalMove(
            f"the board as entered has no solution in exactly {bid} steps: "
            "correct the board, or judge it failed"
        )


def no_solution_hint(state: LaserState) -> str | None:
    """What the demonstration screens say before any result is tapped, when the solver proved
    the entered board has no solution in exactly the bid."""
    if not state.no_solution:
        return None
    return (
        f"No solution exists in exactly {judged_bid(state)} steps on the board as entered: "
        "judge it failed, or correct the board."
    )


def most_removable(state: LaserState) -> tuple[int, str]:
    """The most figures the demonstrated bid can remove, and why, for people: the solver's
    count on the entered board, else counting (a mix removes 2 figures for at least 1 step;
    only figures on the board and the colour cards can leave it)."""
    bid = state.best[1]
    if state.proposal is not None:
        return state.proposal, (
            f"on the board as entered, {bid} steps remove at most {state.proposal} figures"
        )
    pos = position(state)
    if pos is None:
        in_play, where = MOST_ON_TABLE, "the board and the colour cards hold at most"
    else:
        in_play = sum(t is not None for t in pos.tiles) + sum(pos.supply)
        where = "the board and the colour cards as entered hold"
    if 2 * bid <= in_play:
        return 2 * bid, f"{bid} steps remove at most {2 * bid} figures (2 per mix)"
    return in_play, f"{where} {in_play} figures"


def propose(pos: Position, bid: int, work: int = PROPOSAL_WORK) -> tuple[int | None, bool]:
    """(the most figures a solution of exactly `bid` steps removes, whether that is known).
    (None, True): no solution costs exactly `bid`. Unknown when the bid is more than
    PROPOSAL_SLACK above the optimum or the search used up `work` searched states."""
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
