"""Every unfinished game is listed with its game, players and age, and can be resumed or
abandoned; starting a new game while others wait says so first."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from companion import catalogue
from companion.events import ButtonPressed
from companion.game import GameConfig
from companion.session import Session
from companion.ui.app import Root
from companion.ui.context import AppContext
from companion.ui.unfinished import age
from companion.ui.widgets import BigButton

pytestmark = pytest.mark.ui


@pytest.fixture
def ctx(data_dir):
    ctx = AppContext.open(data_dir)
    yield ctx
    ctx.log.close()


def start(ctx, game, players):
    return Session.start(catalogue.load(game), ctx.log, GameConfig(players))


def buttons(widget, text):
    return [b for b in widget.walk() if isinstance(b, BigButton) and b.text == text]


def row_texts(screen):
    return [row.text for row in reversed(screen.ids.rows.children) if hasattr(row, "text")]


def test_the_age_of_a_game_reads_like_people_say_it():
    now = datetime(2026, 5, 1, 12, 0, tzinfo=UTC)
    ago = lambda **kw: (now - timedelta(**kw)).isoformat()  # noqa: E731
    assert age(ago(seconds=20), now) == "just now"
    assert age(ago(minutes=5), now) == "5 min ago"
    assert age(ago(hours=3), now) == "3 h ago"
    assert age(ago(days=4), now) == "4 days ago"
    assert age("not a time", now) == "at an unknown time"


def test_every_unfinished_game_is_listed_and_each_can_be_resumed_or_abandoned(ctx):
    laser = start(ctx, "laser", ("Anna", "Ben", "Chloe"))
    elios = start(ctx, "elios", ("Dora", "Emil"))
    kritters = start(ctx, "kritters", ("Fay", "Gus"))
    root = Root(ctx)
    home = root.get_screen("home")
    home.refresh()
    assert home.resume_text.startswith("Resume Colour MY Kritters: Fay, Gus (started ")
    assert home.unfinished_text == "All unfinished: 3"
    root.current = "unfinished"
    listing = root.get_screen("unfinished")
    rows = row_texts(listing)
    assert [r.split(" (")[0] for r in rows] == [
        "Colour MY Kritters: Fay, Gus",
        "Elios: Dora, Emil",
        "Laser: Anna, Ben, Chloe",
    ]
    assert all("(started just now)" in r for r in rows)
    # abandon Elios: a tap says to hold the button, a hold does it
    elios_row = [r for r in reversed(listing.ids.rows.children) if r.text.startswith("Elios")][0]
    abandon = buttons(elios_row, "Abandon")[0]
    abandon.dispatch("on_press")
    abandon.dispatch("on_release")
    assert abandon.text == "Hold to abandon" and ctx.log.game(elios.game_id).status == "active"
    abandon.dispatch("on_hold")
    assert ctx.log.game(elios.game_id).status == "abandoned"
    assert len(row_texts(listing)) == 2
    # resume the oldest, Laser, not only the newest
    laser_row = [r for r in reversed(listing.ids.rows.children) if r.text.startswith("Laser")][0]
    buttons(laser_row, "Resume")[0].dispatch("on_release")
    assert root.current == "game"
    assert root.get_screen("game").session.game_id == laser.game_id
    assert ctx.log.game(kritters.game_id).status == "active"


def test_abandoning_the_game_on_screen_closes_it(ctx):
    from companion.games.laser.events import CardRevealed

    laser = Session.start(
        catalogue.load("laser"), ctx.log, GameConfig(("Anna", "Ben", "Cy"), {"mode": "team"})
    )
    laser.submit(CardRevealed("cyan"))
    laser.submit(CardRevealed("blue"))  # planning: the Next button would start the bids
    root = Root(ctx)
    root.resume(laser.game_id)
    assert root.has_screen("game")
    root.current = "unfinished"
    listing = root.get_screen("unfinished")
    listing.abandon(ctx.log.game(laser.game_id))  # confirmed
    assert not root.has_screen("game")
    ctx.table_event(ButtonPressed("next"))  # an arcade button pressed afterwards
    assert ctx.runtime.drain(5)
    assert len(ctx.log.entries(laser.game_id)) == 2  # it reaches no abandoned game
    assert listing.heading == "No unfinished games"


def test_starting_a_game_while_one_is_unfinished_asks_first(ctx):
    start(ctx, "laser", ("Anna", "Ben", "Chloe"))
    root = Root(ctx)
    root.choose_game("elios")
    setup = root.get_screen("setup")
    assert buttons(setup, "Start Elios")
    setup.start()
    assert root.current == "setup"
    assert setup.error_text.startswith("Not finished yet: Laser: Anna, Ben, Chloe (started")
    assert buttons(setup, "Hold to start a new game anyway")
    setup.start()  # the button was held
    assert root.current == "game" and root.get_screen("game").session.game.name == "elios"
    assert len(ctx.log.games("active")) == 2  # the new one and the laser game still waiting
