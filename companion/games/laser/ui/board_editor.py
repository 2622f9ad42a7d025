"""A touch editor for the Laser board: tap tiles to set figures, the cat or floors, and the
colour cards' spare figures. Feeds the referee view and the removed-figure proposal.

Opened on the camera's reading (`from_proposal`), it starts from the tiles read; the tiles
the camera is unsure of are ringed, and the one in question offers its likely answers first
(a row of big buttons in place of the tools, and the colour brushes in that order). The
spare figures or the floors, when the camera could not tell them, are marked to check."""

from __future__ import annotations

import math

from kivy.graphics import Color, Ellipse, Line, Rectangle
from kivy.metrics import dp
from kivy.properties import StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.gridlayout import GridLayout
from kivy.uix.label import Label
from kivy.uix.widget import Widget

from companion.ui import colours
from companion.ui.widgets import BigButton, ColourButton, text_texture

from ..board import CARD_CAPACITY, COLOURS, COMPETITIVE, FLOORS, TILES

FLOOR_TINT = {
    "wood": (0.55, 0.38, 0.22, 1),
    "carpet": (0.45, 0.30, 0.55, 1),
    "ceramic": (0.75, 0.78, 0.80, 1),
}
FLOOR_LETTER = {"wood": "W", "carpet": "C", "ceramic": "E"}  # explained in the ring's middle
CAT, EMPTY = "cat", "empty"  # what the camera may say of a tile besides a colour


class BoardCircle(Widget):
    """The 12 tiles clockwise from the top; tap one to change it."""

    def __init__(self, editor: BoardEditor, **kw):
        super().__init__(**kw)
        self.editor = editor
        self.bind(pos=self.redraw, size=self.redraw)

    def centres(self):
        r_tile = self.tile_radius()
        ring = min(self.width, self.height) / 2 - r_tile - dp(2)
        cx, cy = self.center
        for i in range(TILES):
            a = math.pi / 2 - 2 * math.pi * i / TILES  # 0 at the top, clockwise
            yield i, cx + ring * math.cos(a), cy + ring * math.sin(a)

    def tile_radius(self) -> float:
        return max(dp(25), min(self.width, self.height) / 9)

    def on_touch_down(self, touch):
        if not self.collide_point(*touch.pos):
            return super().on_touch_down(touch)
        r = self.tile_radius()
        for i, x, y in self.centres():
            if (touch.x - x) ** 2 + (touch.y - y) ** 2 <= r * r:
                self.editor.tap_tile(i)
                return True
        return super().on_touch_down(touch)

    def redraw(self, *_):
        ed = self.editor
        self.canvas.clear()
        r = self.tile_radius()
        with self.canvas:
            for i, x, y in self.centres():
                floor = ed.floors[i] if ed.mode == COMPETITIVE else None
                Color(*(FLOOR_TINT[floor] if floor else (0.3, 0.32, 0.38, 1)))
                Ellipse(pos=(x - r, y - r), size=(2 * r, 2 * r))
                fig = ed.tiles[i]
                if fig is not None:
                    Color(*colours.rgba(fig))
                    Ellipse(pos=(x - r * 0.72, y - r * 0.72), size=(1.44 * r, 1.44 * r))
                    tex = text_texture(colours.label(fig), r * 0.8, colours.text_on(fig))
                elif i == ed.cat:
                    tex = text_texture("cat", r * 0.6)
                else:
                    tex = text_texture(str(i + 1), r * 0.5, colours.MUTED)  # people count 1-12
                Color(1, 1, 1, 1)
                Rectangle(texture=tex, pos=(x - tex.width / 2, y - tex.height / 2), size=tex.size)
                if floor:  # the floor's letter on a dark badge at the tile's foot
                    ft = text_texture(FLOOR_LETTER[floor], max(dp(15), r * 0.55))
                    bx, by = x + r * 0.5 - ft.width / 2, y - r * 0.95
                    Color(0, 0, 0, 0.6)
                    Rectangle(pos=(bx - dp(2), by), size=(ft.width + dp(4), ft.height))
                    Color(1, 1, 1, 1)
                    Rectangle(texture=ft, pos=(bx, by), size=ft.size)
                if i == ed.cat:
                    Color(1, 1, 1, 1)
                    Line(circle=(x, y, r), width=dp(2.5))
                if i in ed.unsure:  # the camera is unsure: ringed until a person says
                    Color(*(colours.ACCENT if i == ed.focus else colours.DANGER))
                    Line(circle=(x, y, r + dp(2)), width=dp(3.5 if i == ed.focus else 2.5))
            if ed.mode == COMPETITIVE:
                self._legend()

    def _legend(self) -> None:
        """What the floor letters mean, in the ring's middle: a swatch, the letter, the word."""
        cx, cy = self.center
        lines = [text_texture(f"{FLOOR_LETTER[f]}  {f}", dp(16)) for f in FLOORS]
        step = max(t.height for t in lines) + dp(4)
        top = cy + step * len(lines) / 2
        for k, (floor, tex) in enumerate(zip(FLOORS, lines, strict=True)):
            y = top - (k + 1) * step
            x = cx - (tex.width + step) / 2
            Color(*FLOOR_TINT[floor])
            Ellipse(pos=(x, y + dp(2)), size=(step - dp(6), step - dp(6)))
            Color(1, 1, 1, 1)
            Rectangle(texture=tex, pos=(x + step, y), size=tex.size)


class BoardEditor(BoxLayout):
    """Left: the board circle. Right: what a tap does, and the colour cards' spares."""

    tool = StringProperty("figure")  # figure | cat | floor

    def __init__(self, mode: str, board=None, unsure=None, check=(), **kw):
        """`unsure`: tile -> likely answers best first (colours, "cat", "empty"), the tiles
        to check; `check`: other parts to check, "spares" and/or "floors"."""
        super().__init__(spacing=dp(6), **kw)
        self.mode = mode
        self.unsure: dict[int, tuple[str, ...]] = dict(unsure or {})
        self.focus: int | None = min(self.unsure) if self.unsure else None
        self.check = set(check)
        if board is not None:
            tiles, floors, cat, supply = board
            self.tiles = list(tiles)
            self.floors = list(floors) if floors else [FLOORS[i // 4] for i in range(TILES)]
            self.cat = cat
            self.supply = list(supply)
        else:
            self.tiles = [None] * TILES
            self.floors = [FLOORS[i % 3] for i in range(TILES)]
            self.cat = 0
            self.supply = [CARD_CAPACITY] * 6
        self.brush = COLOURS[0]
        self.circle = BoardCircle(self)
        self.add_widget(self.circle)
        self.side = BoxLayout(orientation="vertical", spacing=dp(3), size_hint_x=0.62)
        self.add_widget(self.side)
        self._side()

    @classmethod
    def from_proposal(cls, mode: str, proposal, **kw) -> BoardEditor:
        """The editor on the camera's reading (a `BoardProposed`)."""
        tiles = [t if t in COLOURS else None for t in proposal.tiles]
        cats = [i for i, t in enumerate(proposal.tiles) if t == CAT]
        empty = [i for i, t in enumerate(tiles) if t is None]
        cat = (cats or empty or [0])[0]
        floors = proposal.floors or [FLOORS[i // 4] for i in range(TILES)]
        supply = proposal.supply or (CARD_CAPACITY,) * 6
        unsure = {}
        for i in proposal.unsure:
            if i >= 0:
                likely = proposal.candidates[i] if i < len(proposal.candidates) else ()
                unsure[i] = tuple(likely) or (proposal.tiles[i] or EMPTY,)
        check = (["spares"] if -1 in proposal.unsure else []) + (
            ["floors"] if mode == COMPETITIVE and proposal.floors is None else []
        )
        return cls(mode, (tiles, floors, cat, supply), unsure, check, **kw)

    def board(self):
        floors = tuple(self.floors) if self.mode == COMPETITIVE else None
        return tuple(self.tiles), floors, self.cat, tuple(self.supply)

    def tap_tile(self, i: int) -> None:
        if self.focus is not None:
            # checking the camera's reading: a tap picks the tile to answer for
            if i not in self.unsure:
                self.unsure[i] = (CAT if i == self.cat else self.tiles[i] or EMPTY,)
            self.focus = i
            self._side()
            self.circle.redraw()
            return
        if self.tool == "cat":
            if self.tiles[i] is None:
                self.cat = i
        elif self.tool == "floor":
            self.floors[i] = FLOORS[(FLOORS.index(self.floors[i]) + 1) % len(FLOORS)]
        elif i != self.cat:
            # tap once: the brush colour; tap again: empty
            self.tiles[i] = None if self.tiles[i] == self.brush else self.brush
        self.circle.redraw()

    def answer(self, what: str) -> None:
        """The tile in question holds `what`: a colour, "cat" or "empty"."""
        i = self.focus
        if i is None:
            return
        if what == CAT:
            self.tiles[i], self.cat = None, i
        elif what == EMPTY:
            self.tiles[i] = None
        else:
            self.tiles[i] = what
        del self.unsure[i]
        self._next_focus()
        self._side()
        self.circle.redraw()

    def _next_focus(self) -> None:
        self.focus = min(self.unsure) if self.unsure else None

    def _side(self) -> None:
        side = self.side
        side.clear_widgets()
        if self.focus is not None:
            side.add_widget(self._answers_row(self.focus))
            self._brushes(side, self.unsure[self.focus])
            self._spares(side)
            return
        tools = BoxLayout(size_hint_y=None, height=dp(50), spacing=dp(3))
        names = [("figure", "Figures"), ("cat", "Cat")]
        if self.mode == COMPETITIVE:
            names.append(("floor", "Floors"))
        for key, text in names:
            tint = colours.ACCENT if self.tool == key else colours.BUTTON
            if key == "floor" and "floors" in self.check:
                tint = colours.DANGER  # the camera cannot see floors: set them once
            tools.add_widget(
                BigButton(
                    text=text,
                    font_size="17sp",
                    tint=tint,
                    on_release=lambda _b, k=key: self._set_tool(k),
                )
            )
        side.add_widget(tools)
        self._brushes(side)
        self._spares(side)

    def _answers_row(self, tile: int) -> BoxLayout:
        """The tile in question and its likely answers, best first, as big buttons."""
        row = BoxLayout(size_hint_y=None, height=dp(50), spacing=dp(3))
        row.add_widget(
            Label(
                text=f"Tile {tile + 1}?",
                font_size="16sp",
                bold=True,
                color=colours.TEXT,
                size_hint_x=None,
                width=dp(64),
            )
        )
        for what in self.unsure[tile][:3]:
            if what in COLOURS:
                b = ColourButton(colour=what)
            else:
                b = BigButton(text=what, font_size="17sp")
            b.bind(on_release=lambda _b, w=what: self.answer(w))
            row.add_widget(b)
        return row

    def _brushes(self, side, likely=()) -> None:
        """The six colours; with a tile in question, its likely colours first."""
        order = [c for c in likely if c in COLOURS] + [c for c in COLOURS if c not in likely]
        brush = GridLayout(cols=3, size_hint_y=None, height=dp(100), spacing=dp(3))
        for c in order:
            tap = (
                (lambda _b, c=c: self.answer(c)) if likely else (lambda _b, c=c: self._set_brush(c))
            )
            brush.add_widget(
                ColourButton(colour=c, selected=c == self.brush and not likely, on_release=tap)
            )
        side.add_widget(brush)

    def _spares(self, side) -> None:
        check = "spares" in self.check
        note = Label(
            text="Check the spare figures on the cards:"
            if check
            else "Spare figures on the colour cards:",
            font_size="14sp",
            color=colours.DANGER if check else colours.MUTED,
            size_hint_y=None,
            height=dp(22),
        )
        side.add_widget(note)
        spares = GridLayout(cols=3, spacing=dp(3))
        for i, c in enumerate(COLOURS):
            spares.add_widget(
                BigButton(
                    tint=colours.rgba(c),
                    color=colours.text_on(c),
                    bold=True,
                    text=f"{colours.label(c)} {self.supply[i]}",
                    on_release=lambda _b, i=i: self._cycle_supply(i),
                )
            )
        side.add_widget(spares)

    def _set_tool(self, tool: str) -> None:
        self.tool = tool
        if tool == "floor":
            self.check.discard("floors")
        self._side()

    def _set_brush(self, colour: str) -> None:
        self.brush, self.tool = colour, "figure"
        self._side()

    def _cycle_supply(self, i: int) -> None:
        self.supply[i] = (self.supply[i] - 1) % (CARD_CAPACITY + 1)
        self.check.discard("spares")
        self._side()
