"""The Laser board: colours, the mixing circle, floors, and a validated position.

Colours are indices 0-5 on the circle red-yellow-green-cyan-blue-magenta. Two colours mix
iff they are two apart on the circle; the product is the colour between them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from companion.errors import UsageError

COLOURS = ("red", "yellow", "green", "cyan", "blue", "magenta")
LETTERS = ("R", "Y", "G", "C", "B", "M")
FLOORS = ("wood", "carpet", "ceramic")
TEAM, COMPETITIVE = "team", "competitive"
MODES = (TEAM, COMPETITIVE)
TILES = 12
FIGURES_PER_COLOUR = 4
CARD_CAPACITY = 2  # spare figures a colour card holds
CAT_COST = {TEAM: 2, COMPETITIVE: 1}


def chosen_mode(mode: str, players: int) -> str:
    """The mode a game of `players` plays: "auto" is team mode from 3 players."""
    if mode == "auto":
        return TEAM if players >= 3 else COMPETITIVE
    return mode


def mix(a: int, b: int) -> int | None:
    """The colour two figures make, or None if they cannot mix."""
    if (b - a) % 6 == 2:
        return (a + 1) % 6
    if (a - b) % 6 == 2:
        return (b + 1) % 6
    return None


def parents(x: int) -> tuple[int, int]:
    """The two colours that mix into `x`: its neighbours on the circle."""
    return ((x - 1) % 6, (x + 1) % 6)


def distance(a: int, b: int) -> int:
    """Tiles between two positions the short way round."""
    d = abs(a - b) % TILES
    return min(d, TILES - d)


# lookup tables for the solver's inner loops
MIXES = tuple(tuple(mix(a, b) for b in range(6)) for a in range(6))
TILE_DISTANCE = tuple(tuple(distance(a, b) for b in range(TILES)) for a in range(TILES))


def colour_index(name: Any, what: str = "colour") -> int:
    if isinstance(name, str) and name.strip().lower() in COLOURS:
        return COLOURS.index(name.strip().lower())
    raise UsageError(f"unknown {what} {name!r} (use one of: {', '.join(COLOURS)})")


def floor_index(name: Any) -> int:
    if isinstance(name, str) and name.strip().lower() in FLOORS:
        return FLOORS.index(name.strip().lower())
    raise UsageError(f"unknown floor {name!r} (use one of: {', '.join(FLOORS)})")


@dataclass(frozen=True)
class Card:
    """A prism card: a colour, and in competitive mode the floor it must be mixed on."""

    colour: int
    floor: int | None = None

    def label(self) -> str:
        name = COLOURS[self.colour]
        return name if self.floor is None else f"{name} on {FLOORS[self.floor]}"


@dataclass(frozen=True)
class Position:
    """A board at the start of a solve: 12 tiles clockwise (colour index or None), the
    floors (competitive), the cat's tile, the spare figures on each colour card, the cards."""

    mode: str
    tiles: tuple[int | None, ...]
    cat: int
    supply: tuple[int, ...]
    cards: tuple[Card, ...]
    floors: tuple[int, ...] | None = None

    def __post_init__(self) -> None:
        validate(self)

    @property
    def cat_cost(self) -> int:
        return CAT_COST[self.mode]

    def figures_in_play(self, colour: int) -> int:
        return sum(1 for t in self.tiles if t == colour) + self.supply[colour]

    def to_json(self) -> dict[str, Any]:
        return {
            "mode": self.mode,
            "tiles": [None if t is None else COLOURS[t] for t in self.tiles],
            "floors": None if self.floors is None else [FLOORS[f] for f in self.floors],
            "cat": self.cat,
            "supply": {COLOURS[i]: n for i, n in enumerate(self.supply)},
            "cards": [
                {"colour": COLOURS[c.colour], "floor": None if c.floor is None else FLOORS[c.floor]}
                for c in self.cards
            ],
        }


def validate(pos: Position) -> None:
    """Raise UsageError (one line) for a position that cannot be on the table."""
    if pos.mode not in MODES:
        raise UsageError(f"mode must be 'team' or 'competitive', not {pos.mode!r}")
    if len(pos.tiles) != TILES:
        raise UsageError(f"the board has {TILES} tiles, got {len(pos.tiles)}")
    for i, t in enumerate(pos.tiles):
        if t is not None and not (isinstance(t, int) and 0 <= t < 6):
            raise UsageError(f"tile {i} holds an unknown figure {t!r}")
    if not isinstance(pos.cat, int) or isinstance(pos.cat, bool) or not 0 <= pos.cat < TILES:
        raise UsageError(f"the cat must stand on a tile 0-{TILES - 1}, not {pos.cat!r}")
    if pos.tiles[pos.cat] is not None:
        raise UsageError(
            f"tile {pos.cat} holds a {COLOURS[pos.tiles[pos.cat]]} figure under the cat; "
            "the cat stands on an empty tile"
        )
    if len(pos.supply) != 6 or any(not 0 <= n <= CARD_CAPACITY for n in pos.supply):
        raise UsageError(f"each colour card holds 0-{CARD_CAPACITY} spare figures")
    for c in range(6):
        n = pos.figures_in_play(c)
        if n > FIGURES_PER_COLOUR:
            raise UsageError(
                f"{n} {COLOURS[c]} figures in play (board + colour card); "
                f"the game has only {FIGURES_PER_COLOUR}"
            )
    if len(pos.cards) < 1:
        raise UsageError("at least one prism card is needed")
    if pos.mode == COMPETITIVE:
        if pos.floors is None or len(pos.floors) != TILES:
            raise UsageError(f"competitive mode needs {TILES} floors, one per tile")
        if any(c.floor is None for c in pos.cards):
            raise UsageError("competitive prism cards need a floor (wood, carpet or ceramic)")
    for card in pos.cards:
        if pos.cards.count(card) > 2:
            raise UsageError(f"the deck has only two {card.label()} cards")


def _field(data: Mapping[str, Any], key: str, default: Any = ...) -> Any:
    if key in data:
        return data[key]
    if default is ...:
        raise UsageError(f"missing field {key!r}")
    return default


def position_from_json(data: Any) -> Position:
    """Parse the CLI's JSON position; every mistake is a one-line UsageError."""
    if not isinstance(data, Mapping):
        raise UsageError("the position must be a JSON object")
    mode = _field(data, "mode", TEAM)
    if mode not in MODES:
        raise UsageError(f"mode must be 'team' or 'competitive', not {mode!r}")
    raw_tiles = _field(data, "tiles")
    if not isinstance(raw_tiles, Sequence) or isinstance(raw_tiles, str):
        raise UsageError("tiles must be a list of 12 colour names or null")
    if len(raw_tiles) != TILES:
        raise UsageError(f"the board has {TILES} tiles, got {len(raw_tiles)}")
    tiles = []
    for i, t in enumerate(raw_tiles):
        if t is None:
            tiles.append(None)
        elif isinstance(t, str):
            tiles.append(colour_index(t, f"colour on tile {i}:"))
        else:
            raise UsageError(
                f"tile {i} must hold one colour name or null, not {t!r} (one figure per tile)"
            )
    floors = None
    if mode == COMPETITIVE:
        raw_floors = _field(data, "floors")
        if not isinstance(raw_floors, Sequence) or len(raw_floors) != TILES:
            raise UsageError(f"floors must be a list of {TILES} floor names")
        floors = tuple(floor_index(f) for f in raw_floors)
    cat = _field(data, "cat")
    if not isinstance(cat, int) or isinstance(cat, bool):
        raise UsageError(f"cat must be a tile index 0-{TILES - 1}, not {cat!r}")
    raw_supply = _field(data, "supply", {c: CARD_CAPACITY for c in COLOURS})
    if not isinstance(raw_supply, Mapping):
        raise UsageError('supply must be an object like {"red": 2, ...}')
    supply = [0] * 6
    for name, n in raw_supply.items():
        if not isinstance(n, int) or isinstance(n, bool):
            raise UsageError(f"supply of {name!r} must be a whole number")
        supply[colour_index(name, "supply colour")] = n
    raw_cards = _field(data, "cards")
    if not isinstance(raw_cards, Sequence) or isinstance(raw_cards, str):
        raise UsageError('cards must be a list like [{"colour": "blue", "floor": null}]')
    cards = []
    for c in raw_cards:
        if isinstance(c, str):
            c = {"colour": c}
        if not isinstance(c, Mapping):
            raise UsageError(f"a card must be an object with a colour, not {c!r}")
        colour = colour_index(_field(c, "colour"), "card colour")
        fl = c.get("floor")
        floor = floor_index(fl) if (fl is not None and mode == COMPETITIVE) else None
        cards.append(Card(colour, floor))
    return Position(mode, tuple(tiles), cat, tuple(supply), tuple(cards), floors)
