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
import shutil
import sqlite3
import threading
import time
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from companion.errors import LogError, UsageError
from companion.log_checks import check_header, check_sound

log = logging.getLogger(__name__)

KEEP = 6  # copies kept; older ones are deleted as new ones are made
PLAY_INTERVAL = 180.0  # seconds of play between copies
_STAMP = "%Y%m%dT%H%M%S"


class LogLost(LogError):
    """The log lacks what a backup or its own WAL holds (or is gone while backups exist)."""


@dataclass(frozen=True)
class BackupInfo:
    path: Path
    made: str  # local time, e.g. "2026-11-24 14:40"
    games: int
    entries: int

    def as_json(self) -> dict:
        return {
            "path": str(self.path),
            "made": self.made,
            "games": self.games,
            "entries": self.entries,
        }


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
        games, entries = _counts(db)
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
            self.dir.mkdir(parents=True, exist_ok=True)
            held = self.paths()
            number = int(held[-1].name.split("-")[-2]) + 1 if held else 1
            stamp = datetime.now(UTC).strftime(_STAMP)
            final = self.dir / f"{self.log_path.stem}-{number:08d}-{stamp}Z.sqlite3"
            for stale in self.dir.glob(f"{self.log_path.stem}-*.part"):
                stale.unlink(missing_ok=True)  # a copy cut off by a power cut
            counts = copy_into(db, final)
            self._newest = BackupInfo(final, _made(final), *counts)
            self._last_made = time.monotonic()
            for old in [*held, final][:-KEEP]:
                old.unlink(missing_ok=True)
            return final

    def paths(self) -> list[Path]:
        """Every copy's file, oldest first."""
        return sorted(self.dir.glob(self.pattern))


def copy_into(src: sqlite3.Connection, final: Path) -> tuple[int, int]:
    """A whole, synced copy at `final`, moved into place in one rename. Returns the copy's
    (games, entries)."""
    tmp = final.with_name(final.name + ".part")
    tmp.unlink(missing_ok=True)
    dst = sqlite3.connect(tmp, isolation_level=None)
    try:
        src.backup(dst)
        dst.execute("PRAGMA journal_mode=DELETE")  # one self-contained file, no WAL beside it
        counts = _counts(dst)
    finally:
        dst.close()
    with open(tmp, "rb") as f:
        os.fsync(f.fileno())
    os.replace(tmp, final)
    _sync_dir(final.parent)
    return counts


def describe(path: Path, thorough: bool = True) -> BackupInfo:
    """What a copy holds; LogError if it is not a sound game log (every page checked unless
    not `thorough`: then only its header, mark and tables)."""
    check_header(path)
    db = _read_only(path)
    try:
        if check_sound(db, path, quick_check=thorough) != "ok":
            raise LogError(f"{path} holds no game log")
        games, entries = _counts(db)
    except sqlite3.DatabaseError as exc:
        raise LogError(f"{path} cannot be read as a game log ({exc})") from None
    finally:
        db.close()
    return BackupInfo(path, _made(path), games, entries)


def missing_from(db: sqlite3.Connection, backup: Path) -> list[str]:
    """What the log behind `db` lacks of the copy at `backup`, one phrase per game."""
    copy = _read_only(backup)
    try:
        held = copy.execute("SELECT id, game, started FROM games ORDER BY id").fetchall()
        heads = {
            game_id: copy.execute(_HEAD, (game_id,)).fetchone() or (0, None)
            for game_id, _name, _started in held
        }
    except sqlite3.DatabaseError as exc:
        raise LogError(f"{backup} cannot be read ({exc})") from None
    finally:
        copy.close()
    have = {
        g: (name, started) for g, name, started in db.execute("SELECT id, game, started FROM games")
    }
    chained = any(row[1] == "chain" for row in db.execute("PRAGMA table_info(entries)"))
    lost = []
    for game_id, name, started in held:
        if have.get(game_id) != (name, started):
            lost.append(f"game #{game_id} ({name}, started {started}) is gone")
            continue
        count, link = heads[game_id]
        if not count:
            continue
        row = db.execute(
            "SELECT " + ("chain" if chained else "NULL") + " FROM entries "
            "WHERE game_id = ? AND seq = ?",
            (game_id, count),
        ).fetchone()
        if row is None:
            kept = db.execute(
                "SELECT count(*) FROM entries WHERE game_id = ? AND seq <= ?", (game_id, count)
            ).fetchone()[0]
            lost.append(f"game #{game_id} ({name}) lost {count - kept} of {count} entries")
        elif link and row[0] and row[0] != link:
            lost.append(f"game #{game_id} ({name}) no longer matches its backup")
    return lost


# a game's last entry and its chain link, found through the (game_id, seq) key
_HEAD = "SELECT seq, chain FROM entries WHERE game_id = ? ORDER BY seq DESC LIMIT 1"


def set_aside(log_path: Path) -> Path | None:
    """Move the log, its WAL and its backups into `set-aside/<time>/` (kept, never deleted),
    so the next start makes a fresh log. Returns that folder, or None if there was nothing."""
    log_path = Path(log_path)
    with _not_in_use(log_path):
        return _move_aside(log_path)


def _move_aside(log_path: Path, replacement: Path | None = None) -> Path | None:
    """Move the log, its WAL and its backups into a new `set-aside/<time>/` folder. With a
    `replacement`, that file takes the log's place in one rename, after the old log was
    linked into the folder and its WAL moved away; the backups move last. A power cut at any
    step leaves the old log or the new one at the log's name, with nothing lost."""
    copies = Backups(log_path)
    wal, shm = Path(f"{log_path}-wal"), Path(f"{log_path}-shm")
    backups = copies.paths()
    dest = None
    if log_path.exists() or wal.exists() or shm.exists() or backups:
        stamp = datetime.now(UTC)
        dest = log_path.parent / "set-aside" / f"{stamp.strftime(_STAMP)}-{stamp.microsecond:06d}Z"
        dest.mkdir(parents=True)
    if replacement is not None:
        if log_path.exists():
            _keep(log_path, dest / log_path.name)
        for p in (wal, shm):
            if p.exists():
                shutil.move(str(p), dest / p.name)
        os.replace(replacement, log_path)
    else:
        for p in (log_path, wal, shm):
            if p.exists():
                shutil.move(str(p), dest / p.name)
    _sync_dir(log_path.parent)
    for p in backups:
        (dest / "backups").mkdir(exist_ok=True)
        shutil.move(str(p), dest / "backups" / p.name)
    return dest


def _keep(path: Path, copy: Path) -> None:
    """`copy` holds the same bytes as `path` (a hard link where the file system has them)."""
    try:
        os.link(path, copy)
    except OSError:
        shutil.copy2(path, copy)
        with open(copy, "rb") as f:
            os.fsync(f.fileno())


def restore(log_path: Path, source: Path | None = None) -> dict:
    """Put a backup (the newest sound one unless `source` is given) in place of the log; the
    log it replaces is set aside first. Returns what was done, as JSON-ready values."""
    log_path = Path(log_path)
    if source is None:
        chosen = next(iter(Backups(log_path).list()), None)
        if chosen is None:
            raise LogError(f"no sound backup of {log_path} to restore")
    else:
        if not Path(source).is_file():
            raise UsageError(f"no such backup: {source}")
        try:
            chosen = describe(Path(source))
        except LogError as exc:
            raise UsageError(f"{source} cannot be restored: {exc}") from None
    log_path.parent.mkdir(parents=True, exist_ok=True)
    staged = log_path.with_name(log_path.name + ".restoring")
    with _not_in_use(log_path):
        src = _read_only(chosen.path)
        try:
            copy_into(src, staged)
        finally:
            src.close()
        aside = _move_aside(log_path, replacement=staged)
    return {
        "restored": str(log_path),
        "from": chosen.as_json(),
        "set_aside": str(aside) if aside else None,
    }


class _not_in_use:
    """Hold the log's folder exclusively, or refuse if the app has the log open."""

    def __init__(self, log_path: Path) -> None:
        self.folder = Path(log_path).parent

    def __enter__(self):
        self.fd = os.open(self.folder, os.O_RDONLY)
        try:
            fcntl.flock(self.fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(self.fd)
            raise LogError(
                f"the game log in {self.folder} is in use: stop the app first "
                "(sudo systemctl stop companion)"
            ) from None

    def __exit__(self, *exc):
        os.close(self.fd)


def _read_only(path: Path) -> sqlite3.Connection:
    # immutable: a copy is never written, and no -wal/-shm is made beside it
    return sqlite3.connect(f"file:{path}?mode=ro&immutable=1", uri=True, isolation_level=None)


def _counts(db: sqlite3.Connection) -> tuple[int, int]:
    games = db.execute("SELECT count(*) FROM games").fetchone()[0]
    entries = db.execute("SELECT count(*) FROM entries").fetchone()[0]
    return games, entries


def _made(path: Path) -> str:
    try:
        when = datetime.strptime(path.name.rsplit("-", 1)[1][:15], _STAMP)
    except ValueError:
        return path.name
    return when.replace(tzinfo=UTC).astimezone().strftime("%Y-%m-%d %H:%M")  # local, for people


def count_games(n: int) -> str:
    return f"{n} game" + "s" * (n != 1)


def _sync_dir(directory: Path) -> None:
    fd = os.open(directory, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)
