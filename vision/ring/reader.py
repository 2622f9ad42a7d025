"""The ring's reader: a calibration made ready to read, the ring found on each game's empty
frame, then each frame read tile by tile and card by card (`vision.ring.spots` measures,
`vision.classify` names), with what no table can show asked."""

from __future__ import annotations

from dataclasses import replace

import cv2
import numpy as np

from vision.classify import UNKNOWN, Classifier, Reading
from vision.colour import colour_of, weighted
from vision.errors import CalibrationError
from vision.ring.calibration import CAT, COLOURS, EMPTY, RingCalibration
from vision.ring.layout import RingLayout, find_ring
from vision.ring.reading import ASK_BELOW, COVERED, NOT_FOUND, RingReading
from vision.ring.spots import SPECK, CardSpot, Measure, Spot, spots_of

FIGURES_PER_COLOUR = 4
SPARES_PER_CARD = 2
SHAPE = 2.0  # a figure's area may be this many times larger or smaller than learnt
LIGHT_HUE = 0.03  # the tiles' grey changed colour more than this (a share): light changed
LIGHT_LEVEL = 0.25  # ... or level


class RingReader:
    """A calibration made ready to read: `find(empty)` each game (the ring as laid tonight),
    then `read(frame)` per frame."""

    def __init__(self, cal: RingCalibration, *, ask_threshold: float = ASK_BELOW):
        if not cal.learnt:
            raise CalibrationError(
                "the ring calibration has not learnt "
                + ", ".join(cal.missing())
                + " (set the ring up again: `companion vision calibrate-ring`)"
            )
        self.cal = cal
        self.clf: Classifier = cal.classifier
        self.threshold = ask_threshold
        self.layout: RingLayout | None = None
        self._tiles: list[Spot | None] = []
        self._cards: dict[str, CardSpot | None] = {}

    def find(self, empty: np.ndarray) -> RingLayout:
        """The ring as laid tonight, found in the game's empty frame (raises CameraMoved)."""
        self._check_size(empty)
        self.layout = layout = find_ring(self.cal, empty)
        self._tiles, self._cards = spots_of(layout)
        self.clf = self._tonight(empty)
        return layout

    def not_empty(self) -> list[str]:
        """The tiles and cards of the empty frame `find` was given on which something
        seems to stand, as read against it that figure would not be seen: on a tile, a
        patch of another colour bigger than a speck; on a card, less bare paper than at
        calibration by half the smallest figure."""
        tile_area = self.layout.tile**2
        out = [
            f"tile {k + 1}"
            for k, t in enumerate(self._tiles)
            if t is not None and t.clutter > SPECK * tile_area
        ]
        for colour, card in self._cards.items():
            if card is None:
                continue
            figure = self._smallest * tile_area / max(1, card.inside.sum())
            if card.paper_share < self.cal.paper_share[colour] - figure / 2:
                out.append(f"the {colour} card")
        return out

    def _tonight(self, empty: np.ndarray) -> Classifier:
        """The classifier for tonight's light. A light that is not daylight moves colours
        in ways a white balance cannot bring back (a tungsten lamp takes red towards
        magenta); the colour card of each colour, seen under the same light, shows how far
        its print moved since the calibration. A figure of that colour may have moved as
        the print did (the same pigment) or stayed where it was learnt (another material,
        or a print that saturates the sensor where the figure does not): both places are
        that colour's. A card that cannot be read (not found, or its print nearer another
        card's) adds nothing."""
        paper = np.asarray(self.cal.paper, np.float32)
        inks = {c: np.asarray(v, np.float32) for c, v in self.cal.inks.items()}
        moved = {}
        for colour, card in self._cards.items():
            now = None if card is None else card.ink_colour(empty, paper)
            if now is None:
                continue
            nearest = min(inks, key=lambda c: float(np.linalg.norm(weighted(now - inks[c]))))
            if nearest == colour:
                moved[colour] = now - inks[colour]
        protos = list(self.cal.prototypes) + [
            replace(p, lab=tuple(float(v) for v in np.asarray(p.lab) + moved[p.colour]))
            for p in self.cal.prototypes
            if p.colour in moved
        ]
        return Classifier(protos, alike=self.cal.classifier.look_alike())

    def _check_size(self, frame: np.ndarray) -> None:
        if frame.ndim != 3 or tuple(frame.shape[1::-1]) != tuple(self.cal.frame_size):
            w, h = self.cal.frame_size
            raise CalibrationError(
                f"the frame is {frame.shape[1]}x{frame.shape[0]}, "
                f"the ring calibration is for {w}x{h}"
            )

    def read(self, frame: np.ndarray) -> RingReading:
        if self.layout is None:
            raise CalibrationError("the ring has not been found yet: give its empty frame")
        self._check_size(frame)
        tile_area = self.layout.tile**2
        speck = SPECK * tile_area
        share = np.asarray(self.cal.tile_grey, np.float32)
        looks = [None if t is None else t.look(frame) for t in self._tiles]
        gain = _light_change(self._tiles, looks)
        if gain is not None:  # the light changed since the empty frame: look again
            looks = [None if t is None else t.look(frame, gain) for t in self._tiles]
        tile_measures = [
            Measure(None, None, None, doubt=NOT_FOUND)
            if spot is None
            else spot.measure(look, share, speck)
            for spot, look in zip(self._tiles, looks, strict=True)
        ]
        tiles, conf, cands, doubts = [], [], [], []
        for m, r in zip(tile_measures, self._classify_tiles(tile_measures), strict=True):
            what, c, names, doubt = self._tile(m, r, tile_area)
            tiles.append(what)
            conf.append(c)
            cands.append(names)
            doubts.append(doubt)
        where = [None if t is None else tuple(round(v, 1) for v in t.centre) for t in self._tiles]
        paper = np.asarray(self.cal.paper, np.float32)
        card_measures = {
            c: Measure(None, None, None, doubt=NOT_FOUND)
            if card is None
            else card.measure(card.look(frame, gain), paper, speck)
            for c, card in self._cards.items()
        }
        seen = [c for c, m in card_measures.items() if m.doubt is None and m.area > 0]
        labs = [colour_of(card_measures[c].pixels, card_measures[c].white) for c in seen]
        readings = dict(
            zip(seen, self.clf.classify_many(labs, COLOURS) if labs else [], strict=True)
        )
        spares, spare_conf, spare_doubt = {}, {}, {}
        for colour in COLOURS:
            spares[colour], spare_conf[colour], spare_doubt[colour] = self._card(
                card_measures[colour], readings.get(colour), colour, tile_area
            )
        _doubt_the_impossible(tiles, conf, doubts, spares, spare_conf, spare_doubt, self.threshold)
        return RingReading(
            tuple(tiles),
            tuple(conf),
            tuple(cands),
            tuple(doubts),
            tuple(where),
            spares,
            spare_conf,
            spare_doubt,
            self.threshold,
        )

    def _figure_sized(self, m: Measure, tile_area: float) -> bool:
        return m.area / tile_area >= self._smallest / SHAPE

    def _classify_tiles(self, measures: list[Measure]) -> list[Reading | None]:
        """Each tile's reading (None where it cannot be read), all tiles at once: a
        figure-sized change is a figure or the cat, whatever its colour says; on a tile
        without one, the tile's own look says whether it is empty."""
        tile_area = self.layout.tile**2
        out: list[Reading | None] = [None] * len(measures)
        groups: dict[bool, list[int]] = {True: [], False: []}
        for k, m in enumerate(measures):
            if m.doubt is None:
                groups[self._figure_sized(m, tile_area)].append(k)
        for sized, ks in groups.items():
            if not ks:
                continue
            labs = [
                colour_of(measures[k].pixels if sized else measures[k].bare, measures[k].white)
                for k in ks
            ]
            allowed = (*COLOURS, CAT) if sized else (*COLOURS, CAT, EMPTY)
            for k, r in zip(ks, self.clf.classify_many(labs, allowed), strict=True):
                out[k] = r
        return out

    def _tile(self, m: Measure, r: Reading | None, tile_area: float):
        """(what, confidence, candidates, doubt) of one tile."""
        if r is None:
            return None, 0.0, (*COLOURS, CAT, EMPTY), m.doubt
        names = r.candidates
        what = None if r.colour in (EMPTY, UNKNOWN) else r.colour
        doubt = None if r.colour != UNKNOWN else "unlike any colour learnt"
        if doubt is None and not self._shape_fits(r.colour, m.area / tile_area):
            doubt = "size"
        if m.covered and (what is None or doubt is not None):
            # a hand over the tile may hide a figure; one standing clear of it, whole, is
            # read (a figure partly under the hand is one region with the hand: not clear)
            doubt = COVERED
        return what, r.confidence, names, doubt

    def _shape_fits(self, what: str, share: float) -> bool:
        if what == EMPTY:
            return share < self._smallest / SHAPE
        return self.cal.areas[what] / SHAPE <= share <= self.cal.areas[what] * SHAPE

    @property
    def _smallest(self) -> float:
        """The smallest piece's area, in tile areas."""
        return min(self.cal.areas[c] for c in (*COLOURS, CAT))

    def _card(self, m: Measure, r: Reading | None, colour: str, tile_area: float):
        """(count, confidence, doubt) of one card: `r` the reading of what changed on it."""
        if m.doubt is not None:
            return 0, 0.0, m.doubt
        if r is None:  # nothing changed on the card: sure if it is all in view
            return 0, 0.0 if m.covered else 1.0, COVERED if m.covered else None
        learnt = self.cal.areas[colour] * tile_area
        n = _figures(m.mask, float(np.sqrt(learnt / np.pi)))
        doubt = None
        if r.colour != colour:
            doubt = f"reads {r.colour}"
        elif not 1 <= n <= SPARES_PER_CARD or not self._shape_fits(colour, m.area / n / tile_area):
            doubt = "size"
        if m.covered and n < SPARES_PER_CARD:
            doubt = COVERED  # those in view are counted; the hand may hide another
        return min(n, SPARES_PER_CARD), r.confidence, doubt


def _light_change(spots, looks) -> np.ndarray | None:
    """The change of light since the empty frame, as the gain that undoes it (None: no
    change worth undoing): the median over the tiles of their grey then over now, so a
    hand's shadow on one tile is not taken for the light. Figures darken the tile they
    stand on a little (their shadow), and a change of level alone hardly moves `lab8`'s
    weighted lightness: a gain is applied when the light's colour changed, or its level
    by more than `LIGHT_LEVEL`."""
    gains = [
        s.white_empty / k.white
        for s, k in zip(spots, looks, strict=True)
        if k is not None and k.white is not None
    ]
    if not gains:
        return None
    gain = np.median(gains, axis=0)
    level = float(gain.mean())
    hue = np.abs(gain / level - 1.0).max() > LIGHT_HUE
    return gain if hue or abs(level - 1.0) > LIGHT_LEVEL else None


def _figures(mask: np.ndarray, radius: float) -> int:
    """How many figures stand in a changed region: the peaks of the distance from its edge
    (figures side by side touch, so their outlines do not part them), each as deep as a
    third of a figure's radius and a figure's radius from any deeper one."""
    dist = cv2.distanceTransform(mask.astype(np.uint8), cv2.DIST_L2, 5)
    k = max(3, int(radius) | 1)
    peaks = (dist >= cv2.dilate(dist, np.ones((k, k), np.uint8))) & (dist >= radius / 3)
    ys, xs = np.nonzero(peaks)
    kept: list[tuple[int, int]] = []
    for i in np.argsort(-dist[ys, xs]):
        if all(np.hypot(xs[i] - x, ys[i] - y) >= radius for x, y in kept):
            kept.append((xs[i], ys[i]))
    return len(kept)


def _doubt_the_impossible(tiles, conf, doubts, spares, spare_conf, spare_doubt, threshold) -> None:
    """A reading no table can show (two cats, more than four figures of a colour) is a
    misread somewhere: every tile and card involved is asked rather than trusted. Only
    what is read sure counts: a card already asked says nothing of the tiles."""
    sure = [t for t, c, d in zip(tiles, conf, doubts, strict=True) if c >= threshold and d is None]
    for what in (CAT, *COLOURS):
        on_card = 0
        if what in spares and spare_doubt[what] is None and spare_conf[what] >= threshold:
            on_card = spares[what]
        limit = 1 if what == CAT else FIGURES_PER_COLOUR - on_card
        if sure.count(what) > limit:
            for i, t in enumerate(tiles):
                if t == what and doubts[i] is None:
                    doubts[i] = "too many"
            if what in spare_doubt and spare_doubt[what] is None:
                spare_doubt[what] = "too many"
