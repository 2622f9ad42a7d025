"""The Kritters screen rendered headless at 800x480: score entry with live totals, ranking."""

from __future__ import annotations

import pytest
from kivy.uix.label import Label  # noqa: E402

from companion.clock import FakeClock  # noqa: E402
from companion.game import GameConfig  # noqa: E402
from companion.games.kritters import GAME  # noqa: E402
from companion.games.kritters.events import FirstPlayer, PileEmpty, TurnDone  # noqa: E402
from companion.session import Session  # noqa: E402
from companion.ui.context import AppContext  # noqa: E402
from companion.ui.render import pump  # noqa: E402
from companion.ui.widgets import MIN_TOUCH, BigButton  # noqa: E402

pytestmark = pytest.mark.ui


def texts(widget):
    return " | ".join(w.text for w in widget.walk() if isinstance(w, Label))


def button(widget, text):
    found = [b for b in widget.walk() if isinstance(b, BigButton) and b.text == text]
    assert found, f"no button {text!r} in {texts(widget)}"
    return found[0]


def tap(widget, text):
    b = button(widget, text)
    assert not b.disabled, text
    b.dispatch("on_release")
    pump(1)


def stepper(screen, key):
    return screen._steppers[key]


def assert_touchable(widget):
    for b in widget.walk():
        if isinstance(b, BigButton) and b.opacity and b.height and not b.disabled:
            assert b.width >= MIN_TOUCH - 1 and b.height >= MIN_TOUCH - 1, (b.text, b.size)


def shot(docs_shot, widget, name):
    """A screenshot the docs show as img/kritters-<name>.png."""
    path = docs_shot(widget, f"kritters-{name}")
    import cv2

    img = cv2.imread(str(path))
    assert img.shape[:2] == (480, 800) and img.std() > 20
    return path


@pytest.fixture
def screen_for(data_dir):
    ctxs = []

    def make(players, **options):
        from companion.games.kritters.screen import GameScreen

        ctx = AppContext.open(data_dir)
        ctxs.append(ctx)
        session = Session.start(GAME, ctx.log, GameConfig(players, options), clock=FakeClock())
        return GameScreen(ctx=ctx, session=session)

    yield make
    for ctx in ctxs:
        ctx.log.close()


def test_the_app_finds_the_kritters_screen():
    from companion.games.kritters.screen import KrittersScreen
    from companion.ui.app import game_screen_class

    assert game_screen_class("kritters") is KrittersScreen


def test_setup_then_turns(screen_for, docs_shot):
    screen = screen_for(("Anna", "Ben", "Chloe"))
    shown = texts(screen)
    assert "7 paintbrushes, 4 palettes" in shown and "First Player card" in shown
    shot(docs_shot, screen, "setup")
    tap(screen, "Ben")
    assert "Ben[/b]'s turn" in texts(screen)
    tap(screen, "Bought paintbrush")
    assert screen.state.pile("paintbrush") == 6 and "Bought: Paintbrush" in texts(screen)
    tap(screen, "Turn done: next player")
    assert GAME.current_player(screen.state) == "Chloe"
    tap(screen, "Kritter deck empty")
    assert "Last round" in texts(screen) and "ends after Anna" in texts(screen)
    shot(docs_shot, screen, "turn")
    assert_touchable(screen)


def to_scoring(screen):
    screen.submit(FirstPlayer(screen.state.players[0]))
    screen.submit(PileEmpty("kritter_deck"))
    while screen.state.phase == "play":
        screen.submit(TurnDone())
    pump(1)


def test_score_entry_updates_as_you_tap_and_saves(screen_for, docs_shot):
    screen = screen_for(("Anna", "Ben", "Chloe"))
    to_scoring(screen)
    assert screen._player == "Anna"
    for key, n in (
        ("cyan", 4),
        ("magenta", 6),
        ("yellow", 5),
        ("paintbrushes", 1),
        ("palettes", 2),
    ):
        for _ in range(n):
            stepper(screen, key).step(+1)
    assert screen._total.text == "17 points"
    tap(screen, "+3")  # a red point kritter worth 3 (the first row is red)
    screen._point_changed("blue", 4)
    assert screen._total.text == "24 points"
    assert "paintbrush + palette on magenta: 6 x 2 = 12" in screen._why.text
    stepper(screen, "wild").step(+1)
    assert screen._total.text == "26 points"  # a wild joins magenta at 2 points
    stepper(screen, "wild").step(-1)
    assert button(screen, "Save Anna: 24")
    shot(docs_shot, screen, "score-entry")
    assert_touchable(screen)
    tap(screen, "Save Anna: 24")
    assert GAME.scores(screen.state)["Anna"] == 24
    assert screen._player == "Ben" and screen._total.text == "0 points"


def test_final_ranking_shares_ties_and_explains(screen_for, docs_shot):
    screen = screen_for(("Anna", "Ben", "Chloe", "David"), triad_bonus=True)
    to_scoring(screen)
    hands = {
        "Anna": dict(cyan=4, magenta=6, yellow=5, paintbrushes=1, palettes=2),
        "Ben": dict(magenta=5, wild=2, paintbrushes=1, palettes=1),
        "Chloe": dict(cyan=4, magenta=6, yellow=5, paintbrushes=1, palettes=2),
        "David": dict(yellow=3, paintbrushes=1),
    }
    for player, hand in hands.items():
        assert screen._player == player
        for key, n in hand.items():
            for _ in range(n):
                stepper(screen, key).step(+1)
        screen._point_changed("green", 5)
        screen._save_score()
    assert GAME.is_over(screen.state)
    shown = texts(screen)
    assert "Final ranking" in shown
    assert button(screen, "1.  Anna (win)   24") and button(screen, "1.  Chloe (win)   24")
    assert button(screen, "3.  Ben   19") and button(screen, "4.  David   8")
    assert "Why Anna scored 24" in shown
    tap(screen, "3.  Ben   19")
    assert "paintbrush + palette on magenta (5 + 2 wild): 7 x 2 = 14" in texts(screen)
    shot(docs_shot, screen, "ranking")
    assert_touchable(screen)


def test_started_from_the_app_with_its_options(data_dir):
    from companion.ui.app import Root

    ctx = AppContext.open(data_dir)
    try:
        root = Root(ctx)
        root.choose_game("kritters")
        setup = root.get_screen("setup")
        tap(setup, "Colour Triad bonus: off")
        setup.start()
        assert root.current == "game", setup.error_text
        game = root.get_screen("game")
        assert game.state.options.triad_bonus and "First Player card" in texts(game)
    finally:
        ctx.log.close()


def test_solo_end_shows_the_best_score_from_the_log(screen_for, docs_shot):
    scores = []
    for magenta in (5, 9, 7):
        screen = screen_for(("Anna",))
        to_scoring(screen)
        for _ in range(magenta):
            stepper(screen, "magenta").step(+1)
        stepper(screen, "paintbrushes").step(+1)
        screen._save_score()
        scores.append(texts(screen))
    assert "First solo game: this is the score to beat." in scores[0]
    assert "New best! Previous best 5." in scores[1]
    assert "Best so far: 9." in scores[2]
    shot(docs_shot, screen, "solo")
