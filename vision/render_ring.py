"""A rendered Laser table for tests, the benchmark and the simulated camera.

The 12 grey floor tiles lie on an ellipse (the camera looks down at a slight angle), tile 0 at
the top and the index growing clockwise; on each a prism figure (a hexagonal prism seen from
above, secondary colours a little larger, as on the real figures), nothing, or the white cat.
Figures stand slightly off-centre and turned. The six colour cards lie in a column on the
right, in circle order red to magenta, each with two white spots for its spare figures. A white
reference patch sits top left. A hand may reach in from an edge of the frame.

Light and camera are `vision.lighting`'s (the five lights of the benchmark are `LIGHTS`, the
same light names as the ball table's); auto exposure is metered on the ring.

Public API:

    render_ring(board, light, seed, size=(640, 480), *, frame=0, hand=False) -> BGR uint8
    RingBoard(tiles, spares)   tiles: 12 x colour|"cat"|None, spares: {colour: 0-2}
    ring_geometry(size) -> RingGeometry (slot centres, card spots, patch, tile size)
    random_board(rng) -> a plausible RingBoard

`seed` fixes the layout jitter, light direction, shadow and the hand; `frame` only the noise.
"""

from __future__ import annotations

import functools
import math
import random
from collections.abc import Mapping
from dataclasses import dataclass, field

import cv2
import numpy as np

from vision.lighting import (
    CROSSTALK,
    LIGHT_SOURCES,
    LIGHTS,
    encode,
    light_field,
    linear,
    noise_bank,
)
from vision.render import PALETTE_SRGB, WHITE_SRGB, wood

RING_COLOURS = ("red", "yellow", "green", "cyan", "blue", "magenta")  # circle order
SECONDARY = ("red", "green", "blue")  # the larger figures
CAT = "cat"
TILES = 12
TILE_SRGB = (138, 138, 136)  # the grey side of the floor tiles
SKIN_SRGB = (222, 168, 134)

__all__ = [
    "CAT",
    "LIGHTS",
    "RING_COLOURS",
    "RingBoard",
    "random_board",
    "render_ring",
    "ring_calibration",
    "ring_geometry",
    "training_frames",
]


@dataclass(frozen=True)
class RingGeometry:
    centre: tuple[float, float]
    radii: tuple[float, float]
    tile: float  # side of a floor tile, pixels
    figure: float  # radius of a small figure, pixels
    slots: tuple[tuple[float, float], ...]  # tile centres, tile 0 at the top, clockwise
    cards: tuple[tuple[float, float, float, float], ...]  # x, y, w, h per colour card
    spots: tuple[tuple[tuple[float, float], tuple[float, float]], ...]  # two per card
    spot_radius: float
    patch: tuple[int, int, int, int]


def ring_geometry(size: tuple[int, int] = (640, 480)) -> RingGeometry:
    w, h = size
    s = w / 640
    cx, cy, rx, ry = 245 * s, 0.5 * h, 190 * s, 0.4 * h
    slots = tuple(
        (cx + rx * math.cos(a), cy + ry * math.sin(a))
        for a in (math.radians(-90 + 30 * k) for k in range(TILES))
    )
    cw, ch = 112 * s, 62 * s
    cards = tuple((500 * s, (22 + 74 * k) * h / 480, cw, ch) for k in range(6))
    spots = tuple(
        ((x + 0.27 * cw, y + 0.5 * ch), (x + 0.73 * cw, y + 0.5 * ch)) for x, y, _, _ in cards
    )
    return RingGeometry(
        (cx, cy),
        (rx, ry),
        54 * s,
        12.5 * s,
        slots,
        cards,
        spots,
        19 * s,
        (int(8 * s), int(8 * s), int(52 * s), int(36 * s)),
    )


@dataclass(frozen=True)
class RingBoard:
    tiles: tuple[str | None, ...]
    spares: Mapping[str, int] = field(default_factory=lambda: {c: 2 for c in RING_COLOURS})

    def __post_init__(self) -> None:
        if len(self.tiles) != TILES:
            raise ValueError(f"the ring has {TILES} tiles, got {len(self.tiles)}")
        for t in self.tiles:
            if t is not None and t != CAT and t not in RING_COLOURS:
                raise ValueError(f"unknown figure {t!r}")
        for c, n in self.spares.items():
            if c not in RING_COLOURS or not 0 <= n <= 2:
                raise ValueError(f"a colour card holds 0-2 figures of its colour, not {c}={n}")


def random_board(rng: random.Random) -> RingBoard:
    """The cat on one tile, most others holding a figure, cards partly refilled; at most
    four figures of a colour, as in the box."""
    pool = [c for c in RING_COLOURS for _ in range(4)]
    rng.shuffle(pool)
    tiles: list[str | None] = [None] * TILES
    cat = rng.randrange(TILES)
    tiles[cat] = CAT
    free = [t for t in range(TILES) if t != cat]
    rng.shuffle(free)
    for t in free[rng.choice((0, 0, 1, 2, 3, 4)) :]:
        tiles[t] = pool.pop()
    spares = dict.fromkeys(RING_COLOURS, 0)
    for c in pool:
        if spares[c] < 2 and rng.random() < 0.75:
            spares[c] += 1
    return RingBoard(tuple(tiles), spares)


# The empty table ----------------------------------------------------------------------------


@functools.lru_cache(maxsize=4)
def _albedo(size: tuple[int, int]) -> np.ndarray:
    g = ring_geometry(size)
    img = wood(size)
    for k, (x, y) in enumerate(g.slots):
        angle = -90 + 30 * k + 90
        box = cv2.boxPoints(((x, y), (g.tile, g.tile), angle))
        cv2.fillConvexPoly(img, np.round(box).astype(np.int32), linear(TILE_SRGB).tolist())
    for colour, (x, y, cw, ch) in zip(RING_COLOURS, g.cards, strict=True):
        cv2.rectangle(
            img, (int(x), int(y)), (int(x + cw), int(y + ch)), linear(WHITE_SRGB).tolist(), -1
        )
        b = 0.07 * ch
        cv2.rectangle(
            img,
            (int(x + b), int(y + b)),
            (int(x + cw - b), int(y + ch - b)),
            linear(PALETTE_SRGB[colour]).tolist(),
            -1,
        )
    for pair in g.spots:
        for sx, sy in pair:
            cv2.circle(img, (int(sx), int(sy)), int(g.spot_radius), linear(WHITE_SRGB).tolist(), -1)
    px, py, pw, ph = g.patch
    cv2.rectangle(img, (px, py), (px + pw, py + ph), linear(WHITE_SRGB).tolist(), -1)
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


def _figure(img, colour: str, cx, cy, r, turn, ldir, highlight) -> None:
    lx, ly = float(ldir[0]), float(ldir[1])
    hexa = _hexagon(cx, cy, r, turn)
    off = ((-lx * 0.5 * r, -ly * 0.5 * r), (cx, cy))
    _shadow(img, lambda m, o: _poly(m, hexa + np.array(o), 1.0), off, 0.5, 2.0, r)
    base = linear(PALETTE_SRGB[colour])
    _poly(img, hexa, (base * 0.55).tolist())  # the sides, seen at the rim
    _poly(img, _hexagon(cx + lx * 0.12 * r, cy + ly * 0.12 * r, r * 0.8, turn), base.tolist())
    if highlight:  # glossy plastic: a small glint towards the light
        gx, gy = cx + lx * 0.45 * r, cy + ly * 0.45 * r
        cv2.circle(img, (int(gx), int(gy)), max(1, int(r * 0.18)), (0.9, 0.9, 0.9), -1)


def _cat(img, cx, cy, r, turn, ldir) -> None:
    lx, ly = float(ldir[0]), float(ldir[1])
    white = linear(WHITE_SRGB)

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


def _hand(img, rng: np.random.Generator, g: RingGeometry, size, ldir) -> None:
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
    skin = linear(SKIN_SRGB) * rng.uniform(0.8, 1.1)
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
    try:
        source = LIGHT_SOURCES[light]
    except KeyError:
        raise ValueError(f"unknown light {light!r} (have {', '.join(LIGHTS)})") from None
    rng = np.random.default_rng([seed, 0, LIGHTS.index(light)])
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
) -> np.ndarray:
    """The Laser table as a BGR uint8 frame."""
    size = (int(size[0]), int(size[1]))
    g = ring_geometry(size)
    fld, ldir, exposure = _field(light, seed, size)
    rng = np.random.default_rng([seed, 3])
    img = _albedo(size).copy()
    jitter = 0.24 * g.tile
    for t, what in enumerate(board.tiles):
        dx, dy = rng.uniform(-1, 1, 2) * jitter
        turn = float(rng.uniform(0, 360))
        if what is None:
            continue
        x, y = g.slots[t][0] + dx, g.slots[t][1] + dy
        if what == CAT:
            _cat(img, x, y, g.figure * 1.05, turn, ldir)
        else:
            r = g.figure * (1.2 if what in SECONDARY else 1.0)
            _figure(img, what, x, y, r, turn, ldir, rng.random() < 0.7)
    for colour, pair in zip(RING_COLOURS, g.spots, strict=True):
        for k, (sx, sy) in enumerate(pair):
            dx, dy = rng.uniform(-1, 1, 2) * 0.2 * g.spot_radius
            if k < board.spares.get(colour, 0):
                r = g.figure * (1.2 if colour in SECONDARY else 1.0)
                turn = float(rng.uniform(0, 360))
                _figure(img, colour, sx + dx, sy + dy, r, turn, ldir, rng.random() < 0.7)
    if hand:
        _hand(img, rng, g, size, ldir)
    cam = cv2.transform(img * fld, CROSSTALK) * np.float32(exposure)
    out = encode(cam)
    noise = 1.6 * math.sqrt(max(1.0, exposure / 0.8))
    bank = noise_bank(max(1, int(round(noise * 2))), size)
    k = (seed * 7919 + frame) % len(bank)
    return cv2.subtract(cv2.add(out, bank[k][0]), bank[(k + 1) % len(bank)][1])


def ring_calibration(size: tuple[int, int] = (640, 480)):
    """The rendered table's ring calibration, as the touch screen would learn it (the colour
    prototypes are filled in by `vision.ring_reader.learn_ring`)."""
    from vision.ring_calibration import RingCalibration

    g = ring_geometry(size)
    return RingCalibration(
        tuple(size),
        g.centre,
        g.radii,
        -90.0,
        g.tile,
        dict(zip(RING_COLOURS, g.cards, strict=True)),
        g.patch,
    )


def training_frames(n: int = 48, size: tuple[int, int] = (640, 480), seed: int = 10_000):
    """(frame, tiles, spares) of `n` rendered boards under every light, to learn colours from
    (seeds from `seed` up: keep them apart from the boards a test or benchmark reads)."""
    out = []
    for i in range(n):
        board = random_board(random.Random(seed + i))
        frame = render_ring(board, LIGHTS[i % len(LIGHTS)], seed + i, size)
        out.append((frame, board.tiles, dict(board.spares)))
    return out
