"""Rotating copies of the game log, and the check that the log still holds what they hold.

SD cards lose data in ways SQLite cannot see: a flipped byte in the write-ahead file makes
SQLite drop every later commit, a file cut to nothing or another file's WAL beside it
replaces the history, and `quick_check` still says "ok". So the log is copied with SQLite's
online backup API after each finished game and every few minutes of play, and on every open
the newest copy's games are looked for in the log: each game, and each game's last entry by
its hash-chain link (which vouches for every entry before it). A log that lost anything a
copy holds is refused, untouched, and a restore is offered (`companion restore`).
"""

from __future__ import annotations

import fcntl
import logging
import os
import sqlite3
import threading
import time
from datetime import UTC, datetime
from pathlib import Path

from companion.errors import LogError, LogLost
from companion.store.copies import (
    STAMP,
    BackupInfo,
    copy_into,
    count_games,
    count_rows,
    describe,
    made,
    missing_from,
    refuse_link,
)

log = logging.getLogger(__name__)

KEEP = 6  # copies kept; older ones are deleted as new ones are made
PLAY_INTERVAL = 180.0  # seconds of play between copies


class Backups:
    """The copies of one log, kept in `backups/` beside it."""

    def __init__(self, log_path: Path) -> None:
        self.log_path = Path(log_path)
        self.dir = self.log_path.parent / "backups"
        # games-<number>-<UTC time>Z.sqlite3: ordered by number, since a Pi without network
        # has no trustworthy clock
        self.pattern = f"{self.log_path.stem}-{'[0-9]' * 8}-*Z.sqlite3"
        self._last_made = time.monotonic()
        self._held: int | None = None
        self._newest: BackupInfo | None = None
        self._making = threading.Lock()  # one copy at a time
        self._state = threading.Lock()  # guards the two events below together
        self._wanted, self._idle = threading.Event(), threading.Event()
        self._idle.set()
        self._worker: threading.Thread | None = None

    # in use ---------------------------------------------------------------------------
    def hold(self) -> None:
        """Mark the log as in use (a shared lock on its folder) so that a restore or a set
        aside from another process refuses instead of pulling it away."""
        if self._held is None:
            self._held = os.open(self.log_path.parent, os.O_RDONLY)
            fcntl.flock(self._held, fcntl.LOCK_SH)

    def release(self) -> None:
        if self._held is not None:
            os.close(self._held)  # drops the lock
            self._held = None

    # reading ----------------------------------------------------------------------------
    def list(self) -> list[BackupInfo]:
        """Sound copies, newest first (a copy that fails its own checks is skipped)."""
        return list(self._sound())

    def newest(self) -> BackupInfo | None:
        """The newest copy that opens as a log of ours. Looked up once (without a full page
        check, which costs as much as the log's own), then known from the copies made."""
        if self._newest is None:
            self._newest = next(self._sound(thorough=False), None)
        return self._newest

    def _sound(self, thorough: bool = True):
        for path in self.paths()[::-1]:
            try:
                yield describe(path, thorough)
            except LogError:
                continue

    # checks on open -----------------------------------------------------------------------
    def refuse_if_log_lost(self, path: Path) -> None:
        """Before an empty or missing log is replaced by a new one: refuse if it had history."""
        wal = Path(f"{path}-wal")
        newest = self.newest()
        if wal.exists() and wal.stat().st_size > 0:
            raise LogLost(
                f"{path} is empty but its write-ahead file {wal.name} holds data: the log was "
                "cut off. Nothing was changed."
            )
        if newest is not None and newest.games:
            raise LogLost(
                f"{path} is missing or empty, but the backup from {newest.made} holds "
                f"{count_games(newest.games)}. Nothing was changed."
            )

    def refuse_if_entries_lost(self, db: sqlite3.Connection) -> None:
        newest, lost = self.newest(), None
        while newest is not None and lost is None:
            try:
                lost = missing_from(db, newest.path)
            except LogError:  # that copy turned out damaged: the next older one speaks
                older = (c for c in self._sound() if c.path.name < newest.path.name)
                newest = self._newest = next(older, None)
        if lost:
            more = f" (and {len(lost) - 3} more)" if len(lost) > 3 else ""
            raise LogLost(
                f"{self.log_path} has lost what its backup from {newest.made} holds: "
                f"{'; '.join(lost[:3])}{more}. Nothing was changed."
            )

    # making copies ------------------------------------------------------------------------
    def behind(self, db: sqlite3.Connection) -> bool:
        """Whether the log holds more than its newest copy (or has games and no copy)."""
        games, entries = count_rows(db)
        newest = self.newest()
        return bool(games) and (
            newest is None or (newest.games, newest.entries) != (games, entries)
        )

    def catch_up(self, db: sqlite3.Connection) -> None:
        """On close: wait for a copy under way, then copy the log if it is still ahead."""
        self.stop()
        if self.behind(db):
            self._quietly(lambda: self.make(db))

    def during_play(self) -> None:
        if time.monotonic() - self._last_made >= PLAY_INTERVAL:
            self.soon()

    def soon(self) -> None:
        """Have the log copied by a worker thread with its own read connection: on an SD
        card a big log takes long enough to copy that the screen would stall."""
        self._last_made = time.monotonic()
        with self._state:
            if self._worker is None:
                self._worker = threading.Thread(target=self._work, name="log-backup", daemon=True)
                self._worker.start()
            self._idle.clear()
            self._wanted.set()

    def wait(self, timeout: float = 60.0) -> bool:
        """Block until no copy is asked for or under way (True), or the time is up."""
        return self._idle.wait(timeout)

    def stop(self) -> None:
        """Let a copy under way finish, then end the worker."""
        worker = self._worker
        if worker is None:
            return
        self.wait()
        with self._state:
            self._worker = None
            self._wanted.set()  # wakes the worker, which sees it is no longer wanted
        worker.join(timeout=10)

    def _work(self) -> None:
        me = threading.current_thread()
        while True:
            self._wanted.wait()
            self._wanted.clear()
            if self._worker is not me:
                return
            self._quietly(self._make_from_file)
            with self._state:
                if not self._wanted.is_set():
                    self._idle.set()

    def _make_from_file(self) -> None:
        src = sqlite3.connect(f"file:{self.log_path}?mode=ro", uri=True, isolation_level=None)
        try:
            self.make(src)
        finally:
            src.close()

    def _quietly(self, make) -> None:
        """A copy that cannot be made (a full card) must never stop the game in play."""
        try:
            make()
        except (OSError, sqlite3.Error) as exc:
            self._last_made = time.monotonic()  # try again after the next interval
            log.warning("no backup of %s made: %s", self.log_path, exc)

    def make(self, db: sqlite3.Connection) -> Path:
        """Copy the live log (online backup API) to a new file, then drop the oldest copies."""
        with self._making:
            refuse_link(self.dir)
            self.dir.mkdir(parents=True, exist_ok=True)
            held = self.paths()
            number = int(held[-1].name.split("-")[-2]) + 1 if held else 1
            stamp = datetime.now(UTC).strftime(STAMP)
            final = self.dir / f"{self.log_path.stem}-{number:08d}-{stamp}Z.sqlite3"
            for pattern in ("*.part", "*.part-journal"):  # a copy cut off by a power cut
                for stale in self.dir.glob(f"{self.log_path.stem}-{pattern}"):
                    stale.unlink(missing_ok=True)
            counts = copy_into(db, final)
            self._newest = BackupInfo(final, made(final), *counts)
            self._last_made = time.monotonic()
            for old in [*held, final][:-KEEP]:
                old.unlink(missing_ok=True)
            return final

    def paths(self) -> list[Path]:
        """Every copy's file, oldest first."""
        return sorted(self.dir.glob(self.pattern))
