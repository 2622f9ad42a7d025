"""Screen colours for every colour name the games use, each with a short label.

Colour is never the only signal: every chip carries its label, for colour-blind players.
"""

from __future__ import annotations

# name -> (r, g, b, label)
_NAMED = {
    # Color Milk balls and prediction cards
    "blue": (0.16, 0.42, 0.90, "B"),
    "green": (0.20, 0.68, 0.30, "G"),
    "orange": (0.98, 0.55, 0.10, "O"),
    "pink": (0.98, 0.55, 0.75, "Pk"),
    "purple": (0.55, 0.30, 0.75, "Pu"),
    # Laser figures and prism cards; Kritters primaries and secondaries
    "red": (0.88, 0.18, 0.18, "R"),
    "yellow": (0.98, 0.86, 0.15, "Y"),
    "cyan": (0.10, 0.80, 0.90, "C"),
    "magenta": (0.86, 0.15, 0.65, "M"),
    # player markers and the rest
    "white": (0.95, 0.95, 0.95, "W"),
    "black": (0.15, 0.15, 0.15, "K"),
    "brown": (0.55, 0.35, 0.20, "N"),
    "grey": (0.55, 0.55, 0.55, "-"),
    "wild": (0.80, 0.80, 0.80, "*"),
}

BACKGROUND = (0.08, 0.09, 0.12, 1)
PANEL = (0.14, 0.15, 0.20, 1)
BUTTON = (0.22, 0.24, 0.32, 1)
ACCENT = (0.25, 0.55, 0.95, 1)
DANGER = (0.85, 0.25, 0.25, 1)
OK = (0.25, 0.70, 0.35, 1)
TEXT = (0.95, 0.95, 0.97, 1)
MUTED = (0.65, 0.67, 0.72, 1)


def is_named(name: str) -> bool:
    """Whether `name` is a colour this palette draws (else `rgba` falls back to grey)."""
    return name in _NAMED


def rgba(name: str, alpha: float = 1.0) -> tuple[float, float, float, float]:
    r, g, b, _ = _NAMED.get(name, _NAMED["grey"])
    return (r, g, b, alpha)


def label(name: str) -> str:
    return _NAMED[name][3] if name in _NAMED else name[:2].title()


def text_on(name: str) -> tuple[float, float, float, float]:
    """Black or white, whichever reads better on that colour."""
    r, g, b, _ = rgba(name)
    return (0, 0, 0, 1) if 0.299 * r + 0.587 * g + 0.114 * b > 0.6 else (1, 1, 1, 1)
