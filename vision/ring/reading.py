"""One frame's reading of the ring: per tile what stands on it, per colour card how many spare
figures, each with its confidence and whether to ask."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from vision.ring.calibration import EMPTY

ASK_BELOW = 0.8  # the app's default ask threshold: readings less sure are asked

COVERED = "covered"  # something from outside lies over the piece
NOT_FOUND = "not found"  # the piece was not found on the empty ring


@dataclass(frozen=True)
class RingReading:
    """One frame's reading. Per tile: a colour, "cat" or None (empty); the classifier's
    confidence; whether to ask (below the threshold, or `doubt` says why not to trust it);
    the likely answers, best first; where the tile's centre is. Per colour card: how many
    spare figures stand on it, with the same."""

    tiles: tuple[str | None, ...] = ()
    confidence: tuple[float, ...] = ()
    candidates: tuple[tuple[str, ...], ...] = ()
    doubt: tuple[str | None, ...] = ()
    where: tuple[tuple[float, float] | None, ...] = ()
    spares: Mapping[str, int] = field(default_factory=dict)
    spare_confidence: Mapping[str, float] = field(default_factory=dict)
    spare_doubt: Mapping[str, str | None] = field(default_factory=dict)
    threshold: float = ASK_BELOW

    @property
    def ask(self) -> tuple[bool, ...]:
        return tuple(
            d is not None or c < self.threshold
            for c, d in zip(self.confidence, self.doubt, strict=True)
        )

    @property
    def asked(self) -> tuple[int, ...]:
        return tuple(i for i, a in enumerate(self.ask) if a)

    @property
    def asked_cards(self) -> tuple[str, ...]:
        return tuple(
            c
            for c in self.spares
            if self.spare_doubt.get(c) is not None or self.spare_confidence[c] < self.threshold
        )

    @property
    def hand(self) -> bool:
        """Something from outside (a hand, an arm) lies over a tile or a card."""
        return COVERED in self.doubt or COVERED in self.spare_doubt.values()

    def to_json(self) -> dict[str, Any]:
        ask = self.ask
        return {
            "tiles": [
                {
                    "tile": k + 1,
                    "what": self.tiles[k],
                    "confidence": round(self.confidence[k], 3),
                    "ask": ask[k],
                    "candidates": [c if c != EMPTY else None for c in self.candidates[k]],
                    "doubt": self.doubt[k],
                    "where": None
                    if self.where[k] is None
                    else [round(v, 1) for v in self.where[k]],
                }
                for k in range(len(self.tiles))
            ],
            "spares": {
                c: {
                    "count": n,
                    "confidence": round(self.spare_confidence[c], 3),
                    "ask": c in self.asked_cards,
                    "doubt": self.spare_doubt.get(c),
                }
                for c, n in self.spares.items()
            },
            "threshold": self.threshold,
            "hand": self.hand,
        }
