"""Hardware events beyond the core ones (companion.events): the chute sensor's reading."""

from __future__ import annotations

from companion.events import Event, event


@event("hardware")
class BallSensed(Event):
    """The chute board's colour sensor read a passing ball.

    `seq` is the board's ball number; `colour` the nearest reference colour (None when the
    reading was too dark to tell), `confidence` 0..1; `rgbc` the raw sensor counts. A game
    treats this like a camera reading: below its threshold it asks a person.
    """

    seq: int
    colour: str | None
    confidence: float
    rgbc: tuple[int, int, int, int]
