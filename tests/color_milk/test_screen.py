"""The round view rendered headless at the Pi's 800x480, driven by taps."""

import pytest
from kivy.clock import Clock  # noqa: E402
from kivy.uix.label import Label  # noqa: E402

from companion.events import BallPassed, BallSeen  # noqa: E402
from companion.game import GameConfig  # noqa: E402
from companion.games.color_milk import GAME  # noqa: E402
from companion.games.color_milk.events import Predict, Tally  # noqa: E402
from companion.session import Session  # noqa: E402
from companion.settings import Settings  # noqa: E402
from companion.store import GameLog  # noqa: E402
from companion.ui.context import AppContext  # noqa: E402
from companion.ui.render import render_to_png  # noqa: E402
from companion.ui.widgets import MIN_TOUCH, BigButton  # noqa: E402
from tests.ui.fingers import off_window, on_window

pytestmark = pytest.mark.ui


def texts(widget):
    return " | ".join(w.text for w in widget.walk() if isinstance(w, Label))


def assert_not_blank(path):
    import cv2

    img = cv2.imread(str(path))
    assert img is not None and img.shape[:2] == (480, 800)
    assert img.std() > 20


def assert_touchable(widget):
    """Every enabled button at least a finger wide, laid out as on the 800x480 display."""
    on_window(widget)
    try:
        for b in widget.walk():
            if isinstance(b, BigButton) and b.opacity and b.height and not b.disabled:
                assert b.width >= MIN_TOUCH and b.height >= MIN_TOUCH, (b.text, b.size)
    finally:
        off_window(widget)


def from_table(screen, reading):
    """A reading from the table's sensors: through the runtime's engine thread."""
    screen.ctx.table_event(reading)
    assert screen.ctx.runtime.drain(5)


@pytest.fixture
def make(tmp_path):
    logs = []

    def make(players=("Anna", "Ben", "Cleo"), show_odds=True, **options):
        from companion.games.color_milk.screen import GameScreen

        log = GameLog(tmp_path / f"log{len(logs)}.sqlite3")
        logs.append(log)
        ctx = AppContext(tmp_path, log, Settings(show_odds=show_odds))
        session = Session.start(GAME, log, GameConfig(tuple(players), options))
        return GameScreen(ctx=ctx, session=session)

    yield make
    for log in logs:
        log.close()


def test_predictions_are_tapped_in_with_their_odds(make, tmp_path):
    screen = make()
    screen.tap_colour("pink")
    screen.tap_colour("purple")
    screen.cycle_zone()  # double
    assert "24% D" in texts(screen)  # pink and purple from the full mill: 3751/15504
    screen.confirm_prediction()
    s = screen.state
    assert s.player("Anna").prediction == ("pink", "purple") and s.player("Anna").zone == "double"
    assert screen.selected == "Ben"  # on to the next player
    assert "24%" not in texts(screen)  # Anna's cards lie face down now
    screen.tap_colour("blue")
    assert "87%" in texts(screen)  # blue: 1 - C(14,5)/C(20,5) = 0.871
    screen.confirm_prediction()
    path = render_to_png(screen, tmp_path / "predict.png")
    assert_not_blank(path)
    assert_touchable(screen)


def test_odds_can_be_hidden(make):
    screen = make(show_odds=False)
    screen.tap_colour("blue")
    assert "87%" not in texts(screen)


def test_balls_tapped_in_move_to_the_next_slot_and_the_check_shows_who_was_right(make, docs_shot):
    screen = make()
    for name, cols in (("Anna", ("green", "pink")), ("Ben", ("purple",)), ("Cleo", ("blue",))):
        screen.submit(Predict(name, cols))
    screen.tap_ball(0)
    for col in ("green", "blue", "pink", "green"):
        screen.tap_colour(col)
    assert screen.state.tray == ("green", "blue", "pink", "green", "")
    assert screen.target_slot == 4
    shown = texts(screen)
    assert "100%" not in shown and "down" in shown  # Anna is right, but her cards are down
    screen.tap_colour("orange")
    s = screen.state
    assert s.phase == "choose"
    shown = texts(screen)
    assert shown.count("RIGHT") == 2 and "missed" in shown
    assert "Anna: take one of the first three balls" in shown
    assert_not_blank(docs_shot(screen, "color-milk-choose"))
    screen.tap_ball(2)  # Anna takes pink, as in the rulebook
    assert screen.state.row == ("green", "blue", "green", "orange", "pink")
    assert "Ben: take one of the first three balls" in texts(screen)
    assert_not_blank(docs_shot(screen, "color-milk-choose-next"))


def test_balls_arrive_with_the_odds_and_a_doubtful_ball_is_asked(make, docs_shot):
    screen = make(players=("Anna", "Ben", "Cleo", "Dan"))
    screen.submit(Predict("Anna", ("pink", "purple"), "double"))
    screen.submit(Predict("Ben", ("blue",)))
    screen.submit(Predict("Cleo", ("blue", "green", "orange"), "triple"))
    screen.submit(Predict("Dan", ("green", "pink")))
    from_table(screen, BallSeen("green", 0, 0.99))
    from_table(screen, BallSeen("blue", 1, 0.99))
    from_table(screen, BallSeen("pink", 2, 0.5))  # the camera is not sure: a person is asked
    Clock.tick()  # the three readings apply
    Clock.tick()  # and the screen redraws once for them
    assert screen.state.tray[:3] == ("green", "blue", "") and screen.state.asks[0].slot == 2
    assert screen.target_slot == 2
    shown = texts(screen)
    assert "Ball 3" in shown and "ask" in shown
    assert "100%" not in shown  # Ben's blue is out, but his card is face down
    assert_not_blank(docs_shot(screen, "color-milk-rolling"))
    screen.tap_colour("pink")
    assert screen.state.tray[2] == "pink" and not screen.state.asks


def play_round(screen, balls, predictions):
    for name, (cols, zone) in predictions.items():
        screen.submit(Predict(name, cols, zone))
    for i, col in enumerate(balls):
        screen.submit(BallSeen(col, i, 1.0))
    while screen.state.phase == "choose":
        screen.tap_ball(0)


def test_board_5_colouring_bonus_and_the_remix_with_warriors(make, docs_shot):
    players = ("Anna", "Ben", "Cleo", "Dan", "Eve")
    screen = make(players=players, board=5)
    everyone = {name: (("blue", "green"), "") for name in players}
    play_round(screen, ("blue", "blue", "green", "orange", "pink"), everyone)
    screen.next()
    play_round(
        screen,
        ("blue", "blue", "green", "orange", "purple"),
        {**everyone, "Anna": (("blue", "green"), "double")},
    )
    assert screen.state.phase == "colour" and screen.state.player("Anna").token("any1") == 1
    screen.select("Ben")
    shown = texts(screen)
    assert shown.count("RIGHT") == 5 and "any-1 x1" in shown and "Next round" in shown
    assert_not_blank(docs_shot(screen, "color-milk-colour"))
    screen.next()
    play_round(screen, ("blue", "green", "green", "orange", "pink"), everyone)
    screen.next()  # the mill's third round: empty it and remix
    assert screen.state.phase == "remix"
    screen.select("Ben")
    screen.count("warriors", 3)
    shown = texts(screen)
    assert "warriors 3" in shown and "Mill refilled" in shown
    assert_not_blank(docs_shot(screen, "color-milk-remix"))
    screen.next()  # Ben has most warriors: his extra cell's coins are tapped before round 4
    assert screen.state.phase == "warriors" and "Next round" in texts(screen)
    screen.next()
    assert screen.state.phase == "predict" and screen.state.round == 4


def test_a_question_from_the_camera_offers_only_possible_colours(make):
    screen = make(players=("Anna",))
    screen.submit(BallSeen("purple", 0, 0.9))
    screen.submit(BallSeen("purple", 1, 0.9))
    screen.submit(BallSeen("purple", 2, 0.9))  # a third purple: asked, not taken
    screen.tap_ball(2)
    pad = {b.colour: b.disabled for b in screen.pad.children if hasattr(b, "colour")}
    assert pad.get("purple") is True and pad.get("blue") is False
    screen.tap_colour("pink")
    assert screen.state.tray[2] == "pink"


def test_colouring_tallies_and_next_round(make):
    screen = make(players=("Anna", "Ben"))
    for name in ("Anna", "Ben"):
        screen.submit(Predict(name, ("blue",)))
    for i, col in enumerate(("blue", "blue", "green", "orange", "pink")):
        screen.submit(BallSeen(col, i, 1.0))
    screen.tap_ball(0)
    screen.tap_ball(0)
    assert screen.state.phase == "colour"
    screen.select("Ben")
    screen.tally("coins", 1)
    screen.tally("pencils", 1)
    assert screen.state.player("Ben").coins == 1
    assert "1 coin  1 pencil" in texts(screen)
    screen.next()
    assert screen.state.round == 2 and screen.state.phase == "predict"
    assert screen.selected == "Ben"  # the new leader
    screen.undo()
    assert screen.state.phase == "colour"


def test_results_screen_names_the_winner(make, tmp_path):
    screen = make(players=("Anna", "Ben"), board=3)
    screen.submit(Tally("Ben", "coins", 5))
    for _ in range(2):
        for name in ("Anna", "Ben"):
            screen.submit(Predict(name, ("blue",)))
        for i, col in enumerate(("blue", "blue", "green", "orange", "pink")):
            screen.submit(BallSeen(col, i, 1.0))
        screen.tap_ball(0)
        screen.tap_ball(0)
        screen.next()
    assert screen.state.phase == "tally"
    screen.select("Anna")
    screen.count("railways", 3)
    screen.next()
    assert GAME.is_over(screen.state)
    shown = texts(screen)
    assert "Ben wins!" in shown and "+1 railways" in shown
    assert_not_blank(render_to_png(screen, tmp_path / "results.png"))


def test_results_with_the_pencil_tie_break(make, docs_shot):
    screen = make(players=("Anna", "Ben", "Cleo"))
    for name, item, n in (("Anna", "coins", 4), ("Ben", "coins", 6), ("Cleo", "coins", 6)):
        screen.submit(Tally(name, item, n))
    screen.submit(Tally("Cleo", "pencils", 1))
    everyone = {name: (("blue",), "") for name in ("Anna", "Ben", "Cleo")}
    for _ in range(3):
        if GAME.is_over(screen.state):
            break
        play_round(screen, ("blue", "blue", "green", "orange", "pink"), everyone)
        screen.next()
    assert GAME.is_over(screen.state) and GAME.winners(screen.state) == ("Cleo",)
    shown = texts(screen)
    assert "Cleo wins!" in shown and "unused bonus pencils decide" in shown
    assert_not_blank(docs_shot(screen, "color-milk-results"))


def test_the_app_starts_color_milk_from_the_setup_screen(data_dir):
    from companion.ui.app import Root

    ctx = AppContext.open(data_dir)
    try:
        root = Root(ctx)
        root.choose_game("color-milk")
        root.get_screen("setup").start()
        assert root.current == "game"
        screen = root.get_screen("game")
        assert type(screen).__module__ == "companion.games.color_milk.screen"
        assert screen.state.board == 1
    finally:
        ctx.log.close()


def test_repeated_camera_readings_from_the_table_are_not_logged(make):
    screen = make(players=("Anna",))
    for _ in range(5):
        from_table(screen, BallSeen("green", 0, 0.95))
        Clock.tick()
    from_table(screen, BallPassed(1))
    Clock.tick()
    entries = screen.session.log.entries(screen.session.game_id)
    assert [e.payload["type"] for e in entries] == ["core.BallSeen", "core.BallPassed"]
    assert screen.state.tray[0] == "green" and screen.state.passed == 1


def test_a_sensor_is_never_as_sure_as_a_person(make):
    screen = make(players=("Anna",))
    from_table(screen, BallSeen("purple", 0, 1.0))
    from_table(screen, BallSeen("purple", 1, 1.0))
    Clock.tick()
    from_table(screen, BallSeen("purple", 2, 1.0))  # a third purple from the camera: a question
    Clock.tick()
    assert screen.state.tray[2] == "" and screen.state.asks[0].slot == 2


def test_board_6_end_counts_keep_full_size_buttons(make, docs_shot):
    screen = make(players=("Anna", "Ben"), board=6)
    screen.submit(Tally("Ben", "coins", 9))
    while screen.state.phase != "tally":
        for name in ("Anna", "Ben"):
            screen.submit(Predict(name, ("blue",)))
        for i, col in enumerate(("blue", "blue", "green", "orange", "pink")):
            screen.submit(BallSeen(col, i, 1.0))
        screen.tap_ball(0)
        screen.tap_ball(0)
        screen.next()
    screen.select("Anna")
    screen.count("ghost_towns", 2)
    shown = texts(screen)
    assert "Anna: market 0" in shown and "ghost towns 2" in shown and "Finish game" in shown
    assert_touchable(screen)
    assert_not_blank(docs_shot(screen, "color-milk-tally"))


def test_a_ball_read_twice_differently_shows_as_asked_and_next_names_it(make):
    screen = make(players=("Anna",))
    screen.submit(Predict("Anna", ("blue",)))
    for slot, colour in enumerate(("green", "blue", "pink", "green")):
        from_table(screen, BallSeen(colour, slot, 0.95))
    from_table(screen, BallSeen("orange", 0, 0.95))  # the camera changes its mind
    from_table(screen, BallSeen("orange", 4, 0.95))
    Clock.tick()
    buttons = [w.text for w in screen.walk() if isinstance(w, BigButton)]
    assert "ask" in buttons and "5:O" in buttons  # five balls show, ball 1 as asked
    assert not [t for t in buttons if t.startswith("1:")] and "Ball 1" in texts(screen)
    screen.next()
    assert screen.banner_text == "ball 1 is in question: tap its colour first"
    screen.tap_colour("green")
    assert screen.state.phase == "choose"


def test_a_refused_press_of_the_table_s_button_reaches_the_banner(make):
    from companion.events import ButtonPressed

    screen = make(players=("Anna",))
    from_table(screen, ButtonPressed("next"))  # refused on the runtime's engine thread
    Clock.tick()
    assert screen.banner_kind == "error"
    assert screen.banner_text == "make predictions and turn the mill first"


def test_the_table_s_undo_button_undoes_and_says_so(make):
    from companion.events import ButtonPressed

    screen = make(players=("Anna",))
    screen.submit(Predict("Anna", ("blue",)))
    from_table(screen, ButtonPressed("undo"))
    Clock.tick()
    assert screen.state.player("Anna").prediction == ()
    assert screen.banner_text == "Undone" and screen.ids.undo.disabled  # nothing left to undo


def revealed(screen):
    """All five balls out: the predictions are being revealed."""
    for slot, colour in enumerate(("blue", "pink", "orange", "green", "blue")):
        screen.submit(BallSeen(colour, slot, 1.0))
    assert screen.state.phase == "check"


def cards_read(screen, zone, colours, confidences=None):
    """The camera sees the same cards in a seat's zone twice in a row (a steady reading)."""
    from companion.card_readings import ZoneRead

    reading = ZoneRead(zone, tuple(colours), tuple(confidences or [0.99] * len(colours)))
    for _ in range(2):
        from_table(screen, reading)
    Clock.tick()  # the question reaches the screen on its next frame


def test_a_question_about_cards_offers_the_likely_predictions_as_big_buttons(make, docs_shot):
    screen = make()
    revealed(screen)
    cards_read(screen, "seat2", ("purple", "pink"))
    panel = screen.question_panel
    assert panel is not None and "Seat 2 (Ben)" in panel.ask.question
    labels = [b.text for b in panel.buttons]
    assert labels == ["pink + purple: free", "pink + purple: double"]
    assert panel.other.text == "Other…"
    assert_touchable(screen)
    docs_shot(screen, "color-milk-card-question")
    panel.buttons[1].dispatch("on_release")
    ben = screen.state.player("Ben")
    assert (ben.prediction, ben.zone) == (("pink", "purple"), "double")
    assert screen.question_panel is None and panel.parent is None  # answered: it goes away


def test_the_body_under_a_question_takes_no_touch(make):
    import time

    from kivy.tests.common import UnitTestTouch

    from companion.ui.render import ensure_window, pump
    from companion.ui.touch_guard import GUARD_SECONDS

    screen = make()
    revealed(screen)
    cards_read(screen, "seat2", ("purple", "pink"))
    window = ensure_window()
    window.add_widget(screen)
    screen.size_hint, screen.size, screen.pos = (None, None), (800, 480), (0, 0)
    try:
        pump()
        time.sleep(GUARD_SECONDS)  # a person's tap, not a bounce of the last one
        pad = next(b for b in screen.pad.children if getattr(b, "colour", "") == "green")
        panel = screen.question_panel
        assert panel.collide_point(*pad.center)  # covered by the question, clear of its buttons
        assert not any(b.collide_point(*pad.center) for b in [*panel.buttons, panel.other])
        touch = UnitTestTouch(*pad.center)
        touch.touch_down()
        touch.touch_up()
        assert screen.draft == () and screen.question_panel is panel  # the pad saw nothing
        answer = screen.question_panel.buttons[0]
        touch = UnitTestTouch(*answer.to_window(*answer.center))
        touch.touch_down()
        touch.touch_up()
        assert screen.state.player("Ben").prediction == ("pink", "purple")
    finally:
        window.remove_widget(screen)


def test_other_opens_the_pad_for_that_player_with_the_cards_as_read(make):
    screen = make()
    revealed(screen)
    cards_read(screen, "seat3", ("orange", "orange"))
    assert [b.text for b in screen.question_panel.buttons] == ["orange: free"]
    screen.question_panel.other.dispatch("on_release")
    assert screen.question_panel is None
    assert (screen.selected, screen.draft) == ("Cleo", ("orange",))
    screen.tap_colour("green")
    screen.confirm_prediction()
    assert screen.state.player("Cleo").prediction == ("green", "orange")


def test_a_question_goes_away_once_the_prediction_is_entered_otherwise(make):
    screen = make()
    revealed(screen)
    cards_read(screen, "seat2", ("purple", "pink"))
    cards_read(screen, "seat3", ("green", "blue", "pink"))
    assert "Ben" in screen.question_panel.ask.question  # one at a time, in turn
    screen.select("Ben")
    screen.tap_colour("blue")
    screen.confirm_prediction()  # Ben's prediction tapped on the pad instead
    assert "Cleo" in screen.question_panel.ask.question
    screen.submit(Predict("Anna", ("blue",)))
    screen.submit(Predict("Cleo", ("blue",)))  # the round moves on to choosing
    assert screen.state.phase == "choose" and screen.question_panel is None


def player_card(screen, name):
    from companion.games.color_milk.ui.player_cards import PlayerCard

    return next(w for w in screen.walk() if isinstance(w, PlayerCard) and w.name == name)


def what_shows(card) -> tuple[set, set]:
    """The colours drawn on a player's card and the texts of its labels."""
    from companion.ui.widgets import ColourChip

    drawn = {w.colour for w in card.walk(restrict=True) if isinstance(w, ColourChip)}
    return drawn, {w.text for w in card.walk(restrict=True) if isinstance(w, Label)}


def test_predictions_stay_face_down_on_screen_until_the_balls_are_out(make):
    """The rulebook: cards are laid face down and revealed once 5 balls are out. Tapped in
    early, a prediction shows nobody its colours or odds (nor the zone) until then."""
    from companion.ui.colours import label

    screen = make()
    on_window(screen)
    try:
        for col in ("pink", "purple"):
            screen.tap_colour(col)
        screen.cycle_zone()
        screen.confirm_prediction()  # Anna's cards go down; the pad moves on to Ben
        screen.submit(Predict("Cleo", ("blue",)))
        for i, col in enumerate(("pink", "purple", "blue", "green")):
            screen.submit(BallSeen(col, i, 1.0))  # four out: Anna is already right
            for name, cols in (("Anna", ("pink", "purple")), ("Cleo", ("blue",))):
                drawn, said = what_shows(player_card(screen, name))
                assert not drawn & set(cols), (name, drawn)
                assert not said & {label(c) for c in cols}, (name, said)
                assert not any("%" in t or "RIGHT" in t or t.endswith(" D") for t in said), said
                assert "down" in said
            screen.select("Anna")  # her name tapped: the pad does not show her cards
            assert screen.draft == () and not any(
                b.selected for b in screen.pad.walk() if hasattr(b, "colour")
            )
        screen.select("Ben")
        screen.tap_colour("orange")
        screen.confirm_prediction()
        screen.submit(BallSeen("orange", 4, 1.0))  # five out: the cards are turned up
        assert screen.state.phase == "choose"
        drawn, said = what_shows(player_card(screen, "Anna"))
        assert {"pink", "purple"} <= drawn and "RIGHT D" in said
        drawn, said = what_shows(player_card(screen, "Cleo"))
        assert "blue" in drawn and "RIGHT" in said
    finally:
        off_window(screen)


def test_a_colour_tapped_redraws_the_card_it_changes_and_keeps_the_others(make):
    screen = make(players=("Anna", "Ben", "Cleo", "Dora", "Emil"))
    screen.select("Ben")
    others = {name: player_card(screen, name) for name in ("Anna", "Cleo", "Dora", "Emil")}
    ben = player_card(screen, "Ben")
    screen.tap_colour("pink")
    assert player_card(screen, "Ben") is not ben  # its chips and odds changed
    assert "pink" in what_shows(player_card(screen, "Ben"))[0]
    assert all(player_card(screen, name) is card for name, card in others.items())
    screen.select("Cleo")  # the outline moves: both cards are drawn again, the rest kept
    assert player_card(screen, "Anna") is others["Anna"]
    assert player_card(screen, "Cleo") is not others["Cleo"]
