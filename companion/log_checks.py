"""Checks that keep the game log honest: is a file ours and whole, and did a game's rows
come back exactly as written (a hash chain over each game's entries)."""

from __future__ import annotations

import hashlib
import json
import sqlite3
from pathlib import Path
from typing import Any

from companion.errors import LogError


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
    from companion.store import APPLICATION_ID, SCHEMA_VERSION

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


def add_integrity(db: sqlite3.Connection) -> None:
    """Additive step for logs made before integrity checks: a hash chain over each game's
    entries (existing entries are chained as they stand) and the list of games set aside."""
    chained = any(row[1] == "chain" for row in db.execute("PRAGMA table_info(entries)"))
    aside = db.execute("SELECT 1 FROM sqlite_master WHERE name = 'set_aside'").fetchone()
    if chained and aside:
        return
    db.execute("BEGIN IMMEDIATE")
    try:
        if not chained:
            db.execute("ALTER TABLE entries ADD COLUMN chain TEXT")
            prev: dict[int, str] = {}
            rows = db.execute(
                "SELECT game_id, seq, kind, payload FROM entries ORDER BY game_id, seq"
            ).fetchall()
            for game_id, seq, kind, text in rows:
                prev[game_id] = chain_link(prev.get(game_id, ""), seq, kind, text)
                db.execute(
                    "UPDATE entries SET chain = ? WHERE game_id = ? AND seq = ?",
                    (prev[game_id], game_id, seq),
                )
        if not aside:
            db.execute(
                "CREATE TABLE set_aside (game_id INTEGER PRIMARY KEY REFERENCES games(id), "
                "reason TEXT NOT NULL, at TEXT NOT NULL)"
            )
    except BaseException:
        db.execute("ROLLBACK")
        raise
    db.execute("COMMIT")


def decoded(game_id: int, text: str, what: str) -> dict[str, Any]:
    try:
        return json.loads(text)
    except ValueError:
        raise DamagedGame(game_id, f"its {what} is unreadable") from None
