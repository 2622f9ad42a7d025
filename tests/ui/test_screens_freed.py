"""A game's screen leaves memory once another game replaces it or it is abandoned: nothing
(the runtime's subscribers, Clock events, bindings, the window) keeps it, its widgets and
its session alive. The screen left for home stays, on purpose, as the one to resume."""

from __future__ import annotations

import gc
import time
import weakref

import pytest

from companion import catalogue
from companion.ui.app import Root
from companion.ui.context import AppContext
from companion.ui.game_screen import GameScreen
from companion.ui.render import pump
from tests.ui.fingers import off_window, on_window

pytestmark = pytest.mark.ui

NAMES = [g.name for g in catalogue.games()]


@pytest.fixture
def root(data_dir):
    ctx = AppContext.open(data_dir)
    root = Root(ctx)
    on_window(root)
    yield root
    off_window(root)
    ctx.close()


def play(root: Root, name: str) -> GameScreen:
    """Start `name` from its set-up screen as a person would, and let it draw."""
    root.choose_game(name)
    setup = root.get_screen("setup")
    setup.start()
    if setup.confirm_start:  # another game is unfinished: holding Start starts this one
        setup.start()
    pump()
    assert root.current == "game", setup.error_text
    screen = root.get_screen("game")
    assert screen.session.game.name == name
    return screen


def home(root: Root) -> None:
    root.current = "home"
    pump()


def settle() -> None:
    """Let Kivy finish what it animates: a ScrollView fades its scroll bar out for a second
    after its content changed, and an animation holds its widget (so its screen) meanwhile."""
    from kivy.animation import Animation

    deadline = time.monotonic() + 5
    while Animation._instances and time.monotonic() < deadline:
        time.sleep(0.05)
        pump(1)
    gc.collect()


def test_a_game_left_for_home_goes_once_the_next_game_opens(root):
    """Home -> game -> home through every game, twice: each screen left for home is still
    there to resume until the next game opens, then it and its session are gone."""
    left = None  # the screen and the session last left for home, weakly
    for name in NAMES * 2:
        screen = play(root, name)
        if left is not None:
            settle()
            assert left[0]() is None, f"the screen before {name}'s is still alive"
            assert left[1]() is None, f"the session before {name}'s is still alive"
        home(root)
        assert root.get_screen("game") is screen  # kept to resume, until another opens
        left = weakref.ref(screen), weakref.ref(screen.session)
        del screen
        assert len(root.ctx.runtime._subscribers) == 1  # that screen's, no one else's


def test_an_abandoned_game_leaves_no_screen(root):
    screen = play(root, "kritters")
    home(root)
    gone = weakref.ref(screen)
    game_id = screen.session.game_id
    del screen
    root.forget_session(game_id)
    settle()
    assert gone() is None
    assert root.ctx.runtime._subscribers == []


def test_what_a_game_left_behind_is_collected_soon_after_home(root):
    """Garbage in cycles (a dropped widget tree, a reader's frames) is collected a moment
    after Home shows, however long the automatic collector would have waited."""
    from companion.ui.app import HomeScreen

    class Cycle:
        pass

    play(root, "kritters")
    gc.disable()  # only the app's own collection can free it now
    try:
        left = Cycle()
        left.me = left
        gone = weakref.ref(left)
        del left
        home(root)
        deadline = time.monotonic() + HomeScreen.SETTLE + 3
        while gone() is not None and time.monotonic() < deadline:
            time.sleep(0.05)
            pump(1)
        assert gone() is None
    finally:
        gc.enable()
