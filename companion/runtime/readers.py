"""The camera's readers, one small adapter per kind a game may ask for (`ReaderSpec.kind`):
the shared ones here (the tray's balls, its card zones: read_balls.py, read_cards.py), and
those a game brings in its own `camera` module (see companion.catalogue):

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

SHARED_KINDS = ("balls", "cards")  # what the camera serves every game, as ReaderSpec.kind
STALE_FRAMES = 2  # after an emptied tray: the camera's buffered frame and the one in capture
# Seconds between two reads of a view that has not changed (vision.feed.VisionFeed: after
# every change, and every time the game wants something else read, the view is read at full
# pace for the readers' steady frames). A reader whose waits are counted in frames read wants
# a still view read often; one that needs only its steady frames looks again now and then,
# for a change too small for the feed to see.
STILL_GAP = 2.0
SETTLED_GAP = 6.0


class Reader(Protocol):
    off: bool  # it cannot read (no calibration to use): the camera need not run for it
    still_gap: float  # see STILL_GAP; the camera re-reads a still view for the neediest

    def want(self, spec: ReaderSpec | None) -> None: ...

    def read(self, image) -> list[Event]: ...


@dataclass(frozen=True)
class CalibrationFile:
    """A reader's calibration: `name` (one of each is kept), what people call it, its file
    given the ball camera's (the others lie beside it), and how to make one (said when a
    real table has none)."""

    name: str
    what: str
    path: Callable[[Path], Path]
    how_to: str


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
        self,
        file: CalibrationFile,
        simulated: Callable[[], Any],
        real: Callable[[Path], Any],
        variant=None,
    ):
        """The reader's calibration: the rendered table's (one per `variant` of it), or
        loaded from its file; None (said once) when there is none."""
        name = file.name
        key = (name, variant if self.simulate else None)
        if key not in self._loaded:
            if self.simulate:  # one rendered table's calibration at a time
                self._loaded = {k: v for k, v in self._loaded.items() if k[0] != name}
            self._loaded[key] = self._load(file, simulated, real)
            if self.simulate:
                from companion import memory
                from vision.render.tray import clear_caches

                clear_caches()  # learning rendered every light; the scene needs one
                memory.give_back()  # ... and the freed megabytes go back to the system
        return self._loaded[key]

    def preset(self, name: str, calibration) -> None:
        """Use this calibration for `name` (a calibration screen just learnt one, a test)."""
        self._loaded[(name, None)] = calibration

    def path(self, file: CalibrationFile) -> Path | None:
        if self.calibration_file is None:
            return None
        return file.path(self.calibration_file)

    def _load(self, file: CalibrationFile, simulated, real):
        from companion.errors import CompanionError

        try:
            if self.simulate:
                return simulated()
            path = self.path(file)
            if path is None or not path.exists():
                self.on_cue(Announce(file.how_to))
                return None
            return real(path)
        except (CompanionError, OSError, ValueError) as exc:
            self.on_cue(Announce(f"The {file.what} calibration cannot be used ({exc}); tap it in."))
            return None
