"""The Node table's calibration: the lattice as the calibration frame showed it, the card's
shape and the node colours; written atomically, the file it replaces kept."""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path

from vision.calibration import previous_path
from vision.classify import Prototype
from vision.errors import CalibrationError
from vision.node.grid import Grid

FORMAT = "node-table-calibration"
VERSION = 2
NODE_SET = "node"  # the calibration's set of node colours


@dataclass(frozen=True)
class NodeCalibration:
    """What the reader needs to find the table again and read its cards: the lattice as the
    calibration frame showed it (`grid`, in that frame's pixels, `frame_size`), whether its
    printed lines are darker than the mat, the card shape (nodes across, down as printed)
    and the node colours (one prototype set, `NODE_SET`)."""

    grid: Grid
    frame_size: tuple[int, int]
    prototypes: tuple[Prototype, ...]
    dark_lines: bool = True
    card: tuple[int, int] = (3, 2)

    @property
    def colours(self) -> tuple[str, ...]:
        return tuple(sorted({p.colour for p in self.prototypes}))

    def grid_for(self, size: tuple[int, int]) -> Grid:
        """The calibration's lattice in frames of `size` (width, height)."""
        if tuple(size) == tuple(self.frame_size):
            return self.grid
        return self.grid.scaled(size[0] / self.frame_size[0])

    def to_json(self) -> dict:
        return {
            "format": FORMAT,
            "version": VERSION,
            "frame_size": list(self.frame_size),
            "grid": self.grid.to_json(),
            "lines": "dark" if self.dark_lines else "light",
            "card": list(self.card),
            "prototypes": [
                {
                    "colour": p.colour,
                    "lab": list(p.lab),
                    "sigma": p.sigma,
                    "samples": p.samples,
                    "set": p.set,
                }
                for p in self.prototypes
            ],
        }

    @classmethod
    def from_json(cls, data) -> NodeCalibration:
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            raise CalibrationError(f'not a Node table calibration (no "format": "{FORMAT}")')
        if data.get("version") != VERSION:
            raise CalibrationError(
                "a Node table calibration from an older version (it has no lattice): set up "
                "the Node table again"
            )
        try:
            grid = Grid.from_json(data["grid"])
            w, h = (int(v) for v in data["frame_size"])
            card = tuple(int(v) for v in data.get("card", (3, 2)))
            lines = data.get("lines", "dark")
            protos = tuple(
                Prototype(
                    str(p["colour"]),
                    tuple(float(v) for v in p["lab"]),
                    float(p["sigma"]),
                    int(p.get("samples", 1)),
                    str(p.get("set", NODE_SET)),
                )
                for p in data["prototypes"]
            )
        except KeyError as exc:
            raise CalibrationError(f"Node table calibration without {exc.args[0]!r}") from None
        except (TypeError, ValueError) as exc:
            raise CalibrationError(f"damaged Node table calibration: {exc}") from None
        if lines not in ("dark", "light") or len(card) != 2 or min(card) < 1:
            raise CalibrationError("damaged Node table calibration: lines or card shape")
        if w <= 0 or h <= 0 or grid.pitch <= 0 or not protos:
            raise CalibrationError(
                "a Node table calibration needs a frame size, a lattice with a positive pitch "
                "and colour prototypes"
            )
        if min(grid.cols, grid.rows) < max(card):
            raise CalibrationError("the lattice is smaller than a card")
        return cls(grid, (w, h), protos, lines == "dark", card)

    def save(self, path: str | Path) -> None:
        """Write atomically (a power cut leaves the old file or the new one), the file it
        replaces kept as `<name>.previous.json`."""
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        if path.exists():
            keep = previous_path(path)
            os.replace(_written(keep, path.read_bytes()), keep)
        os.replace(_written(path, json.dumps(self.to_json(), indent=1).encode()), path)

    @classmethod
    def load(cls, path: str | Path) -> NodeCalibration:
        try:
            return cls.from_json(json.loads(Path(path).read_text()))
        except json.JSONDecodeError as exc:
            raise CalibrationError(f"not JSON ({exc.msg}, line {exc.lineno})") from None
        except UnicodeDecodeError:
            raise CalibrationError("not JSON (not text at all)") from None


def _written(path: Path, data: bytes) -> Path:
    """`data` in a temporary file beside `path`, on the disk."""
    tmp = path.with_name(path.name + ".tmp")
    with open(tmp, "wb") as f:
        f.write(data)
        f.flush()
        os.fsync(f.fileno())
    return tmp
