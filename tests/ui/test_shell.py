"""Real Kivy screens rendered headless at the Pi touchscreen's 800x480 and at 1280x720."""

import pytest
from kivy.uix.label import Label  # noqa: E402

from companion import catalogue  # noqa: E402
from companion.ui.app import Root  # noqa: E402
from companion.ui.context import AppContext  # noqa: E402
from companion.ui.render import render_to_png  # noqa: E402
from companion.ui.widgets import MIN_TOUCH, BigButton  # noqa: E402

pytestmark = pytest.mark.ui


def texts(widget):
    return [w.text for w in widget.walk() if isinstance(w, Label)]


def assert_not_blank(path):
    import cv2

    img = cv2.imread(str(path))
    assert img is not None and img.shape[:2] in {(480, 800), (720, 1280)}
    assert img.std() > 20, "the screenshot is (nearly) one flat colour"


def assert_touchable(widget):
    for b in widget.walk():
        if isinstance(b, BigButton) and b.opacity and b.height and not b.disabled:
            assert b.width >= MIN_TOUCH and b.height >= MIN_TOUCH, (b.text, b.size)


@pytest.fixture
def root(data_dir):
    ctx = AppContext.open(data_dir)
    yield Root(ctx)
    ctx.log.close()


@pytest.mark.parametrize("size", [(800, 480), (1280, 720)])
def test_home_screen_shows_the_five_games(root, tmp_path, size, docs_shot):
    if size == (800, 480):
        path = docs_shot(root, "home", size)  # the README's picture
    else:
        path = render_to_png(root, tmp_path / "home-wide.png", size)
    shown = " ".join(texts(root.get_screen("home")))
    for g in catalogue.games():
        assert g.title in shown
    assert_not_blank(path)
    assert_touchable(root.get_screen("home"))


def test_player_setup_screen_seats_players(root, tmp_path):
    root.choose_game("laser")
    setup = root.get_screen("setup")
    assert root.current == "setup"
    path = render_to_png(root, tmp_path / "setup.png")
    shown = texts(setup)
    assert "Laser: who is playing?" in shown
    names = [r.ids.name.text for r in setup.ids.rows.children]
    assert sorted(names) == ["Anna", "Ben", "Chloe"]
    setup.add_player()
    setup.move_up(3)
    setup._collect()
    assert setup.names == ["Anna", "Ben", "David", "Chloe"]
    assert_not_blank(path)
    assert_touchable(setup)


def test_setup_refuses_duplicate_names_with_a_message(root):
    root.choose_game("laser")
    setup = root.get_screen("setup")
    setup.ids.rows.children[0].ids.name.text = "Anna"
    setup.start()
    assert root.current == "setup"
    assert "different" in setup.error_text


def test_starting_a_game_opens_its_screen_and_offers_resume(root, data_dir, tmp_path):
    root.choose_game("elios")
    setup = root.get_screen("setup")
    setup.start()
    assert root.current == "game", setup.error_text
    render_to_png(root, tmp_path / "game.png")
    root.current = "home"
    home = root.get_screen("home")
    home.refresh()
    assert home.resume_text.startswith("Resume Elios")


def test_settings_are_saved_at_once(root, data_dir):
    screen = root.get_screen("settings")
    screen.change(volume=0.3, mute=True)
    again = AppContext.open(data_dir)
    assert again.settings.volume == pytest.approx(0.3) and again.settings.mute
    again.log.close()


def test_a_game_reopened_after_a_restart_waits_with_its_clock_paused(data_dir):
    from companion.clock import FakeClock
    from companion.game import GameConfig
    from companion.games.kritters.events import FirstPlayer
    from companion.session import Session

    clock = FakeClock()
    ctx = AppContext.open(data_dir)
    ctx.clock = clock
    config = GameConfig(players=("Anna", "Ben"), options={"turn_timer": 30})
    before = Session.start(catalogue.load("kritters"), ctx.log, config, clock=clock)
    before.submit(FirstPlayer("Ben"))
    clock.advance(12)
    before.poll()  # the countdown's snapshot: 18 s left
    root = Root(ctx)
    root.resume(after_restart=True)
    screen = root.get_screen("game")
    assert root.current == "game"
    assert screen.session.timer.paused
    clock.advance(100)
    assert screen.session.timer.remaining() == pytest.approx(18)
    assert "Tap the clock" in screen.banner_text
    screen.toggle_pause()
    clock.advance(3)
    assert screen.session.timer.remaining() == pytest.approx(15)
    ctx.log.close()
