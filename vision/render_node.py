"""A rendered Node table for tests, the benchmark and the simulated table.

Cards of square coloured nodes (default 2 x 3, white between and around the nodes) lie on a
wooden table inside the calibrated table area, each up to a few degrees and a fraction of a
node off the grid, casting a soft shadow; a hand can reach in from the edge of the frame. The
light and the camera (colour cast, cross-talk, auto exposure, noise, sRGB) are the ones the
ball tray is rendered with (`LIGHTS`).

    TableLayout(corners, pitch)                 where the table area lies in the frame
    LaidCard(colours, row, col, dx, dy, angle)  a card as it lies (rows of colours as seen)
    render_node_table(cards, light, seed, layout, *, frame=0, hand=None) -> BGR uint8

`seed` fixes the light (direction, gradient, shadow band); `frame` only the sensor noise.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Sequence
from dataclasses import dataclass

import cv2
import numpy as np

from vision.render import LIGHTS, PALETTE_SRGB, WHITE_SRGB, wood

try:  # the light and camera model (vision/lighting.py once render.py is split)
    from vision.lighting import CROSSTALK, LIGHT_SOURCES, encode, light_field, linear
except ImportError:  # pragma: no cover - before the split they live in render.py
    from vision.render import _CROSSTALK as CROSSTALK
    from vision.render import _LIGHTS as LIGHT_SOURCES
    from vision.render import _encode as encode
    from vision.render import _light_field as light_field
    from vision.render import _linear as linear

NODE_COLOURS = ("red", "yellow", "green", "blue", "purple")  # Node's default colours
SKIN_SRGB = (224, 170, 138)
SLEEVE_SRGB = (70, 90, 130)
NODE_FILL = 0.8  # a node square's side, in node pitches; the rest is white card
SIZE = (640, 480)


@dataclass(frozen=True)
class TableLayout:
    """The table area in the frame: its corners (top-left, top-right, bottom-right,
    bottom-left, pixels) and the node pitch along its top edge (pixels)."""

    corners: tuple[tuple[float, float], ...]
    pitch: float

    @property
    def grid(self) -> tuple[int, int]:
        """(columns, rows) of nodes the area holds."""
        (x0, y0), (x1, y1), _, (x3, y3) = self.corners
        return (
            round(math.hypot(x1 - x0, y1 - y0) / self.pitch),
            round(math.hypot(x3 - x0, y3 - y0) / self.pitch),
        )

    @functools.cached_property
    def to_image(self) -> np.ndarray:
        """Homography from table node units (x = columns, y = rows) to frame pixels."""
        cols, rows = self.grid
        src = np.float32([[0, 0], [cols, 0], [cols, rows], [0, rows]])
        return cv2.getPerspectiveTransform(src, np.float32(self.corners))

    def project(self, pts: np.ndarray) -> np.ndarray:
        return cv2.perspectiveTransform(np.float32(pts).reshape(-1, 1, 2), self.to_image).reshape(
            -1, 2
        )


def default_layout(cols: int = 20, rows: int = 14, size=SIZE) -> TableLayout:
    """The table area centred in the frame with a margin for hands and card edges."""
    w, h = size
    pitch = min(0.84 * w / cols, 0.78 * h / rows)
    x0, y0 = (w - cols * pitch) / 2, (h - rows * pitch) / 2
    x1, y1 = x0 + cols * pitch, y0 + rows * pitch
    return TableLayout(((x0, y0), (x1, y0), (x1, y1), (x0, y1)), round(pitch, 3))


@dataclass(frozen=True)
class LaidCard:
    """A card on the table: `colours` are its node rows as they lie (2 rows of 3 for a wide
    card, 3 rows of 2 for a tall one); (`row`, `col`) is the grid node under its top-left
    node when squared up; `dx`, `dy` (nodes) and `angle` (degrees) are how far off it lies."""

    colours: tuple[tuple[str, ...], ...]
    row: int
    col: int
    dx: float = 0.0
    dy: float = 0.0
    angle: float = 0.0

    @property
    def shape(self) -> tuple[int, int]:
        return len(self.colours), len(self.colours[0])

    def to_table(self, pts) -> np.ndarray:
        """Card-frame points (x across, y down, nodes from its top-left) in table nodes."""
        h, w = self.shape
        a = math.radians(self.angle)
        rot = np.array([[math.cos(a), -math.sin(a)], [math.sin(a), math.cos(a)]])
        centre = np.array([self.col + w / 2 + self.dx, self.row + h / 2 + self.dy])
        return (np.asarray(pts, float) - [w / 2, h / 2]) @ rot.T + centre


@dataclass(frozen=True)
class Hand:
    """A hand reaching in from the frame edge `side` to `tip` (pixels)."""

    tip: tuple[float, float]
    side: str = "bottom"
    width: float = 70.0


def _poly(img: np.ndarray, pts: np.ndarray, colour) -> None:
    cv2.fillConvexPoly(img, np.round(pts * 16).astype(np.int32), colour, cv2.LINE_AA, shift=4)


@functools.lru_cache(maxsize=2)
def _wood(size: tuple[int, int]) -> np.ndarray:
    out = wood(size)
    out.setflags(write=False)
    return out


@functools.lru_cache(maxsize=16)
def _light(light: str, seed: int, size: tuple[int, int]):
    if light not in LIGHT_SOURCES:
        raise ValueError(f"unknown light {light!r} (have {', '.join(LIGHTS)})")
    rng = np.random.default_rng([seed, 5, LIGHTS.index(light)])
    field, ldir = light_field(LIGHT_SOURCES[light], size, rng)
    exposure = 0.72 / (float(field.mean()) * 0.9)
    noise = 1.6 * math.sqrt(max(1.0, exposure / 0.8))
    return field, ldir, exposure, noise


def _draw_card(albedo, shade, card: LaidCard, layout: TableLayout, ldir) -> None:
    h, w = card.shape
    body = layout.project(card.to_table([[0, 0], [w, 0], [w, h], [0, h]]))
    # a soft shadow away from the light, then the card itself, which nothing shadows
    x0, y0 = np.floor(body.min(axis=0)).astype(int) - 8
    x1, y1 = np.ceil(body.max(axis=0)).astype(int) + 8
    x0, y0 = max(x0, 0), max(y0, 0)
    x1, y1 = min(x1, shade.shape[1]), min(y1, shade.shape[0])
    if x1 <= x0 or y1 <= y0:
        return
    mask = np.zeros((y1 - y0, x1 - x0), np.float32)
    _poly(mask, body - [x0, y0] - ldir[:2] * 3.0, 0.4)
    shade[y0:y1, x0:x1] *= 1.0 - cv2.GaussianBlur(mask, (0, 0), 2.0)
    _poly(shade, body, 1.0)
    _poly(albedo, body, linear(WHITE_SRGB).tolist())
    m = (1 - NODE_FILL) / 2
    for r, line in enumerate(card.colours):
        for c, colour in enumerate(line):
            sq = [[c + m, r + m], [c + 1 - m, r + m], [c + 1 - m, r + 1 - m], [c + m, r + 1 - m]]
            _poly(albedo, layout.project(card.to_table(sq)), linear(PALETTE_SRGB[colour]).tolist())


def _draw_hand(albedo, shade, hand: Hand, ldir) -> None:
    h, w = shade.shape
    tx, ty = hand.tip
    start = {
        "bottom": (tx, h + 40),
        "top": (tx, -40),
        "left": (-40, ty),
        "right": (w + 40, ty),
    }[hand.side]
    d = np.array([tx - start[0], ty - start[1]], float)
    d /= np.linalg.norm(d)
    n = np.array([-d[1], d[0]]) * hand.width / 2
    palm = np.array([tx, ty]) - d * hand.width * 0.5
    arm = np.array([start + n, start - n, palm - n * 0.9, palm + n * 0.9])
    mask = np.zeros((h, w), np.float32)
    _poly(mask, arm + ldir[:2] * 10, 0.5)
    cv2.ellipse(mask, (int(tx), int(ty)), (int(hand.width * 0.6),) * 2, 0, 0, 360, 0.5, -1)
    shade *= 1.0 - cv2.blur(mask, (15, 15))
    _poly(albedo, arm, linear(SLEEVE_SRGB).tolist())
    angle = float(math.degrees(math.atan2(d[1], d[0])))
    axes = (int(hand.width * 0.6), int(hand.width * 0.5))
    skin = linear(SKIN_SRGB).tolist()
    cv2.ellipse(albedo, (int(tx), int(ty)), axes, angle, 0, 360, skin, -1, cv2.LINE_AA)
    _poly(shade, arm, 1.0)
    cv2.ellipse(shade, (int(tx), int(ty)), axes, angle, 0, 360, 1.0, -1)


@functools.lru_cache(maxsize=4)
def _noise(level2: int, size: tuple[int, int]):
    """Four frames of sensor noise as (positive, negative) uint8 parts."""
    rng = np.random.default_rng(level2)
    bank = []
    for _ in range(4):
        n = np.round(rng.normal(0.0, level2 / 2, size=(size[1], size[0], 3)))
        bank.append((np.clip(n, 0, 255).astype(np.uint8), np.clip(-n, 0, 255).astype(np.uint8)))
    return bank


def render_node_table(
    cards: Sequence[LaidCard],
    light: str = "daylight",
    seed: int = 0,
    layout: TableLayout | None = None,
    *,
    frame: int = 0,
    hand: Hand | None = None,
    size: tuple[int, int] = SIZE,
) -> np.ndarray:
    """The table with `cards` laid in order (the last on top) as a BGR uint8 frame."""
    layout = layout or default_layout(size=size)
    field, ldir, exposure, noise = _light(light, seed, tuple(size))
    albedo = _wood(tuple(size)).copy()
    shade = np.ones(albedo.shape[:2], np.float32)
    for card in cards:
        for line in card.colours:
            for colour in line:
                if colour not in PALETTE_SRGB:
                    raise ValueError(f"unknown colour {colour!r}")
        _draw_card(albedo, shade, card, layout, ldir)
    if hand is not None:
        _draw_hand(albedo, shade, hand, ldir)
    radiance = albedo * (shade[..., None] * field)
    img = encode(cv2.transform(radiance, CROSSTALK) * exposure)
    bank = _noise(max(1, round(noise * 2)), tuple(size))
    k = (seed * 7919 + frame) % len(bank)
    return cv2.subtract(cv2.add(img, bank[k][0]), bank[(k + 1) % len(bank)][1])


@functools.lru_cache(maxsize=2)
def rendered_node_calibration(layout: TableLayout | None = None, seed: int = 0):
    """A NodeCalibration for the rendered table: its area and pitch, and colour prototypes
    learnt from cards under every light, measured as the reader measures them (against the
    card's own white). Seeds are far from the ones tests and the benchmark use."""
    from vision.classifier import learn
    from vision.node_reader import PX, NodeCalibration, Squaring, _change, _whiteness, node_lab

    layout = layout or default_layout()
    samples = []
    square = Squaring(NodeCalibration(layout.corners, layout.pitch, ()))
    for li, light in enumerate(LIGHTS):
        for rep in range(3):
            s = 2_000_000 + seed * 1000 + li * 10 + rep
            rng = np.random.default_rng(s)
            colours = [str(c) for c in rng.permutation(NODE_COLOURS)] + [NODE_COLOURS[rep]]
            card = LaidCard(
                (tuple(colours[:3]), tuple(colours[3:])),
                int(rng.integers(2, 10)),
                int(rng.integers(2, 15)),
                float(rng.uniform(-0.3, 0.3)),
                float(rng.uniform(-0.3, 0.3)),
                float(rng.uniform(-10, 10)),
            )
            before = square(render_node_table([], light, s, layout))
            after = square(render_node_table([card], light, s, layout, frame=1))
            on = _whiteness(after) & (_change(before, after) > 0)
            ref = np.median(after[on].reshape(-1, 3).astype(np.float32), axis=0)
            centres = card.to_table([[j + 0.5, i + 0.5] for i in range(2) for j in range(3)])
            for (x, y), colour in zip(centres, colours, strict=True):
                lab = node_lab(after, (x + 1) * PX, (y + 1) * PX, ref)
                if lab is not None:
                    samples.append((colour, tuple(float(v) for v in lab)))
    return NodeCalibration(layout.corners, layout.pitch, learn(samples))
