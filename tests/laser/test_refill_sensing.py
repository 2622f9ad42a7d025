"""The camera checks the end-of-round refill: the plan is announced, a legal refill (in any
order) lets play go on hands-free, a misplaced figure is named, the cards wait until then."""

from collections import Counter
from dataclasses import replace

from hypothesis import given, settings
from hypothesis import strategies as st

from companion.card_readings import ZoneRead
from companion.cues import Announce, AskHuman
from companion.events import ButtonPressed, CardSeen
from companion.games.laser import GAME, sensing
from companion.games.laser.board import CARD_CAPACITY, COLOURS, TILES
from companion.games.laser.events import BidPlaced, BoardEntered, RefillSeen, RoundResult
from companion.games.laser.refill import Table, refill
from companion.games.laser.sensing.refill_check import (
    PATIENCE,
    STEADY,
    judge,
    owed,
    table_seen,
)
from companion.games.laser.sensing.ring import CAT, RingRead

from .helpers import TEAM4, new, play, reveal_team

R, Y, G, C, B, M = range(6)
# the board of round 1 (cat on tile 1) and the table as the round left it: the team mixed
# cyan (tile 5) onto magenta (tile 7) making blue (from the blue card), and the cat took the
# cyan of tile 11: cyan, magenta and cyan left the board, tiles 5 and 11 are empty
BOARD = (R, None, Y, None, G, C, B, M, R, None, B, C)
SUPPLY = (2, 1, 2, 2, 1, 2)
AFTER = Table((R, None, Y, None, G, None, B, B, R, None, B, None), 11, (2, 1, 2, 2, 0, 2))


def names(tiles):
    return tuple(None if t is None else COLOURS[t] for t in tiles)


def reading(table: Table, conf=1.0) -> RingRead:
    tiles = tuple(CAT if i == table.cat else t for i, t in enumerate(names(table.tiles)))
    return RingRead(tiles, (conf,) * TILES, ((),) * TILES, table.supply, (1.0,) * 6)


def mixing():
    """Round 1's demonstration under way, through the real rules."""
    state, _ = reveal_team(new())
    state, _ = play(
        state,
        BoardEntered(names(BOARD), 1, SUPPLY),
        ButtonPressed("next"),
        *(BidPlaced(p, b) for p, b in zip(TEAM4, (4, 4, 6, 8), strict=True)),
    )
    return state


def after_round_one():
    """Round 2 waits for its cards, through the real rules."""
    state, _ = play(mixing(), RoundResult(True))
    assert state.round == 2 and state.phase == "reveal" and state.last_board is not None
    return state


def sense(state, memory, *readings):
    events = []
    for r in readings:
        out, memory = sensing.interpret(state, r, memory)
        events += out
    return events, memory


def test_the_owed_figures_are_what_left_the_board_and_the_plan_is_announced():
    assert owed(Counter(BOARD) - Counter([None]) + Counter(dict(enumerate(SUPPLY))), AFTER) == (
        C,
        C,
        M,
    )
    state = after_round_one()
    ((ev,), memory) = sense(state, None, reading(AFTER))
    assert ev.status == "plan"
    # the cyan and magenta cards are full: clockwise from the cat on tile 12 (1-based), tiles
    # 2, 4 and 6 are the first empty ones
    assert ev.lines == ("cyan onto tile 2", "cyan onto tile 4", "magenta onto tile 6")
    _, cues = GAME.apply(state, ev)
    assert cues == [Announce("Refill: " + "; ".join(ev.lines) + ".")]
    assert sensing.readers(state)[-1].kind == "ring"


def test_a_legal_refill_in_any_order_lets_the_cards_through():
    state = after_round_one()
    plan = refill(AFTER, (C, C, M)).table
    tiles = list(plan.tiles)
    tiles[1], tiles[5] = tiles[5], tiles[1]  # magenta first: the rulebook fixes no order
    other = replace(plan, tiles=tuple(tiles))
    assert judge(AFTER, (C, C, M), other) == ()
    cards = ZoneRead("centre", ("blue", "red"), (0.99, 0.99))
    events, memory = sense(state, None, reading(AFTER), cards, cards)
    assert [type(e) for e in events] == [RefillSeen]  # the cards wait for the refill
    events, memory = sense(state, memory, reading(other))
    assert events == [RefillSeen("ready")]
    events, _ = sense(state, memory, cards, cards)
    assert events == [CardSeen("centre", "blue", 0.99), CardSeen("centre", "red", 0.99)]


def test_a_misplaced_figure_is_named_once_it_repeats_and_only_once():
    state = after_round_one()
    plan = refill(AFTER, (C, C, M)).table
    wrong = replace(plan, tiles=plan.tiles[:5] + (B,) + plan.tiles[6:])  # blue for magenta
    events, memory = sense(state, None, reading(AFTER), reading(wrong))
    assert events[1:] == []  # once is not yet steady
    events, memory = sense(state, memory, *[reading(wrong)] * (STEADY + 3))
    assert events == [
        RefillSeen("misplaced", ("tile 6 should hold the magenta figure; the camera sees blue",))
    ]
    _, cues = GAME.apply(state, events[0])
    (ask,) = cues
    assert isinstance(ask, AskHuman) and ask.question.startswith("Tile 6 should hold the magenta")
    events, _ = sense(state, memory, reading(plan))
    assert events == [RefillSeen("ready")]


def test_a_moved_cat_a_figure_on_a_tile_that_stays_empty_and_a_full_card():
    plan = refill(AFTER, (C, C, M)).table
    tiles = list(plan.tiles)
    tiles[9] = G  # tile 10 stays empty: three figures fill the first three empty tiles
    texts = [p.text() for p in judge(AFTER, (C, C, M), replace(plan, tiles=tuple(tiles)))]
    assert texts == ["tile 10 should be empty; the camera sees green"]
    moved = replace(plan, cat=9)
    texts = [p.text() for p in judge(AFTER, (C, C, M), moved)]
    assert texts == [
        "tile 10 should be empty; the camera sees the cat",
        "tile 12 should hold the cat; the camera sees nothing",
    ]
    extra = replace(plan, supply=(2, 2, 2, 2, 0, 2))
    texts = [p.text() for p in judge(AFTER, (C, C, M), extra)]
    assert texts == ["the yellow card should hold 1 figure; the camera sees 2"]


def test_an_unfinished_refill_is_named_only_after_a_while_and_the_untouched_table_never():
    state = after_round_one()
    plan = refill(AFTER, (C, C, M)).table
    half = replace(plan, tiles=plan.tiles[:5] + (None,) + plan.tiles[6:])  # magenta not yet
    events, memory = sense(state, None, *[reading(AFTER)] * (PATIENCE + 2))
    assert [e.status for e in events] == ["plan"]
    events, memory = sense(state, memory, *[reading(half)] * (PATIENCE - 1))
    assert events == []
    events, memory = sense(state, memory, reading(half))
    assert events == [
        RefillSeen("misplaced", ("tile 6 should hold the magenta figure; the camera sees nothing",))
    ]


def test_a_hand_judges_nothing_and_a_doubtful_tile_is_asked_not_judged():
    state = after_round_one()
    plan = refill(AFTER, (C, C, M)).table
    _, memory = sense(state, None, reading(AFTER))
    assert sense(state, memory, *[RingRead(hand=True)] * 3)[0] == []
    unsure = reading(plan)
    conf = list(unsure.confidence)
    conf[5] = 0.3  # tile 6, where the magenta goes
    unsure = replace(unsure, confidence=tuple(conf))
    assert table_seen(unsure, 0.7) is None
    events, memory = sense(state, memory, *[unsure] * (STEADY + 2))
    assert events == [RefillSeen("unsure", ("tile 6",))]  # once, not a misplaced figure
    _, cues = GAME.apply(state, events[0])
    assert "not sure of tile 6" in cues[0].question
    assert sensing.interpret(state, ZoneRead("centre", ("red",), (0.99,)), memory)[0] == ()
    # a confident wrong figure elsewhere is still named
    wrong = replace(unsure, tiles=unsure.tiles[:1] + ("green",) + unsure.tiles[2:])
    events, _ = sense(state, memory, wrong, wrong)
    assert events == [
        RefillSeen("misplaced", ("tile 2 should hold the cyan figure; the camera sees green",))
    ]


def test_the_table_not_seen_as_the_round_ended_is_taken_from_the_first_trusted_reading():
    state = after_round_one()
    doubtful = replace(reading(AFTER), confidence=(0.3,) + (1.0,) * 11)
    events, memory = sense(state, None, *[doubtful] * STEADY)
    assert events == [RefillSeen("unsure", ("tile 1",))]
    (plan,), memory = sense(state, memory, reading(AFTER))
    assert plan.status == "plan" and memory.refill.after == AFTER
    # a refill already laid when the camera first trusts the table cannot be judged
    done = refill(AFTER, (C, C, M)).table
    assert sense(state, None, reading(done))[0] == [RefillSeen("unverified")]


def test_the_table_seen_as_the_round_ended_is_the_one_refilled():
    state = mixing()
    assert state.phase == "mixing" and sensing.readers(state)[-1].kind == "ring"
    _, memory = sense(state, None, RingRead(hand=True), reading(AFTER))
    state, _ = play(state, RoundResult(True))
    done = refill(AFTER, (C, C, M)).table
    events, _ = sense(state, memory, reading(done))
    assert [e.status for e in events] == ["plan", "ready"]  # laid before the camera looked


def test_nothing_to_put_back_is_ready_at_once_and_round_one_has_no_check():
    assert sense(new(), None, reading(AFTER))[0] == []  # round 1: the ring waits for cards
    state = after_round_one()
    board = Table(BOARD, 1, SUPPLY)
    assert sense(state, None, reading(board))[0] == [RefillSeen("ready")]


def test_a_figure_put_aside_goes_back_first_in_the_next_round():
    full = Table((R, None, Y, G, G, C, B, M, R, Y, B, M), 1, (2,) * 6)  # the box keeps a cyan
    state = replace(after_round_one(), last_board=(names(full.tiles), None, 1, full.supply))
    # cyan (tile 6) onto magenta (tile 8) made blue: one empty tile for two figures
    left = Table((R, None, Y, G, G, None, B, B, R, Y, B, M), 1, (2, 2, 2, 2, 1, 2))
    (plan,), memory = sense(state, None, reading(left))
    assert plan.lines == ("cyan onto tile 6", "put aside: magenta")
    refilled = refill(left, (C, M)).table
    assert sense(state, memory, reading(refilled))[0] == [RefillSeen("ready")]
    # round 3: the cat (tile 2) took the green of tile 4; the magenta put aside comes first
    state = replace(state, round=3, last_board=(names(refilled.tiles), None, 1, refilled.supply))
    tiles = list(refilled.tiles)
    tiles[3] = None
    (plan,), memory = sense(state, memory, reading(Table(tuple(tiles), 3, refilled.supply)))
    assert plan.lines == ("magenta onto tile 2", "put aside: green")


@st.composite
def rounds_end(draw):
    """A table as a round left it and the figures to put back (at most 4 of a colour)."""
    cat = draw(st.integers(0, TILES - 1))
    tiles = [draw(st.one_of(st.none(), st.integers(0, 5))) for _ in range(TILES)]
    tiles[cat] = None
    supply = tuple(draw(st.integers(0, CARD_CAPACITY)) for _ in range(6))
    held = Counter(t for t in tiles if t is not None) + Counter(dict(enumerate(supply)))
    free = [c for c in range(6) for _ in range(max(0, 4 - held[c]))]
    figures = draw(st.lists(st.sampled_from(free), max_size=len(free))) if free else []
    return Table(tuple(tiles), cat, supply), tuple(figures)


@settings(max_examples=200, deadline=None)
@given(rounds_end(), st.randoms(use_true_random=False))
def test_the_plan_in_any_order_is_a_legal_refill(case, rng):
    after, figures = case
    plan = refill(after, figures)
    filled = [p.tile for p in plan.placements if p.tile is not None]
    colours = [plan.table.tiles[t] for t in filled]
    rng.shuffle(colours)
    tiles = list(plan.table.tiles)
    for t, c in zip(filled, colours, strict=True):
        tiles[t] = c
    assert judge(after, figures, replace(plan.table, tiles=tuple(tiles))) == ()


@settings(max_examples=200, deadline=None)
@given(rounds_end(), st.integers(0, TILES - 1), st.one_of(st.none(), st.integers(0, 5)))
def test_a_change_on_a_tile_the_refill_leaves_alone_is_named_there(case, tile, what):
    after, figures = case
    plan = refill(after, figures)
    filled = {p.tile for p in plan.placements}
    if tile in filled or tile == after.cat or plan.table.tiles[tile] == what:
        return
    tiles = list(plan.table.tiles)
    tiles[tile] = what
    (problem,) = judge(after, figures, replace(plan.table, tiles=tuple(tiles)))
    assert (problem.index, problem.want, problem.seen) == (tile, plan.table.tiles[tile], what)
    assert f"tile {tile + 1} should" in problem.text()


def test_an_aside_is_forgotten_when_the_check_never_saw_the_table_the_round_left():
    full = Table((R, None, Y, G, G, C, B, M, R, Y, B, M), 1, (2,) * 6)
    state = replace(after_round_one(), last_board=(names(full.tiles), None, 1, full.supply))
    left = Table((R, None, Y, G, G, None, B, B, R, Y, B, M), 1, (2, 2, 2, 2, 1, 2))
    _, seen_memory = sense(state, None, reading(left))  # magenta put aside, as in the plan
    doubtful = replace(reading(left), confidence=(0.3,) * TILES)
    _, blind_memory = sense(state, None, doubtful)  # the check never trusted the table
    refilled = refill(left, (C, M)).table
    state = replace(state, round=3, last_board=(names(refilled.tiles), None, 1, refilled.supply))
    tiles = list(refilled.tiles)
    tiles[3] = None  # the cat (tile 2) took the green of tile 4
    after = reading(Table(tuple(tiles), 3, refilled.supply))
    (plan,), _ = sense(state, seen_memory, after)
    assert plan.lines[0] == "magenta onto tile 2"
    (plan,), _ = sense(state, blind_memory, after)
    assert plan.lines == ("green onto tile 2",)  # what was aside is not known


def test_a_view_with_no_ring_in_it_holds_no_card():
    """A hand, or a camera turned to the centre alone, reads no ring: the cards are not held
    for a refill check that never saw the table."""
    state = after_round_one()
    nothing = RingRead(("red",) * TILES, (0.1,) * TILES, ((),) * TILES, (), ())  # no cat
    cards = ZoneRead("centre", ("blue", "red"), (0.99, 0.99))
    events, memory = sense(state, None, RingRead(hand=True), nothing, cards, cards)
    assert events == [CardSeen("centre", "blue", 0.99), CardSeen("centre", "red", 0.99)]


def test_a_table_kept_as_the_round_ended_goes_when_a_later_unsure_view_shows_it_moved_on():
    """The last clear view may predate the last move: a later view that is partly unsure
    but sure of a change makes it unknown, and the refill is then taken from what comes."""
    state = mixing()
    moved = list(AFTER.tiles)
    k = next(i for i, t in enumerate(moved) if t is not None and i != AFTER.cat)
    moved[k] = None  # one more figure came off in the last move
    last = replace(AFTER, tiles=tuple(moved))
    unsure = replace(reading(last), confidence=tuple(0.3 if i == 11 else 1.0 for i in range(12)))
    _, memory = sense(state, None, reading(AFTER), unsure)
    assert memory.refill.ended is None  # the kept table is not the one the round left
    state, _ = play(state, RoundResult(True))
    (plan,), memory = sense(state, memory, reading(last))
    assert plan.status == "plan" and memory.refill.after == last


def test_a_refill_the_camera_cannot_judge_holds_no_card():
    """Checked by eye: the check never ends with "ready", so the cards revealed after it are
    read (holding them would need a tap for every card, round after round)."""
    state = after_round_one()
    done = refill(AFTER, (C, C, M)).table
    cards = ZoneRead("centre", ("blue", "red"), (0.99, 0.99))
    events, _ = sense(state, None, reading(done), cards, cards)
    assert events == [
        RefillSeen("unverified"),
        CardSeen("centre", "blue", 0.99),
        CardSeen("centre", "red", 0.99),
    ]
