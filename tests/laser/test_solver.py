"""The solver against the rulebook's worked examples, an independent brute-force oracle, and
properties over random positions."""

import heapq
import random

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from companion.errors import IllegalMove, UsageError
from companion.games.laser.board import (
    COLOURS,
    COMPETITIVE,
    TEAM,
    TILES,
    Card,
    Position,
    distance,
    mix,
    position_from_json,
)
from companion.games.laser.solver import (
    MOST,
    _Search,
    exact_profile,
    max_removed_for,
    replay,
    solution_for,
    solve,
)
from companion.games.laser.solver.positions import random_position

# The team example (rulebook p. 3): cards cyan and blue. The cat on 0, cyan figures next to
# it on 1 and 2, magenta on 7, green and blue side by side on 4 and 5.
TEAM_EXAMPLE = {
    "mode": "team",
    "cat": 0,
    "tiles": [
        None,
        "cyan",
        "cyan",
        "red",
        "green",
        "blue",
        "yellow",
        "magenta",
        "red",
        "yellow",
        "red",
        "yellow",
    ],
    "supply": {"red": 1, "yellow": 1, "green": 2, "cyan": 2, "blue": 2, "magenta": 2},
    "cards": [{"colour": "cyan"}, {"colour": "blue"}],
}

# The competitive example: cards yellow on wood and green on carpet. Yellow on wood two
# tiles from the cat, cyan on carpet with a yellow beside it, red on wood, green, blue on
# carpet and another yellow.
COMP_EXAMPLE = {
    "mode": "competitive",
    "cat": 0,
    "tiles": [
        None,
        "magenta",
        "yellow",
        "cyan",
        "yellow",
        "red",
        "magenta",
        "green",
        "cyan",
        "blue",
        "red",
        "yellow",
    ],
    "floors": [
        "ceramic",
        "ceramic",
        "wood",
        "carpet",
        "ceramic",
        "wood",
        "carpet",
        "ceramic",
        "wood",
        "carpet",
        "wood",
        "carpet",
    ],
    "supply": {"red": 2, "yellow": 1, "green": 2, "cyan": 2, "blue": 2, "magenta": 2},
    "cards": [{"colour": "yellow", "floor": "wood"}, {"colour": "green", "floor": "carpet"}],
}


def mv(kind, src, dst, direction=None):
    out = {"kind": kind, "from": src, "to": dst}
    if direction:
        out["direction"] = direction
    return out


class TestTeamExample:
    pos = position_from_json(TEAM_EXAMPLE)

    def test_peter_cat_to_the_neighbouring_cyan_then_cyan_five_to_magenta_is_7(self):
        assert replay(self.pos, [mv("cat", 0, 1), mv("mix", 2, 7)]) == (7, 3)

    def test_suzie_cat_two_tiles_then_the_other_cyan_six_is_10(self):
        assert replay(self.pos, [mv("cat", 0, 2), mv("mix", 1, 7)]) == (10, 3)

    def test_tommy_mixes_cyan_from_blue_and_green_then_blue_for_3(self):
        assert replay(self.pos, [mv("mix", 4, 5), mv("mix", 5, 7)]) == (3, 4)

    def test_tommys_three_is_the_optimum_and_every_idea_is_an_exact_total(self):
        sol = solve(self.pos)
        assert sol.min_cost == 3 and not sol.impossible
        assert replay(self.pos, sol.moves) == (3, sol.removed)
        for idea in (3, 7, 8, 10):  # Tommy, Peter, Kitti, Suzie
            assert idea in sol.exact_totals
        assert 2 not in sol.exact_totals
        for total in sol.exact_totals:
            assert replay(self.pos, solution_for(self.pos, total))[0] == total

    def test_peter_and_kitti_can_spend_exactly_seven_after_peters_cat_move(self):
        # Peter starts with the cat (2 MP); Kitti finds blue in the remaining 5
        cost, _ = replay(self.pos, [mv("cat", 0, 1), mv("mix", 2, 7)])
        assert cost == 7


class TestCompetitiveExample:
    pos = position_from_json(COMP_EXAMPLE)

    def test_peters_first_idea_six_steps_five_figures(self):
        moves = [mv("mix", 7, 9), mv("mix", 11, 9), mv("cat", 0, 2)]
        assert replay(self.pos, moves) == (6, 5)

    def test_tommys_four_steps_through_a_yellow_on_wood(self):
        assert replay(self.pos, [mv("mix", 7, 5), mv("mix", 5, 3)]) == (4, 4)

    def test_peters_three_steps_remove_two_yellows_and_the_cyan(self):
        assert replay(self.pos, [mv("cat", 0, 2), mv("mix", 4, 3)]) == (3, 3)

    def test_three_is_the_optimum(self):
        sol = solve(self.pos)
        assert sol.min_cost == 3
        assert replay(self.pos, sol.moves) == (3, sol.removed)
        assert sol.max_removed >= 3
        assert sol.exact_totals == ()  # exact totals are a team-mode aid

    def test_removed_figures_proposed_for_each_bid(self):
        assert max_removed_for(self.pos, 4) == 4
        assert max_removed_for(self.pos, 6) >= 5  # Peter's first idea removes 5
        assert max_removed_for(self.pos, 2) is None
        prof = exact_profile(self.pos, 6)
        assert min(prof) == 3 and prof[4] == 4


def test_replay_refuses_broken_solutions():
    pos = position_from_json(TEAM_EXAMPLE)
    with pytest.raises(IllegalMove, match="leave blue open"):
        replay(pos, [mv("mix", 4, 5)])
    with pytest.raises(IllegalMove, match="not allowed"):
        replay(pos, [mv("mix", 1, 2)])  # cyan cannot mix with cyan
    with pytest.raises(IllegalMove, match="not allowed"):
        replay(pos, [mv("cat", 0, 1), mv("cat", 1, 5), mv("mix", 2, 7)])  # the cat moves once
    # cyan onto the yellow on 11 makes a green that no card needs
    with pytest.raises(IllegalMove, match="straight away"):
        replay(pos, [mv("mix", 1, 11), mv("mix", 4, 5), mv("mix", 5, 7)])
    with pytest.raises(IllegalMove, match="never used"):
        replay(pos, [mv("mix", 1, 11), mv("mix", 4, 5), mv("mix", 5, 7)], straight_away=False)
    with pytest.raises(IllegalMove, match="never used"):
        replay(pos, [mv("mix", 4, 5), mv("mix", 5, 7), mv("mix", 1, 11)])
    # the long way round is allowed and costs the long way
    assert replay(pos, [mv("mix", 4, 5), mv("mix", 5, 7, "anticlockwise")]) == (11, 4)


@pytest.mark.parametrize(
    "change, message",
    [
        ({"tiles": [["red", "blue"]] + [None] * 11}, "one colour name"),
        ({"tiles": ["red"] * 11}, "12 tiles"),
        ({"tiles": ["red"] + [None] * 11, "cat": 0}, "under the cat"),
        ({"cards": [{"colour": "orange"}]}, "unknown card colour"),
        (
            {"tiles": [None, "red", "red", "red", "red"] + [None] * 7, "supply": {"red": 1}},
            "5 red figures",
        ),
        ({"supply": {"red": 3}}, "0-2"),
        ({"mode": "chess"}, "mode"),
        ({"cat": 12}, "cat"),
    ],
)
def test_malformed_positions_are_one_line_usage_errors(change, message):
    data = {**TEAM_EXAMPLE, **change}
    with pytest.raises(UsageError, match=message) as info:
        position_from_json(data)
    assert "\n" not in str(info.value)


def test_competitive_positions_need_floors():
    data = {k: v for k, v in COMP_EXAMPLE.items() if k != "floors"}
    with pytest.raises(UsageError, match="floors"):
        position_from_json(data)


# an independent oracle written from the rules text --------------------------------------
def rule_moves(pos: Position, state, straight_away: bool = True, long_way: bool = False):
    """(cost, figures removed, next state) for every move the rules allow. A state is
    (tiles, spares, cat used, open cards as (colour, floor), tiles owed a use)."""
    tiles, supply, cat_used, open_, owed = state
    catk = 2 if pos.mode == TEAM else 1

    def matches(card, colour, tile):
        return card[0] == colour and (pos.mode == TEAM or pos.floors[tile] == card[1])

    def ways(short):
        return {short, TILES - short} if long_way else {short}

    for s in range(TILES):
        for d in range(TILES):
            if s == d or tiles[s] is None or tiles[d] is None:
                continue
            if straight_away and owed and not owed & {s, d}:
                continue  # a mixed figure nobody asked for must be used in the next mix
            p = mix(tiles[s], tiles[d])
            if p is None or supply[p] == 0:
                continue
            t = list(tiles)
            t[s], t[d] = None, p
            sp = list(supply)
            sp[p] -= 1
            done = [c for c in open_ if matches(c, p, d)]
            op = list(open_)
            ow = set(owed) - {s, d}
            if done:
                op.remove(done[0])
            else:
                ow.add(d)
            ns = (tuple(t), tuple(sp), cat_used, tuple(op), frozenset(ow))
            for cost in ways(distance(s, d)):
                yield cost, 2, ns
    if not cat_used and not (straight_away and owed):
        for t_ in range(TILES):
            for c in set(open_):
                if tiles[t_] is not None and matches(c, tiles[t_], t_):
                    t = list(tiles)
                    t[t_] = None
                    op = list(open_)
                    op.remove(c)
                    ns = (tuple(t), supply, True, tuple(op), owed - {t_})
                    for steps in ways(distance(pos.cat, t_)):
                        yield catk * steps, 1, ns


def oracle_start(pos: Position):
    return (
        pos.tiles,
        pos.supply,
        False,
        tuple(sorted((c.colour, c.floor) for c in pos.cards)),
        frozenset(),
    )


def oracle(pos: Position, limit: int, straight_away: bool = True) -> int | None:
    """Cheapest cost by exhaustive uniform-cost search (no bound, no pruning but the rules)."""
    heap, seen = [(0, 0, oracle_start(pos))], set()
    n = 0
    while heap:
        g, _, state = heapq.heappop(heap)
        if not state[3] and not state[4]:
            return g
        if state in seen:
            continue
        seen.add(state)
        for cost, _removed, ns in rule_moves(pos, state, straight_away):
            if g + cost <= limit:
                n += 1
                heapq.heappush(heap, (g + cost, n, ns))
    return None


def oracle_profile(pos: Position, budget: int, straight_away: bool = True):
    """Every legal move sequence costing <= budget, the long ways round included:
    ({exact cost: most figures removed}, {state reached: its cheapest cost to finish})."""
    memo: dict = {}
    to_go: dict = {}

    def finish(state, left):
        if not state[3] and not state[4]:
            to_go[state] = 0
            return {0: 0}
        if (state, left) not in memo:
            out: dict[int, int] = {}
            for cost, removed, ns in rule_moves(pos, state, straight_away, long_way=True):
                if cost <= left:
                    for c, r in finish(ns, left - cost).items():
                        out[cost + c] = max(out.get(cost + c, -1), removed + r)
            memo[state, left] = out
            if out:
                to_go[state] = min(to_go.get(state, budget + 1), min(out))
        return memo[state, left]

    return dict(sorted(finish(oracle_start(pos), budget).items())), to_go


def sparse_position(seed: int, mode: str, cards: int = 2) -> Position:
    rng = random.Random(seed)
    return random_position(rng, mode, cards, empties=rng.choice((4, 5, 6)))


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 10**9), st.sampled_from([TEAM, COMPETITIVE]), st.booleans())
def test_optimum_matches_the_brute_force_oracle(seed, mode, straight_away):
    pos = sparse_position(seed, mode)
    limit = 9
    sol = solve(pos, max_cost=limit, totals=False, straight_away=straight_away)
    assert sol.min_cost == oracle(pos, limit, straight_away)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.integers(0, 10**9),
    st.sampled_from([TEAM, COMPETITIVE]),
    st.sampled_from([2, 3]),
    st.booleans(),
)
# the bound overshot on the way: a chain starting from another open card's figure
@example(1, TEAM, 2, False)
@example(144, COMPETITIVE, 3, True)
def test_exact_totals_removed_figures_and_the_bound_match_the_brute_force(
    seed, mode, cards, straight_away
):
    pos = sparse_position(seed, mode, cards)
    budget = 8
    want, to_go = oracle_profile(pos, budget, straight_away)
    assert exact_profile(pos, budget, straight_away) == want
    sol = solve(pos, max_cost=budget, totals=True, straight_away=straight_away)
    assert sol.min_cost == (min(want) if want else None)
    if want:
        assert sol.removed == sol.max_removed == want[sol.min_cost]
    assert [t for t in sol.exact_totals if t <= budget] == [t for t in want if t >= 2]
    # no bound overestimates the cost to finish from any state on the way
    search = _Search(pos, straight_away)
    for oracle_state, cost in to_go.items():
        state = search_state(search, oracle_state)
        assert search.h(state) <= cost, (state, cost)
        assert search.refined(state, budget) <= cost, (state, cost)
        if straight_away and not state[4] and state[3]:
            assert_chain_bounds_hold(search, state, budget, to_go)


def search_state(search: _Search, oracle_state):
    tiles, supply, cat_used, open_, owed = oracle_state
    return (
        tuple(-1 if t is None else t for t in tiles),
        supply,
        -1 if cat_used else search.pos.cat,
        tuple(sorted(search.kinds.index(Card(*card)) for card in open_)),
        sum(1 << t for t in owed),
    )


def oracle_state(search: _Search, state):
    tiles, supply, cat, open_, owed = state
    return (
        tuple(None if t < 0 else t for t in tiles),
        supply,
        cat < 0,
        tuple(sorted((search.kinds[k].colour, search.kinds[k].floor) for k in open_)),
        frozenset(t for t in range(TILES) if owed >> t & 1),
    )


def assert_chain_bounds_hold(search: _Search, start, budget: int, to_go) -> None:
    """The bounds one backward pass gives every state of a chain started at `start`."""
    togo, after, after_cat = search.chain_bounds(start, budget)
    stack = [start]
    while stack:
        s = stack.pop()
        for step, _cost, ns in search.successors(s, long_way=True):
            cost = to_go.get(oracle_state(search, ns))
            if ns[4]:
                stack.append(ns)
                bound = togo[ns[0][step[2]] * TILES + step[2]]
            else:
                bound = (after if step[0] == "mix" else after_cat)[step[5]]
            if cost is not None:
                assert bound <= cost, (start, step, bound, cost)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 10**9), st.sampled_from([TEAM, COMPETITIVE]), st.sampled_from([2, 3]))
def test_optimum_of_full_tables_matches_the_brute_force_oracle(seed, mode, cards):
    """Full tables, where long chains and the chain bounds matter most."""
    pos = random_position(random.Random(seed), mode, cards)
    assert solve(pos, max_cost=12, totals=False).min_cost == oracle(pos, 12)


def test_a_colour_without_spares_counts_its_figures_but_the_cat_may_spare_one():
    """No red spares and one red figure, which both the yellow and the magenta card would
    need for their last mix: one card must go to the cat, and here that is the cheap way.
    red onto green makes yellow (1 MP), the cat takes the magenta beside it (2 MP)."""
    data = {
        "mode": "team",
        "tiles": [
            None,
            "magenta",
            "red",
            "green",
            "cyan",
            "yellow",
            "cyan",
            "yellow",
            "green",
            "cyan",
            "yellow",
            "green",
        ],
        "cat": 0,
        "supply": {"red": 0, "yellow": 1, "green": 1, "cyan": 1, "blue": 2, "magenta": 2},
        "cards": [{"colour": "yellow"}, {"colour": "magenta"}],
    }
    pos = position_from_json(data)
    assert oracle(pos, 10) == 3
    sol = solve(pos)
    assert sol.min_cost == 3 and replay(pos, sol.moves) == (3, 3)


def test_a_colour_without_spares_needed_more_often_than_it_stands_is_impossible():
    """No red spares: the red card must go to the cat, which takes one of the two reds, and
    the magenta and yellow cards both need red for their last mix. Three reds, two on the
    board. The brute force agrees, searching past the dearest round there can be."""
    data = {
        "mode": "team",
        "tiles": [
            "magenta",
            "red",
            "magenta",
            "green",
            "blue",
            "red",
            "blue",
            "cyan",
            "cyan",
            None,
            "yellow",
            "cyan",
        ],
        "cat": 9,
        "supply": {"red": 0, "yellow": 2, "green": 2, "cyan": 1, "blue": 1, "magenta": 2},
        "cards": ["magenta", "yellow", "red"],
    }
    pos = position_from_json(data)
    assert oracle(pos, MOST) is None
    assert solve(pos).impossible


# Two yellow cards on different floors and one yellow spare: the cat must take one, and the
# only yellow it can take stands on tile 4.
CAT_KEEPS_YELLOW = {
    "mode": "competitive",
    "tiles": [
        "red",
        None,
        "magenta",
        "magenta",
        "yellow",
        "blue",
        None,
        "red",
        "green",
        "cyan",
        "blue",
        "green",
    ],
    "floors": [
        "ceramic",
        "ceramic",
        "wood",
        "carpet",
        "carpet",
        "wood",
        "wood",
        "carpet",
        "ceramic",
        "ceramic",
        "wood",
        "carpet",
    ],
    "cat": 1,
    "supply": {"red": 1, "yellow": 1, "green": 2, "cyan": 2, "blue": 2, "magenta": 2},
    "cards": [{"colour": "yellow", "floor": "wood"}, {"colour": "yellow", "floor": "carpet"}],
}


def test_the_only_figure_the_cat_can_take_is_kept_from_every_chain():
    """Every way to mix yellow on wood needs the yellow on tile 4, which the cat needs for
    yellow on carpet: impossible, and proved without searching every chain."""
    pos = position_from_json(CAT_KEEPS_YELLOW)
    assert oracle(pos, MOST) is None
    assert solve(pos).impossible


def test_a_chain_that_leaves_the_cat_its_figure_is_found():
    """A green on the empty wood tile 6: red 7->6 makes yellow on wood (1 MP), the cat walks
    3 tiles to the yellow on tile 4 (3 MP)."""
    data = dict(CAT_KEEPS_YELLOW, supply=dict(CAT_KEEPS_YELLOW["supply"], green=1))
    data["tiles"] = [*CAT_KEEPS_YELLOW["tiles"][:6], "green", *CAT_KEEPS_YELLOW["tiles"][7:]]
    pos = position_from_json(data)
    assert oracle(pos, 10) == 4
    sol = solve(pos)
    assert sol.min_cost == 4 and replay(pos, sol.moves) == (4, 3)


def test_a_chain_needs_a_figure_on_the_board_for_each_mix():
    """Two blue cards, one blue spare: one blue must be mixed, the cat can take the other
    (a blue stands next to it). But blue needs cyan and magenta, and neither is on the
    board: a chain can make one of them, never the other as well, so with "straight away"
    the round is impossible. When products may wait, making both first works."""
    data = {
        "mode": "team",
        "tiles": [
            "green",
            "green",
            "red",
            None,
            "yellow",
            "blue",
            None,
            "blue",
            "yellow",
            "red",
            "green",
            "red",
        ],
        "cat": 6,
        "supply": {"red": 1, "yellow": 2, "green": 1, "cyan": 2, "blue": 1, "magenta": 2},
        "cards": [{"colour": "blue"}, {"colour": "blue"}],
    }
    pos = position_from_json(data)
    assert oracle(pos, 30) is None
    sol = solve(pos)
    assert sol.impossible and sol.min_cost is None
    lenient = solve(pos, straight_away=False)
    assert lenient.min_cost == oracle(pos, 20, straight_away=False) is not None
    assert replay(pos, lenient.moves, straight_away=False)[0] == lenient.min_cost


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 10**9), st.sampled_from([TEAM, COMPETITIVE]), st.sampled_from([2, 3]))
@example(648521, TEAM, 3)  # claimed 8, its moves cost 7: the bound overshot (test below)
def test_returned_moves_replay_legally_at_exactly_the_claimed_cost(seed, mode, cards):
    pos = random_position(random.Random(seed), mode, cards)
    sol = solve(pos, max_cost=10, totals=False)
    if sol.min_cost is None:
        assert sol.moves == ()
        return
    assert replay(pos, sol.moves) == (sol.min_cost, sol.removed)
    assert sum(m.cost for m in sol.moves) == sol.min_cost
    assert sol.removed <= sol.max_removed


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 10**9), st.sampled_from([TEAM, COMPETITIVE]))
def test_removing_a_card_never_raises_the_optimum_when_products_may_wait(seed, mode):
    pos = random_position(random.Random(seed), mode, 3)
    full = solve(pos, max_cost=10, totals=False, straight_away=False).min_cost
    for i in range(3):
        fewer = Position(
            pos.mode, pos.tiles, pos.cat, pos.supply, pos.cards[:i] + pos.cards[i + 1 :], pos.floors
        )
        less = solve(fewer, max_cost=10, totals=False, straight_away=False).min_cost
        if full is not None:
            assert less is not None and less <= full


def test_a_chain_may_start_from_another_cards_figure():
    """Cyan's parents green and blue stand 3 tiles apart, and the nearest two-mix chain from
    figures on the board costs more; but the magenta made for the magenta card can make the
    blue at once: magenta (card) onto cyan 1 MP, green onto that blue 1 MP. The bound once
    charged cyan 3 and the optimum came out as 8."""
    data = {
        "mode": "team",
        "tiles": [
            "green",
            "cyan",
            "yellow",
            "blue",
            "cyan",
            "blue",
            "magenta",
            "red",
            "magenta",
            None,
            "magenta",
            None,
        ],
        "cat": 9,
        "supply": {"red": 2, "yellow": 2, "green": 2, "cyan": 2, "blue": 2, "magenta": 1},
        "cards": [{"colour": "magenta"}, {"colour": "red"}, {"colour": "cyan"}],
    }
    pos = position_from_json(data)
    plan = [mv("mix", 6, 2), mv("mix", 3, 2), mv("mix", 2, 1), mv("mix", 0, 1)]
    assert replay(pos, plan) == (7, 8)
    assert oracle(pos, 8) == 7
    sol = solve(pos, max_cost=10)
    assert sol.min_cost == 7 and replay(pos, sol.moves) == (7, sol.removed)
    assert min(sol.exact_totals) == 7


def test_straight_away_can_make_a_removed_card_cost_more():
    """With the rulebook's "use it straight away", a card can let a mixed figure wait: here
    the cyan made for the cyan card is mixed again two moves later. Without that card the
    cyan must be used at once, and the best drops from 6 to 8, not below."""
    data = {
        "mode": "competitive",
        "tiles": [
            "blue",
            "green",
            "magenta",
            None,
            "cyan",
            "magenta",
            "magenta",
            None,
            "red",
            "red",
            None,
            "green",
        ],
        "floors": [
            "carpet",
            "carpet",
            "wood",
            "ceramic",
            "ceramic",
            "wood",
            "wood",
            "carpet",
            "wood",
            "carpet",
            "ceramic",
            "ceramic",
        ],
        "cat": 10,
        "supply": {"red": 2, "yellow": 2, "green": 1, "cyan": 2, "blue": 2, "magenta": 1},
        "cards": [
            {"colour": "green", "floor": "carpet"},
            {"colour": "red", "floor": "wood"},
            {"colour": "cyan", "floor": "carpet"},
        ],
    }
    full = position_from_json(data)
    fewer = position_from_json({**data, "cards": data["cards"][:2]})
    assert solve(full).min_cost == 6
    assert solve(fewer).min_cost == 8
    assert solve(fewer, straight_away=False).min_cost == 6
    # the 6-step plan without the cyan card leaves the cyan waiting
    with pytest.raises(IllegalMove, match="straight away"):
        replay(fewer, [mv("cat", 10, 8), mv("mix", 1, 0), mv("mix", 9, 11), mv("mix", 11, 0)])
    assert replay(
        fewer,
        [mv("cat", 10, 8), mv("mix", 1, 0), mv("mix", 9, 11), mv("mix", 11, 0)],
        straight_away=False,
    ) == (6, 7)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 10**9), st.sampled_from([TEAM, COMPETITIVE]), st.integers(0, 5))
def test_a_colour_with_no_figures_no_supply_and_no_mix_is_impossible(seed, mode, colour):
    pos = random_position(random.Random(seed), mode, 2)
    tiles = tuple(None if t == colour else t for t in pos.tiles)
    supply = tuple(0 if c == colour else n for c, n in enumerate(pos.supply))
    cards = (type(pos.cards[0])(colour, pos.cards[0].floor),) + pos.cards[1:]
    stuck = Position(pos.mode, tiles, pos.cat, supply, cards, pos.floors)
    sol = solve(stuck)
    assert sol.impossible and sol.min_cost is None and sol.moves == ()


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 10**9))
def test_team_exact_totals_agree_with_the_optimum_and_replay(seed):
    pos = sparse_position(seed, TEAM)
    sol = solve(pos)
    if sol.min_cost is not None and sol.min_cost <= 10:
        assert min(sol.exact_totals) == sol.min_cost
    for total in sol.exact_totals:
        moves = solution_for(pos, total)
        assert replay(pos, moves)[0] == total


def test_colour_names_cover_the_circle():
    assert COLOURS == ("red", "yellow", "green", "cyan", "blue", "magenta")
