"""The Node table on screen: the played area fitted whole (cells 18 to 72 px), panned
with a drag, each node showing its colour and letter, cluster badges in a corner beside them.

Touches: a tap puts the card there; a drag that starts on the card moves it; any other drag
pans the table.
"""

from __future__ import annotations

from kivy.graphics import Color, Line, Rectangle
from kivy.metrics import dp
from kivy.properties import DictProperty, ListProperty, ObjectProperty
from kivy.uix.widget import Widget

from companion.ui import colours
from companion.ui.widgets import fitted_texture, text_texture

EMPTY = (0.18, 0.19, 0.24, 1)
GRID_LINE = (0.26, 0.27, 0.33, 1)
MIN_CELL = dp(18)  # a node is never drawn smaller: its letter still reads, a 14-row table fits
MAX_CELL = dp(72)  # nor bigger: the table around the nodes stays in view
DRAG = dp(12)  # a finger that moves this far is dragging, not tapping
BADGE = (0.5, 0.42)  # a cluster badge's share of its cell (width, height), top-right
TOUCH_KEY = "node-table"


class TableView(Widget):
    """The bounded table: nodes, cluster sizes and owners, and the card being placed."""

    state = ObjectProperty(None, allownone=True)
    preview = DictProperty()  # cell -> colour of the card under the finger
    preview_ok = ObjectProperty(True)
    letters = DictProperty()  # player -> letter shown on the clusters they control
    cell_touched = ObjectProperty(None)  # callback(row, col) while touching
    pan = ListProperty([0, 0])  # rows, cols the view is moved from where it was fitted

    def on_size(self, *_):
        self.redraw()

    def on_pos(self, *_):
        self.redraw()

    def on_state(self, *_):
        self.pan = [0, 0]  # a new card placed: zoom to the nodes again
        self.redraw()

    def on_pan(self, *_):
        self.redraw()

    def on_preview(self, *_):
        self.redraw_preview()

    def on_preview_ok(self, *_):
        self.redraw_preview()

    # which part of the table is shown -----------------------------------------------------
    def view(self) -> tuple[int, int, int, int]:
        """(first row, first col, rows, cols) shown: the nodes with room for a card around
        them (on the table), as large as fits between MIN_CELL and MAX_CELL, the rest reached
        by panning."""
        r0, c0, rows, cols = self._fitted()
        pr, pc = self._clamped(self.pan)
        return r0 + pr, c0 + pc, rows, cols

    def _fitted(self) -> tuple[int, int, int, int]:
        key = (id(self.state), self.width, self.height)
        if getattr(self, "_fit_cache", (None,))[0] != key:
            self._fit_cache = (key, self._fit())
        return self._fit_cache[1]

    def _fit(self) -> tuple[int, int, int, int]:
        s = self.state
        margin = max(s.card_width, s.card_height) - 1
        cells = [(r, c) for r in range(s.height) for c in range(s.width) if s.grid[r][c]]
        cells = cells or [s.middle]
        lo_r = max(0, min(r for r, _ in cells) - margin)
        hi_r = min(s.height - 1, max(r for r, _ in cells) + margin)
        lo_c = max(0, min(c for _, c in cells) - margin)
        hi_c = min(s.width - 1, max(c for _, c in cells) + margin)
        w, h = max(self.width, 1), max(self.height, 1)
        cell = max(MIN_CELL, min(MAX_CELL, w / (hi_c - lo_c + 1), h / (hi_r - lo_r + 1)))
        rows = max(1, min(s.height, int(h / cell + 1e-6)))  # h / (h / n) is n, not n - 1
        cols = max(1, min(s.width, int(w / cell + 1e-6)))
        r0 = min(max((lo_r + hi_r + 1) // 2 - rows // 2, 0), s.height - rows)
        c0 = min(max((lo_c + hi_c + 1) // 2 - cols // 2, 0), s.width - cols)
        return r0, c0, rows, cols

    def _clamped(self, pan) -> tuple[int, int]:
        """A pan that keeps the view on the table."""
        r0, c0, rows, cols = self._fitted()
        s = self.state
        return (
            min(max(pan[0], -r0), s.height - rows - r0),
            min(max(pan[1], -c0), s.width - cols - c0),
        )

    def cell_size(self) -> float:
        _, _, rows, cols = self.view()
        return min(self.width / cols, self.height / rows)

    def _geometry(self):
        r0, c0, rows, cols = self.view()
        cell = min(self.width / cols, self.height / rows)
        x0 = self.x + (self.width - cell * cols) / 2 - c0 * cell
        top = self.y + (self.height + cell * rows) / 2
        y0 = top - (self.state.height - r0) * cell
        return cell, x0, y0

    def shown(self, row: int, col: int) -> bool:
        r0, c0, rows, cols = self.view()
        return r0 <= row < r0 + rows and c0 <= col < c0 + cols

    def cell_rect(self, row: int, col: int):
        cell, x0, y0 = self._geometry()
        # row 0 is the top of the table
        return x0 + col * cell, y0 + (self.state.height - 1 - row) * cell, cell

    def cell_at(self, x: float, y: float) -> tuple[int, int]:
        cell, x0, y0 = self._geometry()
        col = int((x - x0) // cell)
        row = self.state.height - 1 - int((y - y0) // cell)
        return row, col

    def badge_rect(self, row: int, col: int):
        """Where a cluster badge goes in its cell: the top-right corner, clear of the letter."""
        x, y, cell = self.cell_rect(row, col)
        w, h = cell * BADGE[0], cell * BADGE[1]
        return x + cell - w - 1, y + cell - h - 1, w, h

    # drawing ------------------------------------------------------------------------------
    def redraw(self, *_) -> None:
        """The table itself; the card under the finger is a separate layer on top."""
        self.canvas.clear()
        self.redraw_preview()
        s = self.state
        if s is None:
            return
        r0, c0, rows, cols = self.view()
        cell, _, _ = self._geometry()
        last = set(s.last)
        badges = self._badges(s)
        x, y, _ = self.cell_rect(r0 + rows - 1, c0)
        with self.canvas:
            Color(*EMPTY)
            Rectangle(pos=(x, y), size=(cell * cols, cell * rows))
            for r in range(r0, r0 + rows):
                for c in range(c0, c0 + cols):
                    self._draw_cell(s, r, c, cell, last, badges.get((r, c)))
            self._draw_edges(s, r0, c0, rows, cols, cell)

    def _draw_cell(self, s, r, c, cell, last, badge) -> None:
        colour = s.grid[r][c]
        x, y, _ = self.cell_rect(r, c)
        if colour is None:
            Color(*GRID_LINE)
            Line(rectangle=(x, y, cell, cell), width=1)
            return
        Color(*colours.rgba(colour))
        Rectangle(pos=(x + 1, y + 1), size=(cell - 2, cell - 2))
        if (r, c) in last:
            Color(1, 1, 1, 0.9)
            Line(rectangle=(x + 1, y + 1, cell - 2, cell - 2), width=1.2)
        # the node's colour letter, for colour-blind players: never covered
        size = cell * (0.38 if cell >= dp(40) else 0.5)  # a small cell gives its letter more
        tex = text_texture(colours.label(colour), size, colours.text_on(colour))
        Color(1, 1, 1, 0.8)
        lx = x + (cell * (1 - BADGE[0]) - tex.width) / 2 if badge else x + (cell - tex.width) / 2
        ly = y + (cell * (1 - BADGE[1]) - tex.height) / 2 if badge else y + (cell - tex.height) / 2
        Rectangle(texture=tex, size=tex.size, pos=(lx, ly))
        if badge:
            text, owned = badge
            bx, by, bw, bh = self.badge_rect(r, c)
            Color(*((0.05, 0.05, 0.08, 0.9) if owned else (0.05, 0.05, 0.08, 0.6)))
            Rectangle(pos=(bx, by), size=(bw, bh))
            tex = fitted_texture(text, bw - 2, bh * 0.95, (1, 1, 1, 1) if owned else (0.8,) * 4)
            Color(1, 1, 1, 1)
            Rectangle(
                texture=tex,
                size=tex.size,
                pos=(bx + (bw - tex.width) / 2, by + (bh - tex.height) / 2),
            )

    def _draw_edges(self, s, r0, c0, rows, cols, cell) -> None:
        """A bright line where the table really ends; a dotted one where it goes on beyond
        the view (drag to see it)."""
        x, y, _ = self.cell_rect(r0 + rows - 1, c0)
        w, h = cols * cell, rows * cell
        sides = (
            (c0 == 0, (x, y, x, y + h)),
            (c0 + cols == s.width, (x + w, y, x + w, y + h)),
            (r0 == 0, (x, y + h, x + w, y + h)),
            (r0 + rows == s.height, (x, y, x + w, y)),
        )
        for real, points in sides:
            Color(*((0.8, 0.8, 0.85, 1) if real else (0.5, 0.5, 0.55, 1)))
            Line(
                points=points,
                width=dp(1.5) if real else 1,
                dash_length=0 if real else 6,
                dash_offset=0 if real else 4,
            )

    def _badges(self, s) -> dict:
        """cell -> (text, owned). Each controlled cluster and the largest of each colour (the
        size to beat) carry their size and owner's initial; lone uncontrolled nodes do not."""
        largest: dict[str, int] = {}
        for k in s.clusters:
            largest[k.colour] = max(largest.get(k.colour, 0), k.size)
        badges = {}
        for k in s.clusters:
            if k.owner or (k.size > 1 and k.size == largest[k.colour]):
                owner = self.letters.get(k.owner, "?") if k.owner else ""
                shown = [cl for cl in sorted(k.cells) if self.shown(*cl)] or [k.anchor]
                badges[shown[0]] = (f"{k.size}{owner}", bool(k.owner))
        return badges

    def redraw_preview(self) -> None:
        self.canvas.after.clear()
        if self.state is None or not self.preview:
            return
        cell, _, _ = self._geometry()
        edge = colours.OK if self.preview_ok else colours.DANGER
        with self.canvas.after:
            for (r, c), colour in self.preview.items():
                if not self.shown(r, c):
                    continue
                x, y, _ = self.cell_rect(r, c)
                Color(*colours.rgba(colour, 0.75))
                Rectangle(pos=(x + 3, y + 3), size=(cell - 6, cell - 6))
                Color(*edge)
                Line(rectangle=(x + 1, y + 1, cell - 2, cell - 2), width=dp(1.5))
                size = cell * (0.38 if cell >= dp(40) else 0.5)
                tex = text_texture(colours.label(colour), size, colours.text_on(colour))
                Color(1, 1, 1, 1)
                Rectangle(
                    texture=tex,
                    size=tex.size,
                    pos=(x + (cell - tex.width) / 2, y + (cell - tex.height) / 2),
                )

    # touches ------------------------------------------------------------------------------
    def on_touch_down(self, touch):
        if self.state is None or not self.collide_point(*touch.pos):
            return super().on_touch_down(touch)
        touch.grab(self)
        on_card = self.cell_at(*touch.pos) in self.preview
        pan = self._clamped(self.pan)
        touch.ud[TOUCH_KEY] = {"mode": "card" if on_card else "tap", "pan": pan}
        if on_card:
            self._report(touch)
        return True

    def on_touch_move(self, touch):
        if touch.grab_current is not self:
            return super().on_touch_move(touch)
        ud = touch.ud[TOUCH_KEY]
        if ud["mode"] == "card":
            self._report(touch)
        else:
            dx, dy = touch.x - touch.ox, touch.y - touch.oy
            if ud["mode"] == "tap" and max(abs(dx), abs(dy)) >= DRAG:
                ud["mode"] = "pan"
            if ud["mode"] == "pan":
                cell = self.cell_size()
                # the table follows the finger: dragging left shows what lies to the right
                pan = (ud["pan"][0] + round(dy / cell), ud["pan"][1] - round(dx / cell))
                self.pan = list(self._clamped(pan))
        return True

    def on_touch_up(self, touch):
        if touch.grab_current is not self:
            return super().on_touch_up(touch)
        touch.ungrab(self)
        if touch.ud[TOUCH_KEY]["mode"] == "tap":
            self._report(touch)
        return True

    def _report(self, touch) -> None:
        if self.cell_touched:
            self.cell_touched(*self.cell_at(*touch.pos))
