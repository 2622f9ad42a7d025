"""What differs from board to board, as far as the app can count it."""

from __future__ import annotations

BOARDS = {
    1: "A Village in the Valley",
    2: "Flying Islands",
    3: "The City of the Future",
    4: "The Land of Pirates",
    5: "The Medieval Town",
    6: "The Magical East",
}


def coin_goal(board: int) -> int:
    """Coins that trigger the end: finish the round, then one final round."""
    return 5 if board <= 3 else 6


# Zone prediction bonuses: (kind, label). "pencil" adds a bonus pencil; the other kinds are
# tokens shown on screen (board 4 ship/key, board 5 any-one/any-two, board 6 immediate moves).
_ANY_PENCIL = ("pencil", "a pencil of any colour")
ZONE_BONUS = {
    1: {"double": ("pencil", "a purple, pink or orange pencil"), "triple": _ANY_PENCIL},
    2: {"double": ("pencil", "a purple, pink or orange pencil"), "triple": _ANY_PENCIL},
    3: {"double": ("pencil", "a blue, green or orange pencil"), "triple": _ANY_PENCIL},
    4: {"double": ("ship", "a ship to an island"), "triple": ("key", "a key of any colour")},
    5: {
        "double": ("any1", "take any one of the five balls, now or later"),
        "triple": ("any2", "take any two of the five balls, now or later"),
    },
    6: {
        "double": ("cave", "enter a Ghost Town or the Treasure Cave now"),
        "triple": ("finish", "finish one started area now"),
    },
}

# Board 5 King's Tower: colour -> (coins, bonus pencils).
KINGS_TOWER = {"purple": (3, 0), "pink": (2, 1), "orange": (2, 0), "green": (1, 1), "blue": (1, 0)}

# Counts the end bonuses need, and the boards they belong to.
COUNT_ITEMS = {
    "warriors": 5,
    "railways": 3,
    "market": 6,
    "camels": 6,
    "ghost_towns": 6,
    "treasure_cave": 6,
}
# Counts compared between players (the most or the fewest gain or lose something): a solo
# player has nobody to compare with.
VERSUS = ("warriors", "railways", "market")


def count_items(board: int, solo: bool = False) -> tuple[str, ...]:
    """The counts board `board`'s end bonuses need, in the order players fill them in."""
    return tuple(
        item for item, b in COUNT_ITEMS.items() if b == board and not (solo and item in VERSUS)
    )


# Solo rating: (highest turn count of the band, words), boards 1-4 and 5-6.
SOLO_BANDS = {
    "short": (
        (4, "How did you do that?!"),
        (6, "Great result!"),
        (9, "Good job!"),
        (None, "You did well, but luck didn't seem to be on your side."),
    ),
    "long": (
        (5, "Amazing result!"),
        (7, "Great!"),
        (10, "Well, keep it up!"),
        (None, "You're doing great, but you still have a lot to work on."),
    ),
}


def solo_rating(board: int, turns: int) -> str:
    for top, words in SOLO_BANDS["short" if board <= 4 else "long"]:
        if top is None or turns <= top:
            return words
    raise AssertionError("unreachable")


def most_and_least(values: dict[str, int]) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """Players tied for the most and for the least; nobody when everyone is equal."""
    if not values or len(set(values.values())) == 1:
        return (), ()
    hi, lo = max(values.values()), min(values.values())
    return (
        tuple(p for p, v in values.items() if v == hi),
        tuple(p for p, v in values.items() if v == lo),
    )
