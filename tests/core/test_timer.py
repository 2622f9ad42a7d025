import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.clock import FakeClock
from companion.cues import TimeWarning
from companion.timer import EXPIRED, PhaseTimer


def fired(timer):
    return [e.seconds_left if isinstance(e, TimeWarning) else "expired" for e in timer.poll()]


def test_warnings_then_expiry_fire_once_each_in_order():
    clock = FakeClock()
    t = PhaseTimer(clock, 30, warnings=(10, 5, 3)).start()
    assert fired(t) == []
    clock.advance(20)
    assert fired(t) == [10]
    assert fired(t) == []
    clock.advance(5)
    assert fired(t) == [5]
    clock.advance(5)
    assert fired(t) == [3, "expired"]
    clock.advance(100)
    assert fired(t) == []
    assert t.remaining() == 0


def test_rare_polling_catches_up_in_order():
    clock = FakeClock()
    t = PhaseTimer(clock, 30, warnings=(10, 5, 1)).start()
    clock.advance(31)
    assert fired(t) == [10, 5, 1, "expired"]


def test_pause_freezes_and_resume_continues_from_where_it_stopped():
    clock = FakeClock()
    t = PhaseTimer(clock, 30, warnings=(10,)).start()
    clock.advance(12)
    t.pause()
    clock.advance(500)
    assert t.remaining() == pytest.approx(18)
    assert fired(t) == []
    t.resume()
    clock.advance(8)
    assert fired(t) == [10]
    clock.advance(10)
    assert fired(t) == ["expired"]


def test_add_time_moves_the_deadline_and_rearms_warnings():
    clock = FakeClock()
    t = PhaseTimer(clock, 30, warnings=(10, 5)).start()
    clock.advance(21)
    assert fired(t) == [10]
    t.add_time(15)  # 24 s left: the 10 s warning must sound again later
    assert t.remaining() == pytest.approx(24)
    clock.advance(14)
    assert fired(t) == [10]
    clock.advance(10)
    assert fired(t) == [5, "expired"]


def test_start_with_remaining_skips_warnings_already_passed():
    clock = FakeClock()
    t = PhaseTimer(clock, 30, warnings=(10, 5)).start(remaining=7)
    clock.advance(3)
    assert fired(t) == [5]


def test_bad_duration_is_refused():
    with pytest.raises(ValueError):
        PhaseTimer(FakeClock(), 0)


@settings(max_examples=200, deadline=None)
@given(
    steps=st.lists(
        st.tuples(st.sampled_from(["poll", "pause", "resume"]), st.floats(0, 7)), max_size=40
    )
)
def test_irregular_polling_and_pausing_never_drifts(steps):
    """Whatever the polling pattern, each warning and the expiry fire exactly once, in
    order, and the time left is the duration minus the time spent running."""
    clock = FakeClock()
    t = PhaseTimer(clock, 30, warnings=(10, 5, 4, 3, 2, 1)).start()
    seen, running, spent = [], True, 0.0
    for action, dt in steps:
        clock.advance(dt)
        if running:
            spent += dt
        if action == "pause":
            t.pause()
            running = False
        elif action == "resume":
            t.resume()
            running = True
        seen += t.poll()
        assert t.remaining() == pytest.approx(max(0.0, 30 - spent), abs=1e-6)
    t.resume()
    clock.advance(60)
    seen += t.poll()
    warnings = [e.seconds_left for e in seen if e is not EXPIRED]
    assert warnings == [10, 5, 4, 3, 2, 1]
    assert seen[-1] is EXPIRED and seen.count(EXPIRED) == 1
