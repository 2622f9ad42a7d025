"""The ring read by the camera reaches Laser: a confident reading enters the board, an
uncertain one is asked, a hand gives nothing; through the real runtime and rules."""

import random
from dataclasses import replace

import pytest

from companion.game import GameConfig
from companion.games.laser import GAME
from companion.games.laser.events import BoardEntered, BoardProposed, CardRevealed
from companion.games.laser.ring_sensing import RingRead, interpret, questions, readers
from companion.runtime import Runtime
from companion.session import Session
from companion.store import GameLog
from vision.render_ring import (
    RingBoard,
    random_board,
    render_ring,
    ring_calibration,
    training_frames,
)
from vision.ring_reader import RingReader, learn_ring

PLAYERS = ("Peter", "Suzie", "Tommy", "Kitti")
BOARD = RingBoard(
    ("red", "cat", "yellow", None, "green", "cyan", "blue", "magenta", "red", None, "blue", "cyan"),
    {"red": 2, "yellow": 1, "green": 2, "cyan": 2, "blue": 1, "magenta": 2},
)


PLAIN = tuple(None if t == "cat" else t for t in BOARD.tiles)


@pytest.fixture(scope="module")
def reader():
    return RingReader(learn_ring(ring_calibration(), training_frames(24)))


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
    reading = reader.read(render_ring(BOARD, "warm-led", 4)).event()
    assert reading.tiles == BOARD.tiles  # this frame is read without a question
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
    reading = reader.read(render_ring(BOARD, "daylight", 2)).event()
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
    reading = reader.read(render_ring(BOARD, "daylight", 9)).event()
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
        frame = render_ring(truth, "tungsten", 70 + i)
        events, _ = interpret(revealed(), reader.read(frame).event(), None)
        for ev in events:
            if isinstance(ev, BoardProposed):
                continue  # asked, not entered
            assert ev.tiles == tuple(None if t == "cat" else t for t in truth.tiles)
            entered += 1
    assert entered >= 12  # most boards need no question at all


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
