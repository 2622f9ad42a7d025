"""Every screen at the Pi's 800x480 (and over the simulated strip) with the most players a
game takes and 40-character names: no enabled button under 48x48 px, no label whose text is
larger than its box (it fits or shortens). Each game is walked after every step of a scripted
game, so each phase it passes through is checked."""

from __future__ import annotations

import pytest

from companion import catalogue
from companion.clock import FakeClock
from companion.events import BallSeen
from companion.game import GameConfig
from companion.session import Session
from companion.ui.app import Root, game_screen_class
from companion.ui.context import AppContext
from companion.ui.render import pump
from companion.ui.sim_strip import STRIP_HEIGHT
from tests.ui.fingers import off_window, on_window
from tests.ui.layout_walk import overflowing_labels, small_buttons

pytestmark = pytest.mark.ui

NAMES = tuple(f"{c * 3}xandra-Maximiliane von Hohenzollern-Sig"[:40] for c in "ABCDEFGHIJKL")
assert all(len(n) == 40 for n in NAMES) and len(set(NAMES)) == 12


@pytest.fixture
def ctx(data_dir):
    ctx = AppContext.open(data_dir)
    yield ctx
    ctx.log.close()


def problems(screen) -> list[str]:
    return small_buttons(screen) + overflowing_labels(screen)


@pytest.mark.parametrize("height", [480, 480 - STRIP_HEIGHT])
def test_home_setup_and_the_other_screens(ctx, height):
    Session.start(catalogue.load("laser"), ctx.log, GameConfig(NAMES[:10], {"mode": "team"}))
    root = Root(ctx)
    seen = {}
    on_window(root, (800, height))
    try:
        for name in ("home", "settings", "unfinished", "history", "stats"):
            root.current = name
            pump()
            seen[name] = problems(root.get_screen(name))
        for g in catalogue.games():
            root.choose_game(g.name)
            pump()
            seen[f"setup {g.name}"] = problems(root.get_screen("setup"))
    finally:
        off_window(root)
    assert not any(seen.values()), {k: v for k, v in seen.items() if v}


def _color_milk():
    from companion.games.color_milk.events import Predict

    players = NAMES[:5]
    steps = []
    for balls in (("blue", "blue", "green", "orange", "pink"),) * 3:
        steps += [Predict(p, ("blue", "green")) for p in players]
        steps += [BallSeen(c, i, 1.0) for i, c in enumerate(balls)]
        steps += ["choose", "next"]
    return players, {}, steps


def _color_milk_to_the_end(board=6):
    from companion.games.color_milk.events import Predict, Tally

    players = NAMES[:5]
    balls = ("blue", "blue", "green", "orange", "pink")
    steps = []
    for rnd in range(2):
        steps += [Predict(p, ("blue", "green")) for p in players]
        steps += [BallSeen(c, i, 1.0) for i, c in enumerate(balls)]
        steps += ["choose"]
        if rnd == 0:  # six coins: this round is finished, then one final round
            steps += [Tally(players[1], "coins", 1)] * 6
        steps += ["next"]
    steps += ["next"]  # the end counts (board 6) are confirmed: the results
    return players, {"board": board}, steps


def _kritters():
    from companion.games.kritters.events import FirstPlayer, PileEmpty, ScoreEntered, TurnDone

    players = NAMES
    steps = [FirstPlayer(players[0]), PileEmpty("kritter_deck")]
    steps += [TurnDone()] * 12
    steps += [ScoreEntered(p, cyan=2, palettes=1) for p in players]
    return players, {}, steps


def _laser_team():
    from companion.events import ButtonPressed
    from companion.games.laser.events import BidPlaced, CardRevealed, RoundResult

    players = NAMES[:10]
    steps = [CardRevealed("cyan"), CardRevealed("blue"), ButtonPressed("next")]
    steps += [BidPlaced(p, 2 + i % 9) for i, p in enumerate(players)] + [RoundResult(True)]
    return players, {"mode": "team"}, steps


def _laser_competitive():
    from companion.games.laser.events import BidPlaced, CardRevealed, RoundResult
    from tests.laser.test_screen import board_of
    from tests.laser.test_solver import COMP_EXAMPLE

    players = NAMES[:10]
    steps = [CardRevealed("yellow", "wood"), CardRevealed("green", "carpet")]
    steps += [board_of(COMP_EXAMPLE), BidPlaced(players[1], 4), ("wait", 31)]
    steps += [RoundResult(True, 4)]
    return players, {"mode": "competitive"}, steps


def _elios():
    from companion.games.elios.events import AddDisc, PlaceGroup, Ready
    from companion.games.elios.state import DEAL, JOKER

    players = NAMES[:4]
    beams, jokers = DEAL[4]
    dealt = beams + jokers
    groups = (3,) * (dealt // 3 - 1) + (2, 1 + dealt % 3)  # a group of 2 to open with
    steps = [Ready(p, groups) for p in players]
    last = players[-1]
    steps += [PlaceGroup(last, (("red", JOKER), ("blue", "blue"))), AddDisc(players[0])]
    return players, {}, steps


def _node():
    from companion.games.node import PlaceCard
    from tests.node.test_node_screen import card

    players = NAMES[:2]
    return players, {}, [PlaceCard(players[0], card("rrr/bbb"), 6, 9)]


SCENARIOS = {
    "color-milk": ("color-milk", _color_milk),
    "color-milk-to-the-end": ("color-milk", _color_milk_to_the_end),
    "kritters": ("kritters", _kritters),
    "laser-team": ("laser", _laser_team),
    "laser-competitive": ("laser", _laser_competitive),
    "elios": ("elios", _elios),
    "node": ("node", _node),
}


@pytest.mark.parametrize("height", [480, 480 - STRIP_HEIGHT])  # on a Pi; over the sim strip
@pytest.mark.parametrize("scenario", SCENARIOS)
def test_every_phase_with_the_most_players_and_long_names(ctx, scenario, height):
    game, build = SCENARIOS[scenario]
    players, options, steps = build()
    clock = FakeClock()
    session = Session.start(
        catalogue.load(game), ctx.log, GameConfig(players, options), clock=clock
    )
    screen = game_screen_class(game)(ctx=ctx, session=session)
    on_window(screen, (800, height))
    found, walked = {}, set()
    try:
        for step in [None, *steps]:
            if step == "choose":
                while session.state.phase == "choose":
                    screen.tap_ball(0)
            elif step == "next":
                screen.next()
            elif isinstance(step, tuple) and step[0] == "wait":
                clock.advance(step[1])
                session.poll()
            elif step is not None:
                session.submit(step)
            stage = screen._stage()  # the phase and whose turn: each is walked once
            if stage in walked and step is not steps[-1]:
                continue
            walked.add(stage)
            screen.refresh()
            pump(2)
            if seen := problems(screen):
                found[f"{getattr(session.state, 'phase', '')} after {step!r:.50}"] = seen
        if scenario.endswith("to-the-end"):
            assert session.game.is_over(session.state), session.state.phase
    finally:
        off_window(screen)
        screen.close()
    assert not found, found


def rows_in_view(screen) -> list[str]:
    """The scoreboard rows wholly inside the scoreboard's scrolled view."""
    board = screen.ids.scoreboard
    view = board.parent
    _, bottom = view.to_window(*view.pos)
    top = bottom + view.height
    out = []
    for row in board.children:
        _, y = row.to_window(*row.pos)
        if y >= bottom - 0.5 and y + row.height <= top + 0.5:
            out.append(row.name)
    return out


@pytest.mark.parametrize("height", [480, 480 - STRIP_HEIGHT])
def test_a_scoreboard_of_twelve_fits_its_column(ctx, height):
    from companion.games.kritters.events import FirstPlayer

    session = Session.start(
        catalogue.load("kritters"), ctx.log, GameConfig(NAMES), clock=FakeClock()
    )
    screen = game_screen_class("kritters")(ctx=ctx, session=session)
    on_window(screen, (800, height))
    try:
        screen.submit(FirstPlayer(NAMES[0]))
        pump()
        assert sorted(rows_in_view(screen)) == sorted(NAMES)
        assert not overflowing_labels(screen.ids.scoreboard)
    finally:
        off_window(screen)
        screen.close()


def test_a_scoreboard_too_long_for_its_view_follows_the_current_player(ctx):
    from companion.games.kritters.events import FirstPlayer, TurnDone

    session = Session.start(
        catalogue.load("kritters"), ctx.log, GameConfig(NAMES), clock=FakeClock()
    )
    screen = game_screen_class("kritters")(ctx=ctx, session=session)
    on_window(screen, (800, 300))  # 12 rows of the least height do not fit
    try:
        screen.submit(FirstPlayer(NAMES[0]))
        for n in range(11):
            current = session.game.current_player(session.state)
            pump()
            assert current in rows_in_view(screen), (n, current, rows_in_view(screen))
            screen.submit(TurnDone())
    finally:
        off_window(screen)
        screen.close()


def test_a_score_with_its_x_marks_stays_on_one_line(ctx):
    from companion.ui.widgets import Scoreboard

    board = Scoreboard(size_hint=(None, None), width=236)
    board.rows = [("red", "R", NAMES[0], "15 XX", True), ("blue", "B", "Ben", "-6 X", False)]
    on_window(board, (236, 110))
    try:
        pump()
        row = board.children[-1]
        score = row.children[0]
        assert score.text == "15 XX"
        assert score.texture_size[1] < row.height  # one line, not "15" over "XX"
        assert not overflowing_labels(board)
    finally:
        off_window(board)


@pytest.mark.parametrize("height", [480, 480 - STRIP_HEIGHT])
def test_seats_below_the_fold_are_announced_until_scrolled_to(ctx, height):
    root = Root(ctx)
    on_window(root, (800, height))
    try:
        root.choose_game("kritters")
        setup = root.get_screen("setup")
        while len(setup.ids.rows.children) < 6:
            setup.add_player()
        pump()
        seats = setup.ids.seats
        assert setup.ids.rows.height > seats.height  # some seats are out of sight...
        assert setup.ids.more_seats.text and seats.bar_inactive_color[3] == 1  # ...and it says so
        seats.scroll_y = 0
        pump()
        assert not setup.ids.more_seats.text
    finally:
        off_window(root)


@pytest.mark.parametrize("height", [480, 480 - STRIP_HEIGHT])
def test_the_home_tiles_stay_put_when_an_unfinished_game_waits(ctx, height):
    def tiles(root) -> list:
        root.current = "home"
        home = root.get_screen("home")
        home.refresh()
        pump()
        grid = home.ids.games
        return [(round(t.to_window(*t.pos)[1]), round(t.x), round(t.width)) for t in grid.children]

    root = Root(ctx)
    on_window(root, (800, height))
    try:
        alone = tiles(root)
        Session.start(catalogue.load("laser"), ctx.log, GameConfig(NAMES[:3], {"mode": "team"}))
        waiting = tiles(root)
        assert root.get_screen("home").resume_text  # the unfinished game is offered...
        assert waiting == alone  # ...and no tile moved for it
        assert len({x for _, x, _ in alone}) == 1  # one column
    finally:
        off_window(root)
