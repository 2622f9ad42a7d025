"""Every game's set-up seats as many players as the game allows, "+ Player" tapped on the real
set-up screen in an 800x480 window: each new seat gets a suggested name of its own."""

from __future__ import annotations

import pytest

from companion import catalogue
from companion.ui.app import Root
from companion.ui.context import AppContext
from companion.ui.setup import default_name
from companion.ui.widgets import BigButton
from tests.ui.fingers import centre, off_window, on_window, tap

pytestmark = pytest.mark.ui


@pytest.fixture
def ctx(data_dir):
    ctx = AppContext.open(data_dir)
    yield ctx
    ctx.log.close()


def button(widget, text) -> BigButton:
    return next(b for b in widget.walk() if isinstance(b, BigButton) and b.text == text)


@pytest.mark.parametrize("name", [g.name for g in catalogue.games()])
def test_plus_player_seats_up_to_the_games_maximum_each_with_a_name(ctx, name):
    lo, hi = catalogue.info(name).players
    root = Root(ctx)
    root.choose_game(name)
    setup = root.get_screen("setup")
    on_window(root)
    try:
        plus = centre(button(setup, "+ Player"))
        at = 10.0
        for _ in range(hi + 1):  # one tap more than there are seats: it changes nothing
            tap(*plus, at)
            at += 1.0
        assert len(setup.names) == hi
        assert all(n.strip() for n in setup.names) and len(set(setup.names)) == hi
        if name == "kritters":  # advertised 1-12: the twelve start a game
            tap(*centre(button(setup, "Start Colour MY Kritters")), at)
            assert root.current == "game"
            assert len(root.get_screen("game").session.config.players) == 12
    finally:
        off_window(root)


def test_a_name_is_suggested_even_when_typed_names_took_the_suggested_ones():
    from companion.ui.setup import DEFAULT_NAMES

    assert default_name(DEFAULT_NAMES[:5]) == DEFAULT_NAMES[5]
    assert default_name(DEFAULT_NAMES) == "Player 1"
    assert default_name((*DEFAULT_NAMES, "Player 1")) == "Player 2"
