"""The game log: an append-only SQLite file. A game *is* its log.

Every event is written (and synced) before the game adopts it, so resuming after a power cut
replays exactly what the table saw. Undo and redo are entries too, never deletions: the
history stays whole for statistics and for replays.

GameLog is the one face callers use; its parts, one concern each: `opening` (is a file ours
and whole, connect), `integrity` (our mark, soundness, each game's hash chain), `schema`
(tables, a new file, migrations), `transaction`, `writing` (every change through one
outbox), `records` (the games), `replaying` (a game's entries), and the backups beside the
log (`backups`: rotation and the checks on open; `copies`; `restore`).
"""

from __future__ import annotations

import json
import sqlite3
import uuid as uuidlib
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from companion.entries import Entry, GameRecord
from companion.storage import (
    READ_ONLY,
    StorageError,
    StorageStatus,
    fault_of,
    medium_read_only,
    notice,
)
from companion.store.backups import Backups
from companion.store.integrity import DamagedGame, chain_link
from companion.store.opening import open_log
from companion.store.records import GameRecords
from companion.store.replaying import GameEntries
from companion.store.transaction import transaction
from companion.store.writing import Writer

_NO_NEW_GAME = "a new game cannot be started"


def _now() -> str:
    # Wall-clock time is only a label for people; no rule ever reads it.
    return datetime.now(UTC).isoformat(timespec="seconds")


class GameLog:
    """One SQLite file holding every game played on this box.

    A write the card refuses (full, read-only, failing, busy: companion.storage) is kept in
    an outbox in memory, in order, and tried again every few seconds and before every new
    write; `storage` says so meanwhile, and every read sees the outbox as if it were written.
    `read_only=True` opens a log to look at only (`companion replay`): nothing is written,
    not even a backup."""

    def __init__(self, path: str | Path, backups: bool = True, read_only: bool = False) -> None:
        self.path = Path(path)
        self.storage = StorageStatus()
        # Beside the log: rotating copies, and the check that the log holds all they hold.
        self.backups = Backups(self.path) if backups and not read_only else None
        medium = READ_ONLY if read_only or medium_read_only(self.path) else None
        db, fault = open_log(self.path, self.backups, medium)
        self._writer = Writer(
            self.path, db, fault is not None, self.storage, self.backups, inspect_only=read_only
        )
        self._records = GameRecords(self._writer)
        self._entries = GameEntries(self._writer)
        if fault and not read_only:
            self.storage.fail(fault, notice(fault, "nothing can be saved"))
        if self.backups is not None:
            self.backups.hold()
            if not self.read_only and self.backups.behind(db):
                self.backups.soon()

    @property
    def read_only(self) -> bool:
        """The connection cannot write (until the card takes writes again)."""
        return self._writer.read_only

    @property
    def _db(self) -> sqlite3.Connection:
        return self._writer.db

    def close(self) -> None:
        if self._writer.db is None:
            return
        try:
            self._writer.close()
            if self.backups is not None and not self.read_only:
                self.backups.catch_up(self._db)  # the box is being switched off: copy the latest
        finally:
            if self.backups is not None:
                self.backups.release()
            self._db.close()
            self._writer.db = None

    def __enter__(self) -> GameLog:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"<GameLog {self.path}{' read-only' if self.read_only else ''}>"

    # writes the card refused -----------------------------------------------------------
    @property
    def unsaved(self) -> int:
        """How many changes wait in memory for the card to take them."""
        return self._writer.unsaved

    def retry(self) -> bool:
        """Try to write what waits; True once nothing waits."""
        return self._writer.flush() if self._writer.unsaved else True

    # games ----------------------------------------------------------------------
    def new_game(self, game: str, config: dict[str, Any]) -> int:
        """A new game's id. StorageError if the card takes no writes: a game that cannot be
        written from its first move is not started."""
        with self._writer.lock:
            if not self._writer.flush():
                raise StorageError(self.storage.kind, notice(self.storage.kind, _NO_NEW_GAME))
            try:
                cur = self._db.execute(
                    "INSERT INTO games (game, config, started, uuid) VALUES (?, ?, ?, ?)",
                    (game, json.dumps(config, sort_keys=True), _now(), str(uuidlib.uuid4())),
                )
            except (OSError, sqlite3.OperationalError) as exc:
                if (kind := fault_of(exc)) is None:
                    raise
                raise StorageError(kind, notice(kind, _NO_NEW_GAME)) from None
            return int(cur.lastrowid)

    def add_games(self, games: list[tuple[GameRecord, list[tuple[Entry, str]]]]) -> list[int]:
        """Add whole games (another table's, with their entries and times) in one transaction:
        all of them or, on any error, none. The records' ids are ignored; new ids are returned."""
        try:
            with transaction(self._db):
                ids = [self._insert_game(rec, entries) for rec, entries in games]
        except (OSError, sqlite3.OperationalError) as exc:
            if (kind := fault_of(exc)) is None:
                raise
            raise StorageError(kind, notice(kind, "these games are not imported")) from None
        if self.backups is not None:
            self.backups.soon()
        return ids

    def _insert_game(self, rec: GameRecord, entries: list[tuple[Entry, str]]) -> int:
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
        return gid

    def game(self, game_id: int) -> GameRecord:
        return self._records.game(game_id)

    def find(self, game_uuid: str) -> GameRecord | None:
        """The game with this UUID, if this log holds it."""
        return self._records.find(game_uuid)

    def games(self, status: str | None = None) -> list[GameRecord]:
        """Every game in log order (its id), optionally only those with `status`."""
        return self._records.games(status)

    def active_games(self) -> list[GameRecord]:
        """Every game in progress, the one played last first (see GameRecords)."""
        return self._records.active_games()

    def unfinished(self) -> GameRecord | None:
        """The game in progress played last, if any (games set aside do not count)."""
        aside = self.set_aside_games()
        return next((r for r in self.active_games() if r.id not in aside), None)

    def set_aside(self, game_id: int, reason: str) -> None:
        """Take a game that cannot be resumed out of play. Nothing is deleted: it stays in the
        file with the reason, and `export` still writes it out."""
        self._writer.write(("aside", game_id, reason, _now()))

    def players_of(self, game_id: int) -> str:
        """The players' names for a message ("" if the game's set-up cannot be read)."""
        try:
            return ", ".join(self.game(game_id).config.get("players", ()))
        except (DamagedGame, AttributeError, TypeError):
            return ""

    def set_aside_games(self) -> dict[int, str]:
        return self._records.set_aside_games()

    def set_aside_damaged(self) -> list[tuple[int, str, str]]:
        """Read back every unfinished game; set aside each one that does not read back whole.
        Returns (id, game name, why) for each game set aside now."""
        found = []
        aside = self.set_aside_games()
        rows = self._db.execute("SELECT id, game FROM games WHERE status = 'active' ORDER BY id")
        for game_id, name in rows.fetchall():
            if game_id in aside:
                continue
            try:
                if why := self.game(game_id).damaged:
                    raise DamagedGame(game_id, why)
                self.entries(game_id)
            except DamagedGame as exc:
                self.set_aside(game_id, exc.why)
                found.append((game_id, name, exc.why))
        return found

    def finish(self, game_id: int, result: dict[str, Any], status: str = "finished") -> None:
        self._writer.write(("status", game_id, status, _now(), json.dumps(result, sort_keys=True)))
        if self.backups is not None:
            self.backups.soon()  # after each finished game

    def reopen(self, game_id: int) -> None:
        """An undo past the end of a game makes it active again."""
        self._writer.write(("status", game_id, "active", None, None))

    # entries --------------------------------------------------------------------
    def append(self, game_id: int, kind: str, payload: dict[str, Any] | None = None) -> int:
        """Append one entry durably (WAL, synchronous=FULL) and return its sequence number.
        If the card refuses it, it waits in memory (see the class) and is written later."""
        text = None if payload is None else json.dumps(payload)
        with self._writer.lock:
            seq = self._entries.next_seq(game_id)
            self._writer.queue(("entry", game_id, seq, kind, text, _now()))
        self._writer.flush()
        if self.backups is not None and not self._writer.unsaved:
            self.backups.during_play()
        return int(seq)

    def timed_entries(self, game_id: int) -> list[tuple[Entry, str]]:
        """Entries with the time each was written, for exports."""
        return self._entries.timed_entries(game_id)

    def entries(self, game_id: int) -> list[Entry]:
        """The game's entries, each checked against the hash chain written with it.
        Raises DamagedGame if one is missing, altered or unreadable."""
        return self._entries.entries(game_id)

    # timers ---------------------------------------------------------------------
    def save_timer(self, game_id: int, key: str, remaining: float, paused: bool) -> None:
        self._writer.write(("timer", game_id, key, remaining, paused))

    def saved_timer(self, game_id: int) -> tuple[str, float, bool] | None:
        if waiting := self._writer.waiting("timer", game_id):
            return tuple(waiting[-1][2:])
        row = self._db.execute(
            "SELECT key, remaining, paused FROM timers WHERE game_id = ?", (game_id,)
        ).fetchone()
        return (row[0], row[1], bool(row[2])) if row else None

    # statistics and exports -----------------------------------------------------
    def player_history(self, game: str | None = None) -> dict[str, dict[str, int]]:
        """Per player: games played and won among finished games (optionally one game)."""
        return self._records.player_history(game)

    def export(self, game_id: int) -> dict[str, Any]:
        """A self-contained JSON document of one game, readable by `companion replay`.
        A damaged game is exported too: its rows as stored, the reason under "set_aside"."""
        return self._entries.export(self._records, game_id)
