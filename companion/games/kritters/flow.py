"""What every phase of Colour MY Kritters shares: the phase guard and its refusals, whose
turn it is, the turn's countdown and the line that describes the game."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from companion.errors import IllegalMove
from companion.game import TimerSpec

from .state import KrittersState, ranking

# when each phase's events are taken, for the refusal in every other phase
WHEN = {
    "setup": "before the first turn",
    "play": "during play",
    "scoring": "at the end of the game",
    "over": "after the game",
}


def only(phase: str, what: str) -> Callable[[KrittersState, Any], Any]:
    """The step for an event in every phase but `phase`: refused, saying when it is taken."""

    def refuse(state: KrittersState, ev: Any):
        raise IllegalMove(f"{what} only {WHEN[phase]}; now: {describe(state)}")

    return refuse


def current_player(state: KrittersState) -> str | None:
    return state.players[state.seat] if state.phase == "play" else None


def timer(state: KrittersState) -> TimerSpec | None:
    seconds = state.options.turn_timer
    if state.phase != "play" or not seconds or state.time_up:
        return None
    return TimerSpec(f"turn-{state.turn}", seconds)


def describe(state: KrittersState) -> str:
    if state.phase == "setup":
        return "set-up: choose who takes the First Player card"
    if state.phase == "play":
        last = ", last round" if state.end_reason else ""
        return f"round {state.round}{last}: {current_player(state)}'s turn"
    if state.phase == "scoring":
        return f"scoring: {len(state.results)} of {len(state.players)} players entered"
    places = ranking(state)
    top = [p for place, p, _ in places if place == 1]
    return f"game over: {' and '.join(top)} with {places[0][2]}"
