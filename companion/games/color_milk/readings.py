"""Color Milk's readings of the table: balls crossing the beam and balls seen (or tapped) in
the tray's five slots, checked against what the mill can still hold. A person's tap is
authoritative; doubtful or impossible camera readings become questions.

Plain functions over the frozen MilkState; the ball_* and refuse_* functions are steps of
rules.STEPS."""

from __future__ import annotations

from dataclasses import replace
from typing import NoReturn

from companion import cues as c
from companion.errors import IllegalMove
from companion.events import BallPassed, BallSeen, Event
from companion.games.color_milk.mill import BALLS_PER_ROUND, COLOURS, counts_of, fits, minus
from companion.games.color_milk.predictions import check_when_ready
from companion.games.color_milk.state import (
    AUTHORITATIVE,
    READING_PHASES,
    Ask,
    MilkState,
    phase_cue,
)


def is_news(state: MilkState, event: Event) -> bool:
    """Would this sensor reading change anything? The camera repeats itself every frame;
    only news is worth logging."""
    if isinstance(event, BallSeen):
        if state.phase not in READING_PHASES or not 0 <= event.slot < BALLS_PER_ROUND:
            return False
        try:
            return ball_seen(state, event)[0] != state
        except IllegalMove:
            return True  # let the refusal reach a person
    return True


# the beam ------------------------------------------------------------------------------
def _check_beam(ev: BallPassed) -> None:
    if ev.count < 1:
        raise IllegalMove("a beam count must be at least 1")


def ball_passed(state: MilkState, ev: BallPassed):
    """A ball of this round crossed the beam (phases predict to check): the first one
    starts the mill; more than five are extras to put back."""
    _check_beam(ev)
    return _counted(state, ev)


def ball_passed_after_five(state: MilkState, ev: BallPassed):
    """While choosing or colouring the round's five are all out: whatever crosses the beam
    now is one too many."""
    _check_beam(ev)
    return _counted(replace(state, passed=max(state.passed, BALLS_PER_ROUND)), ev)


def last_five_passed(state: MilkState, ev: BallPassed):
    """The remix: the last five roll out before all twenty go back."""
    _check_beam(ev)
    return replace(state, passed=state.passed + ev.count), ()


def refuse_ball_passed(state: MilkState, ev: BallPassed) -> NoReturn:
    _check_beam(ev)
    raise IllegalMove("no balls are expected now")


def _counted(state: MilkState, ev: BallPassed):
    before = state.extras
    new = replace(state, passed=state.passed + ev.count)
    cues: list[c.Cue] = []
    if state.phase == "predict":
        new = replace(new, phase="mill")
        cues.append(phase_cue("mill", state, state.players[state.leader].name))
    if new.extras > before:
        leader = state.players[state.leader].name
        n = new.extras
        cues.append(
            c.Announce(
                f"{leader}: {n} ball{'s' if n > 1 else ''} too many rolled out. "
                "Put the extra ball"
                + ("s" if n > 1 else "")
                + " back into the mill without looking; only the first 5 count."
            )
        )
    return new, cues


# the tray ------------------------------------------------------------------------------
def likely_colours(state: MilkState, slot: int, read: str | None) -> tuple[str, ...]:
    """Colours that could be at `slot`, the reading first, then the most plentiful."""
    others = tuple(b for i, b in enumerate(state.tray) if b and i != slot)
    room = minus(state.mill, counts_of(others))
    feasible = [col for col, n in zip(COLOURS, room, strict=True) if n > 0]
    feasible.sort(key=lambda col: (col != read, -room[COLOURS.index(col)]))
    return tuple(feasible)


def _check_ball(ev: BallSeen) -> None:
    if ev.colour not in COLOURS:
        raise IllegalMove(f"{ev.colour!r} is not a Color Milk ball ({', '.join(COLOURS)})")
    if not 0 <= ev.slot < BALLS_PER_ROUND:
        raise IllegalMove(
            f"only the first {BALLS_PER_ROUND} balls count; put ball {ev.slot + 1} back "
            "into the mill without looking"
        )


def refuse_ball_seen(state: MilkState, ev: BallSeen) -> NoReturn:
    _check_ball(ev)  # a ball that is none of this round's is refused for that first
    raise IllegalMove("this round's balls are already checked; undo to correct one")


def ball_seen(state: MilkState, ev: BallSeen):
    """A ball in the tray, seen or tapped (phases predict to check)."""
    _check_ball(ev)
    tray = list(state.tray)
    tapped = list(state.tapped)
    current = tray[ev.slot]
    asks = tuple(a for a in state.asks if a.slot != ev.slot)
    authoritative = ev.confidence >= AUTHORITATIVE
    if current == ev.colour and len(asks) == len(state.asks):
        return state, ()  # the camera saw it again
    if tapped[ev.slot] and not authoritative:
        return state, ()  # a person said what this ball is; the camera does not overrule
    others = [b for i, b in enumerate(tray) if b and i != ev.slot]
    possible = fits([*others, ev.colour], state.mill)
    if not possible and authoritative:
        return _tap_overrules_camera(state, ev, asks)
    doubtful = ev.confidence < state.ask_threshold
    conflict = bool(current) and current != ev.colour and not authoritative
    if not possible or doubtful or conflict:
        choices = likely_colours(state, ev.slot, ev.colour if possible else None)
        if conflict:  # the two readings first
            first = (ev.colour, current) if possible else (current,)
            choices = (*first, *[x for x in choices if x not in first])
        why = (
            f"looks {ev.colour}, but the mill has no {ev.colour} left"
            if not possible
            else f"was read as {current}, now as {ev.colour}"
            if conflict
            else f"looks {ev.colour}, but I am not sure"
        )
        ask = Ask(ev.slot, choices)
        return replace(state, asks=(*asks, ask)), (
            c.AskHuman(f"Which colour is ball {ev.slot + 1}? It {why}.", choices),
        )
    tray[ev.slot], tapped[ev.slot] = ev.colour, authoritative
    new = replace(state, tray=tuple(tray), tapped=tuple(tapped), asks=asks)
    cues: list[c.Cue] = []
    if new.phase == "predict":
        new = replace(new, phase="mill")
        cues.append(phase_cue("mill", state, state.players[state.leader].name))
    return check_when_ready(new, cues)


def _tap_overrules_camera(state: MilkState, ev: BallSeen, asks: tuple[Ask, ...]):
    """A tap the mill cannot hold beside the other balls: balls of this colour the camera
    read elsewhere become questions. Only taps against taps are refused."""
    tray = list(state.tray)
    tapped = list(state.tapped)
    slot_words = f"ball {ev.slot + 1}"
    suspects = [i for i, b in enumerate(tray) if b == ev.colour and i != ev.slot and not tapped[i]]
    sure = [b for i, b in enumerate(tray) if b and i != ev.slot and i not in suspects]
    if not suspects or not fits([*sure, ev.colour], state.mill):
        others = [b for i, b in enumerate(tray) if b and i != ev.slot]
        left = state.mill[COLOURS.index(ev.colour)] - others.count(ev.colour)
        raise IllegalMove(
            f"the mill holds no more {ev.colour} balls ({left} left this cycle); "
            f"check {slot_words} or correct an earlier one"
        )
    for i in suspects:
        tray[i] = ""
    tray[ev.slot], tapped[ev.slot] = ev.colour, True
    new = replace(state, tray=tuple(tray), tapped=tuple(tapped), asks=asks)
    cues: list[c.Cue] = []
    for i in suspects:
        choices = likely_colours(new, i, None)
        new = replace(new, asks=(*new.asks, Ask(i, choices)))
        cues.append(
            c.AskHuman(
                f"Which colour is ball {i + 1}? It was read as {ev.colour}, "
                f"but {slot_words} is {ev.colour}.",
                choices,
            )
        )
    return new, cues
