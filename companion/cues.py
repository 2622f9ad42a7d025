"""Cues: what the engine asks the table to show or sound. Semantic, never pins or pixels."""

from __future__ import annotations

from dataclasses import dataclass


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
    question: str
    choices: tuple[str, ...] = ()


@dataclass(frozen=True)
class Announce(Cue):
    text: str


@dataclass(frozen=True)
class ErrorCue(Cue):
    message: str


@dataclass(frozen=True)
class GameOver(Cue):
    winners: tuple[str, ...]
