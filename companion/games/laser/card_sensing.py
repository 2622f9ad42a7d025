"""What the camera means to Laser: the prism cards revealed in the centre, as they are laid.

While the round's cards are revealed (phase "reveal") the card reader watches the `centre`
zone. A reading that repeats (`STEADY` frames) and holds the cards entered so far plus new
ones becomes one `CardSeen` per new card, left to right. A card the deck cannot hold (a
third card of one colour in team mode) is sent with no confidence, so the rules ask which
colour it is instead of entering it; a hand over the centre posts no reading at all.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from companion.card_readings import ZoneRead
from companion.events import CardSeen, Event
from companion.game import ReaderSpec
from companion.games.laser.board import COLOURS, TEAM
from companion.games.laser.state import LaserState

CENTRE = "centre"
STEADY = 2
COPIES = 2  # of each prism card in the deck (per colour and floor)
SENSOR_MAX = 0.999  # only a person is certain


def interpret(state: LaserState, reading: Event, memory: Any) -> tuple[tuple[Event, ...], Any]:
    if not isinstance(reading, ZoneRead):
        return (reading,), memory
    if reading.zone != CENTRE or state.phase != "reveal":
        return (), memory
    gist = (state.round, len(state.cards), reading.colours, reading.face_down, reading.touching)
    seen = memory[1] + 1 if isinstance(memory, tuple) and memory[0] == gist else 1
    if seen != STEADY or reading.touching or reading.unreadable:
        return (), (gist, seen)
    entered = Counter(colour for colour, _ in state.cards)
    laid = Counter(c for c in reading.colours if c)
    if entered - laid:
        return (), (gist, seen)  # a card entered is not seen (moved, covered): wait
    counts = Counter(colour for colour, _ in state.cards)
    out = []
    for colour, conf in zip(reading.colours, reading.confidences, strict=True):
        if entered[colour] > 0:
            entered[colour] -= 1
            continue  # on the table and entered already
        allowed = colour in COLOURS and (state.mode != TEAM or counts[colour] < COPIES)
        counts[colour] += 1
        out.append(CardSeen(CENTRE, colour or "unknown", min(conf, SENSOR_MAX) if allowed else 0.0))
    return tuple(out), (gist, seen)


def readers(state: LaserState) -> tuple[ReaderSpec, ...]:
    if state.phase == "reveal":
        return (ReaderSpec("cards", f"round {state.round}", COLOURS),)
    return ()
