"""One reading of the Node table: the card just laid, where, and its colours, or why none."""

from __future__ import annotations

from dataclasses import dataclass, field

Placement = tuple[int, int, int, int]  # row, col, rows, cols


@dataclass(frozen=True)
class NodeReading:
    """One reading. `status`: "placed" (sure), "ask" (a person must confirm: see `reason`),
    "nothing" (no card was laid), "unsteady" (a hand or too much changed) or "moved" (the
    lattice cannot be found: the camera or the mat moved).

    `colours` are the card's rows as they lie, `confidence` and `candidates` (likely colours,
    best first) per node in the same order; (`row`, `col`) is the grid node under its
    top-left node; `alternatives` other (row, col, rows, cols) the card could lie on."""

    status: str
    reason: str = ""
    row: int = 0
    col: int = 0
    colours: tuple[tuple[str, ...], ...] = ()
    confidence: tuple[tuple[float, ...], ...] = ()
    candidates: tuple[tuple[tuple[str, ...], ...], ...] = ()
    offset: tuple[float, float] = (0.0, 0.0)
    angle: float = 0.0
    alternatives: tuple[Placement, ...] = field(default=())

    @property
    def shape(self) -> tuple[int, int]:
        return (len(self.colours), len(self.colours[0])) if self.colours else (0, 0)

    @property
    def ask(self) -> bool:
        return self.status == "ask"

    @property
    def cells(self) -> tuple[tuple[int, int], ...]:
        h, w = self.shape
        return tuple((self.row + i, self.col + j) for i in range(h) for j in range(w))

    def to_json(self) -> dict:
        h, w = self.shape
        return {
            "status": self.status,
            "ask": self.ask,
            "reason": self.reason,
            "row": self.row,
            "col": self.col,
            "rows": h,
            "cols": w,
            "cells": [list(c) for c in self.cells],
            "colours": [list(r) for r in self.colours],
            "confidence": [list(r) for r in self.confidence],
            "candidates": [[list(c) for c in r] for r in self.candidates],
            "offset": list(self.offset),
            "angle": self.angle,
            "alternatives": [
                {
                    "row": r,
                    "col": c,
                    "rows": hh,
                    "cols": ww,
                    "cells": [[r + i, c + j] for i in range(hh) for j in range(ww)],
                }
                for r, c, hh, ww in self.alternatives
            ],
        }
