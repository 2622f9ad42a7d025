"""The referee refuses the impossible and never stalls the game: removed-figure counts a bid
cannot reach, the solver's limit where the rules call it, and Impossible! counter-bids."""

import pytest

from companion.clock import FakeClock
from companion.cues import AskHuman
from companion.errors import IllegalMove
from companion.events import TimerExpired
from companion.game import GameConfig
from companion.games.laser import GAME
from companion.games.laser.board import COLOURS, position_from_json
from companion.games.laser.competitive import PROPOSAL_WORK
from companion.games.laser.events import (
    BidPlaced,
    BoardEntered,
    CardRevealed,
    ImpossibleClaimed,
    RoundResult,
)
from companion.games.laser.solver import max_removed_for, solve
from companion.games.laser.solver.limit import Limit
from companion.session import Session
from companion.store import GameLog

from .test_solver import COMP_EXAMPLE

P3 = ("Peter", "Tommy", "Suzie")
TEAM4 = ("Peter", "Suzie", "Tommy", "Kitti")

# Six competitive cards on a full board: no solution exists at all, but proving it takes
# the exact solver about 100,000 searched states (seconds), ten times the proposal's limit.
SIX_CARDS = {
    "mode": "competitive",
    "cat": 5,
    "tiles": [
        "red",
        "cyan",
        "blue",
        "yellow",
        "green",
        None,
        "yellow",
        "red",
        "magenta",
        "blue",
        "magenta",
        "yellow",
    ],  # fmt: skip
    "floors": [
        "ceramic",
        "carpet",
        "wood",
        "carpet",
        "wood",
        "ceramic",
        "ceramic",
        "wood",
        "wood",
        "ceramic",
        "carpet",
        "carpet",
    ],  # fmt: skip
    "supply": {"red": 2, "yellow": 1, "green": 2, "cyan": 2, "blue": 2, "magenta": 2},
    "cards": [
        {"colour": "green", "floor": "carpet"},
        {"colour": "green", "floor": "wood"},
        {"colour": "yellow", "floor": "carpet"},
        {"colour": "yellow", "floor": "wood"},
        {"colour": "magenta", "floor": "ceramic"},
        {"colour": "magenta", "floor": "ceramic"},
    ],
}


@pytest.fixture
def session(tmp_path):
    logs = []

    def start(players=P3, **options):
        log = GameLog(tmp_path / "games.sqlite3")
        logs.append(log)
        return Session.start(GAME, log, GameConfig(players, options), clock=FakeClock())

    yield start
    for log in logs:
        log.close()


def expire(s):
    s.submit(TimerExpired(GAME.timer(s.state).key))


def board_event(data, supply=None):
    supply = supply or tuple(data["supply"].get(c, 0) for c in COLOURS)
    return BoardEntered(tuple(data["tiles"]), data["cat"], supply, tuple(data["floors"]))


def to_demo(s, bid, cards=(("yellow", "wood"), ("green", "carpet")), board=None):
    for colour, floor in cards:
        s.submit(CardRevealed(colour, floor))
    if board is not None:
        s.submit(board)
    s.submit(BidPlaced("Peter", bid))
    expire(s)
    assert s.state.phase == "demonstration"


def refused(s, event, match):
    """The event is refused with `match` in its message, and nothing is written."""
    before, entries = s.state, len(s.log.entries(s.game_id))
    with pytest.raises(IllegalMove, match=match):
        s.submit(event)
    assert s.state == before and len(s.log.entries(s.game_id)) == entries


# 10: counts the position cannot allow ------------------------------------------------------
def test_without_a_board_a_bid_removes_at_most_two_figures_a_step(session):
    s = session(mode="competitive")
    to_demo(s, 7)
    refused(s, RoundResult(True, 16), "16 figures cannot be right: 7 steps remove at most 14")
    assert max(a.removed for a in GAME.legal_actions(s.state) if a.success) == 14
    s.submit(RoundResult(True, 14))
    assert GAME.scores(s.state)["Peter"] == 14 and not GAME.is_over(s.state)


def test_with_the_board_the_solvers_count_for_the_bid_is_the_most(session):
    s = session(mode="competitive")
    to_demo(s, 3, board=board_event(COMP_EXAMPLE, (2, 1, 2, 2, 2, 2)))
    most = max_removed_for(position_from_json(COMP_EXAMPLE), 3)
    assert s.state.proposal == most
    refused(
        s, RoundResult(True, most + 1), f"on the board as entered, 3 steps remove at most {most}"
    )
    s.submit(RoundResult(True))
    assert GAME.scores(s.state)["Peter"] == most


def test_two_figures_on_the_board_cannot_score_fifteen(session):
    # red and green make the yellow card's figure, nothing can make the green: no solution
    data = {
        "tiles": [None, "red", "green"] + [None] * 9,
        "cat": 0,
        "floors": ["wood"] * 4 + ["carpet"] * 4 + ["ceramic"] * 4,
    }
    s = session(mode="competitive")
    to_demo(s, 3, board=BoardEntered(tuple(data["tiles"]), 0, (0, 1, 0, 0, 0, 0), data["floors"]))
    assert s.state.no_solution
    refused(s, RoundResult(True, 15), "no solution in exactly 3 steps")
    refused(s, RoundResult(True), "no solution in exactly 3 steps")
    assert not [a for a in GAME.legal_actions(s.state) if isinstance(a, RoundResult) and a.success]
    s.submit(RoundResult(False))  # judged failed: an X, as the table decides
    assert s.state.xs[0] == 1


def test_a_bid_far_above_the_optimum_is_checked_by_counting_the_figures(session):
    # 19 steps: no proposal (beyond the slack above the optimum of 3); the entered board and
    # its colour cards hold 9 + 11 = 20 figures, fewer than 2 x 19
    s = session(mode="competitive")
    to_demo(s, 19, board=board_event(COMP_EXAMPLE, (2, 1, 2, 2, 2, 2)))
    assert s.state.proposal is None and not s.state.no_solution
    in_play = sum(t is not None for t in COMP_EXAMPLE["tiles"]) + 11
    refused(s, RoundResult(True, in_play + 1), f"as entered hold {in_play} figures")
    s.submit(RoundResult(True, in_play))


def test_a_board_entered_during_the_demonstration_brings_the_proposal(session):
    s = session(mode="competitive")
    to_demo(s, 3)
    assert s.state.proposal is None
    cues = s.submit(board_event(COMP_EXAMPLE, (2, 1, 2, 2, 2, 2)))
    most = max_removed_for(position_from_json(COMP_EXAMPLE), 3)
    assert s.state.proposal == most
    assert AskHuman("Peter removes how many figures?", (str(most),)) in cues
    refused(s, RoundResult(True, most + 1), f"at most {most}")


# 12: the rules' solver call is bounded ----------------------------------------------------
def test_the_proposal_gives_up_at_its_limit_and_the_count_is_still_checked(session):
    pos = position_from_json(SIX_CARDS)
    assert not solve(pos, totals=False, limit=Limit(work=PROPOSAL_WORK)).solved
    s = session(mode="competitive", cards=6)
    cards = [(c["colour"], c["floor"]) for c in SIX_CARDS["cards"]]
    to_demo(s, 7, cards=cards, board=board_event(SIX_CARDS))
    # the exact answer (no solution at all) would refuse any success; the limit leaves the
    # question to the table, and counting still bounds the score
    assert s.state.proposal is None and not s.state.no_solution
    refused(s, RoundResult(True, 15), "7 steps remove at most 14")
    s.submit(RoundResult(True, 6))
    assert GAME.scores(s.state)["Peter"] == 6


def test_the_same_log_replays_to_the_same_proposal(session, tmp_path):
    s = session(mode="competitive", cards=6)
    cards = [(c["colour"], c["floor"]) for c in SIX_CARDS["cards"]]
    to_demo(s, 7, cards=cards, board=board_event(SIX_CARDS))
    again = Session.resume(GAME, s.log, s.game_id, clock=FakeClock())
    assert again.state == s.state


# 13: Impossible! counter-bids are not capped at 10 -----------------------------------------
def test_team_counter_bids_disprove_a_claim_with_any_number_of_steps(session):
    s = session(players=TEAM4)
    s.submit(CardRevealed("cyan"))
    s.submit(CardRevealed("blue"))
    s.submit(ImpossibleClaimed("Tommy"))
    assert BidPlaced("Suzie", 15) in GAME.legal_actions(s.state)
    s.submit(BidPlaced("Suzie", 15))
    s.submit(BidPlaced("Kitti", 12))
    refused(s, BidPlaced("Peter", 12), "below 12")
    refused(s, BidPlaced("Peter", 0), "1-99")
    expire(s)
    assert s.state.phase == "proof" and GAME.current_player(s.state) == "Kitti"
    s.submit(RoundResult(True))
    assert GAME.scores(s.state) == {"Peter": 10, "Suzie": 10, "Tommy": 0, "Kitti": 10}


def test_ordinary_team_bids_stay_two_to_ten(session):
    s = session(players=TEAM4)
    s.submit(CardRevealed("cyan"))
    s.submit(CardRevealed("blue"))
    expire(s)
    refused(s, BidPlaced("Peter", 11), "team bids are 2-10")
