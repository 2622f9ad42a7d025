"""Reusable widgets: big buttons, colour chips with letters, the countdown, the scoreboard."""

from __future__ import annotations

import math
from pathlib import Path

from kivy.lang import Builder
from kivy.metrics import dp, sp
from kivy.properties import (
    BooleanProperty,
    ColorProperty,
    ListProperty,
    NumericProperty,
    StringProperty,
)
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.button import Button
from kivy.uix.label import Label
from kivy.uix.widget import Widget

from companion.ui import colours, sizes

Builder.load_file(str(Path(__file__).with_name("kv") / "widgets.kv"))


def __getattr__(name: str) -> float:
    # MIN_TOUCH, MIN_BUTTON and BUTTON_INSET in pixels, worked out when asked (see sizes.py)
    return getattr(sizes, name)


class BigButton(Button):
    """A flat button at least 48 px each way, with a readable font."""

    tint = ColorProperty(colours.BUTTON)


class ColourChip(Widget):
    """A coloured disc with its label on it (colour is never the only signal)."""

    colour = StringProperty("grey")
    text = StringProperty("")
    selected = BooleanProperty(False)

    @property
    def shown_text(self) -> str:
        return self.text or colours.label(self.colour)


class ColourButton(BigButton):
    """A tappable colour: the chip's colour as background and its label as text."""

    colour = StringProperty("grey")
    selected = BooleanProperty(False)


class Countdown(Widget):
    """Big seconds-left with a ring that empties; red in the last five seconds.

    `seconds` may be set as often as one likes: the drawing follows `shown`, the whole
    seconds on the face, so the widget redraws once a second, not at every update."""

    seconds = NumericProperty(0)
    shown = NumericProperty(0)
    total = NumericProperty(0)
    paused = BooleanProperty(False)
    active = BooleanProperty(False)

    def on_seconds(self, _widget, seconds: float) -> None:
        self.shown = math.ceil(seconds - 1e-3)  # 12.0004 left still reads 12


class ScoreRow(BoxLayout):
    marker = StringProperty("grey")
    letter = StringProperty("")
    name = StringProperty("")
    score = StringProperty("")
    current = BooleanProperty(False)


class Scoreboard(BoxLayout):
    """One row per player: marker, name, score; the current player highlighted."""

    rows = ListProperty()  # [(marker, letter, name, score_text, is_current), ...]

    def on_rows(self, *_):
        self.clear_widgets()
        for marker, letter, name, score, current in self.rows:
            self.add_widget(
                ScoreRow(marker=marker, letter=letter, name=name, score=score, current=current)
            )


class Banner(Label):
    """A message in the title's slot: questions, refusals, announcements."""

    kind = StringProperty("info")  # info | error | ask


def font(size: float) -> float:
    return sp(size)


def caption(
    text: str = "",
    size: float | str = 18,
    bold: bool = False,
    colour=colours.TEXT,
    *,
    halign: str = "left",
    valign: str = "middle",
    shrink: bool = False,
    **kw,
) -> Label:
    """The one label of every game screen: `size` in sp (or a Kivy size string), text that
    wraps inside the label's box; `shrink` lowers the font until the text fits (>= 10 sp)."""
    lab = Label(
        text=text,
        font_size=size if isinstance(size, str) else f"{size}sp",
        bold=bold,
        color=colour,
        halign=halign,
        valign=valign,
        **kw,
    )
    lab.bind(size=lambda w, s: setattr(w, "text_size", s))
    if shrink:
        lab.bind(texture_size=_shrink_to_fit, size=_shrink_to_fit)
    return lab


def row_of(*widgets, height: float | None = None, spacing: float | None = None) -> BoxLayout:
    """A row of `widgets` side by side, `height` tall (a touch target and a margin)."""
    height = sizes.MIN_TOUCH + dp(4) if height is None else height
    spacing = dp(4) if spacing is None else spacing
    box = BoxLayout(size_hint_y=None, height=height, spacing=spacing)
    for w in widgets:
        box.add_widget(w)
    return box


def _shrink_to_fit(label, *_):
    if label.height > 1 and label.texture_size[1] > label.height and label.font_size > sp(10):
        label.font_size -= sp(1)


_TEXTURES: dict = {}


def text_texture(text: str, size: float, colour=(1, 1, 1, 1)):
    """A bold label rendered once and cached, for boards that draw the same few letters on a
    canvas at every redraw (the Elios sun, the Node table)."""
    from kivy.core.text import Label as CoreLabel

    key = (text, round(size), tuple(colour))
    tex = _TEXTURES.get(key)
    if tex is None:
        label = CoreLabel(text=text, font_size=key[1], bold=True, color=colour)
        label.refresh()
        tex = _TEXTURES[key] = label.texture
    return tex


def fitted_texture(text: str, width: float, size: float, colour=(0.05, 0.05, 0.08, 1)):
    """`text_texture` no wider than `width`: the font shrinks until it fits (>= 6 px)."""
    tex = text_texture(text, size, colour)
    while tex.width > width and size > 6:
        size -= 1
        tex = text_texture(text, size, colour)
    return tex
