"""The log against an SD card's ways of losing data, with real SQLite files.

Each corruption is made the way a card makes it (a flipped byte in the WAL, a file cut to
nothing, another database's WAL beside the log, a smashed page, a deleted file), with the
WAL captured as a power cut leaves it: the files copied while the log is still open.
"""

from __future__ import annotations

import os
import shutil
import sqlite3
from pathlib import Path

import pytest

from companion.errors import LogError, LogLost
from companion.store import DamagedGame, GameLog, backups
from companion.store.integrity import APPLICATION_ID
from companion.store.restore import restore, set_aside

CONFIG = {"players": ["Anna", "Ben"], "options": {}, "seed": 0}


def add(log: GameLog, game_id: int, n: int, start: int = 0, tag: str = "a") -> None:
    for i in range(start, start + n):
        log.append(
            game_id,
            "event",
            {"type": "tally.Add", "player": "Anna", "points": 1, "i": i, "tag": tag},
        )


def files(directory: Path) -> dict[str, bytes]:
    """Every file under `directory` (but SQLite's shared-memory index) with its bytes."""
    return {
        str(p.relative_to(directory)): p.read_bytes()
        for p in sorted(directory.rglob("*"))
        if p.is_file() and not p.name.endswith("-shm")
    }


def power_cut(src: Path, dst: Path) -> Path:
    """The data dir as a power cut leaves it: log, WAL and backups copied while still open."""
    shutil.copytree(src, dst, ignore=shutil.ignore_patterns("*-shm"))
    return dst / "games.sqlite3"


def raw_count(path: Path) -> tuple[int, str]:
    """Entries SQLite itself shows, and its quick_check, bypassing our checks (on a copy)."""
    scratch = path.parent.parent / "scratch"
    shutil.rmtree(scratch, ignore_errors=True)
    shutil.copytree(path.parent, scratch)
    db = sqlite3.connect(scratch / path.name)
    try:
        return db.execute("SELECT count(*) FROM entries").fetchone()[0], db.execute(
            "PRAGMA quick_check"
        ).fetchone()[0]
    finally:
        db.close()


@pytest.fixture
def played(tmp_path):
    """A log whose game has 124 entries, the newest backup made after the first 100 (as the
    play interval does), still open: its WAL holds every entry."""
    log = GameLog(tmp_path / "live" / "games.sqlite3")
    game_id = log.new_game("tally", CONFIG)
    add(log, game_id, 100)
    log.backups.make(log._db)
    add(log, game_id, 24, start=100)
    yield log, game_id
    log.close()


def test_a_byte_flipped_in_the_wal_is_caught_and_the_backup_restores_it(played, tmp_path):
    log, game_id = played
    path = power_cut(log.path.parent, tmp_path / "cut")
    wal = Path(f"{path}-wal")
    data = bytearray(wal.read_bytes())
    data[len(data) * 2 // 5] ^= 0x01  # one bit, two fifths into the WAL
    wal.write_bytes(bytes(data))
    kept, check = raw_count(path)
    assert kept < 100 and check == "ok"  # what SQLite alone shows: fewer entries, "ok"
    before = files(path.parent)
    with pytest.raises(LogLost, match=rf"game #{game_id} \(tally\) lost \d+ of 100 entries"):
        GameLog(path)
    assert files(path.parent) == before  # refused untouched: the WAL is still there to study
    done = restore(path)
    assert done["from"]["entries"] == 100 and Path(done["set_aside"]).is_dir()
    with GameLog(path) as again:
        assert len(again.entries(game_id)) == 100
    aside = Path(done["set_aside"])
    assert (aside / "games.sqlite3-wal").read_bytes() == bytes(data)  # the damaged one kept


def test_a_log_cut_to_nothing_with_its_wal_kept_is_not_replaced(played, tmp_path):
    log, game_id = played
    path = power_cut(log.path.parent, tmp_path / "cut")
    path.write_bytes(b"")
    before = files(path.parent)
    with pytest.raises(LogLost, match="write-ahead file"):
        GameLog(path)
    assert files(path.parent) == before
    restore(path)
    with GameLog(path) as again:
        assert len(again.entries(game_id)) == 100


def test_another_databases_wal_beside_a_good_log_is_caught(tmp_path):
    good = tmp_path / "good" / "games.sqlite3"
    with GameLog(good) as log:
        game_id = log.new_game("tally", CONFIG)
        add(log, game_id, 30)
        log.finish(game_id, {"winners": ["Anna"]})  # a finished game is backed up
    other = GameLog(tmp_path / "other" / "games.sqlite3", backups=False)
    other_id = other.new_game("tally", CONFIG)
    add(other, other_id, 12, tag="b")
    shutil.copy(f"{other.path}-wal", f"{good}-wal")  # beside the good, closed log
    other.close()
    kept, check = raw_count(good)
    assert kept == 12 and check == "ok"  # SQLite alone: the good game silently replaced
    before = files(good.parent)
    with pytest.raises(
        LogLost, match=f"game #{game_id} .* (no longer matches|is gone|lost 18 of 30 entries)"
    ):
        GameLog(good)
    assert files(good.parent) == before
    restore(good)
    with GameLog(good) as again:
        assert len(again.entries(game_id)) == 30 and again.game(game_id).status == "finished"


def test_a_deleted_log_with_backups_beside_it_is_not_silently_started_afresh(played):
    log, game_id = played
    log.close()
    log.path.unlink()
    with pytest.raises(LogLost, match="missing or empty, but the backup from .* holds 1 game"):
        GameLog(log.path)
    assert not log.path.exists()
    restore(log.path)
    with GameLog(log.path) as again:
        assert len(again.entries(game_id)) == 124  # closed cleanly: the backup made on close


def test_a_smashed_page_is_refused_and_the_backup_restores_it(played):
    log, game_id = played
    log.close()
    data = bytearray(log.path.read_bytes())
    data[2 * 4096 : 2 * 4096 + 3000] = b"\xff" * 3000  # the entries table's root page
    log.path.write_bytes(bytes(data))
    with pytest.raises(LogError):
        GameLog(log.path)
    assert log.path.read_bytes() == bytes(data)
    restore(log.path)
    with GameLog(log.path) as again:
        assert len(again.entries(game_id)) >= 100


def test_a_damaged_newest_backup_is_skipped_for_a_sound_older_one(played):
    log, game_id = played
    log.backups.make(log._db)
    newest = log.backups.list()[0]
    log.close()
    newest.path.write_bytes(newest.path.read_bytes()[:5000])
    (chosen, *_) = backups.Backups(log.path).list()
    assert chosen.path != newest.path and chosen.entries >= 100
    with GameLog(log.path) as again:  # the check on open falls back to the older copy
        assert len(again.entries(game_id)) == 124
    log.path.unlink()
    restored = restore(log.path)["from"]
    assert restored["path"] != str(newest.path) and restored["entries"] == 124


def test_an_altered_entry_breaks_its_games_hash_chain(played):
    log, game_id = played
    log.close()
    db = sqlite3.connect(log.path)  # a byte changed behind SQLite's back, as a card does
    db.execute(
        "UPDATE entries SET payload = replace(payload, '\"points\": 1', '\"points\": 3') "
        "WHERE game_id = ? AND seq = 7",
        (game_id,),
    )
    db.commit()
    db.close()
    with GameLog(log.path) as again, pytest.raises(DamagedGame, match="entry 7 was altered"):
        again.entries(game_id)


def test_backups_rotate_and_keep_the_newest(tmp_path):
    stale = tmp_path / "backups" / "games-00000001-20261124T000000Z.sqlite3.part"
    stale.parent.mkdir()
    stale.write_bytes(b"half a copy, cut off by a power cut")
    with GameLog(tmp_path / "games.sqlite3") as log:
        game_id = log.new_game("tally", CONFIG)
        for i in range(backups.KEEP + 3):
            add(log, game_id, 1, start=i)
            log.backups.make(log._db)
        copies = log.backups.list()
    assert len(copies) == backups.KEEP
    assert copies[0].entries == backups.KEEP + 3 and copies[-1].entries == 4
    assert not stale.exists()


def test_a_file_with_our_mark_but_another_schema_is_refused_unchanged(tmp_path):
    path = tmp_path / "games.sqlite3"
    db = sqlite3.connect(path)
    db.execute("CREATE TABLE games (id INTEGER PRIMARY KEY, name TEXT)")
    db.execute(f"PRAGMA application_id={APPLICATION_ID}")
    db.commit()
    db.close()
    before = files(tmp_path)
    with pytest.raises(LogError, match="carries our mark but not our tables"):
        GameLog(path)
    assert files(tmp_path) == before  # not even switched to WAL


def test_a_log_from_before_the_hash_chain_is_chained_as_it_stands(tmp_path):
    path = tmp_path / "games.sqlite3"
    with GameLog(path, backups=False) as log:
        game_id = log.new_game("tally", CONFIG)
        add(log, game_id, 5)
    db = sqlite3.connect(path)  # as an older build left it: no chain, no set-aside table
    db.execute("ALTER TABLE entries DROP COLUMN chain")
    db.execute("DROP TABLE set_aside")
    db.commit()
    db.close()
    with GameLog(path) as log:
        assert [e.payload["i"] for e in log.entries(game_id)] == list(range(5))
        add(log, game_id, 1, start=5)
        assert len(log.entries(game_id)) == 6


def test_companion_restore_lists_restores_and_explains_in_one_line(played, capsys):
    import json

    from companion.cli import main

    log, game_id = played
    log.close()
    data_dir = str(log.path.parent)
    assert main(["restore", "--list", "--data-dir", data_dir]) == 0
    listed = json.loads(capsys.readouterr().out)
    assert listed["log"] == str(log.path)
    assert [b["entries"] for b in listed["backups"]] == [124, 100]  # newest first
    assert main(["restore", "--from", listed["backups"][1]["path"], "--data-dir", data_dir]) == 0
    done = json.loads(capsys.readouterr().out)
    assert done["from"]["entries"] == 100 and Path(done["set_aside"], "games.sqlite3").is_file()
    with GameLog(log.path) as again:
        assert len(again.entries(game_id)) == 100
    for argv, code, said in [
        (["--from", str(log.path.parent / "nope.sqlite3")], 2, "no such backup"),
        (["--from", __file__], 2, "cannot be restored"),
    ]:
        assert main(["restore", *argv, "--data-dir", data_dir]) == code
        err = capsys.readouterr().err
        assert said in err and len(err.strip().splitlines()) == 1
    empty = log.path.parent / "empty"
    assert main(["restore", "--data-dir", str(empty)]) == 1
    assert capsys.readouterr().err.startswith("companion: error: no sound backup")


def test_a_finished_game_and_minutes_of_play_are_backed_up(tmp_path, monkeypatch):
    with GameLog(tmp_path / "games.sqlite3") as log:
        game_id = log.new_game("tally", CONFIG)
        add(log, game_id, 3)
        assert log.backups.wait(10) and log.backups.list() == []  # within the play interval
        monkeypatch.setattr(backups, "PLAY_INTERVAL", 0.0)  # the interval has passed
        add(log, game_id, 1, start=3)
        assert log.backups.wait(10)  # copied by the worker thread
        assert [b.entries for b in log.backups.list()] == [4]
        monkeypatch.setattr(backups, "PLAY_INTERVAL", 3600.0)
        add(log, game_id, 1, start=4)
        log.finish(game_id, {"winners": ["Anna"]})
        assert log.backups.wait(10)
        assert [b.entries for b in log.backups.list()] == [5, 4]


def test_copies_are_made_off_the_ui_thread_while_play_goes_on(tmp_path):
    import threading

    with GameLog(tmp_path / "games.sqlite3") as log:
        game_id = log.new_game("tally", CONFIG)
        add(log, game_id, 200)
        made_by = []
        real = log.backups.make
        log.backups.make = lambda db: made_by.append(threading.current_thread().name) or real(db)
        log.finish(game_id, {"winners": ["Anna"]})
        second = log.new_game("tally", CONFIG)
        add(log, second, 50)  # written while the copy may still be under way
        assert log.backups.wait(10) and made_by == ["log-backup"]
    newest = backups.Backups(log.path).list()[0]
    assert (newest.games, newest.entries) == (2, 250)  # the copy on close caught up


def test_a_backup_that_cannot_be_made_never_stops_play(tmp_path):
    with GameLog(tmp_path / "games.sqlite3") as log:
        (tmp_path / "backups").write_text("a file where the folder should be")
        game_id = log.new_game("tally", CONFIG)
        add(log, game_id, 2)
        log.finish(game_id, {"winners": ["Anna"]})  # the copy fails; the game is recorded
        assert log.game(game_id).status == "finished" and len(log.entries(game_id)) == 2


def test_restore_refuses_while_the_app_has_the_log_open(played):
    log, game_id = played
    with pytest.raises(LogError, match="in use: stop the app first"):
        restore(log.path)
    with pytest.raises(LogError, match="in use"):
        set_aside(log.path)
    assert len(log.entries(game_id)) == 124  # nothing was pulled away
    log.close()
    assert restore(log.path)["from"]["entries"] == 124


def test_backups_are_ordered_by_number_when_the_clock_goes_back(tmp_path, monkeypatch):
    """A Pi without network has no real-time clock: its time can jump backwards."""
    from datetime import UTC, datetime

    times = iter(datetime(2026, 11, 24, 12 - i, tzinfo=UTC) for i in range(backups.KEEP + 2))

    class BackwardsClock(datetime):
        @classmethod
        def now(cls, tz=None):
            return next(times)

    monkeypatch.setattr(backups, "datetime", BackwardsClock)
    with GameLog(tmp_path / "games.sqlite3", backups=False) as log:
        game_id = log.new_game("tally", CONFIG)
        copies = backups.Backups(log.path)
        for i in range(backups.KEEP + 2):
            add(log, game_id, 1, start=i)
            copies.make(log._db)
    listed = backups.Backups(log.path).list()
    assert [b.entries for b in listed] == list(range(backups.KEEP + 2, 2, -1))
    assert listed[0].made.startswith("2026-11-24") and listed[0].path.name.startswith(
        "games-00000008-"
    )


@pytest.mark.parametrize("with_links", [True, False])
def test_a_game_copied_into_another_log_keeps_a_sound_chain(tmp_path, with_links):
    """Import between logs gives a game a new id, and may copy rows without their links."""
    with GameLog(tmp_path / "a.sqlite3", backups=False) as a:
        a.new_game("tally", CONFIG)
        game_id = a.new_game("tally", CONFIG)
        add(a, game_id, 4)
        rows = a._db.execute(
            "SELECT seq, kind, payload, at, chain FROM entries WHERE game_id = ?", (game_id,)
        ).fetchall()
    with GameLog(tmp_path / "b.sqlite3", backups=False) as b:
        new_id = b.new_game("tally", CONFIG)
        for seq, kind, payload, at, chain in rows:
            b._db.execute(
                "INSERT INTO entries (game_id, seq, kind, payload, at, chain) "
                "VALUES (?, ?, ?, ?, ?, ?)",
                (new_id, seq, kind, payload, at, chain if with_links else None),
            )
        assert new_id != game_id and len(b.entries(new_id)) == 4
        add(b, new_id, 1, start=4)
        assert [e.payload["i"] for e in b.entries(new_id)] == [0, 1, 2, 3, 4]


def test_a_restore_cut_off_before_its_last_rename_loses_nothing(played, tmp_path, monkeypatch):
    log, game_id = played
    path = power_cut(log.path.parent, tmp_path / "cut")
    path.write_bytes(b"")  # the log cut to nothing, its WAL kept
    wal = Path(f"{path}-wal").read_bytes()
    real_replace = os.replace

    def cut(src, dst):
        if Path(dst) == path:
            raise OSError("power cut")
        real_replace(src, dst)

    monkeypatch.setattr(os, "replace", cut)
    with pytest.raises(OSError, match="power cut"):
        restore(path)
    monkeypatch.setattr(os, "replace", real_replace)
    (aside,) = (tmp_path / "cut" / "set-aside").iterdir()
    assert (aside / "games.sqlite3-wal").read_bytes() == wal  # the WAL is kept aside
    with pytest.raises(LogLost):  # the backups are still in place and still speak
        GameLog(path)
    assert restore(path)["from"]["entries"] == 100
    with GameLog(path) as again:
        assert len(again.entries(game_id)) == 100


def test_a_wal_flip_before_any_backup_is_caught_from_the_wal_itself(tmp_path):
    log = GameLog(tmp_path / "live" / "games.sqlite3")
    game_id = log.new_game("tally", CONFIG)
    add(log, game_id, 124)  # within the first minutes: no backup yet
    assert log.backups.wait(10) and log.backups.list() == []
    path = power_cut(log.path.parent, tmp_path / "cut")
    log.close()
    wal = Path(f"{path}-wal")
    data = bytearray(wal.read_bytes())
    data[len(data) * 2 // 5] ^= 0x01
    wal.write_bytes(bytes(data))
    before = files(path.parent)
    with pytest.raises(LogLost, match=r"-wal holds \d+ saved changes that SQLite cannot read"):
        GameLog(path)
    assert files(path.parent) == before


@pytest.mark.parametrize("cut", ["torn", "flipped"])
def test_a_last_write_torn_by_a_power_cut_is_not_taken_for_damage(tmp_path, cut):
    log = GameLog(tmp_path / "live" / "games.sqlite3", backups=False)
    game_id = log.new_game("tally", CONFIG)
    add(log, game_id, 30)
    path = power_cut(log.path.parent, tmp_path / "cut")
    log.close()
    wal = Path(f"{path}-wal")
    data = bytearray(wal.read_bytes())
    if cut == "torn":
        data = data[:-1000]  # the last frame half written
    else:
        data[-10] ^= 0x01  # the last frame's page garbled
    wal.write_bytes(bytes(data))
    with GameLog(path, backups=False) as again:  # the last entry is gone, as after any cut
        assert len(again.entries(game_id)) == 29


def test_a_backup_that_fails_while_compared_hands_over_to_the_older_one(played):
    log, game_id = played
    log.close()  # the 124-entry copy on close is now the newest of two
    newest = backups.Backups(log.path).list()[0]
    data = bytearray(newest.path.read_bytes())
    data[2 * 4096 : 3 * 4096] = b"\xff" * 4096  # its entries table's root page: counts still work
    newest.path.write_bytes(bytes(data))
    copies = backups.Backups(log.path)
    assert copies.newest().path == newest.path  # the quick look on open does not see it
    with GameLog(log.path) as again:
        assert again.backups.wait(10)
        assert again.backups.newest().entries == 124  # compared with the older one, then copied
        assert again.backups.newest().path.name > newest.path.name
        assert len(again.entries(game_id)) == 124
