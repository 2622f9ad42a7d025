"""A flickering beam and a babbling chute board through the real runtime and the simulated
table (mock pins, a chute board on a pty): more balls than can pass are flagged, ignored
until the sensor calms, shown, and never fill the memory (issue 28, item 6)."""

from __future__ import annotations

import time

import pytest

from companion.events import BallPassed, Event
from companion.game import GameConfig
from companion.games.color_milk import GAME
from companion.games.color_milk.events import Predict
from companion.runtime import MAX_QUEUED, Runtime
from companion.session import Session
from companion.store import GameLog
from hardware.rate_guard import MOST, WITHIN, RateGuard
from tests.faults.test_storage import wait_for


class FakeClock:
    def __init__(self) -> None:
        self.t = 100.0

    def now(self) -> float:
        return self.t


def test_the_guard_takes_a_round_and_an_extra_flags_a_flood_and_calms():
    clock, said = FakeClock(), []
    guard = RateGuard("beam", clock=clock, on_change=said.append)
    for _ in range(5):  # a round's five, 80 ms apart (the fastest a mill lets them out)
        assert guard.admit()
        clock.t += 0.08
    clock.t += 1.0
    for _ in range(5):  # the next round soon after, and nothing is flagged
        assert guard.admit()
        clock.t += 0.08
    assert guard.status() is None and said == []
    taken = sum(guard.admit() for _ in range(50) if not (clock.__setattr__("t", clock.t + 0.04)))
    assert taken == 0 and said[0].startswith("FAULTY") and guard.faulty
    clock.t += WITHIN + 0.1  # quiet: calm by itself
    assert not guard.faulty and said[-1] is None
    assert guard.admit()


@pytest.fixture
def table_runtime(tmp_path):
    rt = Runtime()
    log = GameLog(tmp_path / "games.sqlite3")
    table = rt.open_table(simulate=True)
    session = Session.start(GAME, log, GameConfig(("Anna", "Ben")))
    rt.play(session)
    for name in ("Anna", "Ben"):
        rt.submit(Predict(name, ("blue",)))
    yield rt, table, session
    rt.close()
    log.close()


def test_a_beam_flickering_at_25_hz_is_flagged_and_ignored_until_it_calms(table_runtime):
    rt, table, session = table_runtime
    faults, passed = [], []
    rt.subscribe(
        on_sensor=lambda part, why: faults.append((part, why)),
        on_event=lambda e: passed.append(e) if isinstance(e, BallPassed) else None,
    )
    pin = table.pin_factory.pin(table.pins.beam.pin)
    for _ in range(50):  # two seconds of sunlight through a loose cover
        pin.drive_low()
        time.sleep(0.02)
        pin.drive_high()
        time.sleep(0.02)
    assert rt.drain()
    assert len(passed) <= MOST  # not 50 balls: what came before it was flagged
    assert session.state.passed <= MOST
    assert faults and faults[0][0] == "beam" and faults[0][1].startswith("FAULTY")
    assert table.status["beam"].startswith("FAULTY") and "beam" in rt.sensor_faults
    time.sleep(WITHIN + 0.2)  # it calms
    assert not table.status["beam"].startswith("FAULTY")
    assert rt.hands.drop_ball("blue").wait(5) and rt.drain()
    assert wait_for(lambda: ("beam", None) in faults)
    assert "beam" not in rt.sensor_faults and len(passed) <= MOST + 1


def test_a_babbling_chute_board_is_flagged_and_its_lines_never_pile_up(table_runtime):
    rt, table, _session = table_runtime
    for _ in range(2000):  # the board sends readings as fast as its line goes
        rt.simulated.board.ball("pink")
    assert wait_for(lambda: table.status["serial"].startswith("FAULTY"), 20)
    assert len(table.sensed) <= MOST  # what it says is ignored, and nothing piles up
    assert rt._queue.qsize() <= MAX_QUEUED


def test_the_runtime_queue_is_bounded_whatever_floods_it(tmp_path):
    rt = Runtime(keep_time=False)
    log = GameLog(tmp_path / "games.sqlite3")
    session = Session.start(GAME, log, GameConfig(("Anna", "Ben")))
    rt.play(session)
    with rt._lock:  # the engine is busy meanwhile: nothing is taken off the queue
        for _ in range(10 * MAX_QUEUED):
            rt.post(Event())
        # (the engine may hold one reading already, waiting for the lock)
        assert rt._queue.qsize() == MAX_QUEUED and rt.dropped >= 9 * MAX_QUEUED - 1
    assert rt.drain()
    rt.close()
    log.close()
