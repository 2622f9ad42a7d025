"""The demonstration decoder: solver solutions replayed view by view decode into the same
moves and totals; moves against the rules name the rule; other changes are not explained."""

import random
from dataclasses import replace

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.games.laser.board import COMPETITIVE, TEAM, TILES, Card, Position
from companion.games.laser.sensing.decode import (
    Table,
    decode,
    describe,
    difference,
    fits,
    fold,
    settle,
    start,
    tables,
)
from companion.games.laser.solver import replay, solve
from companion.games.laser.solver.positions import random_position

R, Y, G, C, B, M = range(6)
FULL = (2, 2, 2, 2, 2, 2)


CYAN_BLUE = (Card(C), Card(B))


def pos(supply=FULL):
    """Team mode, cards cyan and blue: tiles 1-7 green, blue, cyan, magenta, the cat, red,
    yellow; the rest empty."""
    tiles = (G, B, C, M, None, R, Y) + (None,) * 5
    return Position(TEAM, tiles, 4, tuple(supply), CYAN_BLUE)


def seen(demo_pos, *edits, cat=None, supply=None):
    """The table of `demo_pos` with tiles edited ((tile, colour|None), ...)."""
    tiles = list(demo_pos.tiles)
    for k, t in edits:
        tiles[k] = t
    return Table(
        tuple(tiles), demo_pos.cat if cat is None else cat, supply or tuple(demo_pos.supply)
    )


def solved(seed: int):
    rng = random.Random(seed)
    p = random_position(rng, (TEAM, COMPETITIVE)[seed % 2])
    sol = solve(p, totals=False)
    return p, sol


def key(m):
    return (m.kind, m.src, m.dst, m.colour, m.onto, m.makes, m.completes)


# solver solutions ---------------------------------------------------------------------


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 10**6))
def test_a_solver_solution_decodes_move_by_move_with_its_totals(seed):
    p, sol = solved(seed)
    demo, changes = fold(p, tables(p, sol.moves))
    assert [c.kind for c in changes] == ["moves"] * len(sol.moves)
    assert [key(m) for m in demo.moves] == [key(m) for m in sol.moves]
    assert demo.done == bool(sol.moves)
    if sol.moves:
        r = settle(demo, sol.min_cost)
        assert r.success and (r.cost, r.removed) == (sol.min_cost, sol.removed)
        assert replay(p, r.moves) == (sol.min_cost, sol.removed)
        # the long way round adds an even number of MP: one more is never exact
        assert not settle(demo, sol.min_cost + 1).success


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 10**6), st.integers(0, 100))
def test_a_move_carried_the_long_way_is_assumed_only_to_make_the_bid_exact(seed, pick):
    p, sol = solved(seed)
    flippable = [k for k, m in enumerate(sol.moves) if m.steps * 2 != TILES]
    if not flippable:
        return
    k = flippable[pick % len(flippable)]
    m = sol.moves[k]
    long = replace(m, steps=TILES - m.steps, clockwise=not m.clockwise)
    long = replace(long, cost=m.cost // m.steps * long.steps)
    moves = sol.moves[:k] + (long,) + sol.moves[k + 1 :]
    bid, removed = replay(p, moves)
    demo, _ = fold(p, tables(p, moves))
    assert demo.cost == sol.min_cost  # seen: the short way
    r = settle(demo, bid)
    assert r.success and r.cost == bid and r.removed == removed and r.long_way
    assert replay(p, r.moves) == (bid, removed)
    odd = settle(demo, bid + 1)  # no choice of directions reaches it: the short ways count
    assert not odd.success and odd.cost == sol.min_cost


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 10**6), st.integers(0, 10))
def test_two_moves_between_views_decode_to_the_right_cost_or_are_called_ambiguous(seed, at):
    p, sol = solved(seed)
    if len(sol.moves) < 2:
        return
    views = tables(p, sol.moves)
    k = at % (len(sol.moves) - 1)
    demo, _ = fold(p, views[:k])
    change = decode(demo, views[k + 1])
    assert change.kind in ("moves", "ambiguous")
    if change.kind == "moves":
        assert len(change.moves) == 2
        assert change.after.state == fold(p, views[: k + 2])[0].state
        assert change.after.cost == sum(m.cost for m in sol.moves[: k + 2])


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 10**6), st.randoms(use_true_random=False))
def test_unsure_tiles_never_lead_the_decoder_off_the_true_round(seed, rnd):
    """Each position is seen first with some tiles unsure, then for sure: the round decoded
    is always one of the true positions, never another, and ends on the last."""
    p, sol = solved(seed)
    states = [fold(p, tables(p, sol.moves)[:n])[0].state for n in range(len(sol.moves) + 1)]
    demo = start(p)
    for view in tables(p, sol.moves):
        unsure = frozenset(rnd.sample(range(TILES), rnd.randint(1, 3)))
        cat = None if view.cat in unsure else view.cat
        blurred = Table(view.tiles, cat, view.supply, unsure)
        for look in (blurred, view):
            change = decode(demo, look)
            assert change.kind in ("none", "maybe", "moves", "ambiguous"), change
            if change.kind == "moves":
                demo = change.after
            assert demo.state in states
    assert demo.state == states[-1]


# moves against the rules ----------------------------------------------------------------


def test_the_cat_taking_a_figure_no_card_needs_breaks_a_rule():
    p = pos()
    change = decode(start(p), seen(p, (5, None), cat=5))  # the cat onto the red on tile 6
    assert change.kind == "illegal"
    assert "only take a figure an open card needs (cyan, blue)" in change.why
    assert change.moves[0].kind == "cat" and change.moves[0].colour == R


def test_the_cat_moves_once_a_round():
    p = pos()
    demo = decode(start(p), seen(p, (2, None), cat=2)).after  # the cat takes the cyan
    assert demo is not None and demo.open_cards() == ("blue",)
    change = decode(demo, seen(p, (2, None), (1, None), cat=1))  # and then the blue
    assert change.kind == "illegal" and "once a round" in change.why


def test_a_mix_placing_nothing_breaks_the_rule_of_no_unneeded_moves():
    p = pos(supply=(2, 2, 2, 0, 2, 2))  # no cyan left on its colour card
    change = decode(start(p), seen(p, (0, None), (1, None)))
    assert change.kind == "illegal" and "cyan colour card is empty" in change.why


def test_a_mixed_figure_must_be_used_straight_away():
    p = pos()
    demo = decode(start(p), seen(p, (6, None), (3, R), supply=(1, 2, 2, 2, 2, 2))).after
    assert demo is not None and not demo.done  # yellow onto magenta made a red, needed next
    after = seen(p, (6, None), (3, R), (0, None), (1, C), supply=(1, 2, 2, 1, 2, 2))
    change = decode(demo, after)
    assert change.kind == "illegal"
    assert "red mixed on tile 4 had to be used straight away" in change.why


def test_a_move_after_every_card_is_done_is_unneeded():
    p = pos()
    demo, changes = fold(
        p,
        [
            seen(p, (0, None), (1, C), supply=(2, 2, 2, 1, 2, 2)),
            seen(p, (0, None), (1, None), (3, B), supply=(2, 2, 2, 1, 1, 2)),
        ],
    )
    assert [c.kind for c in changes] == ["moves", "moves"] and demo.done
    assert (demo.cost, demo.removed) == (3, 4)
    after = seen(p, (0, None), (1, None), (3, M), (5, None), supply=(2, 2, 2, 1, 1, 1))
    change = decode(demo, after)  # the red from tile 6 onto the blue
    assert change.kind == "illegal" and "already completed" in change.why


def test_a_change_no_move_explains_is_said_in_words():
    p = pos()
    change = decode(start(p), seen(p, (5, Y)))
    assert change.kind == "unexplained"
    assert change.why == "tile 6: red -> yellow"
    assert "cyan card: 2 -> 1 spare" in difference(
        start(p).table, seen(p, (5, None), supply=(2, 2, 2, 1, 2, 2))
    )


def test_two_moves_that_cost_differently_are_ambiguous():
    """Green onto blue then cyan onto magenta (3 MP), or blue onto green then cyan onto
    magenta (4 MP): the same table."""
    p = pos()
    change = decode(start(p), seen(p, (0, None), (1, None), (3, B), supply=(2, 2, 2, 1, 1, 2)))
    assert change.kind == "ambiguous" and change.why == "2 different moves fit what the camera sees"


def test_unsure_tiles_fit_anything_but_the_rest_must_match():
    p = pos()
    view = seen(p, (0, None), (1, C), supply=(2, 2, 2, 1, 2, 2))
    assert fits(start(p).table, replace(view, unsure=frozenset({0, 1}), supply=None))
    assert not fits(start(p).table, replace(view, unsure=frozenset({0})))
    change = decode(start(p), replace(view, unsure=frozenset({1})))
    assert change.kind == "moves" and change.moves[0].makes == C


def test_overspending_or_stopping_short_is_no_success():
    p = pos()
    demo, _ = fold(p, [seen(p, (0, None), (1, C), supply=(2, 2, 2, 1, 2, 2))])
    r = settle(demo, 3)
    assert not r.done and not r.success and r.cost == 1 and r.removed == 2
    views = [seen(p, (2, None), cat=2), seen(p, (2, None), (0, None), (1, C), cat=2)]
    views[1] = replace(views[1], supply=(2, 2, 2, 1, 2, 2))
    demo, (change,) = fold(p, views[1:])  # the cat's move and the mix in one go
    assert [m.kind for m in change.moves] == ["cat", "mix"]
    demo, changes = fold(p, views)
    assert [c.kind for c in changes] == ["moves", "moves"]
    r = settle(demo, 5)  # the cyan made after the cat took one is owed a use: not done
    assert not r.done and not r.success and r.cost == 5


def test_a_move_against_the_rules_is_named_only_from_a_sure_view():
    p = pos()
    cat_takes_red = seen(p, (5, None), cat=5)
    assert decode(start(p), cat_takes_red).kind == "illegal"
    unsure = replace(cat_takes_red, unsure=frozenset({9}))
    change = decode(start(p), unsure)
    assert change.kind == "unexplained" and "unsure of tile 10" in change.why


def test_a_move_the_unsure_tiles_may_hide_is_a_maybe_not_nothing():
    """The cat (tile 5) may have taken the cyan on tile 3; neither tile is read for sure."""
    p = pos()
    cat_took_cyan = seen(p, (2, None), cat=2)
    blurred = replace(cat_took_cyan, cat=None, unsure=frozenset({2, 4}))
    change = decode(start(p), blurred)
    assert change.kind == "maybe" and change.after == start(p)
    assert change.why == "a move or none fit what the camera sees (unsure of tile 3, 5)"
    cat_stays = replace(seen(p), unsure=frozenset({2}))
    assert decode(start(p), cat_stays).kind == "none"  # the cat is seen where it was


def test_the_cat_may_not_end_on_an_empty_tile():
    p = pos()
    change = decode(start(p), seen(p, cat=8))
    assert change.kind == "illegal" and "may not end its move on an empty tile" in change.why
    assert describe(change.moves[0]) == "the cat from tile 5 to 9 onto an empty tile"
