"""The window's touch guard, through a real 800x480 Kivy window: a second tap 150 ms after a
tap that changed what lies under the finger does nothing, wherever it lands; confirmations
take a hold, so a double tap never passes one; the guard runs on its own monotonic clock, so
a jump of the wall clock (which stamps Kivy's touches) neither freezes nor opens it."""

from __future__ import annotations

import pytest

from companion import catalogue
from companion.clock import FakeClock
from companion.game import GameConfig
from companion.session import Session
from companion.ui.app import Root
from companion.ui.context import AppContext
from companion.ui.widgets import BigButton
from tests.ui.fingers import centre, off_window, on_window, settle, tap

pytestmark = pytest.mark.ui

DOUBLE = 0.15  # a double tap: the second finger lands 150 ms after the first


@pytest.fixture
def ctx(data_dir):
    ctx = AppContext.open(data_dir)
    yield ctx
    ctx.log.close()


def button(widget, text) -> BigButton:
    found = [b for b in widget.walk() if isinstance(b, BigButton) and b.text == text]
    assert found, text
    return found[0]


def kritters_in_play(ctx, players=("Anna", "Ben", "Chloe")):
    from companion.games.kritters.events import FirstPlayer
    from companion.games.kritters.screen import GameScreen

    session = Session.start(
        catalogue.load("kritters"), ctx.log, GameConfig(players), clock=FakeClock()
    )
    screen = GameScreen(ctx=ctx, session=session)
    screen.submit(FirstPlayer("Anna"))
    return screen


def test_a_double_tap_on_bought_paintbrush_does_not_end_the_game(ctx):
    screen = kritters_in_play(ctx)
    on_window(screen)
    try:
        x, y = centre(button(screen, "Bought paintbrush"))
        tap(x, y, 10.0)
        assert screen.state.bought == ("paintbrush",)
        # the buttons moved: what the finger lands on now is another one
        under = [b for b in screen.walk() if isinstance(b, BigButton) and b.collide_point(x, y)]
        assert [b.text for b in under] != ["Bought paintbrush"]
        tap(x, y, 10.0 + DOUBLE)
        assert not screen.state.end_reason  # no "Kritter deck empty": no last round
        assert screen.state.bought == ("paintbrush",)
        tap(*centre(button(screen, "Kritter deck empty")), 11.0)  # a deliberate tap acts
        assert screen.state.end_reason
    finally:
        off_window(screen)


def test_taps_that_change_nothing_under_the_finger_are_never_dropped_and_a_bounce_is(ctx):
    from companion.games.color_milk.screen import GameScreen

    session = Session.start(
        catalogue.load("color-milk"), ctx.log, GameConfig(("Anna", "Ben")), clock=FakeClock()
    )
    screen = GameScreen(ctx=ctx, session=session)
    on_window(screen)
    try:
        pad = {b.colour: b for b in screen.pad.children if getattr(b, "colour", "")}
        tap(*centre(pad["pink"]), 10.0)
        tap(*centre(pad["purple"]), 10.0 + DOUBLE)  # a quick second colour counts
        assert set(screen.draft) == {"pink", "purple"}
        pad = {b.colour: b for b in screen.pad.children if getattr(b, "colour", "")}
        x, y = centre(pad["green"])
        tap(x, y, 11.0)
        tap(x, y, 11.0 + DOUBLE)  # a bounce on it does not take it back
        assert set(screen.draft) == {"pink", "purple", "green"}
    finally:
        off_window(screen)


def elios_on_window(ctx):
    """Elios for Anna, Ben and Chloe on the window, at its first phase (everyone gets ready)."""
    from companion.games.elios.screen import GameScreen

    session = Session.start(
        catalogue.load("elios"), ctx.log, GameConfig(("Anna", "Ben", "Chloe")), clock=FakeClock()
    )
    screen = GameScreen(ctx=ctx, session=session)
    on_window(screen)
    return session, screen


def test_a_double_tap_on_ready_marks_one_player_ready_in_elios(ctx):
    session, screen = elios_on_window(ctx)
    try:
        x, y = centre(button(screen, "Anna is ready"))
        tap(x, y, 10.0)
        assert [h.player for h in session.state.hands if h.ready] == ["Anna"]
        assert screen.ready_button.text == "Ben is ready"  # now under the finger
        tap(x, y, 10.0 + DOUBLE)
        assert [h.player for h in session.state.hands if h.ready] == ["Anna"]
        tap(x, y, 11.0)  # Ben taps it himself
        assert [h.player for h in session.state.hands if h.ready] == ["Anna", "Ben"]
    finally:
        off_window(screen)


def test_two_fingers_on_ready_at_once_mark_one_player_ready_in_elios(ctx):
    """A second finger lands while the first is still down (a child's two-finger press): the
    first one's lift readies Anna, and the second, lifted on what is now "Ben is ready",
    does nothing."""
    from kivy.tests.common import UnitTestTouch

    from tests.ui.fingers import clock_to

    session, screen = elios_on_window(ctx)
    try:
        x, y = centre(button(screen, "Anna is ready"))
        first, second = UnitTestTouch(x, y), UnitTestTouch(x, y)
        for at, finger, move in ((10.0, first, "down"), (10.05, second, "down"),
                                 (10.08, first, "up"), (10.13, second, "up")):  # fmt: skip
            finger.time_start = finger.time_update = at
            clock_to(at)
            finger.touch_down() if move == "down" else finger.touch_up()
        settle()
        assert [h.player for h in session.state.hands if h.ready] == ["Anna"]
        assert screen.ready_button.text == "Ben is ready"
        tap(x, y, 11.0)  # one finger, later: Ben is ready
        assert [h.player for h in session.state.hands if h.ready] == ["Anna", "Ben"]
    finally:
        off_window(screen)


def test_a_double_tap_on_abandon_abandons_nothing_and_a_hold_does(ctx):
    game = Session.start(catalogue.load("laser"), ctx.log, GameConfig(("Anna", "Ben", "Chloe")))
    root = Root(ctx)
    root.current = "unfinished"
    listing = root.get_screen("unfinished")
    on_window(root)
    try:
        abandon = button(listing, "Abandon")
        x, y = centre(abandon)
        tap(x, y, 10.0)
        tap(x, y, 10.0 + DOUBLE)
        settle()  # the list hands taps to its buttons 0.2 s after the release
        assert ctx.log.game(game.game_id).status == "active"
        assert abandon.text == "Hold to abandon"
        tap(x, y, 12.0)  # a third tap, a second later: still a tap
        settle()
        assert ctx.log.game(game.game_id).status == "active"
        tap(x, y, 14.0, hold=1.0)
        settle()
        assert ctx.log.game(game.game_id).status == "abandoned"
    finally:
        off_window(root)


def test_a_double_tap_on_start_does_not_pass_the_not_finished_yet_warning(ctx):
    Session.start(catalogue.load("laser"), ctx.log, GameConfig(("Anna", "Ben", "Chloe")))
    root = Root(ctx)
    root.choose_game("elios")
    setup = root.get_screen("setup")
    on_window(root)
    try:
        x, y = centre(button(setup, "Start Elios"))
        tap(x, y, 10.0)
        assert setup.error_text.startswith("Not finished yet: Laser")
        tap(x, y, 10.0 + DOUBLE)
        tap(x, y, 11.0)  # nor a second tap a moment later
        assert root.current == "setup" and len(ctx.log.games("active")) == 1
        assert button(setup, "Hold to start a new game anyway")
        tap(x, y, 12.0, hold=1.0)
        assert root.current == "game" and root.get_screen("game").session.game.name == "elios"
    finally:
        off_window(root)


def test_a_jump_of_the_wall_clock_neither_freezes_nor_opens_the_guard(ctx):
    screen = kritters_in_play(ctx)
    game = screen.session.game
    on_window(screen)
    try:
        x, y = centre(button(screen, "Turn done: next player"))
        tap(x, y, 10.0, stamp=5_000.0)
        assert game.current_player(screen.state) == "Ben"
        # the wall clock jumps back an hour; the monotonic one moved on a second
        tap(x, y, 11.0, stamp=5_000.0 - 3600)
        assert game.current_player(screen.state) == "Chloe"
        # it jumps forward an hour: a bounce 150 ms later is still a bounce
        tap(x, y, 11.0 + DOUBLE, stamp=5_000.0 + 3600)
        assert game.current_player(screen.state) == "Chloe"
    finally:
        off_window(screen)


def test_discarding_a_node_card_takes_a_hold(ctx):
    from companion.games.node.screen import GameScreen

    session = Session.start(catalogue.load("node"), ctx.log, GameConfig(("Anna", "Ben")))
    screen = GameScreen(ctx=ctx, session=session)
    on_window(screen)
    try:
        discard = screen.discard_button
        x, y = centre(discard)
        tap(x, y, 10.0)
        tap(x, y, 10.0 + DOUBLE)
        assert session.state.discarded == 0 and discard.text == "Hold to discard"
        assert not screen.banner_text
        tap(x, y, 12.0, hold=1.0)
        assert "first card" in screen.banner_text  # the rules were asked (an empty table: no)
    finally:
        off_window(screen)


def slow_ball_row(actions: list, takes: float = 0.4):
    """One ball button whose tap takes `takes` seconds on the guard's clock (a busy Pi) and
    moves the game on, the next ball sliding under the finger."""
    from kivy.uix.boxlayout import BoxLayout

    from companion.ui import touch_guard

    def act(b):
        actions.append(b.text)
        b.text = f"{len(actions) + 1}:G"
        touch_guard.arm()
        touch_guard.installed().clock.advance(takes)

    row = BoxLayout()
    row.add_widget(BigButton(text="1:B", on_release=act))
    on_window(row)
    return row


def test_a_redraw_slower_than_the_guard_does_not_let_the_second_finger_through():
    # The tap's action and redraw take longer than the guard interval; the second finger of
    # the double tap, queued meanwhile, is still a bounce.
    actions = []
    row = slow_ball_row(actions)
    try:
        x, y = centre(button(row, "1:B"))
        tap(x, y, 10.0)
        tap(x, y, 10.0 + DOUBLE)
        assert actions == ["1:B"]
        tap(x, y, 12.0)  # a deliberate tap later acts
        assert actions == ["1:B", "2:G"]
    finally:
        off_window(row)


def test_a_finger_that_lands_before_the_new_layout_is_drawn_does_nothing():
    # Both fingers were queued while the first tap's action ran: the second reaches the window
    # before the next frame, aimed at a layout that is gone.
    from kivy.tests.common import UnitTestTouch

    from tests.ui.fingers import clock_to

    actions = []
    row = slow_ball_row(actions)
    try:
        x, y = centre(button(row, "1:B"))
        first, second = UnitTestTouch(x, y), UnitTestTouch(x, y)
        clock_to(10.0)
        first.touch_down()
        clock_to(10.08)
        first.touch_up()
        second.touch_down()  # no frame drawn in between
        second.touch_up()
        assert actions == ["1:B"]
    finally:
        off_window(row)


def test_a_frame_drawn_slower_than_the_guard_does_not_let_the_second_finger_through():
    # The action is quick but drawing its frame takes 0.4 s (a busy Pi, software rendering):
    # the interval runs from when the new layout is on the glass, not from before drawing it.
    from kivy.core.window import Window

    from companion.ui import touch_guard

    def slow_frame(*_):
        touch_guard.installed().clock.advance(0.4)

    actions = []
    row = slow_ball_row(actions, takes=0.0)
    Window.bind(on_draw=slow_frame)
    try:
        x, y = centre(button(row, "1:B"))
        tap(x, y, 10.0)
        tap(x, y, 10.0 + DOUBLE)
        assert actions == ["1:B"]
        tap(x, y, 14.0)  # a deliberate tap later acts
        assert actions == ["1:B", "2:G"]
    finally:
        Window.unbind(on_draw=slow_frame)
        off_window(row)


def test_a_second_finger_dispatched_late_by_a_busy_app_is_judged_by_when_it_landed():
    # The second finger landed 150 ms after the first, but the app, busy redrawing, hands it
    # to the window only 0.6 s later: it was still aimed at the layout that was there.
    actions = []
    row = slow_ball_row(actions, takes=0.0)
    try:
        x, y = centre(button(row, "1:B"))
        tap(x, y, 10.0)
        tap(x, y, 10.6, stamp=10.0 + DOUBLE)  # landed at 10.15, dispatched at 10.6
        assert actions == ["1:B"]
        tap(x, y, 12.0)  # a deliberate tap later acts
        assert actions == ["1:B", "2:G"]
    finally:
        off_window(row)


def test_a_double_tap_on_turn_done_in_a_solo_game_takes_one_turn(ctx):
    # alone at the table the next turn is the same player's, and "Turn done" stays put
    screen = kritters_in_play(ctx, ("Anna",))
    on_window(screen)
    try:
        turn = screen.state.turn
        x, y = centre(button(screen, "Turn done: next player"))
        tap(x, y, 10.0)
        tap(x, y, 10.0 + DOUBLE)
        assert screen.state.turn == turn + 1
    finally:
        off_window(screen)
