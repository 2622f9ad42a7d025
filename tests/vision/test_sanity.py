"""The sanity hook: an impossible reading becomes a question, never a fact."""

from hypothesis import given
from hypothesis import strategies as st

from companion.cues import AskHuman
from companion.events import BallSeen, CardSeen
from vision.sanity import check, check_round

COLOURS = ["blue", "green", "orange", "pink", "purple"]


def test_a_possible_confident_reading_stands():
    v = check(BallSeen("pink", 0, 0.97), {"pink", "blue"})
    assert v.possible and not v.ask and v.event == BallSeen("pink", 0, 0.97)
    assert v.choices[0] == "pink"


def test_an_impossible_reading_is_asked_with_the_possible_colours():
    v = check(BallSeen("purple", 2, 0.99), {"blue", "pink"}, ranking=["purple", "pink", "blue"])
    assert not v.possible and v.ask
    assert v.event.confidence == 0.0 and v.event.colour == "purple" and v.event.slot == 2
    assert v.choices == ("pink", "blue")  # classifier's order, impossible ones dropped
    q = v.question()
    assert isinstance(q, AskHuman) and "ball 3" in q.question and q.choices == ("pink", "blue")


def test_a_low_confidence_reading_is_asked_even_when_possible():
    v = check(CardSeen("seat1", "green", 0.5), COLOURS)
    assert v.possible and v.ask and "seat1" in v.question().question


def test_a_sixth_purple_ball_is_impossible_by_count():
    mill = {"blue": 1, "green": 0, "orange": 2, "pink": 1, "purple": 2}
    balls = [
        BallSeen(c, i, 0.95)
        for i, c in enumerate(["purple", "purple", "purple", "orange", "green"])
    ]
    verdicts = check_round(balls, mill)
    assert [v.possible for v in verdicts] == [True, True, False, True, False]
    assert verdicts[2].event.confidence == 0.0 and verdicts[2].ask
    assert "purple" not in verdicts[2].choices  # both purples are already out


@given(
    st.lists(st.tuples(st.sampled_from(COLOURS), st.floats(0, 1)), min_size=1, max_size=5),
    st.dictionaries(st.sampled_from(COLOURS), st.integers(0, 6)),
)
def test_nothing_impossible_is_ever_left_confident(readings, mill):
    balls = [BallSeen(c, i, conf) for i, (c, conf) in enumerate(readings)]
    left = dict(mill)
    for v in check_round(balls, mill):
        if v.event.confidence >= 0.8:
            assert left.get(v.event.colour, 0) > 0
        if v.possible:
            left[v.event.colour] -= 1
        else:
            assert v.ask and v.event.confidence == 0.0
