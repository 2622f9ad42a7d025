"""Every change to the log, written in order through one outbox.

A write the card refuses (full, read-only, failing, busy: companion.storage) stays in the
outbox in memory, in order, and is tried again every few seconds and before every new
write; the log's `storage` says so meanwhile. Readers see the outbox through `waiting`, as
if it were written. A change is a tuple: ("entry", game, seq, kind, payload text, at),
("status", game, status, finished, result text), ("timer", game, key, remaining, paused) or
("aside", game, reason, at)."""

from __future__ import annotations

import logging
import sqlite3
import threading
from pathlib import Path

from companion.errors import LogError
from companion.storage import (
    READ_ONLY,
    RETRY_SECONDS,
    StorageError,
    StorageStatus,
    fault_of,
    medium_read_only,
    notice,
)
from companion.store.integrity import chain_link
from companion.store.opening import open_log
from companion.store.transaction import transaction

log = logging.getLogger(__name__)


class Writer:
    """The log's connection and the changes waiting to go through it. `read_only` while the
    connection cannot write (the card was read-only when the log was opened); the first
    write after the card takes writes again reopens it for writing, unless the log was
    opened to look at only (`inspect_only`)."""

    lock = transaction.writing  # held while the outbox or the connection changes

    def __init__(
        self,
        path: Path,
        db: sqlite3.Connection,
        read_only: bool,
        storage: StorageStatus,
        backups=None,
        inspect_only: bool = False,
    ) -> None:
        self.path, self.db, self.read_only = path, db, read_only
        self.storage, self.backups = storage, backups
        self._inspect_only = inspect_only
        self._outbox: list[tuple] = []  # writes the card refused, oldest first
        self._closing = threading.Event()
        self._retrier: threading.Thread | None = None

    @property
    def unsaved(self) -> int:
        return len(self._outbox)

    def write(self, op: tuple) -> None:
        """Queue one change and write everything queued, in order. A storage fault keeps it
        queued (and says so); anything else is a bug and raises."""
        self.queue(op)
        self.flush()

    def queue(self, op: tuple) -> None:
        with self.lock:
            if op[0] == "timer":  # only the newest snapshot of a countdown matters
                self._outbox = [o for o in self._outbox if o[:2] != op[:2]]
            self._outbox.append(op)

    def waiting(self, what: str, game_id: int | None = None) -> list[tuple]:
        """The changes of one kind (for one game) not written yet, oldest first."""
        with self.lock:
            return [o for o in self._outbox if o[0] == what and game_id in (None, o[1])]

    def flush(self) -> bool:
        """Write what waits, in one transaction; True once nothing waits."""
        told = None
        with self.lock:
            if not self._outbox:
                return True
            try:
                if self.read_only:
                    self._reopen_writable()
                with transaction(self.db):
                    for op in self._outbox:
                        self._apply(op)
                self._outbox.clear()
                told = "ok"
            except (OSError, sqlite3.OperationalError) as exc:
                kind = fault_of(exc)
                if kind is None:
                    raise
                told = kind
        if told == "ok":
            if self.storage.kind is not None:  # saving works again: copy it all soon
                self.storage.ok()
                if self.backups is not None:
                    self.backups.soon()
            return True
        self.storage.fail(told)
        self._keep_retrying()
        return False

    def close(self) -> None:
        """Stop retrying; a last try at what waits, and an error logged if it fails."""
        self._closing.set()
        if self._outbox and not self.flush():
            log.error(
                "%s: %d changes could not be saved (%s)",
                self.path,
                len(self._outbox),
                self.storage.text,
            )

    def _reopen_writable(self) -> None:
        """The card was read-only when the log was opened; once it takes writes again, write."""
        if self._inspect_only:
            raise StorageError(READ_ONLY, f"{self.path} was opened read-only")
        if medium_read_only(self.path):
            raise StorageError(READ_ONLY, notice(READ_ONLY))
        db, fault = open_log(self.path)
        if fault:
            db.close()
            raise StorageError(fault, notice(fault))
        self.db.close()
        self.db, self.read_only = db, False

    def _keep_retrying(self) -> None:
        """A thread that tries the outbox again every few seconds until it is empty."""
        with self.lock:
            if self._retrier is not None and self._retrier.is_alive():
                return
            self._retrier = threading.Thread(target=self._retry_loop, name="log-retry", daemon=True)
            self._retrier.start()

    def _retry_loop(self) -> None:
        while self._outbox and not self._closing.wait(RETRY_SECONDS):
            try:
                self.flush()
            except Exception:
                log.exception("retrying the log's writes failed")
                return

    def _apply(self, op: tuple) -> None:
        what, game_id, *rest = op
        if what == "entry":
            seq, kind, text, at = rest
            last = self.db.execute(
                "SELECT seq, chain FROM entries WHERE game_id = ? ORDER BY seq DESC LIMIT 1",
                (game_id,),
            ).fetchone()
            before, prev = (last[0], last[1]) if last else (0, "")
            if before + 1 != seq:
                raise LogError(f"game {game_id}: entry {seq} follows entry {before}")
            if prev is None:  # rows copied in without their links: chain them as they stand
                prev = links(self.db, game_id)[-1]
            self.db.execute(
                "INSERT INTO entries (game_id, seq, kind, payload, at, chain) "
                "VALUES (?, ?, ?, ?, ?, ?)",
                (game_id, seq, kind, text, at, chain_link(prev, seq, kind, text)),
            )
        elif what == "status":
            status, finished, result = rest
            self.db.execute(
                "UPDATE games SET status = ?, finished = ?, result = ? WHERE id = ?",
                (status, finished, result, game_id),
            )
        elif what == "timer":
            key, remaining, paused = rest
            self.db.execute(
                "INSERT INTO timers (game_id, key, remaining, paused) VALUES (?, ?, ?, ?) "
                "ON CONFLICT (game_id) DO UPDATE SET key = excluded.key, "
                "remaining = excluded.remaining, paused = excluded.paused",
                (game_id, key, remaining, int(paused)),
            )
        elif what == "aside":
            reason, at = rest
            self.db.execute(
                "INSERT OR IGNORE INTO set_aside (game_id, reason, at) VALUES (?, ?, ?)",
                (game_id, reason, at),
            )


def links(db: sqlite3.Connection, game_id: int) -> list[str]:
    """A game's hash chain computed from its rows as they stand ("" before the first)."""
    rows = db.execute(
        "SELECT seq, kind, payload FROM entries WHERE game_id = ? ORDER BY seq", (game_id,)
    )
    out = [""]
    for seq, kind, text in rows:
        out.append(chain_link(out[-1], seq, kind, text))
    return out
