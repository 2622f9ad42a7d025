"""Colour names -> LED drive levels, and sensor readings -> the nearest ball colour.

LED levels are not sRGB: a green die is much brighter than a red one, so mixed colours are
tuned by eye on a common-cathode 5 mm RGB LED. Names are lower-case English, as in the rules.
"""

from __future__ import annotations

import math
from collections.abc import Iterable

RGB = tuple[float, float, float]

OFF: RGB = (0.0, 0.0, 0.0)

LED_COLOURS: dict[str, RGB] = {
    # game colours (Color Milk, Laser, Kritters, Elios, Node) and common player markers
    "red": (1.0, 0.0, 0.0),
    "green": (0.0, 1.0, 0.0),
    "blue": (0.0, 0.0, 1.0),
    "yellow": (1.0, 0.6, 0.0),
    "cyan": (0.0, 0.8, 1.0),
    "magenta": (1.0, 0.0, 0.8),
    "orange": (1.0, 0.25, 0.0),
    "pink": (1.0, 0.15, 0.35),
    "purple": (0.55, 0.0, 1.0),
    "white": (1.0, 0.85, 0.75),
    "grey": (0.25, 0.22, 0.2),
    "gray": (0.25, 0.22, 0.2),
    "brown": (0.5, 0.12, 0.0),
    "black": OFF,  # a black marker shows as a dark LED: the chirp still says "your turn"
    # signal colours used by the cue patterns
    "amber": (1.0, 0.4, 0.0),
    "off": OFF,
}


def led_rgb(name: str | None, default: RGB = LED_COLOURS["white"]) -> RGB:
    """Drive levels for a colour name or '#rrggbb'; unknown names fall back to `default`."""
    if not name:
        return default
    key = name.strip().lower()
    if key in LED_COLOURS:
        return LED_COLOURS[key]
    if key.startswith("#") and len(key) == 7:
        try:
            return tuple(int(key[i : i + 2], 16) / 255 for i in (1, 3, 5))  # type: ignore[return-value]
        except ValueError:
            pass
    return default


def known(name: str | None) -> bool:
    return bool(name) and led_rgb(name, default=(-1.0, -1.0, -1.0)) != (-1.0, -1.0, -1.0)


def shares(r: float, g: float, b: float) -> RGB:
    """Chromaticity: each channel's share of r+g+b (brightness falls out)."""
    total = r + g + b
    if total <= 0:
        return (1 / 3, 1 / 3, 1 / 3)
    return (r / total, g / total, b / total)


def classify(
    r: float, g: float, b: float, references: Iterable[tuple[str, RGB]]
) -> tuple[str | None, float]:
    """The nearest reference colour by chromaticity and a confidence in [0, 1].

    Confidence is 1 - d1/d2 (nearest over second nearest distance): 1 on the reference,
    0 half-way between two colours. None when there is no reference.
    """
    s = shares(r, g, b)
    dists = sorted((math.dist(s, ref), name) for name, ref in references)
    if not dists:
        return None, 0.0
    if len(dists) == 1:
        return dists[0][1], 1.0
    (d1, name), (d2, _) = dists[0], dists[1]
    return name, (1.0 - d1 / d2) if d2 > 0 else 0.0
