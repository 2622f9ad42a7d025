"""The one colour path every reader takes:

    camera RGB -> linear light -> white from the neutral references in the same frame,
    interpolated across it -> weighted CIELAB -> the classifier (`vision.classify`)

No reader converts camera colour itself (`tests/vision/test_colour_path.py` checks it): each
hands its pixels and the place they come from to this module.

- **Linear light.** Camera frames are sRGB-encoded; a change of light multiplies linear light,
  so white balance divides there (von Kries), never the encoded values.
- **White from the frame.** A white patch, a tile, a tray floor or a card's paper margin seen in
  the same frame says what colour the light is (`reference_white`). One reference is not enough
  when a lamp lights one side of the table and a window the other: `LightField` measures how
  the light's colour changes across the table on a surface of one material (the empty table,
  tray or mat of the set-up), relative to its colour beside the reference, and `White.at(x, y)`
  carries the reference's white to every place of the frame.
- **One feature space.** CIELAB of the balanced linear light, lightness weighted by `L_WEIGHT`
  (shading changes lightness far more than hue and chroma).

Frames are OpenCV BGR uint8 arrays; linear light is float32 0..1 in the same channel order.
"""

from __future__ import annotations

from collections.abc import Sequence

import cv2
import numpy as np

# The white reference is mapped to this linear level, so highlights keep some headroom.
LEVEL = 0.9
# Lightness weighs less than hue and chroma: shading changes L far more than a and b.
L_WEIGHT = 0.5
# Pixels this close to grey (|r-1/3|+|g-1/3|+|b-1/3| of normalised RGB) count as neutral.
NEUTRAL_CHROMA = 0.06

_DECODE = np.array(
    [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in np.arange(256) / 255],
    np.float32,
)


def linear(bgr: np.ndarray) -> np.ndarray:
    """Linear light (float32, 0..1) of sRGB-encoded uint8 pixels, any shape."""
    return _DECODE[bgr]


def quantiles(values: np.ndarray, qs: tuple[float, ...]) -> list[float]:
    """Lower quantiles of a 1-D array by partial sort (np.percentile is slow on small arrays)."""
    n = len(values)
    ks = [min(n - 1, max(0, int(q * (n - 1)))) for q in qs]
    part = np.partition(values, ks)
    return [float(part[k]) for k in ks]


def reference_white(pixels: np.ndarray) -> np.ndarray:
    """The linear colour of a neutral reference from its uint8 BGR pixels, glare (the
    brightest tenth) and dirt or shadow (the darkest fifth) left out."""
    px = linear(np.asarray(pixels, np.uint8).reshape(-1, 3))
    if len(px) == 0:
        raise ValueError("a white reference needs pixels")
    grey = px.sum(axis=1)
    lo, hi = quantiles(grey, (0.2, 0.9))
    keep = px[(grey >= lo) & (grey <= hi)]
    return np.maximum((keep if len(keep) else px).mean(axis=0), 1e-4)


def chromaticity(white: np.ndarray) -> np.ndarray:
    w = np.maximum(np.asarray(white, np.float32), 1e-6)
    return w / w.sum(axis=-1, keepdims=True)


class LightField:
    """How the colour of the light changes across the frame, measured on the surfaces of an
    empty scene (the table, a tray, a mat: each one material, so what changes their colour
    from place to place is the light), relative to the light beside the white reference.

    `empty` is the scene without pieces (BGR uint8); `anchor` the reference's outline (x, y
    points). Only the light's hue is taken from the surfaces, never its level: a shadow or a
    vignette darkens a surface, and the level of every reading comes from its own pixels'
    relation to the reference. The surfaces are smoothed over a few centimetres: grain, print
    and the odd object vanish, a lamp's gradient stays.
    """

    SCALE = 0.25  # measured on a quarter-size image

    def __init__(self, empty: np.ndarray, anchor: Sequence[Sequence[float]]) -> None:
        h, w = empty.shape[:2]
        small = cv2.resize(empty, None, fx=self.SCALE, fy=self.SCALE, interpolation=cv2.INTER_AREA)
        # the median removes pieces of texture and small objects; the blur the rest of the grain
        small = cv2.medianBlur(small, 11)
        hue = chromaticity(linear(small))
        self._hue = cv2.GaussianBlur(hue, (0, 0), 4)
        pts = np.asarray(anchor, np.float32)
        centre = pts.mean(axis=0)
        ring = np.zeros(small.shape[:2], np.uint8)
        outer = ((pts - centre) * 2.2 + centre) * self.SCALE
        inner = ((pts - centre) * 1.3 + centre) * self.SCALE
        cv2.fillPoly(ring, [np.round(outer).astype(np.int32)], 1)
        cv2.fillPoly(ring, [np.round(inner).astype(np.int32)], 0)
        around = self._hue[ring > 0]
        self._ref = np.median(around, axis=0) if len(around) else chromaticity(np.ones(3))
        self.size = (w, h)

    def at(self, x: float, y: float) -> np.ndarray:
        """The light's colour at (x, y) relative to the reference's (mean 1)."""
        hh, ww = self._hue.shape[:2]
        i = min(hh - 1, max(0, int(y * self.SCALE)))
        j = min(ww - 1, max(0, int(x * self.SCALE)))
        ratio = self._hue[i, j] / self._ref
        return ratio / ratio.mean()


class White:
    """The white of one frame at every place: a reference's white carried across the frame
    by the set-up's light field (or the same everywhere without one)."""

    def __init__(self, reference: np.ndarray, field: LightField | None = None) -> None:
        self.reference = np.asarray(reference, np.float32)
        self.field = field

    def at(self, x: float, y: float) -> np.ndarray:
        if self.field is None:
            return self.reference
        white = self.reference * self.field.at(x, y)
        # the field says the light's hue, not its level: the level stays the reference's
        return white * (self.reference.sum() / white.sum())


def to_lab(pixels: np.ndarray, white: np.ndarray) -> np.ndarray:
    """CIELAB (float32, N x 3) of uint8 BGR pixels balanced by a linear `white`."""
    px = linear(np.asarray(pixels, np.uint8).reshape(-1, 3))
    balanced = np.clip(px * (LEVEL / np.asarray(white, np.float32)), 0.0, 1.0)
    return cv2.cvtColor(balanced.reshape(-1, 1, 3), cv2.COLOR_LBGR2Lab).reshape(-1, 3)


def lab8(bgr: np.ndarray, gain: np.ndarray | None = None) -> np.ndarray:
    """Fast 8-bit CIELAB (int16, L 0..255, a and b offset by 128) of uint8 BGR pixels, first
    brought to another light by a per-channel linear `gain`: for finding what changed against
    an empty scene, not for reading a colour (an sRGB curve of gamma 2.2 is close enough)."""
    if gain is not None and not np.allclose(gain, 1.0):
        g = np.asarray(gain, np.float64) ** (1 / 2.2)
        bgr = cv2.multiply(bgr, (float(g[0]), float(g[1]), float(g[2]), 0.0), dtype=cv2.CV_8U)
    return cv2.cvtColor(np.ascontiguousarray(bgr), cv2.COLOR_BGR2Lab).astype(np.int16)


# `lab8` lightness units per CIELAB unit, times the classifier's weight on lightness
LAB8_L_WEIGHT = L_WEIGHT * 100 / 255


def robust_colour(lab_pixels: np.ndarray) -> np.ndarray:
    """Median Lab of an object's pixels with specular highlights and deep shadows dropped.

    Highlights are the brightest, least saturated pixels; deep shadows the darkest. Both carry
    the light's colour or nothing at all, not the object's.
    """
    px = lab_pixels.reshape(-1, 3)
    if len(px) == 0:
        raise ValueError("no pixels to measure")
    lightness = px[:, 0]
    lo, hi = quantiles(lightness, (0.15, 0.85))
    chroma = np.abs(px[:, 1]) + np.abs(px[:, 2])
    glare = (lightness > hi) & (chroma < quantiles(chroma, (0.5,))[0])
    keep = (lightness >= lo) & (lightness <= hi) & ~glare
    if keep.sum() < 5:
        keep = np.ones(len(px), dtype=bool)
    return np.median(px[keep], axis=0).astype(np.float32)


def colour_of(pixels: np.ndarray, white: np.ndarray) -> np.ndarray:
    """The Lab colour of one object from its uint8 BGR pixels and the white where it lies."""
    return robust_colour(to_lab(pixels, white))


def spread_of(pixels: np.ndarray, white: np.ndarray) -> float:
    """How much one object's colour varies over it (in `feature`s, a robust RMS): shading
    over a ball, the grain of a print. The classifier's honest scale for that colour."""
    return lab_spread(to_lab(pixels, white))


def lab_spread(lab: np.ndarray) -> float:
    """`spread_of` for pixels already in Lab."""
    f = feature(lab)
    dev = np.linalg.norm(f - np.median(f, axis=0), axis=1)
    return float(1.4826 * np.median(dev)) if len(dev) else 0.0


def weighted(lab: np.ndarray) -> np.ndarray:
    """Lab with lightness weighed by `L_WEIGHT`: the colour change that bounds a region."""
    w = np.array([L_WEIGHT, 1.0, 1.0], dtype=np.float32)
    return np.asarray(lab, dtype=np.float32) * w


def feature(lab: np.ndarray) -> np.ndarray:
    """The classifier's feature space: CIELAB with lightness weighed by `L_WEIGHT` (shading
    changes lightness far more than hue and chroma).

    Normalising the chroma for lightness as well (shade shrinks CIELAB's chroma: a red
    sticker in a hand's shadow drifts towards brown) read the real photos' development
    split better but the Node table's worse; one plain space serves every reader."""
    return weighted(lab)


def scene_white(frame: np.ndarray) -> np.ndarray:
    """The light's colour for a photo with no reference in view, from the photo itself.

    Its hue is shades-of-grey (the Minkowski p=4 mean) over the least chromatic third of the
    pixels, refined once, so a dominant coloured surface does not become "white"; with too
    few near-grey pixels (a close-up of coloured objects) the camera's own balance is kept.
    Its level is set so that the brightest objects (all but the top 0.5 % of pixels, the
    glints) are not clipped.
    """
    px = linear(frame[::4, ::4]).reshape(-1, 3) + 1e-4
    if len(px) < 3:
        return np.full(3, LEVEL, np.float32)
    unclipped = px.max(axis=1) < 0.97
    pool = px[unclipped] if unclipped.sum() >= 30 else px
    rgb = pool / pool.sum(axis=1, keepdims=True)
    neutral = float((np.abs(rgb - 1.0 / 3.0).sum(axis=1) < NEUTRAL_CHROMA).mean())
    hue = np.ones(3, np.float32)
    for _ in range(2):
        rgb = pool / hue
        c = np.abs(rgb / rgb.sum(axis=1, keepdims=True) - 1.0 / 3.0).sum(axis=1)
        grey = pool[c <= quantiles(c, (0.33,))[0]]
        hue = (grey**4).mean(axis=0) ** 0.25
        hue = hue / hue.mean()
    trust = min(1.0, max(0.0, (neutral - 0.15) / 0.25))
    hue = 1.0 + trust * (hue - 1.0)
    top = quantiles((px / hue).max(axis=1), (0.995,))[0]
    return (hue * top).astype(np.float32)


def exposure_white(frame: np.ndarray) -> np.ndarray:
    """The camera's own white at the photo's exposure: grey, as bright as all but the
    brightest 0.5 % of the photo (its glints), so that a dim photo is seen as bright."""
    px = linear(frame[::4, ::4]).reshape(-1, 3)
    top = quantiles(px.max(axis=1), (0.995,))[0] if len(px) else LEVEL
    return np.full(3, max(top, 1e-3), np.float32)


def photo_white(frame: np.ndarray, white_roi=None) -> np.ndarray:
    """The white of a still photo: its white patch when it shows one; else the camera's own
    balance (a phone balances every photo; no neutral reference in view means none to
    correct it by, and guessing one from the photo's colours moves them)."""
    if white_roi:
        x, y, w, h = white_roi
        patch = frame[y : y + h, x : x + w].reshape(-1, 3)
        if len(patch):
            return reference_white(patch)
    return np.full(3, LEVEL, np.float32)


def light_change(empty: np.ndarray, frame: np.ndarray, step: int = 8) -> np.ndarray | None:
    """How the light changed, per channel (linear), between the empty scene and a frame of
    it: the ratio of the two on the places nothing covers now (most of a table), None when
    too little of it is left. The pieces and a hand change their places' ratio each their
    own way; the bare table changes all alike."""
    h, w = empty.shape[:2]
    size = (max(1, w // step), max(1, h // step))  # blocks averaged: sensor noise gone
    a = linear(cv2.resize(empty, size, interpolation=cv2.INTER_AREA)).reshape(-1, 3) + 1e-3
    b = linear(cv2.resize(frame, size, interpolation=cv2.INTER_AREA)).reshape(-1, 3) + 1e-3
    ratio = b / a
    level = np.median(ratio, axis=0)
    alike = np.all(np.abs(ratio / level - 1.0) < 0.1, axis=1)
    if alike.mean() < 0.3:
        return None
    return np.median(ratio[alike], axis=0).astype(np.float32)


def patch_covered(frame: np.ndarray, empty: np.ndarray, polygon: Sequence[Sequence[float]]) -> bool:
    """True when the white reference is covered (a hand, a cup): its colour then says
    nothing about the light, and no colour may be read from the frame.

    Compared with the same place in the empty scene, a change of light scales every pixel of
    the reference alike; a hand changes its hue, or some pixels and not others.
    """
    pts = np.round(np.asarray(polygon, np.float32)).astype(np.int32)
    x, y, w, h = cv2.boundingRect(pts)
    x, y = max(0, x), max(0, y)
    now = frame[y : y + h : 2, x : x + w : 2].reshape(-1, 3).astype(np.float32) + 1.0
    ref = empty[y : y + h : 2, x : x + w : 2].reshape(-1, 3).astype(np.float32) + 1.0
    if len(now) < 4 or now.shape != ref.shape:
        return True
    gain = now.sum(axis=1) / ref.sum(axis=1)
    level = float(np.median(gain))
    even = float(np.abs(gain - level).mean()) <= 0.08 * level
    ratio = now.mean(axis=0) / ref.mean(axis=0)
    same_hue = float(ratio.max()) <= 1.35 * float(ratio.min())
    return not (even and same_hue and 0.35 <= level <= 2.5)
