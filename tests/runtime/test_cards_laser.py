"""Laser's prism cards read by the camera in the centre, as they are laid: pure interpret,
and through the runtime on the rendered table."""

import pytest

from companion import cues as C
from companion.card_readings import ZoneRead
from companion.events import CardSeen
from companion.game import GameConfig
from companion.games.laser import GAME
from companion.games.laser.sensing import readers
from companion.runtime import Runtime
from companion.runtime.sim_scene import SimulatedScene
from companion.runtime.sim_tray import SimulatedTray
from companion.session import Session
from companion.store import GameLog
from tests.laser.helpers import steady

TEAM = GameConfig(("Ann", "Bo", "Cy"), {"mode": "team", "cards": 3})


def centre(*colours, conf=0.99):
    return ZoneRead("centre", colours, (conf,) * len(colours))


def test_cards_are_entered_as_they_are_laid_left_to_right():
    state = GAME.initial_state(TEAM)
    assert [s.kind for s in readers(state)] == ["cards"]
    out, memory = steady(state, centre("red"))
    assert out == [CardSeen("centre", "red", 0.99)]
    state, _ = GAME.apply(state, out[0])
    out, memory = steady(state, centre("red"), memory)
    assert out == []  # already entered
    out, memory = steady(state, centre("red", "cyan", "blue"), memory)
    assert [e.colour for e in out] == ["cyan", "blue"]
    for e in out:
        state, _ = GAME.apply(state, e)
    assert state.cards == (("red", None), ("cyan", None), ("blue", None))
    assert state.phase == "planning"
    assert "cards" not in [s.kind for s in readers(state)]  # the ring is read next


def test_a_third_card_of_a_colour_in_team_mode_is_a_question():
    state = GAME.initial_state(TEAM)
    for colour in ("red", "red"):
        state, _ = GAME.apply(state, CardSeen("centre", colour, 0.99))
    out, _ = steady(state, centre("red", "red", "red"))
    assert out == [CardSeen("centre", "red", 0.0)]
    new, cues = GAME.apply(state, out[0])
    assert new == state and isinstance(cues[0], C.AskHuman)


def test_hands_touching_cards_and_unsteady_readings_enter_nothing():
    state = GAME.initial_state(TEAM)
    touching = ZoneRead("centre", ("red", ""), (0.99, 0.0), touching=True)
    assert steady(state, touching)[0] == []
    assert steady(state, centre("red"), frames=1)[0] == []  # one frame is not enough
    assert steady(state, ZoneRead("seat1", ("red",), (0.99,)))[0] == []


@pytest.mark.slow
def test_prism_cards_laid_on_the_rendered_table_are_read_through_the_runtime(tmp_path):
    runtime = Runtime(camera_source="simulated")
    runtime.scene = SimulatedScene(tray=SimulatedTray("warm-led"))
    session = Session.start(GAME, GameLog(tmp_path / "log.db"), TEAM)
    runtime.play(session)
    try:
        tray = runtime.tray
        one = runtime.changed_to(lambda s: len(s.cards) == 1)
        tray.lay("centre", ["magenta"])
        assert one.wait(90)
        three = runtime.changed_to(lambda s: len(s.cards) == 3)
        tray.lay("centre", ["magenta", "yellow", "green"])
        assert three.wait(30)
        assert session.state.cards == (("magenta", None), ("yellow", None), ("green", None))
        assert session.state.phase == "planning"
        seen = [e.payload for e in session.log.entries(session.game_id)]
        assert [p["colour"] for p in seen if p["type"] == "core.CardSeen"] == [
            "magenta",
            "yellow",
            "green",
        ]
        assert all(p["confidence"] < 1.0 for p in seen if p["type"] == "core.CardSeen")
    finally:
        runtime.close()


def test_a_calibration_without_card_zones_says_so_once():
    from dataclasses import replace

    from companion.game import ReaderSpec
    from companion.runtime.read_cards import CardAdapter
    from companion.runtime.readers import Setup
    from vision.render.cards import empty_table, seat_calibration

    cues: list = []
    setup = Setup(simulate=True, calibration_file=None, ask_threshold=0.8, on_cue=cues.append)
    setup.preset("balls", replace(seat_calibration(), card_zones=()))
    cards = CardAdapter(setup)
    frame = empty_table("daylight", 1)
    for k in range(3):  # the game keeps asking for cards, state change after state change
        cards.want(ReaderSpec("cards", f"round {k}", ("red",)))
        assert cards.read(frame) == []
    assert len(cues) == 1 and "no card zones" in cues[0].text
