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

    @classmethod
    def of(cls, view, floors: bool = False) -> ZoneRead:
        """The reading of one zone the card reader saw (a vision.card_zones.ZoneView not
        blocked by a hand); `floors`: the cards' floor patterns were asked for too."""
        up = [c for c in view.cards if not c.face_down]
        return cls(
            view.zone,
            tuple(c.colour for c in up),
            tuple(c.confidence for c in up),
            face_down=len(view.cards) - len(up),
            touching=any(c.touching for c in view.cards),
            unreadable=view.unreadable,
            floors=tuple(c.floor for c in up) if floors else (),
        )

    @property
    def empty(self) -> bool:
        return not self.colours and not self.face_down and not self.unreadable
