"""Laser's competitive mode: open bidding down from the first bid, the lowest bidder's
demonstration, figures removed as points, X marks, first to 15. Steps
`(state, event) -> (state, cues)` that rules.STEPS dispatches to."""

from __future__ import annotations

from dataclasses import replace

from companion.cues import Announce, AskHuman, Cue, Scored
from companion.errors import IllegalMove
from companion.events import ButtonPressed, TimerExpired

from .events import BidPlaced, RoundResult
from .flow import end_round, open_bid_seat, started, take_x, time_up, timed
from .proposal import PROPOSAL_WORK, most_removable, proposal, proposal_cues, refuse_unsolvable
from .state import LaserState

# PROPOSAL_WORK (proposal.py) stays importable here, where the simulated ring reads it.
__all__ = [
    "PROPOSAL_WORK",
    "bid_button",
    "bidding_over",
    "place_bid",
    "refuse_bid_button",
    "result",
]


# bidding --------------------------------------------------------------------------------
def bid_button(state: LaserState, ev: ButtonPressed):
    """The bid button starts the clock before anyone has said a number."""
    new = timed(state, "bidding", best=None, bid_log=())
    return new, [started(new), AskHuman("Who bid, and how many steps?", ())]


def refuse_bid_button(state: LaserState, ev: ButtonPressed) -> None:
    raise IllegalMove("the bid button starts the clock in competitive mode, before the first bid")


def place_bid(state: LaserState, ev: BidPlaced):
    """The first bid starts the clock; each later one must be lower."""
    at, bid = open_bid_seat(state, ev), ev.bid
    player = state.players[at]
    if state.phase == "thinking":
        new = timed(state, "bidding", best=(at, bid), bid_log=((at, bid),))
        return new, [
            started(new, at),
            Announce(f"{player} bids {bid}. Anyone lower? 30 seconds!"),
        ]
    if state.best is not None and bid >= state.best[1]:
        raise IllegalMove(f"only bids below {state.best[1]} count now")
    new = replace(state, best=(at, bid), bid_log=state.bid_log + ((at, bid),))
    return new, [Announce(f"{player} bids {bid}.")]


def bidding_over(state: LaserState, ev: TimerExpired):
    """The lowest bidder demonstrates; with no bid entered, back to thinking."""
    cues = time_up(state, ev)
    if state.best is None:
        new = replace(state, phase="thinking")
        return new, cues + [Announce("No bid was entered."), started(new)]
    at, bid = state.best
    new = timed(state, "demonstration", **proposal(state, bid))
    name = state.players[at]
    cues += [started(new, at), Announce(f"{name}: show it in {bid} steps!")]
    return new, cues + proposal_cues(new, name, bid)


# the result -----------------------------------------------------------------------------
def result(state: LaserState, ev: RoundResult):
    """The figures removed score for the demonstrator; a failure is an X."""
    at, bid = state.best
    name = state.players[at]
    scores, xs, pens = list(state.scores), list(state.xs), list(state.penalties)
    cues: list[Cue] = []
    if ev.success:
        refuse_unsolvable(state, bid)
        removed = ev.removed
        if removed is None:
            removed = state.proposal
        if removed is None:
            raise IllegalMove("enter how many figures were removed")
        if not isinstance(removed, int) or isinstance(removed, bool) or not 1 <= removed <= 24:
            raise IllegalMove("removed figures must be a whole number 1-24")
        most, why = most_removable(state)
        if removed > most:
            raise IllegalMove(f"{removed} figures cannot be right: {why}")
        scores[at] += removed
        cues.append(Scored(name, removed))
        text = f"{name} did it in {bid}: +{removed} (figures removed)"
    else:
        cues += take_x(state.players, at, scores, xs, pens)
        text = f"{name} failed {bid}: X"
    new = replace(state, scores=tuple(scores), xs=tuple(xs), penalties=tuple(pens))
    return end_round(new, cues, (text,))
