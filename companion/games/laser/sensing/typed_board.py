"""A board typed in by hand wins over the camera until the table changes.

A person types the board (or corrects the camera's draft) when the camera reads the ring
wrong, and the camera would read it wrong the same way again. So the board typed is kept
with the camera's view of the table as it was typed (its last reading that round; without
one, the board itself), and every later reading of the ring is corrected before the game's
other hooks see it: a tile or colour card the camera still reads as it did then is the
person's; one the camera now reads otherwise, for sure, has changed (a figure moved) and is
the camera's from then on. Where the correction differs from what the camera reads, people are
told once (`TypedBoardKept`), so a wrong typed board does not stay unnoticed.

Pure: `correct` takes the state, the reading and its part of the sensor memory.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from ..board import COLOURS, TILES
from ..events import TypedBoardKept
from ..state import LaserState
from .ring import CAT, RingRead


@dataclass(frozen=True)
class Typed:
    """The person's board in a reading's terms (12 tiles with "cat", 6 spares), the camera's
    view of the table when it was typed (the same terms), and what was last said."""

    tiles: tuple
    spares: tuple
    seen_tiles: tuple
    seen_spares: tuple
    said: tuple = ()

    @property
    def kept(self) -> bool:
        """Whether the person's board still differs from the camera's view anywhere."""
        return self.tiles != self.seen_tiles or self.spares != self.seen_spares


@dataclass(frozen=True)
class TypedMemory:
    view: RingRead | None = None  # the camera's last reading of the ring ...
    view_round: int = 0  # ... and the round it was taken in
    typed: Typed | None = None
    board: tuple | None = None  # the state's board the memory last looked at


def as_reading(board: tuple) -> tuple[tuple, tuple]:
    """A board as entered (tiles, floors, cat, supply) in a reading's terms."""
    tiles, _floors, cat, supply = board
    return tuple(CAT if i == cat else t for i, t in enumerate(tiles)), tuple(supply)


def correct(
    state: LaserState, reading: RingRead, memory: Any, entered: tuple | None
) -> tuple[RingRead, tuple, TypedMemory]:
    """The reading as the game should see it, what to tell people, and the memory after.
    `entered`: the board the camera entered itself, if any (a board in the state that is
    not it was typed)."""
    m = memory if isinstance(memory, TypedMemory) else TypedMemory()
    if reading.hand or len(reading.tiles) != TILES or len(reading.confidence) != TILES:
        return reading, (), m
    board, its_round = state.board, state.round
    if board is None:  # typed in the round before, with no reading of the ring since
        board, its_round = state.last_board, state.round - 1
    if board is not None and board != m.board and _typed(board, entered):
        # the table as it was typed: the camera's last view in that round; without one, the
        # board typed (the camera's reading wins wherever it differs: it may have changed)
        tiles, spares = as_reading(board)
        seen = m.view if m.view is not None and m.view_round == its_round else None
        seen_tiles = seen.tiles if seen is not None else tiles
        seen_spares = tuple(seen.spares) if seen is not None else spares
        if len(seen_spares) != len(COLOURS):
            seen_spares = spares
        m = replace(m, typed=Typed(tiles, spares, tuple(seen_tiles), seen_spares))
    m = replace(m, board=board, view=reading, view_round=state.round)
    if m.typed is None:
        return reading, (), m
    fixed, typed = _corrected(reading, m.typed, state.ask_threshold)
    events: tuple = ()
    differ = tuple(i for i in range(TILES) if fixed.tiles[i] != reading.tiles[i])
    cards = tuple(
        c
        for c in range(len(COLOURS))
        if len(fixed.spares) == len(COLOURS) and fixed.spares[c] != _spare(reading, c)
    )
    gist = (differ, cards)
    if (differ or cards) and gist != typed.said:
        events = (TypedBoardKept(tuple(i + 1 for i in differ), tuple(COLOURS[c] for c in cards)),)
        typed = replace(typed, said=gist)
    return fixed, events, replace(m, typed=typed if typed.kept else None)


def _typed(board: tuple, entered: tuple | None) -> bool:
    tiles, _floors, cat, supply = board
    return entered is None or entered[1:] != (tuple(tiles), cat, tuple(supply))


def _spare(reading: RingRead, c: int):
    return reading.spares[c] if c < len(reading.spares) else None


def _corrected(reading: RingRead, typed: Typed, threshold: float) -> tuple[RingRead, Typed]:
    """Per tile and colour card: the person's where the camera reads what it read as the
    board was typed, the camera's where it now reads otherwise for sure (that place changed:
    the person's word on it ends); read otherwise but unsure, it stays unsure."""
    tiles, conf = list(reading.tiles), list(reading.confidence)
    cands = list(reading.candidates) if len(reading.candidates) == TILES else [()] * TILES
    mine, seen = list(typed.tiles), list(typed.seen_tiles)
    for i in range(TILES):
        if tiles[i] == seen[i]:
            if tiles[i] != mine[i]:
                tiles[i], conf[i], cands[i] = mine[i], 1.0, (mine[i] or "empty",)
        elif conf[i] >= threshold:
            mine[i] = seen[i] = tiles[i]  # the table changed here
        # (read otherwise but unsure: left unsure, for the game to ask or wait)
    spares, spare_conf = list(reading.spares), list(reading.spare_confidence)
    have, was = list(typed.spares), list(typed.seen_spares)
    if len(spares) == len(COLOURS) and len(spare_conf) == len(COLOURS):
        for c in range(len(COLOURS)):
            if spares[c] == was[c]:
                if spares[c] != have[c]:
                    spares[c], spare_conf[c] = have[c], 1.0
            elif spare_conf[c] >= threshold:
                have[c] = was[c] = spares[c]
    fixed = replace(
        reading,
        tiles=tuple(tiles),
        confidence=tuple(conf),
        candidates=tuple(cands),
        spares=tuple(spares),
        spare_confidence=tuple(spare_conf),
    )
    return fixed, replace(
        typed,
        tiles=tuple(mine),
        seen_tiles=tuple(seen),
        spares=tuple(have),
        seen_spares=tuple(was),
    )
