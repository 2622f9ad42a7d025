"""The Laser screen used as a person would, with screenshots at 800x480.

COMPANION_WRITE_DOCS=1 also writes the screenshots the docs show to docs/img/laser-*.png.
"""

import time

import pytest

from companion.clock import FakeClock  # noqa: E402
from companion.game import GameConfig  # noqa: E402
from companion.games.laser import GAME  # noqa: E402
from companion.games.laser.events import BidPlaced, BoardEntered, CardRevealed, RoundResult
from companion.games.laser.solver.referee import THINKING
from companion.session import Session  # noqa: E402
from companion.ui.context import AppContext  # noqa: E402
from companion.ui.render import pump, render_to_png  # noqa: E402
from companion.ui.widgets import MIN_TOUCH, BigButton  # noqa: E402

from .helpers import RING, unsure_ring  # noqa: E402
from .test_solver import COMP_EXAMPLE, TEAM_EXAMPLE  # noqa: E402

pytestmark = pytest.mark.ui
TEAM4 = ("Peter", "Suzie", "Tommy", "Kitti")


def make_screen(data_dir, players=TEAM4, **options):
    from companion.games.laser.screen import GameScreen

    ctx = AppContext.open(data_dir)
    clock = FakeClock()
    session = Session.start(GAME, ctx.log, GameConfig(players, options), clock=clock)
    return GameScreen(ctx=ctx, session=session), session, clock


def drawn(path):
    import cv2

    img = cv2.imread(str(path))
    assert img.shape[:2] == (480, 800)
    assert img.std() > 20  # something is drawn, not a blank frame
    return img


def shoot(docs_shot, screen, name):
    """A screenshot the docs show as img/laser-<name>.png."""
    return drawn(docs_shot(screen, f"laser-{name}"))


def buttons(screen, text=None):
    return [
        b
        for b in screen.body.walk()
        if isinstance(b, BigButton) and (text is None or b.text == text)
    ]


def tap(screen, text):
    found = [b for b in buttons(screen, text) if not b.disabled]
    assert found, f"no enabled button {text!r}"
    found[0].dispatch("on_release")


def referee_answer(screen, seconds=20):
    """Let Kivy's clock run until the referee's worker has answered."""
    deadline = time.monotonic() + seconds
    while screen.referee.thinking(screen.state):
        assert time.monotonic() < deadline, "the referee never answered"
        pump(1)
    return screen.referee_text()


def test_the_referee_answers_from_its_own_process_while_the_screen_goes_on(data_dir):
    screen, session, clock = make_screen(data_dir, ("Peter", "Tommy"), mode="competitive")
    session.submit(CardRevealed("yellow", "wood"))
    session.submit(CardRevealed("green", "carpet"))
    session.submit(board_of(COMP_EXAMPLE))
    session.submit(BidPlaced("Tommy", 4))
    clock.advance(31)
    session.poll()
    session.submit(RoundResult(True, 4))
    screen.refresh()
    tap(screen, "Referee: last round")
    assert screen.referee_text() == THINKING
    tap(screen, "Back")  # the screen answers touches while the referee works
    assert not screen.show_referee
    assert referee_answer(screen).startswith("Referee: best 3 MP")
    assert screen.referee._worker._pool is not None  # it was a process of its own
    tap(screen, "Referee: last round")
    pump(1)
    assert any("Referee: best 3 MP" in getattr(w, "text", "") for w in screen.body.walk())
    screen.close()
    assert screen.referee._worker._pool is None  # the referee's process is stopped


def assert_touchable(screen):
    for b in screen.body.walk():
        if isinstance(b, BigButton) and b.opacity and not b.disabled and b.get_root_window():
            assert b.width >= MIN_TOUCH - 1 and b.height >= MIN_TOUCH - 1, (b.text, b.size)


def board_of(example):
    sup = example["supply"]
    return BoardEntered(
        tuple(example["tiles"]),
        example["cat"],
        tuple(sup.get(c, 0) for c in ("red", "yellow", "green", "cyan", "blue", "magenta")),
        tuple(example["floors"]) if "floors" in example else None,
    )


def test_team_round_by_taps_with_the_bid_screen(data_dir, tmp_path, docs_shot):
    screen, session, clock = make_screen(data_dir)
    drawn(render_to_png(screen, tmp_path / "reveal.png"))
    tap(screen, "C")  # colour buttons carry their letter
    tap(screen, "B")
    assert session.state.phase == "planning"
    tap(screen, "Everyone ready")
    assert session.state.phase == "bids"
    # Suzie 10, Tommy 3, Kitti 8 entered, Peter still to bid
    for p, b in (("Suzie", 10), ("Tommy", 3), ("Kitti", 8)):
        session.submit(BidPlaced(p, b))
    screen.refresh()
    img = shoot(docs_shot, screen, "team-bids")
    assert_touchable(screen)
    rows = [b for b in buttons(screen) if b.text in {str(n) for n in range(2, 11)}]
    assert len(rows) == 4 * 9  # one 2-10 row per player
    peter_seven = [b for b in rows if b.text == "7"][0]
    peter_seven.dispatch("on_release")
    assert session.state.phase == "mixing" and session.state.mate == 3
    assert img.mean() > 5
    tap(screen, "Done in time")
    assert GAME.scores(session.state) == {"Peter": 7, "Suzie": 0, "Tommy": 0, "Kitti": 7}


def test_competitive_clock_screen(data_dir, docs_shot):
    screen, session, clock = make_screen(data_dir, ("Peter", "Tommy", "Suzie"), mode="competitive")
    tap(screen, "Y")
    assert not buttons(screen, "Wood")[0].disabled
    tap(screen, "Wood")
    tap(screen, "G")
    tap(screen, "Carpet")
    assert session.state.cards == (("yellow", "wood"), ("green", "carpet"))
    tap(screen, "Peter")
    tap(screen, "6")
    assert session.state.phase == "bidding"
    tap(screen, "Tommy")
    # numbers at or above the lowest bid are disabled
    assert all(b.disabled for b in buttons(screen) if b.text in ("6", "7", "12"))
    tap(screen, "4")
    clock.advance(12)
    session.poll()
    screen.refresh()
    screen._update_countdown()
    shoot(docs_shot, screen, "competitive-clock")
    assert_touchable(screen)
    assert screen.ids.countdown.active and 17 < screen.ids.countdown.seconds < 19


def test_demonstration_proposes_the_solver_count_and_the_referee_shows_the_optimum(
    data_dir, docs_shot
):
    screen, session, clock = make_screen(data_dir, ("Peter", "Tommy"), mode="competitive")
    session.submit(CardRevealed("yellow", "wood"))
    session.submit(CardRevealed("green", "carpet"))
    session.submit(board_of(COMP_EXAMPLE))
    session.submit(BidPlaced("Tommy", 4))
    clock.advance(31)
    session.poll()
    screen.refresh()
    assert session.state.phase == "demonstration" and session.state.proposal == 4
    shoot(docs_shot, screen, "demonstration")
    proposed = [b for b in buttons(screen, "4")][0]
    proposed.dispatch("on_release")
    assert GAME.scores(session.state)["Tommy"] == 4
    # next round: the referee panel shows the optimum of the round just played, worked out
    # on a worker thread while the screen says that it is thinking
    tap(screen, "Referee: last round")
    assert any(w.text == THINKING for w in screen.body.walk() if hasattr(w, "text"))
    text = referee_answer(screen)
    assert text.startswith("Referee: best 3 MP (bid 4)")
    assert "takes yellow" in text or "makes green" in text
    pump(1)
    assert any(text.splitlines()[0] in getattr(w, "text", "") for w in screen.body.walk())
    shoot(docs_shot, screen, "referee")
    tap(screen, "Back")
    assert buttons(screen, "R")


def test_impossible_button_and_naming_the_claimer(data_dir, docs_shot):
    screen, session, _ = make_screen(data_dir)
    tap(screen, "C")
    tap(screen, "B")
    tap(screen, "Impossible!")
    assert session.state.phase == "challenge" and session.state.claimer is None
    tap(screen, "Kitti")
    assert session.state.claimer == 3
    shoot(docs_shot, screen, "impossible")


def test_board_editor_saves_a_board(data_dir, docs_shot):
    screen, session, _ = make_screen(data_dir)
    tap(screen, "Enter board")
    ed = screen.editor
    assert ed is not None
    shoot(docs_shot, screen, "board-editor")
    for i, colour in enumerate(TEAM_EXAMPLE["tiles"]):
        if colour:
            ed.brush = colour
            ed.tap_tile(i)
    ed.tap_tile(0)  # the cat's tile stays empty
    assert ed.tiles[0] is None
    tap(screen, "Save board")  # three reds on the board and two spare: one too many
    assert screen.editor is not None and "5 red figures" in screen.banner_text
    red_spares = [b for b in screen.body.walk() if getattr(b, "text", "") == "R 2"][0]
    red_spares.dispatch("on_release")
    yellow_spares = [b for b in screen.body.walk() if getattr(b, "text", "") == "Y 2"][0]
    yellow_spares.dispatch("on_release")
    assert ed.supply[:2] == [1, 1]
    tap(screen, "Save board")
    assert screen.editor is None
    assert session.state.board[0] == tuple(TEAM_EXAMPLE["tiles"])


def test_bid_screen_scrolls_for_ten_players(data_dir, tmp_path):
    players = tuple(f"P{i}" for i in range(10))
    screen, session, _ = make_screen(data_dir, players)
    tap(screen, "R")
    tap(screen, "G")
    tap(screen, "Everyone ready")
    drawn(render_to_png(screen, tmp_path / "ten-bids.png"))
    nums = [b for b in buttons(screen) if b.text == "5"]
    assert len(nums) == 10


def test_a_refusal_while_entering_the_board_moves_no_tile(data_dir):
    from tests.ui.fingers import off_window, on_window

    screen, session, _ = make_screen(data_dir)
    tap(screen, "Enter board")
    on_window(screen)
    try:
        ed = screen.editor
        before = [ed.circle.to_window(x, y) for _, x, y in ed.circle.centres()]
        buttons_before = [b.to_window(*b.pos) for b in buttons(screen)]
        ed.brush = "red"
        for i in (1, 2, 3, 4, 5):
            ed.tap_tile(i)  # five reds on the board, two spare: one too many
        tap(screen, "Save board")
        pump(2)
        assert screen.banner_kind == "error" and screen.banner_text
        assert [ed.circle.to_window(x, y) for _, x, y in ed.circle.centres()] == before
        assert [b.to_window(*b.pos) for b in buttons(screen)] == buttons_before
    finally:
        off_window(screen)


def camera_reads_ring(screen, tile, likely):
    """The camera reads the ring, unsure of `tile` (likely answers best first)."""
    from kivy.clock import Clock

    screen.ctx.table_event(unsure_ring(tile, likely))
    assert screen.ctx.runtime.drain(5)
    Clock.tick()  # the change reaches the screen on its next frame


def test_an_unsure_ring_opens_the_editor_prefilled_with_the_tile_to_check(data_dir, docs_shot):
    from companion.ui.widgets import ColourButton

    screen, session, _ = make_screen(data_dir)
    tap(screen, "C")
    tap(screen, "B")
    assert session.state.phase == "planning"
    camera_reads_ring(screen, 4, ("cyan", "green", "empty"))
    assert session.state.proposed_board is not None and session.state.board is None
    tap(screen, "Check board")
    ed = screen.editor
    assert ed.tiles == [None if t == "cat" else t for t in RING] and ed.cat == 1
    assert ed.supply == [2, 1, 2, 2, 1, 2]
    assert ed.unsure == {4: ("cyan", "green", "empty")} and ed.focus == 4
    answers_row, brush_grid = ed.side.children[::-1][:2]
    brushes = [b.colour for b in brush_grid.children[::-1] if isinstance(b, ColourButton)]
    assert brushes[:2] == ["cyan", "green"]  # the likely colours first
    answers = [b for b in answers_row.children[::-1] if isinstance(b, BigButton)]
    assert [getattr(b, "colour", b.text) for b in answers] == ["cyan", "green", "empty"]
    assert_touchable(screen)
    shoot(docs_shot, screen, "board-from-camera")
    answers[1].dispatch("on_release")  # it is green after all
    assert ed.tiles[4] == "green" and ed.unsure == {} and ed.focus is None
    tap(screen, "Save board")
    assert screen.editor is None and session.state.proposed_board is None
    assert session.state.board[0] == tuple(None if t == "cat" else t for t in RING)
    assert "Check board" not in [b.text for b in buttons(screen)]


def test_any_tile_can_be_answered_while_the_camera_s_reading_is_checked(data_dir):
    screen, session, _ = make_screen(data_dir)
    tap(screen, "C")
    tap(screen, "B")
    camera_reads_ring(screen, 4, ("green", "cyan"))
    tap(screen, "Check board")
    ed = screen.editor
    ed.tap_tile(9)  # an empty tile the camera was sure of: it holds a blue figure
    assert ed.focus == 9 and ed.unsure[9] == ("empty",)
    [b for b in ed.side.walk() if getattr(b, "colour", "") == "blue"][0].dispatch("on_release")
    assert ed.tiles[9] == "blue" and ed.focus == 4  # back to the tile still in question
    ed.answer("cat")
    assert ed.cat == 4 and ed.tiles[4] is None and ed.focus is None


def test_the_cameras_result_of_a_demonstration_is_confirmed_with_one_tap(tmp_path):
    from companion.events import TimerExpired
    from companion.games.laser.events import ResultProposed

    from .test_demo_sensing import CAT, FULL, TILES

    screen, session, clock = make_screen(tmp_path)
    for colour in ("cyan", "blue"):
        session.submit(CardRevealed(colour))
    session.submit(TimerExpired(session.game.timer(session.state).key))
    session.submit(BoardEntered(TILES, CAT, FULL))
    for name, bid in {"Peter": 3, "Suzie": 3, "Tommy": 9, "Kitti": 10}.items():
        session.submit(BidPlaced(name, bid))
    assert session.state.phase == "mixing"
    session.submit(ResultProposed("Every card done in 3 MP: confirm?", True, 4))
    pump()
    panel = screen.question_panel
    assert panel is not None and [b.text for b in panel.buttons] == ["Confirm"]
    assert panel.buttons[0].height >= MIN_TOUCH
    panel.buttons[0].dispatch("on_release")
    assert session.state.scores == (3, 3, 0, 0) and session.state.round == 2
    pump()
    assert screen.question_panel is None


def test_the_proof_says_no_solution_exists_before_a_result_is_tapped(data_dir):
    from kivy.uix.label import Label

    from companion.events import TimerExpired
    from companion.games.laser.events import ImpossibleClaimed

    screen, session, _ = make_screen(data_dir, ("Peter", "Tommy", "Suzie"), mode="competitive")
    tiles = (None, "red", "green") + (None,) * 9  # nothing can make the green card's figure
    floors = ("wood",) * 4 + ("carpet",) * 8
    for ev in (
        CardRevealed("yellow", "wood"),
        CardRevealed("green", "carpet"),
        BoardEntered(tiles, 0, (0, 1, 0, 0, 0, 0), floors),
        ImpossibleClaimed("Suzie"),
        BidPlaced("Tommy", 4),
    ):
        session.submit(ev)
    session.submit(TimerExpired(GAME.timer(session.state).key))
    screen.refresh()
    pump(2)
    assert session.state.phase == "proof"
    texts = [w.text for w in screen.body.walk() if isinstance(w, Label)]
    assert any(t.startswith("No solution exists in exactly 4 steps") for t in texts), texts
    assert all(b.disabled for b in buttons(screen, "It worked"))
    tap(screen, "Failed")
    assert session.state.xs == (1, 1, 0)
