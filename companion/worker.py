"""Slow work off Kivy's thread: the answer comes back on Kivy's thread, and an answer to a
question nobody asks any more is dropped.

    worker = Worker("referee")
    worker.ask(key, lambda: solve(pos), on_answer)   # returns at once
    worker.asking(key)                               # True until the answer has arrived

`Worker(name, process=True)` runs each job in a separate process instead of a thread: a
search that spends long stretches inside C code holds Python's GIL and would still stall the
screen for up to a second from a thread (benchmarks/ui_frames.py). Its jobs must be picklable
(a module-level function, or functools.partial of one).
"""

from __future__ import annotations

import logging
import multiprocessing
import threading
from collections.abc import Callable, Hashable
from typing import Any

from kivy.clock import Clock

log = logging.getLogger(__name__)


class Worker:
    def __init__(self, name: str, process: bool = False) -> None:
        self.name = name
        self._process = process
        self._pool = None  # the worker process, started on the first question
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
            if self._process and self._pool is None:
                # a fresh interpreter, not a fork of this one (Kivy's window and threads)
                self._pool = multiprocessing.get_context("spawn").Pool(1)
            pool = self._pool

        def work() -> None:
            try:
                result = pool.apply_async(job).get() if pool is not None else job()
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
        """Nobody wants the pending answer any more."""
        with self._lock:
            self._asked = None
            self._idle.set()

    def close(self) -> None:
        """For good (the screen is closing): a worker process is stopped, mid-search or not."""
        self.forget()
        with self._lock:
            pool, self._pool, self._process = self._pool, None, False
        if pool is not None:
            pool.terminate()
