"""What the rules-shape tests of every game share (tests/<game>/test_flow.py)."""

from __future__ import annotations

import ast
from pathlib import Path


def imported(path: Path, package: str) -> set[str]:
    """The modules of `package` (e.g. "companion.games.laser") a file imports, and the names
    it takes from them, by their last name (rules, flow, GAME, ...)."""
    names = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom):
            module = node.module or ""
            if node.level or module.startswith(package):
                names.add(module.rsplit(".", 1)[-1])
                names.update(alias.name for alias in node.names)
    return names
