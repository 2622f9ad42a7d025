"""The `balls_row` scene: the Color Milk tray with the balls arrived so far."""

from __future__ import annotations

from vision.render.conditions import NOMINAL_SCALE, SIZE, apply_pose, in_frame, rect, rounded
from vision.render.scenes.scene import Frame, Scene
from vision.render.tray import BALL_COLOURS, scene_linear
from vision.render.tray_geometry import geometry, tray_layout


class BallsRow(Scene):
    name = "balls_row"

    def __init__(self) -> None:
        g = geometry(SIZE)
        px, py, pw, ph = g["patch"]
        self.patch_nominal = rect(px, py, pw, ph)
        tx, ty, tw, th = g["tray"]
        self.tray = rect(tx, ty, tw, th)
        self.tray_end = (tx, ty + th / 2)

    def keep_inside(self, pose) -> bool:
        return in_frame(apply_pose(pose, self.tray + self.patch_nominal), 4)

    def _frame(self, setup, name, colours, seed, hands: bool) -> Frame:
        pts, r = tray_layout(len(colours), seed, SIZE)
        s = NOMINAL_SCALE * setup.scale
        centres = rounded(apply_pose(setup.pose, pts)) if pts else []
        radius = round(r * s, 1)
        objects = [
            {"c": c, "colour": col, "r": radius, "set": "cm", "shape": "disc", "visible": 1.0}
            for c, col in zip(centres, colours, strict=True)
        ]
        truth = {
            **self.common(setup),
            "colours": list(colours),
            "centres": centres,
            "radius": radius,
            "first_end": "left",
            "tray_end": rounded(apply_pose(setup.pose, [self.tray_end])[0]),
            "tray": rounded(apply_pose(setup.pose, self.tray)),
            "objects": objects,
        }
        return Frame(
            name,
            lambda light: scene_linear(colours, None, light, seed, SIZE),
            truth,
            centres if hands and centres else None,
        )

    def calib(self, setup):
        frames = [self._frame(setup, "calib/empty.jpg", [], setup.seed, False)]
        frames += [
            self._frame(setup, f"calib/{c}.jpg", [c], setup.seed, False) for c in BALL_COLOURS
        ]
        for f, c in zip(frames, ["empty", *BALL_COLOURS], strict=True):
            f.truth["calib_colour"] = c
        return frames

    def test(self, setup, rng):
        mill = [c for c in BALL_COLOURS for _ in range(4)]
        order = [mill[i] for i in rng.permutation(len(mill))[:5]]
        frames = [self._frame(setup, f"test/{setup.name}_empty.jpg", [], setup.seed, False)]
        frames += [
            self._frame(setup, f"test/{setup.name}_f{k}.jpg", order[:k], setup.seed, True)
            for k in range(1, 6)
        ]
        for f in frames:
            f.truth["empty"] = f"test/{setup.name}_empty.jpg"
        return frames


def finish_balls(truth: dict) -> None:
    truth["visible"] = [o["visible"] for o in truth["objects"]]
