"""Typing on a touch-only table: Kivy's on-screen keyboard docked along the bottom of the
window (alongside any real keyboard); the screen being typed on makes room above it
(`keyboard_top`). Names already played are offered as a pick-list (`known_names`)."""

from __future__ import annotations

from collections import Counter
from functools import cache
from pathlib import Path

from companion.players import name_problem

MODE = "systemanddock"
# Letters for names in 4 rows of 11 keys: every key a full touch target at 800 px wide
LAYOUT = str(Path(__file__).with_name("kv") / "names_keyboard.json")


def dock(window) -> None:
    """Give every text field the docked on-screen keyboard for names (idempotent)."""
    from kivy.config import Config

    Config.set("kivy", "keyboard_mode", MODE)
    Config.set("kivy", "keyboard_layout", "names")
    window.set_vkeyboard_class(names_keyboard_class())
    window.use_syskeyboard = True  # a real keyboard, when there is one, types too
    window.allow_vkeyboard = True
    window.single_vkeyboard = True
    window.docked_vkeyboard = True


@cache  # one class: the window recognises its keyboard by it
def names_keyboard_class():
    """Kivy's keyboard with a touch screen's Shift: Kivy's Shift only holds while pressed,
    which one finger cannot do while it types. Here Shift (and 123) is tapped and holds for
    the next character only; tapped again, it lets go."""
    from kivy.uix.vkeyboard import VKeyboard

    class NamesKeyboard(VKeyboard):
        def __init__(self, **kw):
            kw.setdefault("margin_hint", [0.03, 0.02, 0.03, 0.02])  # the room goes to the keys
            super().__init__(**kw)

        def _load_layouts(self, *largs):
            super()._load_layouts(*largs)
            self._load_layout_fn(LAYOUT, "names")

        def process_key_on(self, touch):
            latched = self.have_shift, self.have_special
            super().process_key_on(touch)
            special = _special(self, touch)
            if special == "shift":
                self.have_shift = not latched[0]
            elif special == "special":
                self.have_special = not latched[1]

        def process_key_up(self, touch):
            special, typed = _special(self, touch), _typed(self, touch)
            latched = self.have_shift, self.have_special
            super().process_key_up(touch)
            if special in ("shift", "special"):
                self.have_shift, self.have_special = latched  # stays until a key is typed
            elif typed:
                self.have_shift = False  # one character only; digits stay till "abc"

    return NamesKeyboard


def _key_data(board, touch):
    return touch.ud.get(board.uid, {}).get("key", ((None, None, None, 0), None))[0]


def _special(board, touch):
    return _key_data(board, touch)[2] if _key_data(board, touch)[1] is None else None


def _typed(board, touch) -> bool:
    return _key_data(board, touch)[1] is not None


KEY_ROWS = 4  # rows of keys in the names layout
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
            if not name_problem(name):  # a name no screen could show is not offered
                counts[name.strip()] += 1
    return [n for n, _ in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0].lower()))][:limit]
