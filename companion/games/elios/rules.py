"""Elios (Helvetiq): be the first to place all your beams on the sun.

Elios's rules as one flow: the phases below, and STEPS, the one table that says which step
takes each event in each phase. The steps are plain functions `(state, event) -> (state,
cues)` over the frozen EliosState (state.py), in modules by phase: grouping.py (the deal and
the groups each player declares) and turns.py (placing, adding a disc, splitting, passing),
which asks passing.py whether a pass can be checked.

grouping (every player declares their groups) -> turns (whoever was ready last starts,
with a group holding a joker) -> over (a side placed all its beams, or nobody can act)
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from companion.cues import Cue
from companion.errors import IllegalMove
from companion.events import Event, TimerExpired
from companion.game import GameBase, GameConfig, TimerSpec
from companion.words import not_used

from . import grouping, turns
from .events import AddDisc, Pass, PlaceGroup, Ready, SplitGroup
from .passing import pass_refusal
from .state import DISCS_IN_BOX, EliosState

Step = Callable[[EliosState, Any], tuple[EliosState, list[Cue]]]
ANY = "any phase"  # a row for the phases that have none of their own for that event
TURN_EVENTS = (PlaceGroup, AddDisc, SplitGroup, Pass)

# (phase, event type) -> the step that takes it. Rows are tried for the phase, then for ANY.
STEPS: dict[tuple[str, type], Step] = {
    ("grouping", Ready): grouping.ready,
    **{("grouping", kind): grouping.refuse_turn for kind in TURN_EVENTS},
    ("turns", PlaceGroup): turns.place,
    ("turns", AddDisc): turns.add_disc,
    ("turns", SplitGroup): turns.split,
    ("turns", Pass): turns.pass_turn,
    (ANY, TimerExpired): turns.time_up,  # refused unless the turn's timer is running
    (ANY, Ready): grouping.refuse_ready,
}


def step_for(state: EliosState, event: Event) -> Step | None:
    for key in ((state.phase, type(event)), (ANY, type(event))):
        if key in STEPS:
            return STEPS[key]
    return None


class Elios(GameBase):
    name = "elios"
    title = "Elios"
    lower_is_better = True  # the beams still in front of a player
    min_players = 2
    max_players = 4

    # set-up ---------------------------------------------------------------------------
    def initial_state(self, config: GameConfig) -> EliosState:
        return grouping.deal(config)

    # changing -------------------------------------------------------------------------
    def apply(self, state: EliosState, event: Event) -> tuple[EliosState, list[Cue]]:
        if state.phase == "over":
            raise IllegalMove("the game is over")
        step = step_for(state, event)
        if step is None:
            raise IllegalMove(not_used("Elios", event))
        return step(state, event)

    # reading --------------------------------------------------------------------------
    def legal_actions(self, state: EliosState) -> tuple[Event, ...]:
        """The steps that need no colours; placements depend on the beams in front of the
        player and are checked when entered."""
        if state.phase != "turns" or state.turn == 0:
            return ()
        p = state.current
        out: list[Event] = []
        if state.discs < DISCS_IN_BOX:
            out.append(AddDisc(p))
        for size in sorted({g for g in state.hand(p).groups if g > 1}):
            out.append(SplitGroup(p, size))
        if pass_refusal(state, p) is None:
            out.append(Pass(p))
        return tuple(out)

    def current_player(self, state: EliosState) -> str | None:
        return state.current if state.phase == "turns" else None

    def scores(self, state: EliosState) -> dict[str, int]:
        """Beams still in front of each player: fewer is better, 0 wins."""
        return {h.player: h.beams for h in state.hands}

    def is_over(self, state: EliosState) -> bool:
        return state.phase == "over"

    def winners(self, state: EliosState) -> tuple[str, ...]:
        return state.winners

    def timer(self, state: EliosState) -> TimerSpec | None:
        return turns.timer(state)

    def describe(self, state: EliosState) -> str:
        if state.phase == "grouping":
            waiting = [h.player for h in state.hands if not h.ready]
            return f"Grouping: waiting for {', '.join(waiting)}"
        if state.phase == "over":
            return f"{' and '.join(state.winners)} won"
        extra = " (first play: a group with a joker)" if state.turn == 0 else ""
        late = " (time is up)" if state.overtime else ""
        return f"{state.current}'s turn{extra}{late}"


GAME = Elios()
