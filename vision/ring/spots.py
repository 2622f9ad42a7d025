"""One tile or colour card of tonight's ring measured in a frame: what changed on it against
its empty look (anywhere within `SEARCH` of a tile's centre), whether something from outside
reaches over it, and the white of its own bare surface (the tile's grey, the card's paper)."""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from vision.colour import LAB8_L_WEIGHT, colour_of, lab8, linear, reference_white
from vision.ring.layout import Piece, RingLayout
from vision.ring.reading import COVERED, NOT_FOUND

SEARCH = 0.8  # tiles: a figure is looked for this far from its tile's centre
CHANGED = 12.0  # weighted CIELAB units (`lab8`): a pixel differing more has changed
LIGHTER = 100 / 255  # `lab8` lightness in CIELAB units
NECK = 3  # pixels: a figure joined to a hand's shadow by a neck this narrow is cut free
SPECK = 0.02  # tile areas: changed regions smaller than this are noise
PAPER = 0.7  # of the card's brightest, in every channel: paper, not print
GREY_SHARE = 0.25  # less of a tile (or card) than this left bare: covered, not read


@dataclass(frozen=True)
class Measure:
    """What changed on one piece and the bare surface left (uint8 BGR pixels), the white
    where it lies and the change's area (pixels); or why the piece cannot be read (`doubt`)."""

    pixels: np.ndarray | None  # of what changed (figures)
    bare: np.ndarray | None  # of the bare surface (the tile's grey, the card's paper)
    white: np.ndarray | None
    area: float = 0.0
    doubt: str | None = None
    mask: np.ndarray | None = None  # what changed, in the piece's box
    covered: bool = False  # something from outside lies over part of the piece


@dataclass(frozen=True)
class _Look:
    crop: np.ndarray
    changed: np.ndarray  # bool, the crop's size
    white: np.ndarray | None  # of the bare surface in view; None: too little of it in view


class Spot:
    """A tile or card of tonight's ring, ready to be measured: a box of the frame, the
    piece's own neutral surface in it (the tile's grey, the card's paper), where a figure is
    looked for, and the box's look in the empty frame."""

    def __init__(
        self,
        empty: np.ndarray,
        piece: Piece,
        search: np.ndarray,
        bare: np.ndarray,
    ):
        h, w = empty.shape[:2]
        x, y, bw, bh = cv2.boundingRect(np.round(search).astype(np.int32))
        self.x0, self.y0 = max(0, x - 1), max(0, y - 1)
        self.x1, self.y1 = min(w, x + bw + 1), min(h, y + bh + 1)
        shape = (self.y1 - self.y0, self.x1 - self.x0)
        self.search = _filled(search, (self.x0, self.y0), shape)
        inner = cv2.erode(self.search.astype(np.uint8), np.ones((5, 5), np.uint8)).astype(bool)
        self.edge = self.search & ~inner
        self.bare = _filled(bare, (self.x0, self.y0), shape) & self.search
        self.inside = _filled(piece.outline, (self.x0, self.y0), shape) & self.search
        self.centre = piece.centre
        self.ref = lab8(self.crop(empty)).astype(np.float32)
        px = self.crop(empty)[self.bare]
        self.white_empty = reference_white(px) if len(px) else None
        self.clutter = _clutter(self.ref, self.bare)

    def crop(self, frame: np.ndarray) -> np.ndarray:
        return frame[self.y0 : self.y1, self.x0 : self.x1]

    def look(self, frame: np.ndarray, gain: np.ndarray | None = None) -> _Look | None:
        """What changed since the empty frame (the frame first brought to the empty
        frame's light by `gain`), and the white of the bare surface left in view."""
        if self.white_empty is None:
            return None
        crop = self.crop(frame)
        changed = self._changed(crop, gain)
        bare = self.bare & ~changed
        white = reference_white(crop[bare]) if bare.sum() >= GREY_SHARE * self.bare.sum() else None
        return _Look(crop, changed, white)

    def measure(self, look: _Look | None, share: np.ndarray, speck: float) -> Measure:
        """The figures on the piece; `share` turns the bare surface's white into the light's
        (the calibration's `tile_grey` or `paper`)."""
        if look is None:
            return Measure(None, None, None, doubt=NOT_FOUND)
        if look.white is None:
            return Measure(None, None, None, doubt=COVERED)
        crop, changed, here = look.crop, look.changed, look.white / share
        n, labels, stats, _ = cv2.connectedComponentsWithStats(changed.astype(np.uint8))
        # what reaches the edge of the search area comes from outside (an arm, a sleeve):
        # never a figure, and the piece is covered where it reaches in
        reaching = np.zeros(n, bool)
        reaching[labels[self.edge & changed]] = True
        reaching[0] = False
        keep = ~reaching & (stats[:, cv2.CC_STAT_AREA] >= speck)
        keep[0] = False
        figure = keep[labels]
        outside = reaching[labels]
        if outside.any():
            # a figure beside a hand may touch the hand's shadow by a thin neck: cut there
            free = self._cut_free(outside)
            figure |= free
            outside &= ~free
        covered = bool((outside & self.inside).any())
        figure = _holes_filled(figure)  # a glint on a figure is no hole in it
        bare = crop[self.bare & ~changed]
        area = float(figure.sum())
        if area == 0:
            return Measure(None, bare, here, covered=covered)
        return Measure(crop[figure], bare, here, area, mask=figure, covered=covered)

    def _cut_free(self, outside: np.ndarray) -> np.ndarray:
        """The parts of what reaches in from outside that hang on it by a neck narrower
        than `NECK` pixels and never reach the edge themselves."""
        disc = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * NECK + 1, 2 * NECK + 1))
        cores = cv2.erode(outside.astype(np.uint8), disc)
        n, labels = cv2.connectedComponents(cores)
        near_edge = cv2.dilate(self.edge.astype(np.uint8), disc).astype(bool)
        free = np.ones(n, bool)
        free[labels[near_edge & (cores > 0)]] = False
        free[0] = False
        if not free[1:].any():
            return np.zeros_like(outside)
        grown = cv2.dilate(free[labels].astype(np.uint8), disc).astype(bool)
        return grown & outside

    def _changed(self, crop: np.ndarray, gain: np.ndarray | None) -> np.ndarray:
        diff = lab8(crop, gain).astype(np.float32) - self.ref
        # a shadow only darkens: lightness weighs as in the classifier when a pixel got
        # darker, in full when it got lighter (the white cat on a light grey tile)
        dl = diff[..., 0] * np.where(diff[..., 0] > 0, LIGHTER, LAB8_L_WEIGHT)
        d2 = dl * dl + diff[..., 1] ** 2 + diff[..., 2] ** 2
        mask = ((d2 > CHANGED**2) & self.search).astype(np.uint8)
        mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
        return mask.astype(bool)


def _clutter(lab: np.ndarray, mask: np.ndarray) -> float:
    """How many pixels of a surface of one colour (a tile's grey) differ from it as much
    as a figure does, other than by being darker (the edge of a shadow across it)."""
    if not mask.any():
        return 0.0
    px = lab[mask]
    diff = px - np.median(px, axis=0)
    # lighter than most of it: a lit part of a half-shadowed tile is not
    dl = np.maximum(px[:, 0] - np.quantile(px[:, 0], 0.6), 0) * LIGHTER
    return float(((dl * dl + diff[:, 1] ** 2 + diff[:, 2] ** 2) > CHANGED**2).sum())


def _holes_filled(mask: np.ndarray) -> np.ndarray:
    if not mask.any():
        return mask
    contours, _ = cv2.findContours(
        mask.astype(np.uint8), cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE
    )
    out = np.zeros(mask.shape, np.uint8)
    cv2.drawContours(out, contours, -1, 1, cv2.FILLED)
    return out.astype(bool)


def _filled(polygon: np.ndarray, origin: tuple[int, int], shape) -> np.ndarray:
    mask = np.zeros(shape, np.uint8)
    cv2.fillPoly(mask, [np.round(np.asarray(polygon) - origin).astype(np.int32)], 1)
    return mask.astype(bool)


def _shrunk(polygon: np.ndarray, by: float) -> np.ndarray:
    """A convex outline moved `by` pixels inwards (about its centre)."""
    pts = np.asarray(polygon, np.float64)
    c = pts.mean(axis=0)
    r = float(np.linalg.norm(pts - c, axis=1).mean())
    return c + (pts - c) * max(0.1, (r - by) / max(r, 1e-6))


def _disc(centre, radius: float) -> np.ndarray:
    a = np.radians(np.arange(0, 360, 10))
    return np.stack([centre[0] + radius * np.cos(a), centre[1] + radius * np.sin(a)], 1)


class CardSpot(Spot):
    """A colour card: spares are looked for anywhere on it (and a little around); its bare
    surface is its paper, its print the rest."""

    def __init__(self, empty: np.ndarray, piece: Piece, margin: float):
        search = _grown(piece.outline, margin)
        super().__init__(empty, piece, search, _shrunk(piece.outline, 2))
        crop = self.crop(empty)
        inside = self.bare.copy()  # the card less its blurred rim
        if inside.any():
            # paper reflects every colour, print absorbs at least one: first the pixels
            # whose weakest channel is strong, then, balanced by their colour, those that
            # are as bright as them and grey (the weakest channel is noisy under a lamp
            # that lacks that colour)
            lin = linear(crop)
            weakest = lin.min(axis=2)
            seed = inside & (weakest >= PAPER * np.quantile(weakest[inside], 0.9))
            balanced = lin / np.maximum(np.median(lin[seed], axis=0), 1e-4)
            low, high = balanced.min(axis=2), balanced.max(axis=2)
            self.bare = inside & (low >= PAPER) & (high <= low / PAPER)
            px = crop[self.bare]
            self.white_empty = reference_white(px) if len(px) else None
        # the print: the rest of the card, clear of the paper's blurred edge
        near_paper = cv2.dilate(self.bare.astype(np.uint8), np.ones((5, 5), np.uint8))
        ink = (self.inside & ~near_paper.astype(bool)).astype(np.uint8)
        self.ink = cv2.erode(ink, np.ones((3, 3), np.uint8)).astype(bool)
        self.paper_share = float(self.bare.sum() / max(1, self.inside.sum()))

    def ink_colour(self, frame: np.ndarray, paper: np.ndarray) -> np.ndarray | None:
        """The CIELAB colour of the card's print in `frame` (the empty frame: nothing on
        it), balanced by its own paper."""
        px = self.crop(frame)[self.ink]
        if self.white_empty is None or len(px) < 20:
            return None
        return colour_of(px, self.white_empty / paper)


def _grown(polygon: np.ndarray, by: float) -> np.ndarray:
    return _shrunk(polygon, -by)


def spots_of(layout: RingLayout) -> tuple[list[Spot | None], dict[str, CardSpot | None]]:
    size = layout.tile
    tiles: list[Spot | None] = []
    for t in layout.tiles:
        if t is None:
            tiles.append(None)
            continue
        search = _disc(t.centre, SEARCH * size)
        tiles.append(Spot(layout.empty, t, search, _shrunk(t.outline, 3)))
    cards = {
        c: None if p is None else CardSpot(layout.empty, p, (SEARCH - 0.5) * size)
        for c, p in layout.cards.items()
    }
    return tiles, cards
