"""Scriptable tools: `companion demo node`."""

from __future__ import annotations


def demo(argv: list[str]) -> int:
    from companion.games.node.demo import main

    return main(argv)


VERBS = {"demo": demo}
