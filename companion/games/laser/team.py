"""Laser's team mode: planning in silence, hidden bids shown together, the active player's
teammate, mixing in exactly the active player's bid. Steps `(state, event) -> (state, cues)`
that rules.STEPS dispatches to."""

from __future__ import annotations

from dataclasses import replace

from companion.cues import Announce, AskHuman, Cue, Scored
from companion.errors import IllegalMove
from companion.events import ButtonPressed, TimerExpired

from .events import BidPlaced, RoundResult, TeammateChosen
from .flow import bid_seat, end_round, open_bid_seat, seat, started, time_up, timed
from .proposal import proposal, proposal_cues, refuse_unsolvable
from .state import TEAM_BID_MAX, TEAM_BID_MIN, LaserState


# planning -------------------------------------------------------------------------------
def planning_over(state: LaserState, ev: TimerExpired):
    return _to_bids(state, time_up(state, ev))


def planning_ended_early(state: LaserState, ev: ButtonPressed):
    """ "Everyone ready" ends the planning before its clock."""
    return _to_bids(state, [Announce("Planning ended early.")])


def refuse_early_bid(state: LaserState, ev: BidPlaced) -> None:
    open_bid_seat(state, ev)  # a wrong bid is refused for what it is first
    raise IllegalMove("bids are shown together when the planning time is over")


def _to_bids(state: LaserState, cues: list[Cue]):
    new = replace(state, phase="bids", bids=(None,) * len(state.players))
    return new, cues + [started(new), Announce("One, two, three: show your bids!")]


# bids and the teammate ------------------------------------------------------------------
def place_bid(state: LaserState, ev: BidPlaced):
    """A bid shown on the fingers (2-10); it may be corrected until the last one is in."""
    at = bid_seat(state, ev)
    if not TEAM_BID_MIN <= ev.bid <= TEAM_BID_MAX:
        raise IllegalMove(f"team bids are {TEAM_BID_MIN}-{TEAM_BID_MAX} steps")
    bids = list(state.bids)
    bids[at] = ev.bid
    new = replace(state, bids=tuple(bids))
    if any(b is None for b in bids):
        return new, []
    return _form_team(new)


def _form_team(state: LaserState):
    a = state.active
    mine = state.bids[a]
    gaps = {i: abs(b - mine) for i, b in enumerate(state.bids) if i != a}
    closest = min(gaps.values())
    cands = tuple(i for i in sorted(gaps) if gaps[i] == closest)
    if len(cands) == 1:
        return _start_mixing(replace(state, candidates=cands), cands[0])
    new = replace(state, phase="choosing", candidates=cands)
    names = tuple(state.players[i] for i in cands)
    return new, [
        started(new, a),
        AskHuman(f"{state.players[a]}: choose your teammate", names),
    ]


def choose(state: LaserState, ev: TeammateChosen):
    """The active player's pick among equally close bidders."""
    at = seat(state, ev.player)
    if at not in state.candidates:
        names = ", ".join(state.players[i] for i in state.candidates)
        raise IllegalMove(f"{ev.player}'s bid is not among the closest (choose from {names})")
    return _start_mixing(state, at)


def refuse_choice(state: LaserState, ev: TeammateChosen) -> None:
    raise IllegalMove("there is no teammate to choose now")


def _start_mixing(state: LaserState, mate: int):
    a, bid = state.players[state.active], state.bids[state.active]
    new = timed(state, "mixing", mate=mate, **proposal(state, bid))
    return new, [
        started(new, state.active),
        Announce(f"{a} and {state.players[mate]}: exactly {bid} steps, {a} starts. No talking!"),
    ] + proposal_cues(new, a, bid)


# the result -----------------------------------------------------------------------------
def result(state: LaserState, ev: RoundResult):
    """The pair scores its bid each, or everyone else does."""
    a, mate, bid = state.active, state.mate, state.bids[state.active]
    scores = list(state.scores)
    cues: list[Cue] = []
    if ev.success:
        refuse_unsolvable(state, bid)
        gainers = [a, mate]
        text = f"{state.players[a]} and {state.players[mate]} did it in {bid}: +{bid} each"
    else:
        gainers = [i for i in range(len(scores)) if i not in (a, mate)]
        text = f"{state.players[a]} and {state.players[mate]} failed: others +{bid}"
    for i in gainers:
        scores[i] += bid
        cues.append(Scored(state.players[i], bid))
    return end_round(replace(state, scores=tuple(scores)), cues, (text,))
