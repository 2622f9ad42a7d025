"""The frame every game screen shares, touched through a real 800x480 Kivy window: notices
move no control, a bouncing finger moves the game on once, sensor bursts redraw once."""

from __future__ import annotations

import time

import pytest
from kivy.clock import Clock

from companion import catalogue
from companion.clock import FakeClock
from companion.game import GameConfig
from companion.session import Session
from companion.ui.app import Root
from companion.ui.context import AppContext
from companion.ui.render import pump
from companion.ui.widgets import BigButton
from tests.ui.fingers import centre, off_window, on_window, tap

pytestmark = pytest.mark.ui


@pytest.fixture
def ctx(data_dir):
    ctx = AppContext.open(data_dir)
    yield ctx
    ctx.log.close()


def kritters_in_play(ctx, players=("Anna", "Ben", "Chloe")):
    from companion.games.kritters.events import FirstPlayer
    from companion.games.kritters.screen import GameScreen

    session = Session.start(
        catalogue.load("kritters"), ctx.log, GameConfig(players), clock=FakeClock()
    )
    screen = GameScreen(ctx=ctx, session=session)
    screen.submit(FirstPlayer("Anna"))
    return screen


def button(widget, text) -> BigButton:
    found = [b for b in widget.walk() if isinstance(b, BigButton) and b.text == text]
    assert found, text
    return found[0]


def control_places(screen) -> dict:
    return {
        (b.text, i): (round(b.to_window(*b.pos)[1]), round(b.to_window(*b.pos)[0]), b.size[:])
        for i, b in enumerate(w for w in screen.walk() if isinstance(w, BigButton))
    }


def test_a_notice_coming_or_going_moves_no_control(ctx):
    screen = kritters_in_play(ctx)
    on_window(screen)
    try:
        quiet = control_places(screen)
        screen.show_banner("A long refusal: that card cannot be bought now, the pile is empty")
        pump()
        assert screen.ids.banner.opacity == 1
        assert control_places(screen) == quiet
        screen._clear_banner(0)
        pump()
        assert control_places(screen) == quiet
    finally:
        off_window(screen)


def test_a_double_tap_on_turn_done_moves_on_one_player(ctx):
    screen = kritters_in_play(ctx)
    game = screen.session.game
    on_window(screen)
    try:
        assert game.current_player(screen.state) == "Anna"
        at = time.time() + 1  # after the guard of the set-up's own submits
        x, y = centre(button(screen, "Turn done: next player"))
        tap(x, y, at)
        tap(x, y, at + 0.04 + 0.08)  # the finger bounces 40 ms after lifting
        assert game.current_player(screen.state) == "Ben"
        x, y = centre(button(screen, "Turn done: next player"))
        tap(x, y, at + 0.9)  # a deliberate second tap is a second turn
        assert game.current_player(screen.state) == "Chloe"
    finally:
        off_window(screen)


def test_a_double_tap_on_undo_undoes_once(ctx):
    from companion.games.kritters.events import TurnDone

    screen = kritters_in_play(ctx)
    screen.submit(TurnDone())
    screen.submit(TurnDone())
    game = screen.session.game
    on_window(screen)
    try:
        assert game.current_player(screen.state) == "Chloe"
        at = time.time() + 1  # after the guard of the set-up's own submits
        x, y = centre(screen.ids.undo)
        tap(x, y, at)
        tap(x, y, at + 0.12)
        assert game.current_player(screen.state) == "Ben"
    finally:
        off_window(screen)


def test_a_burst_of_ball_readings_redraws_the_screen_once(ctx):
    from companion.events import BallSeen
    from companion.games.color_milk.events import Predict
    from companion.games.color_milk.screen import GameScreen

    session = Session.start(
        catalogue.load("color-milk"), ctx.log, GameConfig(("Anna", "Ben")), clock=FakeClock()
    )
    screen = GameScreen(ctx=ctx, session=session)
    screen.submit(Predict("Anna", ("pink",)))
    screen.submit(Predict("Ben", ("blue",)))
    redraws = []
    real = screen.refresh
    screen.refresh = lambda: (redraws.append(1), real())
    screen._refresh_trigger = Clock.create_trigger(lambda dt: screen.refresh())
    for slot, colour in enumerate(("green", "blue", "pink")):
        ctx.table_event(BallSeen(colour, slot, 0.99))
    assert ctx.runtime.drain(5)
    Clock.tick()
    Clock.tick()
    assert screen.state.tray[:3] == ("green", "blue", "pink")
    assert len(redraws) == 1


@pytest.mark.parametrize(
    ("game", "players", "options", "clock_words"),
    [
        ("color-milk", ("Anna", "Ben"), {}, False),
        ("kritters", ("Anna", "Ben"), {"turn_timer": 30}, True),
    ],
)
def test_the_restore_notice_mentions_a_clock_only_when_there_is_one(
    ctx, game, players, options, clock_words
):
    clock = FakeClock()
    ctx.clock = clock
    before = Session.start(catalogue.load(game), ctx.log, GameConfig(players, options), clock=clock)
    if game == "kritters":
        from companion.games.kritters.events import FirstPlayer

        before.submit(FirstPlayer("Ben"))
    root = Root(ctx)
    root.resume(after_restart=True)
    banner = root.get_screen("game").banner_text
    assert banner.startswith("Game restored where it stopped.")
    assert ("Tap the clock" in banner) is clock_words
