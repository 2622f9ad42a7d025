"""A rendered Node table for tests, the benchmark and the simulated table.

A green cloth mat printed with a light lattice (one cell a node, half a node of mat round it)
lies on a wooden table; cards of square coloured nodes (default 2 x 3, white between and
around the nodes) lie on it, each up to a few degrees and a fraction of a node off the grid,
casting a soft shadow; a hand can reach in from the edge of the frame. A white reference patch
lies in the top-left corner, off the mat. The light and the camera (colour cast, cross-talk,
auto exposure, noise, sRGB) are the ones the ball tray is rendered with (`LIGHTS` and
`SPECTRAL_LIGHTS`). The camera nudged between game nights moves the whole mat in the frame
(`nudged`).

    TableLayout(corners, pitch)                 where the lattice lies in the frame
    LaidCard(colours, row, col, dx, dy, angle)  a card as it lies (rows of colours as seen)
    render_node_table(cards, light, seed, layout, *, frame=0, hand=None) -> BGR uint8
    node_linear(cards, light, seed, layout) -> linear camera image before exposure and noise
    white_patch(size) -> the reference patch (x, y, w, h)
    nudged(layout, dx, dy, turn, scale)         the layout seen by a camera moved so

`seed` fixes the light (direction, gradient, shadow band); `frame` only the sensor noise.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Sequence
from dataclasses import dataclass

import cv2
import numpy as np

from vision.render.lighting import (
    RGB,
    encode,
    light_field,
    light_seed,
    light_source,
    look,
    paint,
    sensor,
)
from vision.render.spectral import piece
from vision.render.tray import PALETTE_SRGB, WHITE_SRGB, wood

NODE_COLOURS = ("red", "yellow", "green", "blue", "purple")  # Node's default colours
MAT_SRGB = (38, 84, 62)  # a green cloth mat ...
LINE_SRGB = (196, 204, 180)  # ... printed with a light lattice
MAT_MARGIN = 0.5  # nodes of mat round the lattice
LINE_WIDTH = 0.04  # of a node: the lattice's printed lines
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


def nudged(
    layout: TableLayout, dx: float, dy: float, turn: float, scale: float, size=SIZE
) -> TableLayout:
    """The layout as a camera moved by (`dx`, `dy`) pixels, turned `turn` degrees (clockwise
    as seen) and zoomed by `scale` about the frame's centre sees it."""
    c = np.array(size, np.float64) / 2
    a = math.radians(turn)
    rot = scale * np.array([[math.cos(a), -math.sin(a)], [math.sin(a), math.cos(a)]])
    pts = (np.asarray(layout.corners, np.float64) - c) @ rot.T + c + (dx, dy)
    return TableLayout(
        tuple((round(float(x), 3), round(float(y), 3)) for x, y in pts),
        round(layout.pitch * scale, 3),
    )


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


def white_patch(size: tuple[int, int] = SIZE) -> tuple[int, int, int, int]:
    """The white reference patch (x, y, w, h): top left, clear of the default table area."""
    s = size[0] / 640
    return int(6 * s), int(6 * s), int(42 * s), int(32 * s)


@functools.lru_cache(maxsize=4)
def _table(size: tuple[int, int], layout: TableLayout, look_: str = RGB) -> np.ndarray:
    """The wooden table with the white patch and the mat on it (reflectance)."""
    out = wood(size, look_)
    x, y, w, h = white_patch(size)
    cv2.rectangle(out, (x, y), (x + w, y + h), paint(look_, "white", WHITE_SRGB).tolist(), -1)
    cols, rows = layout.grid
    m = MAT_MARGIN
    _poly(
        out,
        layout.project([[-m, -m], [cols + m, -m], [cols + m, rows + m], [-m, rows + m]]),
        paint(look_, "mat", MAT_SRGB).tolist(),
    )
    thick = max(1, round(layout.pitch * LINE_WIDTH))
    ink = paint(look_, "mat line", LINE_SRGB).tolist()
    for a, b in [((k, 0), (k, rows)) for k in range(cols + 1)] + [
        ((0, k), (cols, k)) for k in range(rows + 1)
    ]:
        p, q = np.round(layout.project([a, b]) * 16).astype(np.int32)
        cv2.line(
            out,
            tuple(int(v) for v in p),
            tuple(int(v) for v in q),
            ink,
            thick,
            cv2.LINE_AA,
            shift=4,
        )
    out.setflags(write=False)
    return out


@functools.lru_cache(maxsize=16)
def _light(light: str, seed: int, size: tuple[int, int]):
    rng = np.random.default_rng([seed, 5, light_seed(light)])
    field, ldir = light_field(light_source(light), size, rng)
    exposure = 0.72 / (float(field.mean()) * 0.9)
    noise = 1.6 * math.sqrt(max(1.0, exposure / 0.8))
    return field, ldir, exposure, noise


def _draw_card(albedo, shade, card: LaidCard, layout: TableLayout, ldir, look_=RGB) -> None:
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
    _poly(albedo, body, paint(look_, "white", WHITE_SRGB).tolist())
    m = (1 - NODE_FILL) / 2
    for r, line in enumerate(card.colours):
        for c, colour in enumerate(line):
            sq = [[c + m, r + m], [c + 1 - m, r + m], [c + 1 - m, r + 1 - m], [c + m, r + 1 - m]]
            ink = paint(look_, piece(colour, "node"), PALETTE_SRGB[colour]).tolist()
            _poly(albedo, layout.project(card.to_table(sq)), ink)


def _draw_hand(albedo, shade, hand: Hand, ldir, look_=RGB) -> None:
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
    _poly(albedo, arm, paint(look_, "sleeve", SLEEVE_SRGB).tolist())
    angle = float(math.degrees(math.atan2(d[1], d[0])))
    axes = (int(hand.width * 0.6), int(hand.width * 0.5))
    skin = paint(look_, "skin", SKIN_SRGB).tolist()
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
    size = (int(size[0]), int(size[1]))
    _, _, exposure, noise = _light(light, seed, size)
    img = encode(_camera(cards, light, seed, layout, hand, size) * exposure)
    bank = _noise(max(1, round(noise * 2)), tuple(size))
    k = (seed * 7919 + frame) % len(bank)
    return cv2.subtract(cv2.add(img, bank[k][0]), bank[(k + 1) % len(bank)][1])


def node_linear(
    cards: Sequence[LaidCard],
    light: str = "D65",
    seed: int = 0,
    layout: TableLayout | None = None,
    *,
    size: tuple[int, int] = SIZE,
) -> np.ndarray:
    """The table (no hand) as linear camera RGB before exposure and noise."""
    return _camera(cards, light, seed, layout, None, (int(size[0]), int(size[1])))


def _camera(cards, light: str, seed: int, layout, hand, size) -> np.ndarray:
    layout = layout or default_layout(size=size)
    field, ldir, _, _ = _light(light, seed, size)
    look_ = look(light)
    albedo = _table(tuple(size), layout, look_).copy()
    shade = np.ones(albedo.shape[:2], np.float32)
    for card in cards:
        for line in card.colours:
            for colour in line:
                if colour not in PALETTE_SRGB:
                    raise ValueError(f"unknown colour {colour!r}")
        _draw_card(albedo, shade, card, layout, ldir, look_)
    if hand is not None:
        _draw_hand(albedo, shade, hand, ldir, look_)
    radiance = albedo * (shade[..., None] * field)
    return cv2.transform(radiance, sensor(look_))


CALIBRATION_CARD = (4, 8)  # where the set-up's cards are laid (row, col of the lattice)


@functools.lru_cache(maxsize=2)
def rendered_node_calibration(layout: TableLayout | None = None, seed: int = 0):
    """The rendered table's Node calibration, made as a person makes one: a photo of the
    empty mat in daylight, then one card of each colour laid on it (`vision.node.table_setup`).
    Seeds are far from the ones tests and the benchmark use."""
    from vision.node.table_setup import calibrate

    layout = layout or default_layout()
    s = 2_000_000 + seed
    empty = render_node_table([], "daylight", s, layout)
    row, col = CALIBRATION_CARD
    cards = []
    for k, colour in enumerate(NODE_COLOURS):
        card = LaidCard(((colour,) * 3,) * 2, row, col)
        cards.append((render_node_table([card], "daylight", s, layout, frame=k + 1), [colour]))
    return calibrate(empty, cards)
