"""A rendered table seen from above with a card zone in front of each of five seats: the
prediction cards laid face up or face down, turned up to +/-20 degrees, a shadow across a
zone, a hand reaching in. Same lights, camera and empty table as `vision.render.tray`.

    render_seats(seats, light, seed, size=(640, 480), *, frame=0, angle=20, shadow=None,
                 hand=None, balls=(), touch=None) -> BGR uint8
    seat_layout(seats, seed, size, angle, touch) -> [(zone, card, centre, angle)], (w, h)
    seat_calibration(size) -> the rendered calibration with the seat zones, the centre
                              (`table_zones`) and the card back
    seats_linear(seats, light, seed, size, ..., layout=None) -> linear camera image before
                              exposure and noise (`layout` seeds where the cards lie)

A seat's cards are colours, or BACK for a card lying face down; a competitive Laser prism
card is "colour:floor" (e.g. "red:wood"): its face shows the floor pattern (wood grain,
carpet speckle, ceramic tiles) printed over its colour. Cards in the centre are Laser's and
take Laser's inks under a spectral light.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from dataclasses import replace

import cv2
import numpy as np

from vision.calibration import Calibration
from vision.card_zones import BACK
from vision.classify import learn
from vision.floor_texture import FLOORS
from vision.learn import card_samples, learn_floors, rendered_calibration
from vision.registration import encode_reference
from vision.render.lighting import encode, noise_bank, paint
from vision.render.spectral import piece
from vision.render.tray import PALETTE_SRGB, WHITE_SRGB, _base, render_tray
from vision.render.tray import _scene as _tray_scene
from vision.render.tray_geometry import geometry

SEATS = 5
CENTRE = "centre"  # Laser's prism cards, at most 4
BACK_SRGB = (62, 60, 66)  # the printed back: charcoal, a white border and emblem like a face
SKIN_SRGB = (222, 170, 138)
MAX_CARDS = 6
FLOOR_CARDS = ("red:wood", "green:carpet", "blue:ceramic")  # one of each floor, to learn them


def seat_zones(size: tuple[int, int] = (640, 480)) -> tuple[tuple[str, tuple], ...]:
    w, h = size
    top, height, width = int(0.57 * h), int(0.41 * h), int(0.186 * w)
    return tuple(
        (f"seat{i + 1}", (int((0.01 + 0.198 * i) * w), top, width, height)) for i in range(SEATS)
    )


def table_zones(size: tuple[int, int] = (640, 480)) -> tuple[tuple[str, tuple], ...]:
    """The seats' zones and the centre, where Laser's prism cards are revealed in a row."""
    w, h = size
    return (*seat_zones(size), (CENTRE, (int(0.3 * w), int(0.02 * h), int(0.4 * w), int(0.23 * h))))


def seat_layout(
    seats: Mapping[str, Sequence[str]],
    seed: int,
    size=(640, 480),
    angle: float = 20.0,
    touch: str | None = None,
):
    """(zone, card, centre, angle) for every card, in a 2x3 grid of cells per zone, turned
    up to +/-`angle` degrees; and the card's (width, height). In zone `touch` the first two
    cards lie straight, side by side, edge to edge."""
    zones = dict(table_zones(size))
    cw, ch = geometry(size)["card"]
    rng = np.random.default_rng([seed, 3])
    out = []
    for zone, cards in seats.items():
        if zone not in zones:
            raise ValueError(f"unknown seat zone {zone!r} (have {', '.join(zones)})")
        if len(cards) > MAX_CARDS:
            raise ValueError(f"at most {MAX_CARDS} cards fit in zone {zone!r}")
        x, y, w, h = zones[zone]
        for card, cell in zip(cards, rng.permutation(MAX_CARDS)[: len(cards)], strict=False):
            colour, _, floor = card.partition(":")
            if card != BACK and (colour not in PALETTE_SRGB or (floor and floor not in FLOORS)):
                raise ValueError(
                    f"unknown card {card!r} (have {', '.join(PALETTE_SRGB)}, back; "
                    f"colour:floor with a floor of {', '.join(FLOORS)})"
                )
            cx = x + (cell % 2 + 0.5) * w / 2 + rng.uniform(-0.04, 0.04) * w
            cy = y + (0.2 + 0.3 * (cell // 2)) * h + rng.uniform(-0.01, 0.01) * h
            if zone == CENTRE:  # laid in a row, left to right, in the order given
                k = len([p for p in out if p[0] == CENTRE])
                cx, cy = x + (k + 0.5) * w / 4, y + h / 2 + rng.uniform(-0.05, 0.05) * h
            out.append((zone, card, (cx, cy), rng.uniform(-angle, angle)))
        if zone == touch and len(cards) >= 2:
            first, second = out[-len(cards)], out[-len(cards) + 1]
            centre = (x + w / 2 - cw / 2, y + h / 6)
            out[-len(cards)] = (zone, first[1], centre, 0.0)
            out[-len(cards) + 1] = (zone, second[1], (centre[0] + cw * 0.99, centre[1]), 0.0)
    return out, (cw, ch)


def _floor_pattern(floor: str, u: np.ndarray, v: np.ndarray) -> np.ndarray:
    """The printed floor's shading (1 = the bare ink) at card coordinates `u` (across) and
    `v` (along the card), in card widths from its centre."""
    if floor == "wood":  # grain: wavy stripes along the card
        s = 0.5 + 0.5 * np.sin(2 * np.pi * (u / 0.17 + 0.35 * np.sin(2 * np.pi * v / 1.1)))
        return 1.0 - 0.28 * s * s
    if floor == "ceramic":  # square tiles with dark grout between them
        return 1.0 - 0.35 * np.maximum(_grout(u), _grout(v))
    if floor == "carpet":  # speckle of short fibres, one random shade per fibre cell
        cells = np.random.default_rng(17).random((64, 64))
        i = np.floor(u / 0.05).astype(int) % 64
        j = np.floor(v / 0.05).astype(int) % 64
        return 1.0 - 0.3 * cells[j, i]
    raise ValueError(f"unknown floor {floor!r} (have {', '.join(FLOORS)})")


def _grout(t: np.ndarray, tile: float = 0.3) -> np.ndarray:
    """1 on a grout line (every `tile` card widths), fading to 0 a pixel away."""
    d = np.abs((t / tile) % 1.0 - 0.5) * tile  # from the middle of the tile
    return np.clip(1.0 - (tile / 2 - d - 0.012) / 0.02, 0.0, 1.0)


def _draw(cam, base, card: str, centre, angle: float, cw: float, ch: float, game="cm") -> None:
    """A matte card with its drop shadow: a colour face, or the back, each with a white
    border and a white emblem in the middle; a competitive prism card's face shows its floor."""
    cx, cy = centre
    lx, ly, _ = base.light_dir
    shadow = np.zeros(cam.shape[:2], np.float32)
    box = cv2.boxPoints(((cx - lx * 2, cy - ly * 2), (cw * 1.02, ch * 1.02), angle))
    cv2.fillConvexPoly(shadow, np.round(box).astype(np.int32), 0.35, cv2.LINE_AA)
    cam *= (1.0 - cv2.GaussianBlur(shadow, (0, 0), 2.0))[..., None]
    face = np.zeros_like(cam)
    alpha = np.zeros(cam.shape[:2], np.float32)
    outer = np.round(cv2.boxPoints(((cx, cy), (cw, ch), angle))).astype(np.int32)
    inner = np.round(cv2.boxPoints(((cx, cy), (cw * 0.8, ch * 0.86), angle))).astype(np.int32)
    colour, _, floor = card.partition(":")
    if card == BACK:
        ink = paint(base.look, "back", BACK_SRGB)
    else:
        ink = paint(base.look, piece(colour, game), PALETTE_SRGB[colour])
    white = paint(base.look, "white", WHITE_SRGB).tolist()
    cv2.fillConvexPoly(alpha, outer, 1.0, cv2.LINE_AA)
    cv2.fillConvexPoly(face, outer, white)
    if floor:
        _print_floor(face, floor, ink, inner, (cx, cy), angle, cw)
    else:
        cv2.fillConvexPoly(face, inner, ink.tolist(), cv2.LINE_AA)
    cv2.circle(face, (int(cx), int(cy)), int(cw * 0.14), white, -1)
    face = base.to_cam(face * base.light_field.astype(np.float32) * 0.97)
    cam[:] = cam * (1 - alpha[..., None]) + face * alpha[..., None]


def _print_floor(face, floor: str, ink: np.ndarray, inner, centre, angle: float, cw: float):
    """The ink panel shaded by the floor pattern, turned with the card."""
    x, y, w, h = cv2.boundingRect(inner)
    x0, y0 = max(x, 0), max(y, 0)
    x1, y1 = min(x + w, face.shape[1]), min(y + h, face.shape[0])
    if x1 <= x0 or y1 <= y0:
        return
    panel = np.zeros((y1 - y0, x1 - x0), np.float32)
    cv2.fillConvexPoly(panel, inner - np.array([x0, y0]), 1.0, cv2.LINE_AA)
    # 3x3 samples a pixel: the camera sees the pattern's average over each pixel
    sub = (np.arange(3) - 1) / 3
    ys = (np.arange(y0, y1)[:, None] + sub[None, :]).reshape(-1)
    xs = (np.arange(x0, x1)[:, None] + sub[None, :]).reshape(-1)
    dx, dy = xs[None, :] - centre[0], ys[:, None] - centre[1]
    t = np.radians(angle)
    u = (dx * np.cos(t) + dy * np.sin(t)) / cw
    v = (-dx * np.sin(t) + dy * np.cos(t)) / cw
    shade = _floor_pattern(floor, u, v).reshape(y1 - y0, 3, x1 - x0, 3).mean(axis=(1, 3))
    region = face[y0:y1, x0:x1]
    printed = (shade[..., None] * ink[None, None, :]).astype(np.float32)
    region[:] = region * (1 - panel[..., None]) + printed * panel[..., None]


def _hand(cam, base, zone_rect, reach: float) -> None:
    """An arm coming in from the frame's bottom edge, its hand `reach` (0..1) into the zone."""
    h = cam.shape[0]
    x, y, w, zh = zone_rect
    tip = y + zh * (1.0 - reach)
    skin = np.zeros(cam.shape[:2], np.float32)
    cx = int(x + w * 0.55)
    cv2.ellipse(skin, (cx, int(tip + 0.12 * h)), (int(0.06 * h), int(0.12 * h)), 8, 0, 360, 1, -1)
    cv2.rectangle(skin, (cx - int(0.05 * h), int(tip + 0.12 * h)), (cx + int(0.05 * h), h), 1, -1)
    skin = cv2.GaussianBlur(skin, (0, 0), 1.5)
    colour = base.to_cam(paint(base.look, "skin", SKIN_SRGB) * base.light_field.astype(np.float32))
    cam[:] = cam * (1 - skin[..., None]) + colour * skin[..., None]


@functools.lru_cache(maxsize=8)
def _scene(seats, light, seed, size, angle, shadow, hand, balls=(), touch=None) -> np.ndarray:
    return encode(_camera(seats, light, seed, size, angle, shadow, hand, balls, touch))


def _camera(seats, light, seed, size, angle, shadow, hand, balls, touch, layout=None):
    """The scene as linear camera RGB, exposed; `layout` seeds the cards' places (default
    `seed`, which also sets the light)."""
    base = _base(light, seed, size)
    cam = _tray_scene(balls, (), light, seed, size, False)[0].copy()
    placed, (cw, ch) = seat_layout(
        dict(seats), seed if layout is None else layout, size, angle, touch
    )
    for zone, card, centre, a in placed:
        _draw(cam, base, card, centre, a, cw, ch, "laser" if zone == CENTRE else "cm")
    zones = dict(table_zones(size))
    if shadow is not None:  # a soft-edged shadow (a cup, a person) over half of the zone
        x, y, w, h = zones[shadow]
        dark = np.zeros(cam.shape[:2], np.float32)
        cv2.rectangle(dark, (x - 8, y - 8), (x + w // 2, y + h + 8), 0.45, -1)
        cam *= (1.0 - cv2.GaussianBlur(dark, (0, 0), 4.0))[..., None]
    if hand is not None:
        _hand(cam, base, zones[hand], 0.5)
    return cam


def render_seats(
    seats: Mapping[str, Sequence[str]],
    light: str = "daylight",
    seed: int = 0,
    size: tuple[int, int] = (640, 480),
    *,
    frame: int = 0,
    angle: float = 20.0,
    shadow: str | None = None,
    hand: str | None = None,
    balls: Sequence[str] = (),
    touch: str | None = None,
) -> np.ndarray:
    """The table with `seats` (zone -> cards) laid out and `balls` resting in the tray;
    `shadow`/`hand`/`touch` (two cards edge to edge): a zone name."""
    size = (int(size[0]), int(size[1]))
    key = tuple((z, tuple(c)) for z, c in seats.items())
    img = _scene(key, light, seed, size, float(angle), shadow, hand, tuple(balls), touch)
    bank = noise_bank(max(1, int(round(_base(light, seed, size).noise * 2))), size)
    k = (seed * 7919 + frame) % len(bank)
    return cv2.subtract(cv2.add(img, bank[k][0]), bank[(k + 1) % len(bank)][1])


def seats_linear(
    seats: Mapping[str, Sequence[str]],
    light: str = "D65",
    seed: int = 0,
    size: tuple[int, int] = (640, 480),
    *,
    angle: float = 20.0,
    balls: Sequence[str] = (),
    layout: int | None = None,
) -> np.ndarray:
    """The table `render_seats` draws (no shadow, no hand) as linear camera RGB before
    exposure and noise; `layout` seeds the cards' places apart from the light."""
    size = (int(size[0]), int(size[1]))
    key = tuple((z, tuple(c)) for z, c in seats.items())
    cam = _camera(key, light, seed, size, float(angle), None, None, tuple(balls), None, layout)
    return cam / np.float32(_base(light, seed, size).exposure)


def empty_table(light: str = "daylight", seed: int = 0, size=(640, 480)) -> np.ndarray:
    return render_tray([], light, seed, size)


@functools.lru_cache(maxsize=2)
def seat_calibration(size: tuple[int, int] = (640, 480)) -> Calibration:
    """The rendered calibration (`vision.learn.rendered_calibration`) with the seat zones and
    a prototype for the card back, learnt from one card laid face down, and the floors
    learnt from one competitive prism card of each."""
    size = (int(size[0]), int(size[1]))
    s = 2_000_000
    empty = empty_table("daylight", s, size)
    cal = replace(rendered_calibration(0, size), card_zones=table_zones(size))
    cal = replace(cal, reference=encode_reference(empty))
    # one face-down card, learnt with each set of cards that may lie face down
    frame = render_seats({"seat1": [BACK]}, "daylight", s, size)
    back = card_samples(cal, empty, frame, {"seat1": BACK})
    cal = replace(cal, prototypes=cal.prototypes + learn(back, "color-milk"))
    # the floors, from one competitive prism card of each pattern under one light
    floors = learn_floors(
        render_seats({CENTRE: FLOOR_CARDS}, "daylight", 2_000_100, size, angle=10),
        empty_table("daylight", 2_000_100, size),
        cal,
        FLOORS,
        CENTRE,
    )
    return replace(cal, floors=floors)
