"""Putting a backup in place of the log, and setting a log aside; both refuse while the app
has the log open, and neither deletes anything: what is replaced moves to `set-aside/`."""

from __future__ import annotations

import fcntl
import os
import shutil
from datetime import UTC, datetime
from pathlib import Path

from companion.errors import LogError, UsageError
from companion.store.backups import Backups
from companion.store.copies import STAMP, copy_into, describe, read_only, refuse_link, sync_dir


def set_aside(log_path: Path) -> Path | None:
    """Move the log, its WAL and its backups into `set-aside/<time>/` (kept, never deleted),
    so the next start makes a fresh log. Returns that folder, or None if there was nothing."""
    log_path = Path(log_path)
    with _not_in_use(log_path):
        return _move_aside(log_path)


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
        src = read_only(chosen.path)
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
        refuse_link(log_path.parent / "set-aside")
        stamp = datetime.now(UTC)
        dest = log_path.parent / "set-aside" / f"{stamp.strftime(STAMP)}-{stamp.microsecond:06d}Z"
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
    sync_dir(log_path.parent)
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
