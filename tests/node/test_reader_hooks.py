"""Node's sensing hooks: a confident camera reading is the placement; an unsure one is a
question that one press of "next" confirms; one the rules refuse comes back with the reason;
through the real runtime, and replayed from the log."""

import threading

import pytest

from companion.cues import AskHuman
from companion.entries import iter_entries
from companion.events import ButtonPressed, from_dict, to_dict
from companion.game import GameConfig, ReaderSpec
from companion.games.node import GAME
from companion.games.node.events import CardProposed, CardRead, NoCardsLeft, PlaceCard
from companion.games.node.geometry import card_rows, footprint, rotate
from companion.runtime import Runtime
from companion.session import Session, replay
from companion.store import GameLog

SURE = ((1.0, 1.0, 1.0), (0.99, 0.95, 1.0))
WIDE = (("yellow", "yellow", "purple"), ("green", "red", "red"))  # fits at row 5, column 8


@pytest.fixture
def state():
    s = GAME.initial_state(GameConfig(("ann", "bob"), {"deck": 10}))
    s, _ = GAME.apply(s, PlaceCard("ann", ("red",) * 3 + ("blue",) * 3, 6, 9))
    return s  # bob's turn; red on row 6, blue on row 7, columns 9-11


def sense(state, reading, memory=None):
    return GAME.interpret(state, reading, memory)[0]


def test_a_confident_reading_is_the_current_players_placement(state):
    wide = CardRead(WIDE, 5, 8, SURE)
    (ev,) = sense(state, wide)
    assert ev == PlaceCard("bob", ("yellow", "yellow", "purple", "green", "red", "red"), 5, 8)
    # a card lying tall: the footprint on the table is the one read
    rows = (("purple", "blue"), ("red", "blue"), ("blue", "green"))
    tall = CardRead(rows, 5, 11, ((1.0, 1.0),) * 3)
    (ev,) = sense(state, tall)
    assert ev.player == "bob" and ev.rotation == 90
    laid = footprint(ev.colours, 2, 3, ev.row, ev.col, ev.rotation)
    assert laid == {(5 + r, 11 + c): x for r, line in enumerate(rows) for c, x in enumerate(line)}
    assert rotate(card_rows(ev.colours, 2, 3), 90) == rows
    new, _ = GAME.apply(state, ev)
    assert new.played == 2 and new.at((7, 12)) == "green"


def test_an_unsure_reading_asks_and_next_confirms_it(state):
    read = CardRead(WIDE, 5, 8, ((1.0, 0.55, 1.0), (1.0, 1.0, 1.0)))
    (ev,) = sense(state, read)
    assert isinstance(ev, CardProposed) and "unsure of 1 node" in ev.question
    asked, cues = GAME.apply(state, ev)
    assert asked.played == 1 and asked.proposal is not None and asked.asked == ev
    assert [type(c) for c in cues] == [AskHuman] and "Press next" in cues[0].question
    (confirm,) = sense(asked, ButtonPressed("next"))
    assert confirm == asked.proposal
    placed, _ = GAME.apply(asked, confirm)
    assert placed.played == 2 and placed.proposal is None and placed.asked is None
    # next with nothing proposed does nothing; the reader's own doubt also asks
    assert sense(placed, ButtonPressed("next")) == ()
    doubt = CardRead(read.colours, 5, 8, SURE, "the card lies between two grid positions")
    assert "between two grid positions" in sense(state, doubt)[0].question


@pytest.mark.parametrize(
    "colours,row,col,why",
    [
        ((("blue", "red", "red"), ("green", "green", "green")), 6, 9, "cannot cover a red"),
        ((("red", "red", "red"), ("red", "red", "red")), 1, 1, "cover at least one node"),
        ((("red", "red"), ("blue", "blue"), ("red", "red")), 12, 11, "over the edge"),
    ],
)
def test_a_reading_the_rules_refuse_comes_back_with_the_reason(state, colours, row, col, why):
    (ev,) = sense(state, CardRead(colours, row, col, ((1.0,) * len(colours[0]),) * len(colours)))
    assert isinstance(ev, CardProposed) and why in ev.question and ev.refused
    assert (ev.player, ev.row, ev.col) == ("bob", row, col)  # what was seen, to show it
    new, cues = GAME.apply(state, ev)
    assert new.proposal is None and new.played == 1 and why in cues[0].question
    assert new.asked == ev  # kept for the screen, with nothing to confirm
    assert sense(new, ButtonPressed("next")) == ()


def test_a_reading_of_another_shape_is_asked(state):
    (ev,) = sense(state, CardRead((("red",) * 4,), 6, 9, ((1.0,) * 4,)))
    assert isinstance(ev, CardProposed) and "not 2 x 3 nodes" in ev.question


def test_readers_want_the_node_reader_anew_each_turn(state):
    first = GAME.readers(state)
    assert first == (ReaderSpec("node", "turn 1"),)
    new, _ = GAME.apply(state, PlaceCard("bob", ("red",) * 6, 5, 9))
    assert GAME.readers(new) != first
    over, _ = GAME.apply(new, NoCardsLeft())
    assert GAME.readers(over) == ()


def test_readings_through_the_runtime_and_the_log_replay(tmp_path):
    log = GameLog(tmp_path / "log.sqlite")
    runtime = Runtime(keep_time=False)
    refused = []
    runtime.subscribe(on_refusal=lambda ev, why: refused.append(why))
    try:
        session = Session.start(GAME, log, GameConfig(("ann", "bob"), {"deck": 10}))
        runtime.play(session)
        first = runtime.changed_to(lambda s: s.played == 1)
        runtime.post(CardRead((("red",) * 3, ("blue",) * 3), 6, 9, SURE))
        assert first.wait(10)
        asked = runtime.changed_to(lambda s: s.proposal is not None)
        unsure = ((0.5, 1.0, 1.0), (1.0, 1.0, 1.0))
        runtime.post(CardRead((("blue",) * 3, ("red",) * 3), 7, 9, unsure))
        assert asked.wait(10) and session.state.played == 1
        placed = runtime.changed_to(lambda s: s.played == 2)
        runtime.post(ButtonPressed("next"))
        assert placed.wait(10) and session.state.current == "ann"
        assert runtime.drain(10) and refused == []
        export = log.export(session.game_id)
    finally:
        runtime.close()
        log.close()
    kinds = [e["event"]["type"] for e in export["entries"] if e.get("kind") == "event"]
    assert kinds == ["node.PlaceCard", "node.CardProposed", "node.PlaceCard"]
    states, _ = replay(GAME, session.config, list(iter_entries(export)))
    assert states[-1].grid == session.state.grid
    proposal = CardProposed("Is this?", "bob", ("red",) * 6, 1, 2, 90)
    assert from_dict(to_dict(proposal)) == proposal


def test_the_demo_plays_a_whole_game_read_by_the_camera(tmp_path):
    from companion.games.node.demo import run_demo

    done = threading.Event()
    out = run_demo(tmp_path, seed=3, deck=6, light="shadow", live=lambda line: done.set())
    assert out["winners"] and out["misreads"] == 0 and done.is_set()
    assert out["placements"] + out["discards"] == 6
    assert out["read"] + out["confirmed"] >= 4  # the camera, not fingers, laid the cards


def test_the_app_reads_node_with_the_placement_reader_alone(tmp_path):
    log = GameLog(tmp_path / "log.sqlite")
    runtime = Runtime(keep_time=False, camera_source="simulated")
    try:
        runtime.play(Session.start(GAME, log, GameConfig(("ann", "bob"))))
        assert GAME.readers(runtime.session.state)
        assert runtime.camera is not None and runtime.camera.wanted == {"node"}
    finally:
        runtime.close()
        log.close()


def test_a_card_read_over_the_edge_comes_back_with_the_rules_reason():
    from vision.node.reader import NodeReader
    from vision.render.node import LaidCard, render_node_table, rendered_node_calibration

    state = GAME.initial_state(GameConfig(("ann", "bob"), {"table_width": 20, "table_height": 14}))
    old = []
    for col in (9, 7, 5, 3, 1, 0):  # a red band to the left edge
        state, _ = GAME.apply(state, PlaceCard(state.current, ("red",) * 6, 6, col))
        old.append(LaidCard((("red",) * 3,) * 2, 6, col))
    over = LaidCard((("red", "green", "blue"), ("red", "yellow", "blue")), 7, -1, 0.1, 0.1, 4)
    reading = NodeReader(rendered_node_calibration()).read(
        render_node_table(old, "overcast", 9),
        render_node_table([*old, over], "overcast", 9, frame=1),
    )
    assert (reading.status, reading.row, reading.col) == ("placed", 7, -1), reading
    (ev,) = sense(state, CardRead(reading.colours, reading.row, reading.col, reading.confidence))
    assert isinstance(ev, CardProposed) and "hangs over the edge" in ev.question


def test_the_demo_command_refuses_bad_input_in_one_line(capsys):
    from companion.cli import main

    for argv in (["--deck", "1"], ["--light", "candle"], ["--frob"]):
        assert main(["demo", "node", *argv]) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and "Traceback" not in err
