"""The features of boards 2-6 that the app counts, and solo mode."""

import pytest

from companion.errors import IllegalMove
from companion.events import ButtonPressed
from companion.games.color_milk import GAME
from companion.games.color_milk.boards import COUNT_ITEMS, count_items, solo_rating
from companion.games.color_milk.events import Choose, Count, KingsTower, Tally

R1 = ("blue", "blue", "green", "orange", "pink")
R2 = ("blue", "blue", "green", "orange", "purple")
R3 = ("blue", "green", "green", "orange", "pink")


def end_game(t, goal_player="Anna", goal=6):
    """Reach the goal in round 1, play the final round 2, confirm the tally if any."""
    t.round(R1, coins={goal_player: goal})
    t.round(R2)
    if t.state.phase == "tally":
        t.do(ButtonPressed("next"))
    if t.state.phase == "warriors":  # board 5: the extra cell brought no coin
        t.do(ButtonPressed("next"))
    assert GAME.is_over(t.state)
    return t.state


# Zone bonuses by board ---------------------------------------------------------------------
@pytest.mark.parametrize(
    "board, double, triple",
    [
        (1, "purple, pink or orange pencil", "any colour"),
        (2, "purple, pink or orange pencil", "any colour"),
        (3, "blue, green or orange pencil", "any colour"),
    ],
)
def test_boards_1_to_3_zone_bonuses_are_pencils(table, board, double, triple):
    t = table(players=("Anna", "Ben"), board=board)
    t.round(R1, {"Anna": "double:blue pink", "Ben": "triple:blue green orange"})
    assert t.state.player("Anna").pencils == 1 and t.state.player("Ben").pencils == 1
    assert any(double in x for x in t.texts()) and any(triple in x for x in t.texts())


def test_board_4_double_gives_a_ship_and_triple_a_key(table):
    t = table(players=("Anna", "Ben"), board=4)
    t.round(R1, {"Anna": "double:blue pink", "Ben": "triple:blue green orange"})
    a, b = t.state.player("Anna"), t.state.player("Ben")
    assert (a.token("ship"), a.pencils) == (1, 0)
    assert (b.token("key"), b.pencils) == (1, 0)


def test_board_5_any_one_and_any_two_bonuses(table):
    t = table(players=("Anna", "Ben"), board=5)
    t.round(R1, {"Anna": "double:blue pink", "Ben": "triple:blue green orange"})
    assert t.state.player("Anna").token("any1") == 1
    assert t.state.player("Ben").token("any2") == 1
    # round 2: Ben leads; he keeps his bonus for later, Anna uses hers on the last ball
    t.predict(Anna="blue", Ben="blue")
    t.balls("pink", "blue", "green", "orange", "purple")
    t.do(Choose("Ben", (0,)))
    with pytest.raises(IllegalMove, match="exactly 1"):
        t.do(Choose("Anna", (3, 4), "any1"))
    t.do(Choose("Anna", (3,), "any1"))
    assert t.state.player("Anna").chosen == ("purple",)
    assert t.state.row == ("blue", "green", "orange", "pink", "purple")
    assert t.state.player("Anna").token("any1") == 0
    t.do(ButtonPressed("next"))
    # round 3 (Anna leads): Anna has no bonus left; Ben takes two balls
    t.predict(Anna="blue", Ben="blue")
    t.balls(*R3)
    with pytest.raises(IllegalMove, match="no unused any1"):
        t.do(Choose("Anna", (4,), "any1"))
    t.do(Choose("Anna", (0,)))  # row: green green orange pink blue
    t.do(Choose("Ben", (3, 1), "any2"))
    assert t.state.player("Ben").chosen == ("pink", "green")
    assert t.state.row == ("green", "orange", "blue", "pink", "green")
    assert t.state.player("Ben").token("any2") == 0


def test_board_5_any_ball_moves_to_the_end_of_the_row(table):
    t = table(players=("Anna",), board=5)
    t.round(R1, {"Anna": "double:blue pink"})
    t.predict(Anna="blue")
    t.balls("pink", "blue", "green", "orange", "purple")
    t.do(Choose("Anna", (4,), "any1"))
    assert t.state.row == ("pink", "blue", "green", "orange", "purple")
    assert t.state.player("Anna").chosen == ("purple",)


def test_board_6_double_enters_a_ghost_town_and_counts_for_the_cave(table):
    t = table(players=("Anna", "Ben"), board=6)
    t.round(R1, {"Anna": "double:blue pink", "Ben": "triple:blue green orange"})
    assert any("Ghost Town or the Treasure Cave now" in x for x in t.texts())
    assert any("finish one started area now" in x for x in t.texts())
    assert t.state.player("Anna").doubles == 1


# King's Tower (board 5) ------------------------------------------------------------------
@pytest.mark.parametrize(
    "colour, coins, pencils",
    [("purple", 3, 0), ("pink", 2, 1), ("orange", 2, 0), ("green", 1, 1), ("blue", 1, 0)],
)
def test_kings_tower_table(table, colour, coins, pencils):
    t = table(players=("Anna",), board=5)
    t.do(KingsTower("Anna", colour))
    a = t.state.player("Anna")
    assert (a.coins, a.pencils, a.kings_tower) == (coins, pencils, colour)
    with pytest.raises(IllegalMove, match="already finished"):
        t.do(KingsTower("Anna", "blue"))


def test_kings_tower_only_on_board_5_and_its_coins_can_trigger_the_end(table):
    t = table(players=("Anna",), board=1)
    with pytest.raises(IllegalMove, match="board 5"):
        t.do(KingsTower("Anna", "purple"))
    t = table(players=("Anna", "Ben"), board=5)
    t.do(Tally("Anna", "coins", 3), KingsTower("Anna", "purple"))
    assert t.state.trigger_round == 1


# Warriors (board 5) --------------------------------------------------------------------------
def warriors(t, **counts):
    for name, n in counts.items():
        t.do(Count(name, "warriors", n))


def test_warriors_at_every_remix_most_colours_least_loses_a_pencil(table):
    t = table(players=("Anna", "Ben", "Cleo"), board=5)
    t.do(Tally("Ben", "pencils", 2), Tally("Cleo", "pencils", 1))
    t.round(R1)
    t.round(R2)
    t.round(R3)
    warriors(t, Anna=4, Ben=2, Cleo=2)
    t.remix()
    texts = t.texts()
    assert any("Anna has the most" in x for x in texts)
    assert t.state.player("Ben").unused_pencils == 1  # ties at the bottom all lose one
    assert t.state.player("Cleo").unused_pencils == 0
    assert t.state.player("Anna").lost == 0


def test_warriors_tie_at_the_top_all_colour_and_no_pencil_no_loss(table):
    t = table(players=("Anna", "Ben", "Cleo"), board=5)
    t.round(R1)
    t.round(R2)
    t.round(R3)
    warriors(t, Anna=3, Ben=3, Cleo=1)
    t.remix()
    texts = t.texts()
    assert any("Anna has the most" in x for x in texts)
    assert any("Ben has the most" in x for x in texts)
    assert any("Cleo has the fewest but no pencil to lose" in x for x in texts)
    assert t.state.player("Cleo").lost == 0


def test_warriors_all_equal_nothing_happens(table):
    t = table(players=("Anna", "Ben"), board=5)
    t.do(Tally("Anna", "pencils", 1), Tally("Ben", "pencils", 1))
    t.round(R1)
    t.round(R2)
    t.round(R3)
    warriors(t, Anna=2, Ben=2)
    t.remix()
    assert any("nothing happens" in x for x in t.texts())
    assert [p.lost for p in t.state.players] == [0, 0]


def test_warriors_checked_at_the_end_can_decide_the_tie_break(table):
    t = table(players=("Anna", "Ben"), board=5)
    t.do(Tally("Anna", "pencils", 1), Tally("Ben", "pencils", 1), Tally("Ben", "coins", 6))
    warriors(t, Anna=5, Ben=1)
    s = end_game(t, goal_player="Anna")
    assert s.player("Ben").lost == 1
    assert GAME.winners(s) == ("Anna",)  # 6 coins each; Anna kept her pencil


# Railways (board 3) ---------------------------------------------------------------------------
@pytest.mark.parametrize(
    "segs, bonus",
    [
        ((4, 2, 1), (1, 0, 0)),
        ((4, 4, 1), (1, 1, 0)),
        ((3, 3, 3), (0, 0, 0)),
        ((0, 0, 2), (0, 0, 1)),
    ],
)
def test_board_3_most_railway_segments(table, segs, bonus):
    t = table(players=("Anna", "Ben", "Cleo"), board=3)
    for name, n in zip(("Anna", "Ben", "Cleo"), segs, strict=True):
        t.do(Count(name, "railways", n))
    s = end_game(t, goal=5)
    base = (5, 0, 0)
    assert tuple(p.coins for p in s.players) == tuple(map(sum, zip(base, bonus, strict=True)))
    assert tuple(dict(p.end_bonus).get("railways", 0) for p in s.players) == bonus


def test_counts_belong_to_their_board(table):
    t = table(players=("Anna",), board=3)
    with pytest.raises(IllegalMove, match="board 5"):
        t.do(Count("Anna", "warriors", 2))
    with pytest.raises(IllegalMove, match="negative"):
        t.do(Count("Anna", "railways", -1))
    with pytest.raises(IllegalMove, match="unknown count"):
        t.do(Count("Anna", "dragons", 1))


@pytest.mark.parametrize("board", range(1, 7))
def test_count_items_lists_each_boards_counts_and_solo_drops_the_comparisons(board):
    items = count_items(board)
    assert set(items) == {item for item, b in COUNT_ITEMS.items() if b == board}
    solo = count_items(board, solo=True)
    assert set(solo) == set(items) - {"warriors", "railways", "market"}
    assert count_items(6) == ("market", "camels", "ghost_towns", "treasure_cave")


def test_ranked_puts_coins_first_then_unused_pencils_then_seats(table):
    t = table(players=("Anna", "Ben", "Cleo", "Dan"), board=1)
    t.do(Tally("Anna", "coins", 2), Tally("Ben", "coins", 3), Tally("Cleo", "coins", 3))
    t.do(Tally("Cleo", "pencils", 1), Tally("Dan", "coins", 2))
    assert [p.name for p in GAME.ranked(t.state)] == ["Cleo", "Ben", "Anna", "Dan"]


# Board 6 end bonuses ------------------------------------------------------------------------
def test_board_6_market_ghost_towns_and_treasure_cave(table):
    t = table(players=("Anna", "Ben", "Cleo"), board=6)
    t.do(Count("Anna", "market", 3), Count("Ben", "market", 3), Count("Cleo", "market", 1))
    t.do(Count("Anna", "camels", 15), Count("Anna", "ghost_towns", 2))  # 2 towns x 2
    t.do(Count("Ben", "camels", 6), Count("Ben", "ghost_towns", 1))  # fewer than 7: 0
    t.do(Count("Cleo", "treasure_cave", 1))
    with pytest.raises(IllegalMove, match="1 when the cave"):
        t.do(Count("Cleo", "treasure_cave", 2))
    # Cleo makes two different successful double predictions, then the goal is reached
    t.round(R1, {"Anna": "blue", "Ben": "blue", "Cleo": "double:blue pink"})
    t.round(R2, {"Anna": "blue", "Ben": "blue", "Cleo": "double:green purple"}, coins={"Anna": 6})
    t.round(R3)
    assert t.state.phase == "tally"
    t.do(ButtonPressed("next"))
    s = t.state
    assert dict(s.player("Anna").end_bonus) == {"market": 1, "ghost towns": 4}
    assert dict(s.player("Ben").end_bonus) == {"market": 1}
    assert dict(s.player("Cleo").end_bonus) == {"treasure cave": 2}
    assert GAME.scores(s) == {"Anna": 11, "Ben": 1, "Cleo": 2}


def test_board_6_nobody_gets_the_market_coin_without_exchanges(table):
    t = table(players=("Anna", "Ben"), board=6)
    s = end_game(t)
    assert all(p.end_bonus == () for p in s.players)


# Solo ---------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "board, turns, words",
    [
        (1, 4, "How did you do that?!"),
        (1, 5, "Great result!"),
        (4, 6, "Great result!"),
        (2, 7, "Good job!"),
        (3, 9, "Good job!"),
        (4, 10, "luck didn't seem"),
        (5, 5, "Amazing result!"),
        (5, 6, "Great!"),
        (6, 7, "Great!"),
        (6, 8, "keep it up"),
        (5, 10, "keep it up"),
        (6, 11, "still have a lot to work on"),
    ],
)
def test_solo_rating_bands_close_the_rulebook_gap(board, turns, words):
    assert words in solo_rating(board, turns)


def test_solo_counts_turns_and_takes_one_more_after_the_goal(table):
    t = table(players=("Anna",), board=1)
    for balls in (R1, R2, R3):
        t.round(balls)
    t.remix()
    t.round(R1, coins={"Anna": 5})
    assert t.state.final_round == 5
    t.round(R2)
    s = t.state
    assert GAME.is_over(s) and s.round == 5
    assert GAME.solo_rating(s) == "Great result!"
    assert GAME.summary(s)["solo_rating"] == "Great result!"
    assert GAME.winners(s) == ("Anna",)


@pytest.mark.parametrize("board, item", [(3, "railways"), (6, "market")])
def test_solo_gets_no_railway_or_market_bonus(table, board, item):
    t = table(players=("Anna",), board=board)
    t.do(Count("Anna", item, 5))
    s = end_game(t, goal=6)
    assert dict(s.player("Anna").end_bonus).get(item) is None


def test_solo_board_5_skips_the_warriors(table):
    t = table(players=("Anna",), board=5)
    t.do(Tally("Anna", "pencils", 1), Count("Anna", "warriors", 0))
    for balls in (R1, R2, R3):
        t.round(balls)
    t.remix()
    assert not any("Warriors" in x for x in t.texts())
    assert t.state.player("Anna").unused_pencils == 1
