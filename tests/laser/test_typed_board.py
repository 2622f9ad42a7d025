"""A board typed in by hand wins over the camera's readings until the table changes, and the
app says where the camera reads otherwise."""

from dataclasses import replace

from companion.games.laser import GAME, sensing
from companion.games.laser.events import (
    BoardEntered,
    CardRevealed,
    ImpossibleClaimed,
    RefillSeen,
    TypedBoardKept,
)
from companion.games.laser.sensing.ring import RingRead
from companion.games.laser.sensing.typed_board import correct

from .helpers import RING, expire, new, play, reveal_team

SPARES = (2, 1, 2, 2, 1, 2)
TRUE = RING  # tile 5 (index 4) holds the green figure ...
MISREAD = RING[:4] + ("blue",) + RING[5:]  # ... which the camera reads, for sure, as blue


def read(tiles, spares=SPARES):
    return RingRead(tiles, (1.0,) * 12, tuple((t or "empty",) for t in tiles), spares, (1.0,) * 6)


def board(tiles, spares=SPARES):
    return BoardEntered(tuple(None if t == "cat" else t for t in tiles), tiles.index("cat"), spares)


def sense(state, memory, *readings):
    events = []
    for r in readings:
        out, memory = sensing.interpret(state, r, memory)
        events += out
    return events, memory


def test_a_typed_board_is_entered_again_next_round_while_the_table_has_not_changed():
    state, _ = reveal_team(new())
    events, memory = sense(state, None, read(MISREAD))
    assert events == [board(MISREAD)]  # the camera's (wrong) board ...
    state, _ = play(state, *events)
    state, _ = play(state, board(TRUE))  # ... corrected by hand
    state, _ = play(state, ImpossibleClaimed("Peter"))
    state, _ = expire(state)  # nobody disagreed: nobody moved a figure
    assert state.round == 2 and state.phase == "reveal"

    # the refill check sees the table as typed: nothing to put back; people are told once
    events, memory = sense(state, memory, read(MISREAD), read(MISREAD))
    assert events == [TypedBoardKept((5,)), RefillSeen("ready")]
    state, cues = play(state, *events)
    assert "tile 5 otherwise than the board typed in" in cues[0].text
    state, _ = play(state, CardRevealed("red"), CardRevealed("green"))
    events, memory = sense(state, memory, read(MISREAD))
    assert events == [board(TRUE)]  # the typed board, not the camera's reading


def test_where_the_table_changes_the_camera_is_right_again():
    state, _ = reveal_team(new())
    _, _, memory = correct(state, read(MISREAD), None, None)  # the camera's view ...
    state, _ = play(state, board(TRUE))  # ... then the board typed
    fixed, said, memory = correct(state, read(MISREAD), memory, None)
    assert fixed.tiles == TRUE and said == (TypedBoardKept((5,)),)
    # read otherwise but unsure: neither the person's word nor a change
    unsure = replace(read(MISREAD[:4] + ("cyan",) + MISREAD[5:]), confidence=(0.2,) * 12)
    fixed, said, memory = correct(state, unsure, memory, None)
    assert fixed.tiles[4] == "cyan" and fixed.confidence[4] == 0.2 and memory.typed is not None
    # a figure moved onto tile 5's: the camera reads it otherwise, for sure: a change
    moved = MISREAD[:4] + ("magenta",) + MISREAD[5:]
    fixed, said, memory = correct(state, read(moved), memory, None)
    assert fixed.tiles == moved and said == ()
    assert memory.typed is None  # nothing typed is left to keep
    fixed, _, _ = correct(state, read(MISREAD), memory, None)
    assert fixed.tiles == MISREAD


def test_a_board_typed_before_the_camera_looked_gives_way_where_the_camera_differs():
    state, _ = reveal_team(new())
    state, _ = play(state, board(TRUE))
    fixed, said, memory = correct(state, read(MISREAD), None, None)
    assert fixed.tiles == MISREAD and said == () and memory.typed is None


def test_the_camera_entering_its_own_board_is_not_a_typed_board():
    state, _ = reveal_team(new())
    events, memory = sense(state, None, read(TRUE))
    state, _ = play(state, *events)
    events, memory = sense(state, memory, read(TRUE))
    assert memory.typed.typed is None and not [e for e in events if isinstance(e, TypedBoardKept)]
    assert GAME.position(state) is not None
