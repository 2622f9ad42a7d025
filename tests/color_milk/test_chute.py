"""The chute sensor's readings numbered into the round's tray slots."""

from companion.events import BallSeen, ButtonPressed
from companion.games.color_milk.chute import ChuteSlots
from companion.games.color_milk.rules import SENSOR_MAX


def test_each_round_numbers_its_own_balls_and_skips_extras_and_the_remix(table):
    t = table(players=("Anna",))
    chute = ChuteSlots()
    t.predict(Anna="blue")
    readings = [("blue", 0.9), (None, 0.0), ("green", 1.0), ("pink", 0.7), ("orange", 0.95)]
    for colour, conf in readings:
        seen = chute.to_seen(t.state, colour, conf)
        if seen:
            t.do(seen)
    assert t.state.tray == ("blue", "", "green", "", "orange")  # dark ball: tapped by a person
    assert t.cues[-1].choices[0] == "pink"  # unsure reading: asked
    assert chute.to_seen(t.state, "purple", 0.99) is None  # a sixth ball
    t.do(BallSeen("purple", 1, 1.0), BallSeen("pink", 3, 1.0))
    assert t.state.tray[2] == "green" and t.state.tapped[2] is False
    assert t.state.phase == "choose"
    assert chute.to_seen(t.state, "blue", 0.9) is None  # not reading now
    t.choose_first()
    t.do(ButtonPressed("next"))
    first = chute.to_seen(t.state, "orange", 0.99)
    assert (first.slot, first.colour, first.confidence) == (0, "orange", 0.99)
    assert chute.to_seen(t.state, "blue", 1.0).confidence == SENSOR_MAX


def test_the_table_passes_sensed_balls_to_the_screen_as_slots(tmp_path):
    from kivy.clock import Clock

    import hardware.events as events
    from companion.game import GameConfig
    from companion.games.color_milk import GAME
    from companion.games.color_milk.screen import GameScreen
    from companion.session import Session
    from companion.settings import Settings
    from companion.store import GameLog
    from companion.ui.context import AppContext

    with GameLog(tmp_path / "g.sqlite3") as log:
        ctx = AppContext(tmp_path, log, Settings())
        screen = GameScreen(ctx=ctx, session=Session.start(GAME, log, GameConfig(("Anna",))))
        for seq, colour in enumerate(("green", "pink")):
            screen.table_event(events.BallSensed(100 + seq, colour, 0.93, (1, 2, 3, 4)))
            Clock.tick()
        assert screen.state.tray[:2] == ("green", "pink")
