"""Every enabled button on every screen is drawn at least 48x48 px and wholly on its screen at
the Pi's 800x480, and over the simulated table's strip: Home, player set-up, Settings, the
unfinished games, History, Statistics, and each game's screen in its main phases (the screen
is checked after every step of a scripted game, so each phase it passes through is walked)."""

from __future__ import annotations

import pytest
from kivy.uix.behaviors import ButtonBehavior

from companion import catalogue
from companion.clock import FakeClock
from companion.events import BallSeen, ButtonPressed
from companion.game import GameConfig
from companion.session import Session
from companion.ui.app import Root, game_screen_class
from companion.ui.context import AppContext
from companion.ui.render import pump
from companion.ui.sim_strip import STRIP_HEIGHT
from companion.ui.widgets import MIN_BUTTON
from tests.ui.fingers import off_window, on_window

pytestmark = pytest.mark.ui


def small_buttons(screen) -> list[str]:
    """Enabled, visible buttons under 48x48 px, as 'text WxH'."""
    out = []
    for w in screen.walk(restrict=True):
        if not isinstance(w, ButtonBehavior) or w.disabled or not w.opacity:
            continue
        if not (w.width and w.height) or not _visible(w):
            continue
        if w.width < MIN_BUTTON - 0.5 or w.height < MIN_BUTTON - 0.5:
            out.append(f"{getattr(w, 'text', type(w).__name__)!r} {w.width:.0f}x{w.height:.0f}")
    return out


def off_screen(screen) -> list[str]:
    """Enabled, visible buttons not wholly inside the screen (cut off, or under the strip
    or another row), as 'text'."""
    x0, y0 = screen.to_window(*screen.pos)
    x1, y1 = x0 + screen.width, y0 + screen.height
    out = []
    for w in screen.walk(restrict=True):
        if not isinstance(w, ButtonBehavior) or w.disabled or not _visible(w):
            continue
        if not (w.width and w.height):
            continue
        wx, wy = w.to_window(*w.pos)
        if wx < x0 - 0.5 or wy < y0 - 0.5 or wx + w.width > x1 + 0.5 or wy + w.height > y1 + 0.5:
            out.append(repr(getattr(w, "text", type(w).__name__)))
    return out


def _visible(w) -> bool:
    while w is not None:
        if getattr(w, "opacity", 1) == 0:
            return False
        w = w.parent if w.parent is not w else None
    return True


@pytest.fixture
def ctx(data_dir):
    ctx = AppContext.open(data_dir)
    yield ctx
    ctx.log.close()


@pytest.mark.parametrize("height", [480, 480 - STRIP_HEIGHT])  # on a Pi; over the sim strip
def test_home_setup_settings_and_unfinished_games(ctx, height):
    for players in (("Anna", "Ben"), ("Chloe", "David", "Emma")):  # Home offers to resume
        Session.start(catalogue.load("laser"), ctx.log, GameConfig(players))
    root = Root(ctx)
    seen = {}
    on_window(root, (800, height))
    try:
        for name in ("home", "settings", "unfinished", "history", "stats"):
            root.current = name
            pump()
            seen[name] = small_buttons(root.get_screen(name)) + off_screen(root.get_screen(name))
        for g in catalogue.games():
            root.choose_game(g.name)
            pump()
            seen[f"setup {g.name}"] = small_buttons(root.get_screen("setup"))
    finally:
        off_window(root)
    assert not any(seen.values()), {k: v for k, v in seen.items() if v}


def _kritters(more_points=False):
    from companion.games.kritters.events import FirstPlayer, PileEmpty, ScoreEntered, TurnDone

    players = ("Anna", "Ben", "Chloe")
    steps = [FirstPlayer("Anna"), PileEmpty("kritter_deck"), TurnDone(), TurnDone(), TurnDone()]
    steps += [ScoreEntered(p, cyan=2, palettes=1) for p in players]
    return players, {"more_points": more_points}, steps


def _laser_team():
    from companion.games.laser.events import (
        BidPlaced,
        CardRevealed,
        ClaimerNamed,
        ImpossibleClaimed,
        RoundResult,
    )

    steps = [CardRevealed("cyan"), CardRevealed("blue"), ButtonPressed("next")]
    steps += [BidPlaced(p, b) for p, b in (("Suzie", 10), ("Tommy", 3), ("Kitti", 8))]
    steps += [BidPlaced("Peter", 7), RoundResult(True)]
    steps += [CardRevealed("red"), CardRevealed("green"), ImpossibleClaimed(None)]
    steps += [ClaimerNamed("Kitti"), "editor"]
    return ("Peter", "Suzie", "Tommy", "Kitti"), {"mode": "team"}, steps


def _laser_competitive():
    from companion.games.laser.events import BidPlaced, CardRevealed, RoundResult
    from tests.laser.test_screen import board_of
    from tests.laser.test_solver import COMP_EXAMPLE

    steps = [CardRevealed("yellow", "wood"), CardRevealed("green", "carpet")]
    steps += [board_of(COMP_EXAMPLE), BidPlaced("Tommy", 4), ("wait", 31), RoundResult(True, 4)]
    steps += ["referee", "editor"]
    return ("Peter", "Tommy", "Suzie"), {"mode": "competitive"}, steps


def _color_milk(board=1):
    from companion.games.color_milk.events import Predict

    players = ("Anna", "Ben", "Cleo")
    steps = []
    for balls in (("blue", "blue", "green", "orange", "pink"),) * 3:
        steps += [Predict(p, ("blue", "green")) for p in players]
        steps += [BallSeen(c, i, 1.0) for i, c in enumerate(balls)]
        steps += ["choose", "next"]
    return players, {"board": board}, steps


def _elios():
    from companion.games.elios.events import AddDisc, PlaceGroup, Ready
    from companion.games.elios.state import JOKER

    steps = [Ready("Ben", (3, 3, 2, 2, 1)), Ready("Chloe", (3, 3, 3, 2))]
    steps += [Ready("Anna", (3, 3, 2, 2, 1))]
    steps += [PlaceGroup("Anna", (("red", JOKER), ("blue", "blue"))), AddDisc("Ben")]
    return ("Anna", "Ben", "Chloe"), {}, steps


def _node():
    from companion.games.node import PlaceCard
    from tests.node.test_node_screen import card

    return ("Anna", "Ben"), {}, [PlaceCard("Anna", card("rrr/bbb"), 6, 9)]


SCENARIOS = {
    "kritters": ("kritters", _kritters),
    "kritters-more-points": ("kritters", lambda: _kritters(more_points=True)),
    "laser-team": ("laser", _laser_team),
    "laser-competitive": ("laser", _laser_competitive),
    "color-milk": ("color-milk", _color_milk),
    "color-milk-board-6": ("color-milk", lambda: _color_milk(board=6)),
    "elios": ("elios", _elios),
    "node": ("node", _node),
}


@pytest.mark.parametrize("scenario", SCENARIOS)
def test_every_phase_of_every_game(ctx, scenario):
    game, build = SCENARIOS[scenario]
    players, options, steps = build()
    clock = FakeClock()
    session = Session.start(
        catalogue.load(game), ctx.log, GameConfig(players, options), clock=clock
    )
    screen = game_screen_class(game)(ctx=ctx, session=session)
    on_window(screen, (800, 480 - STRIP_HEIGHT))  # the smaller area: over the simulated strip
    small, phases = {}, []
    try:
        for step in [None, *steps]:
            _do(screen, session, clock, step)
            screen.refresh()
            pump(2)
            phase = f"{getattr(session.state, 'phase', '')} after {step!r:.40}"
            phases.append(phase)
            if found := small_buttons(screen) + off_screen(screen):
                small[phase] = found
    finally:
        off_window(screen)
        screen.close()
    assert len({p.split(" after")[0] for p in phases}) >= 2 or game == "node", phases
    assert not small, small


def _do(screen, session, clock, step) -> None:
    if step is None:
        return
    if step == "editor":
        screen._open_editor()
    elif step == "referee":
        screen._toggle_referee()
    elif step == "choose":
        while session.state.phase == "choose":
            screen.tap_ball(0)
    elif step == "next":
        screen.next()
    elif isinstance(step, tuple) and step[0] == "wait":
        clock.advance(step[1])
        session.poll()
    else:
        session.submit(step)
