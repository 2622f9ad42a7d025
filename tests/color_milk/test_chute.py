"""The chute sensor's readings numbered into the round's tray slots."""

from companion.events import BallSeen, ButtonPressed
from companion.games.color_milk.chute import chute_slot
from companion.games.color_milk.rules import SENSOR_MAX


def test_each_round_numbers_its_own_balls_and_skips_extras_and_the_remix(table):
    t = table(players=("Anna",))
    count = None
    t.predict(Anna="blue")
    readings = [("blue", 0.9), (None, 0.0), ("green", 1.0), ("pink", 0.7), ("orange", 0.95)]
    for colour, conf in readings:
        seen, count = chute_slot(t.state, count, colour, conf)
        if seen:
            t.do(seen)
    assert t.state.tray == ("blue", "", "green", "", "orange")  # dark ball: tapped by a person
    assert t.cues[-1].choices[0] == "pink"  # unsure reading: asked
    assert chute_slot(t.state, count, "purple", 0.99)[0] is None  # a sixth ball
    t.do(BallSeen("purple", 1, 1.0), BallSeen("pink", 3, 1.0))
    assert t.state.tray[2] == "green" and t.state.tapped[2] is False
    assert t.state.phase == "choose"
    assert chute_slot(t.state, count, "blue", 0.9) == (None, count)  # not reading now
    t.choose_first()
    t.do(ButtonPressed("next"))
    first, count = chute_slot(t.state, count, "orange", 0.99)
    assert (first.slot, first.colour, first.confidence) == (0, "orange", 0.99)
    assert chute_slot(t.state, count, "blue", 1.0)[0].confidence == SENSOR_MAX


def test_the_runtime_numbers_sensed_balls_into_slots_without_a_screen(tmp_path):
    import hardware.events as events
    from companion.game import GameConfig
    from companion.games.color_milk import GAME
    from companion.runtime import Runtime
    from companion.session import Session
    from companion.store import GameLog

    runtime = Runtime()
    with GameLog(tmp_path / "g.sqlite3") as log:
        runtime.play(Session.start(GAME, log, GameConfig(("Anna",))))
        for seq, colour in enumerate(("green", "pink")):
            runtime.post(events.BallSensed(100 + seq, colour, 0.93, (1, 2, 3, 4)))
        assert runtime.drain(5)
        assert runtime.session.state.tray[:2] == ("green", "pink")
        runtime.close()


def test_a_round_resumed_after_a_restart_numbers_the_next_balls_after_those_logged(tmp_path):
    """The app killed mid-round: the sensors' count is gone, the log holds two balls. The
    chute's next reading is ball 3, and the camera reading the balls lying in the tray again
    (one of them seen otherwise now) is not news: nothing is asked again."""
    import hardware.events as events
    from companion.game import GameConfig
    from companion.games.color_milk import GAME
    from companion.runtime import Runtime
    from companion.session import Session
    from companion.store import GameLog

    with GameLog(tmp_path / "g.sqlite3") as log:
        runtime = Runtime()
        session = Session.start(GAME, log, GameConfig(("Anna",)))
        runtime.play(session)
        for seq, colour in enumerate(("green", "pink")):
            runtime.post(events.BallSensed(100 + seq, colour, 0.93, (1, 2, 3, 4)))
        assert runtime.drain(5)
        runtime.close()  # killed

        runtime = Runtime()
        runtime.play(Session.resume(GAME, log, session.game_id))
        runtime.post(BallSeen("orange", 0, 0.9))  # the camera reads ball 1 again, otherwise
        runtime.post(BallSeen("pink", 1, 0.95))
        runtime.post(events.BallSensed(7, "blue", 0.93, (1, 2, 3, 4)))  # the board restarted too
        assert runtime.drain(5)
        state = runtime.session.state
        assert state.tray == ("green", "pink", "blue", "", "")
        assert state.asks == ()
        runtime.close()
