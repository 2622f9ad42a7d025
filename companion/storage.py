"""When the card cannot be written: which fault it is, what to tell people, and who listens.

A full, read-only or failing SD card (or a log another program holds busy) is a state of the
table, not a crash: the game goes on in memory, the log keeps what it could not write and
tries again (companion.store), and every screen shows one notice until saving works again.
"""

from __future__ import annotations

import errno
import os
import sqlite3
import threading
from collections.abc import Callable
from pathlib import Path

from companion.errors import LogError

FULL, READ_ONLY, FAILING, BUSY = "full", "read-only", "failing", "busy"

# SQLite's primary result codes (the low byte of an extended code) that mean the medium or
# another writer, not our data: the write may work later.
_SQLITE_FAULTS = {13: FULL, 8: READ_ONLY, 10: FAILING, 14: FAILING, 3: READ_ONLY, 5: BUSY, 6: BUSY}
_OS_FAULTS = {
    errno.ENOSPC: FULL,
    errno.EDQUOT: FULL,
    errno.EFBIG: FULL,
    errno.EROFS: READ_ONLY,
    errno.EACCES: READ_ONLY,
    errno.EPERM: READ_ONLY,
    errno.EIO: FAILING,
}

RETRY_SECONDS = 2.0  # between attempts to write what is waiting

_WHY = {
    FULL: "The SD card is full",
    READ_ONLY: "The SD card is read-only",
    FAILING: "The SD card cannot be written",
    BUSY: "The game log is busy (another program is writing to it)",
}
_HELP = {
    FULL: "Free space or change the card",
    READ_ONLY: "Change the card",
    FAILING: "Change the card",
    BUSY: "It is tried again every few seconds",
}
SAVING_AGAIN = "Saving works again: every move is saved."


class StorageError(LogError):
    """The card cannot be written now (full, read-only, failing, busy). Nothing was lost;
    the message says what people can do. Never a reason to set a log aside."""

    def __init__(self, kind: str, message: str) -> None:
        super().__init__(message)
        self.kind = kind


def fault_of(exc: BaseException) -> str | None:
    """The kind of storage fault `exc` is, or None if it is something else (a bug, damage)."""
    if isinstance(exc, StorageError):
        return exc.kind
    if isinstance(exc, sqlite3.OperationalError):
        code = getattr(exc, "sqlite_errorcode", None)
        if code is not None:
            return _SQLITE_FAULTS.get(code & 0xFF)
        text = str(exc)
        for needle, kind in (
            ("disk is full", FULL),
            ("readonly", READ_ONLY),
            ("disk I/O", FAILING),
            ("locked", BUSY),
            ("unable to open", FAILING),
        ):
            if needle in text:
                return kind
        return None
    if isinstance(exc, OSError) and not isinstance(exc, LogError):
        return _OS_FAULTS.get(exc.errno)
    return None


def notice(kind: str, what: str = "the last move is not saved") -> str:
    """The one line people see while the fault lasts."""
    return f"{_WHY[kind]}: {what}. {_HELP[kind]}; nothing is lost so far."


def medium_read_only(path: Path) -> bool:
    """Whether the file system holding `path` is mounted read-only (or cannot be written)."""
    folder = Path(path)
    while not folder.exists() and folder != folder.parent:
        folder = folder.parent
    try:
        if os.statvfs(folder).f_flag & os.ST_RDONLY:
            return True
    except OSError:
        return False
    return not os.access(folder if folder.is_dir() else folder.parent, os.W_OK)


class StorageStatus:
    """The log's storage fault now (None: every write went through), and who wants to know.
    Listeners are called on the thread that saw the change, with the new notice or None."""

    def __init__(self) -> None:
        self.kind: str | None = None
        self.text: str | None = None
        self._listeners: list[Callable[[str | None], None]] = []
        self._lock = threading.Lock()

    def __repr__(self) -> str:
        return f"<StorageStatus {self.kind or 'ok'}>"

    def subscribe(self, listener: Callable[[str | None], None]) -> Callable[[], None]:
        with self._lock:
            self._listeners.append(listener)
        return lambda: self._unsubscribe(listener)

    def _unsubscribe(self, listener) -> None:
        with self._lock:
            if listener in self._listeners:
                self._listeners.remove(listener)

    def fail(self, kind: str, text: str | None = None) -> None:
        text = text or notice(kind)
        if (kind, text) == (self.kind, self.text):
            return
        self.kind, self.text = kind, text
        self._tell(text)

    def ok(self) -> None:
        if self.kind is None:
            return
        self.kind, self.text = None, None
        self._tell(None)

    def _tell(self, text: str | None) -> None:
        with self._lock:
            listeners = list(self._listeners)
        for listener in listeners:
            try:
                listener(text)
            except Exception:  # a screen gone wrong must not stop the log
                import logging

                logging.getLogger(__name__).exception("storage listener failed")
