"""The score chart: each player's score after every round, one line per player in the
player's marker colour, with the player's letter at the line's end and in the legend (colour
is never the only signal). Drawn with Kivy's canvas only.
"""

from __future__ import annotations

import math

from kivy.graphics import Color, Ellipse, Line, Rectangle
from kivy.metrics import dp, sp
from kivy.properties import ObjectProperty
from kivy.uix.widget import Widget

from companion.players import PLAYER_MARKERS
from companion.rounds import ScoreSeries
from companion.ui import colours
from companion.ui.widgets import text_texture

LEGEND_HEIGHT = 30  # dp


def marker_of(seat: int) -> tuple[str, str]:
    """(colour name, letter) of the player in `seat`, as on every other screen."""
    return PLAYER_MARKERS[seat % len(PLAYER_MARKERS)]


def nice_step(span: float, ticks: int = 4) -> float:
    """A round step (1, 2, 5 times a power of ten) giving about `ticks` gridlines."""
    if span <= 0:
        return 1.0
    raw = span / ticks
    power = 10 ** math.floor(math.log10(raw))
    return next(m * power for m in (1, 2, 5, 10) if m * power >= raw)


def spread(ys: list[float], gap: float) -> list[float]:
    """Move end labels apart (keeping their order) so no two are closer than `gap`."""
    order = sorted(range(len(ys)), key=lambda i: ys[i])
    out = list(ys)
    for a, b in zip(order, order[1:], strict=False):
        if out[b] - out[a] < gap:
            out[b] = out[a] + gap
    return out


class ScoreChart(Widget):
    series: ScoreSeries | None = ObjectProperty(None, allownone=True)

    def __init__(self, **kw):
        super().__init__(**kw)
        self.bind(series=self._redraw, pos=self._redraw, size=self._redraw)

    def _text(self, text, x, y, size=14, colour=colours.MUTED, anchor="left"):
        tex = text_texture(str(text), sp(size), colour)
        w, h = tex.size
        x = {"left": x, "right": x - w, "center": x - w / 2}[anchor]
        Color(1, 1, 1, 1)
        Rectangle(texture=tex, pos=(x, y - h / 2), size=tex.size)

    def _redraw(self, *_):
        self.canvas.clear()
        s = self.series
        if s is None or not s.points or self.width < dp(60) or self.height < dp(60):
            return
        values = [v for p in s.points for v in p]
        lo, hi = min(0.0, min(values)), max(values)
        step = nice_step(hi - lo)
        lo, hi = math.floor(lo / step) * step, math.ceil(hi / step) * step
        if hi == lo:
            hi = lo + step
        left, right = self.x + dp(40), self.right - dp(34)
        bottom, top = self.y + dp(26), self.top - dp(LEGEND_HEIGHT) - dp(8)
        n = len(s.points)

        def at(k, v):
            x = left + (right - left) * (k / (n - 1) if n > 1 else 0.5)
            return x, bottom + (top - bottom) * (v - lo) / (hi - lo)

        with self.canvas:
            Color(*colours.PANEL)
            Rectangle(pos=self.pos, size=self.size)
            # gridlines with their values, and round labels along the bottom
            v = lo
            while v <= hi + step / 2:
                y = at(0, v)[1]
                Color(1, 1, 1, 0.35 if v == 0 else 0.12)
                Line(points=[left, y, right, y], width=dp(1))
                self._text(f"{v:g}", left - dp(6), y, anchor="right")
                v += step
            every = max(1, math.ceil(n / 12))
            for k, label in enumerate(s.labels):
                if k % every == 0 or k == n - 1:
                    x = at(k, lo)[0]
                    shown = label if k or n == 1 else "0"  # a lone point: "End"
                    self._text(shown, x, bottom - dp(13), 13, anchor="center")
            # one line per player; the letter rides at the end of the line
            r = dp(11)
            ends = spread([at(n - 1, p)[1] for p in s.points[-1]], 2 * r + dp(1))
            for seat, _name in enumerate(s.players):
                colour, letter = marker_of(seat)
                pts = [c for k, p in enumerate(s.points) for c in at(k, p[seat])]
                Color(0, 0, 0, 0.7)
                Line(points=pts, width=dp(3.2))
                Color(*colours.rgba(colour))
                Line(points=pts, width=dp(2.2))
                ex, ey = pts[-2] + r + dp(2), ends[seat]
                Ellipse(pos=(ex - r, ey - r), size=(2 * r, 2 * r))
                self._text(letter, ex, ey, 13, colours.text_on(colour), anchor="center")
            # legend: chip + letter + name + final score
            x, y = left, self.top - dp(LEGEND_HEIGHT) / 2 - dp(2)
            for seat, name in enumerate(s.players):
                colour, letter = marker_of(seat)
                r = dp(10)
                Color(*colours.rgba(colour))
                Ellipse(pos=(x, y - r), size=(2 * r, 2 * r))
                self._text(letter, x + r, y, 12, colours.text_on(colour), anchor="center")
                final = s.points[-1][seat]
                label = f"{name} {final:g}"
                self._text(label, x + 2 * r + dp(4), y, 15, colours.TEXT)
                x += 2 * r + dp(14) + text_texture(label, sp(15), colours.TEXT).width
