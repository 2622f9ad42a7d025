"""Cues: what the engine asks the table to show or sound. Semantic, never pins or pixels."""

from __future__ import annotations

from dataclasses import dataclass

from companion.events import Event


class Cue:
    """Base of every cue."""


@dataclass(frozen=True)
class PhaseStarted(Cue):
    phase: str
    player: str | None = None
    colour: str | None = None  # the colour the LEDs should show, e.g. the leader's colour


@dataclass(frozen=True)
class TimeWarning(Cue):
    """`seconds_left` seconds remain on the running phase timer."""

    seconds_left: int


@dataclass(frozen=True)
class TimeUp(Cue):
    key: str


@dataclass(frozen=True)
class Scored(Cue):
    player: str
    points: int


@dataclass(frozen=True)
class AskHuman(Cue):
    """A question for the people at the table. `choices` are the likely answers in words;
    `answers`, when given, is what each choice does (the event a tap on it submits), in the
    same order: the screen offers them as buttons. Without answers, the choices are a hint."""

    question: str
    choices: tuple[str, ...] = ()
    answers: tuple[Event, ...] = ()

    def __post_init__(self) -> None:
        if self.answers and len(self.answers) != len(self.choices):
            raise ValueError("an AskHuman needs one choice per answer")


@dataclass(frozen=True)
class Announce(Cue):
    text: str


@dataclass(frozen=True)
class ErrorCue(Cue):
    message: str


@dataclass(frozen=True)
class GameOver(Cue):
    winners: tuple[str, ...]
