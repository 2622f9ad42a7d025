"""The app's own camera path on the simulated table: balls dropped on the simulated chute
roll into the rendered tray, the real ball reader reads them on its thread, and the game in
play records them through the runtime — the same code that runs with a Pi camera."""

import queue

import pytest

from companion.events import BallPassed
from companion.runtime.sim_scene import HandsWithScene, SimulatedScene
from companion.runtime.sim_tray import BALL_COLOURS, SimulatedTray
from companion.ui.app import Root
from companion.ui.context import AppContext
from companion.ui.render import ensure_window, pump
from hardware.sim_table import open_simulated_table

pytestmark = [pytest.mark.ui, pytest.mark.slow]


def test_balls_dropped_on_the_simulated_table_are_read_by_the_camera(data_dir):
    ensure_window()
    ctx = AppContext.open(data_dir, simulate=True)
    ctx.runtime.camera_source = "simulated"
    ctx.runtime.open_table(simulate=True)
    try:
        root = Root(ctx)
        root.choose_game("color-milk")
        root.get_screen("setup").start()
        screen = root.get_screen("game")
        camera = ctx.runtime.camera
        assert camera is not None
        # the first rendered calibration takes a few seconds; the tray is empty meanwhile
        assert camera.reading.wait(90)
        balls = ["green", "blue", "pink", "green", "orange"]
        done = ctx.runtime.changed_to(lambda s: tuple(s.tray) == tuple(balls) and s.passed == 5)
        for colour in balls:
            ctx.runtime.hands.drop_ball(colour).wait(2)
        assert done.wait(30), screen.state.tray
        pump(1)
        assert screen.ids.undo.disabled is False  # the screen heard of it too
        entries = ctx.log.entries(screen.session.game_id)
        seen = [e.payload for e in entries if e.payload["type"] == "core.BallSeen"]
        assert [s["colour"] for s in sorted(seen, key=lambda s: s["slot"])] == balls
        assert all(s["confidence"] < 1.0 for s in seen)  # a camera is never a person
    finally:
        ctx.close()


def test_the_space_bar_drops_a_coloured_ball_into_the_tray_and_through_the_beam():
    events = queue.Queue()
    tray = SimulatedTray()
    with open_simulated_table(events.put) as sim:
        hands = HandsWithScene(sim.hands, SimulatedScene(tray=tray))
        assert hands.handle_key(" ")
        assert events.get(timeout=3) == BallPassed()
        assert len(tray._balls) == 1 and tray._balls[0] in BALL_COLOURS
        assert hands.handle_key("b")  # other keys still reach the table
        assert not hands.handle_key("z")


def test_a_ball_turned_out_after_the_round_s_fifth_rolls_past_the_tray_and_the_camera_goes_on():
    """The mill turned once too often: the sixth ball passes the beam (the rules say what it
    means) but finds no cup; the tray the camera sees still holds the round's five."""
    events = queue.Queue()
    tray = SimulatedTray()
    with open_simulated_table(events.put) as sim:
        hands = HandsWithScene(sim.hands, SimulatedScene(tray=tray))
        for colour in (*BALL_COLOURS, "blue"):
            hands.drop_ball(colour)
            assert events.get(timeout=3) == BallPassed()
    assert tray.balls() == BALL_COLOURS
    assert tray.frame(0).shape == (480, 640, 3)


def test_a_still_view_is_read_again_as_often_as_the_neediest_wanted_reader_asks():
    """The balls' patience counts frames read: with them wanted, a still view is read every
    2 s; with only readers that wait for steady frames, every 6 s (less work at the table)."""
    from companion.game import ReaderSpec
    from companion.runtime.readers import SETTLED_GAP, STILL_GAP
    from tests.runtime.test_camera_memory import link as quiet_link

    link = quiet_link()
    link.want((ReaderSpec("cards", "round 1"),))
    assert link._still_gap() == SETTLED_GAP
    link.want((ReaderSpec("balls", "round 1"), ReaderSpec("cards", "round 1")))
    assert link._still_gap() == STILL_GAP < SETTLED_GAP
    link.want(())
    assert link._still_gap() == STILL_GAP
