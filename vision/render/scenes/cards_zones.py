"""The `cards_zones` scene: Color Milk cards in the seat zones, face up or down, and Laser's
prism cards in the centre (with their floors in competitive mode)."""

from __future__ import annotations

import cv2
import numpy as np

from vision.render.cards import BACK, CENTRE, seat_layout, seats_linear, table_zones
from vision.render.conditions import SIZE, apply_pose, in_frame, rect, rounded
from vision.render.scenes.scene import HAND_SHARE, Frame, Scene
from vision.render.tray import BALL_COLOURS, LASER_COLOURS
from vision.render.tray_geometry import geometry

FLOORS = ("wood", "carpet", "ceramic")


class CardsZones(Scene):
    name = "cards_zones"

    def __init__(self) -> None:
        px, py, pw, ph = geometry(SIZE)["patch"]
        self.patch_nominal = rect(px, py, pw, ph)
        self.zones = {z: rect(*box) for z, box in table_zones(SIZE)}

    def keep_inside(self, pose) -> bool:
        return in_frame(apply_pose(pose, self.patch_nominal), 4)

    def _cards(self, setup, seats: dict, layout: int) -> list[tuple[str, dict]] | None:
        """The truth of every card (zone, record), or None if one leaves the frame."""
        placed, (cw, ch) = seat_layout(seats, layout, SIZE, 20.0)
        out = []
        for zone, card, centre, angle in placed:
            colour, _, floor = card.partition(":")
            outer = cv2.boxPoints((centre, (cw, ch), angle))
            inner = cv2.boxPoints((centre, (cw * 0.8, ch * 0.86), angle))
            corners = apply_pose(setup.pose, outer)
            if not in_frame(corners):
                return None
            down = card == BACK
            out.append(
                (
                    zone,
                    {
                        "colour": None if down else colour,
                        "corners": rounded(corners),
                        "face": "down" if down else "up",
                        "floor": floor or None,
                        "game": "laser" if zone == CENTRE else "color-milk",
                        "ink": rounded(apply_pose(setup.pose, inner)),
                        "visible": 1.0,
                    },
                )
            )
        return out

    def _frame(self, setup, name, seats, layout, hands, mode=None) -> Frame | None:
        cards = self._cards(setup, seats, layout)
        if cards is None:
            return None
        per_zone = {z: [] for z in self.zones}
        objects = []
        for zone, rec in cards:
            per_zone[zone].append(rec)
            colour = rec["colour"] if rec["face"] == "up" else "back"
            objects.append(
                {
                    "colour": colour,
                    "pts": rec["ink"],
                    "set": "laser" if zone == CENTRE else "cm",
                    "shape": "poly",
                    "visible": 1.0,
                }
            )
        truth = {
            **self.common(setup),
            "zones": {z: rounded(apply_pose(setup.pose, c)) for z, c in self.zones.items()},
            "cards": per_zone,
            "objects": objects,
        }
        if mode is not None:
            truth["laser_mode"] = mode
        targets = [np.mean(o["pts"], axis=0).tolist() for o in objects]
        seed = setup.seed
        return Frame(
            name,
            lambda light: seats_linear(seats, light, seed, SIZE, layout=layout),
            truth,
            targets if hands and targets else None,
        )

    def calib(self, setup):
        wanted = [("empty", {})]
        wanted += [(c, {"seat1": [c]}) for c in BALL_COLOURS]
        wanted += [("back", {"seat1": [BACK]})]
        wanted += [(f"laser_{c}", {CENTRE: [c]}) for c in LASER_COLOURS]
        wanted += [("laser_floors", {CENTRE: ["red:wood", "green:carpet", "blue:ceramic"]})]
        frames = []
        for label, seats in wanted:
            frame = None
            for attempt in range(100):
                frame = self._frame(setup, f"calib/{label}.jpg", seats, setup.seed + attempt, False)
                if frame:
                    break
            frame.truth["calib_colour"] = label
            frames.append(frame)
        return frames

    def _deal(self, rng: np.random.Generator) -> tuple[dict, str]:
        seats = {}
        faces = rng.choice(["up", "down", "mixed"], p=[0.5, 0.2, 0.3])
        for zone in self.zones:
            if zone == CENTRE:
                continue
            n = int(rng.integers(0, 6))
            colours = [BALL_COLOURS[i] for i in rng.permutation(5)[:n]]
            down = {"up": 0.0, "down": 1.0, "mixed": 0.5}[faces]
            seats[zone] = [BACK if rng.random() < down else c for c in colours]
        mode = "competitive" if rng.random() < 0.5 else "team"
        n = int(rng.integers(0, 5))
        colours = [LASER_COLOURS[i] for i in rng.permutation(6)[:n]]
        if mode == "competitive":
            colours = [f"{c}:{FLOORS[int(rng.integers(3))]}" for c in colours]
        seats[CENTRE] = colours
        return seats, mode

    def test(self, setup, rng):
        empty = f"test/{setup.name}_empty.jpg"
        frames = [self._frame(setup, empty, {}, setup.seed, False)]
        k = 0
        while len(frames) < 6:
            seats, mode = self._deal(rng)
            layout = int(rng.integers(1 << 30))
            hand = rng.random() < HAND_SHARE
            frame = self._frame(setup, f"test/{setup.name}_f{k}.jpg", seats, layout, hand, mode)
            if frame:  # else laid again: a card would leave the frame
                frames.append(frame)
                k += 1
        for f in frames:
            f.truth["empty"] = empty
        return frames
