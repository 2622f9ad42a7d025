"""What the table's sensors mean to Color Milk: pure hooks the runtime calls.

`interpret` numbers the chute sensor's readings into tray slots, caps every sensor reading
below a person's certainty, and drops the camera's repeats (it reports a resting ball again
after a restart) so that only news reaches the log. `readers` asks for the ball reader while
the round's balls are being read; a new round means an emptied tray; and for the card reader
while the predictions are revealed (`cards.read_zone` turns what it sees into predictions or
questions). `sim_pool` lets the simulated table drop only balls the mill still holds.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from companion.card_readings import ZoneRead
from companion.events import BallSeen, Event
from companion.game import ReaderSpec
from companion.games.color_milk.cards import PHASE as CARDS_PHASE
from companion.games.color_milk.cards import CardMemory, read_zone
from companion.games.color_milk.chute import SENSED_TYPE, chute_slot
from companion.games.color_milk.mill import BALLS_PER_ROUND, COLOURS
from companion.games.color_milk.state import AUTHORITATIVE, READING_PHASES, SENSOR_MAX, MilkState

CARD_SET = "color-milk"  # the calibration's set of prediction card colours (camera set-up)


@dataclass(frozen=True)
class Memory:
    """What interpret remembers between readings: the chute's count, the card zones, and
    the balls the log held as the sensors started reading (the round and their slots)."""

    chute: Any = None
    cards: CardMemory = ()
    logged: tuple = ()

    @classmethod
    def resumed(cls, state: MilkState) -> Memory:
        """The memory as the sensors start on `state`: a new game, or one resumed mid-round
        (after a restart) whose balls already read lie in the tray still. The camera reads
        them again; they are not news, and the chute's next ball is the one after them."""
        if state.phase not in READING_PHASES:
            return cls()
        slots = tuple(
            i for i, c in enumerate(state.tray) if c and all(a.slot != i for a in state.asks)
        )
        read = max((i + 1 for i, c in enumerate(state.tray) if c), default=0)
        return cls(chute=(state.round, read) if read else None, logged=(state.round, slots))


def interpret(state: MilkState, reading: Event, memory: Any) -> tuple[tuple[Event, ...], Any]:
    memory = memory if isinstance(memory, Memory) else Memory.resumed(state)
    if isinstance(reading, ZoneRead):
        events, cards = read_zone(state, reading, memory.cards)
        return events, replace(memory, cards=cards)
    if reading.type_name == SENSED_TYPE:
        seen, chute = chute_slot(state, memory.chute, reading.colour, reading.confidence)
        memory = replace(memory, chute=chute)
        if seen is None:
            return (), memory
        reading = seen
    if isinstance(reading, BallSeen):
        # whatever the sensor says, only a person is certain
        reading = replace(reading, confidence=min(reading.confidence, SENSOR_MAX))
        if is_repeat(state, reading) or _read_before(state, reading, memory.logged):
            return (), memory
    return (reading,), memory


def is_repeat(state: MilkState, seen: BallSeen) -> bool:
    """A sensor reading that would change nothing (checked without applying it)."""
    if state.phase not in READING_PHASES or not 0 <= seen.slot < BALLS_PER_ROUND:
        return True
    if seen.confidence >= AUTHORITATIVE:
        return False
    if state.tapped[seen.slot]:
        return True  # a person said what this ball is
    if any(a.slot == seen.slot for a in state.asks):
        return False  # a question is open: the reading may answer or change it
    return state.tray[seen.slot] == seen.colour


def _read_before(state: MilkState, seen: BallSeen, logged: tuple) -> bool:
    """A sensor's reading of a ball the log held as the sensors started (a resumed round)."""
    return (
        seen.confidence < AUTHORITATIVE
        and bool(logged)
        and logged[0] == state.round
        and seen.slot in logged[1]
    )


def sim_pool(state: MilkState) -> tuple[str, ...]:
    """Inside the mill as this round (or the remix) began: what the simulated chute drops."""
    if state.phase not in (*READING_PHASES, "remix"):
        return ()
    return tuple(c for c, n in zip(COLOURS, state.mill, strict=True) for _ in range(n))


def readers(state: MilkState) -> tuple[ReaderSpec, ...]:
    if state.phase not in READING_PHASES:
        return ()
    balls = ReaderSpec("balls", f"round {state.round}")
    if state.phase == CARDS_PHASE:
        return (balls, ReaderSpec("cards", f"round {state.round}", COLOURS, colour_set=CARD_SET))
    return (balls,)
