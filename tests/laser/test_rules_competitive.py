"""Competitive mode: first bid starts the window, only lower bids, demonstration, figures
removed as points, X marks with every third X turned into -6, first to 15 wins."""

import pytest

from companion.cues import AskHuman, Scored, TimeUp
from companion.errors import IllegalMove
from companion.events import ButtonPressed, CardSeen
from companion.games.laser import GAME
from companion.games.laser.events import BidPlaced, BoardEntered, CardRevealed, RoundResult

from .helpers import expire, new, play, reveal_comp

P3 = ("Peter", "Tommy", "Suzie")


def comp(**kw):
    return new(P3, mode="competitive", **kw)


def to_demo(s, bids=(("Peter", 6), ("Tommy", 4), ("Peter", 3))):
    s, _ = reveal_comp(s)
    assert s.phase == "thinking" and GAME.timer(s) is None
    s, _ = play(s, *(BidPlaced(p, b) for p, b in bids))
    s, _ = expire(s)
    assert s.phase == "demonstration"
    return s


def test_competitive_cards_need_a_floor():
    s = comp()
    with pytest.raises(IllegalMove, match="floor"):
        play(s, CardRevealed("yellow"))
    s2, cues = play(s, CardSeen("centre", "yellow", 0.99))
    assert (
        s2 == s
        and AskHuman("Which floor is on the yellow card?", ("wood", "carpet", "ceramic")) in cues
    )
    s3, _ = play(s, CardSeen("centre:wood", "yellow", 0.99))
    assert s3.cards == (("yellow", "wood"),)


def test_first_bid_starts_the_window_and_only_lower_bids_count():
    s, _ = reveal_comp(comp())
    s, _ = play(s, BidPlaced("Peter", 6))
    spec = GAME.timer(s)
    assert s.phase == "bidding" and spec.seconds == 30
    s, _ = play(s, BidPlaced("Tommy", 4))
    for bad in (4, 5, 9):
        with pytest.raises(IllegalMove, match="below 4"):
            play(s, BidPlaced("Suzie", bad))
    s, _ = play(s, BidPlaced("Peter", 3))
    assert GAME.timer(s).key == spec.key  # lower bids do not restart the window
    s, cues = expire(s)
    assert TimeUp(spec.key) in cues
    assert s.phase == "demonstration" and GAME.current_player(s) == "Peter"
    assert GAME.timer(s).seconds == 30 and GAME.timer(s).key != spec.key


def test_bid_button_starts_the_window_before_the_number_is_known():
    s, _ = reveal_comp(comp())
    s, cues = play(s, ButtonPressed("bid"))
    assert s.phase == "bidding" and s.best is None and GAME.timer(s).seconds == 30
    s, _ = play(s, BidPlaced("Suzie", 7), BidPlaced("Tommy", 5))
    assert s.best == (1, 5)
    # a window with no bid entered goes back to thinking
    s2, _ = play(reveal_comp(comp())[0], ButtonPressed("bid"))
    s2, _ = expire(s2)
    assert s2.phase == "thinking" and GAME.timer(s2) is None


def test_rulebook_example_peter_scores_three_removed_figures():
    s = to_demo(comp())
    s, cues = play(s, RoundResult(True, removed=3))
    assert GAME.scores(s)["Peter"] == 3 and Scored("Peter", 3) in cues
    assert s.phase == "reveal" and s.round == 2 and s.cards == ()


def test_removed_count_is_proposed_from_the_solver_when_the_board_is_known():
    # the rulebook's competitive board (see test_solver): Peter's 3-step solution
    from .test_solver import COMP_EXAMPLE

    s, _ = reveal_comp(comp())
    s, _ = play(
        s,
        BoardEntered(
            tuple(COMP_EXAMPLE["tiles"]),
            COMP_EXAMPLE["cat"],
            (2, 1, 2, 2, 2, 2),
            tuple(COMP_EXAMPLE["floors"]),
        ),
    )
    s, _ = play(s, BidPlaced("Tommy", 4))
    s, _ = expire(s)
    assert s.proposal == 4  # Tommy's 4 steps remove red, green, yellow, cyan
    s, cues = play(s, RoundResult(True))
    assert GAME.scores(s)["Tommy"] == 4


def test_success_without_a_count_or_board_is_refused():
    s = to_demo(comp())
    with pytest.raises(IllegalMove, match="how many figures"):
        play(s, RoundResult(True))
    with pytest.raises(IllegalMove, match="1-24"):
        play(s, RoundResult(True, removed=0))


def _fail(s, who="Peter"):
    s = to_demo(s, bids=((who, 5),))
    return play(s, RoundResult(False))


def test_x_marks_and_every_third_x_is_minus_six():
    s = comp()
    s, cues = _fail(s)
    assert s.xs[0] == 1 and s.scores[0] == 0 and not any(isinstance(c, Scored) for c in cues)
    s, _ = _fail(s)
    assert s.xs[0] == 2 and s.scores[0] == 0
    s, cues = _fail(s)
    assert s.xs[0] == 0 and s.scores[0] == -6 and s.penalties[0] == 1
    assert Scored("Peter", -6) in cues
    s, _ = _fail(s)
    s, _ = _fail(s)
    assert s.xs[0] == 2 and s.scores[0] == -6
    s, _ = _fail(s)  # the penalty can be scored several times
    assert s.xs[0] == 0 and s.scores[0] == -12 and s.penalties[0] == 2


def test_x_marks_need_not_be_in_successive_rounds():
    s = comp()
    s, _ = _fail(s)
    s = to_demo(s, bids=(("Peter", 3),))
    s, _ = play(s, RoundResult(True, removed=4))
    s, _ = _fail(s)
    assert s.xs[0] == 2 and s.scores[0] == 4
    s, _ = _fail(s)
    assert s.xs[0] == 0 and s.scores[0] == -2


def test_demonstration_clock_runs_out_then_verdict():
    s = to_demo(comp())
    s, cues = expire(s)
    assert s.phase == "verdict" and GAME.timer(s) is None
    s, _ = play(s, RoundResult(False))
    assert s.xs[0] == 1


def test_first_to_fifteen_wins_at_once():
    s = comp()
    for removed in (6, 6):
        s = to_demo(s, bids=(("Tommy", 5),))
        s, _ = play(s, RoundResult(True, removed=removed))
    assert not GAME.is_over(s) and s.scores[1] == 12
    s = to_demo(s, bids=(("Tommy", 5),))
    s, _ = play(s, RoundResult(True, removed=3))
    assert GAME.is_over(s) and GAME.winners(s) == ("Tommy",)
    assert GAME.timer(s) is None


def test_removed_proposal_at_the_optimum_and_a_little_above_only():
    from companion.games.laser.board import position_from_json
    from companion.games.laser.rules import PROPOSAL_SLACK, propose_removed
    from companion.games.laser.solver import max_removed_for, solve

    from .test_solver import COMP_EXAMPLE

    pos = position_from_json(COMP_EXAMPLE)
    best = solve(pos)
    assert propose_removed(pos, best.min_cost) == best.max_removed
    assert propose_removed(pos, 4) == max_removed_for(pos, 4) == 4
    assert propose_removed(pos, best.min_cost - 1) is None
    assert propose_removed(pos, best.min_cost + PROPOSAL_SLACK + 1) is None
