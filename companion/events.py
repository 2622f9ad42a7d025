"""Typed events: everything that happens at the table, from a sensor, a button or a touch.

An event is a frozen dataclass registered under a stable type name (`"core.BallSeen"`,
`"laser.BidPlaced"`), so a game log written today replays tomorrow. Games declare theirs
with `@event("<game>")`.
"""

from __future__ import annotations

import dataclasses
from typing import Any, ClassVar

from companion.codec import jsonable, tupled
from companion.errors import UsageError

_REGISTRY: dict[str, type[Event]] = {}


class Event:
    """Base of all events; subclasses are frozen dataclasses made by @event."""

    type_name: ClassVar[str] = ""


def event(namespace: str):
    """Class decorator: make a frozen dataclass event registered as `namespace.ClassName`."""

    def wrap(cls):
        cls = dataclasses.dataclass(frozen=True)(cls)
        name = f"{namespace}.{cls.__name__}"
        if name in _REGISTRY and _REGISTRY[name].__qualname__ != cls.__qualname__:
            raise TypeError(f"event type {name} is registered twice")
        cls.type_name = name
        _REGISTRY[name] = cls
        return cls

    return wrap


def to_dict(ev: Event) -> dict[str, Any]:
    return {"type": ev.type_name, **jsonable(ev)}


def from_dict(data: dict[str, Any]) -> Event:
    try:
        cls = _REGISTRY[data["type"]]
    except KeyError:
        raise UsageError(f"unknown event type {data.get('type')!r}") from None
    names = {f.name for f in dataclasses.fields(cls)}
    fields = {k: tupled(v) for k, v in data.items() if k in names}
    try:
        return cls(**fields)
    except TypeError as exc:
        raise UsageError(f"malformed {data['type']} event: {exc}") from None


# Core events shared by every game ------------------------------------------------------


@event("core")
class TimerExpired(Event):
    """The running phase timer reached zero. `key` names the timer (from Game.timer)."""

    key: str


@event("core")
class ButtonPressed(Event):
    """A physical or on-screen arcade button: next, bid, impossible, undo."""

    button: str


@event("core")
class BallPassed(Event):
    """One ball crossed the break-beam at the mill chute."""

    count: int = 1


@event("core")
class BallSeen(Event):
    """The camera (or a person) read a ball in the tray at `slot` (0 = first out)."""

    colour: str
    slot: int
    confidence: float = 1.0


@event("core")
class CardSeen(Event):
    """A card read in a zone (a player's prediction zone, the Laser centre)."""

    zone: str
    colour: str
    confidence: float = 1.0
