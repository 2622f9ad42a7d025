"""A full or read-only SD card through the real runtime: the game goes on in memory, one
notice says what happened, nothing is lost, and once the card takes writes again every move
is written in order (issue 28, item 1); `companion import` beside a game in play (item 8)."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path

import pytest

from companion.events import ButtonPressed
from companion.game import GameConfig
from companion.games.kritters import GAME
from companion.games.kritters.events import FirstPlayer, TurnDone
from companion.runtime import Runtime
from companion.session import Session
from companion.store import GameLog

PLAYERS = ("Anna", "Ben", "Chloe")
CONFIG = GameConfig(PLAYERS, {"turn_timer": 30})


def saved(path: Path, game_id: int) -> list:
    with GameLog(path, read_only=True) as log:
        return [(e.kind, e.payload) for e in log.entries(game_id)]


def wait_for(predicate, timeout: float = 15.0) -> bool:
    end = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > end:
            return False
        time.sleep(0.05)
    return True


def test_a_full_card_mid_game_keeps_the_game_says_so_and_saves_every_move_later(card):
    path = card.path / "games.sqlite3"
    log = GameLog(path)
    notices: list = []
    log.storage.subscribe(notices.append)
    rt = Runtime()  # keeps the clock on its engine thread, as headless play does
    session = Session.start(GAME, log, CONFIG)
    rt.play(session)
    rt.submit(FirstPlayer("Anna"))
    card.fill()
    for _ in range(5):
        rt.submit(TurnDone())  # touches: each one refused by the card, none by the app
    rt.post(ButtonPressed("undo"))  # a reading: the table's undo button, on the engine thread
    assert rt.drain()
    time.sleep(1.5)  # the engine's clock ticks on: its snapshots are refused too
    assert rt._engine.is_alive()
    assert log.storage.kind == "full" and log.unsaved >= 6
    assert notices[0] == (
        "The SD card is full: the last move is not saved. Free space or change the card; "
        "nothing is lost so far."
    )
    in_play = [(e.kind, e.payload) for e in log.entries(session.game_id)]
    assert len(in_play) == 7 and in_play[-1] == ("undo", None)
    assert session.state.turn == 4
    card.free()
    assert wait_for(lambda: log.unsaved == 0)  # tried again every few seconds
    assert notices[-1] is None and log.storage.kind is None
    rt.submit(TurnDone())  # and the game goes on
    rt.close()
    log.close()
    assert saved(path, session.game_id) == [*in_play, ("event", {"type": "kritters.TurnDone"})]
    with GameLog(path) as again:
        resumed = Session.resume(GAME, again, session.game_id)
        assert resumed.state == session.state and resumed.timer is not None


def test_a_game_started_on_a_full_card_is_refused_with_the_notice_not_a_crash(card):
    log = GameLog(card.path / "games.sqlite3")
    card.fill()
    from companion.storage import StorageError

    with pytest.raises(StorageError, match="The SD card is full: a new game cannot be started"):
        Session.start(GAME, log, CONFIG)
    card.free()
    assert Session.start(GAME, log, CONFIG).game_id == 1
    log.close()


def test_settings_on_a_full_card_apply_say_so_and_are_written_once_it_is_freed(card):
    if not card.mounted:
        pytest.skip("needs a real file system for the card (a tmpfs, mounted as root)")
    from dataclasses import replace

    from companion import settings
    from companion.ui.context import AppContext

    ctx = AppContext.open(card.path)
    session = Session.start(GAME, ctx.log, CONFIG)
    card.fill()
    said = ctx.save_settings(replace(ctx.settings, volume=0.2))
    assert said.startswith("The SD card is full: the settings are not saved")
    assert ctx.settings.volume == 0.2  # in force meanwhile
    session.submit(FirstPlayer("Anna"))  # the log finds the card full too
    assert ctx.log.storage.kind == "full"
    card.free()
    assert wait_for(lambda: ctx.log.unsaved == 0)  # the log writes again: the settings follow
    assert settings.load(card.path / "settings.json")[0].volume == 0.2
    ctx.close()


def test_start_up_on_a_read_only_card_opens_the_log_read_only_and_says_so(card, tmp_path):
    if not card.mounted:
        pytest.skip("needs a real file system for the card (a tmpfs, mounted as root)")
    path = card.path / "games.sqlite3"
    with GameLog(path) as log:
        session = Session.start(GAME, log, CONFIG)
        session.submit(FirstPlayer("Ben"))
        session.submit(TurnDone())
        game_id, state = session.game_id, session.state
    card.read_only()
    from companion.ui.context import AppContext

    ctx = AppContext.open(card.path)  # no refusal, no offer to set the log aside
    assert ctx.log.read_only and ctx.log.storage.kind == "read-only"
    assert ctx.log.storage.text.startswith("The SD card is read-only: nothing can be saved")
    resumed = Session.resume(GAME, ctx.log, game_id)  # its clock snapshot waits in memory
    assert resumed.state == state
    resumed.submit(TurnDone())  # played on in memory
    assert ctx.log.unsaved >= 1
    ctx.close()
    for argv in (["history"], ["stats"], ["export", "--all"]):  # the tools read it too
        done = subprocess.run(
            [sys.executable, "-m", "companion", *argv, "--data-dir", str(card.path)],
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert done.returncode == 0, done.stderr
    shot = subprocess.run(
        [
            sys.executable,
            "-m",
            "companion",
            "run",
            "--screenshot",
            str(tmp_path / "home.png"),
            "--data-dir",
            str(card.path),
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert shot.returncode == 0 and "error" not in shot.stderr, shot.stderr
    card.read_only(False)
    assert [k for k, _ in saved(path, game_id)] == ["event", "event"]  # the file untouched


def test_the_problem_screen_never_offers_to_set_a_good_log_aside_for_the_card():
    from companion.storage import READ_ONLY, StorageError
    from companion.ui.problem import problem_for

    problem = problem_for(StorageError(READ_ONLY, "the card is read-only"), Path("/x/g.sqlite3"))
    assert not problem.fresh_start and problem.backup is None
    assert "card" in problem.title


@pytest.mark.slow
def test_import_beside_a_game_in_play_never_locks_a_touch_out(tmp_path):
    """`companion import` of a large file while touches keep coming: each of its
    transactions is short, so no touch waits for the busy timeout or is refused."""
    from benchmarks.playthroughs import play_games
    from companion.sharing import export_lines

    src = tmp_path / "src"
    src.mkdir()
    with GameLog(src / "games.sqlite3", backups=False) as other:
        other.add_games(play_games(120, seed=11, kinds=("kritters", "node")))
        (tmp_path / "in.jsonl").write_text("".join(x + "\n" for x in export_lines(other)))
    data = tmp_path / "data"
    log = GameLog(data / "games.sqlite3")
    rt = Runtime(keep_time=False)
    session = Session.start(GAME, log, GameConfig(PLAYERS))
    rt.play(session)
    rt.submit(FirstPlayer("Anna"))
    busy = []
    log.storage.subscribe(busy.append)
    proc = subprocess.Popen(
        [sys.executable, "-m", "companion", "import", str(tmp_path / "in.jsonl")]
        + ["--data-dir", str(data)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    waits = []
    while proc.poll() is None:
        start = time.monotonic()
        rt.submit(TurnDone())
        waits.append(time.monotonic() - start)
        time.sleep(0.02)
    out, err = proc.communicate()
    assert proc.returncode == 0, err
    assert json.loads(out)["imported"] == 120
    assert busy == [] and log.unsaved == 0  # never "database is locked", never waiting
    print(f"{len(waits)} taps during the import, the slowest took {max(waits) * 1000:.0f} ms")
    assert len(log.entries(session.game_id)) == len(waits) + 1
    rt.close()
    log.close()
