"""The ring learnt from photos of the set-up: the empty ring, then figures standing on its
tiles; the classifier's colours, each piece's size and the cards' print come from them."""

from __future__ import annotations

from collections.abc import Iterable, Mapping

import numpy as np

from vision.classify import Classifier, learn
from vision.colour import colour_of, reference_white, spread_of
from vision.errors import CalibrationError
from vision.layout import pixels_in
from vision.registration import Transform, encode_reference
from vision.ring.calibration import CAT, COLOURS, EMPTY, RingCalibration
from vision.ring.layout import find_ring
from vision.ring.spots import SPECK, spots_of


def calibrate(
    geometry: RingCalibration,
    empty: np.ndarray,
    figures: Iterable[tuple[np.ndarray, str | Mapping[int, str]]],
) -> RingCalibration:
    """The ring learnt from photos of the set-up: `empty`, the empty ring as `geometry` was
    drawn on it, and `figures`: (frame, what) with `what` the colour (or "cat") of the one
    figure standing on any tile, or {tile index: colour} of figures on given tiles. Raises
    CalibrationError saying what is wrong."""
    if tuple(empty.shape[1::-1]) != tuple(geometry.frame_size):
        w, h = geometry.frame_size
        raise CalibrationError(f"the empty ring must be {w}x{h}, as the set-up was drawn")
    base = RingCalibration(
        geometry.frame_size,
        geometry.tiles,
        geometry.tile,
        geometry.cards,
        geometry.white_roi,
        encode_reference(empty),
    )
    layout = find_ring(base, empty)
    if layout.missing():
        raise CalibrationError(f"not found on the empty ring: {', '.join(layout.missing())}")

    size = layout.tile
    white = reference_white(pixels_in(empty, Transform.identity().rect(geometry.white_roi), 0.7))
    tiles, cards = spots_of(layout)
    busy = [k + 1 for k, t in enumerate(tiles) if t.clutter > SPECK * size**2]
    if busy:
        raise CalibrationError(f"the empty ring shows something on tile(s) {busy}")
    tile_grey = np.median([t.white_empty / white for t in tiles], axis=0)
    paper = np.median([c.white_empty / white for c in cards.values()], axis=0)
    samples, areas = [], {}
    for t in tiles:
        px = t.crop(empty)[t.bare]
        here = t.white_empty / tile_grey
        samples.append((EMPTY, colour_of(px, here), spread_of(px, here)))
    speck = SPECK * size**2
    for frame, what in figures:
        plan = what if isinstance(what, Mapping) else None
        named = list(plan.values()) if plan is not None else [what]
        unknown = [w for w in named if w not in (*COLOURS, CAT)]
        if unknown:
            raise CalibrationError(
                f"{unknown[0]!r} is not a Laser figure (one of {', '.join((*COLOURS, CAT))})"
            )
        if tuple(frame.shape[1::-1]) != tuple(geometry.frame_size):
            raise CalibrationError(f"the {'/'.join(named)} frame is not the empty ring's size")
        found = [t.measure(t.look(frame), tile_grey, speck) for t in tiles]
        covered = [k + 1 for k, m in enumerate(found) if m.doubt is not None or m.covered]
        if covered:
            raise CalibrationError(f"something covers tile(s) {covered}: take the hand away")
        standing = {k: m for k, m in enumerate(found) if m.area > 0}
        if plan is None:
            if len(standing) != 1:
                raise CalibrationError(
                    f"the {what} frame shows {len(standing)} figures on the ring: lay one"
                )
            plan = {next(iter(standing)): what}
        lacking = [f"tile {k + 1} ({w})" for k, w in plan.items() if k not in standing]
        if lacking:
            raise CalibrationError(f"no figure found on {', '.join(lacking)}")
        for k, w in plan.items():
            m = standing[k]
            samples.append((w, colour_of(m.pixels, m.white), spread_of(m.pixels, m.white)))
            areas[w] = m.area / size**2
    inks, shares = {}, {}
    for colour, card in cards.items():
        shares[colour] = round(card.paper_share, 4)
        ink = card.ink_colour(empty, paper)
        if ink is None:
            raise CalibrationError(f"the {colour} card shows no print to learn")
        inks[colour] = tuple(round(float(v), 2) for v in ink)
    learnt = RingCalibration(
        base.frame_size,
        base.tiles,
        round(size / layout.transform.scale, 2),
        base.cards,
        base.white_roi,
        base.reference,
        tuple(float(v) for v in tile_grey),
        tuple(float(v) for v in paper),
        areas,
        learn(samples),
        inks,
        shares,
    )
    return learnt


def look_alikes(cal: RingCalibration) -> list[tuple[str, str]]:
    """Pairs of the ring's classes the set-up should warn about."""
    return Classifier(cal.prototypes).look_alike() if cal.prototypes else []
