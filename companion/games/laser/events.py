"""Laser's own events (taps on the screen). Sensors use the core events: CardSeen for a
revealed prism card, ButtonPressed("bid") / ButtonPressed("impossible") for the arcade
buttons (the cat-grab), TimerExpired for the clocks."""

from __future__ import annotations

from companion.events import Event, event


@event("laser")
class CardRevealed(Event):
    """A prism card turned face up in the centre (floor: competitive mode only)."""

    colour: str
    floor: str | None = None


@event("laser")
class BidPlaced(Event):
    """A player's number of movement points: a team bid, a competitive bid, or a
    counter-bid against an Impossible! claim."""

    player: str
    bid: int


@event("laser")
class TeammateChosen(Event):
    """The active player picks between equally close bidders."""

    player: str


@event("laser")
class RoundResult(Event):
    """Did the team / the demonstrator / the prover complete every card with exactly the
    bid in time? `removed`: figures removed (competitive scoring); None takes the solver's
    proposal when the board was entered."""

    success: bool
    removed: int | None = None


@event("laser")
class ResultProposed(Event):
    """The camera watched the demonstration (sensing/demonstration.py): `question` says what it saw.
    With `success` set, that RoundResult waits for one press of "next" to confirm; None: a
    change it cannot explain, for a person to look at."""

    question: str
    success: bool | None = None
    removed: int | None = None


@event("laser")
class ImpossibleClaimed(Event):
    """Someone grabbed the cat: the cards cannot be completed. `player` may follow later
    (ClaimerNamed) when the claim came from the arcade button."""

    player: str | None = None


@event("laser")
class ClaimerNamed(Event):
    player: str


@event("laser")
class BoardEntered(Event):
    """The board this round (for the referee view and the removed-figure proposal):
    12 tiles clockwise (colour or None), floors (competitive), the cat's tile and the spare
    figures on the colour cards in circle order red, yellow, green, cyan, blue, magenta."""

    tiles: tuple
    cat: int
    supply: tuple = (2, 2, 2, 2, 2, 2)
    floors: tuple | None = None


@event("laser")
class BoardProposed(Event):
    """The camera read the ring but a person must check it on the board editor: per tile
    what was read (a colour, "cat" or None), the likely answers per tile best first (colours,
    "cat", "empty"), the tiles to check (-1: the spare figures on the colour cards), the
    spares read (circle order, as in BoardEntered) and the competitive floors known from an
    earlier board (None: none yet, the editor asks for them). Changes only what is shown."""

    tiles: tuple
    candidates: tuple = ()
    unsure: tuple = ()
    supply: tuple = ()
    floors: tuple | None = None
    question: str = ""


@event("laser")
class RefillSeen(Event):
    """What the camera saw of the end-of-round refill before the next reveal (see
    sensing/refill_check.py): "plan" (where each figure goes, in `lines`), "misplaced" (each
    wrong figure named in `lines`), "ready" (a legal refill: play goes on), "unsure" (the
    places in `lines` were read without confidence) or "unverified" (the table was not seen
    as the round ended); after the last two a person checks the refill by eye."""

    status: str
    lines: tuple = ()


@event("laser")
class TypedBoardKept(Event):
    """The camera reads the ring otherwise than the board typed in by hand, at these tiles
    (1-12) and colour cards, where the table has not changed since: the typed board stands
    there (typed_board.py). Only words for people."""

    tiles: tuple = ()
    cards: tuple = ()
