"""A Laser solution as people read it: the moves (a mix or the cat's one move) and the
solver's answer for a position."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..board import COLOURS, TILES, Card, distance


@dataclass(frozen=True)
class Move:
    """One step of a solution: a mix (figure from src onto dst) or the cat's one move."""

    kind: str  # "mix" | "cat"
    src: int
    dst: int
    steps: int  # tiles travelled
    clockwise: bool
    cost: int  # movement points paid
    colour: int  # the moving figure (cat: the figure it removes)
    onto: int | None = None  # mix: the figure it lands on
    makes: int | None = None  # mix: the colour placed on dst
    completes: Card | None = None

    @property
    def removed(self) -> int:
        return 2 if self.kind == "mix" else 1

    def to_json(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "from": self.src,
            "to": self.dst,
            "steps": self.steps,
            "direction": "clockwise" if self.clockwise else "anticlockwise",
            "cost": self.cost,
            "colour": COLOURS[self.colour],
            "onto": None if self.onto is None else COLOURS[self.onto],
            "makes": None if self.makes is None else COLOURS[self.makes],
            "completes": None if self.completes is None else self.completes.label(),
        }

    def describe(self) -> str:
        way = "clockwise" if self.clockwise else "anticlockwise"
        tiles = f"{self.steps} tile{'s' if self.steps != 1 else ''} {way}"
        done = f", completes {self.completes.label()}" if self.completes else ""
        if self.kind == "cat":
            return (
                f"cat {self.src}->{self.dst} ({tiles}, {self.cost} MP) "
                f"takes {COLOURS[self.colour]}{done}"
            )
        return (
            f"{COLOURS[self.colour]} {self.src}->{self.dst} ({tiles}, {self.cost} MP) onto "
            f"{COLOURS[self.onto]} makes {COLOURS[self.makes]}{done}"
        )


@dataclass(frozen=True)
class Solution:
    min_cost: int | None  # None: no solution within max_cost
    moves: tuple[Move, ...]  # one optimal solution (the one removing most figures)
    removed: int  # figures that solution removes
    max_removed: int  # most figures removable at the optimal cost
    impossible: bool  # no solution at any cost
    exact_totals: tuple[int, ...]  # team: every bid 2-10 that can be spent exactly
    solved: bool = True  # False: the search stopped at its limit (see `note`)
    note: str = ""  # why it is not solved, for people: "not solved within 5 s"

    def to_json(self) -> dict[str, Any]:
        return {
            "min_cost": self.min_cost,
            "moves": [m.to_json() for m in self.moves],
            "removed": self.removed,
            "max_removed": self.max_removed,
            "impossible": self.impossible,
            "exact_totals": list(self.exact_totals),
            "solved": self.solved,
            **({} if self.solved else {"note": self.note}),
        }


def as_move(raw: Move | dict) -> Move:
    """A move as given (a Move, or its JSON with "kind", "from", "to", optional "direction")."""
    if isinstance(raw, Move):
        return raw
    kind = raw.get("kind", "mix")
    src, dst = int(raw["from"]), int(raw["to"])
    short = distance(src, dst)
    cw_short = (dst - src) % TILES == short
    clockwise = raw["direction"] == "clockwise" if "direction" in raw else cw_short
    steps = (dst - src) % TILES if clockwise else (src - dst) % TILES
    return Move(kind, src, dst, steps, clockwise, 0, -1)
