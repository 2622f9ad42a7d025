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
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from companion.entries import Entry, GameRecord
from companion.errors import LogError
from companion.log_checks import (
    APPLICATION_ID,
    SCHEMA_VERSION,
    DamagedGame,
    add_integrity,
    chain_link,
    check_header,
    check_sound,
    decoded,
    entry_payload,
    wal_commits_dropped,
)

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


# Columns read into a GameRecord, named so that columns added later never shift them.
_GAME_COLUMNS = "id, game, config, started, finished, status, result, uuid"


def _now() -> str:
    # Wall-clock time is only a label for people; no rule ever reads it.
    return datetime.now(UTC).isoformat(timespec="seconds")


class GameLog:
    """One SQLite file holding every game played on this box."""

    def __init__(self, path: str | Path, backups: bool = True) -> None:
        from companion import backup

        self.path = Path(path)
        # Beside the log: rotating copies, and the check that the log holds all they hold.
        self.backups = backup.Backups(self.path) if backups else None
        self._db = self._open(self.path, self.backups)
        if self.backups is not None:
            self.backups.hold()
            if self.backups.behind(self._db):
                self.backups.soon()

    @staticmethod
    def _open(path: Path, backups=None) -> sqlite3.Connection:
        if not (path.exists() and path.stat().st_size > 0):
            if backups is not None:
                backups.refuse_if_log_lost(path)
            _create(path)
        _inspect(path, backups)  # read-only: a file we refuse is left exactly as it was
        try:
            db = _connect(path)
            db.execute("PRAGMA journal_mode=WAL")
            db.execute("PRAGMA synchronous=FULL")
            db.execute("PRAGMA foreign_keys=ON")
            _add_game_uuids(db)
            add_integrity(db)
            return db
        except sqlite3.DatabaseError as exc:
            raise LogError(
                f"{path} cannot be read as a game log ({exc}); it was left untouched."
            ) from None

    def close(self) -> None:
        if self._db is None:
            return
        try:
            if self.backups is not None:
                self.backups.catch_up(self._db)  # the box is being switched off: copy the latest
        finally:
            if self.backups is not None:
                self.backups.release()
            self._db.close()
            self._db = None

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
                rows, prev = [], ""
                for e, at in entries:  # each entry chained to the one before, as append does
                    text = None if e.payload is None else json.dumps(e.payload)
                    prev = chain_link(prev, e.seq, e.kind, text)
                    rows.append((gid, e.seq, e.kind, text, at, prev))
                self._db.executemany(
                    "INSERT INTO entries (game_id, seq, kind, payload, at, chain) "
                    "VALUES (?, ?, ?, ?, ?, ?)",
                    rows,
                )
                ids.append(gid)
        if self.backups is not None:
            self.backups.soon()
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
        """The most recent game still in progress, if any (games set aside do not count)."""
        row = self._db.execute(
            f"SELECT {_GAME_COLUMNS} FROM games WHERE status = 'active' "
            "AND id NOT IN (SELECT game_id FROM set_aside) ORDER BY id DESC LIMIT 1"
        ).fetchone()
        return _record(row) if row else None

    def set_aside(self, game_id: int, reason: str) -> None:
        """Take a game that cannot be resumed out of play. Nothing is deleted: it stays in the
        file with the reason, and `export` still writes it out."""
        self._db.execute(
            "INSERT OR IGNORE INTO set_aside (game_id, reason, at) VALUES (?, ?, ?)",
            (game_id, reason, _now()),
        )

    def players_of(self, game_id: int) -> str:
        """The players' names for a message ("" if the game's set-up cannot be read)."""
        try:
            return ", ".join(self.game(game_id).config.get("players", ()))
        except (DamagedGame, AttributeError, TypeError):
            return ""

    def set_aside_games(self) -> dict[int, str]:
        return dict(self._db.execute("SELECT game_id, reason FROM set_aside ORDER BY game_id"))

    def set_aside_damaged(self) -> list[tuple[int, str, str]]:
        """Read back every unfinished game; set aside each one that does not read back whole.
        Returns (id, game name, why) for each game set aside now."""
        found = []
        rows = self._db.execute(
            "SELECT id, game FROM games WHERE status = 'active' "
            "AND id NOT IN (SELECT game_id FROM set_aside) ORDER BY id"
        ).fetchall()
        for game_id, name in rows:
            try:
                self.game(game_id)
                self.entries(game_id)
            except DamagedGame as exc:
                self.set_aside(game_id, exc.why)
                found.append((game_id, name, exc.why))
        return found

    def finish(self, game_id: int, result: dict[str, Any], status: str = "finished") -> None:
        self._db.execute(
            "UPDATE games SET status = ?, finished = ?, result = ? WHERE id = ?",
            (status, _now(), json.dumps(result, sort_keys=True), game_id),
        )
        if self.backups is not None:
            self.backups.soon()  # after each finished game

    def reopen(self, game_id: int) -> None:
        """An undo past the end of a game makes it active again."""
        self._db.execute(
            "UPDATE games SET status = 'active', finished = NULL, result = NULL WHERE id = ?",
            (game_id,),
        )

    # entries --------------------------------------------------------------------
    def append(self, game_id: int, kind: str, payload: dict[str, Any] | None = None) -> int:
        """Append one entry durably (WAL, synchronous=FULL) and return its sequence number."""
        text = None if payload is None else json.dumps(payload)
        with _transaction(self._db):
            last = self._db.execute(
                "SELECT seq, chain FROM entries WHERE game_id = ? ORDER BY seq DESC LIMIT 1",
                (game_id,),
            ).fetchone()
            seq, prev = (last[0] + 1, last[1]) if last else (1, "")
            if prev is None:  # rows copied in without their links: chain them as they stand
                prev = self._links(game_id)[-1]
            self._db.execute(
                "INSERT INTO entries (game_id, seq, kind, payload, at, chain) "
                "VALUES (?, ?, ?, ?, ?, ?)",
                (game_id, seq, kind, text, _now(), chain_link(prev, seq, kind, text)),
            )
        if self.backups is not None:
            self.backups.during_play()
        return int(seq)

    def timed_entries(self, game_id: int) -> list[tuple[Entry, str]]:
        """Entries with the time each was written, for exports."""
        rows = self._db.execute(
            "SELECT seq, kind, payload, at FROM entries WHERE game_id = ? ORDER BY seq", (game_id,)
        )
        return [(Entry(s, k, None if p is None else json.loads(p)), at) for s, k, p, at in rows]

    def _links(self, game_id: int) -> list[str]:
        rows = self._db.execute(
            "SELECT seq, kind, payload FROM entries WHERE game_id = ? ORDER BY seq", (game_id,)
        )
        links = [""]
        for seq, kind, text in rows:
            links.append(chain_link(links[-1], seq, kind, text))
        return links

    def entries(self, game_id: int) -> list[Entry]:
        """The game's entries, each checked against the hash chain written with it.
        Raises DamagedGame if one is missing, altered or unreadable."""
        rows = self._db.execute(
            "SELECT seq, kind, payload, chain FROM entries WHERE game_id = ? ORDER BY seq",
            (game_id,),
        )
        out, prev = [], ""
        for expected, (seq, kind, text, chain) in enumerate(rows, start=1):
            if seq != expected:
                raise DamagedGame(game_id, f"entry {expected} is missing")
            payload = entry_payload(game_id, seq, kind, text)
            link = chain_link(prev, seq, kind, text)
            if chain is not None and chain != link:
                raise DamagedGame(game_id, f"entry {seq} was altered after it was written")
            out.append(Entry(seq, kind, payload))
            prev = link
        return out

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
        """A self-contained JSON document of one game, readable by `companion replay`.
        A damaged game is exported too: its rows as stored, the reason under "set_aside"."""
        rec = self.game(game_id)
        doc = {
            "format": "table-companion-log/1",
            "game": rec.game,
            "config": rec.config,
            "status": rec.status,
        }
        try:
            entries = [
                {"seq": e.seq, "kind": e.kind, "event": e.payload} for e in self.entries(game_id)
            ]
        except DamagedGame as exc:
            doc["set_aside"] = self.set_aside_games().get(game_id, exc.why)
            rows = self._db.execute(
                "SELECT seq, kind, payload FROM entries WHERE game_id = ? ORDER BY seq", (game_id,)
            )
            entries = [{"seq": s, "kind": k, "stored": p} for s, k, p in rows]
        doc["entries"] = entries
        return doc


def _inspect(path: Path, backups=None) -> None:
    """Decide whether `path` is a sound game log of ours, through a read-only connection, so
    that a file we refuse is left byte for byte as it was. Raises LogError."""
    check_header(path)
    try:
        db = sqlite3.connect(f"file:{path}?mode=ro", uri=True, isolation_level=None)
        try:
            if check_sound(db, path) == "empty":
                db.close()
                # Holds nothing at all (e.g. made by an older build cut off while creating
                # it): replacing it loses nothing.
                for leftover in (Path(f"{path}-wal"), Path(f"{path}-shm")):
                    leftover.unlink(missing_ok=True)
                _create(path)
                return
            if backups is not None:
                backups.refuse_if_entries_lost(db)
            if (dropped := wal_commits_dropped(path)) > 1:
                from companion.backup import LogLost

                raise LogLost(
                    f"{path}-wal holds {dropped} saved changes that SQLite cannot read back "
                    "(a damaged frame hides them). Nothing was changed."
                )
        finally:
            db.close()
    except sqlite3.DatabaseError as exc:
        raise LogError(
            f"{path} cannot be read as a game log ({exc}); it was left untouched."
        ) from None


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
        decoded(gid, config, "set-up"),
        started,
        finished,
        status,
        decoded(gid, result, "result") if result else None,
        game_uuid or "",
    )
