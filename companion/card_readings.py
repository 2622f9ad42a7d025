"""What the camera sees in one card zone in one frame, as a reading for the game to interpret.

The card reader (`vision.card_zones`) posts one `ZoneRead` per zone and frame while a game
wants its cards read; a hand over the zone posts nothing. Readings are not logged: the game's
`interpret` turns the steady ones into its own events (a prediction, a question).
"""

from __future__ import annotations

from companion.events import Event, event


@event("core")
class ZoneRead(Event):
    """The face-up cards of a zone (left to right, top row first) with the reader's
    confidence each ("" for a card it could not read), the cards lying face down, whether
    cards touch, and how many card-sized things are not cards. `floors`, when the game asked
    for them: each face-up card's floor pattern ("" when unsure)."""

    zone: str
    colours: tuple[str, ...] = ()
    confidences: tuple[float, ...] = ()
    face_down: int = 0
    touching: bool = False
    unreadable: int = 0
    floors: tuple[str, ...] = ()

    @property
    def empty(self) -> bool:
        return not self.colours and not self.face_down and not self.unreadable
