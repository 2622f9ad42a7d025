"""After a crash or a pulled plug the game comes back at the same phase, with the clock
showing what it showed (at most one snapshot interval more: time is given back, never taken).
"""

from __future__ import annotations

import importlib.util
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from companion.clock import FakeClock
from companion.cues import TimeWarning
from companion.session import TIMER_SAVE_INTERVAL
from companion.store import GameLog

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
SCRIPT = HERE / "countdown_game.py"
_spec = importlib.util.spec_from_file_location("pi_countdown_game", SCRIPT)
countdown = sys.modules[_spec.name] = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(countdown)


def run_for(session, clock: FakeClock, seconds: float, every: float = 0.1) -> list:
    """Let the UI poll the session for `seconds` of fake time; the cues it got."""
    cues, left = [], seconds
    while left > 1e-9:
        step = min(every, left)
        clock.advance(step)
        left -= step
        cues += session.poll()
    return cues


def after_crash(path: Path, clock: FakeClock):
    """What a restarted app sees: a new connection to the log, a new monotonic clock."""
    log = GameLog(path)
    return log, countdown.open_session(log, clock=clock)


def test_resumes_the_same_phase_with_the_time_it_had(tmp_path):
    path = tmp_path / "games.sqlite3"
    clock = FakeClock(1000.0)
    session = countdown.open_session(GameLog(path), clock=clock)
    run_for(session, clock, 30.0 + 12.34)  # plan expired, 12.34 s into "bid" (20 s)
    left = session.timer.remaining()
    assert countdown.GAME.timer(session.state).key == "1:bid"
    # A new boot: the monotonic clock starts anywhere; the time the box was off is not lost.
    _, resumed = after_crash(path, FakeClock(3.0))
    assert countdown.GAME.timer(resumed.state).key == "1:bid"
    assert resumed.timer.running
    assert left <= resumed.timer.remaining() <= left + TIMER_SAVE_INTERVAL


@settings(max_examples=25, deadline=None)
@given(
    polls=st.lists(st.floats(0.01, 0.5), min_size=1, max_size=120),
    pause_at=st.one_of(st.none(), st.integers(0, 119)),
)
def test_restored_time_is_never_less_and_at_most_one_snapshot_more(
    tmp_path_factory, polls, pause_at
):
    path = tmp_path_factory.mktemp("log") / "games.sqlite3"
    clock = FakeClock(50.0)
    session = countdown.open_session(GameLog(path), clock=clock)
    for i, gap in enumerate(polls):
        clock.advance(gap)
        session.poll()
        if i == pause_at:
            session.pause_timer()
    key = countdown.GAME.timer(session.state).key
    left, paused = session.timer.remaining(), session.timer.paused
    _, resumed = after_crash(path, FakeClock(0.0))
    assert countdown.GAME.timer(resumed.state).key == key
    assert resumed.timer.paused == paused
    restored = resumed.timer.remaining()
    if paused:
        assert restored == left  # a paused clock is saved the moment it stops
    else:
        assert left <= restored <= left + TIMER_SAVE_INTERVAL + max(polls)


def test_warnings_already_given_are_not_given_again(tmp_path):
    path = tmp_path / "games.sqlite3"
    clock = FakeClock()
    session = countdown.open_session(GameLog(path), clock=clock)
    cues = run_for(session, clock, 22.5)  # 7.5 s left: the 10 s warning was given
    assert TimeWarning(10) in cues
    resumed_clock = FakeClock()
    _, resumed = after_crash(path, resumed_clock)
    later = run_for(resumed, resumed_clock, 10.0)
    warnings = [c.seconds_left for c in later if isinstance(c, TimeWarning)]
    assert warnings == [5, 4, 3, 2, 1]
    assert countdown.GAME.timer(resumed.state).key == "1:bid"  # and "plan" expired once


def test_a_paused_clock_stays_paused_across_a_restart(tmp_path):
    path = tmp_path / "games.sqlite3"
    clock = FakeClock()
    session = countdown.open_session(GameLog(path), clock=clock)
    run_for(session, clock, 8.6)
    session.pause_timer()
    left = session.timer.remaining()
    resumed_clock = FakeClock()
    _, resumed = after_crash(path, resumed_clock)
    run_for(resumed, resumed_clock, 60.0)
    assert resumed.timer.paused and resumed.timer.remaining() == left
    resumed.resume_timer()
    run_for(resumed, resumed_clock, 1.0)
    assert abs(resumed.timer.remaining() - (left - 1.0)) < 1e-9


def test_killed_mid_countdown_resumes_within_a_second(tmp_path):
    """The real thing: the countdown runs on the monotonic clock in another process,
    which gets SIGKILL; a fresh process resumes from the log."""
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    cmd = [sys.executable, str(SCRIPT), str(tmp_path)]
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, text=True, env=env)
    try:
        last = None
        for line in proc.stdout:  # ~2.5 s of play, polled ten times a second
            key, left = line.split()
            last = (key, float(left), time.monotonic())
            if last[1] <= 27.5:
                break
        os.kill(proc.pid, signal.SIGKILL)
        killed_at = time.monotonic()
    finally:
        proc.kill()
        proc.wait(timeout=30)
    key, shown, shown_at = last
    at_kill = shown - (killed_at - shown_at)  # what the clock said when the plug was pulled
    out = subprocess.run(
        [*cmd, "--report"], capture_output=True, text=True, env=env, timeout=60, check=True
    )
    resumed_key, restored = out.stdout.split()
    assert resumed_key == key == "0:plan"
    restored = float(restored)
    assert at_kill - 0.05 <= restored <= shown + TIMER_SAVE_INTERVAL + countdown.POLL_EVERY


def _laser_into_planning(log: GameLog, clock: FakeClock):
    from companion.catalogue import load
    from companion.game import GameConfig
    from companion.session import Session

    game = load("laser")
    session = Session.start(game, log, GameConfig(players=("Anna", "Ben", "Chloe")), clock=clock)
    while game.timer(session.state) is None:
        session.submit(game.legal_actions(session.state)[0])  # reveal the cards
    return game, session


def test_laser_planning_clock_survives_a_crash_and_expires_the_same(tmp_path):
    """The real Laser rules: killed 11.75 s into the 30 s planning countdown, resumed, run
    out; the game moves on exactly as it does without the crash."""
    straight_clock = FakeClock()
    game, straight = _laser_into_planning(GameLog(tmp_path / "straight.sqlite3"), straight_clock)
    key = game.timer(straight.state).key
    assert key.startswith("laser:planning:")
    run_for(straight, straight_clock, 40.0)

    path = tmp_path / "crashed.sqlite3"
    clock = FakeClock()
    game, session = _laser_into_planning(GameLog(path), clock)
    run_for(session, clock, 11.75)
    left = session.timer.remaining()

    from companion.catalogue import load
    from companion.session import Session

    log = GameLog(path)
    new_clock = FakeClock(7.0)
    resumed = Session.resume(load("laser"), log, log.unfinished().id, clock=new_clock)
    assert game.timer(resumed.state).key == key
    assert left <= resumed.timer.remaining() <= left + TIMER_SAVE_INTERVAL
    run_for(resumed, new_clock, 40.0 - 11.75)
    assert resumed.state == straight.state
    expired = [
        e.payload
        for e in log.entries(resumed.game_id)
        if e.payload and e.payload["type"] == "core.TimerExpired"
    ]
    assert expired == [{"type": "core.TimerExpired", "key": key}]  # once, and only once
