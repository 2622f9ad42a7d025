"""The screen is drawn again only when something on it changed: the simulated table's lamp
when its colour changes, a clock once per second it shows (its warnings play on the table),
and the game screen wakes up at the next whole second of its clock instead of ten times a
second."""

from __future__ import annotations

import pytest

from companion import catalogue
from companion.clock import FakeClock
from companion.game import GameConfig
from companion.session import Session
from companion.ui.app import game_screen_class
from companion.ui.context import AppContext
from companion.ui.game_screen import IDLE_TICK
from companion.ui.render import ensure_window, pump
from companion.ui.sim_strip import LedLamp
from companion.ui.widgets import Countdown

pytestmark = pytest.mark.ui


def test_the_lamp_redraws_only_when_its_colour_changes():
    window = ensure_window()
    lamp = LedLamp(size=(56, 56))
    window.add_widget(lamp)
    try:
        lamp.show((0, 0.8, 0))  # brightness-scaled green
        pump()
        assert not window.canvas.needs_redraw
        lamp.show((0, 0.8, 0))
        lamp.show((0, 0.4, 0))  # dimmer, same hue: shown the same
        assert not window.canvas.needs_redraw
        assert tuple(lamp._colour.rgb) == (0, 1, 0)
        lamp.show((0.8, 0, 0))
        assert window.canvas.needs_redraw
        pump()
    finally:
        window.remove_widget(lamp)


def test_the_countdown_draws_whole_seconds_only():
    countdown = Countdown(total=30)
    shown = []
    countdown.bind(shown=lambda _w, value: shown.append(value))
    for left in (12.9, 12.5, 12.2, 12.0004):
        countdown.seconds = left
    assert shown == [13, 12]
    countdown.seconds = 11.3
    assert shown == [13, 12]  # 11.3 still reads 12
    countdown.seconds = 10.99
    assert shown[-1] == 11


@pytest.fixture
def kritters_screen(data_dir):
    """Kritters with a 30 s turn clock, on the app's own game screen, on a fake clock."""
    ctx = AppContext.open(data_dir)
    clock = FakeClock()
    game = catalogue.load("kritters")
    config = GameConfig(("Anna", "Ben"), {"turn_timer": 30})
    session = Session.start(game, ctx.log, config, clock=clock)
    screen = game_screen_class("kritters")(ctx=ctx, session=session)
    yield screen, session, clock
    screen.close()
    ctx.log.close()


def test_the_game_screen_wakes_at_the_next_whole_second_of_its_clock(kritters_screen):
    screen, session, clock = kritters_screen
    screen.on_enter()
    assert session.timer is None
    assert screen._ticker.timeout == pytest.approx(IDLE_TICK, abs=0.01)  # no clock: rarely
    screen.submit(game_legal_first(session))  # the first player is chosen: the turn clock runs
    assert session.timer is not None and session.timer.running
    assert screen._ticker.timeout == pytest.approx(1.0, abs=0.01)
    clock.advance(0.7)  # 29.3 s left: the face still shows 30 until 29.0
    screen._tick(0)
    assert screen.ids.countdown.shown == 30
    assert screen._ticker.timeout == pytest.approx(0.3, abs=0.01)
    clock.advance(0.3)
    screen._tick(0)
    assert screen.ids.countdown.shown == 29
    session.pause_timer()
    screen._update_countdown()
    assert screen._ticker.timeout == pytest.approx(IDLE_TICK, abs=0.01)
    screen.on_leave()
    assert screen._ticker is None


def test_a_clock_s_warnings_play_on_the_table_without_redrawing_the_game(kritters_screen):
    """At 10 s left and each of the last five the table's lamp and buzzer warn; the game on
    screen is the same, so only the countdown's face changes (a redraw of the whole game
    there cost a busy clock about a tenth of a core)."""
    from companion.cues import TimeWarning

    screen, session, clock = kritters_screen
    heard = []
    session.sinks.append(heard.append)
    screen.on_enter()
    screen.submit(game_legal_first(session))  # the turn clock runs: 30 s
    pump()
    state = session.state
    for left in (10, 5, 1):
        clock.advance(session.timer.remaining() - left)
        screen._tick(0)
        assert heard and heard[-1] == TimeWarning(left), heard[-1:]
        assert screen.ids.countdown.shown == left
        assert not screen._refresh_trigger.is_triggered  # nothing to redraw but the face
    assert session.state is state
    clock.advance(1)  # the clock runs out: the game moves on and is redrawn
    screen._tick(0)
    assert session.state is not state
    assert screen._refresh_trigger.is_triggered


def game_legal_first(session):
    return session.game.legal_actions(session.state)[0]


def test_the_window_wakes_30_times_a_second_draws_without_multisampling_and_has_one_mouse_finger():
    """`companion run`'s window: Kivy's loop looks for touches 30 times a second, not 60, and
    each redraw is drawn once a pixel (a CPU draws it where there is no GPU)."""
    import subprocess
    import sys

    code = (
        "from companion.ui.launch import configure_window; configure_window((800, 480)); "
        "from kivy.config import Config; "
        "print(Config.getint('graphics', 'maxfps'), Config.getint('graphics', 'multisamples'), "
        "Config.get('input', 'mouse'))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=True
    )
    # and a mouse is one finger: its right button leaves no second one on the glass
    assert out.stdout.split() == ["30", "0", "mouse,disable_multitouch"], out.stderr[-500:]
