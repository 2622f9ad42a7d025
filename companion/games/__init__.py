"""The games the companion knows: every package in this folder. Adding a game touches no
other game and no list: drop its folder here and the catalogue finds it.

A game package `companion.games.<pkg>` exposes:
- `GAME`: an object implementing companion.game.Game (pure rules), whose `name`, `title`,
  `min_players` and `max_players` are the game's metadata everywhere (home screen, CLI);
- `BLURB`: one line for the home screen, and `SHELF`: its place there (lower first);
- optionally `commands.VERBS`: {"odds": fn(argv) -> int, ...} for `companion <verb> <game>`
  (listed as the game's tools by `companion games`);
- optionally `screen.GameScreen`: its Kivy screen (a companion.ui.game_screen.GameScreen);
- optionally `OPTIONS` (companion.game.Option) shown on the set-up screen, and
  `prepare_options(log, players, options) -> options` to fill options from history.
Screens and commands are imported only when a game is used.
"""

from __future__ import annotations

import importlib
import pkgutil
from dataclasses import dataclass

from companion.errors import UsageError

_found: dict[tuple[str, ...], tuple[GameInfo, ...]] = {}


@dataclass(frozen=True)
class GameInfo:
    name: str
    title: str
    package: str
    players: tuple[int, int]
    blurb: str
    shelf: int = 100


def catalogue() -> tuple[GameInfo, ...]:
    """Every game package found in this package's folder(s), in shelf order."""
    key = tuple(__path__)
    if key not in _found:
        infos = []
        for module in pkgutil.iter_modules(__path__):
            if not module.ispkg:
                continue
            package = importlib.import_module(f"{__name__}.{module.name}")
            game = getattr(package, "GAME", None)
            if game is None:
                continue  # a helper package, not a game
            infos.append(
                GameInfo(
                    game.name,
                    game.title,
                    package.__name__,
                    (game.min_players, game.max_players),
                    getattr(package, "BLURB", ""),
                    getattr(package, "SHELF", 100),
                )
            )
        _found[key] = tuple(sorted(infos, key=lambda g: (g.shelf, g.title)))
    return _found[key]


def info(name: str) -> GameInfo:
    for g in catalogue():
        if g.name == name:
            return g
    known = ", ".join(g.name for g in catalogue())
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
