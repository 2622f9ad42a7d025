"""The Elios screen used as a person would: counters, ready, tap rays, place; screenshots."""

import pytest

from companion.catalogue import load  # noqa: E402
from companion.clock import FakeClock  # noqa: E402
from companion.game import GameConfig  # noqa: E402
from companion.games.elios import JOKER, AddDisc, PlaceGroup, Ready  # noqa: E402
from companion.games.elios.state import DISCS_IN_BOX  # noqa: E402
from companion.session import Session  # noqa: E402
from companion.ui.context import AppContext  # noqa: E402
from companion.ui.widgets import MIN_TOUCH, BigButton  # noqa: E402

pytestmark = pytest.mark.ui
GAME = load("elios")


def make_screen(data_dir, players=("Anna", "Ben", "Chloe"), **options):
    from companion.games.elios.screen import EliosScreen

    ctx = AppContext.open(data_dir)
    session = Session.start(GAME, ctx.log, GameConfig(players, options), clock=FakeClock())
    return EliosScreen(ctx=ctx, session=session), session


def a_few_turns(session):
    session.submit(Ready("Ben", (3, 3, 2, 2, 1)))
    session.submit(Ready("Chloe", (3, 3, 3, 2)))
    session.submit(Ready("Anna", (3, 3, 2, 2, 1)))
    session.submit(PlaceGroup("Anna", (("red", JOKER), ("blue", "blue"))))
    session.submit(AddDisc("Ben"))
    session.submit(PlaceGroup("Chloe", (("red", "green"), ("blue", "blue"))))
    session.submit(AddDisc("Anna"))  # Ben to play, his joker still in hand


def assert_screenshot(path):
    import cv2

    img = cv2.imread(str(path))
    assert img.shape[:2] == (480, 800)
    assert img.std() > 20


def assert_touchable(widget):
    for b in widget.walk():
        if isinstance(b, BigButton) and b.opacity and b.height and not b.disabled:
            assert b.width >= MIN_TOUCH and b.height >= MIN_TOUCH, (b.text, b.size)


def test_grouping_counters_ready_and_the_last_one_starts(data_dir, docs_shot):
    screen, session = make_screen(data_dir)
    path = docs_shot(screen, "elios-grouping")
    assert_screenshot(path)
    assert_touchable(screen)
    assert screen.grouper == "Anna"
    assert sum(screen._groups()) == 11  # pre-filled with what was drawn
    screen.counters[1].bump(1)  # 12 beams: not what Anna drew
    screen.refresh()
    assert screen.ready_button.disabled
    screen.counters[1].bump(-1)
    screen.refresh()
    screen.ready_button.dispatch("on_release")
    assert session.state.hand("Anna").ready
    for name in ("Chloe", "Ben"):
        screen._choose_grouper(name)
        screen.ready_button.dispatch("on_release")
    assert GAME.current_player(session.state) == "Ben"
    assert screen.playing in screen.body.children


def test_a_turn_is_built_by_tapping_rays(data_dir, docs_shot):
    screen, session = make_screen(data_dir)
    a_few_turns(session)
    screen.refresh()
    assert GAME.current_player(session.state) == "Ben"
    screen._tap_ray("yellow")  # a yellow beam on the yellow ray
    screen._pick(JOKER)
    screen._tap_ray("pink")  # the joker on the pink ray
    assert screen.pending == [("yellow", "yellow"), ("pink", JOKER)]
    assert "group: yellow on yellow, joker on pink" in screen.hand_line.text
    path = docs_shot(screen, "elios-turn")
    assert_screenshot(path)
    assert_touchable(screen)
    screen.place_button.dispatch("on_release")
    assert session.state.ray("pink")[-1] == JOKER
    assert screen.pending == []
    assert GAME.current_player(session.state) == "Chloe"


def test_refused_group_shows_why_and_changes_nothing(data_dir):
    screen, session = make_screen(data_dir)
    a_few_turns(session)
    screen.refresh()
    before = session.state
    screen._tap_ray("yellow")
    screen._tap_ray("red")  # red ray is higher: two levels
    screen.place_button.dispatch("on_release")
    assert session.state is before
    assert screen.banner_kind == "error" and "same level" in screen.banner_text
    screen.undo()  # undo reaches the rules: Anna's disc comes back off
    assert GAME.current_player(session.state) == "Anna" and session.state.discs == 3
    assert screen.pending == []


def test_first_turn_offers_only_a_placement(data_dir):
    screen, session = make_screen(data_dir, players=("Anna", "Ben"))
    session.submit(Ready("Ben", (3,) * 6))
    session.submit(Ready("Anna", (3,) * 6))
    screen.refresh()
    assert not screen.place_button.disabled
    assert screen.disc_button.disabled and screen.split3.disabled and screen.pass_button.disabled
    screen._tap_ray("blue")  # no joker: refused with the rule
    screen.place_button.dispatch("on_release")
    assert "joker" in screen.banner_text


def test_tapping_a_ray_takes_its_top_colour_and_a_joker_top_asks(data_dir):
    screen, session = make_screen(data_dir)
    a_few_turns(session)
    screen.refresh()
    screen._tap_ray("red")  # red ray: red, joker, green
    assert screen.pending == [("red", "green")]
    screen._tap_ray("red")  # tapping again takes it back
    assert screen.pending == []
    session.submit(PlaceGroup("Ben", (("pink", JOKER),)))
    screen.refresh()
    screen._tap_ray("pink")  # the top is a joker: which colour goes on it?
    assert screen.pending == [] and screen.banner_kind == "ask"
    screen._pick("orange")
    screen._tap_ray("pink")
    assert screen.pending == [("pink", "orange")]


def test_touching_the_sun_picks_the_ray_under_the_finger(data_dir):
    from kivy.tests.common import UnitTestTouch

    from companion.ui.render import ensure_window, pump

    screen, session = make_screen(data_dir)
    a_few_turns(session)
    screen.refresh()
    window = ensure_window()
    window.add_widget(screen)
    screen.size_hint, screen.size, screen.pos = (None, None), (800, 480), (0, 0)
    try:
        pump()
        sun = screen.sun
        col = sun.width / 8
        touch = UnitTestTouch(sun.x + col * 2.5, sun.y + sun.height / 3)  # third ray: yellow
        touch.touch_down()
        touch.touch_up()
    finally:
        window.remove_widget(screen)
    assert screen.pending == [("yellow", "yellow")]


def test_four_players_see_their_team(data_dir):
    screen, session = make_screen(data_dir, players=("Anna", "Ben", "Chloe", "Dan"))
    for p in ("Ben", "Chloe", "Dan", "Anna"):
        session.submit(Ready(p, (3, 3, 2, 1)))
    screen.refresh()
    assert screen.hand_line.text.startswith("Anna (team A): groups 3 3 2 1")


def to_a_nearly_blocked_sun(session):
    """Plays Anna and Ben (single beams only) until all 9 discs are out and every beam is on
    the sun but 3 red and 4 orange ones: only the red ray, topped red, takes a beam.
    Anna (3 beams) to play; Ben holds 4."""
    sun = {
        "red": ("red",),
        "orange": (JOKER, "green"),
        "yellow": (JOKER,) + ("yellow",) * 4,
        "green": ("green",) * 3,
        "cyan": (JOKER,) + ("cyan",) * 4,
        "blue": (JOKER,) + ("blue",) * 4,
        "purple": ("purple",) * 4,
        "pink": ("pink",) * 4,
    }
    # bottom level first, jokers first within a level (the first play must hold one)
    beams = sorted(
        ((level, ray, c) for ray, stack in sun.items() for level, c in enumerate(stack, 2)),
        key=lambda b: (b[0], b[2] != JOKER),
    )
    session.submit(Ready("Ben", (1,) * 18))
    session.submit(Ready("Anna", (1,) * 18))
    while beams or session.state.discs < DISCS_IN_BOX:
        s = session.state
        fits = [
            b
            for b in beams
            if b[0] <= s.discs and len(s.ray(b[1])) + 1 == b[0]
            if b[2] != JOKER or s.hand(s.current).jokers
        ]
        if fits:
            beams.remove(fits[0])
            session.submit(PlaceGroup(s.current, ((fits[0][1], fits[0][2]),)))
        else:
            session.submit(AddDisc(s.current))
    s = session.state
    assert (s.current, s.hand("Anna").beams, s.hand("Ben").beams) == ("Anna", 3, 4)


def test_pass_asks_when_the_table_cannot_tell_and_refuses_when_it_can(data_dir, docs_shot):
    from companion.ui.render import pump
    from tests.ui.fingers import centre, off_window, on_window, tap

    screen, session = make_screen(data_dir, players=("Anna", "Ben"))
    to_a_nearly_blocked_sun(session)
    screen.refresh()
    on_window(screen)
    try:
        assert not screen.pass_button.disabled
        x, y = centre(screen.pass_button)
        tap(x, y, 100)
        tap(x, y, 100.15)  # a double tap: the second lands on the question, not on Pass
        pump()
        panel = screen.question_panel
        assert panel is not None and session.state.current == "Anna"
        question = panel.children[-1].text
        assert question.startswith("Anna: can none of your beams go on the sun?")
        assert "red on the red ray" in question
        assert_touchable(panel)
        assert_screenshot(docs_shot(screen, "elios-pass"))
        on_window(screen)  # the shot took the screen off the window
        tap(*centre(panel.buttons[0]), 101)  # "None fits: pass"
        assert screen.question_panel is None
        assert session.state.current == "Ben" and session.state.passed == ("Anna",)
        # Ben's 4 beams and Anna's 3 cannot all be oranges: one of them has a red to play
        tap(x, y, 102)
        assert screen.question_panel is None and screen.banner_kind == "error"
        assert screen.banner_text.startswith("Anna or Ben holds a beam that fits: undo the wrong")
        assert "7 beams held" in screen.banner_text and not GAME.is_over(session.state)
    finally:
        off_window(screen)
    screen.undo()
    assert session.state.current == "Anna" and session.state.passed == ()
    screen._tap_ray("red")
    screen.place_button.dispatch("on_release")
    assert session.state.ray("red") == ("red",) * 3


def test_other_closes_the_pass_question_without_passing(data_dir):
    screen, session = make_screen(data_dir, players=("Anna", "Ben"))
    to_a_nearly_blocked_sun(session)
    screen.refresh()
    screen.pass_button.dispatch("on_release")
    screen.question_panel.other.dispatch("on_release")
    assert screen.question_panel is None and session.state.current == "Anna"
