"""Typing on a touch-only table: Kivy's on-screen keyboard docked along the bottom of the
window (alongside any real keyboard); the screen being typed on makes room above it
(`keyboard_top`). Names already played are offered as a pick-list (`known_names`)."""

from __future__ import annotations

from collections import Counter

MODE = "systemanddock"


def dock(window) -> None:
    """Give every text field Kivy's docked on-screen keyboard (idempotent)."""
    from kivy.config import Config

    Config.set("kivy", "keyboard_mode", MODE)
    window.use_syskeyboard = True  # a real keyboard, when there is one, types too
    window.allow_vkeyboard = True
    window.single_vkeyboard = True
    window.docked_vkeyboard = True


KEY_ROWS = 5  # rows of keys in Kivy's layouts
KEYBOARD_HEIGHT = 220  # unscaled; docked it is scaled to the window's width (x8/7 at 800)


def keyboard_top(window) -> float:
    """How high the docked keyboard reaches in the window (0 when none is shown). Its keys
    are made tall enough to tap: at least 48 px a row at 800 px wide."""
    from kivy.uix.vkeyboard import VKeyboard

    for w in window.children:
        if isinstance(w, VKeyboard) and w.docked:
            if w.height != KEYBOARD_HEIGHT:
                w.height = KEYBOARD_HEIGHT
            return w.y + w.height * w.scale
    return 0.0


def known_names(log, limit: int = 12) -> list[str]:
    """Names from the game log, those who played most often first."""
    counts: Counter[str] = Counter()
    for rec in log.games():
        for name in rec.config.get("players", ()):
            if isinstance(name, str) and name.strip():
                counts[name.strip()] += 1
    return [n for n, _ in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0].lower()))][:limit]
