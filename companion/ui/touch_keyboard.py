"""Typing on a touch-only table: Kivy's on-screen keyboard docked along the bottom of the
window (alongside any real keyboard), with the window sliding up so the field being typed in
stays above it. Names already played are offered as a pick-list (`known_names`)."""

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
    window.softinput_mode = "below_target"


def known_names(log, limit: int = 12) -> list[str]:
    """Names from the game log, those who played most often first."""
    counts: Counter[str] = Counter()
    for rec in log.games():
        for name in rec.config.get("players", ()):
            if isinstance(name, str) and name.strip():
                counts[name.strip()] += 1
    return [n for n, _ in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0].lower()))][:limit]
