"""Colour MY Kritters: the best end-of-game score for any hand, and the game's clockwork."""

from companion.game import Option
from companion.games.kritters.history import solo_options
from companion.games.kritters.rules import Kritters

GAME = Kritters()

# Choices on the player set-up screen (GameConfig.options); the turn timer is a table setting.
OPTIONS = (
    Option(
        "variant",
        "Rules",
        ("standard", "junior"),
        "standard",
        "Junior: no paintbrushes or palettes; 5 points per cyan + magenta + yellow set.",
    ),
    Option(
        "triad_bonus",
        "Colour Triad bonus",
        (False, True),
        False,
        "When all three colours score, + the size of the smallest colour group.",
    ),
    Option(
        "more_points",
        "More Points expansion",
        (False, True),
        False,
        "Paint buckets and 2/6-point kritters; the end comes when 2 of 3 item piles are empty.",
    ),
    Option(
        "double_purchase",
        "Double Purchase",
        (False, True),
        False,
        "Buy 2 kritters, or a kritter and an item, each turn.",
    ),
)


def prepare_options(log, players, options):
    """Called by the set-up screen: a solo game carries the player's best score to beat."""
    return solo_options(log, players[0], options) if len(players) == 1 else options


BLURB = "Collect kritters; the app finds your best score."  # the home screen's line
SHELF = 3  # its place on the home screen

__all__ = ["BLURB", "GAME", "SHELF", "OPTIONS", "Kritters", "prepare_options"]
