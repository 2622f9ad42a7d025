"""What the camera's view of the ring means to Laser: pure hooks the runtime calls.

`readers` asks for the ring reader once a round's prism cards are all revealed and until the
board is known. `interpret` turns a reading of the ring (`RingRead`, posted by the camera)
into `BoardEntered` when every tile and colour card was read with confidence and the reading
can be a real table (exactly one cat); otherwise nothing is entered, the reading is kept in
the sensor memory as a draft, and `questions` words what a person must check (the uncertain
tiles, with the likely colours first). A hand over the table gives no reading at all.

Competitive floors are printed on the tiles and never move: the camera does not read them;
they come from the board entered earlier in the game. Until one was, the reading stays a
draft for the board editor.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from companion.cues import AskHuman
from companion.events import Event, event
from companion.game import ReaderSpec

from .board import COLOURS, COMPETITIVE, TILES
from .events import BoardEntered
from .state import LaserState

CAT = "cat"
RING_PHASES = ("planning", "thinking", "bidding")  # cards revealed, figures untouched


@event("laser")
class RingRead(Event):
    """One camera reading of the ring: per tile a colour, "cat" or None with a confidence
    and the likely answers best first; the spare figures on the colour cards in circle order
    red .. magenta with a confidence per card; `hand`: a hand was in view (nothing read)."""

    tiles: tuple = ()
    confidence: tuple = ()
    candidates: tuple = ()
    spares: tuple = ()
    spare_confidence: tuple = ()
    hand: bool = False


@dataclass(frozen=True)
class RingMemory:
    entered: tuple | None = None  # the last board submitted, so a repeat is not resubmitted
    draft: RingRead | None = None  # the last reading that needs a person


def readers(state: LaserState) -> tuple[ReaderSpec, ...]:
    if state.over or state.board is not None or state.phase not in RING_PHASES:
        return ()
    return (ReaderSpec("ring", f"round {state.round}"),)


def interpret(state: LaserState, reading: Event, memory: Any) -> tuple[tuple[Event, ...], Any]:
    if not isinstance(reading, RingRead):
        return (reading,), memory
    memory = memory if isinstance(memory, RingMemory) else RingMemory()
    if reading.hand or not readers(state):
        return (), memory
    if unsure(reading, state.ask_threshold) or _floors(state) is ...:
        return (), RingMemory(memory.entered, reading)
    board = board_entered(reading, _floors(state))
    key = (state.round, board.tiles, board.cat, board.supply)
    if key == memory.entered:
        return (), memory
    return (board,), RingMemory(key, None)


def unsure(reading: RingRead, threshold: float) -> tuple[int, ...]:
    """Tiles to ask about (all twelve when the reading cannot be a table), and -1 for any
    colour card read without confidence."""
    if len(reading.tiles) != TILES or len(reading.confidence) != TILES:
        return tuple(range(TILES))
    asked = tuple(i for i, c in enumerate(reading.confidence) if c < threshold)
    if sum(1 for t in reading.tiles if t == CAT) != 1:  # where the cat may be, and the doubtful
        odd = {i for i, t in enumerate(reading.tiles) if t in (CAT, None)} | set(asked)
        return tuple(sorted(odd)) or (0,)
    if len(reading.spares) != 6 or any(c < threshold for c in reading.spare_confidence):
        asked += (-1,)
    return asked


def board_entered(reading: RingRead, floors: tuple | None) -> BoardEntered:
    tiles = tuple(None if t == CAT else t for t in reading.tiles)
    return BoardEntered(tiles, reading.tiles.index(CAT), tuple(reading.spares), floors)


def _floors(state: LaserState):
    """Competitive floors from a board entered before (Ellipsis when none is known yet)."""
    if state.mode != COMPETITIVE:
        return None
    for board in (state.board, state.last_board):
        if board is not None and board[1] is not None:
            return tuple(board[1])
    return ...


def questions(reading: RingRead, threshold: float) -> tuple[AskHuman, ...]:
    """What to ask on the board editor, one question per uncertain tile or card."""
    out = []
    for i in unsure(reading, threshold):
        if i < 0:
            out.append(AskHuman("How many spare figures lie on each colour card?", COLOURS))
            continue
        likely = tuple(reading.candidates[i]) if i < len(reading.candidates) else ()
        choices = tuple(dict.fromkeys(likely + COLOURS + (CAT, "empty")))
        out.append(AskHuman(f"What stands on tile {i + 1}? Check it on the board.", choices))
    return tuple(out)
