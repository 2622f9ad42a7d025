"""The log's tables, how a new log file is made, and the migrations that bring a log made by
an older version up to date (additive and idempotent)."""

from __future__ import annotations

import os
import sqlite3
import uuid as uuidlib
from pathlib import Path

from companion.store.integrity import APPLICATION_ID, SCHEMA_VERSION, chain_link
from companion.store.transaction import transaction

SCHEMA = """
CREATE TABLE games (
    id INTEGER PRIMARY KEY,
    game TEXT NOT NULL,
    config TEXT NOT NULL,
    started TEXT NOT NULL,
    finished TEXT,
    status TEXT NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'finished', 'abandoned')),
    result TEXT
);
CREATE TABLE entries (
    game_id INTEGER NOT NULL REFERENCES games(id),
    seq INTEGER NOT NULL,
    kind TEXT NOT NULL CHECK (kind IN ('event', 'undo', 'redo')),
    payload TEXT,
    at TEXT NOT NULL,
    PRIMARY KEY (game_id, seq)
);
CREATE TABLE timers (
    game_id INTEGER PRIMARY KEY REFERENCES games(id),
    key TEXT NOT NULL,
    remaining REAL NOT NULL,
    paused INTEGER NOT NULL
);
"""


def create(path: Path) -> None:
    """Build an empty log beside `path` and move it into place in one rename, so a power cut
    during creation leaves either no log or a complete one, never a half-made file."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".creating")
    for leftover in (tmp, Path(f"{tmp}-wal"), Path(f"{tmp}-shm")):
        leftover.unlink(missing_ok=True)  # ours, from a creation that was cut off
    db = sqlite3.connect(tmp, isolation_level=None)
    try:
        db.execute("PRAGMA journal_mode=WAL")
        db.execute("PRAGMA synchronous=FULL")
        with transaction(db):
            # executescript() would commit mid-way; run statements in one transaction.
            for stmt in SCHEMA.split(";"):
                if stmt.strip():
                    db.execute(stmt)
            db.execute(f"PRAGMA application_id={APPLICATION_ID}")
            db.execute(f"PRAGMA user_version={SCHEMA_VERSION}")
    finally:
        db.close()  # checkpoints the WAL into the file
    with open(tmp, "rb") as f:
        os.fsync(f.fileno())
    os.replace(tmp, path)
    dir_fd = os.open(path.parent, os.O_RDONLY)
    try:
        os.fsync(dir_fd)
    finally:
        os.close(dir_fd)


def migrate(db: sqlite3.Connection) -> None:
    """Every migration, in order, on a connection that may write."""
    add_game_uuids(db)
    add_integrity(db)


def add_game_uuids(db: sqlite3.Connection) -> None:
    """Migration: every game gets a stable UUID (logs made before it had none). Additive and
    idempotent: a column, filled once, and a unique index."""
    if any(col[1] == "uuid" for col in db.execute("PRAGMA table_info(games)")):
        return
    with transaction(db):
        db.execute("ALTER TABLE games ADD COLUMN uuid TEXT")
        ids = [r[0] for r in db.execute("SELECT id FROM games")]
        db.executemany(
            "UPDATE games SET uuid = ? WHERE id = ?", [(str(uuidlib.uuid4()), i) for i in ids]
        )
        db.execute("CREATE UNIQUE INDEX games_uuid ON games(uuid)")


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


def migrated_copy(db: sqlite3.Connection) -> sqlite3.Connection:
    """`db` itself if it needs no migration; else a copy in memory, migrated there (a log
    made by an older version, looked at where it cannot be written)."""
    columns = {row[1] for row in db.execute("PRAGMA table_info(entries)")}
    games = {row[1] for row in db.execute("PRAGMA table_info(games)")}
    aside = db.execute("SELECT 1 FROM sqlite_master WHERE name = 'set_aside'").fetchone()
    if "chain" in columns and "uuid" in games and aside:
        return db
    copy = sqlite3.connect(":memory:", isolation_level=None, check_same_thread=False)
    db.backup(copy)
    db.close()
    migrate(copy)
    return copy
