"""Competitive prism cards read by the camera carry their floor into the game; an unsure
floor is asked; team cards have none."""

import pytest

from companion import cues as C
from companion.card_readings import ZoneRead
from companion.events import CardSeen
from companion.game import GameConfig
from companion.games.laser import GAME
from companion.games.laser.board import FLOORS
from companion.games.laser.sensing import readers
from companion.games.laser.sensing.cards import CARD_SET
from companion.runtime import Runtime
from companion.runtime.sim_scene import SimulatedScene
from companion.runtime.sim_tray import SimulatedTray
from companion.session import Session
from companion.store import GameLog
from tests.laser.helpers import steady
from vision.card_zones import ZoneReader
from vision.floor_texture import FLOORS as TEXTURES
from vision.render.cards import CENTRE, empty_table, render_seats, seat_calibration
from vision.render.tray import LASER_COLOURS

COMPETITIVE = GameConfig(("Ann", "Bo"), {"mode": "competitive", "cards": 3})
TEAM = GameConfig(("Ann", "Bo", "Cy"), {"mode": "team", "cards": 2})


def test_the_reader_reads_floors_in_competitive_mode_only():
    assert TEXTURES == FLOORS
    (spec,) = readers(GAME.initial_state(COMPETITIVE))
    assert spec.kind == "cards" and spec.floors == FLOORS
    (spec,) = readers(GAME.initial_state(TEAM))
    assert spec.floors == ()


def test_a_sure_floor_is_entered_and_an_unsure_one_asked():
    state = GAME.initial_state(COMPETITIVE)
    reading = ZoneRead("centre", ("red", "cyan"), (0.99, 0.98), floors=("wood", ""))
    out, _ = steady(state, reading)
    assert out == [CardSeen("centre:wood", "red", 0.99), CardSeen("centre", "cyan", 0.98)]
    state, _ = GAME.apply(state, out[0])
    assert state.cards == (("red", "wood"),)
    new, cues = GAME.apply(state, out[1])
    assert new == state and isinstance(cues[0], C.AskHuman) and "floor" in cues[0].question


def test_a_third_card_of_one_colour_and_floor_is_asked_for_its_floor():
    state = GAME.initial_state(COMPETITIVE)
    for _ in range(2):
        state, _ = GAME.apply(state, CardSeen("centre:carpet", "blue", 0.99))
    reading = ZoneRead("centre", ("blue",) * 3, (0.99,) * 3, floors=("carpet",) * 3)
    out, _ = steady(state, reading)
    assert out == [CardSeen("centre", "blue", 0.99)]


def test_team_mode_ignores_any_floor():
    state = GAME.initial_state(TEAM)
    out, _ = steady(state, ZoneRead("centre", ("red",), (0.99,), floors=("wood",)))
    assert out == [CardSeen("centre", "red", 0.99)]


def test_prism_cards_on_the_rendered_table_enter_with_their_floors():
    """From the camera's frame to the game's cards: the reader, the reading the runtime
    posts, the game's interpretation and rules."""
    cal = seat_calibration()
    state = GAME.initial_state(COMPETITIVE)
    laid = ["magenta:ceramic", "yellow:wood", "green:carpet"]
    reader = ZoneReader(
        cal,
        LASER_COLOURS,
        zones=[CENTRE],
        background=empty_table("warm-led", 7),
        floors=FLOORS,
        colour_set=CARD_SET,
    )
    (view,) = reader.read(render_seats({CENTRE: laid}, "warm-led", 7, frame=1, angle=15))
    reading = ZoneRead(
        CENTRE,
        tuple(c.colour for c in view.cards),
        tuple(c.confidence for c in view.cards),
        floors=tuple(c.floor for c in view.cards),
    )
    out, _ = steady(state, reading)
    for event in out:
        state, _ = GAME.apply(state, event)
    assert state.cards == tuple(tuple(c.split(":")) for c in laid)
    assert state.phase == "thinking"


@pytest.mark.slow
def test_competitive_prism_cards_are_read_with_their_floors_through_the_runtime(tmp_path):
    runtime = Runtime(camera_source="simulated")
    runtime.scene = SimulatedScene(tray=SimulatedTray("daylight"))
    session = Session.start(GAME, GameLog(tmp_path / "log.db"), COMPETITIVE)
    runtime.play(session)
    try:
        three = runtime.changed_to(lambda s: len(s.cards) == 3)
        runtime.scene.tray.lay("centre", ["blue:wood", "red:ceramic", "blue:carpet"])
        assert three.wait(90)
        assert session.state.cards == (("blue", "wood"), ("red", "ceramic"), ("blue", "carpet"))
        seen = [e.payload for e in session.log.entries(session.game_id)]
        zones = [p["zone"] for p in seen if p["type"] == "core.CardSeen"]
        assert zones == ["centre:wood", "centre:ceramic", "centre:carpet"]
    finally:
        runtime.close()
