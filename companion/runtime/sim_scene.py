"""What the simulated table's camera looks at: the game in play, as it is being played.

The table is the tray (the balls dropped down the simulated chute, the cards laid in its
zones: sim_tray.py) and whatever a game lays besides, its own part of the table (a game's
`camera.SCENE_PART`, see companion.catalogue: the tray's card zones by default). The simulated
strip and keys act on it ("lay", "reveal") as people would at the table; the readers see it
through the same camera link as a real table. Each picture is drawn again only when
something on it changed.
"""

from __future__ import annotations

import math
import random

from companion import catalogue
from companion.runtime.sim_tray import BALL_COLOURS, SimulatedTray
from hardware.sim_hands import SIM_KEYS

BACK = "back"  # a card lying face down (vision.card_zones.BACK)
SEATS = 5  # card zones in front of the seats
ACTIONS = ("lay", "reveal")  # what the strip's "Lay card" and "Reveal" do
NOTHING = "Nothing to lay or reveal on the table now."
# How far the camera arm gets nudged between games: shift (pixels), turn (degrees), zoom.
NUDGE = (8.0, 3.0, 0.03)


class ScenePart:
    """A game's own part of the simulated table: what it lays there, and where the camera
    looks as the game goes on (`scene.view`). A game's part is made the first time the game
    comes to the table and kept, as the table is, from game to game.

    This one is the part of a game that brings none: the camera looks at the tray, whose
    cards are gathered as each round begins; there is nothing to lay or reveal."""

    def __init__(self, scene: SimulatedScene) -> None:
        self.scene = scene
        self._round = None

    def play(self, state) -> None:
        """The game comes to the table (the tray's cards already gathered)."""
        self._round = getattr(state, "round", None)

    def follow(self, state, kinds: set[str]) -> None:
        """The state changed (`kinds`: the readers it wants): a new round clears the table
        as people would, and the camera looks where the readers do."""
        if getattr(state, "round", None) != self._round:
            self._round = state.round
            self.scene.tray.clear_cards()
        self.scene.view = self.scene.tray

    def act(self, what: str, state, kinds: set[str]) -> str | None:
        """Lay or reveal (`what`: one of ACTIONS) what the game lays next; what happened,
        for people, or None when there is nothing to do."""
        return None


class SimulatedScene:
    """`nudge`: the camera is knocked a little each time a game comes to the table, as a
    real camera arm is, and the readers must find the table again."""

    def __init__(
        self, light: str = "daylight", tray: SimulatedTray | None = None, nudge: bool = False
    ) -> None:
        self.light = light
        self.tray = tray or SimulatedTray(light)
        self.game = ""
        self.rng = random.Random()
        self.nudge = nudge
        self.camera = None  # the nudge in force: a 2x3 affine map of the frame, or None
        self._warped: tuple = (None, None, None)  # (picture, nudge, the picture seen) last
        # What the camera looks at: anything with `frame(i)`, the tray or a game's own
        # picture; one with `own_camera` set nudges its camera itself.
        self.view = self.tray
        self._parts: dict[str, ScenePart] = {}  # game -> its part of the table
        self._playing = ScenePart(self)  # the part of the game in play

    def part(self, game: str) -> ScenePart:
        """The game's part of the table (see ScenePart), made as it first comes."""
        if game not in self._parts:
            self._parts[game] = (catalogue.scene_part(game) or ScenePart)(self)
        return self._parts[game]

    def frame(self, i: int):
        view = self.view
        if getattr(view, "own_camera", False):
            return view.frame(i)
        return self._seen(view.frame(i))

    def empty_tray(self):
        """The tray before this round's balls, as the camera sees it."""
        return self._seen(self.tray.frame(0, empty=True))

    def _seen(self, frame):
        """The picture through the nudged camera: warped once per picture, as each picture
        is drawn once (the camera takes five frames a second of the same picture)."""
        camera = self.camera
        if camera is None:
            return frame
        picture, nudge, seen = self._warped
        if picture is frame and nudge is camera:
            return seen
        import cv2

        h, w = frame.shape[:2]
        seen = cv2.warpAffine(frame, camera, (w, h), borderMode=cv2.BORDER_REPLICATE)
        self._warped = (frame, camera, seen)
        return seen

    def play(self, game: str, state) -> None:
        """A game comes to the table: its own pieces, nothing left from the one before."""
        if self.nudge:
            self._knock()
        self.game, self._playing = game, self.part(game)
        self.tray.clear_cards()
        self._playing.play(state)

    def _knock(self) -> None:
        import numpy as np

        shift, turn, zoom = NUDGE
        a = math.radians(self.rng.uniform(-turn, turn))
        k = 1 + self.rng.uniform(-zoom, zoom)
        w, h = 640, 480  # the frames' size: the nudge turns about their centre
        c, s = k * math.cos(a), k * math.sin(a)
        dx, dy = (self.rng.uniform(-shift, shift) for _ in range(2))
        self.camera = np.array(
            [[c, -s, (1 - c) * w / 2 + s * h / 2 + dx], [s, c, (1 - c) * h / 2 - s * w / 2 + dy]]
        )

    def follow(self, state, kinds: set[str]) -> None:
        """The state changed (`kinds`: the readers it wants): see ScenePart.follow."""
        self._playing.follow(state, kinds)

    def act(self, what: str, state, kinds: set[str]) -> str:
        """Lay or reveal what the game in play lays next; what happened, for people."""
        return self._playing.act(what, state, kinds) or NOTHING


class HandsWithScene:
    """The simulated table's hands (hardware.sim_hands.SimulatedHands), a ball they drop also
    rolling into the rendered tray and the "lay"/"reveal" keys acting on the scene. `draw()`
    picks the colour of a ball dropped without one (None: any colour); `act(what)` does what
    the strip's table buttons do."""

    def __init__(self, hands, scene: SimulatedScene, draw=None, act=None) -> None:
        self._hands, self.scene, self._draw, self._act = hands, scene, draw, act
        self.pins = hands.pins

    def press(self, button: str, seconds: float | None = None):
        return self._hands.press(button, seconds)

    def hold_down(self, button: str) -> None:
        self._hands.hold_down(button)

    def let_go(self, button: str):
        return self._hands.let_go(button)

    def drop_ball(self, colour: str | None = None):
        # a ball always has a colour, and one that could be in there
        colour = colour or (self._draw and self._draw()) or random.choice(BALL_COLOURS)
        self.scene.tray.add(colour)
        return self._hands.drop_ball(colour)

    def act(self, what: str) -> None:
        if self._act is not None:
            self._act(what)

    def handle_key(self, key: str, down: bool = True) -> bool:
        what = SIM_KEYS.get(key.lower())
        if what == "ball" or what in ACTIONS:
            if down:
                self.drop_ball() if what == "ball" else self.act(what)
            return True
        return self._hands.handle_key(key, down)
