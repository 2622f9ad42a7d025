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

from companion.ui import colours

Builder.load_file(str(Path(__file__).with_name("kv") / "widgets.kv"))

MIN_TOUCH_DP = 48  # smallest touch target anywhere in the app


def __getattr__(name: str):
    # MIN_TOUCH in pixels, worked out when asked: dp() needs the window, and an import must
    # not create it before `companion run` has set the window's size.
    if name == "MIN_TOUCH":
        return dp(MIN_TOUCH_DP)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


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
    """A message along the bottom: questions, refusals, announcements."""

    kind = StringProperty("info")  # info | error | ask


def font(size: float) -> float:
    return sp(size)


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
