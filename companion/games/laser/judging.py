"""What every demonstration shares (team mixing, competitive, the proof of an Impossible!
claim): the verdict asked for when its clock runs out, and the camera's word on it kept for
a person to confirm. Steps `(state, event) -> (state, cues)` that rules.STEPS dispatches to;
each mode scores the result itself (team.result, competitive.result, impossible.proof_result)."""

from __future__ import annotations

from dataclasses import replace

from companion.cues import AskHuman
from companion.errors import IllegalMove
from companion.events import TimerExpired

from .events import ResultProposed, RoundResult
from .flow import started, time_up
from .state import LaserState


def time_for_verdict(state: LaserState, ev: TimerExpired):
    """People say whether it was done in time."""
    cues = time_up(state, ev)
    new = replace(state, phase="proof-verdict" if state.phase == "proof" else "verdict")
    return new, cues + [
        started(new),
        AskHuman("Time! Was every card completed in time?", ("yes", "no")),
    ]


def result_proposed(state: LaserState, ev: ResultProposed):
    """The camera's word on the demonstration: keep the result to confirm, ask."""
    if ev.success is None:
        return state, [AskHuman(ev.question)]
    new = replace(state, demo_result=(bool(ev.success), ev.removed))
    result = RoundResult(bool(ev.success), ev.removed)  # what "next" or a tap confirms
    return new, [AskHuman(ev.question, ("Confirm",), (result,))]


def refuse_proposed_result(state: LaserState, ev: ResultProposed) -> None:
    raise IllegalMove(f"there is no demonstration to judge during {state.phase}")


def refuse_result(state: LaserState, ev: RoundResult) -> None:
    raise IllegalMove(f"there is nothing to judge during {state.phase}")
