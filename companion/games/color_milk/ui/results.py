"""The final results: the winners, every player's coins, unused pencils and end bonuses, the
pencil tie-break when it decided, and how many predictions each got right."""

from __future__ import annotations

from kivy.metrics import dp
from kivy.uix.boxlayout import BoxLayout

from companion.games.color_milk.state import MilkState
from companion.players import PLAYER_MARKERS
from companion.ui import colours
from companion.ui.widgets import ColourChip

from .label import label


class Results(BoxLayout):
    """Fills the screen's body: laid out as the body lays its own rows (spacing dp(6))."""

    def __init__(self, game, s: MilkState, **kw):
        super().__init__(orientation="vertical", spacing=dp(6), **kw)
        winners = game.winners(s)
        title = " and ".join(winners) + (" win!" if len(winners) > 1 else " wins!")
        self.add_widget(label(title, 30, True, size_hint_y=None, height=dp(56)))
        if s.solo:
            self.add_widget(
                label(
                    f"{s.round} turns: {game.solo_rating(s)}", 20, size_hint_y=None, height=dp(40)
                )
            )
        for p in game.ranked(s):
            row = BoxLayout(size_hint_y=None, height=dp(44), spacing=dp(8))
            seat = s.names.index(p.name)
            row.add_widget(
                ColourChip(
                    colour=PLAYER_MARKERS[seat % len(PLAYER_MARKERS)][0], selected=p.name in winners
                )
            )
            row.add_widget(label(p.name, 22, p.name in winners, halign="left"))
            row.add_widget(label(f"{p.coins} coin{'s' if p.coins != 1 else ''}", 22, True))
            pen = p.unused_pencils
            row.add_widget(label(f"{pen} unused pencil{'s' if pen != 1 else ''}", 17))
            bonus = ", ".join(f"+{n} {why}" for why, n in p.end_bonus) or ""
            row.add_widget(label(bonus, 15, colour=colours.MUTED))
            self.add_widget(row)
        top = max(p.coins for p in s.players)
        if sum(p.coins == top for p in s.players) > len(winners):
            self.add_widget(
                label(
                    "Tied on coins: unused bonus pencils decide.",
                    17,
                    size_hint_y=None,
                    height=dp(30),
                )
            )
        right = {p.name: sum(p.name in r.right for r in s.history) for p in s.players}
        self.add_widget(
            label(
                f"{s.round} rounds. Predictions right: "
                + ", ".join(f"{n} {k}" for n, k in right.items()),
                15,
                colour=colours.MUTED,
                size_hint_y=None,
                height=dp(30),
            )
        )
        self.add_widget(BoxLayout())
