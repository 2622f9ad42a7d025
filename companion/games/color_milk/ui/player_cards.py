"""One card per player: name, prediction chips, its odds or result, coins and pencils, and any
bonus tokens; the row of them all, the chooser and the selected player outlined."""

from __future__ import annotations

from dataclasses import dataclass

from kivy.graphics import Color, Line, RoundedRectangle
from kivy.metrics import dp
from kivy.uix.boxlayout import BoxLayout

from companion.games.color_milk.mill import BALLS_PER_ROUND
from companion.games.color_milk.odds import fulfil_probability
from companion.games.color_milk.state import READING_PHASES, SECRET_PHASES, MilkState
from companion.players import PLAYER_MARKERS
from companion.ui import colours
from companion.ui.kept import Kept
from companion.ui.widgets import MIN_BUTTON, BigButton, ColourChip

from .label import label


def percent(p) -> str:
    v = float(p) * 100
    if v >= 99.5 and p < 1:
        return ">99%"
    if 0 < v < 0.5:
        return "<1%"
    return f"{v:.0f}%"


@dataclass(frozen=True)
class CardView:
    """What one player's card shows: a card is drawn anew only when this changes."""

    name: str
    seat: int
    outlined: bool  # the selected player or the chooser
    chooser: bool
    chips: tuple[tuple[str, str], ...] | None  # (colour, text) per card; None: the end counts
    said: str = ""  # the odds or the result
    tone: tuple = colours.TEXT
    totals: str = ""
    tokens: str = ""


def card_views(screen, s: MilkState) -> list[CardView]:
    draws = BALLS_PER_ROUND - len(s.known)
    chooser = s.chooser_name
    views = []
    for seat, p in enumerate(s.players):
        outlined = p.name in (screen.selected, chooser)
        totals = totals_text(p, len(s.players))
        if s.phase == "tally":  # the end counts' pad needs the room; predictions are done
            views.append(CardView(p.name, seat, outlined, p.name == chooser, None, totals=totals))
            continue
        editing = p.name == screen.selected and s.phase in READING_PHASES and screen.draft
        face_down = s.phase in SECRET_PHASES and not editing
        pred = screen.draft if editing else p.prediction  # what is being entered
        # a card face down: its back, as the table sees it
        chips = tuple(("grey", "?") if face_down else (col, "") for col in pred)
        said = verdict(screen, s, p, draws, pred if editing else None)
        tone = {True: colours.OK, False: colours.DANGER}.get(p.fulfilled, colours.TEXT)
        views.append(
            CardView(
                p.name,
                seat,
                outlined,
                p.name == chooser,
                chips,
                said,
                tuple(tone),
                totals,
                tokens_text(p),
            )
        )
    return views


class PlayerCard(BoxLayout):
    """One player: name, prediction chips, odds or result, coins and pencils."""

    def __init__(self, screen, view: CardView, **kw):
        super().__init__(orientation="vertical", spacing=dp(2), padding=dp(3), **kw)
        self.name, self.seat = view.name, view.seat
        self.marker = PLAYER_MARKERS[view.seat % len(PLAYER_MARKERS)][0]
        self.highlight = view.outlined
        self.bind(pos=self._draw, size=self._draw)
        name = BigButton(text=view.name, size_hint_y=None, height=MIN_BUTTON, font_size="18sp")
        name.tint = colours.rgba(self.marker, 0.95 if view.chooser else 0.55)
        name.bind(on_release=lambda _b, n=view.name: screen.select(n))
        self.add_widget(name)
        if view.chips is not None:
            chips = BoxLayout(size_hint_y=None, height=dp(34), spacing=dp(3))
            for colour, text in view.chips:
                chip = ColourChip(colour=colour, text=text)
                chip.size = (dp(34), dp(34))
                chips.add_widget(chip)
            if not view.chips:
                chips.add_widget(label("no prediction", 13, colour=colours.MUTED))
            self.add_widget(chips)
            said = label(view.said, 21, True, colour=view.tone, size_hint_y=None, height=dp(30))
            self.add_widget(said)
        self.add_widget(label(view.totals, 15))
        if view.tokens:
            small = label(view.tokens, 12, colour=colours.MUTED, size_hint_y=None, height=dp(16))
            self.add_widget(small)

    def _draw(self, *_):
        self.canvas.before.clear()
        with self.canvas.before:
            Color(*colours.PANEL)
            RoundedRectangle(pos=self.pos, size=self.size, radius=[dp(8)])
            if self.highlight:
                Color(*colours.rgba(self.marker))
                Line(
                    rounded_rectangle=(self.x, self.y, self.width, self.height, dp(8)),
                    width=dp(2.5),
                )


class PlayerCards(BoxLayout):
    """Every player's card side by side; `show` draws anew only the cards that changed."""

    def __init__(self, screen, **kw):
        super().__init__(spacing=dp(4), **kw)
        self.screen = screen
        self._cards = Kept(self)

    def show(self, s: MilkState) -> None:
        views = card_views(self.screen, s)
        self._cards.show((view, lambda v=view: PlayerCard(self.screen, v)) for view in views)


def totals_text(p, players: int) -> str:
    pen = p.unused_pencils
    coins = f"{p.coins} coin{'s' if p.coins != 1 else ''}"
    pencils = f"{pen} pencil{'s' if pen != 1 else ''}"
    sep = "\n" if players > 3 else "  "
    return f"{coins}{sep}{pencils}"


def verdict(screen, s: MilkState, p, draws: int, draft=None) -> str:
    """RIGHT or missed once checked; before, the odds of the prediction being tapped in
    (`draft`), "down" for cards still face down, "?" for cards revealed, "-" for none."""
    if draft:
        zone = {"double": " D", "triple": " T"}.get(screen.zone, "")
        if not screen.show_odds:
            return "?" + zone
        return percent(fulfil_probability(s.inside, draft, draws=draws, seen=s.known)) + zone
    zone = {"double": " D", "triple": " T"}.get(p.zone, "")
    if p.fulfilled is True:
        return "RIGHT" + zone
    if p.fulfilled is False:
        return "missed" + zone
    if not p.prediction:
        return "-"
    if s.phase in SECRET_PHASES:
        return "down"  # nor the zone: the cards are face down
    return "?" + zone


def tokens_text(p) -> str:
    names = {"ship": "ship", "key": "key", "any1": "any-1", "any2": "any-2"}
    parts = [f"{names[k]} x{n}" for k, n in p.tokens if k in names and n]
    return " ".join(parts)
