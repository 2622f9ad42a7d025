"""A Color Milk round resumed after a restart (the app killed mid-round) goes on reading where
it was, on the simulated table through the real runtime: the balls in the tray stay there,
those already logged are not read or asked again, and the next balls are read into the next
slots."""

import pytest

from companion.events import BallSeen
from companion.game import GameConfig
from companion.games.color_milk import GAME
from companion.games.color_milk.events import Predict
from companion.runtime import Runtime
from companion.session import Session
from companion.store import GameLog

pytestmark = pytest.mark.slow

WAIT = 90  # seconds: the first calibration of the rendered tray, on a busy machine


def table_for(session):
    """The app (re)started with `session` in play: a new runtime, simulated table and
    camera; every reading it submits is recorded."""
    rt = Runtime(camera_source="simulated")
    rt.open_table(simulate=True)
    submitted = []
    rt.subscribe(on_event=submitted.append)
    rt.play(session)
    assert rt.camera is not None and rt.camera.reading.wait(WAIT)
    return rt, rt.hands, submitted


def drop(rt, hands, n):
    """`n` balls out of the mill, each read before the next (the state logs its slot)."""
    for _ in range(n):
        read = sum(1 for c in rt.session.state.tray if c)
        assert hands.drop_ball().wait(5)
        reached = rt.changed_to(lambda s, k=read + 1: sum(1 for c in s.tray if c) >= k)
        assert reached.wait(30), (rt.session.state.tray, rt.tray.balls())


def test_restarting_mid_round_resumes_the_reading_where_it_was(tmp_path):
    log = GameLog(tmp_path / "games.sqlite3")
    session = Session.start(GAME, log, GameConfig(("Anna", "Ben")))
    rt, hands, _ = table_for(session)
    for name in ("Anna", "Ben"):
        rt.submit(Predict(name, ("blue",)))
    drop(rt, hands, 3)
    logged = session.state.tray[:3]
    rt.close()  # the app is killed with three balls in the tray

    for restart, balls in enumerate((1, 1)):  # restarted, one ball, restarted again, the last
        session = Session.resume(GAME, log, session.game_id)
        rt, hands, submitted = table_for(session)
        try:
            assert rt.tray.balls()[: len(logged)] == logged  # the balls still lie there
            drop(rt, hands, balls)
            state = session.state
            assert state.asks == (), (restart, state.asks)
            # only the new ball's slot was read: none logged before was read or asked again
            slots = {e.slot for e in submitted if isinstance(e, BallSeen)}
            assert slots == {len(logged)}, (restart, submitted)
            assert state.tray[: len(logged)] == logged
            logged = state.tray[: len(logged) + 1]
        finally:
            rt.close()
    assert session.state.tray == logged and all(logged) and len(logged) == 5
    assert session.state.phase == "choose"
    log.close()


def test_after_a_restart_mid_round_the_next_round_is_read_too(tmp_path):
    from companion.games.color_milk.state import READING_PHASES

    log = GameLog(tmp_path / "games.sqlite3")
    session = Session.start(GAME, log, GameConfig(("Anna", "Ben")))
    rt, hands, _ = table_for(session)
    for name in ("Anna", "Ben"):
        rt.submit(Predict(name, ("blue",)))
    drop(rt, hands, 3)
    rt.close()  # killed with three balls in the tray

    session = Session.resume(GAME, log, session.game_id)
    rt, hands, _ = table_for(session)
    try:
        drop(rt, hands, 2)
        while session.state.phase not in READING_PHASES:  # the balls chosen, the round ends
            rt.submit(GAME.legal_actions(session.state)[0])
        assert session.state.round == 2
        for name in ("Anna", "Ben"):
            rt.submit(Predict(name, ("green",)))
        drop(rt, hands, 2)  # the next round's balls, read by the camera
    finally:
        rt.close()
        log.close()
