"""A rendered table for tests and simulation: the ball tray, the white patch and card zones.

The scene is lit in linear RGB by one of `LIGHTS` (warm tungsten to daylight, mixed light, a
cast shadow, a dim room), or its materials' measured spectra by one of `SPECTRAL_LIGHTS` (CIE
D65, A, FL2, an LED, D50), and seen by a camera with its white balance locked at daylight; the
light and the camera are `vision.render.lighting`, the table, its layout and what lies on it are
here, with auto exposure on the tray. Balls are shaded spheres with a specular highlight in
the light's colour and a soft shadow; a rolling ball is motion-blurred. Cards are matte prints
with a white border and a white symbol, slightly rotated.

Public API (used by the Color Milk demo and the tests):

    render_tray(colours, light, seed, size=(640, 480), *, frame=0, rolling=False) -> BGR uint8
    render_cards(zones, light, seed, size=(640, 480), *, frame=0) -> BGR uint8
    render_table(balls, cards, light, seed, size, *, frame=0, rolling=False) -> BGR uint8
    arrival_frames(colours, light, seed, size, *, rest_frames=3) -> iterator of BGR frames
    LIGHTS, SPECTRAL_LIGHTS: light names
    scene_linear(balls, cards, light, seed, size) -> (linear camera image, exposure)

Where the tray, the patch, the zones and the pieces lie is `vision.render.tray_geometry`
(`tray_layout(n, seed, size) -> ball centres, radius`, `scene_calibration(size)`).

`seed` fixes the layout (ball jitter, light direction and gradient, shadow, card placement);
`frame` only changes the sensor noise, so frames of one seed show the same table over time.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Mapping, Sequence

import cv2
import numpy as np

from vision.render.lighting import LIGHTS as LIGHTS  # re-exported: the renderers' lists of lights
from vision.render.lighting import (
    RGB,
    CameraImage,
    encode,
    light_colour,
    light_field,
    light_seed,
    light_source,
    look,
    noise_bank,
    paint,
    sensor,
)
from vision.render.lighting import SPECTRAL_LIGHTS as SPECTRAL_LIGHTS
from vision.render.spectral import piece
from vision.render.tray_geometry import card_layout, geometry, tray_layout

BALL_COLOURS = ("blue", "green", "orange", "pink", "purple")  # Color Milk balls and cards
LASER_COLOURS = ("red", "yellow", "green", "cyan", "blue", "magenta")  # Laser prism cards
CARD_COLOURS = tuple(sorted(set(BALL_COLOURS) | set(LASER_COLOURS)))
# the sets of card colours a table learns apart (one game's blue card is not another's)
CARD_SETS = {"color-milk": BALL_COLOURS, "laser": LASER_COLOURS}

# Printed/plastic colours, sRGB 0..255 as they would look under daylight.
PALETTE_SRGB: dict[str, tuple[int, int, int]] = {
    "blue": (25, 85, 200),
    "green": (40, 160, 65),
    "orange": (245, 125, 20),
    "pink": (245, 135, 180),
    "purple": (115, 55, 160),
    "red": (215, 30, 40),
    "yellow": (245, 215, 30),
    "cyan": (20, 175, 215),
    "magenta": (215, 35, 145),
}
WHITE_SRGB = (242, 242, 238)
TRAY_SRGB = (196, 194, 188)
WOOD_SRGB = (150, 104, 66)
TRAY_SLOTS = 5  # the balls a round brings out of the mill, each with its cup in the tray


# Rendering --------------------------------------------------------------------------------


def wood(size: tuple[int, int], look_: str = RGB, origin: tuple[int, int] = (0, 0)) -> np.ndarray:
    """The bare wooden table's reflectance, with its grain (a new array: draw on it); painted
    as `look_` sees it; `origin`: the table point at the array's top-left pixel."""
    w, h = size
    ys, xs = np.mgrid[0:h, 0:w].astype(np.float32)
    ys += origin[1]
    xs += origin[0]
    grain = 1.0 + 0.1 * np.sin(ys * 0.21 + 3 * np.sin(xs * 0.013 + 1.7))
    return (grain[..., None] * paint(look_, "wood", WOOD_SRGB)).astype(np.float32)


@functools.lru_cache(maxsize=4)
def _albedo(size: tuple[int, int], look_: str = RGB) -> np.ndarray:
    """The empty table's reflectance: wood, the grey tray with five cups, the white patch."""
    g = geometry(size)
    albedo = wood(size, look_)
    tx, ty, tw, th = g["tray"]
    tray = paint(look_, "tray", TRAY_SRGB).tolist()
    cv2.rectangle(albedo, (tx, ty), (tx + tw, ty + th), tray, cv2.FILLED)
    cups = np.zeros(albedo.shape[:2], np.float32)
    for cx, cy in g["cups"]:
        cv2.ellipse(
            cups,
            (int(cx), int(cy)),
            (int(g["radius"] * 1.5), int(g["radius"] * 1.3)),
            0,
            0,
            360,
            1.0,
            cv2.FILLED,
        )
    cups = cv2.GaussianBlur(cups, (0, 0), g["radius"] * 0.3)
    albedo *= (1.0 - 0.1 * cups)[..., None]
    px, py, pw, ph = g["patch"]
    white = paint(look_, "white", WHITE_SRGB).tolist()
    cv2.rectangle(albedo, (px, py), (px + pw, py + ph), white, cv2.FILLED)
    albedo.setflags(write=False)
    return albedo


@functools.lru_cache(maxsize=8)
def _base(light_name: str, seed: int, size: tuple[int, int]) -> CameraImage:
    light = light_source(light_name)
    g = geometry(size)
    rng = np.random.default_rng([seed, 0, light_seed(light_name)])
    field, ldir = light_field(light, size, rng)
    # auto exposure on the tray area; a dim room means gain, and gain means noise
    tx, ty, tw, th = g["tray"]
    exposure = 0.72 / (float(field[ty : ty + th, tx : tx + tw].mean()) * 0.9)
    noise = 1.6 * math.sqrt(max(1.0, exposure / 0.8))
    look_ = look(light_name)
    cam = cv2.transform(_albedo(size, look_) * field, sensor(look_)) * exposure
    return CameraImage(cam, encode(cam), field.astype(np.float16), ldir, exposure, noise, look_)


def _box(cx: float, cy: float, rx: float, ry: float, w: int, h: int):
    x0, y0 = max(0, int(cx - rx)), max(0, int(cy - ry))
    x1, y1 = min(w, int(cx + rx) + 1), min(h, int(cy + ry) + 1)
    return (x0, y0, x1, y1) if x1 > x0 and y1 > y0 else None


def _draw_ball(
    cam: np.ndarray, base: CameraImage, colour: str, cx: float, cy: float, r: float, blur: int = 0
) -> tuple[int, int, int, int] | None:
    h, w = cam.shape[:2]
    cx, cy, r = float(cx), float(cy), float(r)  # keep the arithmetic in float32
    lx, ly, lz = (float(v) for v in base.light_dir)
    # soft shadow cast away from the light, over its own small box
    sx, sy = cx - lx * 0.55 * r, cy - ly * 0.55 * r
    sbox = _box(sx, sy, 1.3 * r + blur / 2, 1.15 * r, w, h)
    if sbox:
        x0, y0, x1, y1 = sbox
        ys, xs = np.ogrid[y0:y1, x0:x1]
        sd = np.sqrt(
            ((xs - sx) / r).astype(np.float32) ** 2
            + ((ys - sy) * (1.15 / r)).astype(np.float32) ** 2
        )
        shadow = np.clip(1.25 - sd, 0, 1)
        shadow = shadow * np.sqrt(shadow) * 0.5
        if blur:
            shadow = cv2.blur(shadow, (blur, 1))
        cam[y0:y1, x0:x1] *= (1.0 - shadow)[..., None]
    # the sphere: diffuse shading and a specular highlight in the light's colour
    bbox = _box(cx, cy, r + 1 + blur / 2, r + 1, w, h)
    if bbox is None:
        return sbox
    x0, y0, x1, y1 = bbox
    ys, xs = np.ogrid[y0:y1, x0:x1]
    dx = ((xs - cx) / r).astype(np.float32)
    dy = ((ys - cy) / r).astype(np.float32)
    rr = dx * dx + dy * dy
    nz = np.sqrt(np.clip(1.0 - rr, 0, 1))
    diffuse = np.clip(dx * lx + dy * ly + nz * lz, 0, 1)
    hx, hy, hz = lx, ly, lz + 1.0
    hn = math.sqrt(hx * hx + hy * hy + hz * hz)
    c = np.clip((dx * (hx / hn) + dy * (hy / hn) + nz * (hz / hn)), 0, 1)
    c4 = (c * c) ** 2
    c16 = (c4 * c4) ** 2
    spec = c16 * c16 * c16 * c4 * c4 * c4 * 0.9  # c ** 60, without slow float powers
    e = base.light_field[int(min(max(cy, 0), h - 1)), int(min(max(cx, 0), w - 1))]
    e = e.astype(np.float32)
    albedo = paint(base.look, piece(colour, "cm"), PALETTE_SRGB[colour]) * e
    glint = light_colour(base.look) * e
    ball = (0.25 + 0.75 * diffuse)[..., None] * albedo + spec[..., None] * glint
    ball = base.to_cam(ball)
    alpha = np.clip((1.0 - np.sqrt(rr)) * r + 0.5, 0, 1)
    if blur:
        ball = cv2.blur(ball * alpha[..., None], (blur, 1))
        alpha = cv2.blur(alpha, (blur, 1))
        ball = ball / np.maximum(alpha, 1e-4)[..., None]
    region = cam[y0:y1, x0:x1]
    region[:] = region * (1 - alpha[..., None]) + ball * alpha[..., None]
    if sbox is None:
        return bbox
    return (min(sbox[0], x0), min(sbox[1], y0), max(sbox[2], x1), max(sbox[3], y1))


def _draw_card(cam: np.ndarray, base: CameraImage, colour: str, centre, angle: float, cw, ch):
    h, w = cam.shape[:2]
    cx, cy = centre
    lx, ly, _ = base.light_dir
    x0, y0 = int(max(0, cx - ch)), int(max(0, cy - ch))
    x1, y1 = int(min(w, cx + ch)), int(min(h, cy + ch))
    shadow = np.zeros((y1 - y0, x1 - x0), np.float32)
    box = cv2.boxPoints(((cx - lx * 2 - x0, cy - ly * 2 - y0), (cw * 1.02, ch * 1.02), angle))
    cv2.fillConvexPoly(shadow, np.round(box).astype(np.int32), 0.35, cv2.LINE_AA)
    shadow = cv2.GaussianBlur(shadow, (0, 0), 2.0)
    region = cam[y0:y1, x0:x1]
    region *= (1.0 - shadow)[..., None]
    face = np.zeros((y1 - y0, x1 - x0, 3), np.float32)
    alpha = np.zeros((y1 - y0, x1 - x0), np.float32)
    outer = np.round(cv2.boxPoints(((cx - x0, cy - y0), (cw, ch), angle))).astype(np.int32)
    inner = np.round(cv2.boxPoints(((cx - x0, cy - y0), (cw * 0.8, ch * 0.86), angle)))
    cv2.fillConvexPoly(alpha, outer, 1.0, cv2.LINE_AA)
    white = paint(base.look, "white", WHITE_SRGB).tolist()
    ink = paint(base.look, piece(colour, "cm"), PALETTE_SRGB[colour]).tolist()
    cv2.fillConvexPoly(face, outer, white)
    cv2.fillConvexPoly(face, inner.astype(np.int32), ink, cv2.LINE_AA)
    cv2.circle(face, (int(cx - x0), int(cy - y0)), int(cw * 0.14), white, cv2.FILLED, cv2.LINE_AA)
    face = base.to_cam(face * base.light_field[y0:y1, x0:x1].astype(np.float32) * 0.97)
    region[:] = region * (1 - alpha[..., None]) + face * alpha[..., None]
    return x0, y0, x1, y1


@functools.lru_cache(maxsize=8)
def _scene(
    balls: tuple[str, ...],
    cards: tuple[tuple[str, tuple[str, ...]], ...],
    light: str,
    seed: int,
    size: tuple[int, int],
    rolling: bool | float,
) -> tuple[np.ndarray, np.ndarray]:
    """(linear camera image, clean encoded frame); a tray of k balls is drawn on the cached
    tray of k - 1, as balls arrive one by one."""
    base = _base(light, seed, size)
    for colour in balls + tuple(c for _, cs in cards for c in cs):
        if colour not in PALETTE_SRGB:
            raise ValueError(f"unknown colour {colour!r} (have {', '.join(PALETTE_SRGB)})")
    if not balls and not cards:
        return base.cam, base.encoded
    if balls and not cards:
        cam, img = _scene(balls[:-1], cards, light, seed, size, False)
        cam, img, todo = cam.copy(), img.copy(), [len(balls) - 1]
    else:
        cam, img, todo = base.cam.copy(), base.encoded.copy(), range(len(balls))
    dirty = []
    pts, r = tray_layout(len(balls), seed, size)
    for i in todo:
        x, y = pts[i]
        away = (2.2 if rolling is True else float(rolling)) if i == len(balls) - 1 else 0.0
        # a rolling ball has not reached its cup yet: it is further towards the mill, blurred
        dirty.append(
            _draw_ball(
                cam,
                base,
                balls[i],
                x + away * r,
                y,
                r,
                blur=int(r * min(0.9, 0.4 * away)) if away else 0,
            )
        )
    placed, (cw, ch) = card_layout(dict(cards), seed, size)
    for _zone, colour, centre, angle in placed:
        dirty.append(_draw_card(cam, base, colour, centre, angle, cw, ch))
    for box in dirty:  # only what was drawn needs encoding again
        if box:
            x0, y0, x1, y1 = box
            img[y0:y1, x0:x1] = encode(cam[y0:y1, x0:x1])
    return cam, img


def scene_linear(
    balls: Sequence[str] = (),
    cards: Mapping[str, Sequence[str]] | None = None,
    light: str = "D65",
    seed: int = 0,
    size: tuple[int, int] = (640, 480),
) -> np.ndarray:
    """The table as `render_table` draws it (balls at rest), as linear camera RGB before
    exposure and noise: a fully lit perfect white is the light's colour (1, 1, 1 under D65)."""
    size = (int(size[0]), int(size[1]))
    key_cards = tuple((z, tuple(c)) for z, c in (cards or {}).items())
    cam = _scene(tuple(balls), key_cards, light, seed, size, False)[0]
    return cam / np.float32(_base(light, seed, size).exposure)


def render_table(
    balls: Sequence[str] = (),
    cards: Mapping[str, Sequence[str]] | None = None,
    light: str = "daylight",
    seed: int = 0,
    size: tuple[int, int] = (640, 480),
    *,
    frame: int = 0,
    rolling: bool | float = False,
) -> np.ndarray:
    """The whole table as a BGR uint8 frame: tray with `balls` (slot 0 first) and `cards`.

    `rolling`: the last ball is still rolling in, this many ball radii short of its rest
    place (True = 2.2), and motion-blurred."""
    size = (int(size[0]), int(size[1]))
    if len(balls) > TRAY_SLOTS:
        raise ValueError(f"the tray holds at most {TRAY_SLOTS} balls")
    key_cards = tuple((z, tuple(c)) for z, c in (cards or {}).items())
    img = _scene(tuple(balls), key_cards, light, seed, size, rolling)[1]
    bank = noise_bank(max(1, int(round(_base(light, seed, size).noise * 2))), size)
    k = (seed * 7919 + frame) % len(bank)
    return cv2.subtract(cv2.add(img, bank[k][0]), bank[(k + 1) % len(bank)][1])


def clear_caches() -> None:
    """Forget the cached backgrounds, scenes, light fields and noise of every renderer loaded
    (some 100 MB after a calibration has rendered every light); the next frame builds what
    it needs again."""
    import sys

    for cached in (_albedo, _base, noise_bank, _scene):
        cached.cache_clear()
    for module, names in CACHED.items():
        if module in sys.modules:
            for name in names:
                getattr(sys.modules[module], name).cache_clear()


CACHED = {  # the other renderers' caches (not imported here: each loads on its own)
    "vision.render.cards": ("_scene",),
    "vision.render.ring": ("_albedo", "_field"),
    "vision.render.node": ("_table", "_light", "_noise"),
}


def render_tray(
    colours: Sequence[str],
    light: str = "daylight",
    seed: int = 0,
    size: tuple[int, int] = (640, 480),
    *,
    frame: int = 0,
    rolling: bool | float = False,
) -> np.ndarray:
    """The tray with `colours` in arrival order (slot 0 first); `[]` gives the empty tray."""
    return render_table(colours, None, light, seed, size, frame=frame, rolling=rolling)


def render_cards(
    zones: Mapping[str, Sequence[str]],
    light: str = "daylight",
    seed: int = 0,
    size: tuple[int, int] = (640, 480),
    *,
    frame: int = 0,
) -> np.ndarray:
    """The table with cards laid in zones `seat1`..`seat4` (at most 6 a zone), tray empty."""
    return render_table((), zones, light, seed, size, frame=frame)


def arrival_frames(
    colours: Sequence[str],
    light: str = "daylight",
    seed: int = 0,
    size: tuple[int, int] = (640, 480),
    *,
    rest_frames: int = 3,
):
    """Frames of a round as the camera sees it: the empty tray, then for each ball one frame
    of it rolling in and `rest_frames` frames of it at rest (fresh sensor noise each frame)."""
    n = 0
    yield render_tray([], light, seed, size, frame=n)
    for k in range(1, len(colours) + 1):
        n += 1
        yield render_tray(colours[:k], light, seed, size, frame=n, rolling=True)
        for _ in range(rest_frames):
            n += 1
            yield render_tray(colours[:k], light, seed, size, frame=n)
