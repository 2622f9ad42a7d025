"""The Node screen: the table as a grid, and a card editor beside it.

Enter a card: pick a colour in the palette and tap the card's nodes (as printed, landscape).
Then tap or drag on the table: the card follows the finger, green where it fits, red (with the
reason underneath) where it does not. "Place" puts it down. Cards are plain data
(`set_card(colours)`), so a camera card reader can fill the editor instead of fingers.
"""

from __future__ import annotations

from kivy.graphics import Color, Line, Rectangle
from kivy.metrics import dp
from kivy.properties import DictProperty, ListProperty, ObjectProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.gridlayout import GridLayout
from kivy.uix.label import Label
from kivy.uix.widget import Widget

from companion.errors import IllegalMove
from companion.ui import colours
from companion.ui.game_screen import GameScreen as BaseScreen
from companion.ui.widgets import BigButton, ColourButton
from companion.ui.widgets import text_texture as _text

from .events import Discard, NoCardsLeft, PlaceCard
from .geometry import footprint
from .rules import GAME as RULES

EMPTY = (0.18, 0.19, 0.24, 1)
GRID_LINE = (0.26, 0.27, 0.33, 1)


def _fitted_text(text: str, width: float, size: float):
    """A dark bold label no wider than `width`: the font shrinks until it fits."""
    dark = (0.05, 0.05, 0.08, 1)
    tex = _text(text, size, dark)
    while tex.width > width and size > 6:
        size -= 1
        tex = _text(text, size, dark)
    return tex


class TableView(Widget):
    """The bounded table: nodes, cluster sizes and owners, and the card being placed."""

    state = ObjectProperty(None, allownone=True)
    preview = DictProperty()  # cell -> colour of the card under the finger
    preview_ok = ObjectProperty(True)
    letters = DictProperty()  # player -> letter shown on the clusters they control
    cell_touched = ObjectProperty(None)  # callback(row, col) while touching

    def on_size(self, *_):
        self.redraw()

    def on_pos(self, *_):
        self.redraw()

    def on_state(self, *_):
        self.redraw()

    def on_preview(self, *_):
        self.redraw_preview()

    def on_preview_ok(self, *_):
        self.redraw_preview()

    def _geometry(self):
        s = self.state
        cell = min(self.width / s.width, self.height / s.height)
        x0 = self.x + (self.width - cell * s.width) / 2
        y0 = self.y + (self.height - cell * s.height) / 2
        return cell, x0, y0

    def cell_rect(self, row: int, col: int):
        cell, x0, y0 = self._geometry()
        # row 0 is the top of the table
        return x0 + col * cell, y0 + (self.state.height - 1 - row) * cell, cell

    def cell_at(self, x: float, y: float) -> tuple[int, int]:
        cell, x0, y0 = self._geometry()
        col = int((x - x0) // cell)
        row = self.state.height - 1 - int((y - y0) // cell)
        return row, col

    def redraw(self) -> None:
        """The table itself; the card under the finger is a separate layer on top."""
        self.canvas.clear()
        self.redraw_preview()
        s = self.state
        if s is None:
            return
        cell, x0, y0 = self._geometry()
        last = set(s.last)
        with self.canvas:
            Color(*EMPTY)
            Rectangle(pos=(x0, y0), size=(cell * s.width, cell * s.height))
            for r in range(s.height):
                for c in range(s.width):
                    colour = s.grid[r][c]
                    x, y, _ = self.cell_rect(r, c)
                    if colour is None:
                        Color(*GRID_LINE)
                        Line(rectangle=(x, y, cell, cell), width=1)
                        continue
                    Color(*colours.rgba(colour))
                    Rectangle(pos=(x + 1, y + 1), size=(cell - 2, cell - 2))
                    if (r, c) in last:
                        Color(1, 1, 1, 0.9)
                        Line(rectangle=(x + 1, y + 1, cell - 2, cell - 2), width=1.2)
            # each node's colour letter, for colour-blind players; a badged cell shows the badge
            badges = self._badges(s)
            size = max(dp(8), cell * 0.38)
            for r in range(s.height):
                for c in range(s.width):
                    colour = s.grid[r][c]
                    if colour is None or (r, c) in badges:
                        continue
                    x, y, _ = self.cell_rect(r, c)
                    tex = _text(colours.label(colour), size, colours.text_on(colour))
                    Color(1, 1, 1, 0.55)
                    Rectangle(
                        texture=tex,
                        size=tex.size,
                        pos=(x + (cell - tex.width) / 2, y + (cell - tex.height) / 2),
                    )
            # the badges stay inside their own cell, so no neighbour is ever covered
            for (r, c), badge in badges.items():
                if badge is None:  # the second cell of a wide badge
                    continue
                text, owned, span = badge
                x, y, _ = self.cell_rect(r, c)
                w = cell * span
                Color(*((1, 1, 1, 1) if owned else (0.85, 0.85, 0.88, 1)))
                Rectangle(pos=(x + 2, y + 2), size=(w - 4, cell - 4))
                tex = _fitted_text(text, w - 5, cell * 0.62)
                Color(1, 1, 1, 1)
                Rectangle(
                    texture=tex,
                    size=tex.size,
                    pos=(x + (w - tex.width) / 2, y + (cell - tex.height) / 2),
                )

    def _badges(self, s) -> dict:
        """cell -> (text, owned, cells wide), or None for a cell under a wide badge. Each
        controlled cluster and the largest of each colour (the size to beat) carry their size
        and owner's initial; lone uncontrolled nodes do not."""
        largest: dict[str, int] = {}
        for k in s.clusters:
            largest[k.colour] = max(largest.get(k.colour, 0), k.size)
        badges = {}
        for k in s.clusters:
            if k.owner or (k.size > 1 and k.size == largest[k.colour]):
                owner = self.letters.get(k.owner, "?") if k.owner else ""
                # two side-by-side cells of a larger cluster give the badge a readable size;
                # the cluster's other cells still show its colour letter
                pairs = sorted(cl for cl in k.cells if (cl[0], cl[1] + 1) in k.cells)
                if k.size >= 3 and pairs:
                    badges[pairs[0]] = (f"{k.size}{owner}", bool(k.owner), 2)
                    badges[(pairs[0][0], pairs[0][1] + 1)] = None
                else:
                    badges[k.anchor] = (f"{k.size}{owner}", bool(k.owner), 1)
        return badges

    def redraw_preview(self) -> None:
        self.canvas.after.clear()
        if self.state is None or not self.preview:
            return
        cell, _, _ = self._geometry()
        edge = colours.OK if self.preview_ok else colours.DANGER
        with self.canvas.after:
            for (r, c), colour in self.preview.items():
                x, y, _ = self.cell_rect(r, c)
                Color(*colours.rgba(colour, 0.75))
                Rectangle(pos=(x + 3, y + 3), size=(cell - 6, cell - 6))
                Color(*edge)
                Line(rectangle=(x + 1, y + 1, cell - 2, cell - 2), width=dp(1.5))
                tex = _text(colours.label(colour), max(dp(8), cell * 0.38), colours.text_on(colour))
                Color(1, 1, 1, 1)
                Rectangle(
                    texture=tex,
                    size=tex.size,
                    pos=(x + (cell - tex.width) / 2, y + (cell - tex.height) / 2),
                )

    def on_touch_down(self, touch):
        if self.state is None or not self.collide_point(*touch.pos):
            return super().on_touch_down(touch)
        touch.grab(self)
        self._report(touch)
        return True

    def on_touch_move(self, touch):
        if touch.grab_current is self:
            self._report(touch)
            return True
        return super().on_touch_move(touch)

    def on_touch_up(self, touch):
        if touch.grab_current is self:
            touch.ungrab(self)
            return True
        return super().on_touch_up(touch)

    def _report(self, touch) -> None:
        if self.cell_touched:
            self.cell_touched(*self.cell_at(*touch.pos))


class CardEditor(GridLayout):
    """The card as printed: tap a node to give it the palette's colour."""

    colours_ = ListProperty()  # row-major, None for a node not yet entered
    node_tapped = ObjectProperty(None)
    shape = ListProperty([2, 3])  # rows, cols

    def on_shape(self, *_):
        self.rebuild()

    def on_colours_(self, *_):
        self.rebuild()

    def rebuild(self) -> None:
        self.clear_widgets()
        rows, cols = self.shape
        self.rows, self.cols = rows, cols
        for i in range(rows * cols):
            colour = self.colours_[i] if i < len(self.colours_) else None
            b = ColourButton(
                colour=colour or "grey",
                on_release=lambda _b, n=i: self.node_tapped and self.node_tapped(n),
            )
            if colour is None:
                b.text = "?"
            self.add_widget(b)


def _caption(text: str) -> Label:
    label = Label(text=text, font_size="14sp", color=colours.MUTED, size_hint_y=None, height=dp(20))
    return label


def player_letters(players) -> dict[str, str]:
    """Initials for the cluster badges; seat numbers when two players share an initial."""
    initials = [p[:1].upper() for p in players]
    if len(set(initials)) < len(initials):
        initials = [str(i + 1) for i in range(len(players))]
    return dict(zip(players, initials, strict=True))


class NodeScreen(BaseScreen):
    reason = StringProperty("")

    def build(self) -> None:
        s = self.state
        self.card: list[str | None] = [None] * (s.card_width * s.card_height)
        self.paint = s.colours[0]
        self.rotation = 0
        self.anchor: tuple[int, int] | None = None  # table cell under the card's centre
        row = BoxLayout(spacing=dp(6))
        left = BoxLayout(orientation="vertical", spacing=dp(4))
        self.table = TableView(cell_touched=self._touch_cell)
        self.table.letters = player_letters(s.players)
        left.add_widget(self.table)
        self.reason_label = Label(
            text="",
            font_size="16sp",
            color=colours.TEXT,
            size_hint_y=None,
            height=dp(22),
            halign="left",
            valign="middle",
            shorten=True,
        )
        self.reason_label.bind(size=lambda w, sz: setattr(w, "text_size", sz))
        left.add_widget(self.reason_label)
        self.palette = BoxLayout(spacing=dp(4), size_hint_y=None, height=dp(50))
        left.add_widget(self.palette)
        row.add_widget(left)

        right = BoxLayout(orientation="vertical", spacing=dp(4), size_hint_x=None, width=dp(150))
        right.add_widget(_caption("Card (as printed)"))
        self.editor = CardEditor(
            spacing=dp(2),
            size_hint_y=None,
            height=dp(50) * s.card_height,
            node_tapped=self._tap_node,
        )
        self.editor.shape = [s.card_height, s.card_width]
        right.add_widget(self.editor)
        self.turn_label = _caption("")
        right.add_widget(self.turn_label)
        buttons = GridLayout(cols=2, spacing=dp(2), size_hint_y=None, height=dp(104))
        self.rotate_button = BigButton(text="Turn", on_release=lambda *_: self._rotate())
        self.place_button = BigButton(
            text="Place", tint=colours.OK, on_release=lambda *_: self._place()
        )
        self.discard_button = BigButton(text="Discard", on_release=lambda *_: self._discard())
        self.new_button = BigButton(text="New", on_release=lambda *_: self.set_card(None))
        for b in (self.rotate_button, self.place_button, self.new_button, self.discard_button):
            buttons.add_widget(b)
        right.add_widget(buttons)
        self.end_button = BigButton(
            text="No cards left",
            size_hint_y=None,
            height=dp(52),
            on_release=lambda *_: self.submit(NoCardsLeft()),
        )
        right.add_widget(self.end_button)
        right.add_widget(Widget())
        row.add_widget(right)
        self.body.add_widget(row)
        self._fill_palette()
        self.editor.colours_ = list(self.card)

    # the card -----------------------------------------------------------------------------
    def set_card(self, colours_: list[str] | tuple[str, ...] | None) -> None:
        """Fill the editor (from touches or, later, the card reader); None clears it."""
        n = self.state.card_width * self.state.card_height
        self.card = list(colours_) if colours_ else [None] * n
        self.rotation = 0
        self.editor.colours_ = list(self.card)
        self._update_preview()

    def _fill_palette(self) -> None:
        self.palette.clear_widgets()
        for colour in self.state.colours:
            self.palette.add_widget(
                ColourButton(
                    colour=colour,
                    selected=colour == self.paint,
                    on_release=lambda _b, c=colour: self._choose_paint(c),
                )
            )

    def _choose_paint(self, colour: str) -> None:
        self.paint = colour
        self._fill_palette()

    def _tap_node(self, index: int) -> None:
        self.card[index] = self.paint
        self.editor.colours_ = list(self.card)
        self._update_preview()

    def _rotate(self) -> None:
        self.rotation = (self.rotation + 90) % 360
        self._update_preview()

    def _show_rotation(self) -> None:
        self.turn_label.text = f"turned {self.rotation}°" if self.rotation else "not turned"

    # placing ------------------------------------------------------------------------------
    def _touch_cell(self, row: int, col: int) -> None:
        self.anchor = (row, col)
        self._update_preview()

    def _top_left(self) -> tuple[int, int]:
        s = self.state
        h, w = (s.card_height, s.card_width)
        if self.rotation in (90, 270):
            h, w = w, h
        r, c = self.anchor
        return r - (h - 1) // 2, c - (w - 1) // 2

    def _update_preview(self) -> None:
        s = self.state
        if s.over:
            self.table.preview, self.reason = {}, ""
            self.reason_label.text = "Game over"
            return
        if self.anchor is None:
            self.anchor = s.middle
        if None in self.card:
            self.table.preview = {}
            left = self.card.count(None)
            self.reason = f"{s.current}: enter the card's colours ({left} to go)"
        else:
            row, col = self._top_left()
            shown = footprint(
                tuple(self.card), s.card_height, s.card_width, row, col, self.rotation
            )
            self.table.preview = {
                cell: c
                for cell, c in shown.items()
                if 0 <= cell[0] < s.height and 0 <= cell[1] < s.width
            }
            try:
                RULES.check_placement(s, tuple(self.card), row, col, self.rotation)
            except IllegalMove as exc:
                self.table.preview_ok, self.reason = False, str(exc)
            else:
                self.table.preview_ok, self.reason = True, f"{s.current}: fits here"
            self.table.redraw_preview()
        self._show_rotation()
        self.reason_label.text = self.reason
        self.reason_label.color = colours.TEXT if self.table.preview_ok else colours.DANGER

    def _place(self) -> None:
        if None in self.card:
            self.show_banner("Enter every node of the card first", "ask")
            return
        row, col = self._top_left()
        event = PlaceCard(self.state.current, tuple(self.card), row, col, self.rotation)
        if self.submit(event):
            self.set_card(None)

    def _discard(self) -> None:
        # The card in the editor (if whole) is shown to the check: it must not fit anywhere.
        hand = (tuple(self.card),) if None not in self.card else ()
        if self.submit(Discard(self.state.current, hand)):
            self.set_card(None)

    # drawing ------------------------------------------------------------------------------
    def refresh(self) -> None:
        super().refresh()
        if not hasattr(self, "table"):
            return
        self.table.state = self.state
        over = self.state.over
        self.place_button.disabled = self.discard_button.disabled = over
        # when the app counts the deck it ends the game itself
        self.end_button.disabled = over or self.state.deck is not None
        self._update_preview()


GameScreen = NodeScreen
