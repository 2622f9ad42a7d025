"""Where the card was laid between two squared-up frames of the table: what changed, apart
from a hand come in across the table's edge; the card's own lattice found in its paper
(`vision.node.card_lattice`); every way it could lie over the cells that changed; snapped to
a placement only when the evidence agrees."""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from vision.colour import reference_white, to_lab
from vision.node.card_lattice import (
    MAX_ANGLE,
    card_cells,
    change_levels,
    paper_phase,
    straighten,
)
from vision.node.reading import NodeReading, Placement
from vision.node.squaring import PX, Squaring
from vision.segment import DifferenceMask

MIN_CHANGE = 0.5  # nodes of change below which nothing was laid
MASK_SCALE = 0.5  # what changed is found on an image this much smaller
SNAP_LIMIT = 0.4  # nodes: a card's middle further off its placement lies between two
FAINT = 6.0  # CIELAB change (DifferenceMask's units) that may be a hand, not noise
AMBIGUOUS = 0.7  # another way to lay the card whose weakest cell changed this much: ask
PAPER_L = 10.0  # CIELAB lightness below the card's white that is still paper
PAPER_CHROMA = 15.0  # CIELAB chroma up to which a pixel is paper, not ink
HAND = "a hand is over the table"


@dataclass(frozen=True)
class Nodes:
    """A card found laid: where (grid placement, how far off and askew), the alternatives,
    why it must be asked if it must, and per node (as it lies, row by row) its uint8 BGR
    pixels, with the white of the card's paper."""

    placement: Placement
    offset: tuple[float, float]
    angle: float
    alternatives: tuple[Placement, ...]
    doubt: str
    pixels: tuple[np.ndarray, ...]
    white: np.ndarray


def locate_card(
    before: np.ndarray, after: np.ndarray, card_shape: tuple[int, int], faint: bool = True
) -> Nodes | NodeReading:
    """The card laid between two squared-up frames, or the reading that says why none
    can be made out. A hand is what changed across the edge of the squared-up table,
    even faintly (skin can be near the mat's colour) unless not `faint`."""
    h, w = before.shape[:2]
    # what changed is found on a half-size image (a node is 12 pixels there)
    px, roi = PX * MASK_SCALE, (0, 0, w, h)
    changed = DifferenceMask(before, roi, scale=MASK_SCALE)(after, full=False)
    if cv2.countNonZero(changed) < MIN_CHANGE * px**2:
        return NodeReading("nothing", "no card was laid")
    if faint:  # a faint hand breaks up: pieces a third of a node apart are one
        little = DifferenceMask(before, roi, threshold=FAINT, scale=MASK_SCALE)(after, full=False)
        seen = cv2.morphologyEx(little | changed, cv2.MORPH_CLOSE, _disc(int(px / 3)))
    else:
        seen = changed
    card, hand, rest = _split(changed, seen, px, card_shape)
    card = cv2.resize(card, (w, h), interpolation=cv2.INTER_NEAREST)
    hand = cv2.resize(hand, (w, h), interpolation=cv2.INTER_NEAREST)
    if cv2.countNonZero(card) < MIN_CHANGE * PX**2:
        if cv2.countNonZero(hand):
            return NodeReading("unsteady", HAND)
        return NodeReading("nothing", "no card was laid")
    if rest > 1.0:
        return NodeReading("unsteady", "more changed than one card: a hand or a knock")
    if cv2.countNonZero(hand):
        near = cv2.dilate(hand, np.ones((PX // 2 + 1,) * 2, np.uint8))
        if cv2.countNonZero(near & card):
            return NodeReading("unsteady", "a hand is at the card")
    return _card(before, after, card, cv2.findNonZero(card), card_shape)


def _card(before, after, card, pts, card_shape: tuple[int, int]) -> Nodes | NodeReading:
    cx, cy = pts.reshape(-1, 2).mean(axis=0)
    size = (max(card_shape) + 3) * PX
    # a window about what changed, then the card's paper in it
    m = np.float64([[1, 0, size / 2 - cx], [0, 1, size / 2 - cy]])
    img = cv2.warpAffine(
        after, m, (size, size), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE
    )
    mask = cv2.warpAffine(card, m, (size, size), flags=cv2.INTER_NEAREST)
    # the card's white: its paper (and any card's round it) is the brightest thing
    # there in every channel, the yellow ink and the mat are not
    near = cv2.dilate(mask, np.ones((PX // 2 + 1,) * 2, np.uint8)) > 0
    least = img.min(axis=2)
    bright = near & (least >= np.quantile(least[near], 0.9))
    white = reference_white(img[bright])
    lab = to_lab(img, white).reshape(size, size, 3)
    chroma = np.hypot(lab[..., 1], lab[..., 2])
    paper_l = float(np.median(lab[..., 0][bright]))
    paper = ((lab[..., 0] >= paper_l - PAPER_L) & (chroma <= PAPER_CHROMA)).astype(np.uint8)
    # the card's own frame: turned so that the paper between its nodes runs straight
    angle = straighten(paper * (near.astype(np.uint8)))
    if abs(angle) >= MAX_ANGLE:
        return NodeReading("ask", "the card lies too far askew to read")
    turn = cv2.getRotationMatrix2D((size / 2, size / 2), angle, 1.0)
    m = turn @ np.vstack([m, [0, 0, 1]])
    img = cv2.warpAffine(
        after, m, (size, size), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE
    )
    mask = cv2.warpAffine(card, m, (size, size), flags=cv2.INTER_NEAREST)
    paper = cv2.warpAffine(paper, turn, (size, size), flags=cv2.INTER_NEAREST) > 0
    inside = mask > 0
    near = cv2.dilate(mask, np.ones((5, 5), np.uint8)) > 0
    ox = paper_phase((paper & near).sum(axis=0), near.sum(axis=0))
    oy = paper_phase((paper & near).sum(axis=1), near.sum(axis=1))
    cells, nodes = card_cells(inside, paper, ox, oy)
    if not cells:
        return NodeReading("ask", "what changed covers no whole node")
    blocks = _blocks(cells, nodes, card_shape)
    if not blocks:
        return NodeReading("ask", "what changed does not fit one card")
    if len(blocks) > 1:
        # every cell of the card laid changed at least a little (its paper is not the
        # paper it covers, to the last grain): the block whose weakest cell changed most
        was = cv2.warpAffine(
            before, m, (size, size), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE
        )
        level = change_levels(was, img, ox, oy)
        scored = sorted(
            (
                (min(level(i0 + i, j0 + j) for i in range(h) for j in range(w)), (i0, j0, h, w))
                for i0, j0, h, w in blocks
            ),
            reverse=True,
        )
        best = scored[0][0]
        blocks = [b for score, b in scored if score >= AMBIGUOUS * best]
    inv = cv2.invertAffineTransform(m)
    placements = []
    for i0, j0, h, w in blocks:
        centres = np.array(
            [
                [ox + (j0 + j + 0.5) * PX, oy + (i0 + i + 0.5) * PX]
                for i in range(h)
                for j in range(w)
            ]
        )
        grid_pts = Squaring.to_grid(centres @ inv[:, :2].T + inv[:, 2]) - 0.5
        top_left = grid_pts.mean(axis=0) - ((w - 1) / 2, (h - 1) / 2)
        col, row = (int(round(v)) for v in top_left)
        placements.append(((row, col, h, w), top_left - (col, row), (i0, j0)))
    (row, col, h, w), offset, (i0, j0) = placements[0]
    # turned about its middle, a card lies nearest the placement its middle is nearest
    off = np.abs(offset)
    others = [p for p, *_ in placements[1:]]
    doubt = ""
    if len(placements) > 1:
        doubt = f"the card could lie {len(placements)} ways on what changed"
    elif max(off) > SNAP_LIMIT:
        doubt = "the card lies between two grid positions"
        for axis in (0, 1):
            if off[axis] > SNAP_LIMIT:
                step = 1 if offset[axis] > 0 else -1
                others.append((row + step * axis, col + step * (1 - axis), h, w))
    others = [p for p in others if p != (row, col, h, w)]
    r = int(0.25 * PX)
    pixels = []
    for i in range(h):
        for j in range(w):
            x = int(round(ox + (j0 + j + 0.5) * PX))
            y = int(round(oy + (i0 + i + 0.5) * PX))
            pixels.append(img[y - r : y + r, x - r : x + r].reshape(-1, 3))
    return Nodes(
        (row, col, h, w),
        (round(float(offset[0]), 2), round(float(offset[1]), 2)),
        round(float(angle), 1),
        tuple(dict.fromkeys(others)),
        doubt,
        tuple(pixels),
        white,
    )


def _blocks(cells: set, nodes: set, card_shape: tuple[int, int]) -> list[tuple[int, int, int, int]]:
    """(i0, j0, h, w) card positions in the card's frame holding every changed cell,
    each of their cells showing a node (those that did not change: a node laid on a
    node of its colour)."""
    top, bottom = min(i for i, _ in cells), max(i for i, _ in cells)
    left, right = min(j for _, j in cells), max(j for _, j in cells)
    cw, ch = card_shape
    out = []
    for h, w in sorted({(ch, cw), (cw, ch)}):
        for i0 in range(bottom - h + 1, top + 1):
            for j0 in range(right - w + 1, left + 1):
                block = {(i0 + i, j0 + j) for i in range(h) for j in range(w)}
                if block <= nodes:
                    out.append((i0, j0, h, w))
    # the fullest explanation first: fewest unchanged cells
    return sorted(out, key=lambda b: b[2] * b[3] - len(cells))


def _split(changed: np.ndarray, seen: np.ndarray, px: float, card: tuple[int, int]):
    """(the card's change, a hand's, nodes of other change) in what `changed` (masks `px`
    pixels a node).

    What reaches the edge of the squared-up table in what was `seen` to change came in from
    outside the mat (an arm, its shadow: the edge lies `MARGIN` nodes beyond the lattice,
    where no card lies). The card is the largest piece left and those within one card's
    reach of it (its size and a node: turned, off the grid, its shadow): its change breaks
    up where its nodes lie on nodes of their colour."""
    h, w = changed.shape
    band = int(px / 3)
    reach = ((max(card) + 1) * px, (min(card) + 1) * px)
    n, labels, stats, _ = cv2.connectedComponentsWithStats(seen)
    x, y, bw, bh = stats[:, 0], stats[:, 1], stats[:, 2], stats[:, 3]
    outside = (x < band) | (y < band) | (x + bw > w - band) | (y + bh > h - band)
    outside[0] = False
    hand = np.where(outside[labels], 255, 0).astype(np.uint8)
    changed = changed & ~hand
    n, labels, stats, _ = cv2.connectedComponentsWithStats(
        cv2.morphologyEx(changed, cv2.MORPH_CLOSE, _disc(int(px / 3)))
    )
    pieces = list(range(1, n))
    if not pieces:
        return np.zeros_like(changed), hand, 0.0
    pieces.sort(key=lambda i: -stats[i, cv2.CC_STAT_AREA])
    taken = [pieces[0]]
    for i in pieces[1:]:
        pts = np.concatenate([_corners(stats[j]) for j in [*taken, i]])
        (_, _), (rw, rh), _ = cv2.minAreaRect(pts)
        if max(rw, rh) <= reach[0] and min(rw, rh) <= reach[1]:
            taken.append(i)
    mine = np.where(np.isin(labels, taken), changed, 0).astype(np.uint8)
    rest = sum(int(stats[i, cv2.CC_STAT_AREA]) for i in pieces if i not in taken)
    return mine, hand, rest / px**2


def _disc(size: int) -> np.ndarray:
    return cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (size | 1, size | 1))


def _corners(stat) -> np.ndarray:
    x, y, w, h = (int(v) for v in stat[:4])
    return np.array([[x, y], [x + w, y], [x + w, y + h], [x, y + h]], np.float32)
