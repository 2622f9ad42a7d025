"""Objects in a still photo with no empty-scene image: regions of even colour bounded by edges.

An object (a candy, a sticker, a card) is an area of nearly even colour whose outline is a colour
or lightness edge, or a thin line darker than what lies beside it (the blurred black gap between
two stickers of one colour); the background is what touches the border of the photo and is large.
Nothing assumes the objects are small or sparse: a face of nine touching stickers is nine
regions, because the black grid between them is an edge.

The edge strength that separates two objects differs across a photo (a sharp black gap, a soft
shadow between two candies, a glossy sticker with a gradient of light across it), so regions
are taken at several edge thresholds, the finest first: a region found at a fine threshold
wins, coarser thresholds only add objects where nothing was found yet (a shaded object that the
fine threshold broke into crumbs). A region that is too large or not compact (two candies
touching, a sticker that leaks into the background through a gap in its border) is split at
its narrow necks (`segment.split_touching`); a long region about twice the size of the objects
around it (two stickers of one colour whose black gap blurred away) is cut across into as many
objects as it is long.
"""

from __future__ import annotations

import cv2
import numpy as np

from vision.colour import L_WEIGHT, to_lab, weighted
from vision.segment import Blob, blob_from_contour, split_touching

WORK_SIZE = 320  # long side of the working image: enough for objects of 1/40 the photo
EDGE_STEPS = (3.5, 5.0, 7.0, 10.0)  # weighted-Lab change per pixel that bounds a region
MIN_SOLIDITY = 0.75  # area / convex hull area: an object is compact
HOLES = 0.5  # a region at least this much of its outline holds printed symbols in the rest
MIN_AREA = 0.0003  # of the photo; smaller specks are texture
MAX_AREA = 0.25
BACKGROUND_AREA = 0.02  # a region touching the border and larger than this is background
SAME = 0.6  # a region mostly made of pixels already taken is the same object again
CRUMB = 0.25  # a finer region inside a coarser one and smaller than this share is a crumb
CONVEX = 0.93  # solidity of one object; two touching ones have a waist
NECK = 0.4  # touching objects part where the region is narrower than this share of its widest
ALIKE = 3.0  # touching objects of one kind differ in area by less than this factor
JOIN_GAP = 3  # pixels between two pieces of one object (the edge between them)
JOIN_COLOUR = 10.0  # weighted-Lab difference within which two pieces may be one object
DARK_GAP = 0.7  # a line between two pieces darker than this share crosses a gap
ENCLOSED_MIN = 4  # found objects from which a group can enclose one more
ENCLOSED_DARK = 25.0  # Lab lightness of a dark frame (black plastic, a gap)
ENCLOSED_SIZE = (0.4, 2.5)  # an enclosed object's area as a share of the typical object's
LINE_WIDTH = 5  # pixels: a line narrower than this (a blurred edge of black plastic) is thin,
LINE_DEPTH = 15.0  # and bounds a region when its Lab lightness is this far below beside it
SURFACE = 0.04  # an object inside a region this much larger lies on it (a ball in a tray)
GLINT_LIGHTER = 15.0  # a glint is this much lighter (Lab L) than the object it lies on,
GLINT_CHROMA = 0.6  # and less chromatic than this share of it: a highlight, not an object
PEERS = 4  # the nearest found objects that tell a region's expected size
MIN_PEERS = 3  # fewer peers than this tell no expected size (a crop with one object)
PEER = 0.25  # a neighbour smaller than this share of a region is a crumb, not a peer to go by
MERGED = 1.7  # a region this many times its peers' median area may be objects merged,
IN_A_ROW = 1.8  # if it is long: two square objects side by side are 2 long to 1 wide


def _gradient(lab: np.ndarray) -> np.ndarray:
    """Colour change per pixel in weighted Lab (Sobel, per channel, combined)."""
    w = weighted(cv2.GaussianBlur(lab, (3, 3), 0))
    gx = cv2.Sobel(w, cv2.CV_32F, 1, 0, ksize=3)
    gy = cv2.Sobel(w, cv2.CV_32F, 0, 1, ksize=3)
    return np.sqrt((gx * gx + gy * gy).sum(axis=2)) / 8.0


class _Picker:
    """Accepts compact regions of plausible size that do not overlap one already taken."""

    def __init__(self, lab: np.ndarray):
        self.lab = lab
        self.h, self.w = lab.shape[:2]
        shape = (self.h, self.w)
        area = self.h * self.w
        self.a_min, self.a_max = MIN_AREA * area, MAX_AREA * area
        self.claimed = np.zeros(shape, np.uint8)
        self.hulls: list[np.ndarray] = []

    def hull(self, mask: np.ndarray, x: int, y: int) -> tuple[np.ndarray, float] | None:
        """The region's convex hull (work-image coordinates) and solidity, if it looks like
        one object."""
        area = int(cv2.countNonZero(mask))
        if not self.a_min <= area <= self.a_max:
            return None
        mh, mw = mask.shape
        touches = x == 0 or y == 0 or x + mw == self.w or y + mh == self.h
        if touches and area > BACKGROUND_AREA * self.h * self.w:
            return None
        contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
        outline = max(contours, key=cv2.contourArea)
        hull = cv2.convexHull(outline)
        hull_area = cv2.contourArea(hull)
        # a printed symbol is a hole in the region, not a dent: solidity of the outline; a
        # region that is mostly holes is a lattice (the frame between stickers), not one
        filled = max(cv2.contourArea(outline), 1.0)
        solid = filled if area >= HOLES * filled else area
        solidity = solid / hull_area if hull_area > 0 else 0.0
        if solidity < MIN_SOLIDITY:
            return None
        return hull + np.array([x, y], np.int32).reshape(1, 1, 2), solidity

    def take(self, mask: np.ndarray, x: int, y: int, found: tuple, step: int) -> None:
        mh, mw = mask.shape
        claimed = self.claimed[y : y + mh, x : x + mw]
        under = claimed[mask > 0]
        if len(under) and cv2.countNonZero(under) > SAME * len(under):
            return  # the same object again, found at a coarser edge threshold
        claimed |= mask
        self.hulls.append((*found, step))

    def _mean(self, hull: np.ndarray) -> np.ndarray:
        x, y, w, h = cv2.boundingRect(hull)
        mask = np.zeros((h, w), np.uint8)
        cv2.drawContours(mask, [hull - np.array([x, y], np.int32).reshape(1, 1, 2)], -1, 1, -1)
        return np.array(cv2.mean(self.lab[y : y + h, x : x + w], mask)[:3])

    def _feature(self, hull: np.ndarray, outer: np.ndarray) -> bool:
        """A small region that is part of the one around it rather than an object lying on it:
        of the same colour (a crumb cut off by texture), or a highlight on a glossy object
        (much lighter and greyer)."""
        inner, around = self._mean(hull), self._mean(outer)
        if np.linalg.norm(weighted(inner) - weighted(around)) <= JOIN_COLOUR:
            return True
        (li, ai, bi), (lo, ao, bo) = inner, around
        greyer = np.hypot(ai, bi) < GLINT_CHROMA * np.hypot(ao, bo)
        return li > lo + GLINT_LIGHTER and greyer

    def objects(self) -> list[np.ndarray]:
        """The hulls taken, without nesting. A region inside another one is:
        * a piece of it, when found at a finer edge threshold and either much smaller (a
          glossy, shaded candy breaks into crumbs at fine thresholds) or the other one is
          convex (a glint cuts a candy in two): the piece goes; two touching objects merged
          at a coarse threshold are not convex (a waist where they meet) and lose to their
          pieces;
        * else an object lying on a surface, when much smaller (a ball in the tray): the
          surface goes; or a feature of the object (a glint, a printed symbol): it goes.
        """
        regions = sorted(self.hulls, key=lambda r: cv2.contourArea(r[0]), reverse=True)
        owner = np.zeros(self.claimed.shape, np.int32)
        dropped = set()
        for k, (hull, _, step) in enumerate(regions):
            x, y, w, h = cv2.boundingRect(hull)
            inside = np.zeros((h, w), np.uint8)
            cv2.drawContours(
                inside, [hull - np.array([x, y], np.int32).reshape(1, 1, 2)], -1, 1, -1
            )
            under = owner[y : y + h, x : x + w][inside > 0]
            under = under[under > 0]
            # inside another region: most of it lies within that region's outline
            if len(under) and len(under) >= 0.5 * cv2.countNonZero(inside):
                outer = int(np.bincount(under).argmax()) - 1
                o_hull, o_solidity, o_step = regions[outer]
                share = cv2.contourArea(hull) / max(cv2.contourArea(o_hull), 1.0)
                if step < o_step:
                    piece = share < CRUMB or o_solidity >= CONVEX
                    dropped.add(k if piece else outer)
                elif share < SURFACE and not self._feature(hull, o_hull):
                    dropped.add(outer)
                else:
                    dropped.add(k)
            cv2.drawContours(owner, [hull], -1, k + 1, cv2.FILLED)
        return [h for k, (h, _, _) in enumerate(regions) if k not in dropped]


def _alike_objects(parts: list[tuple[np.ndarray, float]]) -> bool:
    """Pieces that look like several objects of one kind touching (balls in a heap): each is
    convex and none is much larger than another. A glossy candy cut by its glints is not."""
    if len(parts) < 2 or any(solidity < CONVEX for _, solidity in parts):
        return False
    areas = [cv2.contourArea(hull) for hull, _ in parts]
    return max(areas) <= ALIKE * min(areas)


def _centre(hull: np.ndarray) -> tuple[float, float]:
    m = cv2.moments(hull)
    return m["m10"] / max(m["m00"], 1e-6), m["m01"] / max(m["m00"], 1e-6)


def _join_pieces(hulls: list[np.ndarray], lab: np.ndarray) -> list[np.ndarray]:
    """Neighbouring regions of one colour (or a crumb beside a large region) with no dark gap
    between them and a convex union are one object that a glint or a shading edge cut in two
    (a glossy candy); stickers side by side stay apart, since the black grid lies between."""
    n = len(hulls)
    boxes = [cv2.boundingRect(h) for h in hulls]
    means, centres = [], []
    for h, (x, y, w, hh) in zip(hulls, boxes, strict=True):
        mask = np.zeros((hh, w), np.uint8)
        cv2.drawContours(mask, [h - np.array([x, y], np.int32).reshape(1, 1, 2)], -1, 1, -1)
        means.append(weighted(np.array(cv2.mean(lab[y : y + hh, x : x + w], mask)[:3])))
        centres.append(_centre(h))
    parent = list(range(n))

    def root(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    g = JOIN_GAP
    for i in range(n):
        xi, yi, wi, hi = boxes[i]
        for j in range(i + 1, n):
            xj, yj, wj, hj = boxes[j]
            if xj > xi + wi + g or xi > xj + wj + g or yj > yi + hi + g or yi > yj + hj + g:
                continue
            ai, aj = cv2.contourArea(hulls[i]), cv2.contourArea(hulls[j])
            crumb = min(ai, aj) < CRUMB * max(ai, aj)  # a glint at the rim differs in colour
            if not crumb and np.linalg.norm(means[i] - means[j]) > JOIN_COLOUR:
                continue
            both = np.vstack([hulls[i], hulls[j]])
            union = ai + aj
            if union < CONVEX * cv2.contourArea(cv2.convexHull(both)):
                continue
            (x0, y0), (x1, y1) = centres[i], centres[j]
            t = np.linspace(0.0, 1.0, 16)
            xs = np.clip(np.round(x0 + t * (x1 - x0)).astype(int), 0, lab.shape[1] - 1)
            ys = np.clip(np.round(y0 + t * (y1 - y0)).astype(int), 0, lab.shape[0] - 1)
            darkest = float(lab[ys, xs, 0].min())
            if darkest < DARK_GAP * min(means[i][0], means[j][0]) / L_WEIGHT:
                continue
            parent[root(j)] = root(i)
    groups: dict[int, list[np.ndarray]] = {}
    for i in range(n):
        groups.setdefault(root(i), []).append(hulls[i])
    return [g[0] if len(g) == 1 else cv2.convexHull(np.vstack(g)) for g in groups.values()]


def _enclosed(
    hulls: list[np.ndarray], lab: np.ndarray, grad: np.ndarray, lines: np.ndarray
) -> list[np.ndarray]:
    """Objects of the background's colour inside a group of found ones (a white sticker at
    the edge of a cube held over white paper): no edge parts them from the background, but the
    group's dark frame (a cube's black plastic; at its blurred outer edge, thin lines darker than
    the paper) and its neighbours enclose them. They are even areas, not dark, within the
    convex outline of the group and its dark frame, of about the size of their neighbours."""
    if len(hulls) < ENCLOSED_MIN:
        return []
    h, w = grad.shape
    objects = np.zeros((h, w), np.uint8)
    cv2.drawContours(objects, hulls, -1, 1, cv2.FILLED)
    areas = np.array([cv2.contourArea(hh) for hh in hulls])
    typical = float(np.median(areas))
    r = max(1, int(round(0.5 * np.sqrt(typical))))
    k = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * r + 1, 2 * r + 1))
    near = cv2.dilate(objects, k)
    dark = (lab[:, :, 0] < ENCLOSED_DARK).astype(np.uint8)
    # the frame: dark areas that reach near the objects, unless they reach the photo's border
    # too (a dark background, a sleeve)
    n, labels, stats, _ = cv2.connectedComponentsWithStats(dark, connectivity=8)
    frame_ids = np.unique(labels[(near > 0) & (dark > 0)])
    x, y, fw, fh = (stats[frame_ids, k] for k in range(4))
    inner = (x > 0) & (y > 0) & (x + fw < w) & (y + fh < h)
    keep = np.zeros(n, np.uint8)
    keep[frame_ids[inner]] = 1
    # and the thin dark lines within an object's side of them: a cube's blurred outer edge
    # is no longer black, but still darker than the paper and the stickers beside it
    reach = cv2.distanceTransform(1 - objects, cv2.DIST_L2, 3) <= np.sqrt(typical)
    body = objects | (dark & near) | keep[labels] | (lines & reach)
    pts = cv2.findNonZero(body)
    if pts is None:
        return []
    outline = np.zeros((h, w), np.uint8)
    cv2.drawContours(outline, [cv2.convexHull(pts)], -1, 1, cv2.FILLED)
    taken = cv2.dilate(objects, np.ones((3, 3), np.uint8))
    free = outline & (1 - taken) & (1 - dark) & (grad < EDGE_STEPS[1]).astype(np.uint8)
    free = cv2.morphologyEx(free, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
    n, labels, stats, centroids = cv2.connectedComponentsWithStats(free, connectivity=4)
    centres = np.array([_centre(hh) for hh in hulls])
    out = []
    for i in range(1, n):
        x, y, bw, bh, area = (int(v) for v in stats[i])
        # not a crumb of the photo's objects, nor larger than its neighbours: sizes vary across
        # a photo (a near face's stickers are several times the median), so the nearest objects
        # that are no crumbs beside it may allow more than the median does
        peers = np.flatnonzero(areas >= PEER * area)
        nearest = peers[np.argsort(np.hypot(*(centres[peers] - centroids[i]).T))[:PEERS]]
        largest = max(typical, float(np.median(areas[nearest])) if len(nearest) else 0.0)
        if not ENCLOSED_SIZE[0] * typical <= area <= ENCLOSED_SIZE[1] * largest:
            continue
        mask = (labels[y : y + bh, x : x + bw] == i).astype(np.uint8)
        contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
        hull = cv2.convexHull(max(contours, key=cv2.contourArea))
        if area >= CONVEX * cv2.contourArea(hull):
            out.append(hull + np.array([x, y], np.int32).reshape(1, 1, 2))
    return out


def _thin_dark_lines(lab: np.ndarray) -> np.ndarray:
    """Pixels of lines a few pixels wide that are darker than what lies beside them."""
    kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (LINE_WIDTH, LINE_WIDTH))
    depth = cv2.morphologyEx(np.ascontiguousarray(lab[:, :, 0]), cv2.MORPH_BLACKHAT, kernel)
    return (depth >= LINE_DEPTH).astype(np.uint8)


def _split_merged(hulls: list[np.ndarray], shape: tuple[int, int]) -> list[np.ndarray]:
    """Neighbours of one colour found as one region (two red stickers side by side whose black
    gap blurred away): a long region, larger than the objects around it and as long as one of
    them plus the steps to one or more next ones, is cut across its long axis into that many
    pieces."""
    rects = [cv2.minAreaRect(h) for h in hulls]
    sides = np.array([sorted(r[1]) for r in rects]).reshape(-1, 2)  # short, long
    long = np.flatnonzero(sides[:, 1] >= IN_A_ROW * sides[:, 0])
    if len(long) == 0:
        return hulls
    areas = np.array([cv2.contourArea(h) for h in hulls])
    centres = np.array([_centre(h) for h in hulls])
    x, y, w, h = np.array([cv2.boundingRect(hull) for hull in hulls]).T
    # an object cut by the photo's edge does not show its size
    whole = (x > 0) & (y > 0) & (x + w < shape[1]) & (y + h < shape[0])
    pieces = {}
    for k in long:
        peers = np.flatnonzero(whole & (areas >= PEER * areas[k]))
        peers = peers[peers != k]
        if len(peers) < MIN_PEERS:
            continue
        near = peers[np.argsort(np.hypot(*(centres[peers] - centres[k]).T))[:PEERS]]
        if areas[k] < MERGED * float(np.median(areas[near])):
            continue
        # as long as one object and (n - 1) steps from an object to the next (its nearest peer)
        apart = np.hypot(*(centres[near, None] - centres[None, peers]).transpose(2, 0, 1))
        step = float(np.median(np.sort(apart, axis=1)[:, 1]))
        n = round(1 + (sides[k, 1] - float(np.median(sides[near, 1]))) / max(step, 1.0))
        if n >= 2:
            pieces[k] = _cut_across(hulls[k], rects[k], n)
    return [p for k, hull in enumerate(hulls) for p in pieces.get(k, [hull])]


def _cut_across(hull: np.ndarray, rect, n: int) -> list[np.ndarray]:
    """`n` pieces of equal length along the long axis of the region's rotated rectangle."""
    (cx, cy), (rw, rh), angle = rect
    if rw < rh:
        rw, angle = rh, angle + 90.0
    ux, uy = np.cos(np.radians(angle)), np.sin(np.radians(angle))
    x, y, w, h = cv2.boundingRect(hull)
    mask = np.zeros((h, w), np.uint8)
    cv2.drawContours(mask, [hull - np.array([x, y], np.int32).reshape(1, 1, 2)], -1, 1, -1)
    ys, xs = np.nonzero(mask)
    t = ((xs + x - cx) * ux + (ys + y - cy) * uy) / rw + 0.5  # 0..1 along the long axis
    piece = np.clip((t * n).astype(int), 0, n - 1)
    out = []
    for i in range(n):
        pts = np.stack([xs[piece == i] + x, ys[piece == i] + y], axis=1).astype(np.int32)
        if len(pts) >= 3:
            out.append(cv2.convexHull(pts.reshape(-1, 1, 2)))
    return out


def object_regions(frame: np.ndarray, white: np.ndarray) -> list[Blob]:
    """Every object of a still photo (full-frame coordinates), largest first."""
    h, w = frame.shape[:2]
    s = min(1.0, WORK_SIZE / max(h, w))
    small = frame
    if s < 1.0:
        size = (max(1, round(w * s)), max(1, round(h * s)))
        small = cv2.resize(frame, size, interpolation=cv2.INTER_AREA)
    lab = to_lab(small, white).reshape(small.shape)
    grad = _gradient(lab)
    pick = _Picker(lab)
    split_radius = max(2, round(0.01 * max(grad.shape)))
    lines = _thin_dark_lines(lab)
    for step, edge in enumerate(EDGE_STEPS):
        even = (grad < edge).astype(np.uint8) & (1 - lines)
        n, labels, stats, _ = cv2.connectedComponentsWithStats(even, connectivity=4)
        for i in np.argsort(-stats[:, cv2.CC_STAT_AREA]):
            x, y, bw, bh, area = (int(v) for v in stats[i])
            if i == 0 or area < pick.a_min:
                continue
            mask = (labels[y : y + bh, x : x + bw] == i).astype(np.uint8)
            found = pick.hull(mask, x, y)
            if found is not None and found[1] >= CONVEX:
                pick.take(mask, x, y, found, step)
                continue
            # not one convex object: touching ones (cut where the region narrows), or one
            # leaking into the background through a gap (cut at a fixed small radius)
            radius = None if found is not None else split_radius
            pieces = [
                (x + px, y + py, piece, pick.hull(piece, x + px, y + py))
                for px, py, piece in split_touching(mask, radius, NECK)
            ]
            pieces = [p for p in pieces if p[3] is not None]
            if found is not None and not _alike_objects([p[3] for p in pieces]):
                pick.take(mask, x, y, found, step)
                continue
            for px, py, piece, part in pieces:
                pick.take(piece, px, py, part, step)
    out = []
    hulls = _split_merged(_join_pieces(pick.objects(), lab), grad.shape)
    for hull in hulls + _enclosed(hulls, lab, grad, lines):
        contour = np.round(hull.astype(np.float64) / s).astype(np.int32)
        blob = blob_from_contour(contour)
        if blob is not None:
            out.append(blob)
    out.sort(key=lambda b: -b.area)
    return out
