"""The camera of the rendered development set: a set-up's light and camera move, and what
the moved camera makes of a scene rendered at the nominal table.

A `Setup` fixes the light (one spectral light, or MIXED: A and D65 blended across the frame),
the camera's move against the nominal pose (rotation, scale, shift), exposure, uneven light,
vignetting, blur and noise gain. `seen_by` warps the scene's nominal linear frames into the
moved camera (the table's wood carried on beyond them), draws a hand, blends MIXED light and
lays uneven light and vignetting over it; `finish` exposes, blurs, adds shot and read noise,
encodes sRGB and JPEG.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import cv2
import numpy as np

from vision.render.cards import SKIN_SRGB
from vision.render.lighting import paint
from vision.render.node import SLEEVE_SRGB
from vision.render.tray import WOOD_SRGB

SIZE = (640, 480)
SETUP_LIGHTS = ("D65", "A", "FL2", "LED-B2", "D50", "MIXED")
NOMINAL_SCALE = 0.85  # the calibrated camera sees the rendered table with a margin of wood
WHITE_LEVEL = 0.78  # exposure puts the white patch's brightest channel here, then +/-20 %
JPEG_QUALITY = 92


# Set-ups -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Setup:
    name: str  # "calib" or "sNN"
    light: str  # one of SETUP_LIGHTS
    rotation: float = 0.0  # degrees, against the nominal camera
    scale: float = 1.0
    shift: tuple[float, float] = (0.0, 0.0)  # pixels
    exposure: float = 1.0  # x the white patch's level
    blur: float = 0.7  # Gaussian sigma, pixels
    gain: float = 1.0  # noise gain
    uneven: tuple[float, float] = (0.0, 0.08)  # direction (radians), brightness change
    vignette: float = 0.08  # darkening at the corners
    # MIXED: the D65 share rises from x0 to x1 (shares of the frame width) towards the
    # right (+1) or the left (-1); A lights the rest
    mixed: tuple[float, float, int] = (0.2, 0.8, 1)
    seed: int = 0  # the renderers' seed (the light's direction, where the balls rest)

    @property
    def pose(self) -> np.ndarray:
        """2x3 affine from the renderer's nominal frame to this camera's pixels."""
        w, h = SIZE
        s = NOMINAL_SCALE * self.scale
        a = math.radians(self.rotation)
        m = s * np.array([[math.cos(a), -math.sin(a)], [math.sin(a), math.cos(a)]])
        c = np.array([w / 2, h / 2])
        return np.hstack([m, (c - m @ c + np.asarray(self.shift))[:, None]])

    def lights(self) -> tuple[str, ...]:
        return ("A", "D65") if self.light == "MIXED" else (self.light,)

    def d65_share(self, xs: np.ndarray) -> np.ndarray:
        """The share of D65 light at image columns `xs` (MIXED: a smooth step, A elsewhere)."""
        x0, x1, side = self.mixed
        t = np.clip((xs / SIZE[0] - x0) / (x1 - x0), 0, 1)
        t = t * t * (3 - 2 * t)
        return t if side > 0 else 1 - t


def calib_setup(seed: int) -> Setup:
    return Setup("calib", "D65", seed=seed)


def make_setup(i: int, seed: int, inside: Callable[[Setup], bool]) -> Setup:
    """Set-up `i`: a camera move that keeps every piece in the frame (`inside`)."""
    rng = np.random.default_rng([seed, 7, i])
    while True:
        width = rng.uniform(0.6, 1.0)
        x0 = rng.uniform(0.0, 1.0 - width)
        s = Setup(
            f"s{i:02d}",
            SETUP_LIGHTS[i % len(SETUP_LIGHTS)],
            rotation=round(float(rng.uniform(-5, 5)), 2),
            scale=round(float(rng.uniform(0.94, 1.05)), 3),
            shift=(round(float(rng.uniform(-10, 10)), 1), round(float(rng.uniform(-10, 10)), 1)),
            exposure=float(rng.uniform(0.8, 1.2)),
            blur=float(rng.uniform(0.55, 1.1)),
            gain=float(rng.uniform(0.8, 1.6)),
            uneven=(float(rng.uniform(0, 2 * math.pi)), float(rng.uniform(0.05, 0.25))),
            vignette=float(rng.uniform(0.04, 0.15)),
            mixed=(float(x0), float(x0 + width), 1 if rng.random() < 0.5 else -1),
            seed=int(rng.integers(1 << 30)),
        )
        if inside(s):
            return s


# Geometry ----------------------------------------------------------------------------------


def apply_pose(pose: np.ndarray, pts) -> np.ndarray:
    p = np.asarray(pts, float).reshape(-1, 2)
    return p @ pose[:, :2].T + pose[:, 2]


def rounded(x) -> list:
    return np.round(np.asarray(x, float), 1).tolist()


def rect(x, y, w, h) -> list:
    return [[x, y], [x + w, y], [x + w, y + h], [x, y + h]]


def in_frame(pts, margin: float = 2.0) -> bool:
    p = np.asarray(pts, float).reshape(-1, 2)
    w, h = SIZE
    return bool(
        np.all(p >= margin) and np.all(p[:, 0] <= w - margin) and np.all(p[:, 1] <= h - margin)
    )


# The camera --------------------------------------------------------------------------------


@dataclass
class Hand:
    """An arm from a frame edge with its hand over `tip` (image pixels)."""

    tip: tuple[float, float]
    start: tuple[float, float]
    width: float
    skin: float  # 0 light .. 1 dark
    sleeve: bool


def hand_masks(hand: Hand) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(skin, sleeve, shadow) coverage masks, anti-aliased, in image pixels."""
    w, h = SIZE
    tip, start = np.asarray(hand.tip), np.asarray(hand.start)
    d = tip - start
    d /= np.linalg.norm(d)
    n = np.array([-d[1], d[0]])
    hw = hand.width / 2
    wrist = tip - d * hand.width * 0.55
    skin = np.zeros((h, w), np.float32)
    sleeve = np.zeros((h, w), np.float32)
    far = start - d * 60
    cuff = wrist - d * hand.width * (1.4 if hand.sleeve else 0)

    def poly(m, pts):
        cv2.fillConvexPoly(m, np.round(np.asarray(pts) * 16).astype(np.int32), 1.0, cv2.LINE_AA, 4)

    poly(skin, [far + n * hw * 0.9, far - n * hw * 0.9, wrist - n * hw * 0.8, wrist + n * hw * 0.8])
    ang = math.degrees(math.atan2(d[1], d[0]))
    palm = tuple(int(v) for v in tip - d * hand.width * 0.15)
    cv2.ellipse(
        skin,
        palm,
        (int(hand.width * 0.62), int(hand.width * 0.52)),
        ang,
        0,
        360,
        1.0,
        -1,
        cv2.LINE_AA,
    )
    for k in (-0.55, -0.2, 0.15, 0.5):  # fingers
        base = tip + n * hw * k * 1.1
        poly(
            skin,
            [
                base + n * 5,
                base - n * 5,
                base + d * hand.width * 0.45 - n * 4,
                base + d * hand.width * 0.45 + n * 4,
            ],
        )
    thumb = tip - d * hand.width * 0.3 + n * hw * 1.0
    poly(skin, [thumb - d * 8, thumb + d * 8, thumb + n * hw * 0.7 + d * 10, thumb + n * hw * 0.7])
    if hand.sleeve:
        poly(sleeve, [far + n * hw, far - n * hw, cuff - n * hw, cuff + n * hw])
    cover = np.maximum(skin, sleeve)
    shifted = cv2.warpAffine(cover, np.float32([[1, 0, 9], [0, 1, 11]]), (w, h))
    shadow = cv2.GaussianBlur(shifted, (0, 0), 7.0) * 0.5
    return skin, sleeve, shadow


def _wood_fill(setup: Setup, light: str) -> np.ndarray:
    """The table beyond the rendered frame: its wood grain carried on, evenly lit."""
    inv = cv2.invertAffineTransform(setup.pose)
    w, h = SIZE
    ys, xs = np.mgrid[0:h, 0:w].astype(np.float32)
    nx = inv[0, 0] * xs + inv[0, 1] * ys + inv[0, 2]
    ny = inv[1, 0] * xs + inv[1, 1] * ys + inv[1, 2]
    grain = 1.0 + 0.1 * np.sin(ny * 0.21 + 3 * np.sin(nx * 0.013 + 1.7))
    return grain[..., None] * paint(light, "wood", WOOD_SRGB)


def seen_by(setup: Setup, nominal: dict[str, np.ndarray], hand: Hand | None) -> np.ndarray:
    """The scene through the set-up's camera before exposure: warped, filled, the hand drawn,
    MIXED blended, uneven light and vignetting. `nominal`: linear frame per light."""
    w, h = SIZE
    valid = cv2.warpAffine(np.ones((h, w), np.float32), setup.pose, SIZE, flags=cv2.INTER_LINEAR)
    masks = hand_masks(hand) if hand else None
    out = []
    for light in setup.lights():
        img = cv2.warpAffine(nominal[light], setup.pose, SIZE, flags=cv2.INTER_LINEAR)
        img = img + (1 - valid)[..., None] * _wood_fill(setup, light)
        if masks:
            skin_m, sleeve_m, shadow = masks
            img *= (1 - shadow)[..., None]
            t = hand.skin
            skin = (1 - t) * paint(light, "skin", SKIN_SRGB) + t * paint(
                light, "dark skin", SKIN_SRGB
            )
            sleeve = paint(light, "sleeve", SLEEVE_SRGB)
            for m, colour in ((skin_m, skin), (sleeve_m, sleeve)):
                img = img * (1 - m)[..., None] + m[..., None] * (colour * 0.95)
        out.append(img)
    if len(out) == 2:
        t = setup.d65_share(np.arange(w, dtype=np.float32))[None, :, None]
        img = out[0] * (1 - t) + out[1] * t
    else:
        img = out[0]
    ys, xs = np.mgrid[0:h, 0:w].astype(np.float32)
    u, v = xs / w - 0.5, ys / h - 0.5
    a, g = setup.uneven
    field = 1.0 + g * (u * math.cos(a) + v * math.sin(a)) * 2
    field *= 1.0 - setup.vignette * (u * u + v * v) / 0.5
    return (img * field[..., None]).astype(np.float32)


def exposure_gain(setup: Setup, seen: np.ndarray, patch) -> float:
    """Gain that puts the white patch's brightest channel at WHITE_LEVEL, times the
    set-up's exposure."""
    mask = np.zeros(seen.shape[:2], np.uint8)
    c = np.mean(patch, axis=0)
    inner = c + (np.asarray(patch) - c) * 0.6
    cv2.fillConvexPoly(mask, np.round(inner).astype(np.int32), 1)
    level = float(seen[mask > 0].mean(axis=0).max())
    return WHITE_LEVEL / level * setup.exposure


def finish(setup: Setup, seen: np.ndarray, gain: float, rng: np.random.Generator) -> bytes:
    """Exposure, lens blur, shot and read noise, sRGB, JPEG."""
    img = cv2.GaussianBlur(seen * np.float32(gain), (0, 0), setup.blur)
    g = setup.gain / max(setup.exposure, 0.5)
    sigma = np.sqrt(np.clip(img, 0, None) * 0.0002 * g + (0.0025 * g) ** 2)
    img = img + sigma * rng.standard_normal(img.shape).astype(np.float32)
    x = np.clip(img, 0, 1)
    srgb = np.where(x <= 0.0031308, 12.92 * x, 1.055 * np.power(x, 1 / 2.4) - 0.055)
    bgr = cv2.cvtColor(np.round(srgb * 255).astype(np.uint8), cv2.COLOR_RGB2BGR)
    ok, buf = cv2.imencode(".jpg", bgr, [cv2.IMWRITE_JPEG_QUALITY, JPEG_QUALITY])
    assert ok
    return buf.tobytes()


def visible_share(cover: np.ndarray | None, obj: dict) -> float:
    """The share of an object's region not under the hand (`cover`: where the hand is)."""
    if cover is None:
        return 1.0
    region = np.zeros(cover.shape, np.uint8)
    if obj["shape"] == "disc":
        cv2.circle(
            region, tuple(int(round(v)) for v in obj["c"]), max(1, int(round(obj["r"]))), 1, -1
        )
    else:
        cv2.fillPoly(region, [np.round(np.asarray(obj["pts"])).astype(np.int32)], 1)
    n = int(region.sum())
    return 1.0 if n == 0 else round(1.0 - float(cover[region > 0].sum()) / n, 3)


def random_hand(rng: np.random.Generator, targets: Sequence[Sequence[float]]) -> Hand:
    """A hand over one of `targets` (image pixels), its arm from the nearest-ish frame edge."""
    w, h = SIZE
    tx, ty = targets[int(rng.integers(len(targets)))]
    tx, ty = tx + rng.uniform(-12, 12), ty + rng.uniform(-12, 12)
    edges = {
        "left": (0.0, ty + rng.uniform(-80, 80)),
        "right": (w, ty + rng.uniform(-80, 80)),
        "top": (tx + rng.uniform(-80, 80), 0.0),
        "bottom": (tx + rng.uniform(-80, 80), h),
    }
    dist = {"left": tx, "right": w - tx, "top": ty, "bottom": h - ty}
    order = sorted(dist, key=dist.get)
    edge = order[0] if rng.random() < 0.7 else order[1]
    return Hand(
        (float(tx), float(ty)),
        edges[edge],
        float(rng.uniform(52, 72)),
        float(rng.random()),
        bool(rng.random() < 0.6),
    )
