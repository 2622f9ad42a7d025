"""The ring read by the camera reaches Laser: a confident reading enters the board, an
uncertain one is asked, a hand gives nothing; through the real runtime and rules."""

import random
from dataclasses import replace

import pytest

from companion.game import GameConfig
from companion.games.laser import GAME
from companion.games.laser.events import BoardEntered, BoardProposed, CardRevealed
from companion.games.laser.sensing.ring import RingRead, interpret, questions, readers, ring_read
from companion.runtime import Runtime
from companion.session import Session
from companion.store import GameLog
from vision.render.ring import render_ring, ring_calibration
from vision.render.ring_board import EMPTY_BOARD, RingBoard, random_board
from vision.ring.reader import RingReader

PLAYERS = ("Peter", "Suzie", "Tommy", "Kitti")
BOARD = RingBoard(
    ("red", "cat", "yellow", None, "green", "cyan", "blue", "magenta", "red", None, "blue", "cyan"),
    {"red": 2, "yellow": 1, "green": 2, "cyan": 2, "blue": 1, "magenta": 2},
)


PLAIN = tuple(None if t == "cat" else t for t in BOARD.tiles)


@pytest.fixture(scope="module")
def reader():
    return RingReader(ring_calibration())


def read(reader, board, light, seed):
    """Laser's reading of a rendered ring, found on that table's empty ring."""
    reader.find(render_ring(EMPTY_BOARD, light, seed))
    return ring_read(reader.read(render_ring(board, light, seed, frame=1)))


def revealed():
    state = GAME.initial_state(GameConfig(PLAYERS))
    for colour in ("cyan", "blue"):
        state, _ = GAME.apply(state, CardRevealed(colour))
    return state


def test_the_ring_reader_is_wanted_from_the_reveal_until_the_board_is_known(reader):
    state = GAME.initial_state(GameConfig(PLAYERS))
    assert readers(state) == ()
    assert [s.kind for s in GAME.readers(state)] == ["cards"]  # the prism cards come first
    state = revealed()
    assert state.phase == "planning"
    (spec,) = GAME.readers(state)
    assert spec.kind == "ring" and spec.key == "round 1"
    state, _ = GAME.apply(state, BoardEntered(PLAIN, 1, (2, 1, 2, 2, 1, 2)))
    assert GAME.readers(state) == ()


def test_a_rendered_ring_enters_the_board_through_the_runtime(reader, tmp_path):
    reading = read(reader, BOARD, "overcast", 4)  # the lights themselves: tests/vision/test_ring
    assert reading.tiles == BOARD.tiles and min(reading.confidence) >= 0.8  # no question
    runtime = Runtime()
    try:
        with GameLog(tmp_path / "game.db") as log:
            session = Session.start(GAME, log, GameConfig(PLAYERS))
            runtime.play(session)
            for colour in ("cyan", "blue"):
                runtime.submit(CardRevealed(colour))
            runtime.sense(reading)
            board = runtime.session.state.board
            assert board[0] == tuple(None if t == "cat" else t for t in BOARD.tiles)
            assert board[2] == 1 and board[3] == (2, 1, 2, 2, 1, 2)
            assert GAME.position(runtime.session.state) is not None  # the solver can run
            assert runtime.sense(reading) == ()  # the reader stopped: the board is known
    finally:
        runtime.close()


def test_an_uncertain_tile_is_asked_and_nothing_is_entered(reader):
    reading = read(reader, BOARD, "daylight", 2)
    conf = list(reading.confidence)
    conf[4] = 0.3
    unsure = RingRead(
        reading.tiles, tuple(conf), reading.candidates, reading.spares, reading.spare_confidence
    )
    (proposal,), memory = interpret(revealed(), unsure, None)
    assert isinstance(proposal, BoardProposed) and memory.draft == unsure
    assert proposal.tiles == BOARD.tiles and proposal.unsure == (4,)
    assert proposal.candidates[4][0] == "green" and "tile 5" in proposal.question
    state, (ask,) = GAME.apply(revealed(), proposal)
    assert state.proposed_board == proposal and state.board is None  # nothing entered
    flicker = list(unsure.candidates)
    flicker[4] = ("cyan", "green", "empty")  # read "green", cyan first: another order
    again = replace(unsure, candidates=tuple(flicker))
    assert interpret(state, again, memory)[0] == ()  # shown already: proposed once
    assert "tile 5" in ask.question
    (ask,) = questions(unsure, revealed().ask_threshold)
    assert "tile 5" in ask.question and ask.choices[0] == "green"
    # the board the person then confirms replaces the proposal
    state, _ = GAME.apply(state, BoardEntered(PLAIN, 1, (2, 1, 2, 2, 1, 2)))
    assert state.proposed_board is None and state.board is not None


def test_two_cats_or_a_hand_enter_nothing(reader):
    tiles = list(BOARD.tiles)
    tiles[3] = "cat"
    reading = RingRead(tuple(tiles), (1.0,) * 12, ((),) * 12, (2,) * 6, (1.0,) * 6)
    (proposal,) = interpret(revealed(), reading, None)[0]  # asked, never entered
    assert isinstance(proposal, BoardProposed) and proposal.unsure == (1, 3, 9)
    assert "2 cats: check tiles 2, 4 and 10" in proposal.question
    assert interpret(revealed(), RingRead(hand=True), None)[0] == ()


def test_competitive_floors_come_from_an_earlier_board(reader):
    state = GAME.initial_state(GameConfig(("Peter", "Suzie")))
    for colour, floor in (("yellow", "wood"), ("green", "carpet")):
        state, _ = GAME.apply(state, CardRevealed(colour, floor))
    reading = read(reader, BOARD, "daylight", 9)
    (proposal,), memory = interpret(state, reading, None)
    assert memory.draft is not None  # no floors known yet: the editor asks
    assert isinstance(proposal, BoardProposed) and proposal.floors is None
    assert "floors" in proposal.question
    floors = ("wood", "carpet", "ceramic") * 4
    state, _ = GAME.apply(state, BoardEntered(PLAIN, 1, (2, 1, 2, 2, 1, 2), floors))
    state = replace(state, board=None, last_board=state.board)  # as in the next round
    (board,), _ = interpret(state, reading, None)
    assert board.floors == floors


def test_random_boards_enter_only_what_is_on_the_table(reader):
    entered = 0
    for i in range(16):
        truth = random_board(random.Random(70 + i))
        events, _ = interpret(revealed(), read(reader, truth, "tungsten", 70 + i), None)
        for ev in events:
            if isinstance(ev, BoardProposed):
                continue  # asked, not entered
            assert ev.tiles == tuple(None if t == "cat" else t for t in truth.tiles)
            entered += 1
    # most boards need no question at all (under the rendered warm lights a white or
    # yellow figure saturates the red channel: asked, not guessed)
    assert entered >= 10


def test_a_proposed_board_is_refused_when_it_cannot_be_a_ring_or_comes_too_late():
    from companion.errors import IllegalMove

    state = revealed()
    good = BoardProposed(BOARD.tiles, ((),) * 12, (4,), (2, 1, 2, 2, 1, 2))
    for bad in (
        replace(good, tiles=BOARD.tiles[:11]),
        replace(good, tiles=("pink",) + BOARD.tiles[1:]),
        replace(good, unsure=(12,)),
        replace(good, supply=(3, 1, 2, 2, 1, 2)),
        replace(good, candidates=(("pink",),) * 12),
    ):
        with pytest.raises(IllegalMove):
            GAME.apply(state, bad)
    entered, _ = GAME.apply(state, BoardEntered(PLAIN, 1, (2, 1, 2, 2, 1, 2)))
    with pytest.raises(IllegalMove, match="already entered"):
        GAME.apply(entered, good)
    shown, _ = GAME.apply(state, good)
    assert shown.proposed_board == good and shown.board is None


def test_with_two_cats_a_doubtful_tile_is_asked_too():
    tiles = list(BOARD.tiles)
    tiles[3] = "cat"
    conf = [1.0] * 12
    conf[6] = 0.2  # the blue on tile 7 (1-12, as the editor shows them), read without confidence
    reading = RingRead(tuple(tiles), tuple(conf), ((),) * 12, (2,) * 6, (1.0,) * 6)
    asked = [q.question for q in questions(reading, 0.7)]
    assert [q for q in asked if "tile 7" in q] and [q for q in asked if "tile 4" in q]
    assert not [q for q in asked if "tile 6" in q]  # a confident figure is not asked


def test_a_doubted_tile_or_card_reaches_laser_as_one_to_ask(reader):
    """The reader's doubts (a hand over a tile, a figure of the wrong size) are asked
    whatever the game's threshold: their confidence reaches Laser as 0."""
    from dataclasses import replace as changed

    reader.find(render_ring(EMPTY_BOARD, "daylight", 2))
    reading = reader.read(render_ring(BOARD, "daylight", 2, frame=1))
    doubt = list(reading.doubt)
    doubt[4] = "size"
    spare_doubt = dict(reading.spare_doubt) | {"blue": "reads cyan"}
    event = ring_read(changed(reading, doubt=tuple(doubt), spare_doubt=spare_doubt))
    assert event.confidence[4] == 0.0 and event.confidence[5] == round(reading.confidence[5], 3)
    assert event.spare_confidence[4] == 0.0  # blue, in circle order
    (proposal,), _ = interpret(revealed(), event, None)
    assert isinstance(proposal, BoardProposed) and 4 in proposal.unsure
    covered = changed(reading, doubt=("covered",) + reading.doubt[1:])
    assert ring_read(covered).hand and interpret(revealed(), ring_read(covered), None)[0] == ()
