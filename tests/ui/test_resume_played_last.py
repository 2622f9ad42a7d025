"""After a crash or a power cut the box opens the game that was being played, the one whose
last move was written last, not the one started last."""

from __future__ import annotations

import time

import pytest

from companion import catalogue
from companion.clock import FakeClock
from companion.game import GameConfig
from companion.session import Session
from companion.store import GameLog
from companion.ui.app import Root
from companion.ui.context import AppContext

pytestmark = pytest.mark.ui


def test_the_game_resumed_and_played_last_opens_after_a_restart(data_dir):
    from companion.games.color_milk.events import Predict
    from companion.games.kritters.events import FirstPlayer

    ctx = AppContext.open(data_dir)
    milk = Session.start(catalogue.load("color-milk"), ctx.log, GameConfig(("Anna", "Ben")))
    milk.submit(Predict("Anna", ("pink",)))
    kritters = Session.start(catalogue.load("kritters"), ctx.log, GameConfig(("Cleo", "Dan")))
    kritters.submit(FirstPlayer("Cleo"))
    # the family goes back to the older Color Milk game and plays a move on its screen
    root = Root(ctx)
    root.resume(milk.game_id)
    screen = root.get_screen("game")
    assert screen.submit(Predict("Ben", ("blue",)))
    # the power goes: nothing is closed; the box starts again on the same log
    again = AppContext.open(data_dir)
    try:
        restarted = Root(again)
        restarted.resume(after_restart=True)
        assert restarted.current == "game"
        assert restarted.get_screen("game").session.game_id == milk.game_id
        home = restarted.get_screen("home")
        home.refresh()
        assert home.resume_text.startswith("Resume Color Milk: Anna, Ben")
        listing = restarted.get_screen("unfinished")
        listing.refresh()
        rows = [r.text for r in reversed(listing.ids.rows.children) if hasattr(r, "text")]
        assert [r.split(":")[0] for r in rows] == ["Color Milk", "Colour MY Kritters"]
    finally:
        again.log.close()
        ctx.log.close()


def test_the_game_on_screen_at_a_power_cut_opens_even_before_its_first_move_there(data_dir):
    from companion.games.color_milk.events import Predict
    from companion.games.kritters.events import FirstPlayer

    ctx = AppContext.open(data_dir)
    milk = Session.start(catalogue.load("color-milk"), ctx.log, GameConfig(("Anna", "Ben")))
    milk.submit(Predict("Anna", ("pink",)))
    kritters = Session.start(catalogue.load("kritters"), ctx.log, GameConfig(("Cleo", "Dan")))
    kritters.submit(FirstPlayer("Cleo"))
    Root(ctx).resume(milk.game_id)  # picked from the list, and the power goes at once
    again = AppContext.open(data_dir)
    try:
        restarted = Root(again)
        restarted.resume(after_restart=True)
        assert restarted.get_screen("game").session.game_id == milk.game_id
    finally:
        again.log.close()
        ctx.log.close()


def test_a_game_started_after_the_last_move_elsewhere_counts_from_its_start(tmp_path):
    from companion.games.kritters.events import FirstPlayer

    log = GameLog(tmp_path / "games.sqlite3")
    try:
        first = Session.start(
            catalogue.load("kritters"), log, GameConfig(("A", "B")), clock=FakeClock()
        )
        first.submit(FirstPlayer("A"))
        second = Session.start(
            catalogue.load("elios"), log, GameConfig(("C", "D")), clock=FakeClock()
        )
        assert log.unfinished().id == second.game_id  # set up, no move yet: still the last one
        time.sleep(1.1)  # the log stamps whole seconds: a person's next move comes later
        first.undo()
        assert log.unfinished().id == first.game_id  # an undo is a move too
        assert [r.id for r in log.active_games()] == [first.game_id, second.game_id]
    finally:
        log.close()
