"""How long an Elios step and a Node card take on a Pi-sized budget, late in a game.

    PYTHONPATH=. python benchmarks/elios_node.py

Prints microseconds per call for: an Elios turn; a Node placement check (what the screen runs
on every finger move); a Node placement with its captures; the full search for a legal spot
(what a checked discard runs); and the incremental clusters against a flood fill of the whole
table after every card.
"""

from __future__ import annotations

import contextlib
import random
import time

from companion.catalogue import load
from companion.errors import IllegalMove
from companion.game import GameConfig
from companion.games.elios import JOKER, AddDisc, PlaceGroup, Ready
from companion.games.node import PlaceCard
from companion.games.node.geometry import components

ELIOS, NODE = load("elios"), load("node")
COLOURS = ("red", "yellow", "green", "blue", "purple")


def per_call(fn, n: int) -> float:
    start = time.perf_counter()
    for _ in range(n):
        fn()
    return (time.perf_counter() - start) / n * 1e6


def late_node_table(cards: int = 40, seed: int = 3):
    rng = random.Random(seed)
    state = NODE.initial_state(GameConfig(("ann", "bob")))
    placed = 0
    while placed < cards:
        card = tuple(rng.choice(rng.sample(COLOURS, 2)) for _ in range(6))
        spots = NODE.legal_placements(state, card)
        if spots:
            state, _ = NODE.apply(state, PlaceCard(state.current, card, *rng.choice(spots)))
            placed += 1
            if NODE.is_over(state):
                return late_node_table(cards, seed + 1)
    return state, rng


def flood_fill_all(state) -> int:
    by_colour: dict[str, list] = {}
    for r, line in enumerate(state.grid):
        for c, colour in enumerate(line):
            if colour:
                by_colour.setdefault(colour, []).append((r, c))
    return sum(len(components(cells)) for cells in by_colour.values())


def main() -> None:
    s = ELIOS.initial_state(GameConfig(("ann", "bob")))
    s, _ = ELIOS.apply(s, Ready("bob", (3,) * 6))
    s, _ = ELIOS.apply(s, Ready("ann", (3,) * 5 + (2, 1)))
    s, _ = ELIOS.apply(s, PlaceGroup("ann", (("red", JOKER),)))
    s, _ = ELIOS.apply(s, AddDisc("bob"))
    group = PlaceGroup("ann", (("blue", "blue"), ("green", "green"), ("pink", "pink")))
    disc = AddDisc("ann")
    place_us = per_call(lambda: ELIOS.apply(s, group), 2000)
    disc_us = per_call(lambda: ELIOS.apply(s, disc), 2000)
    print(f"elios  place a group                  {place_us:8.1f} us")
    print(f"elios  add a disc                     {disc_us:8.1f} us")

    state, rng = late_node_table()
    card = tuple(rng.choice(rng.sample(COLOURS, 2)) for _ in range(6))
    spots = NODE.legal_placements(state, card) or [(0, 0, 0)]
    row, col, rot = spots[0]
    filled = sum(c is not None for line in state.grid for c in line)
    print(
        f"node   table 20x14, {state.played} cards, {filled} nodes, {len(state.clusters)} clusters"
    )
    check = per_call(lambda: _try(state, card, row, col, rot), 2000)
    print(f"node   placement check (finger move)  {check:8.1f} us")
    event = PlaceCard(state.current, card, row, col, rot)
    place = per_call(lambda: NODE.apply(state, event), 500)
    print(f"node   place a card with captures     {place:8.1f} us")
    search = per_call(lambda: NODE.legal_placements(state, card), 50)
    print(f"node   every legal spot for a card    {search:8.1f} us")
    fill = per_call(lambda: flood_fill_all(state), 200)
    print(f"node   flood fill of the whole table  {fill:8.1f} us")
    print(f"node   placement / full flood fill    {place / fill:8.2f}x")


def _try(state, card, row, col, rot):
    with contextlib.suppress(IllegalMove):
        NODE.check_placement(state, card, row, col, rot)


if __name__ == "__main__":
    main()
