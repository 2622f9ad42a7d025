"""Board 5's warriors through a real Session: the players with most warriors colour one cell
at once, before the next round starts or the winner is decided, and its coins count there."""

import pytest

from companion.clock import FakeClock
from companion.cues import PhaseStarted
from companion.errors import IllegalMove
from companion.events import BallSeen, ButtonPressed
from companion.game import GameConfig
from companion.games.color_milk import GAME
from companion.games.color_milk.events import Choose, Count, Predict, Tally
from companion.session import Session
from companion.store import GameLog

ROUNDS = (
    ("blue", "blue", "green", "orange", "pink"),
    ("blue", "blue", "green", "orange", "purple"),
    ("blue", "green", "green", "orange", "pink"),
)


@pytest.fixture
def session(tmp_path):
    with GameLog(tmp_path / "games.sqlite3") as log:
        yield Session.start(GAME, log, GameConfig(("Anna", "Ben"), {"board": 5}), clock=FakeClock())


def play_round(s, balls, coins=None):
    """Predict blue, the five balls, everyone takes the first ball, coins, next."""
    for p in s.state.players:
        s.submit(Predict(p.name, ("blue",)))
    for slot, colour in enumerate(balls):
        s.submit(BallSeen(colour, slot, 1.0))
    while s.state.phase == "choose":
        s.submit(Choose(s.state.chooser_name, (0,)))
    for name, n in (coins or {}).items():
        s.submit(Tally(name, "coins", n))
    return s.submit(ButtonPressed("next"))


def test_at_the_end_the_extra_cells_coin_counts_before_the_winner(session):
    s = session
    s.submit(Tally("Anna", "coins", 5))
    s.submit(Tally("Anna", "pencils", 1))
    play_round(s, ROUNDS[0], coins={"Ben": 6})  # Ben reaches the goal: one final round
    play_round(s, ROUNDS[1])
    assert s.state.phase == "tally"
    s.submit(Count("Anna", "warriors", 3))
    s.submit(Count("Ben", "warriors", 1))
    cues = s.submit(ButtonPressed("next"))
    assert s.state.phase == "warriors" and not GAME.is_over(s.state)
    assert PhaseStarted("warriors") in cues
    assert any("Anna: colour your extra cell now" in getattr(c, "text", "") for c in cues)
    s.submit(Tally("Anna", "coins", 1))  # the extra cell finished an area
    s.submit(ButtonPressed("next"))
    assert GAME.is_over(s.state)
    assert GAME.scores(s.state) == {"Anna": 6, "Ben": 6}
    assert GAME.winners(s.state) == ("Anna",)  # tied on coins; Anna kept her pencil
    assert s.log.game(s.game_id).status == "finished"


def test_at_a_remix_the_extra_cells_coin_triggers_the_end_in_the_round_just_played(session):
    s = session
    s.submit(Tally("Anna", "coins", 5))
    for balls in ROUNDS:
        play_round(s, balls)
    assert s.state.phase == "remix" and s.state.round == 3
    s.submit(Count("Anna", "warriors", 2))
    s.submit(Count("Ben", "warriors", 0))
    s.submit(ButtonPressed("next"))
    assert s.state.phase == "warriors" and s.state.round == 3
    with pytest.raises(IllegalMove):
        s.submit(Predict("Anna", ("blue",)))  # the next round has not started
    s.submit(Tally("Anna", "coins", 1))  # 6 coins: finish this round, then one final round
    assert s.state.trigger_round == 3
    cues = s.submit(ButtonPressed("next"))
    assert s.state.phase == "predict" and s.state.round == 4 and s.state.final_round == 4
    assert any("Final round!" in getattr(c, "text", "") for c in cues)
    assert s.state.cycle_round == 1 and sum(s.state.inside) == 20  # the mill was refilled
    play_round(s, ROUNDS[0])
    assert s.state.phase == "tally"


def test_equal_warriors_colour_nothing_and_play_goes_straight_on(session):
    s = session
    for balls in ROUNDS:
        play_round(s, balls)
    s.submit(Count("Anna", "warriors", 1))
    s.submit(Count("Ben", "warriors", 1))
    s.submit(ButtonPressed("next"))
    assert s.state.phase == "predict" and s.state.round == 4
