"""A rendered Laser table for tests, the benchmark and the simulated camera.

The 12 grey floor tiles lie on an ellipse (the camera looks down at a slight angle), tile 0 at
the top and the index growing clockwise; on each a prism figure (a hexagonal prism seen from
above, secondary colours a little larger, as on the real figures), nothing, or the white cat.
Figures stand slightly off-centre and turned. The six colour cards lie in a column on the
right, in circle order red to magenta, each with two white spots for its spare figures. A white
reference patch sits top left. A hand may reach in from an edge of the frame.

Light and camera are `vision.render.lighting`'s (the named `LIGHTS` and the `SPECTRAL_LIGHTS`, the
same light names as the ball table's); auto exposure is metered on the ring.

Public API:

    render_ring(board, light, seed, size=(640, 480), *, frame=0, hand=False, light_seed=None)
        -> BGR uint8
    ring_linear(board, light, seed, size, *, layout=None) -> linear camera image before
        exposure and noise, and the figures' centres (`layout` seeds where figures stand)
    ring_calibration(size) -> the ring learnt from `calibration_frames`, as a person would

The board it draws (`RingBoard`, `ring_geometry`, `random_board`) is `vision.render.ring_board`.

`seed` fixes the layout jitter, the hand and (unless `light_seed` is given) the light's
direction and shadow; `frame` only the noise.
"""

from __future__ import annotations

import functools
import math

import cv2
import numpy as np

from vision.render.lighting import (
    LIGHTS,
    RGB,
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
from vision.render.ring_board import (
    CAT,
    EMPTY_BOARD,
    RING_COLOURS,
    SECONDARY,
    TILES,
    RingBoard,
    RingGeometry,
    ring_geometry,
)
from vision.render.spectral import piece
from vision.render.tray import PALETTE_SRGB, WHITE_SRGB, wood

TILE_SRGB = (138, 138, 136)  # the grey side of the floor tiles
SKIN_SRGB = (222, 168, 134)

__all__ = [
    "LIGHTS",
    "render_ring",
    "calibration_frames",
    "ring_calibration",
    "ring_geometry_calibration",
]


# The empty table ----------------------------------------------------------------------------


@functools.lru_cache(maxsize=4)
def _albedo(size: tuple[int, int], look_: str = RGB) -> np.ndarray:
    g = ring_geometry(size)
    img = wood(size, look_)
    white = paint(look_, "white", WHITE_SRGB).tolist()
    for k, (x, y) in enumerate(g.slots):
        angle = -90 + 30 * k + 90
        box = cv2.boxPoints(((x, y), (g.tile, g.tile), angle))
        cv2.fillConvexPoly(
            img, np.round(box).astype(np.int32), paint(look_, "tile", TILE_SRGB).tolist()
        )
    for colour, (x, y, cw, ch) in zip(RING_COLOURS, g.cards, strict=True):
        cv2.rectangle(img, (int(x), int(y)), (int(x + cw), int(y + ch)), white, -1)
        b = 0.07 * ch
        cv2.rectangle(
            img,
            (int(x + b), int(y + b)),
            (int(x + cw - b), int(y + ch - b)),
            paint(look_, piece(colour, "laser"), PALETTE_SRGB[colour]).tolist(),
            -1,
        )
    for pair in g.spots:
        for sx, sy in pair:
            cv2.circle(img, (int(sx), int(sy)), int(g.spot_radius), white, -1)
    px, py, pw, ph = g.patch
    cv2.rectangle(img, (px, py), (px + pw, py + ph), white, -1)
    img.setflags(write=False)
    return img


# Objects ---------------------------------------------------------------------------------------


def _shadow(img: np.ndarray, mask_fn, offset, strength: float, blur: float, reach: float) -> None:
    """Darken under an object: its silhouette moved away from the light, softened. `mask_fn`
    draws the silhouette shifted by (dx, dy); `reach` bounds it around `offset`'s origin."""
    h, w = img.shape[:2]
    (ox, oy), (cx, cy) = offset
    pad = reach + 3 * blur + 2
    x0, y0 = max(0, int(cx + ox - pad)), max(0, int(cy + oy - pad))
    x1, y1 = min(w, int(cx + ox + pad)), min(h, int(cy + oy + pad))
    if x1 <= x0 or y1 <= y0:
        return
    m = np.zeros((y1 - y0, x1 - x0), np.float32)
    mask_fn(m, (ox - x0, oy - y0))
    part = cv2.GaussianBlur(m, (0, 0), blur)
    img[y0:y1, x0:x1] *= (1.0 - strength * part)[..., None]


def _hexagon(cx: float, cy: float, r: float, turn: float) -> np.ndarray:
    a = np.radians(turn + 60 * np.arange(6))
    return np.stack([cx + r * np.cos(a), cy + r * np.sin(a)], 1)


def _poly(img, pts, colour) -> None:
    cv2.fillConvexPoly(img, np.round(pts * 16).astype(np.int32), colour, cv2.LINE_AA, 4)


def _figure(img, look_: str, colour: str, cx, cy, r, turn, ldir, highlight) -> None:
    lx, ly = float(ldir[0]), float(ldir[1])
    hexa = _hexagon(cx, cy, r, turn)
    off = ((-lx * 0.5 * r, -ly * 0.5 * r), (cx, cy))
    _shadow(img, lambda m, o: _poly(m, hexa + np.array(o), 1.0), off, 0.5, 2.0, r)
    base = paint(look_, piece(colour, "laser"), PALETTE_SRGB[colour])
    _poly(img, hexa, (base * 0.55).tolist())  # the sides, seen at the rim
    _poly(img, _hexagon(cx + lx * 0.12 * r, cy + ly * 0.12 * r, r * 0.8, turn), base.tolist())
    if highlight:  # glossy plastic: a small glint towards the light
        gx, gy = cx + lx * 0.45 * r, cy + ly * 0.45 * r
        glint = (0.9 * light_colour(look_)).tolist()
        cv2.circle(img, (int(gx), int(gy)), max(1, int(r * 0.18)), glint, -1)


def _cat(img, look_: str, cx, cy, r, turn, ldir) -> None:
    lx, ly = float(ldir[0]), float(ldir[1])
    white = paint(look_, "white", WHITE_SRGB)

    def body(m, o, value):
        ox, oy = o
        c = (int(cx + ox), int(cy + oy))
        cv2.ellipse(m, c, (int(r * 0.95), int(r * 1.35)), turn, 0, 360, value, -1, cv2.LINE_AA)
        t = math.radians(turn - 90)
        hx, hy = cx + ox + math.cos(t) * r * 1.2, cy + oy + math.sin(t) * r * 1.2
        cv2.circle(m, (int(hx), int(hy)), int(r * 0.7), value, -1, cv2.LINE_AA)
        for side in (-0.45, 0.45):  # ears
            ex, ey = hx + math.cos(t + side * 2) * r * 0.6, hy + math.sin(t + side * 2) * r * 0.6
            cv2.circle(m, (int(ex), int(ey)), int(r * 0.28), value, -1, cv2.LINE_AA)

    off = ((-lx * 0.6 * r, -ly * 0.6 * r), (cx, cy))
    _shadow(img, lambda m, o: body(m, o, 1.0), off, 0.5, 2.5, 2.6 * r)
    body(img, (0, 0), (white * 0.7).tolist())
    cv2.ellipse(
        img,
        (int(cx + lx * 0.2 * r), int(cy + ly * 0.2 * r)),
        (int(r * 0.7), int(r * 1.05)),
        turn,
        0,
        360,
        white.tolist(),
        -1,
        cv2.LINE_AA,
    )


def _hand(img, look_: str, rng: np.random.Generator, g: RingGeometry, size, ldir) -> None:
    """A forearm from a frame edge, the hand over the ring (often over a tile)."""
    w, h = size
    target = g.slots[int(rng.integers(TILES))]
    tx, ty = target[0] + rng.uniform(-20, 20), target[1] + rng.uniform(-20, 20)
    edge = rng.integers(3)  # left, bottom, top (the cards are on the right)
    if edge == 0:
        sx, sy = 0.0, rng.uniform(0.2, 0.8) * h
    elif edge == 1:
        sx, sy = rng.uniform(0.1, 0.7) * w, float(h)
    else:
        sx, sy = rng.uniform(0.1, 0.7) * w, 0.0
    skin = paint(look_, "skin", SKIN_SRGB) * rng.uniform(0.8, 1.1)
    arm = int(40 * w / 640)

    def draw(m, o, value):
        ox, oy = o
        p0 = (int(sx + ox - (tx - sx) * 0.2), int(sy + oy - (ty - sy) * 0.2))
        p1 = (int(tx + ox), int(ty + oy))
        cv2.line(m, p0, p1, value, arm, cv2.LINE_AA)
        ang = math.degrees(math.atan2(ty - sy, tx - sx))
        cv2.ellipse(m, p1, (int(arm * 0.9), int(arm * 0.7)), ang, 0, 360, value, -1, cv2.LINE_AA)

    lx, ly = float(ldir[0]), float(ldir[1])
    _shadow(img, lambda m, o: draw(m, o, 1.0), ((-lx * 18, -ly * 18), (0, 0)), 0.55, 6.0, 2 * w)
    draw(img, (0, 0), skin.tolist())


# The frame ---------------------------------------------------------------------------------


@functools.lru_cache(maxsize=16)
def _field(light: str, seed: int, size: tuple[int, int]):
    source = light_source(light)
    rng = np.random.default_rng([seed, 0, light_seed(light)])
    fld, ldir = light_field(source, size, rng)
    g = ring_geometry(size)
    (cx, cy), (rx, ry) = g.centre, g.radii
    ring = fld[int(cy - ry) : int(cy + ry), int(cx - rx) : int(cx + rx)]
    exposure = 0.72 / (float(ring.mean()) * 0.55)  # auto exposure metered on the ring
    return fld, ldir, exposure


def render_ring(
    board: RingBoard,
    light: str = "daylight",
    seed: int = 0,
    size: tuple[int, int] = (640, 480),
    *,
    frame: int = 0,
    hand: bool = False,
    light_seed: int | None = None,
) -> np.ndarray:
    """The Laser table as a BGR uint8 frame. `light_seed` (default `seed`) sets the light
    alone: frames of one table at one time of day share it while the figures move."""
    size = (int(size[0]), int(size[1]))
    cam, exposure, _ = _camera(board, light, seed, size, hand, seed, light_seed)
    out = encode(cam * np.float32(exposure))
    noise = 1.6 * math.sqrt(max(1.0, exposure / 0.8))
    bank = noise_bank(max(1, int(round(noise * 2))), size)
    k = (seed * 7919 + frame) % len(bank)
    return cv2.subtract(cv2.add(out, bank[k][0]), bank[(k + 1) % len(bank)][1])


def ring_linear(
    board: RingBoard,
    light: str = "D65",
    seed: int = 0,
    size: tuple[int, int] = (640, 480),
    *,
    layout: int | None = None,
) -> tuple[np.ndarray, dict]:
    """The Laser table (no hand) as linear camera RGB before exposure and noise, and where
    its figures stand: {"tiles": 12 x (x, y) or None, "spares": {colour: [(x, y), ...]}}.
    `layout` seeds where the figures stand (default `seed`, which also sets the light)."""
    size = (int(size[0]), int(size[1]))
    cam, _, centres = _camera(board, light, seed, size, False, seed if layout is None else layout)
    return cam, centres


def _camera(
    board: RingBoard, light: str, seed: int, size, hand: bool, layout: int, light_seed=None
):
    """(linear camera RGB before exposure, the exposure, the figures' centres)."""
    g = ring_geometry(size)
    fld, ldir, exposure = _field(light, seed if light_seed is None else light_seed, size)
    look_ = look(light)
    rng = np.random.default_rng([layout, 3])
    img = _albedo(size, look_).copy()
    jitter = 0.24 * g.tile
    centres: dict = {"tiles": [None] * TILES, "spares": {c: [] for c in RING_COLOURS}}
    for t, what in enumerate(board.tiles):
        dx, dy = rng.uniform(-1, 1, 2) * jitter
        turn = float(rng.uniform(0, 360))
        if what is None:
            continue
        x, y = g.slots[t][0] + dx, g.slots[t][1] + dy
        centres["tiles"][t] = (float(x), float(y))
        if what == CAT:
            _cat(img, look_, x, y, g.figure * 1.05, turn, ldir)
        else:
            r = g.figure * (1.2 if what in SECONDARY else 1.0)
            _figure(img, look_, what, x, y, r, turn, ldir, rng.random() < 0.7)
    for colour, pair in zip(RING_COLOURS, g.spots, strict=True):
        for k, (sx, sy) in enumerate(pair):
            dx, dy = rng.uniform(-1, 1, 2) * 0.2 * g.spot_radius
            if k < board.spares.get(colour, 0):
                r = g.figure * (1.2 if colour in SECONDARY else 1.0)
                turn = float(rng.uniform(0, 360))
                _figure(img, look_, colour, sx + dx, sy + dy, r, turn, ldir, rng.random() < 0.7)
                centres["spares"][colour].append((float(sx + dx), float(sy + dy)))
    if hand:
        _hand(img, look_, rng, g, size, ldir)
    return cv2.transform(img * fld, sensor(look_)), exposure, centres


def ring_geometry_calibration(size: tuple[int, int] = (640, 480)):
    """The rendered table's ring as a person would draw it on the set-up screen: tile
    places, tile size, cards and white patch, nothing learnt yet."""
    from vision.ring.calibration import RingCalibration, rect_corners

    g = ring_geometry(size)
    return RingCalibration(
        tuple(size),
        g.slots,
        g.tile,
        {c: rect_corners(r) for c, r in zip(RING_COLOURS, g.cards, strict=True)},
        g.patch,
    )


def calibration_frames(size: tuple[int, int] = (640, 480), light: str = "daylight", seed: int = 1):
    """What a person shows the camera to set the ring up: the empty ring, then one figure of
    each colour and the cat, each on tile 1: (empty, [(frame, colour or "cat"), ...])."""
    empty = render_ring(EMPTY_BOARD, light, seed, size)
    figures = []
    for what in (*RING_COLOURS, CAT):
        board = RingBoard((what,) + (None,) * (TILES - 1), EMPTY_BOARD.spares)
        figures.append((render_ring(board, light, seed, size, frame=1), what))
    return empty, figures


def ring_calibration(size: tuple[int, int] = (640, 480)):
    """The rendered table's ring calibration, learnt as a person would (`calibration_frames`)."""
    from vision.ring.learning import calibrate

    empty, figures = calibration_frames(size)
    return calibrate(ring_geometry_calibration(size), empty, figures)
