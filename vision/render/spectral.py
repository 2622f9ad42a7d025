"""Spectral light: what a camera with its white balance locked at daylight reports for a
material under a real light source.

A material is a reflectance spectrum: a measured ColorChecker patch, or a mix of patches (a
print's inks side by side, a tinted plastic). Under an illuminant the camera's raw response
is the sum over wavelengths of sensitivity x light x reflectance; the white balance gains
are fixed so that a perfect white under D65 gives equal channels (as with picamera2 and AWB
off), and a 3x3 matrix fitted on the 24 patches under D65 (white kept neutral) takes camera
RGB to linear sRGB. Each light is scaled so that a perfect white has luminance 1: the
renderer's exposure sets the brightness, the light sets the colour.

Measured spectra come from `vision/render/data/spectra.json` (made by `scripts/make-spectra` from
the colour-science package; sources and licence inside). Nothing here needs colour-science.

    camera_rgb(material, light) -> linear sRGB (3,) as the camera reports it
    MATERIALS: material name -> ((patch, weight), ...);  ILLUMINANTS: the light names
"""

from __future__ import annotations

import functools
import json
from pathlib import Path

import numpy as np

DATA = Path(__file__).resolve().parent / "data" / "spectra.json"
ILLUMINANTS = ("D65", "A", "FL2", "LED-B2", "D50")

# XYZ (D65 white) to linear sRGB, IEC 61966-2-1
XYZ_TO_SRGB = np.array(
    [[3.2406, -1.5372, -0.4986], [-0.9689, 1.8758, 0.0415], [0.0557, -0.2040, 1.0570]]
)

# The table's materials as reflectance spectra mixed from ColorChecker patches (weights are
# area shares of a print, or a tint's share in a plastic; a sum below 1 darkens). A guess at
# how the pieces look, chosen apart from other renderers' guesses: printed card inks and
# glossy plastic, every colour one a shop could sell.
MATERIALS: dict[str, tuple[tuple[str, float], ...]] = {
    # Color Milk balls and cards
    "cm:blue": (("purplish blue", 0.6), ("blue", 0.4)),
    "cm:green": (("green", 0.75), ("yellow green", 0.25)),
    "cm:orange": (("orange", 0.8), ("orange yellow", 0.2)),
    "cm:pink": (("magenta", 0.6), ("white 9.5 (.05 D)", 0.25), ("moderate red", 0.15)),
    "cm:purple": (("purple", 0.7), ("purplish blue", 0.3)),
    # Laser's prism figures, colour cards and prism cards
    "laser:red": (("red", 0.85), ("orange", 0.15)),
    "laser:yellow": (("yellow", 0.8), ("orange yellow", 0.2)),
    "laser:green": (("green", 0.6), ("bluish green", 0.4)),
    "laser:cyan": (("cyan", 0.75), ("blue sky", 0.25)),
    "laser:blue": (("blue", 0.85), ("purplish blue", 0.15)),
    "laser:magenta": (("magenta", 0.9), ("purple", 0.1)),
    # Node's printed nodes
    "node:red": (("red", 0.8), ("moderate red", 0.2)),
    "node:yellow": (("yellow", 0.9), ("white 9.5 (.05 D)", 0.1)),
    "node:green": (("green", 0.55), ("foliage", 0.45)),
    "node:blue": (("blue", 0.6), ("blue sky", 0.4)),
    "node:purple": (("purple", 0.75), ("blue flower", 0.25)),
    # the table and what lies on it besides the pieces
    "white": (("white 9.5 (.05 D)", 0.97),),  # the reference patch, card paper
    "tray": (("neutral 6.5 (.44 D)", 0.7), ("neutral 8 (.23 D)", 0.3)),
    "tile": (("neutral 5 (.70 D)", 0.55), ("neutral 6.5 (.44 D)", 0.45)),
    "wood": (("dark skin", 0.75), ("orange", 0.12), ("light skin", 0.13)),
    "back": (("neutral 3.5 (1.05 D)", 0.6), ("purplish blue", 0.25), ("black 2 (1.5 D)", 0.15)),
    "skin": (("light skin", 0.85), ("dark skin", 0.15)),
    "dark skin": (("dark skin", 0.8), ("light skin", 0.2)),
    "sleeve": (("neutral 3.5 (1.05 D)", 0.5), ("purplish blue", 0.3), ("foliage", 0.2)),
    "mat": (("foliage", 0.6), ("neutral 3.5 (1.05 D)", 0.4)),  # Node's green cloth mat
    "mat line": (("white 9.5 (.05 D)", 0.6), ("neutral 8 (.23 D)", 0.4)),  # its lattice
}
PERFECT_WHITE = "perfect white"  # reflectance 1: a specular glint shows the light itself


@functools.cache
def _data() -> dict:
    return json.loads(DATA.read_text())


@functools.cache
def _patches() -> dict[str, np.ndarray]:
    return {k: np.asarray(v) for k, v in _data()["colorchecker"]["patches"].items()}


def reflectance(material: str) -> np.ndarray:
    """The material's reflectance at the data's wavelengths."""
    if material == PERFECT_WHITE:
        return np.ones(len(_data()["wavelengths_nm"]))
    try:
        recipe = MATERIALS[material]
    except KeyError:
        raise ValueError(f"unknown material {material!r}") from None
    return sum(w * _patches()[patch] for patch, w in recipe)


@functools.cache
def _light(name: str) -> np.ndarray:
    """The illuminant's spectrum scaled so that a perfect white has luminance Y = 1."""
    try:
        spd = np.asarray(_data()["illuminants"][name])
    except KeyError:
        raise ValueError(f"unknown illuminant {name!r} (have {', '.join(ILLUMINANTS)})") from None
    y = np.asarray(_data()["cmfs_cie1931_2deg"])[1]
    return spd / float(spd @ y)


def _raw(spectrum: np.ndarray) -> np.ndarray:
    """Camera raw RGB of a radiance spectrum."""
    return np.asarray(_data()["camera"]["rgb"]) @ spectrum


@functools.cache
def _gains() -> np.ndarray:
    """White balance locked at daylight: a perfect white under D65 comes out neutral."""
    return 1.0 / _raw(_light("D65"))


@functools.cache
def colour_matrix() -> np.ndarray:
    """Camera RGB (white balanced) to linear sRGB, least squares on the 24 patches under
    D65, each row summing to 1 so that white stays white."""
    d65 = _light("D65")
    cmfs = np.asarray(_data()["cmfs_cie1931_2deg"])
    patches = np.stack(list(_patches().values()))
    cam = np.stack([_raw(d65 * p) for p in patches]) * _gains()
    target = (XYZ_TO_SRGB @ (cmfs @ (d65 * patches).T)).T
    rows = []
    for c in range(3):  # m2 = 1 - m0 - m1: fit m0, m1 on the differences from channel 2
        a = cam[:, :2] - cam[:, 2:3]
        b = target[:, c] - cam[:, 2]
        m01 = np.linalg.lstsq(a, b, rcond=None)[0]
        rows.append([m01[0], m01[1], 1.0 - m01.sum()])
    return np.array(rows)


@functools.cache
def camera_rgb(material: str, light: str) -> np.ndarray:
    """Linear sRGB (3,) of `material` under `light` as the daylight-balanced camera reports
    it (a perfect white under D65 is (1, 1, 1))."""
    radiance = _light(light) * reflectance(material)
    out = colour_matrix() @ (_raw(radiance) * _gains())
    out = out.astype(np.float32)
    out.setflags(write=False)
    return out


def piece(colour: str, game: str = "cm") -> str:
    """The material of a `colour` piece of `game` ("cm", "laser" or "node"); a colour the
    game lacks takes another game's (a Laser red card laid in a Color Milk scene)."""
    for g in (game, "laser", "cm", "node"):
        if f"{g}:{colour}" in MATERIALS:
            return f"{g}:{colour}"
    raise ValueError(f"no material for colour {colour!r}")
