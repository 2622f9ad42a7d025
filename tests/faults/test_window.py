"""The real app in a real 800x480 X window with its data on a small SD card (a tmpfs): the
card fills up in the middle of a timed game (issue 28, item 1) and the History is read after
the clock was set back a year (item 4). The app never exits, the notice is on the display
(read back with tesseract), and once the card is freed the game goes on with nothing lost."""

from __future__ import annotations

import ctypes
import ctypes.util
import json
import shutil
import time

import cv2
import pytest

from companion.store import GameLog
from tests.capability import patience
from tests.ui.test_real_window import RunningApp, read_box, screenshot, shows
from tests.ui.test_real_window import display as display  # noqa: F401  (the Xvfb fixture)

pytestmark = [
    pytest.mark.ui,
    pytest.mark.slow,
    pytest.mark.skipif(
        not all(shutil.which(t) for t in ("Xvfb", "xwd", "tesseract"))
        or ctypes.util.find_library("Xtst") is None,
        reason="needs Xvfb, xwd, tesseract and libXtst (`scripts/setup test` installs them)",
    ),
]


def tap(screen: str, box) -> None:
    """A mouse click at the box's centre, through the X server's test extension (XTest):
    the app gets it as a person's tap."""
    x11, xtst = ctypes.CDLL("libX11.so.6"), ctypes.CDLL("libXtst.so.6")
    x11.XOpenDisplay.restype = ctypes.c_void_p
    x11.XOpenDisplay.argtypes = [ctypes.c_char_p]
    x11.XFlush.argtypes = x11.XCloseDisplay.argtypes = [ctypes.c_void_p]
    xtst.XTestFakeMotionEvent.argtypes = [
        ctypes.c_void_p,
        ctypes.c_int,
        ctypes.c_int,
        ctypes.c_int,
        ctypes.c_ulong,
    ]
    xtst.XTestFakeButtonEvent.argtypes = [
        ctypes.c_void_p,
        ctypes.c_uint,
        ctypes.c_int,
        ctypes.c_ulong,
    ]
    d = x11.XOpenDisplay(screen.encode())
    assert d, f"cannot open display {screen}"
    try:
        x, y = int((box[0] + box[2]) / 2), int((box[1] + box[3]) / 2)
        xtst.XTestFakeMotionEvent(d, -1, x, y, 0)
        xtst.XTestFakeButtonEvent(d, 1, 1, 0)
        xtst.XTestFakeButtonEvent(d, 1, 0, 60)  # released 60 ms later
        x11.XFlush(d)
    finally:
        x11.XCloseDisplay(d)
    time.sleep(0.3)


def find(answer: dict, cls: str, text: str | None = None) -> dict:
    found = [b for b in answer["boxes"] if b["cls"] == cls and (text is None or text in b["text"])]
    assert found, (
        f"no {cls} {text!r} on screen: {[b['text'] for b in answer['boxes'] if b['text']]}"
    )
    return found[0]


def settled(app: RunningApp, wanted, timeout: float = 20.0) -> dict:
    """The screen as it is, once `wanted(answer)` holds (`timeout` stretched on a slower
    machine)."""
    end = time.monotonic() + patience(timeout)
    while True:
        answer = app.show("here")
        if wanted(answer) or time.monotonic() > end:
            return answer
        time.sleep(0.3)


def banner_shot(app: RunningApp, display: str, text: str, tmp_path) -> tuple[dict, str]:
    """The screen while its banner says `text`, and what tesseract reads in the banner on the
    display. A passing message (the move's own announcement) covers a lasting notice for a
    few seconds and the notice comes back, and a loaded machine draws late: the display is
    read again until it shows the notice or the time is up (then the last reading fails)."""
    end = time.monotonic() + patience(30)
    while True:
        answer = settled(app, lambda a: text in find(a, "Banner")["text"])
        image = screenshot(display)
        cv2.imwrite(str(tmp_path / "banner.png"), image)  # to look at when it fails
        seen = read_box(image, find(answer, "Banner")["box"], tmp_path, lines=2)
        if shows(text, seen) or time.monotonic() > end:
            return answer, seen
        time.sleep(0.3)


def test_a_card_filling_up_mid_game_is_a_notice_and_the_game_goes_on(card, display, tmp_path):
    (card.path / "settings.json").write_text(json.dumps({"turn_timer_seconds": 60}))
    app = RunningApp(display, card.path, "--simulate")
    try:
        first = app.show("kritters")  # a new game: who takes the First Player card?
        card.fill()
        tap(display, find(first, "BigButton", "Anna")["box"])
        full, seen = banner_shot(app, display, "SD card is full", tmp_path)
        banner = find(full, "Banner")
        assert banner["text"].startswith("The SD card is full: the last move is not saved")
        assert shows("SD card is full", seen), seen  # on the display, not only in the widgets
        assert app.proc.poll() is None  # no crash, no exit 70
        done = find(full, "BigButton", "Turn done")  # the game moved on in memory
        tap(display, done["box"])
        time.sleep(0.5)
        assert app.proc.poll() is None
        card.free()
        again = settled(app, lambda a: "Saving works again" in find(a, "Banner")["text"])
        assert "Saving works again" in find(again, "Banner")["text"]
        tap(display, find(again, "BigButton", "Turn done")["box"])
        end = time.monotonic() + patience(5)  # the tap reaches the log, however slow the app
        while len(logged_moves(card.path)) < 3 and time.monotonic() < end:
            time.sleep(0.1)
    finally:
        code = app.stop()
    assert code == 0, app.stderr_path.read_text()[-2000:]
    moves = logged_moves(card.path)
    assert moves == ["kritters.FirstPlayer", "kritters.TurnDone", "kritters.TurnDone"]


def logged_moves(data_dir) -> list[str]:
    with GameLog(data_dir / "games.sqlite3", read_only=True) as log:
        return [e.payload["type"] for e in log.entries(1)]


def test_history_after_the_clock_went_back_a_year_keeps_the_log_order(display, tmp_path):
    from dataclasses import replace

    from benchmarks.playthroughs import play_game

    data = tmp_path / "data"
    games = []
    for i, started in enumerate(["2026-06-01T20:00:00+00:00", "2025-06-01T20:00:00+00:00"]):
        rec, entries = play_game("kritters", 4, players=("Anna", "Ben"))
        rec = replace(rec, started=started, uuid=f"00000000-0000-4000-8000-00000000000{i}")
        games.append((rec, entries))
    with GameLog(data / "games.sqlite3") as log:
        log.add_games(games)  # the second was played after the Pi's clock went back a year
    app = RunningApp(display, data, "--simulate")
    try:
        rows = app.show("history")["history"]
        assert len(rows) == 2
        assert rows[0].startswith("[size=15sp]2025-06-01") and rows[1].startswith(
            "[size=15sp]2026-06-01"
        )  # the newest played first, each with its date as recorded
        stats = app.show("stats")
        assert any("2 (best 2)" in t for t in stats["texts"]), stats["texts"]  # two in a row
    finally:
        assert app.stop() == 0
