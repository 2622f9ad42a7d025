"""Node rules and the rulebook's FAQ, one rule per test, through the public events.

Most scenarios use 1 x 2 cards (the card shape is a setting) so each move adds one node and
the positions stay readable; the default 2 x 3 card has its own tests.
"""

import pytest

from companion.catalogue import load
from companion.cues import Scored
from companion.errors import IllegalMove, UsageError
from companion.events import ButtonPressed, from_dict, to_dict
from companion.game import GameConfig
from companion.games.node import Discard, NoCardsLeft, PlaceCard
from companion.games.node.geometry import footprint

GAME = load("node")
C = {"r": "red", "y": "yellow", "g": "green", "b": "blue", "p": "purple"}


def card(letters):
    return tuple(C[x] for x in letters.replace("/", ""))


def new(**options):
    return GAME.initial_state(GameConfig(("ann", "bob"), options))


def dominoes(**options):
    """A 9 x 9 table (middle (4, 4)) played with 1 x 2 cards."""
    return new(table_width=9, table_height=9, card_width=2, card_height=1, **options)


def put(state, letters, row, col, rotation=0):
    state, _ = GAME.apply(state, PlaceCard(state.current, card(letters), row, col, rotation))
    return state


def owner(state, cell):
    k = state.cluster_at(cell)
    return k.owner if k else None


def size(state, cell):
    return state.cluster_at(cell).size


# --- setup -----------------------------------------------------------------------------


def test_two_players_only():
    for players in (("a",), ("a", "b", "c"), ("a", "a")):
        with pytest.raises(UsageError):
            GAME.initial_state(GameConfig(players))


def test_defaults_table_card_and_colours():
    s = new()
    assert (s.width, s.height, s.card_width, s.card_height) == (20, 14, 3, 2)
    assert s.colours == ("red", "yellow", "green", "blue", "purple")
    assert all(cell is None for row in s.grid for cell in row)
    assert GAME.current_player(s) == "ann"


@pytest.mark.parametrize(
    "options",
    [
        {"colours": ["red"] * 5},
        {"colours": ["a", "b"]},
        {"table_width": 0},
        {"card_width": "3"},
        {"deck": 0},
        {"table_height": 1},
    ],
)
def test_bad_options_are_refused(options):
    with pytest.raises(UsageError):
        new(**options)


# --- placing a card ----------------------------------------------------------------------


def test_first_card_goes_in_the_middle():
    s = new()
    with pytest.raises(IllegalMove, match="middle"):
        GAME.apply(s, PlaceCard("ann", card("rrr/bbb"), 0, 0))
    s = put(s, "rrr/bbb", 6, 9)  # covers the middle node (7, 10)
    assert s.at((7, 10)) == "blue"


def test_card_must_cover_at_least_one_node_faq1():
    # "Can I just put it next to a card?" No.
    s = put(new(), "rrr/bbb", 6, 9)
    with pytest.raises(IllegalMove, match="cover at least one node"):
        GAME.apply(s, PlaceCard("bob", card("rrr/bbb"), 6, 12))  # touching, not overlapping
    s = put(s, "bgg/bgg", 7, 11)  # overlaps (7, 11)
    assert s.at((8, 13)) == "green"


def test_every_covered_node_must_match():
    s = put(new(), "rrr/bbb", 6, 9)
    with pytest.raises(IllegalMove, match="a green node cannot cover a blue node"):
        GAME.apply(s, PlaceCard("bob", card("ggg/yyy"), 7, 9))


def test_edge_rule_no_dangling_cards():
    s = new(table_width=5, table_height=4)  # middle (2, 2)
    s = put(s, "rrr/bbb", 1, 1)
    with pytest.raises(IllegalMove, match="edge"):
        GAME.apply(s, PlaceCard("bob", card("bbb/ggg"), 2, 3))  # would fit but hangs off
    with pytest.raises(IllegalMove, match="edge"):
        GAME.apply(s, PlaceCard("bob", card("ggg/rrr"), -1, 1))


def test_card_in_either_orientation():
    s = put(new(), "rrr/bbb", 6, 9)
    # turned 90 degrees clockwise: 3 rows x 2 columns, left column is the bottom row "ggb"
    spots = footprint(card("ryy/ggb"), 2, 3, 8, 11, 90)
    assert spots == {
        (8, 11): "green",
        (8, 12): "red",
        (9, 11): "green",
        (9, 12): "yellow",
        (10, 11): "blue",
        (10, 12): "yellow",
    }
    with pytest.raises(IllegalMove, match="green node cannot cover a blue"):
        GAME.apply(s, PlaceCard("bob", card("ryy/ggb"), 7, 11, 90))
    s = put(s, "ryy/bgg", 7, 11, 90)  # top-left is the printed bottom-left: blue on blue
    assert (s.at((7, 12)), s.at((9, 11)), s.at((9, 12))) == ("red", "green", "yellow")
    assert len(s.last) == 6


def test_odd_rotation_wrong_size_and_unknown_colour():
    s = new()
    with pytest.raises(IllegalMove, match="90"):
        GAME.apply(s, PlaceCard("ann", card("rrr/bbb"), 6, 9, 45))
    with pytest.raises(IllegalMove, match="6 nodes"):
        GAME.apply(s, PlaceCard("ann", card("rrr"), 6, 9))
    with pytest.raises(IllegalMove, match="not a Node colour"):
        GAME.apply(s, PlaceCard("ann", ("red",) * 5 + ("black",), 6, 9))


def test_players_alternate():
    s = put(dominoes(), "rb", 4, 4)
    assert GAME.current_player(s) == "bob"
    with pytest.raises(IllegalMove, match="bob's turn"):
        GAME.apply(s, PlaceCard("ann", card("rb"), 4, 4))
    s = put(s, "rb", 4, 4)
    assert GAME.current_player(s) == "ann"


# --- clusters and captures -----------------------------------------------------------------


def test_clusters_join_by_sides_not_diagonals():
    s = put(dominoes(), "rb", 4, 4)  # r(4,4) b(4,5)
    s = put(s, "rb", 4, 4)  # full cover, nothing new
    s = put(s, "br", 3, 4, 90)  # b(3,4) new; r(4,4) covered
    # blue (3,4) touches blue (4,5) only diagonally: two blue clusters
    assert size(s, (3, 4)) == 1 and size(s, (4, 5)) == 1
    assert s.cluster_at((3, 4)) is not s.cluster_at((4, 5))
    s = put(s, "bb", 3, 4)  # b(3,5) joins both sides
    assert size(s, (3, 4)) == 3 and s.cluster_at((3, 4)) is s.cluster_at((4, 5))


def test_first_appearance_of_a_colour_is_a_capture():
    s, cues = GAME.apply(dominoes(), PlaceCard("ann", card("rb"), 4, 4))
    assert owner(s, (4, 4)) == "ann" and owner(s, (4, 5)) == "ann"
    assert cues.count(Scored("ann", 1)) == 2
    assert GAME.scores(s) == {"ann": 2, "bob": 0}


def test_first_card_with_a_colour_twice_apart_captures_neither():
    # two separate single red nodes: neither is strictly the largest
    s = put(new(), "ryr/yyy", 6, 9)
    assert owner(s, (6, 9)) is None and owner(s, (6, 11)) is None
    assert owner(s, (7, 9)) == "ann"  # the yellow T


def test_growing_a_cluster_you_did_not_cover_captures_it_faq2():
    s = put(dominoes(), "rr", 4, 4)  # ann: red (4,4)-(4,5)
    s = put(s, "rb", 4, 5, 90)  # bob: covers red, new blue (5,5)
    assert owner(s, (5, 5)) == "bob"
    s, cues = GAME.apply(s, PlaceCard("ann", card("rb"), 4, 4, 90))  # covers red only
    assert size(s, (5, 5)) == 2
    assert owner(s, (5, 5)) == "ann"  # blue grew without blue being covered
    assert Scored("bob", -1) in cues


def test_covering_without_growing_captures_nothing_faq3():
    s = put(dominoes(), "rr", 4, 4)  # ann owns red
    s = put(s, "rr", 4, 4)  # bob covers both reds: nothing grows
    assert owner(s, (4, 4)) == "ann"
    s = put(s, "rr", 4, 4)
    s = put(s, "yr", 3, 5, 90)  # bob covers a red and adds yellow
    assert owner(s, (4, 4)) == "ann" and owner(s, (3, 5)) == "bob"
    assert GAME.scores(s) == {"ann": 1, "bob": 1}


def test_equal_size_does_not_steal_bigger_does_faq4():
    s = put(dominoes(), "rr", 4, 4)  # ann: red
    s = put(s, "ry", 4, 4, 90)  # bob: yellow (5,4)
    s = put(s, "rb", 4, 5)  # ann: blue A (4,6), size 1
    s = put(s, "yb", 5, 4, 90)  # bob: blue B (6,4), size 1: as big, not bigger
    assert owner(s, (4, 6)) == "ann" and owner(s, (6, 4)) is None
    s = put(s, "bg", 4, 6)  # ann: green, blue A untouched
    s, cues = GAME.apply(s, PlaceCard("bob", card("bb"), 6, 4))  # B grows to 2
    assert owner(s, (6, 4)) == "bob" and owner(s, (4, 6)) is None
    assert any("ann loses blue" in getattr(c, "text", "") for c in cues)


def test_own_avatar_moves_to_the_new_largest_cluster():
    s = put(dominoes(), "rr", 4, 4)
    s = put(s, "rr", 4, 4)
    s = put(s, "rb", 4, 5)  # ann: blue A (4,6)
    s = put(s, "rr", 4, 4)
    s = put(s, "rb", 4, 4, 90)  # ann: blue B (5,4) size 1: a tie, no capture
    assert owner(s, (4, 6)) == "ann" and owner(s, (5, 4)) is None
    s = put(s, "rr", 4, 4)
    s = put(s, "bb", 5, 4)  # ann: B size 2
    assert owner(s, (5, 4)) == "ann" and owner(s, (4, 6)) is None
    assert GAME.scores(s)["ann"] == 2  # red and blue: one avatar per colour


def test_capture_zero_one_or_two_clusters_in_a_turn():
    s = put(new(), "rrr/bbb", 6, 9)  # ann captures two at once
    assert GAME.scores(s)["ann"] == 2
    s = put(s, "bbb/ggg", 7, 9)  # bob: covers blue, adds green: one capture
    assert GAME.scores(s) == {"ann": 2, "bob": 1}
    s = put(s, "rrr/bbb", 6, 9)  # ann: full cover, zero captures
    assert GAME.scores(s) == {"ann": 2, "bob": 1}
    s = put(s, "rrr/rrr", 5, 9)  # bob: red grows to 6: captured from ann
    assert GAME.scores(s) == {"ann": 1, "bob": 2}


def test_all_five_colours_win_at_once():
    s = put(dominoes(), "rb", 4, 4)  # ann: red, blue
    s = put(s, "rb", 4, 4)  # bob covers, no change
    s = put(s, "gr", 3, 4, 90)  # ann: green
    s = put(s, "rb", 4, 4)
    s = put(s, "by", 4, 5, 90)  # ann: yellow
    assert not GAME.is_over(s)
    s = put(s, "rb", 4, 4)
    s, cues = GAME.apply(s, PlaceCard("ann", card("yp"), 5, 5, 90))  # ann: purple
    assert GAME.is_over(s) and GAME.winners(s) == ("ann",)
    assert "all five" in cues[-1].text
    with pytest.raises(IllegalMove, match="over"):
        GAME.apply(s, PlaceCard("bob", card("rb"), 4, 4))


# --- discards and the end ---------------------------------------------------------------------


def test_discard_only_when_no_card_fits():
    s = dominoes()
    with pytest.raises(IllegalMove, match="middle"):
        GAME.apply(s, Discard("ann"))
    s = put(s, "rb", 4, 4)
    with pytest.raises(IllegalMove, match="fits"):
        GAME.apply(s, Discard("bob", (card("gg"), card("rg"))))
    s, _ = GAME.apply(s, Discard("bob", (card("gg"), card("yp"))))
    assert s.discarded == 1 and GAME.current_player(s) == "ann"


def test_counted_deck_ends_the_game_most_clusters_win():
    s = dominoes(deck=3)
    s = put(s, "rr", 4, 4)  # ann: red
    s = put(s, "ry", 4, 4, 90)  # bob: yellow
    assert s.cards_left == 1 and not GAME.is_over(s)
    s, _ = GAME.apply(s, PlaceCard("ann", card("rg"), 4, 5, 90))  # ann: green
    assert GAME.is_over(s)
    assert GAME.winners(s) == ("ann",)


def test_ties_are_shared():
    s = dominoes(deck=2)
    s = put(s, "rr", 4, 4)
    s = put(s, "ry", 4, 4, 90)
    assert GAME.is_over(s) and GAME.winners(s) == ("ann", "bob")


def test_no_cards_left_ends_an_uncounted_game():
    s = put(dominoes(), "rb", 4, 4)
    assert s.cards_left is None
    s, _ = GAME.apply(s, NoCardsLeft())
    assert GAME.is_over(s) and GAME.winners(s) == ("ann",)


def test_foreign_events_and_strangers_are_refused():
    s = dominoes()
    with pytest.raises(IllegalMove, match="has no use for the next button"):
        GAME.apply(s, ButtonPressed("next"))
    with pytest.raises(IllegalMove, match="no player"):
        GAME.apply(s, PlaceCard("eve", card("rb"), 4, 4))


def test_events_round_trip_through_the_log_format():
    for e in (
        PlaceCard("a", card("rrr/bbb"), 1, 2, 90),
        Discard("a", (card("rr"),)),
        NoCardsLeft(),
    ):
        assert from_dict(to_dict(e)) == e


def test_every_offered_option_starts_a_game():
    from companion.games.node import OPTIONS

    for option in OPTIONS:
        for choice in option.choices:
            s = GAME.initial_state(GameConfig(("ann", "bob"), {option.key: choice}))
            assert GAME.describe(s).startswith("ann's turn")


def test_malformed_positions_are_refused_cleanly():
    with pytest.raises(IllegalMove, match="whole numbers"):
        GAME.apply(new(), PlaceCard("ann", card("rrr/bbb"), "6", 9))
