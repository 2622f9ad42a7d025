"""The camera's readers, one small adapter per kind a game may ask for (`ReaderSpec.kind`):

    want(spec)   the spec the game's state asks for now, or None (not wanted: read nothing)
    read(image)  the readings one frame brings, as events for the runtime

`want` is called on the engine's thread, `read` on the camera's: an adapter only records
the spec in `want` and acts on it in `read`. Each loads its calibration the first time it
reads (seconds of work on a rendered table: on the camera's thread, never the screen's),
from the simulated table's own or from its file beside the ball camera's; a missing or bad
one is said once and that reader stays off, so the game goes on by touch.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from companion.cues import Announce, Cue
from companion.events import Event
from companion.game import ReaderSpec

KINDS = ("balls", "cards", "ring", "node")  # what the camera serves, as ReaderSpec.kind


class Reader(Protocol):
    off: bool  # it cannot read (no calibration to use): the camera need not run for it

    def want(self, spec: ReaderSpec | None) -> None: ...

    def read(self, image) -> list[Event]: ...


@dataclass
class Setup:
    """What every adapter shares: where its calibration comes from, how sure a reading must
    be, the simulated scene (None with a real camera) and where to say things."""

    simulate: bool
    calibration_file: Path | None
    ask_threshold: float
    on_cue: Callable[[Cue], None]
    scene: Any = None  # companion.runtime.sim_scene.SimulatedScene in simulation
    reading: threading.Event = field(default_factory=threading.Event)  # a reader read a frame
    round_began: Any = None  # a real table's frame as the ball round began (cards' background)
    _loaded: dict = field(default_factory=dict)

    def calibration(
        self, name: str, simulated: Callable[[], Any], real: Callable[[Path], Any], variant=None
    ):
        """The calibration `name` ("balls", "ring", "node"): the rendered table's (one per
        `variant` of it), or loaded from its file; None (said once) when there is none."""
        key = (name, variant if self.simulate else None)
        if key not in self._loaded:
            if self.simulate:  # one rendered table's calibration at a time
                self._loaded = {k: v for k, v in self._loaded.items() if k[0] != name}
            self._loaded[key] = self._load(name, simulated, real)
            if self.simulate:
                from companion import memory
                from vision.render.tray import clear_caches

                clear_caches()  # learning rendered every light; the scene needs one
                memory.give_back()  # ... and the freed megabytes go back to the system
        return self._loaded[key]

    def preset(self, name: str, calibration) -> None:
        """Use this calibration for `name` (a calibration screen just learnt one, a test)."""
        self._loaded[(name, None)] = calibration

    def path(self, name: str) -> Path | None:
        from companion import paths

        if self.calibration_file is None:
            return None
        directory = self.calibration_file.parent
        return {
            "balls": self.calibration_file,
            "ring": paths.ring_calibration_path(directory),
            "node": paths.node_calibration_path(directory),
        }[name]

    def _load(self, name: str, simulated, real):
        from companion.errors import CompanionError

        what = {"balls": "camera", "ring": "Laser ring", "node": "Node table"}[name]
        try:
            if self.simulate:
                return simulated()
            path = self.path(name)
            if path is None or not path.exists():
                self.on_cue(Announce(HOW_TO_CALIBRATE[name]))
                return None
            return real(path)
        except (CompanionError, OSError, ValueError) as exc:
            self.on_cue(Announce(f"The {what} calibration cannot be used ({exc}); tap it in."))
            return None


HOW_TO_CALIBRATE = {
    "balls": "The camera is not calibrated yet: tap the balls and cards in, and set the "
    "camera up in Settings, Camera set-up.",
    "ring": "The camera does not know the Laser ring yet: enter the board by touch, and "
    "set the ring up in Settings, Camera set-up.",
    "node": "The camera does not know the Node table yet: enter the cards by touch, and "
    "set the table up in Settings, Camera set-up.",
}
