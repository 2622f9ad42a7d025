"""Team mode: reveal, silent planning, simultaneous bids, teammates, scoring, rotation, end."""

import pytest

from companion.cues import AskHuman, PhaseStarted, Scored, TimeUp
from companion.errors import IllegalMove, UsageError
from companion.events import CardSeen, TimerExpired
from companion.game import GameConfig
from companion.games.laser import GAME
from companion.games.laser.events import BidPlaced, CardRevealed, RoundResult, TeammateChosen

from .helpers import TEAM4, bid_all, expire, new, play, reveal_team, team_round_to_bids


def test_team_mode_needs_three_players():
    with pytest.raises(UsageError, match="3-10"):
        GAME.initial_state(GameConfig(("A", "B"), {"mode": "team"}))
    assert new(("A", "B")).mode == "competitive"  # two players default to competitive
    with pytest.raises(UsageError, match="cards"):
        new(cards=1)


def test_reveal_then_silent_planning_clock():
    s = new()
    s, cues = play(s, CardRevealed("cyan"))
    assert s.phase == "reveal" and GAME.timer(s) is None
    s, cues = play(s, CardSeen("centre", "blue", 0.95))
    assert s.phase == "planning" and s.cards == (("cyan", None), ("blue", None))
    spec = GAME.timer(s)
    assert spec.seconds == 30 and spec.key.startswith("laser:planning:")
    assert PhaseStarted("planning", "Peter") in cues
    with pytest.raises(IllegalMove, match="already revealed"):
        play(s, CardRevealed("red"))
    with pytest.raises(IllegalMove, match="together"):
        play(s, BidPlaced("Suzie", 5))


def test_unsure_camera_reading_asks_and_changes_nothing():
    s = new()
    s2, cues = play(s, CardSeen("centre", "blue", 0.4))
    assert s2 == s and any(isinstance(c, AskHuman) for c in cues)


def test_deck_holds_two_of_each_colour():
    s, _ = play(new(cards=3), CardRevealed("red"), CardRevealed("red"))
    with pytest.raises(IllegalMove, match="only two red"):
        play(s, CardRevealed("red"))
    with pytest.raises(IllegalMove, match="unknown colour"):
        play(s, CardRevealed("orange"))


def test_rulebook_teammate_example_kitti_is_closest():
    # Peter (active) 7, Suzie 10, Tommy 3, Kitti 8 -> Kitti
    s = team_round_to_bids(new())
    s, cues = bid_all(s, {"Suzie": 10, "Tommy": 3, "Kitti": 8})
    assert s.phase == "bids"  # still waiting for Peter
    s, cues = bid_all(s, {"Peter": 7})
    assert s.phase == "mixing" and s.mate == TEAM4.index("Kitti")
    assert GAME.timer(s).seconds == 30
    assert GAME.current_player(s) == "Peter"


def test_same_bid_beats_closer_neighbour_and_ties_ask_the_active_player():
    s = team_round_to_bids(new())
    s, _ = bid_all(s, {"Peter": 6, "Suzie": 6, "Tommy": 5, "Kitti": 7})
    assert s.mate == 1  # same bid
    s = team_round_to_bids(new())
    s, cues = bid_all(s, {"Peter": 6, "Suzie": 2, "Tommy": 5, "Kitti": 7})
    assert s.phase == "choosing" and s.candidates == (2, 3)
    assert AskHuman("Peter: choose your teammate", ("Tommy", "Kitti")) in cues
    with pytest.raises(IllegalMove, match="not among the closest"):
        play(s, TeammateChosen("Suzie"))
    s, _ = play(s, TeammateChosen("Kitti"))
    assert s.phase == "mixing" and s.mate == 3


def test_bids_are_two_to_ten():
    s = team_round_to_bids(new())
    for bad in (1, 11):
        with pytest.raises(IllegalMove, match="2-10"):
            play(s, BidPlaced("Peter", bad))
    with pytest.raises(IllegalMove, match="no player"):
        play(s, BidPlaced("Zed", 5))
    # a bid can be corrected before everyone has bid
    s, _ = bid_all(s, {"Peter": 4, "Suzie": 9})
    s, _ = bid_all(s, {"Peter": 8})
    assert s.bids[0] == 8


def _scores(s):
    return GAME.scores(s)


def test_success_scores_both_teammates_the_bid():
    s = team_round_to_bids(new())
    s, _ = bid_all(s, {"Peter": 7, "Suzie": 10, "Tommy": 3, "Kitti": 8})
    s, cues = play(s, RoundResult(True))
    assert _scores(s) == {"Peter": 7, "Suzie": 0, "Tommy": 0, "Kitti": 7}
    assert Scored("Peter", 7) in cues and Scored("Kitti", 7) in cues
    assert s.phase == "reveal" and s.active == 1 and s.round == 2  # Suzie, to the left


def test_failure_scores_every_other_player_the_bid():
    s = team_round_to_bids(new())
    s, _ = bid_all(s, {"Peter": 7, "Suzie": 10, "Tommy": 3, "Kitti": 8})
    s, _ = play(s, RoundResult(False))
    assert _scores(s) == {"Peter": 0, "Suzie": 7, "Tommy": 7, "Kitti": 0}


def test_mixing_clock_runs_out_then_people_judge():
    s = team_round_to_bids(new())
    s, _ = bid_all(s, {"Peter": 5, "Suzie": 5, "Tommy": 3, "Kitti": 8})
    key = GAME.timer(s).key
    s, cues = expire(s)
    assert TimeUp(key) in cues and s.phase == "verdict" and GAME.timer(s) is None
    assert any(isinstance(c, AskHuman) for c in cues)
    s, _ = play(s, RoundResult(False))
    assert _scores(s) == {"Peter": 0, "Suzie": 0, "Tommy": 5, "Kitti": 5}


def test_stale_timer_is_refused():
    s = team_round_to_bids(new())
    with pytest.raises(IllegalMove, match="not running"):
        play(s, TimerExpired("laser:planning:1"))


def _full_round(s, active_bid=4, success=True):
    s = team_round_to_bids(s)
    bids = {p: (active_bid if i == s.active else 2 + i % 9) for i, p in enumerate(s.players)}
    s, _ = bid_all(s, bids)
    if s.phase == "choosing":
        s, _ = play(s, TeammateChosen(s.players[s.candidates[0]]))
    s, _ = play(s, RoundResult(success))
    return s


@pytest.mark.parametrize("n, turns", [(3, 3), (5, 3), (6, 2), (10, 2)])
def test_game_ends_after_each_player_was_active_enough(n, turns):
    players = tuple(f"P{i}" for i in range(n))
    s = new(players)
    actives = []
    for _ in range(n * turns):
        assert not GAME.is_over(s)
        actives.append(s.active)
        s = _full_round(s)
    assert GAME.is_over(s)
    assert actives == [i % n for i in range(n * turns)]  # rotation to the left
    best = max(s.scores)
    assert GAME.winners(s) == tuple(p for p, x in zip(players, s.scores, strict=True) if x == best)
    with pytest.raises(IllegalMove, match="over"):
        play(s, CardRevealed("red"))


def test_learning_mode_gives_a_minute():
    s, _ = reveal_team(new(learning=True))
    assert GAME.timer(s).seconds == 60


def test_harder_mode_waits_for_three_cards():
    s, _ = reveal_team(new(cards=3))
    assert s.phase == "reveal"
    s, _ = play(s, CardRevealed("red"))
    assert s.phase == "planning" and len(s.cards) == 3


def test_every_legal_action_is_accepted():
    s = team_round_to_bids(new())
    for ev in GAME.legal_actions(s):
        GAME.apply(s, ev)  # none raises
