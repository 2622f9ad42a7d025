"""The solver's limit: it stops the searches where it says, and the answer claims only what
was proven before it."""

import pytest

from companion.games.laser.board import position_from_json
from companion.games.laser.solver import max_removed_for, solve
from companion.games.laser.solver.limit import Limit, LimitReached

from .test_referee_limits import SIX_CARDS
from .test_solver import COMP_EXAMPLE, TEAM_EXAMPLE


def test_a_work_limit_stops_at_that_many_searched_states():
    limit = Limit(work=50)
    sol = solve(position_from_json(SIX_CARDS), limit=limit)
    assert not sol.solved and sol.note == "not solved within 50 searched states"
    assert limit.spent == 51
    assert (sol.min_cost, sol.moves, sol.impossible, sol.exact_totals) == (None, (), False, ())
    assert sol.to_json()["solved"] is False and sol.to_json()["note"] == sol.note


def test_a_time_limit_reads_its_clock_and_stops_past_the_deadline():
    now = [0.0]

    def clock():
        now[0] += 0.01  # every look at the clock is 10 ms later
        return now[0]

    limit = Limit(seconds=0.5, clock=clock)
    sol = solve(position_from_json(SIX_CARDS), limit=limit)
    assert not sol.solved and sol.note == "not solved within 0.5 s"
    assert now[0] >= 0.5 and limit.spent < 64 * 60  # looked at the clock every 64 states


def test_within_the_limit_the_answer_is_the_exact_one():
    for data in (TEAM_EXAMPLE, COMP_EXAMPLE):
        pos = position_from_json(data)
        assert solve(pos, limit=Limit(seconds=60, work=10**6)) == solve(pos)


def test_an_optimum_found_before_the_limit_is_kept_but_no_totals_are_claimed():
    pos = position_from_json(TEAM_EXAMPLE)
    optimum_only = Limit(work=10**6)
    solve(pos, totals=False, limit=optimum_only)
    whole = Limit(work=10**6)
    exact = solve(pos, limit=whole)
    assert whole.spent > optimum_only.spent  # the exact totals search on
    cut = solve(pos, limit=Limit(work=optimum_only.spent))
    assert not cut.solved and cut.exact_totals == () and not cut.impossible
    assert (cut.min_cost, cut.moves) == (exact.min_cost, exact.moves)


def test_the_removed_figure_profile_raises_at_its_limit():
    pos = position_from_json(COMP_EXAMPLE)
    assert max_removed_for(pos, 6, limit=Limit(work=10**6)) == max_removed_for(pos, 6)
    with pytest.raises(LimitReached):
        max_removed_for(pos, 6, limit=Limit(work=1))


@pytest.mark.parametrize(
    "kw, message",
    [
        ({}, "seconds, work, megabytes or some of them"),
        ({"seconds": 0}, "more than 0"),
        ({"work": 0}, "at least 1"),
        ({"megabytes": -1}, "more than 0"),
    ],
)
def test_a_limit_must_limit_something(kw, message):
    with pytest.raises(ValueError, match=message):
        Limit(**kw)
