"""Team bids with ten players, tapped in a real 800x480 window: the list of bid rows scrolls,
and a bid keeps it where it was, so each tap lands on the row the finger aims at."""

from __future__ import annotations

import pytest

from companion.clock import FakeClock
from companion.game import GameConfig
from companion.games.laser import GAME
from companion.games.laser.events import CardRevealed
from companion.session import Session
from companion.ui.context import AppContext
from companion.ui.widgets import BigButton
from tests.ui.fingers import centre, off_window, on_window, settle, tap

pytestmark = pytest.mark.ui

TEN = ("Anna", "Ben", "Chloe", "David", "Emma", "Felix", "Greta", "Hugo", "Ines", "Jonas")


@pytest.fixture
def bidding(data_dir):
    from companion.events import ButtonPressed
    from companion.games.laser.screen import GameScreen

    ctx = AppContext.open(data_dir)
    session = Session.start(GAME, ctx.log, GameConfig(TEN, {"mode": "team"}), clock=FakeClock())
    screen = GameScreen(ctx=ctx, session=session)
    for event in (CardRevealed("red"), CardRevealed("green"), ButtonPressed("next")):
        screen.submit(event)
    assert session.state.phase == "bids"
    on_window(screen)
    yield screen, session
    off_window(screen)
    ctx.log.close()


def bid_button(screen, player: str, bid: int) -> BigButton:
    row = next(
        r
        for r in screen.body.walk()
        if any(getattr(w, "text", "") in (player, player + " *") for w in r.children)
    )
    return next(b for b in row.children if isinstance(b, BigButton) and b.text == str(bid))


def test_bids_tapped_on_lower_rows_go_to_those_rows_players(bidding):
    screen, session = bidding
    scroll = bid_button(screen, "Greta", 5).parent.parent.parent
    scroll.scroll_y = 0  # scrolled down to the last rows
    settle()
    # where people see each of the three bids they mean, before anyone taps
    aims = [centre(bid_button(screen, p, b)) for p, b in (("Greta", 9), ("Hugo", 5), ("Ines", 6))]
    assert all(scroll.collide_point(*scroll.to_parent(*scroll.to_widget(*xy))) for xy in aims)
    for i, (x, y) in enumerate(aims):
        tap(x, y, 10.0 + i)
        settle()  # the list hands a tap to its button 0.2 s after the release
    bids = dict(zip(TEN, session.state.bids, strict=True))
    assert (bids["Greta"], bids["Hugo"], bids["Ines"]) == (9, 5, 6)
    assert [p for p, b in bids.items() if b is not None] == ["Greta", "Hugo", "Ines"]
    assert scroll.scroll_y == pytest.approx(0, abs=0.01)  # still where the finger left it
