"""The Node screen: the table as a grid, and a card editor beside it.

Enter a card: pick a colour in the palette and tap the card's nodes (as printed, landscape).
Then tap the table, or drag the card: it follows the finger, green where it fits, red (with the
reason underneath) where it does not; drag the table itself to see more of it (table_view.py).
"Place" puts it down. Cards are plain data
(`set_card(colours)`), so a camera card reader can fill the editor instead of fingers.

When the camera asks about a card (state.asked), the grid shows the card as read, outlined
(green: the rules take it, red: they refuse it) with the camera's words under it, and the
palette row gives way to "Confirm" (as the table's next button) and "Correct" (the editor,
filled in with the reading).
"""

from __future__ import annotations

from kivy.metrics import dp
from kivy.properties import ListProperty, ObjectProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.gridlayout import GridLayout
from kivy.uix.label import Label
from kivy.uix.widget import Widget

from companion.errors import IllegalMove
from companion.ui import colours
from companion.ui.game_screen import GameScreen as BaseScreen
from companion.ui.touch_guard import HoldButton
from companion.ui.widgets import BigButton, ColourButton, caption

from .events import CardProposed, Discard, NoCardsLeft, PlaceCard
from .geometry import footprint
from .rules import GAME as RULES
from .table_view import TableView


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
    return caption(text, 14, colour=colours.MUTED, halign="center", size_hint_y=None, height=dp(20))


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
        self.wide(True)  # the table needs the room; the scores sit under the card
        self.card: list[str | None] = [None] * (s.card_width * s.card_height)
        self.paint = s.colours[0]
        self.rotation = 0
        self.anchor: tuple[int, int] | None = None  # table cell under the card's centre
        self.correcting: CardProposed | None = None  # the camera's reading being corrected
        self._palette_for: CardProposed | None = None  # the reading the palette row serves
        row = BoxLayout(spacing=dp(6))
        left = BoxLayout(orientation="vertical", spacing=dp(4))
        self.table = TableView(cell_touched=self._touch_cell)
        self.table.letters = player_letters(s.players)
        left.add_widget(self.table)
        self.reason_label = caption("", 16, size_hint_y=None, height=dp(22), shorten=True)
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
        self.scores_label = caption(
            "", 17, bold=True, halign="center", size_hint_y=None, height=dp(24), shorten=True
        )
        right.add_widget(self.scores_label)
        buttons = GridLayout(cols=2, spacing=dp(2), size_hint_y=None, height=dp(104))
        self.rotate_button = BigButton(text="Turn", on_release=lambda *_: self._rotate())
        self.place_button = BigButton(
            text="Place", tint=colours.OK, on_release=lambda *_: self._place()
        )
        self.discard_button = HoldButton(  # under Place: a slip of the finger must not discard
            text="Discard", hint="Hold to discard", on_hold=lambda *_: self._discard()
        )
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
        asked = self._palette_for = self.camera_question()
        if asked is not None:
            # the camera's card: confirm it as read, or correct it in the editor
            if not asked.refused:
                self.palette.add_widget(
                    BigButton(text="Confirm", tint=colours.OK, on_release=lambda *_: self.confirm())
                )
            if asked.colours:
                self.palette.add_widget(
                    BigButton(text="Correct", on_release=lambda *_: self.correct())
                )
            return
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
        scores = self.session.game.scores(self.state)
        self.scores_label.text = "  ".join(f"{p} {scores.get(p, 0):g}" for p in self.state.players)

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

    # the camera's card ---------------------------------------------------------------------
    def camera_question(self) -> CardProposed | None:
        """The camera's reading to show, unless the game is over or it is being corrected."""
        asked = self.state.asked
        if asked is None or self.state.over or asked == self.correcting:
            return None
        return asked

    def confirm(self) -> None:
        """The card as the camera read it, like the table's next button."""
        if self.state.proposal is not None:
            self.submit(self.state.proposal)

    def correct(self) -> None:
        """The editor, filled in with the camera's reading, where it was seen."""
        asked = self.camera_question()
        if asked is None or not asked.colours:
            return
        self.correcting = asked
        self.set_card(asked.colours)
        self.rotation = asked.rotation
        h, w = self.state.card_height, self.state.card_width
        if asked.rotation in (90, 270):
            h, w = w, h
        self.anchor = (asked.row + (h - 1) // 2, asked.col + (w - 1) // 2)
        self._fill_palette()
        self._update_preview()

    def _show_camera(self, asked: CardProposed) -> None:
        s = self.state
        shown = {}
        if asked.colours:
            shown = footprint(
                asked.colours, s.card_height, s.card_width, asked.row, asked.col, asked.rotation
            )
        self.table.preview = {
            cell: c
            for cell, c in shown.items()
            if 0 <= cell[0] < s.height and 0 <= cell[1] < s.width
        }
        self.table.preview_ok = not asked.refused
        self.table.redraw_preview()
        self._show_rotation()
        self.reason = asked.question
        self.reason_label.text = asked.question
        self.reason_label.color = colours.DANGER if asked.refused else colours.TEXT

    def _update_preview(self) -> None:
        s = self.state
        if s.over:
            self.table.preview, self.reason = {}, ""
            self.reason_label.text = "Game over"
            return
        asked = self.camera_question()
        camera = asked is not None
        self.reason_label.height = dp(44) if camera else dp(22)
        self.reason_label.shorten = not camera
        self.reason_label.font_size = "14sp" if camera else "16sp"
        if camera:
            self._show_camera(asked)
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
        if self.correcting is not None and self.state.asked != self.correcting:
            self.correcting = None  # answered, or a new reading came
        if self.camera_question() != self._palette_for:
            self._fill_palette()  # the camera's buttons come or go
        self._update_preview()


GameScreen = NodeScreen
