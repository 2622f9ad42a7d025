"""What the camera means to Node: pure hooks the runtime calls.

The placement reader (vision.node) posts a CardRead for each card it sees laid.
`interpret` turns a reading into the current player's PlaceCard when every node is
confident and the rules take it; otherwise into a CardProposed, which asks a person: a
reading the rules would take waits for one press of "next" (or a correction on the screen),
one they refuse says why. `readers` wants the placement reader while cards are being laid.
"""

from __future__ import annotations

from typing import Any

from companion.errors import IllegalMove
from companion.events import ButtonPressed, Event
from companion.game import ReaderSpec

from .events import CardProposed, CardRead, PlaceCard
from .geometry import rotate

CONFIDENT = 0.8  # every node at least this sure, or a person is asked


def interpret(state, reading: Event, memory: Any) -> tuple[tuple[Event, ...], Any]:
    if isinstance(reading, ButtonPressed) and reading.button == "next":
        if state.proposal is not None and not state.over:
            return (state.proposal,), memory  # one press confirms what the camera proposed
        return (), memory
    if not isinstance(reading, CardRead):
        return (reading,), memory
    if state.over:
        return (), memory
    placement = as_placement(state, reading)
    where = f"row {reading.row + 1}, column {reading.col + 1}"
    if placement is None:
        return (
            CardProposed(
                f"The camera sees a card that is not {_shape(state)} at {where}: "
                "lay it flat on the grid or enter it"
            ),
        ), memory
    seen = "/".join(placement.colours)
    from .rules import GAME

    try:
        GAME.check_placement(
            state, placement.colours, placement.row, placement.col, placement.rotation
        )
    except IllegalMove as exc:
        return (
            CardProposed(
                f"The camera sees {seen} at {where}, but {exc}: "
                "fix the table or correct the reading",
                placement.player,
                placement.colours,
                placement.row,
                placement.col,
                placement.rotation,
                refused=True,
            ),
        ), memory
    unsure = [c for line in reading.confidence for c in line if c < CONFIDENT]
    if not unsure and not reading.reason:
        return (placement,), memory
    why = reading.reason or f"unsure of {len(unsure)} node{'s' if len(unsure) > 1 else ''}"
    return (
        CardProposed(
            f"Is this {seen} at {where}? ({why}) Press next to confirm, or correct it",
            placement.player,
            placement.colours,
            placement.row,
            placement.col,
            placement.rotation,
        ),
    ), memory


def as_placement(state, reading: CardRead) -> PlaceCard | None:
    """The PlaceCard a card lying as read means (colours as printed, landscape), or None
    when the reading is not a card of this game's shape."""
    rows = tuple(tuple(line) for line in reading.colours)
    h, w = len(rows), len(rows[0]) if rows else 0
    if any(len(line) != w for line in rows):
        return None
    if (h, w) == (state.card_height, state.card_width):
        printed, rotation = rows, 0
    elif (h, w) == (state.card_width, state.card_height):
        printed, rotation = rotate(rows, 270), 90
    else:
        return None
    colours = tuple(c for line in printed for c in line)
    return PlaceCard(state.current, colours, reading.row, reading.col, rotation)


def readers(state) -> tuple[ReaderSpec, ...]:
    """The placement reader while cards are laid; a new key after every turn."""
    if state.over:
        return ()
    return (ReaderSpec("node", f"turn {state.played + state.discarded}"),)


def _shape(state) -> str:
    return f"{state.card_height} x {state.card_width} nodes"
