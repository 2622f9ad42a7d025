"""The runtime is shared code: it imports no game and names none. Each game's camera readers
and part of the simulated table come from the game's own `camera.py`, found through the
catalogue."""

import ast
from pathlib import Path

import companion.runtime as runtime
from companion import catalogue

RUNTIME = Path(runtime.__file__).parent


def test_no_runtime_module_imports_or_names_a_game():
    names = {g.name for g in catalogue.games()} | {g.package for g in catalogue.games()}
    modules = sorted(RUNTIME.glob("*.py"))
    assert len(modules) > 1
    for path in modules:
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom):
                assert not (node.module or "").startswith("companion.games"), path.name
            elif isinstance(node, ast.Import):
                assert not any(a.name.startswith("companion.games") for a in node.names)
            elif isinstance(node, ast.Constant) and isinstance(node.value, str):
                assert node.value not in names, (path.name, node.value)


def test_the_games_bring_their_own_readers():
    assert set(catalogue.camera_readers("laser")) == {"ring"}
    assert set(catalogue.camera_readers("node")) == {"node"}
    assert catalogue.camera_readers("color-milk") == {}  # the shared balls and cards
    assert catalogue.camera_readers("kritters") == {}  # no camera module at all
    assert catalogue.scene_part("kritters") is None
    assert catalogue.camera_readers("a game of another build") == {}
