"""What the History, past-game and Statistics screens share: the game filter's names, a score
as shown, and their kv rules (kv/history.kv: every history screen's layout, one file)."""

from __future__ import annotations

from pathlib import Path

from kivy.lang import Builder

from companion import catalogue
from companion.errors import UsageError

ALL = ""  # the game filter: every game
ROW = 22  # dp: a row of the round-by-round table


def game_title(name: str) -> str:
    if not name:
        return "All games"
    try:
        return catalogue.info(name).title
    except UsageError:  # a stored game of a kind this build does not know
        return str(name)


def next_game(name: str) -> str:
    names = [ALL, *(g.name for g in catalogue.games())]
    return names[(names.index(name) + 1) % len(names)]


def score_text(v) -> str:
    return f"{v:g}" if isinstance(v, int | float) and not isinstance(v, bool) else "-"


Builder.load_file(str(Path(__file__).with_name("kv") / "history.kv"))
