"""The game log: an append-only SQLite file. A game *is* its log.

Every event is written (and synced) before the game adopts it, so resuming after a power cut
replays exactly what the table saw. Undo and redo are entries too, never deletions: the
history stays whole for statistics and for replays.
"""

from __future__ import annotations

import json
import os
import sqlite3
import threading
import uuid as uuidlib
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from companion.errors import LogError

APPLICATION_ID = 0x54434D50  # "TCMP", stored in the SQLite header to recognise our files
SCHEMA_VERSION = 1

_SCHEMA = """
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


@dataclass(frozen=True)
class Entry:
    seq: int
    kind: str  # "event" | "undo" | "redo"
    payload: dict[str, Any] | None


@dataclass(frozen=True)
class GameRecord:
    id: int
    game: str
    config: dict[str, Any]
    started: str
    finished: str | None
    status: str
    result: dict[str, Any] | None
    uuid: str = ""  # stable across tables: export/import merges logs by it


# Columns read into a GameRecord, named so that columns added later never shift them.
_GAME_COLUMNS = "id, game, config, started, finished, status, result, uuid"


def _now() -> str:
    # Wall-clock time is only a label for people; no rule ever reads it.
    return datetime.now(UTC).isoformat(timespec="seconds")


def fold_entries(entries) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """Fold log entries into (events in force, undone events with the next redo last):
    undo pops, redo pushes back, a new event after an undo drops the redo stack."""
    done: list[dict[str, Any]] = []
    undone: list[dict[str, Any]] = []
    for e in entries:
        if e.kind == "event":
            done.append(e.payload)
            undone.clear()
        elif e.kind == "undo" and done:
            undone.append(done.pop())
        elif e.kind == "redo" and undone:
            done.append(undone.pop())
    return done, undone


def effective_events(entries) -> list[dict[str, Any]]:
    return fold_entries(entries)[0]


class GameLog:
    """One SQLite file holding every game played on this box."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self._db = self._open(self.path)

    @staticmethod
    def _open(path: Path) -> sqlite3.Connection:
        if not (path.exists() and path.stat().st_size > 0):
            _create(path)
        with open(path, "rb") as f:
            header = f.read(16)
        if header != b"SQLite format 3\x00":
            raise LogError(
                f"{path} is not a Table Companion game log (not an SQLite file); "
                "it was left untouched. Move it away or choose another --data-dir."
            )
        try:
            db = _connect(path)
            if db.execute("PRAGMA application_id").fetchone()[0] != APPLICATION_ID:
                empty = db.execute("SELECT count(*) FROM sqlite_master").fetchone()[0] == 0
                db.close()
                if not empty:
                    raise LogError(
                        f"{path} is an SQLite file of another program; it was left untouched. "
                        "Choose another --data-dir."
                    )
                # Holds nothing at all (e.g. made by an older build cut off while creating
                # it): replacing it loses nothing.
                for leftover in (Path(f"{path}-wal"), Path(f"{path}-shm")):
                    leftover.unlink(missing_ok=True)
                _create(path)
                db = _connect(path)
            check = db.execute("PRAGMA quick_check").fetchone()[0]
            if check != "ok":
                db.close()
                raise LogError(f"{path} is damaged ({check}); it was left untouched.")
            if db.execute("PRAGMA user_version").fetchone()[0] > SCHEMA_VERSION:
                db.close()
                raise LogError(f"{path} was written by a newer Table Companion; update the app.")
            db.execute("PRAGMA journal_mode=WAL")
            db.execute("PRAGMA synchronous=FULL")
            db.execute("PRAGMA foreign_keys=ON")
            _add_game_uuids(db)
            return db
        except sqlite3.DatabaseError as exc:
            raise LogError(
                f"{path} cannot be read as a game log ({exc}); it was left untouched."
            ) from None

    def close(self) -> None:
        self._db.close()

    def __enter__(self) -> GameLog:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"<GameLog {self.path}>"

    # games ----------------------------------------------------------------------
    def new_game(self, game: str, config: dict[str, Any]) -> int:
        cur = self._db.execute(
            "INSERT INTO games (game, config, started, uuid) VALUES (?, ?, ?, ?)",
            (game, json.dumps(config, sort_keys=True), _now(), str(uuidlib.uuid4())),
        )
        return int(cur.lastrowid)

    def uuids(self) -> frozenset[str]:
        return frozenset(r[0] for r in self._db.execute("SELECT uuid FROM games"))

    def add_games(self, games: list[tuple[GameRecord, list[tuple[Entry, str]]]]) -> list[int]:
        """Add whole games (another table's, with their entries and times) in one transaction:
        all of them or, on any error, none. The records' ids are ignored; new ids are returned."""
        ids = []
        with _transaction(self._db):
            for rec, entries in games:
                cur = self._db.execute(
                    "INSERT INTO games (game, config, started, finished, status, result, uuid) "
                    "VALUES (?, ?, ?, ?, ?, ?, ?)",
                    (
                        rec.game,
                        json.dumps(rec.config, sort_keys=True),
                        rec.started,
                        rec.finished,
                        rec.status,
                        None if rec.result is None else json.dumps(rec.result, sort_keys=True),
                        rec.uuid,
                    ),
                )
                gid = int(cur.lastrowid)
                self._db.executemany(
                    "INSERT INTO entries (game_id, seq, kind, payload, at) VALUES (?, ?, ?, ?, ?)",
                    [
                        (
                            gid,
                            e.seq,
                            e.kind,
                            None if e.payload is None else json.dumps(e.payload),
                            at,
                        )
                        for e, at in entries
                    ],
                )
                ids.append(gid)
        return ids

    def game(self, game_id: int) -> GameRecord:
        row = self._db.execute(
            f"SELECT {_GAME_COLUMNS} FROM games WHERE id = ?", (game_id,)
        ).fetchone()
        if row is None:
            raise LogError(f"no game {game_id} in {self.path}")
        return _record(row)

    def games(self, status: str | None = None) -> list[GameRecord]:
        sql, args = f"SELECT {_GAME_COLUMNS} FROM games", ()
        if status:
            sql, args = sql + " WHERE status = ?", (status,)
        return [_record(r) for r in self._db.execute(sql + " ORDER BY id", args)]

    def unfinished(self) -> GameRecord | None:
        """The most recent game still in progress, if any."""
        row = self._db.execute(
            f"SELECT {_GAME_COLUMNS} FROM games WHERE status = 'active' ORDER BY id DESC LIMIT 1"
        ).fetchone()
        return _record(row) if row else None

    def finish(self, game_id: int, result: dict[str, Any], status: str = "finished") -> None:
        self._db.execute(
            "UPDATE games SET status = ?, finished = ?, result = ? WHERE id = ?",
            (status, _now(), json.dumps(result, sort_keys=True), game_id),
        )

    def reopen(self, game_id: int) -> None:
        """An undo past the end of a game makes it active again."""
        self._db.execute(
            "UPDATE games SET status = 'active', finished = NULL, result = NULL WHERE id = ?",
            (game_id,),
        )

    # entries --------------------------------------------------------------------
    def append(self, game_id: int, kind: str, payload: dict[str, Any] | None = None) -> int:
        """Append one entry durably (WAL, synchronous=FULL) and return its sequence number."""
        with _transaction(self._db):
            seq = self._db.execute(
                "SELECT COALESCE(MAX(seq), 0) + 1 FROM entries WHERE game_id = ?", (game_id,)
            ).fetchone()[0]
            self._db.execute(
                "INSERT INTO entries (game_id, seq, kind, payload, at) VALUES (?, ?, ?, ?, ?)",
                (game_id, seq, kind, None if payload is None else json.dumps(payload), _now()),
            )
        return int(seq)

    def timed_entries(self, game_id: int) -> list[tuple[Entry, str]]:
        """Entries with the time each was written, for exports."""
        rows = self._db.execute(
            "SELECT seq, kind, payload, at FROM entries WHERE game_id = ? ORDER BY seq", (game_id,)
        )
        return [(Entry(s, k, None if p is None else json.loads(p)), at) for s, k, p, at in rows]

    def entries(self, game_id: int) -> list[Entry]:
        rows = self._db.execute(
            "SELECT seq, kind, payload FROM entries WHERE game_id = ? ORDER BY seq", (game_id,)
        )
        return [Entry(s, k, None if p is None else json.loads(p)) for s, k, p in rows]

    # timers ---------------------------------------------------------------------
    def save_timer(self, game_id: int, key: str, remaining: float, paused: bool) -> None:
        self._db.execute(
            "INSERT INTO timers (game_id, key, remaining, paused) VALUES (?, ?, ?, ?) "
            "ON CONFLICT (game_id) DO UPDATE SET key = excluded.key, "
            "remaining = excluded.remaining, paused = excluded.paused",
            (game_id, key, remaining, int(paused)),
        )

    def saved_timer(self, game_id: int) -> tuple[str, float, bool] | None:
        row = self._db.execute(
            "SELECT key, remaining, paused FROM timers WHERE game_id = ?", (game_id,)
        ).fetchone()
        return (row[0], row[1], bool(row[2])) if row else None

    # statistics -----------------------------------------------------------------
    def player_history(self, game: str | None = None) -> dict[str, dict[str, int]]:
        """Per player: games played and won among finished games (optionally one game)."""
        stats: dict[str, dict[str, int]] = {}
        for rec in self.games("finished"):
            if game and rec.game != game:
                continue
            winners = set((rec.result or {}).get("winners", ()))
            for name in rec.config.get("players", ()):
                s = stats.setdefault(name, {"played": 0, "won": 0})
                s["played"] += 1
                s["won"] += name in winners
        return stats

    def export(self, game_id: int) -> dict[str, Any]:
        """A self-contained JSON document of one game, readable by `companion replay`."""
        rec = self.game(game_id)
        return {
            "format": "table-companion-log/1",
            "game": rec.game,
            "config": rec.config,
            "status": rec.status,
            "entries": [
                {"seq": e.seq, "kind": e.kind, "event": e.payload} for e in self.entries(game_id)
            ],
        }


def _connect(path: Path) -> sqlite3.Connection:
    # The table runtime writes from its engine thread, the screen from its own; _transaction
    # keeps their writes apart.
    return sqlite3.connect(
        f"file:{path}?mode=rw", uri=True, isolation_level=None, check_same_thread=False
    )


def _create(path: Path) -> None:
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
        with _transaction(db):
            # executescript() would commit mid-way; run statements in one transaction.
            for stmt in _SCHEMA.split(";"):
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


class _transaction:
    _writing = threading.RLock()  # one transaction at a time on a connection shared by threads

    def __init__(self, db: sqlite3.Connection) -> None:
        self.db = db

    def __enter__(self):
        self._writing.acquire()
        try:
            self.db.execute("BEGIN IMMEDIATE")
        except BaseException:
            self._writing.release()
            raise

    def __exit__(self, exc_type, *rest):
        try:
            self.db.execute("ROLLBACK" if exc_type else "COMMIT")
        finally:
            self._writing.release()


def _add_game_uuids(db: sqlite3.Connection) -> None:
    """Migration: every game gets a stable UUID (logs made before it had none). Additive and
    idempotent: a column, filled once, and a unique index."""
    if any(col[1] == "uuid" for col in db.execute("PRAGMA table_info(games)")):
        return
    with _transaction(db):
        db.execute("ALTER TABLE games ADD COLUMN uuid TEXT")
        ids = [r[0] for r in db.execute("SELECT id FROM games")]
        db.executemany(
            "UPDATE games SET uuid = ? WHERE id = ?", [(str(uuidlib.uuid4()), i) for i in ids]
        )
        db.execute("CREATE UNIQUE INDEX games_uuid ON games(uuid)")


def _record(row) -> GameRecord:
    gid, game, config, started, finished, status, result, game_uuid = row
    return GameRecord(
        gid,
        game,
        json.loads(config),
        started,
        finished,
        status,
        json.loads(result) if result else None,
        game_uuid or "",
    )


def iter_entries(doc: dict[str, Any]) -> Iterator[Entry]:
    """Entries of an exported JSON log."""
    for i, e in enumerate(doc.get("entries", ()), start=1):
        yield Entry(int(e.get("seq", i)), e["kind"], e.get("event"))
