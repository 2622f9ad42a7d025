"""One write transaction at a time on a log's connection, shared by the engine's thread and
the screen's."""

from __future__ import annotations

import contextlib
import sqlite3
import threading


class transaction:
    writing = threading.RLock()  # one transaction at a time on a connection shared by threads

    def __init__(self, db: sqlite3.Connection) -> None:
        self.db = db

    def __enter__(self):
        self.writing.acquire()
        try:
            self.db.execute("BEGIN IMMEDIATE")
        except BaseException:
            self.writing.release()
            raise

    def __exit__(self, exc_type, *rest):
        try:
            if exc_type is None:
                try:
                    self.db.execute("COMMIT")
                except BaseException:
                    self._roll_back()
                    raise
            else:
                self._roll_back()
        finally:
            self.writing.release()

    def _roll_back(self) -> None:
        # SQLite may have rolled back already (a full disk, an I/O error): then there is
        # nothing to roll back, and the error that did it is the one worth raising.
        if self.db.in_transaction:
            with contextlib.suppress(sqlite3.Error):
                self.db.execute("ROLLBACK")
