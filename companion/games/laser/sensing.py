"""What the camera means to Laser, as the pure hooks the runtime calls: the prism cards laid
in the centre (`card_sensing`), the ring of tiles and figures (`ring_sensing`), the
demonstration watched on the ring (`demo_sensing`) and, before a later round's reveal, the
refill of the table (`refill_sensing`: the cards wait for it). Each keeps its own part of the
sensor memory."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from companion.card_readings import ZoneRead
from companion.events import Event
from companion.game import ReaderSpec

from . import card_sensing, demo_sensing, refill_sensing, ring_sensing
from .ring_sensing import RingRead, questions
from .state import LaserState

__all__ = ["Memory", "RingRead", "interpret", "questions", "readers"]


@dataclass(frozen=True)
class Memory:
    cards: Any = None
    ring: Any = None
    demo: Any = None
    refill: Any = None


def interpret(state: LaserState, reading: Event, memory: Any) -> tuple[tuple[Event, ...], Any]:
    memory = memory if isinstance(memory, Memory) else Memory()
    if isinstance(reading, ZoneRead):
        if refill_sensing.holds(state, memory.refill):
            return (), memory  # the table is not refilled as it should be yet
        events, cards = card_sensing.interpret(state, reading, memory.cards)
        return events, replace(memory, cards=cards)
    if isinstance(reading, RingRead) and refill_sensing.wanted(state):
        # the table the round leaves is also the demonstration's last view: both see it
        events, refill = refill_sensing.interpret(state, reading, memory.refill)
        memory = replace(memory, refill=refill)
        if demo_sensing.wants(state, reading):
            more, demo = demo_sensing.interpret(state, reading, memory.demo)
            return events + more, replace(memory, demo=demo)
        return events, memory
    if demo_sensing.wants(state, reading):
        events, demo = demo_sensing.interpret(state, reading, memory.demo)
        return events, replace(memory, demo=demo)
    if isinstance(reading, RingRead):
        events, ring = ring_sensing.interpret(state, reading, memory.ring)
        return events, replace(memory, ring=ring)
    return (reading,), memory


def readers(state: LaserState) -> tuple[ReaderSpec, ...]:
    specs = (
        card_sensing.readers(state)
        + ring_sensing.readers(state)
        + demo_sensing.readers(state)
        + refill_sensing.readers(state)
    )
    ring = [s for s in specs if s.kind == "ring"][:1]  # one ring reader serves them all
    return tuple(s for s in specs if s.kind != "ring") + tuple(ring)
