"""Where things lie on the rendered ball table, in fractions of the frame scaled to its size:
the white patch, the tray and its five cups, the four seat zones and the cards laid in them,
and the regions of interest a calibration of that table holds.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np

from vision.calibration import Calibration


def geometry(size: tuple[int, int]) -> dict:
    """The table's parts in pixels of a frame of `size`."""
    w, h = size
    r = 0.0375 * w
    return {
        "patch": (int(0.035 * w), int(0.33 * h), int(0.09 * w), int(0.14 * h)),
        "tray": (int(0.14 * w), int(0.27 * h), int(0.82 * w), int(0.25 * h)),
        "radius": r,
        "cups": [(0.14 * w + (i + 0.5) * 0.82 * w / 5, 0.395 * h) for i in range(5)],
        "zones": [
            (
                f"seat{i + 1}",
                (int((0.02 + 0.245 * i) * w), int(0.58 * h), int(0.225 * w), int(0.4 * h)),
            )
            for i in range(4)
        ],
        "card": (0.045 * w, 0.068 * w),  # width, height
    }


def tray_layout(n: int, seed: int, size: tuple[int, int] = (640, 480)):
    """Rest positions (x, y) of the first `n` balls and the ball radius for a seed."""
    g = geometry(size)
    rng = np.random.default_rng([seed, 1])
    jitter = rng.uniform(-1, 1, size=(5, 2)) * np.array([0.55, 0.35]) * g["radius"]
    pts = [(g["cups"][i][0] + jitter[i, 0], g["cups"][i][1] + jitter[i, 1]) for i in range(n)]
    return pts, g["radius"]


def card_layout(zones: Mapping[str, Sequence[str]], seed: int, size=(640, 480)):
    """(zone, colour, centre, angle) for every card: up to 6 per zone in a 3x2 grid."""
    g = geometry(size)
    rects = dict(g["zones"])
    cw, ch = g["card"]
    rng = np.random.default_rng([seed, 2])
    out = []
    for zone, colours in zones.items():
        if zone not in rects:
            raise ValueError(f"unknown card zone {zone!r} (have {', '.join(rects)})")
        if len(colours) > 6:
            raise ValueError(f"at most 6 cards fit in zone {zone!r}")
        x, y, w, h = rects[zone]
        cells = rng.permutation(6)[: len(colours)]
        for colour, cell in zip(colours, cells, strict=True):
            cx = x + (cell % 3 + 0.5) * w / 3 + rng.uniform(-0.02, 0.02) * w
            cy = y + (cell // 3 + 0.5) * h / 2 + rng.uniform(-0.08, 0.08) * h
            out.append((zone, colour, (cx, cy), rng.uniform(-10, 10)))
    return out, (cw, ch)


def scene_calibration(size: tuple[int, int] = (640, 480)) -> Calibration:
    """Regions of interest of the rendered table (the prototypes are filled in by learning)."""
    g = geometry(size)
    px, py, pw, ph = g["patch"]
    r = g["radius"]
    cw, ch = g["card"]
    return Calibration(
        prototypes=(),
        white_roi=(px + pw // 5, py + ph // 5, pw * 3 // 5, ph * 3 // 5),
        tray_roi=g["tray"],
        first_end="left",
        ball_radius=(round(0.6 * r, 1), round(1.6 * r, 1)),
        slot_pitch=round(0.82 * size[0] / 5, 1),
        card_zones=tuple(g["zones"]),
        card_area=(round(0.6 * cw * ch), round(1.5 * cw * ch)),
        frame_size=tuple(size),
        camera={"source": "rendered", "white_balance": "daylight", "exposure": "auto"},
    )
