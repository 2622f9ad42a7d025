"""The rulebook's basic game, rule by rule (Board 1, "How to play" 1-5, end and winner)."""

import pytest

from companion.cues import AskHuman, PhaseStarted
from companion.errors import IllegalMove, UsageError
from companion.events import BallPassed, BallSeen, ButtonPressed, TimerExpired
from companion.game import GameConfig
from companion.games.color_milk import GAME
from companion.games.color_milk.events import Choose, Predict, Tally
from companion.games.color_milk.mill import FULL_MILL, as_mapping

R1 = ("blue", "blue", "green", "orange", "pink")
R2 = ("blue", "blue", "green", "orange", "purple")
R3 = ("blue", "green", "green", "orange", "pink")


def refused(t, event, words):
    before = t.state
    with pytest.raises(IllegalMove, match=words):
        t.do(event)
    assert t.state == before  # a refusal changes nothing


# Set up ------------------------------------------------------------------------------------
def test_setup_mill_holds_the_twenty_balls_of_the_box(table):
    t = table()
    assert as_mapping(t.state.inside) == {
        "blue": 6,
        "green": 5,
        "orange": 4,
        "pink": 3,
        "purple": 2,
    }
    assert sum(t.state.inside) == 20
    assert t.state.phase == "predict" and t.state.round == 1 and t.state.cycle_round == 1


def test_setup_first_leader_and_player_limits(table):
    assert table(first_leader=2).state.leader == 2
    for bad in ((), ("a", "b", "c", "d", "e", "f")):
        with pytest.raises(UsageError, match="1-5 players"):
            GAME.initial_state(GameConfig(bad))
    with pytest.raises(UsageError, match="board must be 1-6"):
        GAME.initial_state(GameConfig(("a",), {"board": 7}))
    with pytest.raises(UsageError, match="unknown Color Milk option"):
        GAME.initial_state(GameConfig(("a",), {"bord": 2}))


# 1. Make a prediction -------------------------------------------------------------------
def test_prediction_is_one_to_five_distinct_cards(table):
    t = table()
    t.predict(Anna="purple blue")
    assert t.state.player("Anna").prediction == ("blue", "purple")
    t.predict(Anna="blue green orange pink purple")  # changing it before the check is fine
    assert len(t.state.player("Anna").prediction) == 5
    refused(t, Predict("Anna", ()), "1 to 5 cards")
    refused(t, Predict("Anna", ("blue", "blue")), "no colour twice")
    refused(t, Predict("Anna", ("red",)), "not a prediction card")
    refused(t, Predict("Zed", ("blue",)), "no player called")


def test_zone_prediction_uses_exactly_two_or_three_cards(table):
    t = table()
    refused(t, Predict("Anna", ("blue", "green", "pink"), "double"), "exactly 2")
    refused(t, Predict("Anna", ("blue", "green"), "triple"), "exactly 3")
    refused(t, Predict("Anna", ("blue",), "quad"), "double or triple")
    t.do(Predict("Anna", ("pink", "blue", "green"), "triple"))
    assert t.state.player("Anna").zone == "triple"


# 2. Turn the mill -----------------------------------------------------------------------
def test_turning_the_mill_starts_with_the_first_ball(table):
    t = table()
    t.do(BallPassed(1))
    assert t.state.phase == "mill" and t.state.passed == 1
    assert any(isinstance(c, PhaseStarted) and c.phase == "mill" for c in t.cues)


def test_more_than_five_balls_tell_the_leader_to_put_the_extras_back(table):
    t = table(first_leader=1)
    t.do(BallPassed(4), BallPassed(1))
    assert not any("too many" in x for x in t.texts())
    t.do(BallPassed(2))
    msg = [x for x in t.texts() if "too many" in x]
    assert msg and msg[0].startswith("Ben: 2 balls") and "without looking" in msg[0]
    assert t.state.extras == 2
    refused(t, BallSeen("blue", 5), "only the first 5 balls count")


def test_balls_are_taken_out_of_the_mill_as_they_are_read(table):
    t = table()
    t.balls("purple", "purple")
    assert as_mapping(t.state.inside)["purple"] == 0
    assert t.state.mill == FULL_MILL  # the start-of-round contents stay for the odds


# 3. Check the prediction -----------------------------------------------------------------
def test_prediction_fulfilled_iff_every_colour_is_among_the_five(table):
    t = table()
    t.predict(Anna="green pink", Ben="green purple", Cleo="blue green orange pink")
    t.balls("green", "blue", "pink", "green", "orange")
    s = t.state
    assert [p.fulfilled for p in s.players] == [True, False, True]
    assert s.phase == "choose"
    assert s.player("Ben").failed == 1 and s.player("Anna").failed == 0


def test_check_waits_for_every_prediction(table):
    t = table(players=("Anna", "Ben"))
    t.predict(Anna="blue")
    t.balls(*R1)
    assert t.state.phase == "check"
    assert any("Reveal predictions: Ben" in x for x in t.texts())
    refused(t, ButtonPressed("next"), "reveal every prediction")
    t.predict(Ben="purple")
    assert t.state.phase == "choose"
    refused(t, Predict("Ben", ("blue",)), "already checked")


def test_failed_track_gives_a_pencil_every_third_miss(table):
    t = table(players=("Anna",))
    pencils = []
    for balls in (R1, R2, R3):
        t.round(balls, {"Anna": "purple pink"} if balls != R2 else {"Anna": "pink"})
        pencils.append(t.state.player("Anna").pencils)
    assert t.state.player("Anna").failed == 3
    assert pencils == [0, 0, 1]
    t2 = table(players=("Anna",), failed_pencil_every=0)
    for balls in (R1, R2, R3):
        t2.round(balls, {"Anna": "purple pink"} if balls != R2 else {"Anna": "pink"})
    assert t2.state.player("Anna").pencils == 0


def test_zone_bonus_pays_once_per_game_per_entry(table):
    t = table(players=("Anna", "Ben"))
    t.round(R1, {"Anna": "double:blue green", "Ben": "triple:blue green orange"})
    a, b = t.state.player("Anna"), t.state.player("Ben")
    assert (a.pencils, b.pencils) == (1, 1)
    t.round(R2, {"Anna": "double:blue green", "Ben": "double:green orange"})
    assert t.state.player("Anna").pencils == 1  # same entry again: colours, no bonus
    assert t.state.player("Ben").pencils == 2  # another entry pays
    assert any("already used this game" in x for x in t.texts())


def test_failed_zone_prediction_pays_nothing_and_stays_open(table):
    t = table(players=("Anna",))
    t.round(R1, {"Anna": "double:pink purple"})
    assert t.state.player("Anna").pencils == 0 and t.state.player("Anna").zone_done == ()
    t.round(R2, {"Anna": "double:blue purple"})
    assert t.state.player("Anna").zone_done == ("double:blue+purple",)


# 4. Select the colours ---------------------------------------------------------------------
def test_annas_choice_from_the_rulebook(table):
    t = table(players=("Anna", "Ben", "Cleo"))
    t.predict(Anna="blue", Ben="blue", Cleo="blue")
    t.balls("green", "blue", "pink", "green", "orange")
    assert t.state.chooser_name == "Anna"
    refused(t, Choose("Anna", (3,)), "first three")
    t.do(Choose("Anna", (2,)))  # the pink ball
    assert t.state.player("Anna").chosen == ("pink",)
    assert t.state.row == ("green", "blue", "green", "orange", "pink")
    assert t.state.row[:3] == ("green", "blue", "green")  # what Ben chooses from
    assert t.state.chooser_name == "Ben"


def test_choosing_goes_clockwise_from_the_leader_even_after_a_miss(table):
    t = table(first_leader=1)
    t.predict(Anna="purple", Ben="blue", Cleo="blue")
    t.balls(*R1)
    order = []
    while t.state.phase == "choose":
        order.append(t.state.chooser_name)
        refused(t, Choose("Anna" if order[-1] != "Anna" else "Ben", (0,)), "turn to choose")
        t.do(Choose(order[-1], (1,)))
    assert order == ["Ben", "Cleo", "Anna"]
    assert t.state.phase == "colour"
    assert GAME.current_player(t.state) is None


def test_choose_refuses_the_same_ball_twice_and_bonuses_off_board_5(table):
    t = table(players=("Anna",))
    t.predict(Anna="blue")
    t.balls(*R1)
    refused(t, Choose("Anna", (0, 0)), "twice")
    refused(t, Choose("Anna", (4,), "any1"), "board 5")
    refused(t, Choose("Anna", (1,), "magic"), "unknown choice bonus")


# 5. Finish the round ---------------------------------------------------------------------
def test_next_player_clockwise_leads_the_next_round(table):
    t = table()
    leaders = []
    for balls in (R1, R2, R3):
        leaders.append(t.state.players[t.state.leader].name)
        t.round(balls)
        if t.state.phase == "remix":
            t.remix()
    leaders.append(t.state.players[t.state.leader].name)
    assert leaders == ["Anna", "Ben", "Cleo", "Anna"]


def test_after_the_third_round_the_last_five_roll_out_and_all_twenty_go_back(table):
    t = table(players=("Anna", "Ben"))
    t.round(R1)
    t.round(R2)
    assert t.state.cycle_round == 3 and sum(t.state.mill) == 10
    assert any("Third round" in x for x in t.texts())
    t.round(R3)
    s = t.state
    assert s.phase == "remix" and sum(s.base) == 15
    assert as_mapping(s.mill) == {"blue": 1, "green": 1, "orange": 1, "pink": 1, "purple": 1}
    assert any("the last 5 (1 blue, 1 green, 1 orange, 1 pink, 1 purple)" in x for x in t.texts())
    t.do(BallPassed(5))  # the last five crossing the beam are expected, not extras
    refused(t, BallSeen("blue", 0, 1.0), "already checked")
    t.remix()
    assert t.state.mill == FULL_MILL and t.state.cycle_round == 1 and t.state.round == 4
    assert t.state.phase == "predict" and t.state.passed == 0


def test_next_does_nothing_before_the_round_is_done(table):
    t = table(players=("Anna", "Ben"))
    refused(t, ButtonPressed("next"), "make predictions")
    t.predict(Anna="blue", Ben="blue")
    t.balls(*R1)
    refused(t, ButtonPressed("next"), "Anna still has to choose")
    refused(t, ButtonPressed("undo"), "does nothing")
    refused(t, TimerExpired("x"), "has no use for a timer")


# Readings are facts only when the mill can hold them -----------------------------------------
def test_a_third_purple_becomes_a_question_not_a_fact(table):
    t = table(players=("Anna",))
    t.balls("purple", "purple", confidence=0.95)
    t.do(BallSeen("purple", 2, 0.97))
    s = t.state
    assert s.tray[2] == "" and s.asks[0].slot == 2
    ask = t.cues[-1]
    assert isinstance(ask, AskHuman) and "no purple left" in ask.question
    assert "purple" not in ask.choices and ask.choices[0] == "blue"  # most plentiful first
    t.do(BallSeen("pink", 2, 1.0))  # a person answers
    assert t.state.tray[2] == "pink" and t.state.asks == ()


def test_a_person_cannot_enter_a_ball_the_mill_does_not_hold(table):
    t = table(players=("Anna",))
    t.balls("purple", "purple")
    refused(t, BallSeen("purple", 2, 1.0), "no more purple balls")


def test_low_confidence_asks_with_the_reading_first(table):
    t = table(players=("Anna",))
    t.do(BallSeen("pink", 0, 0.5))
    assert t.state.tray[0] == ""
    ask = t.cues[-1]
    assert isinstance(ask, AskHuman) and ask.choices[0] == "pink"
    assert set(ask.choices) == {"blue", "green", "orange", "pink", "purple"}
    # the camera repeating itself is not news; a confident reading settles it
    assert not GAME.is_news(t.state, BallSeen("pink", 0, 0.5))
    t.do(BallSeen("pink", 0, 0.9))
    assert t.state.tray[0] == "pink" and t.state.asks == ()
    assert not GAME.is_news(t.state, BallSeen("pink", 0, 0.9))


def test_ask_threshold_is_an_option(table):
    t = table(players=("Anna",), ask_threshold=0.4)
    t.do(BallSeen("pink", 0, 0.5))
    assert t.state.tray[0] == "pink"


def test_camera_contradicting_itself_asks_but_a_tap_corrects(table):
    t = table(players=("Anna",))
    t.do(BallSeen("pink", 0, 0.9), BallSeen("purple", 0, 0.9))
    assert t.state.tray[0] == "pink" and t.cues[-1].choices[:2] == ("purple", "pink")
    t.do(BallSeen("purple", 0, 1.0))
    assert t.state.tray[0] == "purple" and t.state.asks == ()


def test_no_round_is_checked_while_a_question_is_open(table):
    t = table(players=("Anna",))
    t.predict(Anna="blue")
    t.do(*(BallSeen(c, i) for i, c in enumerate(R1[:4])), BallSeen("pink", 4, 0.3))
    assert t.state.phase == "mill"
    t.do(BallSeen("pink", 4, 1.0))
    assert t.state.phase == "choose"


# Coins, pencils, end and winner ------------------------------------------------------------
def test_pencils_cannot_be_used_twice(table):
    t = table(players=("Anna",))
    t.do(Tally("Anna", "pencils", 1), Tally("Anna", "used", 1))
    refused(t, Tally("Anna", "used", 1), "0 unused")
    refused(t, Tally("Anna", "coins", -1), "only 0 coins")
    refused(t, Tally("Anna", "stars", 1), "tally coins")


@pytest.mark.parametrize("board, goal", [(1, 5), (2, 5), (3, 5), (4, 6), (5, 6), (6, 6)])
def test_end_trigger_finish_the_round_then_one_final_round(table, board, goal):
    t = table(players=("Anna", "Ben"), board=board)
    t.round(R1, coins={"Anna": goal - 1})
    assert t.state.trigger_round is None
    t.round(R2, coins={"Ben": 1}, finish=False)
    t.do(Tally("Anna", "coins", 1))
    assert t.state.trigger_round == 2 and any("final round" in x for x in t.texts())
    t.do(ButtonPressed("next"))
    assert t.state.round == 3 and t.state.final_round == 3
    t.round(R3)
    if t.state.phase == "tally":
        t.do(ButtonPressed("next"))
    assert GAME.is_over(t.state) and t.state.round == 3
    assert GAME.winners(t.state) == ("Anna",)
    refused(t, ButtonPressed("next"), "game is over")


def test_corrected_coin_takes_back_the_trigger(table):
    t = table(players=("Anna", "Ben"))
    t.do(Tally("Anna", "coins", 5))
    assert t.state.trigger_round == 1
    t.do(Tally("Anna", "coins", -1))
    assert t.state.trigger_round is None


def test_trigger_in_the_third_round_remixes_before_the_final_round(table):
    t = table(players=("Anna", "Ben"))
    t.round(R1)
    t.round(R2)
    t.round(R3, coins={"Ben": 5})
    assert t.state.phase == "remix"
    t.remix()
    assert t.state.round == 4 and t.state.final_round == 4
    t.round(R1)
    assert GAME.is_over(t.state) and GAME.winners(t.state) == ("Ben",)


def test_tie_goes_to_unused_pencils_then_is_shared(table):
    t = table(players=("Anna", "Ben", "Cleo"))
    t.do(Tally("Anna", "coins", 5), Tally("Ben", "coins", 5), Tally("Cleo", "coins", 5))
    t.do(Tally("Anna", "pencils", 2), Tally("Anna", "used", 1))  # 1 unused
    t.do(Tally("Ben", "pencils", 1))  # 1 unused
    t.round(R1)
    assert GAME.winners(t.state) == ()  # not over yet
    t.round(R2)
    assert GAME.winners(t.state) == ("Anna", "Ben")
    assert GAME.scores(t.state) == {"Anna": 5, "Ben": 5, "Cleo": 5}


def test_describe_and_legal_actions_follow_the_phases(table):
    t = table(players=("Anna", "Ben"))
    assert "make your predictions" in GAME.describe(t.state)
    assert len(GAME.legal_actions(t.state)) == 25  # 5 slots x 5 colours
    t.predict(Anna="blue", Ben="blue")
    t.balls(*R1)
    assert "Anna chooses" in GAME.describe(t.state)
    assert GAME.legal_actions(t.state) == tuple(Choose("Anna", (s,)) for s in range(3))
    t.choose_first()
    assert GAME.legal_actions(t.state) == (ButtonPressed("next"),)


def test_a_tap_overrules_the_camera_and_questions_its_other_reading(table):
    t = table(players=("Anna",))
    t.do(BallSeen("purple", 0, 0.9), BallSeen("purple", 1, 0.9))
    t.do(BallSeen("purple", 3, 1.0))  # a person: ball 4 is purple, so one camera read is wrong
    s = t.state
    assert s.tray == ("", "", "", "purple", "") and {a.slot for a in s.asks} == {0, 1}
    assert "purple" in t.cues[-1].choices  # one of them may still be purple
    t.do(BallSeen("purple", 3, 0.6))  # the camera cannot overrule a person
    assert t.state.tray[3] == "purple" and len(t.state.asks) == 2
    t.do(BallSeen("purple", 0, 1.0), BallSeen("pink", 1, 1.0))
    assert t.state.tray[:2] == ("purple", "pink") and t.state.asks == ()


def test_phase_cues_light_the_leds_in_the_players_marker_colour(table):
    t = table(first_leader=1)
    t.predict(Anna="blue", Ben="blue", Cleo="blue")
    t.balls(*R1)
    phases = [(c.phase, c.player, c.colour) for c in t.cues if isinstance(c, PhaseStarted)]
    assert phases == [("mill", "Ben", "blue"), ("choose", "Ben", "blue")]
    t.choose_first()
    t.do(ButtonPressed("next"))
    phases = [(c.phase, c.player, c.colour) for c in t.cues if isinstance(c, PhaseStarted)]
    assert phases[-3:] == [
        ("choose", "Anna", "red"),
        ("colour", None, None),
        ("predict", "Cleo", "yellow"),
    ]


def test_a_ball_rolling_out_after_the_check_is_an_extra_to_put_back(table):
    t = table(players=("Anna", "Ben"))
    t.predict(Anna="blue", Ben="blue")
    t.do(BallPassed(3))  # the beam saw only three of the five
    t.balls(*R1)  # tapped in
    assert t.state.phase == "choose" and t.state.extras == 0
    t.do(BallPassed(1))
    assert t.state.extras == 1 and "Anna: 1 ball too many" in t.texts()[-1]
    t.choose_first()
    t.do(BallPassed(1))
    assert t.state.extras == 2
    t.do(ButtonPressed("next"))
    assert t.state.passed == 0
