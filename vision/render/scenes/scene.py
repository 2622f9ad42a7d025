"""A scene of the rendered development set: the frames it renders (`Frame`: a nominal render
per light and its truth) and what every scene answers (`Scene`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from vision.render.conditions import Setup, apply_pose, rounded

HAND_SHARE = 0.15  # of the frames with pieces


@dataclass
class Frame:
    """A frame to render: its name, the nominal render per light, its truth (image pixels
    filled in by the scene), and where a hand may reach."""

    name: str
    render: Callable[[str], np.ndarray]  # light -> nominal linear frame
    truth: dict
    hand_targets: list | None = None  # image pixels; None: never a hand


class Scene:
    """One of SCENES: its calibration frames and a set-up's frames, with their truth."""

    name: str
    patch_nominal: list  # the white patch's corners in the renderer's frame

    def keep_inside(self, pose: np.ndarray) -> bool:
        raise NotImplementedError

    def calib(self, setup: Setup) -> list[Frame]:
        raise NotImplementedError

    def test(self, setup: Setup, rng: np.random.Generator) -> list[Frame]:
        raise NotImplementedError

    def common(self, setup: Setup) -> dict:
        return {
            "light": setup.light,
            "setup": setup.name,
            "camera": {
                "rotation_deg": setup.rotation,
                "scale": setup.scale,
                "shift_px": list(setup.shift),
            },
            "white_patch": rounded(apply_pose(setup.pose, self.patch_nominal)),
        }
