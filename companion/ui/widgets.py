"""Reusable widgets: big buttons, colour chips with letters, the countdown, the scoreboard."""

from __future__ import annotations

import math
from collections import OrderedDict
from pathlib import Path

from kivy.clock import Clock
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


# The font sizes fits have found, by everything that decides one: a screen redrawn after a tap
# lays out mostly the same texts in the same boxes, and each step down renders the text again.
_FOUND: OrderedDict[tuple, tuple[int, bool]] = OrderedDict()
FOUND_KEPT = 4096


class FitsBox:
    """For a label or a button: its whole text inside its box, or a visible cut. The text
    wraps, and the font steps down from `largest` (the size given) by at most `steps` sp, to
    no less than `least` sp, until the wrapped text fits; a line too long even then is cut
    with an ellipsis (a name), unless the widget grows instead (the banner). Text of several
    lines is never cut: its font goes on down to `least`. A fit found once for the same text,
    font and box is taken again without stepping."""

    largest = NumericProperty(0)  # sp; 0: the font size the widget was given
    steps = NumericProperty(4)
    least = NumericProperty(12)
    fits = BooleanProperty(True)  # the text fits the box at some size in the range
    ellipsis = True  # the last resort for one line: cut with "…" (False: the owner grows)

    def _watch_fit(self) -> None:
        self._refit = Clock.create_trigger(lambda dt: self.fit())
        for name in ("text", "size", "largest", "steps", "least"):
            self.bind(**{name: self._refit_soon})
        self._refit_soon()

    def _refit_soon(self, *_) -> None:
        # the fit renders the text itself: Kivy's own render of it, due next frame, is spared
        self._trigger_texture.cancel()
        self._refit()

    def room(self) -> tuple[float, float]:
        """The box the text must fit: the widget less a margin each side."""
        return max(1.0, self.width - dp(8)), self.height - dp(4)

    _fitted_px = None  # the font size the last fit chose

    def _fit_key(self, width: float, height: float, floor: float) -> tuple:
        """What decides the size a fit finds: the text, how it is set, the box and the range."""
        setting = tuple(_frozen(getattr(self, name)) for name in _SETTING)
        return (*setting, self.largest, floor, sp(1), round(width, 1), round(height, 1))

    def fit(self) -> None:
        given_since = self._fitted_px is not None and self.font_size != self._fitted_px
        if not self.largest or given_since:
            self.largest = round(self.font_size / sp(1))  # the size given, or given since
        width, height = self.room()
        self.shorten, self.text_size = False, (width, None)
        cut = self.ellipsis and "\n" not in self.text  # a line may be cut; lines may not
        floor = max(self.least, self.largest - self.steps) if cut else self.least
        key = self._fit_key(width, height, floor)
        size, fits = _FOUND.get(key, (self.largest, None))
        while True:
            self.font_size = sp(size)
            self.texture_update()
            if fits is not None:  # found before: this size, rendered once
                self.fits = fits
                _FOUND.move_to_end(key)
                break
            tw, th = self.texture_size
            self.fits = th <= height + 1 and tw <= width + 1
            if self.fits or size <= floor:
                _FOUND[key] = (size, self.fits)
                if len(_FOUND) > FOUND_KEPT:
                    _FOUND.popitem(last=False)
                break
            size -= 1
        if not self.fits and cut and self.text:
            self.shorten, self.shorten_from = True, "right"
            self.fits = True
        if self.fits and self.valign != "middle":  # the box's height: valign places the text
            self.text_size = (width, max(1.0, height))  # (a middle one is centred as it is)
        else:
            self._trigger_texture.cancel()  # drawn as it was just rendered
        self._fitted_px = self.font_size


# Everything of a label that sets its text's size, but the size and box a fit chooses itself
_SETTING = tuple(
    name
    for name in Label._font_properties
    if name not in {"font_size", "text_size", "shorten", "shorten_from", "mipmap"}
    and "color" not in name
)


def _frozen(value):
    if isinstance(value, dict):
        return tuple(sorted(value.items()))
    return tuple(value) if isinstance(value, list) else value


class BigButton(FitsBox, Button):
    """A flat button at least 48 px each way, with a readable font; its text fits the button
    or shortens (a long name ends in "…" inside its box)."""

    tint = ColorProperty(colours.BUTTON)
    corner = NumericProperty(10)  # the corners' radius in dp (a large one: a disc or a pill)

    def __init__(self, **kw):
        super().__init__(**kw)
        self._watch_fit()


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
    """One row per player: marker, name, score; the current player highlighted. In a
    ScrollView, rows shrink (48 dp down to 24 dp) so that up to 12 players fit it, and the
    current player's row is scrolled into view when they do not."""

    rows = ListProperty()  # [(marker, letter, name, score_text, is_current), ...]
    view_height = NumericProperty(0)  # the height of the ScrollView it lies in, if any

    def __init__(self, **kw):
        super().__init__(**kw)
        self._follow = Clock.create_trigger(self._scroll_to_current)
        self.bind(view_height=self._fit)

    def on_parent(self, _w, parent):
        from kivy.uix.scrollview import ScrollView

        if isinstance(parent, ScrollView):
            parent.bind(height=self.setter("view_height"))
            self.view_height = parent.height

    def on_rows(self, *_):
        self.clear_widgets()
        for marker, letter, name, score, current in self.rows:
            self.add_widget(
                ScoreRow(marker=marker, letter=letter, name=name, score=score, current=current)
            )
        self._fit()

    def _fit(self, *_):
        n = len(self.children)
        if not n:
            return
        room = self.view_height or dp(48) * n
        height = min(dp(48), max(dp(24), (room - self.spacing * (n - 1)) / n))
        for row in self.children:
            row.height = height
        self._follow()

    def _scroll_to_current(self, _dt=None):
        view = self.parent
        current = next((r for r in self.children if r.current), None)
        if current is not None and hasattr(view, "scroll_to") and self.height > view.height:
            view.scroll_to(current, padding=dp(4), animate=False)


class FitLabel(FitsBox, Label):
    """A label that fits its box or shortens (see FitsBox)."""

    def __init__(self, **kw):
        super().__init__(**kw)
        self._watch_fit()


class Banner(FitLabel):
    """A message in the title's slot: questions, refusals, announcements. Never cut: the font
    steps down until the notice fits the slot, and a notice longer still grows the banner
    down over the body (it is drawn above it) for as long as it is shown."""

    kind = StringProperty("info")  # info | error | ask
    slot_height = NumericProperty(0)  # the title slot's height: the banner's least height
    largest = NumericProperty(18)
    least = NumericProperty(13)  # below that the banner grows instead
    ellipsis = False

    def room(self) -> tuple[float, float]:
        return max(1.0, self.width - dp(12)), self.slot_height - dp(4)

    def fit(self) -> None:
        super().fit()
        self.height = self.slot_height if self.fits else self.texture_size[1] + dp(8)


def plain(text) -> str:
    """Stored text (a name, a date) for a label with markup on: shown as it is, on one line,
    never read as markup ("[size=400]" stays those characters)."""
    from kivy.utils import escape_markup

    from companion.players import shown_name

    return escape_markup(shown_name(text))


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
    fits the label's box or shortens (FitsBox); `shrink` lets the font go down to 10 sp."""
    lab = FitLabel(
        text=text,
        font_size=size if isinstance(size, str) else f"{size}sp",
        bold=bold,
        color=colour,
        halign=halign,
        valign=valign,
        **kw,
    )
    if shrink:
        lab.steps, lab.least = 99, 10
    return lab


def row_of(*widgets, height: float | None = None, spacing: float | None = None) -> BoxLayout:
    """A row of `widgets` side by side, `height` tall (a touch target and a margin)."""
    height = sizes.MIN_TOUCH + dp(4) if height is None else height
    spacing = dp(4) if spacing is None else spacing
    box = BoxLayout(size_hint_y=None, height=height, spacing=spacing)
    for w in widgets:
        box.add_widget(w)
    return box


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
