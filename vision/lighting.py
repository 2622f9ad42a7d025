"""The light over the rendered table and the camera that sees it.

Light sources (colour, intensity, a second source from the other side, a cast shadow band,
a gradient) light the scene in linear RGB; the camera has its white balance locked at daylight
(so warm light really tints the frame), colour cross-talk, auto exposure (in `vision.render`),
sensor noise that grows with gain, sRGB encoding and clipping.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Sequence
from dataclasses import dataclass

import cv2
import numpy as np


@dataclass(frozen=True)
class Light:
    colour: tuple[float, float, float]  # linear RGB relative to daylight
    intensity: float = 1.0
    second: tuple[float, float, float] | None = None  # a second source from the other side
    shadow: float = 0.0  # strength of a cast shadow band (0 = none)
    gradient: float = 0.2  # brightness change across the frame


LIGHT_SOURCES: dict[str, Light] = {
    "daylight": Light((1.0, 1.0, 1.0)),
    "overcast": Light((0.9, 0.97, 1.1), intensity=0.7, gradient=0.1),
    "tungsten": Light((1.0, 0.66, 0.36), intensity=0.8),
    "warm-led": Light((1.0, 0.76, 0.5), intensity=0.9),
    "fluorescent": Light((0.92, 1.0, 0.78), intensity=0.9, gradient=0.1),
    "mixed": Light((1.0, 0.66, 0.36), intensity=0.9, second=(0.95, 1.0, 1.08)),
    "shadow": Light((1.0, 0.97, 0.93), shadow=0.55, gradient=0.3),
    "dim": Light((1.0, 0.7, 0.42), intensity=0.3),
}
LIGHTS: tuple[str, ...] = tuple(LIGHT_SOURCES)

# Sensor colour cross-talk (rows: camera R, G, B from scene R, G, B); white stays white.
CROSSTALK = np.array([[0.86, 0.12, 0.02], [0.06, 0.86, 0.08], [0.02, 0.14, 0.84]], np.float32)


def linear(srgb: Sequence[int]) -> np.ndarray:
    c = np.asarray(srgb, np.float32) / 255.0
    return np.where(c <= 0.04045, c / 12.92, ((c + 0.055) / 1.055) ** 2.4).astype(np.float32)


@dataclass
class CameraImage:
    cam: np.ndarray  # linear camera RGB of the empty table (exposure applied), H x W x 3
    encoded: np.ndarray  # the same as a clean BGR uint8 frame
    light_field: np.ndarray  # scene illumination, H x W x 3 (linear RGB)
    light_dir: np.ndarray  # unit vector towards the key light (x right, y down, z to camera)
    exposure: float
    noise: float  # sensor noise, in 8-bit units

    def to_cam(self, radiance: np.ndarray) -> np.ndarray:
        return (radiance @ CROSSTALK.T) * self.exposure


def encode(cam: np.ndarray) -> np.ndarray:
    """Linear camera RGB to an sRGB-encoded BGR uint8 image (clipping like a sensor)."""
    x = np.clip(cam, 1e-4, 1.0).astype(np.float32, copy=False)
    enc = cv2.pow(x, 1 / 2.4)
    enc = cv2.max(enc * np.float32(255 * 1.055) - np.float32(255 * 0.055), 0.0)
    return cv2.cvtColor(cv2.convertScaleAbs(enc), cv2.COLOR_RGB2BGR)


def light_field(light: Light, size, rng) -> tuple[np.ndarray, np.ndarray]:
    """Illumination over the table; smooth, so computed coarse and scaled up."""
    w, h = size
    cw, ch = max(8, w // 8), max(6, h // 8)
    ys, xs = np.mgrid[0:ch, 0:cw].astype(np.float32)
    u, v = (xs + 0.5) / cw - 0.5, (ys + 0.5) / ch - 0.5
    ang = rng.uniform(0, 2 * math.pi)
    grad = 1.0 + light.gradient * (u * math.cos(ang) + v * math.sin(ang)) * 2
    field = np.ones((ch, cw, 3), np.float32) * np.asarray(light.colour, np.float32)
    if light.second is not None:  # warm lamp on one side, window on the other
        t = np.clip(0.5 + 1.4 * u * (1 if rng.random() < 0.5 else -1), 0, 1)[..., None]
        field = field * (1 - t) + np.asarray(light.second, np.float32) * t
    field *= (grad * light.intensity)[..., None]
    if light.shadow:  # an arm or a head between the lamp and the table: a soft band
        a = rng.uniform(0, math.pi)
        off = rng.uniform(-0.3, 0.3)
        dist = (u * math.cos(a) + v * math.sin(a)) - off
        band = np.clip(1.0 - np.abs(dist) / rng.uniform(0.08, 0.18), 0, 1)
        band = np.clip(band * 2.5, 0, 1)
        field *= (1.0 - light.shadow * band)[..., None]
    field = cv2.resize(field.astype(np.float32), (w, h), interpolation=cv2.INTER_LINEAR)
    d = np.array([math.cos(ang + math.pi), math.sin(ang + math.pi), 1.6], np.float32)
    return field, d / np.linalg.norm(d)


@functools.lru_cache(maxsize=4)
def noise_bank(level2: int, size: tuple[int, int]) -> list[tuple[np.ndarray, np.ndarray]]:
    """Four frames of sensor noise (sigma = level2 / 2, in 8-bit units) as (positive, negative)
    uint8 parts, so a noisy frame costs two saturating additions."""
    w, h = size
    cv2.setRNGSeed(level2)
    bank = []
    for _ in range(4):
        n = np.empty((h, w, 3), np.float32)
        cv2.randn(n, 0.0, level2 / 2)
        n = np.round(n)
        bank.append((np.clip(n, 0, 255).astype(np.uint8), np.clip(-n, 0, 255).astype(np.uint8)))
    return bank
