"""The catalogue: the games the companion knows, found as packages in `companion.games`
(and any folder added to that package's path). Adding a game touches no other game and no
list: drop its folder there and the catalogue finds it. What a game package exposes is
said in `companion.games`; shared code asks this module, never a game by name.
"""

from __future__ import annotations

import importlib
import pkgutil
from dataclasses import dataclass

import companion.games as _shelf
from companion.errors import UsageError

_found: dict[tuple[str, ...], tuple[GameInfo, ...]] = {}
_stats_found: dict[str, object] = {}  # package -> its stats module, or None
_camera_found: dict[str, object] = {}  # package -> its camera module, or None


@dataclass(frozen=True)
class GameInfo:
    name: str
    title: str
    package: str
    players: tuple[int, int]
    blurb: str
    shelf: int = 100
    lower_is_better: bool = False


def games() -> tuple[GameInfo, ...]:
    """Every game package found in `companion.games`' folder(s), in shelf order."""
    key = tuple(_shelf.__path__)
    if key not in _found:
        infos = []
        for module in pkgutil.iter_modules(_shelf.__path__):
            if not module.ispkg:
                continue
            package = importlib.import_module(f"{_shelf.__name__}.{module.name}")
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
                    game.lower_is_better,
                )
            )
        _found[key] = tuple(sorted(infos, key=lambda g: (g.shelf, g.title)))
    return _found[key]


def info(name: str) -> GameInfo:
    for g in games():
        if g.name == name:
            return g
    known = ", ".join(g.name for g in games())
    raise UsageError(f"unknown game {name!r} (known: {known})")


def load(name: str):
    """The rules object of a game."""
    return importlib.import_module(info(name).package).GAME


def lower_is_better(name: str) -> bool:
    """Whether the game's lowest score is best (no for a game this build does not know)."""
    return any(g.lower_is_better for g in games() if g.name == name)


def stats(name: str):
    """The game's statistics module (see above), or None: the game has none, or this build
    does not know the game (a stored game of another build keeps its place in the history)."""
    package = next((g.package for g in games() if g.name == name), None)
    if package is None:
        return None
    if package not in _stats_found:
        _stats_found[package] = _optional(package + ".stats")
    return _stats_found[package]


def _optional(module: str):
    try:
        return importlib.import_module(module)
    except ModuleNotFoundError as exc:
        if exc.name != module:
            raise
        return None


def camera_setups() -> tuple:
    """The `camera_setup` modules of the games that have one (see above), in shelf order."""
    found = (_optional(g.package + ".camera_setup") for g in games())
    return tuple(m for m in found if m is not None)


def camera(name: str):
    """The game's `camera` module (see above), or None: the game brings no camera reader or
    part of the simulated table of its own, or this build does not know it."""
    package = next((g.package for g in games() if g.name == name), None)
    if package is None:
        return None
    if package not in _camera_found:
        _camera_found[package] = _optional(package + ".camera")
    return _camera_found[package]


def camera_readers(name: str) -> dict:
    """The camera readers the game brings, by kind (`camera.READERS`): {} for none."""
    return dict(getattr(camera(name), "READERS", {}))


def scene_part(name: str):
    """The game's part of the simulated table (`camera.SCENE_PART`), or None."""
    return getattr(camera(name), "SCENE_PART", None)


def verbs(name: str) -> dict:
    """The scriptable subcommands a game offers (`odds`, `score`, `solve`, `demo`, ...)."""
    module = _optional(info(name).package + ".commands")
    return dict(module.VERBS) if module else {}
