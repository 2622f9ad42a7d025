"""The games the companion knows. One folder per game; adding a game touches no other game.

A game package `companion.games.<pkg>` exposes:
- `GAME`: an object implementing companion.game.Game (pure rules);
- optionally `commands.VERBS`: {"odds": fn(argv) -> int, ...} for `companion <verb> <game>`;
- optionally `screen.GameScreen`: its Kivy screen (a companion.ui.game_screen.GameScreen);
- optionally `OPTIONS` (companion.game.Option) shown on the set-up screen, and
  `prepare_options(log, players, options) -> options` to fill options from history;
- optionally `READS_BALLS = True` for the camera to read the ball tray during play.
Packages are imported only when a game is used, so start-up stays fast.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass

from companion.errors import UsageError


@dataclass(frozen=True)
class GameInfo:
    name: str
    title: str
    package: str
    players: tuple[int, int]
    blurb: str


CATALOGUE: tuple[GameInfo, ...] = (
    GameInfo(
        "color-milk",
        "Color Milk",
        "companion.games.color_milk",
        (1, 5),
        "Predict the balls that roll out of the mill.",
    ),
    GameInfo(
        "laser",
        "Laser",
        "companion.games.laser",
        (2, 10),
        "Bid the fewest moves to mix the colours.",
    ),
    GameInfo(
        "kritters",
        "Colour MY Kritters",
        "companion.games.kritters",
        (1, 12),
        "Collect kritters; the app finds your best score.",
    ),
    GameInfo(
        "elios",
        "Elios",
        "companion.games.elios",
        (2, 4),
        "Be first to place all your beams on the sun.",
    ),
    GameInfo(
        "node", "Node", "companion.games.node", (2, 2), "Grow the largest cluster of each colour."
    ),
)


def info(name: str) -> GameInfo:
    for g in CATALOGUE:
        if g.name == name:
            return g
    known = ", ".join(g.name for g in CATALOGUE)
    raise UsageError(f"unknown game {name!r} (known: {known})")


def load(name: str):
    """The rules object of a game."""
    return importlib.import_module(info(name).package).GAME


def verbs(name: str) -> dict:
    """The scriptable subcommands a game offers (`odds`, `score`, `solve`, `demo`, ...)."""
    try:
        module = importlib.import_module(info(name).package + ".commands")
    except ModuleNotFoundError as exc:
        if exc.name != info(name).package + ".commands":
            raise
        return {}
    return dict(module.VERBS)
