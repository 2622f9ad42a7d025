"""The screen a refused start shows, rendered headless and driven by its real buttons, and
READY=1 timed to the first frame actually drawn."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from kivy.uix.label import Label

from companion.store import GameLog
from companion.ui.problem import ProblemScreen, problem_for, show_notice
from companion.ui.widgets import MIN_TOUCH, BigButton

pytestmark = pytest.mark.ui

CONFIG = {"players": ["Anna", "Ben"], "options": {}, "seed": 0}


def texts(widget) -> str:
    return "\n".join(w.text for w in widget.walk() if isinstance(w, Label))


def refused(path: Path) -> Exception:
    try:
        GameLog(path).close()
    except Exception as exc:
        return exc
    raise AssertionError(f"{path} was not refused")


@pytest.fixture
def lost_log(tmp_path):
    """A log that lost its game (deleted) while a backup holds it."""
    path = tmp_path / "games.sqlite3"
    with GameLog(path) as log:
        game_id = log.new_game("tally", CONFIG)
        for i in range(5):
            log.append(game_id, "event", {"type": "tally.Add", "i": i})
    path.unlink()
    return path


def test_a_lost_log_offers_the_backup_a_fresh_log_and_retry(lost_log, docs_shot):
    import cv2

    exc = refused(lost_log)
    done = []
    screen = ProblemScreen(problem_for(exc, lost_log), lost_log, on_done=done.append)
    img = cv2.imread(str(docs_shot(screen, "problem-lost-log")))
    assert img.std() > 20
    shown = texts(screen)
    assert "The game log has lost part of its history" in shown and str(exc) in shown
    assert set(screen.buttons) == {"restore", "fresh", "retry"}
    assert "(1 game)" in screen.buttons["restore"].text
    for b in screen.walk():
        if isinstance(b, BigButton):
            assert b.width >= MIN_TOUCH and b.height >= MIN_TOUCH
    screen.buttons["restore"].dispatch("on_release")
    assert done == ["restore"]
    with GameLog(lost_log) as log:  # the log is back and opens
        assert len(log.entries(1)) == 5


def test_start_fresh_keeps_the_unreadable_file_aside(tmp_path):
    path = tmp_path / "games.sqlite3"
    junk = b"\x89PNG\r\n\x1a\n" + bytes(range(256)) * 4
    path.write_bytes(junk)
    done = []
    screen = ProblemScreen(problem_for(refused(path), path), path, on_done=done.append)
    assert "cannot be read" in texts(screen) and set(screen.buttons) == {"fresh", "retry"}
    screen.buttons["fresh"].dispatch("on_release")
    assert done == ["fresh"] and not path.exists()
    (kept,) = (tmp_path / "set-aside").glob("*/games.sqlite3")
    assert kept.read_bytes() == junk
    GameLog(path).close()  # the next start makes a new log


def test_a_way_out_that_fails_says_why_and_stays(lost_log):
    exc = refused(lost_log)
    problem = problem_for(exc, lost_log)
    shutil.rmtree(lost_log.parent / "backups")  # gone between showing and tapping
    done = []
    screen = ProblemScreen(problem, lost_log, on_done=done.append)
    screen.buttons["restore"].dispatch("on_release")
    assert done == [] and screen.error_text.startswith("That did not work: no such backup")


def test_a_log_from_a_newer_version_offers_only_retry(tmp_path):
    import sqlite3

    path = tmp_path / "games.sqlite3"
    GameLog(path, backups=False).close()
    db = sqlite3.connect(path)
    db.execute("PRAGMA user_version=99")
    db.commit()
    db.close()
    screen = ProblemScreen(problem_for(refused(path), path), path, on_done=lambda _c: None)
    assert set(screen.buttons) == {"retry"} and "newer version" in texts(screen)


def test_the_set_aside_notice_names_the_game_and_closes_with_ok():
    view = show_notice(["Color Milk game #2 could not be resumed: entry 5 is unreadable."])
    dismissed = []
    view.bind(on_dismiss=lambda *_: dismissed.append(1))
    try:
        assert "game #2 could not be resumed" in texts(view)
        (ok,) = [b for b in view.walk() if isinstance(b, BigButton)]
        assert ok.height >= MIN_TOUCH
        assert not view.auto_dismiss  # a stray tap beside it does not hide the news
        ok.dispatch("on_release")
        assert dismissed == [1]
    finally:
        view.dismiss()


def test_ready_is_sent_after_the_first_frame_is_drawn(data_dir):
    """The first-frame hook (READY=1 and the watchdog) waits for a flip, not a clock tick."""
    from kivy.base import EventLoop
    from kivy.clock import Clock

    from companion.ui.app import CompanionApp
    from companion.ui.context import AppContext
    from companion.ui.render import ensure_window

    window = ensure_window()
    flips = []
    window.bind(on_flip=lambda *_: flips.append(1))
    ctx = AppContext.open(data_dir)
    called = []
    app = CompanionApp(ctx, on_first_frame=lambda: called.append(len(flips)))
    root = app.build()
    try:
        for _ in range(3):
            Clock.tick()  # the app's first ticks: nothing drawn yet
        assert called == []
        window.add_widget(root)
        for _ in range(4):
            window.canvas.ask_update()
            EventLoop.idle()  # draws and flips
        assert called == [1]  # once, after exactly the first flip
    finally:
        window.remove_widget(root)
        ctx.log.close()
