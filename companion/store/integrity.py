"""Checks that keep the game log honest: is a file ours and whole, and did a game's rows
come back exactly as written (a hash chain over each game's entries)."""

from __future__ import annotations

import fcntl
import hashlib
import json
import os
import sqlite3
import sys
from pathlib import Path
from typing import Any

from companion.errors import LogError

APPLICATION_ID = 0x54434D50  # "TCMP", stored in the SQLite header to recognise our files
SCHEMA_VERSION = 1


class DamagedGame(LogError):
    """One game's rows cannot be read back (a flipped byte, a torn write). The rest of the
    log is sound; the game stays in the file and can be set aside."""

    def __init__(self, game_id: int, why: str) -> None:
        super().__init__(f"game #{game_id}: {why}")
        self.game_id, self.why = game_id, why


REQUIRED_COLUMNS = {
    "games": {"id", "game", "config", "started", "finished", "status", "result"},
    "entries": {"game_id", "seq", "kind", "payload", "at"},
    "timers": {"game_id", "key", "remaining", "paused"},
}


def chain_link(prev: str, seq: int, kind: str, text: str | None) -> str:
    """One link of a game's hash chain: each entry's link covers every entry before it, so a
    lost, reordered or altered entry shows, and a backup's last link vouches for the lot.
    The game's id is left out, so a game copied into another log keeps its chain."""
    data = f"{prev}|{seq}|{kind}|{'-' if text is None else '+' + text}"
    return hashlib.sha256(data.encode()).hexdigest()[:32]


def entry_payload(game_id: int, seq: int, kind: str, text: str | None) -> dict[str, Any] | None:
    try:
        payload = None if text is None else json.loads(text)
    except ValueError:
        payload = ...
    if kind not in ("event", "undo", "redo") or (kind == "event") != isinstance(payload, dict):
        raise DamagedGame(game_id, f"entry {seq} is unreadable")
    return payload


def check_header(path: Path) -> None:
    with open(path, "rb") as f:
        header = f.read(16)
    if header != b"SQLite format 3\x00":
        raise LogError(
            f"{path} is not a Table Companion game log (not an SQLite file); "
            "it was left untouched. Move it away or choose another --data-dir."
        )


def check_sound(db: sqlite3.Connection, path: Path, quick_check: bool = True) -> str:
    """Raise LogError unless `db` is a sound log of ours; "empty" for a file with no tables
    and no mark at all, else "ok". Only reads."""
    if db.execute("PRAGMA application_id").fetchone()[0] != APPLICATION_ID:
        if db.execute("SELECT count(*) FROM sqlite_master").fetchone()[0] == 0:
            return "empty"
        raise LogError(
            f"{path} is an SQLite file of another program; it was left untouched. "
            "Choose another --data-dir."
        )
    if db.execute("PRAGMA user_version").fetchone()[0] > SCHEMA_VERSION:
        raise LogError(f"{path} was written by a newer Table Companion; update the app.")
    if gaps := schema_gaps(db):
        raise LogError(
            f"{path} carries our mark but not our tables ({gaps}); it was left untouched."
        )
    check = db.execute("PRAGMA quick_check").fetchone()[0] if quick_check else "ok"
    if check != "ok":
        raise LogError(f"{path} is damaged ({check}); it was left untouched.")
    return "ok"


def schema_gaps(db: sqlite3.Connection) -> str:
    gaps = []
    for table, wanted in REQUIRED_COLUMNS.items():
        have = {row[1] for row in db.execute(f"PRAGMA table_info({table})")}
        if missing := sorted(wanted - have):
            gaps.append(f"{table}: no {', '.join(missing)}" if have else f"no table {table}")
    return "; ".join(gaps)


def decoded(game_id: int, text: str, what: str) -> dict[str, Any]:
    try:
        return json.loads(text)
    except ValueError:
        raise DamagedGame(game_id, f"its {what} is unreadable") from None


def wal_commits_dropped(path: Path) -> int:
    """How many commits the log's WAL holds beyond what SQLite recovered from it.

    SQLite reads the WAL up to the first frame whose checksum fails and silently drops the
    rest, so one flipped bit can hide every later commit. Its recovery leaves the number of
    frames it kept (`mxFrame`) in the -shm header; every frame after that which still carries
    the WAL's current salts and ends a transaction is a commit that was dropped. A power cut
    tears at most the last one (each commit is synced before the next), so more than one
    means damage. Call while a read connection that has read the log is open; returns 0 when
    it cannot tell (no WAL, another process has the log open and may be writing)."""
    wal, shm = Path(f"{path}-wal"), Path(f"{path}-shm")
    folder = os.open(path.parent, os.O_RDONLY)
    try:
        fcntl.flock(folder, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        os.close(folder)
        return 0
    try:
        with open(wal, "rb") as w, open(shm, "rb") as m:
            header, index = w.read(32), m.read(48)
            if len(header) < 32 or len(index) < 48 or index[32:40] != header[16:24]:
                return 0
            frame = 24 + int.from_bytes(header[8:12], "big")
            dropped, at = 0, int.from_bytes(index[16:20], sys.byteorder)  # native order
            while len(head := _frame_header(w, 32 + at * frame)) == 24:
                dropped += head[8:16] == header[16:24] and int.from_bytes(head[4:8], "big") > 0
                at += 1
            return dropped
    except FileNotFoundError:
        return 0
    finally:
        os.close(folder)  # drops the lock


def _frame_header(f, offset: int) -> bytes:
    f.seek(offset)
    return f.read(24)
