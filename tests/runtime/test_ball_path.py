"""The path of a ball dropped on the simulated chute: sensor -> runtime -> game.interpret ->
Session.submit, on the runtime's engine thread, through no screen and no UI module."""

import threading
import traceback
from pathlib import Path

from companion.events import BallPassed
from companion.game import GameConfig
from companion.games.color_milk import GAME
from companion.games.color_milk.events import Predict
from companion.runtime import Runtime
from companion.session import Session
from companion.store import GameLog


class WatchedSession(Session):
    """A Session that notes the call stack of every event submitted to it."""

    stacks: list

    def submit(self, event):
        self.stacks.append((event, threading.current_thread().name, traceback.extract_stack()))
        return super().submit(event)


def test_a_dropped_ball_reaches_session_submit_through_no_ui_module(tmp_path):
    runtime = Runtime()
    with GameLog(tmp_path / "games.sqlite3") as log:
        runtime.open_table(simulate=True)
        session = WatchedSession.start(GAME, log, GameConfig(("Anna",)))
        session.stacks = []
        runtime.play(session)
        runtime.submit(Predict("Anna", ("blue",)))
        counted = runtime.changed_to(lambda s: s.passed == 1)
        assert runtime.hands.drop_ball("pink").wait(5)
        assert counted.wait(10)
        runtime.close()
    event, thread, stack = session.stacks[-1]
    assert event == BallPassed() and thread == "runtime-engine"
    files = [Path(frame.filename).as_posix() for frame in stack]
    assert any(f.endswith("companion/runtime/__init__.py") for f in files)
    assert not [f for f in files if "/companion/ui/" in f or f.endswith("/screen.py")]
