"""Cue patterns reach the right pins at the right times (fake clock), pre-empt cleanly, and
respect brightness, volume and mute."""

from __future__ import annotations

import threading
import time

import pytest
from gpiozero.pins.mock import MockFactory, MockPWMPin
from hypothesis import given, settings
from hypothesis import strategies as st

from companion import cues
from companion.clock import FakeClock
from companion.settings import Settings
from hardware import patterns
from hardware.colours import LED_COLOURS
from hardware.pins import BuzzerPin, LedPins
from hardware.signals import Signals

LED = LedPins(red=17, green=27, blue=22)
BUZ = BuzzerPin(18)
FULL = Settings(brightness=1.0, volume=1.0)


def pins_of(factory):
    r, g, b, z = (factory.pin(n) for n in (17, 27, 22, 18))
    # red, green, blue duty; buzzer duty; the buzzer's frequency only while it sounds
    return lambda: (
        round(r.state, 4),
        round(g.state, 4),
        round(b.state, 4),
        round(z.state, 4),
        z.frequency if z.state else None,
    )


def changes(timeline, index):
    """One pin's history as (seconds since its previous change, state), like MockPin.states
    but on the fake clock, so the times are exact."""
    out, last_t, last = [], None, object()
    for t, snap in timeline:
        if snap[index] != last:
            out.append((0.0 if last_t is None else round(t - last_t, 6), snap[index]))
            last_t, last = t, snap[index]
    return out


@pytest.fixture
def rig(mock_factory, clock, recording_sleep):
    made = []

    def build(settings=FULL, gate=None, led=LED, buzzer=BUZ):
        snap = pins_of(mock_factory)
        sleep = recording_sleep(clock, snap, gate)
        s = Signals(
            led, buzzer, pin_factory=mock_factory, settings=settings, clock=clock, sleep=sleep
        )
        made.append(s)
        return s, sleep, snap

    yield build
    for s in made:
        s.close()


def test_phase_start_shows_the_colour_and_chirps(rig):
    sig, sleep, snap = rig()
    assert sig.cue(cues.PhaseStarted("planning", "ann", "green"))
    assert sig.wait_idle(2)
    tl = sleep.timeline
    assert [t for t, _ in tl] == [0.0, 0.08, 0.14]
    assert changes(tl, 1) == [(0.0, 1.0), (0.08, 0.0), (0.06, 1.0)]  # green: on, off, on
    assert changes(tl, 0) == [(0.0, 0.0)]  # red stays dark
    assert [s[4] for _, s in tl] == [880, None, 1319]  # rising chirp, a gap between
    assert snap() == (0.0, 1.0, 0.0, 0.0, None)  # then steady green, silent


def test_last_five_seconds_tick_higher_and_time_up_is_a_red_siren(rig):
    sig, sleep, snap = rig()
    sig.cue(cues.PhaseStarted("bids", None, "blue"))
    sig.wait_idle(2)
    tones = []
    for s in (5, 4, 3, 2, 1):
        n = len(sleep.timeline)
        sig.cue(cues.TimeWarning(s))
        assert sig.wait_idle(2)
        ((t, step),) = sleep.timeline[n:]
        tones.append(step[4])
        flash = "amber" if s > 3 else "red"
        assert step[:3] == LED_COLOURS[flash]
        assert snap()[:3] == LED_COLOURS["blue"]  # back to the phase colour after the tick
    assert tones == sorted(tones) and len(set(tones)) == 5  # each tick higher than the last
    n = len(sleep.timeline)
    sig.cue(cues.TimeUp("bids"))
    assert sig.wait_idle(2)
    tl = sleep.timeline[n:]
    assert len(tl) == 7 and tl[-1][0] - tl[0][0] == pytest.approx(1.2)
    assert [s[4] for _, s in tl] == [880, 440] * 3 + [440]
    assert changes(tl, 0) == [
        (0.0, 1.0),
        (0.2, 0.0),
        (0.2, 1.0),
        (0.2, 0.0),
        (0.2, 1.0),
        (0.2, 0.0),
        (0.2, 1.0),
    ]
    assert snap() == (1.0, 0.0, 0.0, 0.0, None)  # time-up leaves the LED red


def test_every_cue_type_has_a_pattern_and_they_end_silent(rig):
    sig, sleep, snap = rig()
    for cue in (
        cues.PhaseStarted("x"),
        cues.TimeWarning(10),
        cues.TimeWarning(30),
        cues.TimeUp("t"),
        cues.Scored("ann", 3),
        cues.AskHuman("which?", ("a",)),
        cues.Announce("hi"),
        cues.ErrorCue("oops"),
        cues.GameOver(("ann",)),
    ):
        assert sig.cue(cue), cue
        assert sig.wait_idle(2)
        assert snap()[3] == 0.0, cue
    assert sig.played == 9
    assert not sig.cue(cues.Cue())  # a cue the table does not signal is ignored


def test_brightness_scales_and_mute_silences_but_keeps_the_lights(rig):
    sig, sleep, snap = rig(Settings(brightness=0.5, volume=0.4, mute=True))
    sig.cue(cues.Scored("ann", 2))
    sig.wait_idle(2)
    assert [s for _, s in sleep.timeline] == [(0.0, 0.5, 0.0, 0.0, None)] * 3
    assert [t for t, _ in sleep.timeline] == [0.0, 0.09, 0.18]  # same rhythm, no sound
    sig.settings = Settings(brightness=0.5, volume=0.4, mute=False)
    sig.cue(cues.Announce("x"))
    sig.wait_idle(2)
    assert sleep.timeline[-1][1][3:] == (pytest.approx(0.2), 1760)  # duty = volume / 2
    sig.cue(cues.PhaseStarted("p", colour="red"))
    sig.wait_idle(2)
    sig.settings = Settings(brightness=0.25)
    assert snap()[:3] == (0.25, 0.0, 0.0)  # a brightness change shows at once


def test_player_colours_map_to_rgb_and_unknown_names_fall_back_to_white(rig):
    sig, sleep, snap = rig()
    for name in ("purple", "#102030", "not-a-colour", None):
        sig.cue(cues.PhaseStarted("p", colour=name))
        sig.wait_idle(2)
        want = {"#102030": (16 / 255, 32 / 255, 48 / 255)}.get(
            name, LED_COLOURS.get(name or "", LED_COLOURS["white"])
        )
        assert snap()[:3] == tuple(round(c, 4) for c in want)


def test_a_new_cue_preempts_the_old_pattern_cleanly(rig):
    gate = threading.Event()
    sig, sleep, snap = rig(gate=gate)
    sig.cue(cues.Scored("ann", 1))  # the jingle, held on its first step by the gate
    assert sleep.entered.wait(2)
    assert snap()[1] == 1.0 and snap()[4] == 1047
    started = time.perf_counter()
    sig.cue(cues.ErrorCue("that ball cannot be pink"))
    assert time.perf_counter() - started < 0.5  # cue() never waits for the (gated) pattern
    gate.set()
    assert sig.wait_idle(2)
    tones = [s[4] for _, s in sleep.timeline]
    assert tones[-4:] == [1047, 220, None, 220]  # jingle cut after one step, error in full
    assert snap() == (0.0, 0.0, 0.0, 0.0, None)  # back to rest (no phase yet), no stray note


def test_the_same_priority_preempts_too(rig):
    gate = threading.Event()
    sig, sleep, snap = rig(gate=gate)
    sig.cue(cues.PhaseStarted("a", None, "red"))
    assert sleep.entered.wait(2)
    sig.cue(cues.PhaseStarted("b", None, "cyan"))
    gate.set()
    assert sig.wait_idle(2)
    assert [s[4] for _, s in sleep.timeline] == [880, 880, None, 1319]
    assert snap() == (0.0, 0.8, 1.0, 0.0, None) and sig.base == LED_COLOURS["cyan"]


def test_time_up_is_never_cut_by_the_next_phase(rig):
    gate = threading.Event()
    sig, sleep, snap = rig(gate=gate)
    sig.cue(cues.TimeUp("bids"))
    assert sleep.entered.wait(2)
    sig.cue(cues.PhaseStarted("demonstrate", "ann", "cyan"))  # the engine moves on at once
    assert sig.base == LED_COLOURS["cyan"]  # the resting colour follows the game at once
    gate.set()
    assert sig.wait_idle(2)
    tones = [s[4] for _, s in sleep.timeline]
    assert tones == [880, 440] * 3 + [440] + [880, None, 1319]  # full siren, then the chirp
    assert snap() == (0.0, 0.8, 1.0, 0.0, None)


def test_a_burst_of_cues_plays_the_most_important_latest_one(rig):
    gate = threading.Event()
    sig, sleep, snap = rig(gate=gate)
    sig.cue(cues.TimeUp("t"))
    assert sleep.entered.wait(2)
    for cue in (cues.TimeWarning(5), cues.Scored("a", 1), cues.TimeWarning(3), cues.Announce("x")):
        sig.cue(cue)
    gate.set()
    assert sig.wait_idle(2)
    tones = [s[4] for _, s in sleep.timeline]
    assert len(tones) == 8 and tones[-1] == 1600  # the siren, then only the 3-second tick


def test_real_time_tick_on_mock_pins(mock_factory):
    # the real sleep and clock: gpiozero's own assert_states_and_times (tens of ms tolerance)
    with Signals(
        LED, BUZ, pin_factory=mock_factory, settings=Settings(brightness=1.0, volume=1.0)
    ) as sig:
        red = mock_factory.pin(17)
        red.clear_states()
        sig.cue(cues.ErrorCue("x"))  # red 0.3 s, off 0.1 s, red 0.3 s
        assert sig.wait_idle(3)
        red.assert_states_and_times([(0.0, 0.0), (0.0, 1.0), (0.3, 0.0), (0.1, 1.0), (0.3, 0.0)])


def test_active_buzzer_and_common_anode_led(mock_factory, clock, recording_sleep):
    snap = pins_of(mock_factory)
    sleep = recording_sleep(clock, snap)
    with Signals(
        LedPins(17, 27, 22, common_anode=True),
        BuzzerPin(18, "active"),
        pin_factory=mock_factory,
        settings=Settings(brightness=1.0),
        clock=clock,
        sleep=sleep,
    ) as sig:
        sig.cue(cues.Scored("a", 1))
        assert sig.wait_idle(2)
        r, g, b, buzz, _ = sleep.timeline[0][1]
        assert (r, g, b) == (1.0, 0.0, 1.0)  # active low: green lit = green pin low
        assert buzz == 1.0  # an active buzzer is simply on
        assert snap()[3] == 0.0


def test_parts_not_fitted(mock_factory, clock, recording_sleep):
    sleep = recording_sleep(clock, lambda: ())
    with Signals(
        LedPins(None, None, None),
        BuzzerPin(None),
        pin_factory=mock_factory,
        clock=clock,
        sleep=sleep,
    ) as sig:
        assert sig.cue(cues.TimeUp("t")) and sig.wait_idle(2)
        assert sig.status() == {"leds": "not fitted", "buzzer": "not fitted"}


def test_pattern_table_is_consistent():
    for p in (
        patterns.time_up(),
        patterns.game_over(),
        patterns.phase_started("red"),
        *(patterns.time_warning(s) for s in range(1, 11)),
    ):
        assert p.steps and all(s.duration > 0 for s in p.steps)
        assert p.duration < 2.0  # no pattern outlasts a second of the countdown by much
    assert patterns.time_up().base == LED_COLOURS["red"]


CUES = st.one_of(
    st.builds(
        cues.PhaseStarted,
        st.just("p"),
        st.none(),
        st.sampled_from(["red", "blue", "pink", "white", None]),
    ),
    st.builds(cues.TimeWarning, st.integers(1, 30)),
    st.builds(cues.TimeUp, st.just("t")),
    st.builds(cues.Scored, st.just("a"), st.integers(0, 5)),
    st.builds(cues.AskHuman, st.just("?")),
    st.builds(cues.ErrorCue, st.just("e")),
    st.builds(cues.Announce, st.just("x")),
    st.builds(cues.GameOver, st.just(("a",))),
)


@settings(max_examples=40, deadline=None)
@given(st.lists(CUES, min_size=1, max_size=12), st.floats(0.0, 1.0))
def test_any_cue_sequence_ends_silent_on_the_last_resting_colour(seq, brightness):
    factory, clock = MockFactory(pin_class=MockPWMPin), FakeClock(0.0)
    snap = pins_of(factory)

    def sleep(seconds, interrupt):  # instant, so patterns and pre-emption interleave freely
        clock.advance(seconds)
        return interrupt.is_set()

    with Signals(
        LED,
        BUZ,
        pin_factory=factory,
        settings=Settings(brightness=brightness),
        clock=clock,
        sleep=sleep,
    ) as sig:
        for cue in seq:
            sig.cue(cue)
        assert sig.wait_idle(5)
        base = (0.0, 0.0, 0.0)
        for cue in seq:  # the resting colour is set by the last cue that sets one
            p = patterns.pattern_for(cue)
            if p.base is not None:
                base = p.base
        assert snap()[:3] == tuple(round(c * brightness, 4) for c in base)
        assert snap()[3] == 0.0  # silent
