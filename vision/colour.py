"""Colour measurement: white balance from a reference patch, CIELAB, robust object colour.

Everything here works on small regions so a 640x480 frame costs a few milliseconds. Frames are
OpenCV BGR uint8 arrays. Lab values use the CIE scale: L 0..100, a and b about -128..127.
"""

from __future__ import annotations

import cv2
import numpy as np

# The white patch is mapped to this grey level so highlights keep some headroom.
PATCH_LEVEL = 0.9
# Lightness weighs less than hue and chroma: shading changes L far more than a and b.
L_WEIGHT = 0.5
# Pixels this close to grey (|r-1/3|+|g-1/3|+|b-1/3| of normalised RGB) count as neutral.
NEUTRAL_CHROMA = 0.06


def quantiles(values: np.ndarray, qs: tuple[float, ...]) -> list[float]:
    """Lower quantiles of a 1-D array by partial sort (np.percentile is slow on small arrays)."""
    n = len(values)
    ks = [min(n - 1, max(0, int(q * (n - 1)))) for q in qs]
    part = np.partition(values, ks)
    return [float(part[k]) for k in ks]


def white_from_patch(frame: np.ndarray, roi: tuple[int, int, int, int]) -> np.ndarray:
    """The BGR colour of the white/grey reference patch (x, y, w, h), glare and dirt trimmed."""
    x, y, w, h = roi
    patch = frame[y : y + h, x : x + w].reshape(-1, 3).astype(np.float32)
    if patch.size == 0:
        raise ValueError(f"white patch region {roi} lies outside the frame")
    grey = patch.sum(axis=1)
    lo, hi = quantiles(grey, (0.2, 0.9))
    keep = patch[(grey >= lo) & (grey <= hi)]
    if len(keep) == 0:
        keep = patch
    return np.maximum(keep.mean(axis=0), 1.0)


def white_from_scene(frame: np.ndarray) -> np.ndarray:
    """The light's colour estimated from the scene, for photos with no reference patch.

    Its hue is shades-of-grey (the Minkowski p=4 mean) over the least chromatic third of the
    pixels, refined once, so a dominant coloured surface does not become "white" (with too few
    near-grey pixels, a close-up of coloured objects, the camera's balance is kept); its level is
    set so the brightest objects (all but the top 0.5% of pixels, specular glints) are not
    clipped: a bright orange stays orange instead of turning yellow.
    """
    px = frame[::4, ::4].reshape(-1, 3).astype(np.float32) + 1.0
    if len(px) < 3:
        return np.ones(3, np.float32)
    unclipped = px.max(axis=1) < 251
    pool = px[unclipped] if unclipped.sum() >= 30 else px
    rgb = pool / pool.sum(axis=1, keepdims=True)
    neutral = float((np.abs(rgb - 1.0 / 3.0).sum(axis=1) < NEUTRAL_CHROMA).mean())
    hue = np.ones(3, np.float32)
    for _ in range(2):
        rgb = pool / hue
        chroma = np.abs(rgb / rgb.sum(axis=1, keepdims=True) - 1.0 / 3.0).sum(axis=1)
        grey = pool[chroma <= quantiles(chroma, (0.33,))[0]]
        hue = (grey**4).mean(axis=0) ** 0.25
        hue = hue / hue.mean()
    # a close-up of coloured objects has no neutral to go by: trust the camera's own balance
    trust = min(1.0, max(0.0, (neutral - 0.15) / 0.25))
    hue = 1.0 + trust * (hue - 1.0)
    top = quantiles((px / hue).max(axis=1), (0.995,))[0]
    return (hue * top * PATCH_LEVEL).astype(np.float32)


def frame_white(frame: np.ndarray, white_roi: tuple[int, int, int, int] | None) -> np.ndarray:
    """The white of a frame: its reference patch when there is one, else the scene's estimate."""
    return white_from_patch(frame, white_roi) if white_roi else white_from_scene(frame)


def patch_trustworthy(
    frame: np.ndarray, white_roi: tuple[int, int, int, int] | None, empty: np.ndarray
) -> bool:
    """False when the white patch is covered (a hand, a cup): its colour then says nothing
    about the light, and no colour may be read from the frame.

    Compared with the same patch in the empty scene `empty`, a change of light scales every
    pixel of the patch alike (a shadow edge that was already there stays where it was); a
    hand changes the hue, or some pixels and not others.
    """
    if white_roi is None:
        return True
    x, y, w, h = white_roi
    now = frame[y : y + h : 2, x : x + w : 2].reshape(-1, 3).astype(np.float32) + 1.0
    ref = empty[y : y + h : 2, x : x + w : 2].reshape(-1, 3).astype(np.float32) + 1.0
    if len(now) < 4 or now.shape != ref.shape:
        return False
    gain = now.sum(axis=1) / ref.sum(axis=1)
    level = float(np.median(gain))
    even = float(np.abs(gain - level).mean()) <= 0.08 * level
    ratio = now.mean(axis=0) / ref.mean(axis=0)
    same_hue = float(ratio.max()) <= 1.35 * float(ratio.min())
    return even and same_hue and 0.35 <= level <= 2.5


def to_lab(bgr: np.ndarray, white: np.ndarray) -> np.ndarray:
    """White-balanced CIELAB (float32, same shape) of a BGR uint8 image or pixel list."""
    scale = (PATCH_LEVEL / np.asarray(white, dtype=np.float32)).reshape(1, 1, 3)
    img = bgr.reshape(-1, 1, 3) if bgr.ndim == 2 else bgr
    balanced = np.clip(img.astype(np.float32) * scale, 0.0, 1.0)
    lab = cv2.cvtColor(balanced, cv2.COLOR_BGR2Lab)
    return lab.reshape(bgr.shape).astype(np.float32)


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


def weighted(lab: np.ndarray) -> np.ndarray:
    """Lab scaled so that Euclidean distance is the classifier's colour difference."""
    w = np.array([L_WEIGHT, 1.0, 1.0], dtype=np.float32)
    return np.asarray(lab, dtype=np.float32) * w
