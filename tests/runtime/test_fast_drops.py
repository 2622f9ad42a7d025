"""Balls dropped fast on the simulated chute, read by the rendered tray camera, through the
table runtime alone (no screen): every round's five balls are read, none is asked about, and
a ball left in question is named when Next is refused."""

import pytest

from companion.events import BallSeen, ButtonPressed
from companion.game import GameConfig
from companion.games.color_milk import GAME
from companion.games.color_milk.events import Choose, Predict
from companion.runtime import Runtime
from companion.session import Session
from companion.store import GameLog

pytestmark = pytest.mark.slow

QUICK = 0.4  # seconds: the simulated hand drops a ball every 0.08 s


@pytest.fixture
def runtime(tmp_path):
    rt = Runtime(camera_source="simulated")
    log = GameLog(tmp_path / "games.sqlite3")
    rt.open_table(simulate=True)
    rt.play(Session.start(GAME, log, GameConfig(("Anna", "Ben"))))
    yield rt, rt.hands
    rt.close()
    log.close()


def test_four_balls_within_0_4_s_are_all_read_round_after_round(runtime):
    rt, hands = runtime
    refusals = []
    rt.subscribe(on_refusal=lambda ev, why: refusals.append(why))
    assert rt.camera is not None and rt.camera.reading.wait(90)
    for _ in range(3):  # a whole fill of the mill: the third round empties it
        for name in ("Anna", "Ben"):
            rt.submit(Predict(name, ("blue",)))
        checked = rt.changed_to(lambda s: s.phase == "choose")
        first = [hands.drop_ball() for _ in range(4)]  # colours the mill still holds
        assert all(d.wait(QUICK + 2) for d in first)
        assert hands.drop_ball().wait(2)
        assert checked.wait(30), (rt.session.state.tray, rt.session.state.asks, rt.tray.balls())
        state = rt.session.state
        assert rt.tray.balls() == state.tray and state.passed == 5
        assert state.asks == ()
        for _ in range(2):
            rt.submit(Choose(rt.session.state.chooser_name, (0,)))
        rt.submit(ButtonPressed("next"))
    assert rt.session.state.phase == "remix"
    assert refusals == []


def test_a_ball_in_question_is_named_when_next_is_refused(runtime):
    rt, _hands = runtime
    for name in ("Anna", "Ben"):
        rt.submit(Predict(name, ("blue",)))
    for slot, colour in enumerate(("green", "blue", "pink", "green")):
        rt.sense(BallSeen(colour, slot, 0.95))
    rt.sense(BallSeen("orange", 0, 0.95))  # the camera changes its mind about ball 1
    rt.sense(BallSeen("orange", 4, 0.95))  # five balls show; ball 1 is still in question
    state = rt.session.state
    assert state.tray[0] == "green" and [a.slot for a in state.asks] == [0]
    refusals = []
    rt.subscribe(on_refusal=lambda ev, why: refusals.append(why))
    rt.sense(ButtonPressed("next"))
    assert refusals == ["ball 1 is in question: tap its colour first"]
    rt.submit(BallSeen("green", 0, 1.0))  # a person answers
    assert rt.session.state.phase == "choose"
