"""The Laser ring read from one camera frame: what stands on each of the 12 floor tiles (a
prism figure's colour, the cat, or nothing) and how many spare figures lie on each colour card.

Calibration (learnt once, by touch on the calibration screen, or from the rendered table) is
the ellipse the tiles lie on with its 12 slots, the six colour cards, the white patch and the
colour prototypes. Each tile is measured against its own grey: the part of the tile around
the figure gives the local white, so a warm lamp on one side and a window on the other do not
tint the figures. Pixels clearly brighter or more colourful than the tile are the figure; its
robust colour goes to the classifier (`vision.classifier`), whose confidence, times a
certainty that the tile is not half covered, is the tile's confidence.

Never a silent misread: a tile below `ASK_BELOW` is to be asked (with the likely colours
first); two cats, or more than four figures of a colour, make the tiles involved asked; a hand
over the table (skin at the frame's edge) means no reading at all.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np

from vision.classifier import UNKNOWN, Classifier, learn
from vision.colour import robust_colour, to_lab
from vision.errors import CalibrationError
from vision.ring_calibration import COLOURS, TILES, RingCalibration, load

CAT = "cat"
WHITE = "white"  # the classifier's name for the cat's colour
FIGURES_PER_COLOUR = 4
ASK_BELOW = 0.7  # tiles and cards read with less confidence are asked
TILE_GREY = 0.5  # the tile's grey is balanced to this level (0..1 encoded)
FIGURE_CHROMA = 20.0  # Lab chroma above the grey tile: part of a figure
CAT_LIGHTNESS = 64.0  # Lab lightness well above the grey tile (53): the white cat
EMPTY_AREA = 0.05  # fraction of the tile disc: below, the tile is empty
FIGURE_AREA = 0.14  # above, a figure stands there; between, it is asked
ODD_GREY = 0.08  # chromaticity difference from both neighbouring tiles: not the tile's grey
ODD_LIGHTER = 1.2  # or this much lighter than both (skin is lighter than the grey)


@dataclass(frozen=True)
class RingReading:
    """One frame's reading. With `hand` set nothing else is meaningful."""

    tiles: tuple[str | None, ...] = ()
    confidence: tuple[float, ...] = ()
    candidates: tuple[tuple[str, ...], ...] = ()  # likely answers per tile, best first
    spares: Mapping[str, int] = field(default_factory=dict)
    spare_confidence: Mapping[str, float] = field(default_factory=dict)
    hand: bool = False

    @property
    def asked(self) -> tuple[int, ...]:
        return tuple(i for i, c in enumerate(self.confidence) if c < ASK_BELOW)

    @property
    def asked_cards(self) -> tuple[str, ...]:
        return tuple(c for c, v in self.spare_confidence.items() if v < ASK_BELOW)

    def event(self):
        """The reading as Laser's `RingRead` event, for the runtime."""
        from companion.games.laser.sensing import RingRead

        if self.hand:
            return RingRead(hand=True)
        return RingRead(
            tuple(self.tiles),
            tuple(round(c, 3) for c in self.confidence),
            tuple(tuple(c) for c in self.candidates),
            tuple(self.spares[c] for c in COLOURS),
            tuple(self.spare_confidence[c] for c in COLOURS),
        )

    def to_json(self) -> dict[str, Any]:
        if self.hand:
            return {
                "hand": True,
                "tiles": None,
                "spares": None,
                "cards": [],
                "confidence": None,
                "note": "a hand is over the table: read again when it is out of view",
            }
        return {
            "tiles": list(self.tiles),
            "spares": dict(self.spares),
            "cards": [],
            "confidence": [round(c, 3) for c in self.confidence],
            "asked": list(self.asked),
            "candidates": {str(i): list(self.candidates[i]) for i in self.asked},
            "asked_cards": list(self.asked_cards),
            "threshold": ASK_BELOW,
            "hand": False,
        }


# Measuring -----------------------------------------------------------------------------


@dataclass(frozen=True)
class _Spot:
    lab: np.ndarray | None  # the figure's robust colour, None when empty
    area: float  # fraction of the disc that is figure
    whole: float  # certainty the local white is a clean tile/card (not covered)
    grey: np.ndarray | None = None  # that white's chromaticity (r, g, b summing to 1)
    level: float = 0.0  # and its brightness (sum of B, G, R)


@dataclass(frozen=True)
class _Region:
    """Where to look: the disc a figure stands in and the white/grey that balances it,
    each as a box of the frame (y0, y1, x0, x1) and a mask inside it."""

    box: tuple[int, int, int, int]
    disc: np.ndarray
    wbox: tuple[int, int, int, int]
    wmask: np.ndarray
    level: float  # the balanced level of that white/grey
    cat: bool = True  # the cat may stand here: very light pixels are a figure too


def _box(size, x0, y0, x1, y1) -> tuple[int, int, int, int]:
    w, h = size
    return max(0, int(y0)), min(h, int(y1) + 1), max(0, int(x0)), min(w, int(x1) + 1)


def _grid(box):
    y0, y1, x0, x1 = box
    ys, xs = np.mgrid[y0:y1, x0:x1].astype(np.float32)
    return xs, ys


def _sparse(mask: np.ndarray) -> np.ndarray:
    """Every other pixel, as a checkerboard: half the work, the same colour and area."""
    ys, xs = np.indices(mask.shape)
    return mask & ((ys + xs) % 2 == 0)


def _tile_region(cal: RingCalibration, k: int) -> _Region:
    """The disc inscribed in tile k holds the figure; the tile's corners outside it give the
    grey that balances it (the figure never reaches them)."""
    x, y = cal.slots[k]
    t = cal.tile
    box = _box(cal.frame_size, x - 0.72 * t, y - 0.72 * t, x + 0.72 * t, y + 0.72 * t)
    xs, ys = _grid(box)
    dx, dy = xs - x, ys - y
    a = math.radians(cal.first + 30 * k)
    u, v = dx * math.cos(a) + dy * math.sin(a), -dx * math.sin(a) + dy * math.cos(a)
    r2 = dx**2 + dy**2
    corners = (np.abs(u) < 0.46 * t) & (np.abs(v) < 0.46 * t) & (r2 > (0.55 * t) ** 2)
    return _Region(box, _sparse(r2 <= (0.5 * t) ** 2), box, corners, TILE_GREY)


def _card_region(cal: RingCalibration, colour: str, j: int) -> _Region:
    """A spare-figure spot on a colour card, balanced by the card's white border."""
    x, y, w, h = cal.cards[colour]
    sx, sy = cal.spots(colour)[j]
    r = 0.13 * w
    box = _box(cal.frame_size, sx - r, sy - r, sx + r, sy + r)
    xs, ys = _grid(box)
    disc = (xs - sx) ** 2 + (ys - sy) ** 2 <= r**2
    wbox = _box(cal.frame_size, x + 0.1 * w, y, x + 0.9 * w, y + h)
    _, ys = _grid(wbox)
    b = max(2.0, 0.05 * h)
    border = ((ys >= y + 1) & (ys < y + b)) | ((ys > y + h - b) & (ys <= y + h - 1))
    return _Region(box, _sparse(disc), wbox, border, 0.9, cat=False)


def _local_white(pixels: np.ndarray) -> tuple[np.ndarray, float]:
    """The grey (or white) around a figure and how clean it is: the median of the pixels,
    then again over those close to it (a figure's shadow or a finger may cover part)."""
    px = pixels.reshape(-1, 3).astype(np.float32) + 1.0
    med = np.median(px, axis=0)
    close = np.ones(len(px), bool)
    for _ in range(2):
        close = np.abs(px / px.sum(1, keepdims=True) - med / med.sum()).sum(1) < 0.06
        close &= np.abs(px.sum(1) / med.sum() - 1.0) < 0.2
        if close.sum() >= 8:
            med = np.median(px[close], axis=0)
    return med, float(close.mean())


def _white(frame: np.ndarray, reg: _Region) -> tuple[np.ndarray, float] | None:
    y0, y1, x0, x1 = reg.wbox
    wpx = frame[y0:y1, x0:x1][reg.wmask]
    return _local_white(wpx) if len(wpx) >= 8 else None


def _measure(frame: np.ndarray, reg: _Region, white=None) -> _Spot:
    """The figure in a region; `white`: the region's (white, clean) if already measured."""
    white = white or _white(frame, reg)
    y0, y1, x0, x1 = reg.box
    px = frame[y0:y1, x0:x1][reg.disc]
    if white is None or len(px) < 10:
        return _Spot(None, 0.0, 0.0)
    white, clean = white
    lab = to_lab(px, white * (0.9 / reg.level))  # 0.9: the level to_lab maps white to
    chroma = np.hypot(lab[:, 1], lab[:, 2])
    figure = chroma > FIGURE_CHROMA
    if reg.cat:
        figure |= lab[:, 0] > CAT_LIGHTNESS
    area = float(figure.mean())
    # most of the surround is one grey on a clean tile; a hand or a misplaced object is not
    whole = min(1.0, max(0.0, (clean - 0.5) / 0.25))
    grey, level = white / white.sum(), float(white.sum())
    if figure.sum() < 6:
        return _Spot(None, area, whole, grey, level)
    return _Spot(robust_colour(lab[figure]), area, whole, grey, level)


class _Regions:
    def __init__(self, cal: RingCalibration):
        self.tiles = tuple(_tile_region(cal, k) for k in range(TILES))
        self.cards = {c: (_card_region(cal, c, 0), _card_region(cal, c, 1)) for c in COLOURS}


# Reading -------------------------------------------------------------------------------


def _ramp(x: float, lo: float, hi: float) -> float:
    return min(1.0, max(0.0, (x - lo) / (hi - lo)))


def _name(colour: str) -> str | None:
    return CAT if colour == WHITE else (None if colour == UNKNOWN else colour)


def _read_tile(spot: _Spot, clf: Classifier) -> tuple[str | None, float, tuple[str, ...]]:
    if spot.lab is None or spot.area < EMPTY_AREA:
        conf = spot.whole * _ramp(EMPTY_AREA - spot.area, 0.0, 0.5 * EMPTY_AREA)
        return None, conf, ("empty",)
    r = clf.classify(spot.lab, allowed=COLOURS + (WHITE,))
    names = tuple(n for n in (_name(c) for c in r.candidates) if n)
    sure = _ramp(spot.area, FIGURE_AREA * 0.8, FIGURE_AREA * 1.2)  # between: half a figure?
    conf = r.confidence * spot.whole * sure
    if sure < 1.0:
        names += ("empty",)
    return _name(r.colour), conf, names


def _bump(profile: np.ndarray, ratio: float) -> np.ndarray:
    """Where `profile` rises `ratio` above the table's level nearby: a low quantile over a
    wide window, as a shallow arm may cover a long stretch of the edge."""
    win = min(len(profile) // 2 * 2 - 1, 121)
    pad = np.pad(profile, win // 2, mode="edge")
    windows = np.lib.stride_tricks.sliding_window_view(pad, win)
    return profile > ratio * np.partition(windows, win * 3 // 10, axis=1)[:, win * 3 // 10]


def hand_in_view(frame: np.ndarray) -> bool:
    """An arm crossing an edge of the frame: along a thin band at each edge, a run clearly
    brighter than the table around it (a pale arm on a wooden table; a dark sleeve on a pale
    table is not seen here, but the tiles it covers are asked, see `_measure`)."""
    h, w = frame.shape[:2]
    b = max(2, h // 80)
    bands = (frame[:b], frame[h - b :], frame[:, :b], frame[:, w - b :])
    min_run = max(3, w // 160)  # in steps of 2 pixels
    for axis, band in zip((0, 0, 1, 1), bands, strict=True):
        bgr = band.astype(np.float32).mean(axis=axis)[::2] + 1.0
        # brighter than the table and bluer (skin against wood): a shadow band only darkens,
        # a lamp on one side only tints; an arm does both
        bright = _bump(bgr.sum(axis=1), 1.3) & _bump(bgr[:, 0] / bgr[:, 2], 1.12)
        if np.convolve(bright, np.ones(min_run), "valid").max(initial=0) >= min_run:
            return True
    return False


class RingReader:
    """A calibration made ready to read frames (regions and classifier built once)."""

    def __init__(self, cal: RingCalibration, *, watch_hands: bool = True):
        """`watch_hands=False` reads even with an arm at the frame's edge (to measure how the
        tile checks alone fare under a hand)."""
        if not cal.prototypes:
            raise CalibrationError("the ring calibration has no colours learnt yet")
        self.cal = cal
        self.clf = Classifier(cal.prototypes)
        self.regions = _Regions(cal)
        self.watch_hands = watch_hands

    def read(self, frame: np.ndarray) -> RingReading:
        if frame.ndim != 3 or tuple(frame.shape[1::-1]) != tuple(self.cal.frame_size):
            w, h = self.cal.frame_size
            raise CalibrationError(
                f"the frame is {frame.shape[1]}x{frame.shape[0]}, "
                f"the ring calibration is for {w}x{h}"
            )
        if self.watch_hands and hand_in_view(frame):
            return RingReading(hand=True)
        tiles, conf, cands = [], [], []
        for spot in _odd_greys_doubted([_measure(frame, reg) for reg in self.regions.tiles]):
            t, c, n = _read_tile(spot, self.clf)
            tiles.append(t)
            conf.append(c)
            cands.append(n)
        spares, spare_conf = {}, {}
        for colour in COLOURS:
            spares[colour], spare_conf[colour] = self._card(frame, colour)
        _doubt_the_impossible(tiles, conf, spares)
        return RingReading(tuple(tiles), tuple(conf), tuple(cands), spares, spare_conf)

    def _card(self, frame: np.ndarray, colour: str) -> tuple[int, float]:
        n, sure = 0, 1.0
        regions = self.regions.cards[colour]
        white = _white(frame, regions[0])  # both spots share the card's border
        for reg in regions:
            spot = _measure(frame, reg, white)
            if spot.lab is None or spot.area < 0.25:
                sure = min(sure, spot.whole * _ramp(0.25 - spot.area, 0.0, 0.15))
                continue
            r = self.clf.classify(spot.lab, allowed=COLOURS)
            mine = r.colour == colour  # another colour on this card is a question
            shown = _ramp(spot.area, 0.35, 0.5)
            sure = min(sure, spot.whole * shown * (r.confidence if mine else 0.0))
            n += 1
        return n, round(sure, 3)


def _odd_greys_doubted(spots: list[_Spot]) -> list[_Spot]:
    """A tile whose grey differs in hue from both neighbours', or is much lighter than both,
    is not showing its grey (a hand or an object covers it all): its reading cannot be
    trusted. Light changes smoothly from tile to tile; only a shadow's edge makes a jump."""
    out = []
    levels = [s.level for s in spots if s.grey is not None]
    ring = float(np.median(levels)) if levels else 0.0
    for k, spot in enumerate(spots):
        near = [spots[(k + d) % TILES] for d in (-1, 1)]
        if spot.grey is not None and all(n.grey is not None for n in near):
            hue = min(float(np.abs(spot.grey - n.grey).sum()) for n in near)
            lighter = min(spot.level / max(n.level, 1.0) for n in near)
            odd = hue > ODD_GREY or lighter > ODD_LIGHTER or spot.level > ODD_LIGHTER * ring
            if odd:
                spot = replace(spot, whole=0.0)
        out.append(spot)
    return out


def read_ring(frame: np.ndarray, cal: RingCalibration) -> RingReading:
    """Read one BGR frame (a reader kept between frames is faster: `RingReader`)."""
    return RingReader(cal).read(frame)


def _doubt_the_impossible(tiles: list, conf: list, spares: Mapping[str, int]) -> None:
    """A reading no table can show (two cats, five figures of a colour) is a misread
    somewhere: every tile involved is asked rather than trusted."""
    cap = ASK_BELOW * 0.5
    sure = [t for t, c in zip(tiles, conf, strict=True) if c >= ASK_BELOW]
    for what in (CAT, *COLOURS):
        limit = 1 if what == CAT else FIGURES_PER_COLOUR - spares.get(what, 0)
        if sure.count(what) > limit:
            for i, t in enumerate(tiles):
                if t == what:
                    conf[i] = min(conf[i], cap)


# Learning ------------------------------------------------------------------------------


def learn_ring(
    cal: RingCalibration,
    examples: Iterable[tuple[np.ndarray, Sequence[str | None], Mapping[str, int]]],
) -> RingCalibration:
    """Colour prototypes from frames whose tiles and spares are known (the calibration
    screen's "read the setup" step, or rendered tables)."""
    samples = []
    regions = _Regions(cal)
    for frame, tiles, spares in examples:
        for k, what in enumerate(tiles):
            spot = _measure(frame, regions.tiles[k])
            if what is not None and spot.lab is not None and spot.area >= FIGURE_AREA:
                samples.append((WHITE if what == CAT else what, spot.lab))
        for colour in COLOURS:
            for j in range(spares.get(colour, 0)):
                spot = _measure(frame, regions.cards[colour][j])
                if spot.lab is not None:
                    samples.append((colour, spot.lab))
    missing = set(COLOURS + (WHITE,)) - {c for c, _ in samples}
    if missing:
        raise CalibrationError(f"no example of {', '.join(sorted(missing))} to learn from")
    return RingCalibration(**{**cal.__dict__, "prototypes": learn(samples)})


# `companion vision read laser` ---------------------------------------------------------------


def read_command(args) -> int:
    """Print the reading of one image as JSON (see `RingReading.to_json`)."""
    from vision.detect import load_frame

    cal = load(args.calibration)
    frame = load_frame(args.image, cal.frame_size)
    print(json.dumps(RingReader(cal).read(frame).to_json()))
    return 0
