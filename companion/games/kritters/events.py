"""What people tell the app at a Colour MY Kritters table: one event per step."""

from __future__ import annotations

from typing import Any

from companion.events import Event, event


@event("kritters")
class FirstPlayer(Event):
    """Who takes the First Player card (the youngest player decides)."""

    player: str


@event("kritters")
class Bought(Event):
    """The player whose turn it is bought a card: kritter, paintbrush, palette, ..."""

    card: str


@event("kritters")
class PileEmpty(Event):
    """A pile ran out: the kritter deck, or (as a correction) an item pile."""

    pile: str


@event("kritters")
class CardRemoved(Event):
    """Solo: the top card of an item pile left the game without being bought."""

    pile: str


@event("kritters")
class TurnDone(Event):
    """The player whose turn it is has discarded and refilled; pass clockwise."""


@event("kritters")
class AgreeToEnd(Event):
    """Junior: the players agree to finish before the decks are empty."""


@event("kritters")
class ScoreEntered(Event):
    """One player's cards at the end; the app finds the best score for them."""

    player: str
    cyan: int = 0
    magenta: int = 0
    yellow: int = 0
    wild: int = 0
    point_kritters: tuple[tuple[str, int], ...] = ()  # (colour, points)
    paintbrushes: int = 0
    palettes: int = 0
    paint_buckets: int = 0

    def document(self) -> dict[str, Any]:
        return {
            "cyan": self.cyan,
            "magenta": self.magenta,
            "yellow": self.yellow,
            "wild": self.wild,
            "paintbrushes": self.paintbrushes,
            "palettes": self.palettes,
            "paint_buckets": self.paint_buckets,
            "point_kritters": [{"colour": c, "points": p} for c, p in self.point_kritters],
        }
