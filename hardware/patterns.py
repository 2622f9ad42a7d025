"""The cue-to-pattern table: what the LEDs and the buzzer do for each engine cue. Pure data.

A pattern is a list of steps (LED colour, tone, duration) played from the cue's start, then
the LED rests on the base colour (the phase colour) with the buzzer silent. A cue that sets
the base (PhaseStarted, TimeUp, GameOver) sets it when it arrives, even if its own pattern
never plays, so the resting colour always follows the game. Step
times are offsets from the start, so a pattern never drifts however late a step is set.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from companion import cues
from hardware.colours import LED_COLOURS, OFF, RGB, led_rgb

BASE: Literal["base"] = "base"  # a step showing the current phase colour

RED = LED_COLOURS["red"]
GREEN = LED_COLOURS["green"]
AMBER = LED_COLOURS["amber"]
WHITE = LED_COLOURS["white"]
RAINBOW = tuple(LED_COLOURS[c] for c in ("red", "yellow", "green", "cyan", "blue", "magenta"))

# Notes (Hz): C5 E5 G5 A5 B5 C6 E6 G6 C7
C5, E5, G5, A5, B5, C6, E6, G6, C7 = 523, 659, 784, 880, 988, 1047, 1319, 1568, 2093


@dataclass(frozen=True)
class Step:
    duration: float  # seconds
    led: RGB | Literal["base"] | None = None  # None: leave the LED as it is
    tone: float | None = None  # Hz; None: silent


# Priorities: a cue pre-empts a pattern of the same or lower priority at once; a less
# important cue waits for the pattern playing (time-up is never cut by the next phase's chirp).
BACKGROUND, INFO, PHASE, ERROR, TIME_UP, GAME_OVER = range(6)


@dataclass(frozen=True)
class Pattern:
    name: str
    steps: tuple[Step, ...]
    base: RGB | None = None  # the new resting colour; None keeps the current one
    priority: int = INFO

    @property
    def duration(self) -> float:
        return sum(s.duration for s in self.steps)


def phase_started(colour: str | None) -> Pattern:
    c = led_rgb(colour, WHITE)
    steps = (Step(0.08, c, A5), Step(0.06, OFF), Step(0.12, c, E6))
    return Pattern("phase", steps, base=c, priority=PHASE)


def time_warning(seconds_left: int) -> Pattern:
    if seconds_left <= 5:
        # the last five seconds tick, rising in pitch; the LED blinks amber, then red
        flash = AMBER if seconds_left > 3 else RED
        tone = 1200 + (5 - max(1, seconds_left)) * 200
        return Pattern(f"tick{seconds_left}", (Step(0.06, flash, tone),), priority=INFO)
    return Pattern(
        f"warning{seconds_left}",
        (Step(0.12, AMBER, B5), Step(0.10, BASE), Step(0.12, AMBER, B5)),
        priority=INFO,
    )


def time_up() -> Pattern:
    # a siren nobody can miss: three high-low swings, then a long low note; LED stays red
    swing = (Step(0.2, RED, A5), Step(0.2, OFF, 440))
    return Pattern("time-up", (*swing * 3, Step(0.5, RED, 440)), base=RED, priority=TIME_UP)


def scored() -> Pattern:
    steps = (Step(0.09, GREEN, C6), Step(0.09, GREEN, E6), Step(0.16, GREEN, G6))
    return Pattern("scored", steps, priority=INFO)


def ask_human() -> Pattern:
    steps = (Step(0.15, AMBER, 660), Step(0.10, OFF), Step(0.20, AMBER, A5))
    return Pattern("ask", steps, priority=PHASE)


def error() -> Pattern:
    steps = (Step(0.3, RED, 220), Step(0.1, OFF), Step(0.3, RED, 220))
    return Pattern("error", steps, priority=ERROR)


def announce() -> Pattern:
    return Pattern("announce", (Step(0.05, None, 1760),), priority=BACKGROUND)


def game_over() -> Pattern:
    notes = (C5, E5, G5, C6, E6, G6)
    steps = tuple(Step(0.12, c, n) for c, n in zip(RAINBOW, notes, strict=True))
    return Pattern("game-over", (*steps, Step(0.4, WHITE, C7)), base=OFF, priority=GAME_OVER)


def pattern_for(cue: cues.Cue) -> Pattern | None:
    """The pattern for an engine cue; None for a cue the table does not signal."""
    match cue:
        case cues.PhaseStarted(colour=colour):
            return phase_started(colour)
        case cues.TimeWarning(seconds_left=s):
            return time_warning(s)
        case cues.TimeUp():
            return time_up()
        case cues.Scored():
            return scored()
        case cues.AskHuman():
            return ask_human()
        case cues.ErrorCue():
            return error()
        case cues.Announce():
            return announce()
        case cues.GameOver():
            return game_over()
    return None


TEST_TONES = {"low": 440.0, "mid": 1047.0, "high": 2093.0}  # what `companion doctor` plays
