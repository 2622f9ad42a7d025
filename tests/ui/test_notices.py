"""Every notice is read whole: the banner over the title wraps a long notice, steps its font
down, and grows down over the body when it must; no notice is cut, no text leaves its box.
The notices are the long ones the games emit, made by the rules themselves where they can
be, with 40-character names, at the Pi's 800x480 over the simulated strip."""

from __future__ import annotations

import pytest
from kivy.metrics import sp

from companion import catalogue
from companion.clock import FakeClock
from companion.game import GameConfig
from companion.session import Session
from companion.ui.context import AppContext
from companion.ui.render import pump
from companion.ui.sim_strip import STRIP_HEIGHT
from tests.ui.fingers import off_window, on_window

pytestmark = pytest.mark.ui

LONG = "Alexandra-Maximiliane von Hohenzollern-S"  # 40 characters
assert len(LONG) == 40


@pytest.fixture
def ctx(data_dir):
    ctx = AppContext.open(data_dir)
    yield ctx
    ctx.log.close()


def _announced(game: str, players, options, *events) -> str:
    """The text of the last cue the rules emit for `events`."""
    g = catalogue.load(game)
    state = g.initial_state(GameConfig(players, options))
    cues = ()
    for ev in events:
        state, cues = g.apply(state, ev)
    cue = cues[-1]
    return getattr(cue, "text", None) or getattr(cue, "question", None) or cue.message


def laser_refill(figures) -> str:
    from companion.games.laser.events import RefillSeen
    from companion.games.laser.refill import Table, refill
    from companion.games.laser.sensing.refill_check import plan_lines

    plan = refill(Table((None,) * 12, 0, (2,) * 6), figures)
    return _announced(
        "laser", (LONG, "Ben", "Cleo"), {"mode": "team"}, RefillSeen("plan", plan_lines(plan))
    )


def kritters_last_round() -> str:
    from companion.games.kritters.events import FirstPlayer, PileEmpty

    return _announced(
        "kritters", ("Anna", LONG, "Cleo"), {}, FirstPlayer("Anna"), PileEmpty("kritter_deck")
    )


def color_milk_reveal() -> str:
    from companion.events import BallSeen

    names = tuple(f"{c * 3}{LONG[3:]}" for c in "ABCDE")
    balls = [BallSeen(c, i, 1.0) for i, c in enumerate(("blue", "green", "blue", "pink", "orange"))]
    return _announced("color-milk", names, {}, *balls)


def notices() -> dict[str, str]:
    from companion.ui.sensor_notices import sensor_notice

    return {
        "color milk reveal, 5 players": color_milk_reveal(),
        "laser refill, 8 figures": laser_refill((0, 1, 2, 3, 4, 5, 0, 1)),
        "laser refill, 18 figures": laser_refill(tuple(range(6)) * 3),
        "kritters last round": kritters_last_round(),
        "color milk final round": f"{LONG} has 5 coins! Finish this round, then play one "
        "final round.",
        "laser ring read": "The camera read the ring: set the floors once on the board",
        "sensor": sensor_notice("beam", "burst"),
    }


def rendered_words(label) -> str:
    """The words the label drew, line after line (a cut notice loses some)."""
    lines = label._label._cached_lines
    return " ".join(w.text for line in lines for w in line.words).split()


@pytest.mark.parametrize("which", list(notices()))
def test_a_long_notice_is_shown_whole_inside_its_banner(ctx, which):
    text = notices()[which]
    session = Session.start(
        catalogue.load("kritters"), ctx.log, GameConfig(("Anna", LONG)), clock=FakeClock()
    )
    screen = games_screen(ctx, session)
    on_window(screen, (800, 480 - STRIP_HEIGHT))
    try:
        screen.show_banner(text, "info")
        pump()
        banner = screen.ids.banner
        assert banner.opacity == 1 and banner.text == text
        assert rendered_words(banner) == text.split(), "the notice is cut"
        tw, th = banner.texture_size
        assert tw <= banner.width and th <= banner.height, (banner.texture_size, banner.size)
        assert banner.font_size >= sp(13) - 0.01  # readable from the chair
        slot = screen.ids.title_slot
        assert banner.top == pytest.approx(slot.to_window(*slot.pos)[1] + slot.height)
        assert banner.parent is screen and screen.children[0] in (banner, screen.question_panel)
    finally:
        off_window(screen)
        screen.close()


def games_screen(ctx, session):
    from companion.ui.app import game_screen_class

    return game_screen_class(session.game.name)(ctx=ctx, session=session)
