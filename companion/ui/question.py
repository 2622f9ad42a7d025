"""A question from the table with its likely answers as big buttons, laid over a game's body.

The game frame shows it when a cue (`AskHuman`) carries answers: one button per answer (at
most MAX_SHOWN; the rest are reached through "Other…", which also opens the game's normal
entry). The panel only shows; the frame decides what a tap does.
"""

from __future__ import annotations

from kivy.graphics import Color, Rectangle
from kivy.metrics import dp
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.gridlayout import GridLayout
from kivy.uix.widget import Widget

from companion import cues as C
from companion.ui import colours
from companion.ui.widgets import BigButton, caption

MAX_SHOWN = 5  # answer buttons; more would shrink them below a finger
ANSWER_HEIGHT = 64  # dp: a big target, two rows fit 800x480 under the header and the strip
OTHER = "Other…"


class QuestionPanel(BoxLayout):
    """The question in words, then its answers and "Other…", three to a row."""

    def __init__(self, ask: C.AskHuman, on_answer, on_other, **kw):
        super().__init__(orientation="vertical", spacing=dp(6), padding=dp(8), **kw)
        self.ask = ask
        with self.canvas.before:
            Color(*colours.PANEL)
            self._back = Rectangle()
        self.bind(pos=self._draw, size=self._draw)
        self.add_widget(
            caption(ask.question, 19, True, size_hint_y=None, height=dp(66), shrink=True)
        )
        shown = ask.choices[:MAX_SHOWN]
        count = len(shown) + 1
        cols = min(3, count)
        rows = -(-count // cols)
        grid = GridLayout(
            cols=cols, spacing=dp(6), size_hint_y=None, height=rows * dp(ANSWER_HEIGHT + 6)
        )
        self.buttons = []
        for i, text in enumerate(shown):
            b = BigButton(text=text, font_size="19sp", tint=colours.ACCENT)
            b.bind(on_release=lambda _b, n=i: on_answer(n))
            self.buttons.append(b)
            grid.add_widget(b)
        other = BigButton(text=OTHER, font_size="19sp")
        other.bind(on_release=lambda _b: on_other())
        self.other = other
        grid.add_widget(other)
        self.add_widget(grid)
        self.add_widget(Widget())  # the rest of the body stays covered: one thing at a time

    def _draw(self, *_):
        # a little wider than the body: the highlights drawn around its edge stay covered
        m = dp(4)
        self._back.pos = (self.x - m, self.y - m)
        self._back.size = (self.width + 2 * m, self.height + 2 * m)

    def on_touch_down(self, touch):
        # the body under the question sees no touch: only the answers are offered
        if self.collide_point(*touch.pos):
            super().on_touch_down(touch)
            return True
        return False
