"""What the camera's view of the ring means to Laser: pure hooks the runtime calls.

`readers` asks for the ring reader once a round's prism cards are all revealed and until the
board is known. `interpret` turns a reading of the ring (`RingRead`, posted by the camera)
into `BoardEntered` when every tile and colour card was read with confidence and the reading
can be a real table (exactly one cat); otherwise nothing is entered: the reading is kept in
the sensor memory as a draft and proposed (`BoardProposed`, once per different draft) for
the board editor, which opens it with the uncertain tiles marked and their likely colours
first (`questions` words the same per tile). A hand over the table gives no reading at all.

Competitive floors are printed on the tiles and never move: the camera does not read them;
they come from the board entered earlier in the game. Until one was, the reading stays a
draft for the board editor, which asks for the floors once.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from companion.cues import AskHuman
from companion.events import Event, event
from companion.game import ReaderSpec

from ..board import COLOURS, COMPETITIVE, TILES
from ..events import BoardEntered, BoardProposed
from ..state import LaserState

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


def ring_read(reading) -> RingRead:
    """A camera reading of the ring (`vision.ring.reading.RingReading`: tiles, confidence,
    candidates and doubts per tile, spares per colour card) as Laser's `RingRead`. A tile or
    card the reader doubts (a hand over it, a figure of the wrong size, an impossible table)
    is made certain to be asked: its confidence is 0 whatever the game's threshold; a hand
    over any of them makes the whole reading a hand in view."""
    if reading.hand:
        return RingRead(hand=True)
    conf = tuple(
        0.0 if d is not None else round(c, 3)
        for c, d in zip(reading.confidence, reading.doubt, strict=True)
    )
    spare_conf = tuple(
        0.0 if reading.spare_doubt.get(c) is not None else reading.spare_confidence[c]
        for c in COLOURS
    )
    return RingRead(
        tuple(reading.tiles),
        conf,
        tuple(tuple(c) for c in reading.candidates),
        tuple(reading.spares[c] for c in COLOURS),
        spare_conf,
    )


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
    asked = unsure(reading, state.ask_threshold)
    if asked or _floors(state) is ...:
        draft = RingMemory(memory.entered, reading)
        board = proposed(reading, asked, _floors(state))
        if _gist(board) == _gist(state.proposed_board):
            return (), draft  # shown already: the candidates' order may flicker, nothing more
        return (board,), draft
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


def proposed(reading: RingRead, asked: tuple[int, ...], floors) -> BoardProposed:
    """The draft for the board editor, with what to check in words."""
    tiles = tuple(reading.tiles[i] if i < len(reading.tiles) else None for i in range(TILES))
    tiles = tuple(t if t in (*COLOURS, CAT) else None for t in tiles)
    known = (*COLOURS, CAT, "empty")
    candidates = tuple(
        tuple(c for c in reading.candidates[i] if c in known) if i < len(reading.candidates) else ()
        for i in range(TILES)
    )
    spares = tuple(reading.spares) if len(reading.spares) == len(COLOURS) else ()
    numbers = [str(i + 1) for i in asked if i >= 0]  # 1-12, as the board editor shows them
    named = [f"tile{'s' if len(numbers) > 1 else ''} {_listed(numbers)}"] if numbers else []
    if -1 in asked:
        named.append("the spare figures")
    cats = sum(t == CAT for t in tiles)
    if named:
        what = _listed(named)
        question = f"The camera is unsure of {what}: check on the board"
        if cats != 1:
            question = f"The camera sees {cats} cats: check {what} on the board"
    else:
        question = "The camera read the ring: set the floors once on the board"
    return BoardProposed(
        tiles,
        candidates,
        asked,
        spares,
        None if floors is ... else floors,
        question,
    )


def _listed(words: list[str]) -> str:
    return ", ".join(words[:-1]) + (" and " if len(words) > 1 else "") + words[-1]


def _gist(board: BoardProposed | None):
    """What a person would see differ between two proposals."""
    return board and (board.tiles, board.unsure, board.supply, board.floors)


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
