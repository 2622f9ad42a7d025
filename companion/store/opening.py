"""Opening a log file: refuse what is not ours or has lost history (leaving it byte for
byte as it was), make a new log where there is none, and connect for writing (WAL,
synchronous=FULL) or, on a card that takes no writes, for reading only."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from companion.errors import LogError, LogLost
from companion.storage import READ_ONLY, StorageError, fault_of
from companion.store.integrity import check_header, check_sound, wal_commits_dropped
from companion.store.schema import create, migrate, migrated_copy


def open_log(
    path: Path, backups=None, fault: str | None = None
) -> tuple[sqlite3.Connection, str | None]:
    """The connection and, if it is read-only, the storage fault that made it so (the
    card is read-only, or full or failing so that even opening it for writing fails)."""
    for own in (path, Path(f"{path}-wal"), Path(f"{path}-shm")):
        if own.is_symlink():
            raise LogError(
                f"{own} is a symbolic link; the game log is not opened through it. "
                "Choose the data folder with --data-dir instead; nothing was changed."
            )
    if not (path.exists() and path.stat().st_size > 0):
        if fault:
            raise StorageError(
                fault,
                f"{path} does not exist and cannot be made here: the card is read-only. "
                "Change the card or choose another --data-dir; nothing was changed.",
            )
        if backups is not None:
            backups.refuse_if_log_lost(path)
        try:
            create(path)
        except (OSError, sqlite3.OperationalError) as exc:
            if (kind := fault_of(exc)) is None:
                raise
            raise StorageError(
                kind, f"no game log can be made at {path} ({exc}); nothing was changed"
            ) from None
    inspect(path, backups, bool(fault))  # read-only: a file we refuse is left as it was
    if not fault:
        db = None
        try:
            db = connect(path)
            db.execute("PRAGMA journal_mode=WAL")
            db.execute("PRAGMA synchronous=FULL")
            db.execute("PRAGMA foreign_keys=ON")
            migrate(db)
            return db, None
        except sqlite3.DatabaseError as exc:
            if db is not None:
                db.close()
            if (fault := fault_of(exc)) is None:
                raise LogError(
                    f"{path} cannot be read as a game log ({exc}); it was left untouched."
                ) from None
            # The card takes no writes (full, failing): look at the log read-only.
    return migrated_copy(read_only_log(path)), fault


def inspect(path: Path, backups=None, read_only: bool = False) -> None:
    """Decide whether `path` is a sound game log of ours, through a read-only connection, so
    that a file we refuse is left byte for byte as it was. Raises LogError."""
    check_header(path)
    try:
        db = read_only_log(path)
        try:
            if check_sound(db, path) == "empty":
                if read_only:
                    raise StorageError(READ_ONLY, f"{path} is empty and the card takes no writes")
                db.close()
                # Holds nothing at all (e.g. made by an older build cut off while creating
                # it): replacing it loses nothing.
                for leftover in (Path(f"{path}-wal"), Path(f"{path}-shm")):
                    leftover.unlink(missing_ok=True)
                create(path)
                return
            if backups is not None:
                backups.refuse_if_entries_lost(db)
            if (dropped := wal_commits_dropped(path)) > 1:
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


def read_only_log(path: Path) -> sqlite3.Connection:
    """A connection that never writes. On a card that takes no writes a log in WAL mode
    cannot be opened as usual (SQLite would make its shared-memory file): with no WAL beside
    it, nothing is waiting in one, so the file is read as it stands (immutable)."""
    db = sqlite3.connect(
        f"file:{path}?mode=ro", uri=True, isolation_level=None, check_same_thread=False
    )
    try:
        db.execute("SELECT count(*) FROM sqlite_master").fetchone()
        return db
    except sqlite3.OperationalError as exc:
        db.close()
        wal = Path(f"{path}-wal")
        if fault_of(exc) is None or (wal.exists() and wal.stat().st_size > 0):
            raise
    return sqlite3.connect(
        f"file:{path}?mode=ro&immutable=1", uri=True, isolation_level=None, check_same_thread=False
    )


def connect(path: Path) -> sqlite3.Connection:
    # The table runtime writes from its engine thread, the screen from its own; `transaction`
    # keeps their writes apart.
    return sqlite3.connect(
        f"file:{path}?mode=rw", uri=True, isolation_level=None, check_same_thread=False
    )
