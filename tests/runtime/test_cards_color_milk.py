"""Color Milk predictions read by the camera through the runtime: cards laid on the rendered
table are read on the camera thread, interpreted by the game and entered or asked."""

import queue

import pytest

from companion import cues as C
from companion.card_readings import ZoneRead
from companion.events import BallSeen
from companion.game import GameConfig
from companion.games.color_milk import GAME
from companion.games.color_milk.cards import CardsToConfirm
from companion.games.color_milk.events import Predict
from companion.runtime import Runtime
from companion.runtime.sim_scene import SimulatedScene
from companion.runtime.sim_tray import SimulatedTray
from companion.session import Session
from companion.store import GameLog
from vision.render.cards import BACK

pytestmark = pytest.mark.slow  # the rendered calibration takes a few seconds once

BALLS = ("blue", "pink", "orange", "green", "blue")


@pytest.fixture
def table(tmp_path):
    runtime = Runtime(camera_source="simulated")
    runtime.scene = SimulatedScene(tray=SimulatedTray("tungsten"))
    asks: queue.Queue = queue.Queue()
    runtime.subscribe(on_cue=lambda cue: isinstance(cue, C.AskHuman) and asks.put(cue))
    session = Session.start(GAME, GameLog(tmp_path / "log.db"), GameConfig(("Ann", "Bo", "Cy")))
    runtime.play(session)
    try:
        yield runtime, session, asks
    finally:
        runtime.close()


def ask_naming(asks: queue.Queue, seen: list, words: str, timeout: float = 30) -> C.AskHuman:
    """The question naming `words`, among those asked so far or the next ones."""
    while not any(words in cue.question for cue in seen):
        seen.append(asks.get(timeout=timeout))
    return next(cue for cue in seen if words in cue.question)


def test_revealed_cards_become_predictions_or_questions(table):
    runtime, session, asks = table
    tray = runtime.tray
    tray.lay("seat1", [BACK, BACK, BACK, BACK])  # laid face down while the mill turns
    for slot, colour in enumerate(BALLS):
        runtime.submit(BallSeen(colour, slot, 1.0))
    assert session.state.phase == "check"
    camera = runtime.camera
    assert camera is not None and camera.reading.wait(90)
    reads: queue.Queue = queue.Queue()
    forward = camera.feed.on_events

    def spy(events):  # what the camera posts, seen on its way to the runtime
        forward(events)
        for e in events:
            if isinstance(e, ZoneRead):
                reads.put(e)

    camera.feed.on_events = spy
    # face down: several readings go by and nothing is entered
    backs = 0
    while backs < 3:
        e = reads.get(timeout=30)
        backs += e.zone == "seat1" and e.face_down == 4 and not e.colours
    assert runtime.drain()
    assert session.state.player("Ann").prediction == ()

    ann = runtime.changed_to(lambda s: s.player("Ann").prediction != ())
    tray.lay("seat1", ["green", "blue", "pink", "orange"])  # revealed: a free prediction
    tray.lay("seat2", ["pink", "purple"])  # two cards: maybe the double
    tray.lay("seat3", ["orange", "orange"])  # a colour twice: a card is misread or odd
    assert ann.wait(30)
    assert session.state.player("Ann").prediction == ("blue", "green", "orange", "pink")
    seen: list = []
    bo = ask_naming(asks, seen, "Seat 2 (Bo)")
    assert "pink + purple" in bo.question
    assert bo.answers == (
        Predict("Bo", ("pink", "purple")),
        Predict("Bo", ("pink", "purple"), "double"),
    )
    cy = ask_naming(asks, seen, "Seat 3 (Cy)")
    assert "orange read twice" in cy.question and cy.answers == (Predict("Cy", ("orange",)),)
    assert session.state.player("Bo").prediction == ()
    assert session.state.player("Cy").prediction == ()
    # the answers are taps; then the round goes on and the card reader stops
    runtime.submit(Predict("Bo", ("pink", "purple"), "double"))
    runtime.submit(Predict("Cy", ("orange",)))
    assert session.state.phase == "choose"
    assert runtime.drain()
    assert "cards" not in camera.wanted
    logged = [e.payload["type"] for e in session.log.entries(session.game_id)]
    assert logged.count(CardsToConfirm.type_name) == 2  # each question asked once
    assert logged.count(Predict.type_name) == 3
