"""A small SD card as the data directory, that can fill up, be freed, or be read-only.

Where the machine allows it (root, tmpfs), the card is a real file system of its own: a
tmpfs of 2 MB, filled with a file until the kernel says ENOSPC, remounted read-only. Else
the log's SQLite connections are made through a connection class that fails every write
the way SQLite does on a full or read-only card (an injected failing writer).
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
import subprocess
import uuid
from pathlib import Path

import pytest

SIZE = "2m"


class Card:
    def __init__(self, path: Path, mounted: bool) -> None:
        self.path, self.mounted = path, mounted
        self._filler = None
        self.fault: str | None = None  # the injected writer's fault, when not mounted

    def __repr__(self) -> str:
        return f"<Card {self.path} {'tmpfs' if self.mounted else 'injected'} {self.fault or 'ok'}>"

    def fill(self) -> None:
        """No byte left: the next write that needs space fails."""
        if not self.mounted:
            self.fault = "full"
            return
        self._filler = open(self.path / f"filler-{uuid.uuid4().hex}", "wb", buffering=0)  # noqa: SIM115
        with contextlib.suppress(OSError):
            while True:
                self._filler.write(b"\0" * 65536)
        with contextlib.suppress(OSError):
            while True:
                self._filler.write(b"\0" * 512)

    def free(self) -> None:
        self.fault = None
        if self._filler is not None:
            name = self._filler.name
            self._filler.close()
            os.unlink(name)
            self._filler = None

    def read_only(self, on: bool = True) -> None:
        """Remount read-only (nothing may hold a file open for writing on it then)."""
        if not self.mounted:
            self.fault = "read-only" if on else None
            return
        flag = "ro" if on else "rw"
        subprocess.run(["mount", "-o", f"remount,{flag}", str(self.path)], check=True)


class _FailingConnection(sqlite3.Connection):
    """The injected writer: every statement that writes fails as SQLite fails on the card."""

    card: Card | None = None

    def execute(self, sql, *args):
        fault = self.card.fault if self.card else None
        if fault and sql.lstrip().split(" ", 1)[0].upper() in _WRITES:
            code, text = (
                (13, "database or disk is full")
                if fault == "full"
                else (
                    8,
                    "attempt to write a readonly database",
                )
            )
            exc = sqlite3.OperationalError(text)
            exc.sqlite_errorcode = code
            raise exc
        return super().execute(sql, *args)


_WRITES = {"INSERT", "UPDATE", "DELETE", "BEGIN", "CREATE", "ALTER"}


def _can_mount(path: Path) -> bool:
    if os.geteuid() != 0 or os.environ.get("COMPANION_FAULTS_INJECTED"):
        return False
    done = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", f"size={SIZE}", "tmpfs", str(path)],
        capture_output=True,
    )
    return done.returncode == 0


@pytest.fixture
def card(tmp_path, monkeypatch):
    path = tmp_path / "card"
    path.mkdir()
    mounted = _can_mount(path)
    c = Card(path, mounted)
    if not mounted:
        _FailingConnection.card = c
        real = sqlite3.connect

        def connect(*args, **kw):
            kw.setdefault("factory", _FailingConnection)
            return real(*args, **kw)

        monkeypatch.setattr(sqlite3, "connect", connect)
    try:
        yield c
    finally:
        c.free()
        if mounted:
            with contextlib.suppress(subprocess.CalledProcessError):
                c.read_only(False)
            subprocess.run(["umount", "-l", str(path)], check=False)
        _FailingConnection.card = None
