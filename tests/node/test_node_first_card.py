"""Node's first card "in the middle of the table": as close to the table's true centre as the
card's shape allows, so on an even table either of two mirror images, and nothing else."""

import random

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from companion.catalogue import load
from companion.errors import IllegalMove
from companion.game import GameConfig
from companion.games.node import PlaceCard
from companion.games.node.geometry import distinct_rotations
from tests.node.test_node_invariants import play_randomly, random_card

GAME = load("node")


def table(width, height, card_width=3, card_height=2):
    options = {"table_width": width, "table_height": height}
    options |= {"card_width": card_width, "card_height": card_height}
    return GAME.initial_state(GameConfig(("ann", "bob"), options))


def centred(state, row, col, rotation):
    """The referee's reading, by brute force: along each side, no other start on the table
    puts the card's centre nearer the table's centre (distances doubled to stay whole)."""
    h, w = state.card_height, state.card_width
    if rotation in (90, 270):
        h, w = w, h

    def best(start, card, length):
        off = [abs(2 * s + card - length) for s in range(length - card + 1)]
        return 0 <= start <= length - card and abs(2 * start + card - length) == min(off)

    return best(row, h, state.height) and best(col, w, state.width)


def accepted(state, colours, row, col, rotation):
    try:
        GAME.apply(state, PlaceCard(state.current, colours, row, col, rotation))
    except IllegalMove as exc:
        return str(exc)
    return True


# The two reproductions of issue 29 (both accepted or refused wrongly before).


def test_a_card_a_node_off_centre_is_refused_with_the_way_to_the_middle():
    s = table(20, 14)  # the defaults: a 2 x 3 card centres on rows 6-7
    card = ("red", "red", "blue", "green", "green", "blue")
    assert accepted(s, card, 6, 9, 0) is True
    why = accepted(s, card, 7, 9, 0)  # rows 7-8: a node low
    assert why == "the first card goes in the middle of the table: 1 node up from here"
    why = accepted(s, card, 7, 10, 90)  # rows 7-9, cols 10-11
    assert why == (
        "the first card goes in the middle of the table: 1 node up and 1 node left from here"
    )


@pytest.mark.parametrize("row", [6, 7])
def test_both_mirror_images_of_a_centred_card_are_taken(row):
    # a card one node high on a table 14 nodes deep: its centre row is 6.5 either way
    s = table(20, 14, card_width=2, card_height=1)
    assert accepted(s, ("red", "blue"), row, 9, 0) is True
    assert set(GAME.legal_placements(s, ("red", "blue"))) == {
        (6, 9, 0),
        (7, 9, 0),
        (6, 9, 180),
        (7, 9, 180),
        (6, 9, 90),  # upright: rows 6-7, and column 9 or 10
        (6, 10, 90),
        (6, 9, 270),
        (6, 10, 270),
    }


@settings(max_examples=300, deadline=None)
@given(
    width=st.integers(1, 13),
    height=st.integers(1, 13),
    card=st.tuples(st.integers(1, 3), st.integers(1, 4)),
    rotation=st.sampled_from([0, 90, 180, 270]),
    spot=st.tuples(st.integers(-1, 13), st.integers(-1, 13)),
    seed=st.integers(0, 1000),
)
def test_the_first_card_is_taken_exactly_where_it_is_centred(
    width, height, card, rotation, spot, seed
):
    ch, cw = card
    assume(max(ch, cw) <= min(width, height))  # the table takes the card either way round
    s = table(width, height, cw, ch)
    colours = random_card(random.Random(seed), cw * ch)
    row, col = spot
    h, w = (cw, ch) if rotation in (90, 270) else (ch, cw)
    answer = accepted(s, colours, row, col, rotation)
    assert (answer is True) == centred(s, row, col, rotation), answer
    if answer is True:
        for r, c in ((height - h - row, col), (row, width - w - col)):  # the mirror images
            assert accepted(s, colours, r, c, rotation) is True
            assert accepted(s, colours, r, c, (rotation + 180) % 360) is True
    elif 0 <= row <= height - h and 0 <= col <= width - w:
        assert answer.startswith("the first card goes in the middle of the table: "), answer
    else:
        assert "edge" in answer
    spots = set(GAME.legal_placements(s, colours))
    for r, c, rot in spots:
        assert centred(s, r, c, rot)
    assert {rot for _, _, rot in spots} == set(distinct_rotations(colours, ch, cw))


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10**6), size=st.tuples(st.integers(4, 12), st.integers(4, 12)))
def test_every_first_card_of_a_random_game_is_centred(seed, size):
    rng = random.Random(seed)
    s = table(*size)
    _, events = play_randomly(s, rng, 1)
    (first,) = events
    assert centred(s, first.row, first.col, first.rotation)
