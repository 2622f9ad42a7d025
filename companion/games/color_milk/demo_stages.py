"""The simulated stages of `companion demo color-milk`'s pipeline: the tray rendered as frames
and read by the real ball reader, the seats' card zones read by the app's card adapter, and
whether each stage (those two, the simulated table) is installed: when one is missing, the
demo replaces it and says so."""

from __future__ import annotations

from dataclasses import replace

from companion.errors import UsageError
from companion.events import BallSeen, Event
from companion.games.color_milk import GAME
from companion.games.color_milk.rules import SENSOR_MAX
from companion.runtime.read_cards import CardAdapter
from companion.runtime.readers import Setup
from companion.runtime.sim_scene import BACK
from companion.runtime.sim_tray import SimulatedTray

REST_FRAMES = 3  # still frames of each ball: the reader wants a few to agree


class Camera:
    """Rendered tray frames read by the real ball reader."""

    def __init__(self, light: str, seed: int, threshold: float) -> None:
        from vision.balls import BallReader
        from vision.learn import rendered_calibration
        from vision.render.tray import LIGHTS

        if light != "all" and light not in LIGHTS:
            raise UsageError(f"unknown light {light!r} (have: {', '.join(LIGHTS)})")
        self.light, self.seed, self.lights = light, seed, LIGHTS
        self.reader = BallReader(rendered_calibration(seed=0), ask_threshold=threshold)
        self.rounds = 0
        self.frames = 0

    def read(self, balls: list[str]) -> list[BallSeen]:
        from vision.render.tray import arrival_frames

        self.rounds += 1
        self.reader.reset()  # the first frame is the empty tray
        out: list[BallSeen] = []
        scene = self.seed * 1000 + self.rounds
        light = self.lights[self.rounds % len(self.lights)] if self.light == "all" else self.light
        for frame in arrival_frames(balls, light, scene, rest_frames=REST_FRAMES):
            out += self.reader.feed(frame)
            self.frames += 1
        # Only a person is certain: a camera reading never counts as a tap.
        return [replace(r, confidence=min(r.confidence, SENSOR_MAX)) for r in out]


class CardCamera:
    """The seats' card zones on the rendered table (with the round's balls in the tray),
    read by the app's card adapter while the game wants cards read."""

    def __init__(self, light: str, threshold: float, on_cue) -> None:
        from types import SimpleNamespace

        from vision.render.tray import LIGHTS

        self.light, self.lights = light, LIGHTS
        self.tray = SimulatedTray(LIGHTS[0] if light == "all" else light)
        # what the adapter needs of the scene: the tray, and the empty table as seen
        scene = SimpleNamespace(tray=self.tray, empty_tray=lambda: self.tray.frame(0, empty=True))
        self.adapter = CardAdapter(Setup(True, None, threshold, on_cue, scene))
        self.rounds = 0
        self.frames = 0

    def balls(self, balls: list[str]) -> None:
        """A new round's balls roll into the tray (under the ball camera's light)."""
        self.rounds += 1
        if self.light == "all":
            self.tray.light = self.lights[self.rounds % len(self.lights)]
        self.tray.clear()
        for colour in balls:
            self.tray.add(colour)

    def lay(self, seat: int, count: int) -> None:
        self.tray.lay(f"seat{seat + 1}", (BACK,) * count)

    def reveal(self, seat: int, colours: tuple[str, ...]) -> None:
        self.tray.lay(f"seat{seat + 1}", colours)

    def clear(self) -> None:
        self.tray.clear_cards()

    def look(self, state) -> list[Event]:
        specs = [s for s in GAME.readers(state) if s.kind == "cards"]
        self.adapter.want(specs[0] if specs else None)
        self.frames += 1
        out = self.adapter.read(self.tray.frame(self.frames))
        if not out and specs:  # a new round's reader takes its first frame to start
            out = self.adapter.read(self.tray.frame(self.frames))
        return out


def importable(module: str, *names: str) -> bool:
    """Is this stage of the pipeline installed and whole? (A half-updated package counts
    as missing: the demo then says which stage it replaced.)"""
    import importlib

    try:
        mod = importlib.import_module(module)
    except Exception:  # noqa: BLE001 - any failure to import means the stage is not usable
        return False
    return all(hasattr(mod, n) for n in names)


def vision_ready() -> bool:
    return (
        importable("vision.render.tray", "arrival_frames", "LIGHTS")
        and importable("vision.balls", "BallReader")
        and importable("vision.learn", "rendered_calibration")
    )


def card_vision_ready() -> bool:
    return importable("vision.render.cards", "render_seats", "seat_calibration") and importable(
        "vision.card_zones", "ZoneReader"
    )


def hardware_ready() -> bool:
    return importable("hardware.sim_table", "open_simulated_table")
