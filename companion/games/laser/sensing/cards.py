"""What the camera means to Laser: the prism cards revealed in the centre, as they are laid.

While the round's cards are revealed (phase "reveal") the card reader watches the `centre`
zone. A reading that repeats (`STEADY` frames) and holds the cards entered so far plus new
ones becomes one `CardSeen` per new card, left to right. A card the deck cannot hold (a
third card of one colour in team mode) is sent with no confidence, so the rules ask which
colour it is instead of entering it; a hand over the centre posts no reading at all.

In competitive mode the reader reads each card's floor pattern too: a sure floor travels in
the zone of the `CardSeen` ("centre:wood"), which the rules enter as it stands; a card whose
floor is unsure, or would be a third card of one colour and floor, is sent without it, and
the rules ask which floor it is.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from companion.card_readings import ZoneRead
from companion.events import CardSeen, Event
from companion.game import ReaderSpec
from companion.games.laser.board import COLOURS, COMPETITIVE, FLOORS, TEAM
from companion.games.laser.state import LaserState

CENTRE = "centre"
CARD_SET = "laser"  # the calibration's set of prism card colours (camera set-up)
STEADY = 2
COPIES = 2  # of each prism card in the deck (per colour and floor)
SENSOR_MAX = 0.999  # only a person is certain


def interpret(state: LaserState, reading: Event, memory: Any) -> tuple[tuple[Event, ...], Any]:
    if not isinstance(reading, ZoneRead):
        return (reading,), memory
    if reading.zone != CENTRE or state.phase != "reveal":
        return (), memory
    gist = (
        state.round,
        len(state.cards),
        reading.colours,
        reading.face_down,
        reading.touching,
        reading.floors,
    )
    seen = memory[1] + 1 if isinstance(memory, tuple) and memory[0] == gist else 1
    if seen != STEADY or reading.touching or reading.unreadable:
        return (), (gist, seen)
    entered = Counter(colour for colour, _ in state.cards)
    laid = Counter(c for c in reading.colours if c)
    if entered - laid:
        return (), (gist, seen)  # a card entered is not seen (moved, covered): wait
    counts = Counter(colour for colour, _ in state.cards)
    decks = Counter(state.cards)  # (colour, floor) entered
    floors = reading.floors if state.mode == COMPETITIVE else ()
    out = []
    for i, (colour, conf) in enumerate(zip(reading.colours, reading.confidences, strict=True)):
        if entered[colour] > 0:
            entered[colour] -= 1
            continue  # on the table and entered already
        allowed = colour in COLOURS and (state.mode != TEAM or counts[colour] < COPIES)
        counts[colour] += 1
        floor = floors[i] if i < len(floors) and floors[i] in FLOORS else None
        if floor is not None and decks[(colour, floor)] >= COPIES:
            floor = None  # no third card of a colour and floor: the floor or colour is wrong
        decks[(colour, floor)] += 1
        zone = CENTRE if floor is None else f"{CENTRE}:{floor}"
        out.append(CardSeen(zone, colour or "unknown", min(conf, SENSOR_MAX) if allowed else 0.0))
    return tuple(out), (gist, seen)


def readers(state: LaserState) -> tuple[ReaderSpec, ...]:
    if state.phase == "reveal":
        floors = FLOORS if state.mode == COMPETITIVE else ()
        return (ReaderSpec("cards", f"round {state.round}", COLOURS, floors, CARD_SET),)
    return ()
