"""What `companion demo color-milk --live` prints: one line per event or cue worth saying."""

from __future__ import annotations

from companion import cues as C
from companion.events import BallPassed, BallSeen, ButtonPressed, Event
from companion.games.color_milk.events import Choose, Count, KingsTower, Predict, Tally


def say_event(ev: Event) -> str | None:
    if isinstance(ev, BallSeen):
        how = "tapped" if ev.confidence >= 1.0 else f"camera {ev.confidence:.3f}"
        return f"ball {ev.slot + 1}: {ev.colour} ({how})"
    if isinstance(ev, BallPassed):
        return None  # the beam count is summed up per round
    if isinstance(ev, Predict):
        zone = f" [{ev.zone}]" if ev.zone else ""
        return f"{ev.player} predicts {' '.join(ev.colours)}{zone}"
    if isinstance(ev, Choose):
        return None  # the engine announces it
    if isinstance(ev, Tally):
        return f"{ev.player}: {ev.item} {ev.delta:+d}"
    if isinstance(ev, Count):
        return f"{ev.player}: {ev.item} = {ev.value}"
    if isinstance(ev, KingsTower):
        return None
    if isinstance(ev, ButtonPressed):
        return f"[{ev.button}]"
    return None


def say_cue(cue: C.Cue) -> str | None:
    if isinstance(cue, C.PhaseStarted):
        who = f" — {cue.player}" if cue.player else ""
        return (
            f"== {cue.phase}{who}"
            if cue.phase in ("predict", "remix", "warriors", "tally")
            else None
        )
    if isinstance(cue, C.Announce):
        return cue.text
    if isinstance(cue, C.AskHuman):
        return f"? {cue.question} [{' / '.join(cue.choices)}]"
    if isinstance(cue, C.GameOver):
        return f"*** winner: {' and '.join(cue.winners)}"
    return None
