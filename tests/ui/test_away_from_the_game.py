"""Leaving a game's screen: a running clock waits behind Home until people are back and tap
it; a past game's final screen, only looked at, shows its Home, Undo and Redo as dead."""

from __future__ import annotations

import pytest

from companion import catalogue
from companion.clock import FakeClock
from companion.game import GameConfig
from companion.session import Session
from companion.ui.app import Root
from companion.ui.context import AppContext
from companion.ui.render import pump

pytestmark = pytest.mark.ui


@pytest.fixture
def ctx(data_dir):
    ctx = AppContext.open(data_dir)
    ctx.clock = FakeClock()
    yield ctx
    ctx.log.close()


def test_a_running_clock_waits_while_people_are_at_home(ctx):
    from companion.games.kritters.events import FirstPlayer

    session = Session.start(
        catalogue.load("kritters"),
        ctx.log,
        GameConfig(("Anna", "Ben"), {"turn_timer": 30}),
        clock=ctx.clock,
    )
    session.submit(FirstPlayer("Anna"))
    root = Root(ctx)
    root.resume(session.game_id)
    screen = root.get_screen("game")
    assert screen.session.timer.running
    ctx.clock.advance(5)
    root.current = "home"
    pump()
    ctx.clock.advance(60)  # a minute at home
    root.current = "game"
    pump()
    timer = screen.session.timer
    assert timer.paused and timer.remaining() == pytest.approx(25)
    assert "Tap it to continue" in screen.banner_text
    screen.toggle_pause()  # the clock is tapped
    ctx.clock.advance(5)
    assert timer.running and timer.remaining() == pytest.approx(20)


def test_the_final_screen_of_a_past_game_shows_its_frame_buttons_dead(ctx):
    from benchmarks.playthroughs import play_game

    ctx.log.add_games([play_game("kritters", 3, players=("Anna", "Ben"))])
    root = Root(ctx)
    root.current = "history"
    history = root.get_screen("history")
    history.open_game(history.rows[0]["game_id"])
    screen = root.get_screen("history_game")
    screen.view = "rounds"
    screen.toggle()
    past = next(w for w in screen.walk() if getattr(w, "name", "") == "past")
    past.refresh()  # whatever the screen redraws
    home = next(b for b in past.walk() if getattr(b, "text", "") == "Home")
    assert past.session.can_undo
    assert home.disabled and past.ids.undo.disabled and past.ids.redo.disabled
