"""Impossible!: the cat-grab, the counter-bid window, the proof and both modes' scoring."""

import pytest

from companion.cues import AskHuman, Scored
from companion.errors import IllegalMove
from companion.events import ButtonPressed
from companion.games.laser import GAME
from companion.games.laser.events import (
    BidPlaced,
    BoardEntered,
    ClaimerNamed,
    ImpossibleClaimed,
    RoundResult,
    TeammateChosen,
)

from .helpers import TEAM4, expire, new, play, reveal_comp, reveal_team

P3 = ("Peter", "Tommy", "Suzie")


def team_claim(claimer="Tommy"):
    s, _ = reveal_team(new())
    s, _ = play(s, ImpossibleClaimed(claimer))
    assert s.phase == "challenge" and GAME.timer(s).seconds == 30
    return s


def test_claim_only_after_the_reveal_and_before_mixing():
    with pytest.raises(IllegalMove, match="Impossible"):
        play(new(), ImpossibleClaimed("Peter"))


def test_team_right_claim_when_nobody_disagrees_scores_ten():
    s = team_claim()
    s, cues = expire(s)
    assert GAME.scores(s) == {"Peter": 0, "Suzie": 0, "Tommy": 10, "Kitti": 0}
    assert Scored("Tommy", 10) in cues
    assert s.phase == "reveal" and s.active == 1 and s.turns_done == 1


def test_team_counter_bid_proof_succeeds_so_everyone_else_scores_ten():
    s = team_claim()
    with pytest.raises(IllegalMove, match="cannot bid"):
        play(s, BidPlaced("Tommy", 5))
    s, _ = play(s, BidPlaced("Suzie", 8), BidPlaced("Kitti", 6))
    with pytest.raises(IllegalMove, match="below 6"):
        play(s, BidPlaced("Peter", 7))
    s, _ = expire(s)
    assert s.phase == "proof" and GAME.current_player(s) == "Kitti"
    assert GAME.timer(s).seconds == 30
    s, _ = play(s, RoundResult(True))
    assert GAME.scores(s) == {"Peter": 10, "Suzie": 10, "Tommy": 0, "Kitti": 10}


def test_team_failed_proof_means_the_claimer_was_right():
    s = team_claim()
    s, _ = play(s, BidPlaced("Suzie", 4))
    s, _ = expire(s)
    s, _ = expire(s)  # the proof clock runs out: people judge
    assert s.phase == "proof-verdict"
    s, _ = play(s, RoundResult(False))
    assert GAME.scores(s)["Tommy"] == 10 and sum(GAME.scores(s).values()) == 10


def test_cat_grab_button_asks_who_and_waits_for_the_name():
    s, _ = reveal_team(new())
    s, _ = expire(s)  # into the bids
    s, cues = play(s, ButtonPressed("impossible"))
    assert s.phase == "challenge" and s.claimer is None
    assert AskHuman("Who grabbed the cat?", TEAM4) in cues
    s, _ = expire(s)  # nobody disagreed, but we do not know who was right yet
    assert s.phase == "who" and GAME.timer(s) is None
    s, cues = play(s, ClaimerNamed("Kitti"))
    assert GAME.scores(s)["Kitti"] == 10 and s.phase == "reveal"


def test_named_claimer_cannot_be_the_counter_bidder():
    s, _ = reveal_team(new())
    s, _ = play(s, ButtonPressed("impossible"), BidPlaced("Suzie", 5))
    with pytest.raises(IllegalMove, match="cannot be the claimer"):
        play(s, ClaimerNamed("Suzie"))
    s, _ = play(s, ClaimerNamed("Peter"))
    with pytest.raises(IllegalMove, match="already claimed"):
        play(s, ClaimerNamed("Tommy"))


def comp_claim(claimer="Suzie"):
    s, _ = reveal_comp(new(P3, mode="competitive"))
    s, _ = play(s, BidPlaced("Peter", 6))  # a bid is running when the cat is grabbed
    s, _ = play(s, ImpossibleClaimed(claimer))
    assert s.phase == "challenge"
    return s


def test_competitive_right_claim_gives_everyone_else_an_x():
    s = comp_claim()
    s, _ = expire(s)
    assert s.xs == (1, 1, 0) and s.scores == (0, 0, 0)


def test_competitive_wrong_claim_gives_the_claimer_an_x():
    s = comp_claim()
    s, _ = play(s, BidPlaced("Tommy", 9), BidPlaced("Peter", 2))
    s, _ = expire(s)
    assert GAME.current_player(s) == "Peter"
    s, _ = play(s, RoundResult(True))
    assert s.xs == (0, 0, 1)


def test_competitive_claim_x_can_be_the_third_x_for_several_players():
    s = new(P3, mode="competitive")
    for _ in range(3):
        s, _ = reveal_comp(s)
        s, _ = play(s, ImpossibleClaimed("Suzie"))
        s, cues = expire(s)
    assert s.xs == (0, 0, 0) and s.scores == (-6, -6, 0)
    assert Scored("Peter", -6) in cues and Scored("Tommy", -6) in cues


# Two figures, red and green: they make yellow, nothing can make green. Yellow on wood and
# green on carpet have no solution in any number of steps.
UNSOLVABLE = BoardEntered(
    (None, "red", "green") + (None,) * 9, 0, (0, 1, 0, 0, 0, 0), ("wood",) * 4 + ("carpet",) * 8
)


def test_a_proof_cannot_succeed_on_a_board_the_solver_proves_impossible():
    # the same check as a demonstration: "It worked" is refused, the claimer is not wronged
    s = comp_claim()
    s, _ = play(s, UNSOLVABLE, BidPlaced("Tommy", 4))
    s, cues = expire(s)
    assert s.phase == "proof" and s.no_solution
    assert any("no solution in exactly 4 steps" in getattr(c, "text", "") for c in cues)
    with pytest.raises(IllegalMove, match="no solution in exactly 4 steps"):
        play(s, RoundResult(True))
    assert RoundResult(True) not in GAME.legal_actions(s)
    s, _ = expire(s)  # the clock runs out: still refused at the verdict
    with pytest.raises(IllegalMove, match="no solution in exactly 4 steps"):
        play(s, RoundResult(True))
    s, _ = play(s, RoundResult(False))
    assert s.xs == (1, 1, 0)  # the claimer was right: everyone else takes an X


def test_a_board_entered_during_the_proof_brings_the_check():
    s = comp_claim()
    s, _ = play(s, BidPlaced("Tommy", 4))
    s, _ = expire(s)
    assert not s.no_solution
    s, _ = play(s, UNSOLVABLE)
    with pytest.raises(IllegalMove, match="no solution in exactly 4 steps"):
        play(s, RoundResult(True))


def test_team_mixing_cannot_succeed_on_a_board_the_solver_proves_impossible():
    s, _ = reveal_team(new())
    board = BoardEntered((None, "red", "green") + (None,) * 9, 0, (0, 0, 0, 0, 0, 0))
    s, _ = play(s, board)
    s, _ = expire(s)
    s, _ = play(*(s,), *(BidPlaced(p, 5) for p in ("Peter", "Suzie", "Tommy")))
    s, _ = play(s, BidPlaced("Kitti", 6))
    s, _ = play(s, TeammateChosen("Suzie")) if s.phase == "choosing" else (s, [])
    assert s.phase == "mixing" and s.no_solution
    with pytest.raises(IllegalMove, match="no solution in exactly 5 steps"):
        play(s, RoundResult(True))
