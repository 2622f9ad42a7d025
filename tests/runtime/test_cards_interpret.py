"""Color Milk's card branch of `interpret`, pure: what a steady zone reading means."""

from dataclasses import replace

from companion.card_readings import ZoneRead
from companion.events import BallSeen
from companion.game import GameConfig
from companion.games.color_milk import GAME
from companion.games.color_milk.cards import CardsToConfirm
from companion.games.color_milk.events import Predict
from companion.games.color_milk.sensing import interpret, readers


def revealing(players=("Ann", "Bo")):
    state = GAME.initial_state(GameConfig(players))
    for slot, colour in enumerate(("blue", "pink", "orange", "green", "blue")):
        state, _ = GAME.apply(state, BallSeen(colour, slot, 1.0))
    assert state.phase == "check"
    return state


def feed(state, readings, memory=None):
    out = []
    for r in readings:
        events, memory = interpret(state, r, memory)
        out += events
    return out, memory


def test_a_steady_reading_is_entered_once_and_noise_does_not_unsteady_it():
    state = revealing()
    a = ZoneRead("seat1", ("pink", "blue", "green", "orange"), (1.0, 0.93, 0.99, 0.97))
    b = ZoneRead("seat1", ("pink", "blue", "green", "orange"), (0.99, 0.95, 1.0, 0.96))
    out, memory = feed(state, [a])
    assert out == []  # one frame is not enough: a card may still be being laid
    out, memory = feed(state, [b, a, b], memory)
    assert out == [Predict("Ann", ("blue", "green", "orange", "pink"))]


def test_face_down_cards_empty_zones_and_unknown_seats_mean_nothing():
    state = revealing()
    down = ZoneRead("seat1", (), (), face_down=3)
    half = ZoneRead("seat2", ("blue",), (0.99,), face_down=2)
    nobody = ZoneRead("seat4", ("blue",), (0.99,))
    out, _ = feed(state, [down] * 3 + [half] * 3 + [ZoneRead("seat1")] * 3 + [nobody] * 3)
    assert out == []


def test_doubtful_readings_become_one_question_naming_the_seat():
    state = revealing()
    cases = [
        (ZoneRead("seat2", ("pink", "blue"), (0.5, 0.99)), "not sure of pink"),
        (ZoneRead("seat2", ("pink", "pink"), (0.99, 0.99)), "pink read twice"),
        (ZoneRead("seat2", ("pink", ""), (0.99, 0.0)), "not sure of ?"),
        (ZoneRead("seat2", ("pink", ""), (0.99, 0.0), touching=True), "cards touch"),
        (ZoneRead("seat2", ("pink",), (0.99,), unreadable=1), "not a prediction card"),
        (ZoneRead("seat2", ("red", "pink"), (0.99, 0.99)), "not sure of red"),
    ]
    for reading, words in cases:
        out, _ = feed(state, [reading] * 4)
        assert len(out) == 1 and isinstance(out[0], CardsToConfirm), words
        assert out[0].player == "Bo" and "Seat 2 (Bo)" in out[0].question
        assert words in out[0].question
        assert out[0].choices[0] == "pink"  # the likely answers, what was read first


def test_two_or_three_cards_ask_which_prediction_it_is():
    state = revealing()
    out, _ = feed(state, [ZoneRead("seat1", ("purple", "blue", "pink"), (1.0,) * 3)] * 2)
    assert out[0].choices == ("free", "triple") and "blue + pink + purple" in out[0].question
    _, cues = GAME.apply(state, out[0])  # the rules turn it into a question, changing nothing
    assert GAME.apply(state, out[0])[0] == state and "Seat 1 (Ann)" in cues[0].question


def test_a_prediction_already_tapped_is_never_changed_and_readers_follow_the_phase():
    state = revealing()
    assert [s.kind for s in readers(state)] == ["balls", "cards"]
    state, _ = GAME.apply(state, Predict("Ann", ("green",)))
    out, _ = feed(state, [ZoneRead("seat1", ("blue",), (1.0,))] * 3)
    assert out == []
    fresh = GAME.initial_state(GameConfig(("Ann",)))
    assert [s.kind for s in readers(fresh)] == ["balls"]  # predictions are still secret


def asked(state, reading):
    """The question the rules ask for a steady `reading`: (event, AskHuman cue)."""
    (event,), _ = feed(state, [reading] * 2)
    new, cues = GAME.apply(state, event)
    assert new == state  # asking changes nothing
    (cue,) = cues
    return event, cue


def test_the_likely_predictions_are_offered_as_answers_and_each_is_legal():
    state = revealing()
    _, cue = asked(state, ZoneRead("seat2", ("purple", "pink"), (1.0, 0.99)))
    assert cue.answers == (
        Predict("Bo", ("pink", "purple")),
        Predict("Bo", ("pink", "purple"), "double"),
    )
    assert cue.choices == ("pink + purple: free", "pink + purple: double")
    _, cue = asked(state, ZoneRead("seat1", ("green", "blue", "pink"), (1.0,) * 3))
    assert cue.answers[1] == Predict("Ann", ("blue", "green", "pink"), "triple")
    _, cue = asked(state, ZoneRead("seat2", ("pink", "blue"), (0.5, 0.99)))
    # doubtful pink: the cards as read, then only the sure ones
    assert cue.answers == (
        Predict("Bo", ("blue", "pink")),
        Predict("Bo", ("blue", "pink"), "double"),
        Predict("Bo", ("blue",)),
    )
    _, cue = asked(state, ZoneRead("seat2", ("orange", "orange"), (0.99, 0.99)))
    assert cue.answers == (Predict("Bo", ("orange",)),)
    for answer in cue.answers:
        GAME.apply(state, answer)  # raises if the rules refuse it


def test_a_zone_bonus_already_paid_is_not_offered_again_nor_asked():
    state = revealing()
    state, _ = GAME.apply(state, Predict("Ann", ("blue", "pink"), "double"))
    state, _ = GAME.apply(state, Predict("Bo", ("green",)))
    assert state.phase == "choose" and state.player("Ann").zone_done == ("double:blue+pink",)
    state = replace(
        state,
        phase="check",
        players=tuple(replace(p, prediction=(), zone="", fulfilled=None) for p in state.players),
    )
    _, cue = asked(state, ZoneRead("seat1", ("pink", "blue"), (0.5, 1.0)))
    # the double paid already: not among the answers
    assert cue.answers == (Predict("Ann", ("blue", "pink")), Predict("Ann", ("blue",)))
    # read clean, the same cards score alike as free or as the double: entered, not asked
    out, _ = feed(state, [ZoneRead("seat1", ("pink", "blue"), (1.0, 1.0))] * 2)
    assert out == [Predict("Ann", ("blue", "pink"))]
    out, _ = feed(state, [ZoneRead("seat2", ("pink", "blue"), (1.0, 1.0))] * 2)
    assert isinstance(out[0], CardsToConfirm)  # Bo has not made that double yet


def test_a_question_from_an_older_log_keeps_its_words_without_answers():
    state = revealing()
    _, cues = GAME.apply(state, CardsToConfirm("Bo", "Which cards?", ("free", "double")))
    assert cues[0].choices == ("free", "double") and cues[0].answers == ()
