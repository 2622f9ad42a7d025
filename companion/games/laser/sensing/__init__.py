"""What the camera means to Laser, as the pure hooks the runtime calls: the prism cards laid
in the centre (`cards`), the ring of tiles and figures (`ring`), the
demonstration watched on the ring (`demonstration`) and, before a later round's reveal, the
refill of the table (`refill_check`: the cards wait for it). A board typed by hand corrects
every reading of the ring first (`typed_board`). Each keeps its own part of the sensor
memory."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from companion.card_readings import ZoneRead
from companion.events import Event
from companion.game import ReaderSpec

from ..state import LaserState
from . import cards, demonstration, refill_check, ring, typed_board
from .ring import RingRead, questions, ring_read

__all__ = ["Memory", "RingRead", "interpret", "questions", "readers", "ring_read"]


@dataclass(frozen=True)
class Memory:
    cards: Any = None
    ring: Any = None
    demo: Any = None
    refill: Any = None
    typed: Any = None


def interpret(state: LaserState, reading: Event, memory: Any) -> tuple[tuple[Event, ...], Any]:
    memory = memory if isinstance(memory, Memory) else Memory()
    if isinstance(reading, RingRead):
        # a board typed by hand wins over every reading until the table changes
        entered = getattr(memory.ring, "entered", None)
        reading, said, typed = typed_board.correct(state, reading, memory.typed, entered)
        events, memory = _interpret(state, reading, replace(memory, typed=typed))
        return said + events, memory
    return _interpret(state, reading, memory)


def _interpret(state: LaserState, reading: Event, memory: Memory):
    if isinstance(reading, ZoneRead):
        if refill_check.holds(state, memory.refill):
            return (), memory  # the table is not refilled as it should be yet
        events, seen = cards.interpret(state, reading, memory.cards)
        return events, replace(memory, cards=seen)
    if isinstance(reading, RingRead) and refill_check.wanted(state):
        # the table the round leaves is also the demonstration's last view: both see it
        events, refill = refill_check.interpret(state, reading, memory.refill)
        memory = replace(memory, refill=refill)
        if demonstration.wants(state, reading):
            more, demo = demonstration.interpret(state, reading, memory.demo)
            return events + more, replace(memory, demo=demo)
        return events, memory
    if demonstration.wants(state, reading):
        events, demo = demonstration.interpret(state, reading, memory.demo)
        return events, replace(memory, demo=demo)
    if isinstance(reading, RingRead):
        events, seen = ring.interpret(state, reading, memory.ring)
        return events, replace(memory, ring=seen)
    return (reading,), memory


def readers(state: LaserState) -> tuple[ReaderSpec, ...]:
    specs = (
        cards.readers(state)
        + ring.readers(state)
        + demonstration.readers(state)
        + refill_check.readers(state)
    )
    one_ring = [s for s in specs if s.kind == "ring"][:1]  # one ring reader serves them all
    return tuple(s for s in specs if s.kind != "ring") + tuple(one_ring)
