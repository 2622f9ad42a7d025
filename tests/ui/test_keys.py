"""Keys and the simulated strip on the real simulated table (mock pins, the button poller):
a held undo is one undo however long and however fast the key repeats, a tap undoes nothing,
and keys reach only the game people see."""

from __future__ import annotations

import queue

import pytest
from kivy.clock import Clock

from companion.events import ButtonPressed
from companion.ui.app import Root
from companion.ui.context import AppContext
from companion.ui.render import ensure_window
from companion.ui.sim_strip import SimPanel, bind_keyboard
from hardware.sim_table import open_simulated_table

pytestmark = pytest.mark.ui

U = ord("u")


@pytest.fixture
def table_app(data_dir):
    """The app's screens on a simulated table, a Kritters game two turns in."""
    from companion.games.kritters.events import FirstPlayer, TurnDone

    ctx = AppContext.open(data_dir)
    heard: queue.Queue = queue.Queue()  # every press the table reports, on its way to the game
    sim = open_simulated_table(lambda e: (heard.put(e), ctx.table_event(e)))
    ctx.runtime.simulated = sim
    root = Root(ctx)
    root.choose_game("kritters")
    root.get_screen("setup").start()
    screen = root.get_screen("game")
    screen.submit(FirstPlayer("Anna"))
    screen.submit(TurnDone())
    unbind = bind_keyboard(sim.hands, wanted=lambda: root.current == "game")
    try:
        yield root, screen, sim, heard
    finally:
        unbind()
        sim.close()
        ctx.log.close()


def key(window, code, char, repeats=1):
    for _ in range(repeats):
        window.dispatch("on_key_down", code, 0, char, [])


def settle(sim, heard, button="undo"):
    """The finger is up and the poller has seen it: no more presses can come from it."""
    assert sim.hands.let_go(button).wait(3)
    sim.table.buttons.poll()


def test_holding_u_with_key_repeat_is_one_undo(table_app):
    root, screen, sim, heard = table_app
    game = screen.session.game
    assert game.current_player(screen.state) == "Ben"
    window = ensure_window()
    key(window, U, "u", repeats=30)  # two seconds of auto-repeat
    assert heard.get(timeout=3) == ButtonPressed("undo")  # after the hold time
    window.dispatch("on_key_up", U, 0)
    settle(sim, heard)
    assert screen.runtime.drain()  # the press is heard before the runtime has applied it
    Clock.tick()
    assert game.current_player(screen.state) == "Anna"
    assert heard.empty() and screen.session.can_undo  # one step back, not to the set-up


def test_a_tap_of_u_or_of_the_strip_undo_does_nothing(table_app):
    root, screen, sim, heard = table_app
    window = ensure_window()
    key(window, U, "u")
    window.dispatch("on_key_up", U, 0)
    settle(sim, heard)
    panel = SimPanel(table=sim.table, hands=sim.hands)
    try:
        undo = next(b for b in panel.children if getattr(b, "text", "") == "Undo (hold)")
        undo.dispatch("on_press")
        undo.dispatch("on_release")
        settle(sim, heard)
    finally:
        panel.stop()
    assert heard.empty()
    assert screen.session.game.current_player(screen.state) == "Ben"


def test_typing_a_name_on_set_up_leaves_the_game_behind_alone(table_app):
    root, screen, sim, heard = table_app
    before = screen.state
    root.current = "home"
    root.choose_game("elios")
    name = root.get_screen("setup").ids.rows.children[0].ids.name
    name.focus = True
    window = ensure_window()
    for char in "Bruno":
        key(window, ord(char.lower()), char, repeats=3)
        window.dispatch("on_key_up", ord(char.lower()), 0)
    name.focus = False
    assert not sim.table.buttons.is_pressed("undo")
    key(window, ord("n"), "n")  # not typing, but the game is not on screen either
    window.dispatch("on_key_up", ord("n"), 0)
    settle(sim, heard)
    assert heard.empty() and screen.state is before


def test_a_table_button_acts_only_on_the_game_on_screen(table_app):
    root, screen, sim, heard = table_app
    before = screen.state
    root.current = "home"
    screen.ctx.table_event(ButtonPressed("undo"))  # the arcade button, pressed from Home
    assert screen.ctx.runtime.drain(5)
    assert screen.state is before
    root.current = "game"
    screen.ctx.table_event(ButtonPressed("undo"))
    assert screen.ctx.runtime.drain(5)
    assert screen.session.game.current_player(screen.state) == "Anna"
