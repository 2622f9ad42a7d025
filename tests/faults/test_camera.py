"""The camera replugged at another resolution, and a camera setting no source understands,
through the real runtime and the rendered table (issue 28, item 9): said on screen, never a
silent stop or a dead thread."""

from __future__ import annotations

import threading

import cv2
import pytest

from companion.cues import Announce
from companion.game import GameConfig
from companion.games.color_milk import GAME
from companion.games.color_milk.events import Predict
from companion.runtime import Runtime
from companion.runtime.camera import CameraLink
from companion.session import Session
from companion.store import GameLog
from tests.capability import patience


@pytest.mark.slow
def test_a_camera_replugged_at_another_size_goes_on_reading_or_asks_for_the_set_up(tmp_path):
    rt = Runtime(camera_source="simulated")
    log = GameLog(tmp_path / "games.sqlite3")
    rt.open_table(simulate=True)
    rt.play(Session.start(GAME, log, GameConfig(("Anna", "Ben"))))
    said = []
    rt.subscribe(on_cue=lambda c: said.append(c.text) if isinstance(c, Announce) else None)
    try:
        assert rt.camera is not None and rt.camera.reading.wait(patience(90))
        source = rt.camera.feed.camera.source  # the rendered table, as a camera sees it
        frame = source.frames
        source.frames = lambda i: cv2.resize(frame(i), None, fx=1.5, fy=1.5)  # same shape
        for name in ("Anna", "Ben"):
            rt.submit(Predict(name, ("blue",)))
        read = rt.changed_to(lambda s: s.phase == "choose")
        for _ in range(5):
            assert rt.hands.drop_ball().wait(5)
        # every ball read from the larger frames
        assert read.wait(patience(60)), rt.session.state.tray
        assert any("they are scaled to the" in t for t in said), said
        told = threading.Event()  # listening before the change, so the cue cannot slip by
        rt.subscribe(
            on_cue=lambda c: (
                told.set() if "set the camera up again" in getattr(c, "text", "") else None
            )
        )
        source.frames = lambda i: frame(i)[:, : frame(i).shape[1] // 2]  # another shape
        assert told.wait(patience(30))
        assert rt.camera._thread is not None and rt.camera.feed.camera.status.value == "running"
    finally:
        rt.close()
        log.close()


@pytest.mark.parametrize("setting", [["x"], {"a": 1}, 3.5])
def test_a_camera_setting_no_source_understands_is_said_not_a_dead_thread(setting):
    said = threading.Event()
    texts = []

    def cue(c):
        texts.append(c.text)
        said.set()

    link = CameraLink(
        simulate=False,
        source=setting,
        calibration_file=None,
        ask_threshold=0.8,
        on_events=lambda events: None,
        on_cue=cue,
    )
    link.start()
    assert said.wait(10)
    assert "Camera off: the camera setting" in texts[0] and "Settings" in texts[0]
    link.close()
