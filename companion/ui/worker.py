"""Slow work off Kivy's thread: one question at a time on a worker thread, the answer back on
Kivy's thread, and an answer to a question nobody asks any more dropped.

    worker = Worker("referee")
    worker.ask(key, lambda: solve(pos), on_answer)   # returns at once
    worker.asking(key)                               # True until the answer has arrived
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Hashable
from typing import Any

from kivy.clock import Clock

log = logging.getLogger(__name__)


class Worker:
    def __init__(self, name: str) -> None:
        self.name = name
        self._asked: Hashable | None = None
        self._lock = threading.Lock()
        self._idle = threading.Event()
        self._idle.set()

    def ask(self, key: Hashable, job: Callable[[], Any], on_answer: Callable[[Any], None]) -> None:
        """Run `job()` on a thread; `on_answer(result)` runs on Kivy's thread if `key` is
        still the latest question by then. A job that raises answers with its exception."""
        with self._lock:
            if self._asked == key and not self._idle.is_set():
                return  # already being worked on
            self._asked = key
            self._idle.clear()

        def work() -> None:
            try:
                result = job()
            except Exception as exc:  # shown to people as the answer, never lost silently
                log.exception("%s: %r failed", self.name, key)
                result = exc
            Clock.schedule_once(lambda _dt: self._answer(key, result, on_answer))

        threading.Thread(target=work, name=self.name, daemon=True).start()

    def _answer(self, key: Hashable, result: Any, on_answer: Callable[[Any], None]) -> None:
        with self._lock:
            if key != self._asked:
                return  # stale: the screen has moved on to another question
            self._asked = None
            self._idle.set()
        on_answer(result)

    def asking(self, key: Hashable) -> bool:
        return self._asked == key

    def forget(self) -> None:
        """Nobody wants the pending answer any more (the screen is closing)."""
        with self._lock:
            self._asked = None
            self._idle.set()
