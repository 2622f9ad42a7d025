"""The light over the rendered table and the camera that sees it.

Two kinds of light. The named `LIGHTS` (colour, intensity, a second source from the other
side, a cast shadow band, a gradient) light the scene in linear RGB, and the camera adds
colour cross-talk. The `SPECTRAL_LIGHTS` (CIE D65, A, FL2, an LED, D50) light measured
reflectance spectra (`vision.render.spectral`): a material's colour is what the camera reports for
it under that light, so the light's field is grey and even and no cross-talk is added. Either
way the camera's white balance is locked at daylight (warm light really tints the frame), with
auto exposure (in the renderers), sensor noise that grows with gain, sRGB encoding and clipping.

A renderer paints each material with `paint(look(light), material, srgb)`: the named lights
share one look, the sRGB colour as linear reflectance; a spectral light paints the material's
spectrum as its camera sees it.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Sequence
from dataclasses import dataclass

import cv2
import numpy as np

from vision.render import spectral


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
SPECTRAL_LIGHTS: tuple[str, ...] = spectral.ILLUMINANTS
RGB = "rgb"  # the look shared by the named lights
EVEN = Light((1.0, 1.0, 1.0), gradient=0.0)  # a spectral light's field: its colour is painted

# Sensor colour cross-talk (rows: camera R, G, B from scene R, G, B); white stays white.
CROSSTALK = np.array([[0.86, 0.12, 0.02], [0.06, 0.86, 0.08], [0.02, 0.14, 0.84]], np.float32)
IDENTITY = np.eye(3, dtype=np.float32)


def light_source(name: str) -> Light:
    """The light's field parameters; ValueError for a light no renderer knows."""
    if name in LIGHT_SOURCES:
        return LIGHT_SOURCES[name]
    if name in SPECTRAL_LIGHTS:
        return EVEN
    have = ", ".join(LIGHTS + SPECTRAL_LIGHTS)
    raise ValueError(f"unknown light {name!r} (have {have})")


def light_seed(name: str) -> int:
    """Part of the seed of the light's random direction and field. Every spectral light has
    the same one, so one seed lights a scene alike under each and only the colours differ."""
    light_source(name)
    return LIGHTS.index(name) if name in LIGHT_SOURCES else len(LIGHTS)


def look(light: str) -> str:
    """How materials are painted under `light`: RGB for the named lights, else the light."""
    light_source(light)
    return RGB if light in LIGHT_SOURCES else light


def paint(look_: str, material: str, srgb: Sequence[int]) -> np.ndarray:
    """A material's colour to paint: its sRGB `srgb` as linear reflectance under the named
    lights, or its spectrum as the daylight-balanced camera sees it under a spectral light."""
    return linear(srgb) if look_ == RGB else spectral.camera_rgb(material, look_)


def light_colour(look_: str) -> np.ndarray:
    """The colour of a perfect white (a specular glint): the named lights' field carries it."""
    return paint(look_, spectral.PERFECT_WHITE, (255, 255, 255))


def sensor(look_: str) -> np.ndarray:
    """The cross-talk to apply: measured camera responses already hold theirs."""
    return CROSSTALK if look_ == RGB else IDENTITY


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
    look: str = RGB  # how materials are painted (`look`)

    def to_cam(self, radiance: np.ndarray) -> np.ndarray:
        return (radiance @ sensor(self.look).T) * self.exposure


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
