"""Slow work off Kivy's thread: answers come back on Kivy's thread, stale ones are dropped."""

from __future__ import annotations

import threading
import time

from companion.ui.render import pump
from companion.worker import Worker


def run_clock_until(done, seconds=5):
    deadline = time.monotonic() + seconds
    while not done():
        assert time.monotonic() < deadline
        pump(1)


def test_an_answer_to_a_question_nobody_asks_any_more_is_dropped():
    worker = Worker("test")
    release_a, started_a = threading.Event(), threading.Event()
    answers = []

    def slow_a():
        started_a.set()
        assert release_a.wait(5)
        return "a"

    worker.ask("a", slow_a, lambda r: answers.append((r, threading.current_thread())))
    assert started_a.wait(5)
    worker.ask("b", lambda: "b", lambda r: answers.append((r, threading.current_thread())))
    run_clock_until(lambda: answers)
    release_a.set()
    assert worker.asking("b") is False
    for t in threading.enumerate():  # a's thread ends after scheduling its late answer
        if t.name == "test":
            t.join(5)
    pump(2)  # which the clock then delivers (and the worker drops)
    assert answers == [("b", threading.main_thread())]


def test_a_failing_job_answers_with_its_error():
    worker = Worker("test")
    got = []
    worker.ask("k", lambda: 1 / 0, got.append)
    run_clock_until(lambda: got)
    assert isinstance(got[0], ZeroDivisionError) and not worker.asking("k")


def test_a_process_worker_answers_from_another_process_on_kivy_s_thread():
    import os

    worker = Worker("test-process", process=True)
    got = []
    try:
        worker.ask("pid", os.getpid, lambda r: got.append((r, threading.current_thread())))
        run_clock_until(lambda: got, seconds=30)
    finally:
        worker.close()
    pid, thread = got[0]
    assert pid != os.getpid() and thread is threading.main_thread()
