"""The Elios screen: group sizes while grouping, then the sun and one row of actions a turn.

Placing a group: tap a ray and its beam goes on top (the ray's own colour, or the colour or
joker picked in the palette first). The group is built up beam by beam, then "Place".
"""

from __future__ import annotations

from kivy.graphics import Color, Line, Rectangle
from kivy.metrics import dp
from kivy.properties import ListProperty, NumericProperty, ObjectProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.widget import Widget

from companion.cues import AskHuman
from companion.ui import colours
from companion.ui.game_screen import GameScreen as BaseScreen
from companion.ui.widgets import BigButton, ColourButton, caption
from companion.ui.widgets import text_texture as _text

from .events import AddDisc, Pass, PlaceGroup, Ready, SplitGroup
from .passing import pass_question, pass_refusal
from .state import DISCS_IN_BOX, JOKER

MAX_LEVEL = DISCS_IN_BOX


class SunView(Widget):
    """The eight rays as columns from the sunbeam up, the disc height as a line."""

    rays = ListProperty()  # [(base colour, (beam colours bottom first)), ...]
    discs = NumericProperty(2)
    pending = ListProperty()  # [(ray, colour)] of the group being built
    ray_tapped = ObjectProperty(None)  # callback(ray colour)

    def on_size(self, *_):
        self.redraw()

    def on_pos(self, *_):
        self.redraw()

    def on_rays(self, *_):
        self.redraw()

    def on_pending(self, *_):
        self.redraw()

    def on_discs(self, *_):
        self.redraw()

    def _geometry(self):
        n = max(1, len(self.rays))
        col_w = self.width / n
        # show one level above the discs (and the tallest ray), so beams stay big early on
        tallest = max((len(stack) for _, stack in self.rays), default=1)
        shown = min(MAX_LEVEL, max(4, self.discs + 1, tallest + 1))
        cell_h = (self.height - dp(4)) / shown
        return col_w, cell_h

    def redraw(self) -> None:
        self.canvas.clear()
        if not self.rays:
            return
        col_w, cell_h = self._geometry()
        pend = dict(self.pending)
        with self.canvas:
            Color(*colours.PANEL)
            Rectangle(pos=self.pos, size=self.size)
            # levels the discs allow are lighter
            Color(0.22, 0.23, 0.30, 1)
            Rectangle(pos=self.pos, size=(self.width, cell_h * self.discs))
            for i, (base, stack) in enumerate(self.rays):
                x = self.x + i * col_w
                beams = list(stack) + ([pend[base]] if base in pend else [])
                for level, colour in enumerate(beams):
                    y = self.y + level * cell_h
                    ghost = level == len(stack)
                    Color(*colours.rgba(colour, 0.45 if ghost else 1))
                    Rectangle(pos=(x + dp(4), y + 1), size=(col_w - dp(8), cell_h - 2))
                    text = "J" if colour == JOKER else colours.label(colour)
                    tex = _text(text, min(cell_h * 0.7, dp(16)), colours.text_on(colour))
                    Color(1, 1, 1, 1)
                    Rectangle(
                        texture=tex,
                        size=tex.size,
                        pos=(x + (col_w - tex.width) / 2, y + (cell_h - tex.height) / 2),
                    )
                    if ghost:
                        Color(1, 1, 1, 1)
                        Line(rectangle=(x + dp(4), y + 1, col_w - dp(8), cell_h - 2), width=2)
            # the discs' height: nothing may go above this line
            Color(0.98, 0.86, 0.15, 1)
            y = self.y + self.discs * cell_h
            Line(points=[self.x, y, self.right, y], width=dp(1.5))
            tex = _text(f"discs {self.discs}", dp(15), (0.98, 0.86, 0.15, 1))
            Color(1, 1, 1, 1)
            Rectangle(texture=tex, size=tex.size, pos=(self.right - tex.width - dp(4), y + 2))

    def on_touch_down(self, touch):
        if not self.collide_point(*touch.pos) or not self.rays:
            return super().on_touch_down(touch)
        col_w, _ = self._geometry()
        i = min(len(self.rays) - 1, int((touch.x - self.x) / col_w))
        if self.ray_tapped:
            self.ray_tapped(self.rays[i][0])
        return True


class Counter(BoxLayout):
    """'Groups of 3: [-] 5 [+]' for the grouping phase."""

    def __init__(self, size: int, changed, **kw):
        super().__init__(
            orientation="horizontal", spacing=dp(6), size_hint_y=None, height=dp(52), **kw
        )
        self.size_of_group = size
        self.value = 0
        self.changed = changed
        self.label = caption("", 19, halign="center")
        self.add_widget(self.label)
        self.add_widget(
            BigButton(text="-", size_hint_x=None, width=dp(56), on_release=lambda *_: self.bump(-1))
        )
        self.add_widget(
            BigButton(text="+", size_hint_x=None, width=dp(56), on_release=lambda *_: self.bump(1))
        )

    def bump(self, step: int) -> None:
        self.value = max(0, self.value + step)
        self.changed()

    def show(self) -> None:
        self.label.text = f"groups of {self.size_of_group}:  {self.value}"


class EliosScreen(BaseScreen):
    def build(self) -> None:
        self.pending: list[tuple[str, str]] = []
        self.pick: str | None = None  # colour chosen in the palette for the next beam
        self.grouper: str | None = None  # player whose groups are being entered
        self.grouping = BoxLayout(orientation="vertical", spacing=dp(6))
        self.playing = BoxLayout(orientation="vertical", spacing=dp(6))
        self._build_grouping()
        self._build_playing()

    # grouping ----------------------------------------------------------------------------
    def _build_grouping(self) -> None:
        g = self.grouping
        self.who = BoxLayout(spacing=dp(6), size_hint_y=None, height=dp(56))
        g.add_widget(self.who)
        self.counters = {n: Counter(n, self._groups_changed) for n in (3, 2, 1)}
        for c in self.counters.values():
            g.add_widget(c)
        self.group_sum = caption(
            "", 18, colour=colours.MUTED, halign="center", size_hint_y=None, height=dp(30)
        )
        g.add_widget(self.group_sum)
        self.ready_button = BigButton(
            text="Ready",
            size_hint_y=None,
            height=dp(60),
            tint=colours.OK,
            on_release=lambda *_: self._ready(),
        )
        g.add_widget(self.ready_button)
        g.add_widget(Widget())

    def _choose_grouper(self, player: str) -> None:
        self.grouper = player
        hand = self.state.hand(player)
        n = hand.dealt
        self.counters[3].value, rest = divmod(n, 3)
        self.counters[2].value = 1 if rest == 2 else 0
        self.counters[1].value = 1 if rest == 1 else 0
        self.refresh()

    def _groups_changed(self) -> None:
        self.refresh()

    def _groups(self) -> tuple[int, ...]:
        return tuple(n for n, c in self.counters.items() for _ in range(c.value))

    def _ready(self) -> None:
        if self.grouper and self.submit(Ready(self.grouper, self._groups())):
            self.grouper = None
            self.refresh()

    # turns -----------------------------------------------------------------------------
    def _build_playing(self) -> None:
        p = self.playing
        self.sun = SunView(ray_tapped=self._tap_ray)
        p.add_widget(self.sun)
        self.palette = BoxLayout(spacing=dp(2), size_hint_y=None, height=dp(50))
        p.add_widget(self.palette)
        self.hand_line = caption("", 16, size_hint_y=None, height=dp(44))
        p.add_widget(self.hand_line)
        actions = BoxLayout(spacing=dp(4), size_hint_y=None, height=dp(56))
        self.place_button = BigButton(
            text="Place", tint=colours.OK, on_release=lambda *_: self._place()
        )
        self.clear_button = BigButton(text="Clear", on_release=lambda *_: self._clear())
        self.disc_button = BigButton(text="+ Disc", on_release=lambda *_: self._act(AddDisc))
        self.split3 = BigButton(text="Split 3", on_release=lambda *_: self._split(3))
        self.split2 = BigButton(text="Split 2", on_release=lambda *_: self._split(2))
        self.pass_button = BigButton(text="Pass", on_release=lambda *_: self._pass())
        for b in (
            self.place_button,
            self.clear_button,
            self.disc_button,
            self.split3,
            self.split2,
            self.pass_button,
        ):
            actions.add_widget(b)
        p.add_widget(actions)

    def _fill_palette(self) -> None:
        """The game's colours and the joker, the picked one lit. The chips are made once per
        set of colours and only lit on each refresh: a tap then redraws one chip, not the row."""
        colours = (*self.state.colours, JOKER)
        chips = {b.colour: b for b in self.palette.children}
        if set(chips) != set(colours) or len(chips) != len(colours):
            self.palette.clear_widgets()
            chips = {}
            for colour in colours:
                b = ColourButton(colour=colour, on_release=lambda _b, c=colour: self._pick(c))
                if colour == JOKER:
                    b.text = "J"
                self.palette.add_widget(b)
                chips[colour] = b
        for colour, b in chips.items():
            b.selected = colour == self.pick

    def _pick(self, colour: str) -> None:
        self.pick = None if self.pick == colour else colour
        self._fill_palette()

    def _tap_ray(self, ray: str) -> None:
        if self.state.phase != "turns":
            return
        if any(r == ray for r, _ in self.pending):
            self.pending = [(r, c) for r, c in self.pending if r != ray]
        else:
            top = self.state.ray(ray)[-1]
            colour = self.pick or top
            if colour == JOKER and not self.pick:
                self.show_banner("The top is a joker: pick the beam's colour first", "ask")
                return
            self.pending.append((ray, colour))
        self.pick = None
        self.refresh()

    def _place(self) -> None:
        player = self.state.current
        if not self.pending:
            self.show_banner("Tap the rays where the group's beams go", "ask")
            return
        if self.submit(PlaceGroup(player, tuple(self.pending))):
            self._clear()

    def _clear(self) -> None:
        self.pending, self.pick = [], None
        self.refresh()

    def _split(self, size: int) -> None:
        self.submit(SplitGroup(self.state.current, size))

    def _act(self, kind) -> None:
        if self.submit(kind(self.state.current)):
            self._clear()

    def _pass(self) -> None:
        """A pass the table shows impossible is refused with the reason; one it cannot check
        is the player's word, so they are asked first."""
        player = self.state.current
        refusal = pass_refusal(self.state, player)
        question = None if refusal else pass_question(self.state, player)
        if question is None:
            self._act(Pass)  # refused with the reason, or nothing fits anywhere: certain
            return
        self.ask(AskHuman(question, ("None fits: pass",), (Pass(player),)))

    # drawing -----------------------------------------------------------------------------
    def refresh(self) -> None:
        super().refresh()
        if not hasattr(self, "grouping"):
            return
        state = self.state
        body = self.body
        want = self.grouping if state.phase == "grouping" else self.playing
        if want not in body.children:
            body.clear_widgets()
            body.add_widget(want)
        if state.phase == "grouping":
            self._refresh_grouping()
        else:
            self._refresh_playing()

    def _refresh_grouping(self) -> None:
        waiting = [h.player for h in self.state.hands if not h.ready]
        if self.grouper not in waiting:
            self.grouper = None
            if waiting:
                self._choose_grouper(waiting[0])
                return
        self.who.clear_widgets()
        for p in waiting:
            self.who.add_widget(
                BigButton(
                    text=p,
                    tint=colours.ACCENT if p == self.grouper else colours.BUTTON,
                    on_release=lambda _b, name=p: self._choose_grouper(name),
                )
            )
        for c in self.counters.values():
            c.show()
        if self.grouper:
            hand = self.state.hand(self.grouper)
            total = sum(self._groups())
            self.group_sum.text = (
                f"{self.grouper}: {total} of {hand.dealt} beams in groups "
                f"({hand.jokers} joker{'s' if hand.jokers > 1 else ''}, each in its own group)"
            )
            self.ready_button.text = f"{self.grouper} is ready"
            self.ready_button.disabled = total != hand.dealt

    def _refresh_playing(self) -> None:
        state = self.state
        if (state.current, state.turn) != getattr(self, "_pending_for", None):
            self.pending, self.pick = [], None  # a new turn (or an undo) drops a half-built group
            self._pending_for = (state.current, state.turn)
        self.sun.rays = [(ray[0], ray) for ray in state.rays]
        self.sun.discs = state.discs
        self.sun.pending = list(self.pending)
        self._fill_palette()
        over = state.phase == "over"
        if over:
            self.hand_line.text = "Game over"
        else:
            hand = state.hand(state.current)
            groups = " ".join(str(g) for g in hand.groups) or "none"
            building = ", ".join(
                ("joker" if c == JOKER else c) + f" on {r}" for r, c in self.pending
            )
            team = next((f" (team {lab})" for lab, m in state.teams if state.current in m), "")
            line = f"{state.current}{team}: groups {groups} · jokers {hand.jokers}"
            # the group being built gets a line of its own, so a three-beam group still fits
            self.hand_line.text = line + (f"\ngroup: {building}" if building else "")
        groups = () if over else state.hand(state.current).groups
        first = state.turn == 0
        self.place_button.disabled = over
        self.clear_button.disabled = over or not self.pending
        self.disc_button.disabled = over or first or state.discs >= DISCS_IN_BOX
        self.split3.disabled = over or first or 3 not in groups
        self.split2.disabled = over or first or 2 not in groups
        self.pass_button.disabled = (
            over or first or bool(state.discs < DISCS_IN_BOX or any(g > 1 for g in groups))
        )


GameScreen = EliosScreen
