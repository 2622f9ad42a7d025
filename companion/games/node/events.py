"""What people (or, later, the card reader) enter at a Node table."""

from __future__ import annotations

from companion.events import Event, event


@event("node")
class PlaceCard(Event):
    """A card goes onto the table.

    `colours` are the card's nodes row by row as printed, held in landscape (card_height rows
    of card_width nodes). `rotation` turns it clockwise (0, 90, 180, 270); (`row`, `col`) is
    the table node under the top-left corner of the card as it lies.
    """

    player: str
    colours: tuple[str, ...]
    row: int
    col: int
    rotation: int = 0


@event("node")
class Discard(Event):
    """The player cannot place a card and discards one. If `hand` (the cards held, as in
    PlaceCard.colours) is given, the app checks that none of them fits anywhere."""

    player: str
    hand: tuple[tuple[str, ...], ...] = ()


@event("node")
class NoCardsLeft(Event):
    """The players say every card is played (when the app is not counting the deck)."""


@event("node")
class CardRead(Event):
    """The camera's reading of the card just laid (vision.node): its node `colours`
    row by row as it lies, the grid node (`row`, `col`) under its top-left node, and the
    classifier's confidence per node. `reason` says why the reader itself is unsure."""

    colours: tuple[tuple[str, ...], ...]
    row: int
    col: int
    confidence: tuple[tuple[float, ...], ...]
    reason: str = ""


@event("node")
class CardProposed(Event):
    """A camera reading a person must look at. `question` says what is unsure, or why the
    rules refuse the card as read. The placement read (`player` ... `rotation`, as in
    PlaceCard) is shown on the grid; when the rules would take it (not `refused`), it waits
    for one press of "next" to confirm. `colours` is empty when no card could be made out."""

    question: str
    player: str = ""
    colours: tuple[str, ...] = ()
    row: int = 0
    col: int = 0
    rotation: int = 0
    refused: bool = False
