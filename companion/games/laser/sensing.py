"""What the camera means to Laser, as the pure hooks the runtime calls: the prism cards laid
in the centre (`card_sensing`), the ring of tiles and figures (`ring_sensing`) and, before a
later round's reveal, the refill of the table (`refill_sensing`: the cards wait for it). Each
keeps its own part of the sensor memory."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from companion.card_readings import ZoneRead
from companion.events import Event
from companion.game import ReaderSpec

from . import card_sensing, refill_sensing, ring_sensing
from .ring_sensing import RingRead, questions
from .state import LaserState

__all__ = ["Memory", "RingRead", "interpret", "questions", "readers"]


@dataclass(frozen=True)
class Memory:
    cards: Any = None
    ring: Any = None
    refill: Any = None


def interpret(state: LaserState, reading: Event, memory: Any) -> tuple[tuple[Event, ...], Any]:
    memory = memory if isinstance(memory, Memory) else Memory()
    if isinstance(reading, ZoneRead):
        if refill_sensing.holds(state, memory.refill):
            return (), memory  # the table is not refilled as it should be yet
        events, cards = card_sensing.interpret(state, reading, memory.cards)
        return events, replace(memory, cards=cards)
    if isinstance(reading, RingRead) and refill_sensing.wanted(state):
        events, refill = refill_sensing.interpret(state, reading, memory.refill)
        return events, replace(memory, refill=refill)
    if isinstance(reading, RingRead):
        events, ring = ring_sensing.interpret(state, reading, memory.ring)
        return events, replace(memory, ring=ring)
    return (reading,), memory


def readers(state: LaserState) -> tuple[ReaderSpec, ...]:
    return card_sensing.readers(state) + ring_sensing.readers(state) + refill_sensing.readers(state)
