"""The Kritters screen: set-up, turns and piles, score entry with live totals (score_entry.py),
final ranking.
"""

from __future__ import annotations

from kivy.metrics import dp
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.gridlayout import GridLayout
from kivy.uix.scrollview import ScrollView

from companion.cues import GameOver
from companion.games.kritters.events import (
    AgreeToEnd,
    Bought,
    CardRemoved,
    FirstPlayer,
    PileEmpty,
    TurnDone,
)
from companion.games.kritters.history import solo_games
from companion.games.kritters.score_entry import ROW, ScoreEntry
from companion.games.kritters.state import ranking
from companion.ui import colours
from companion.ui import game_screen as base
from companion.ui.widgets import BigButton, caption, plain

CARD_NAMES = {
    "kritter": "Kritter",
    "paintbrush": "Paintbrush",
    "palette": "Palette",
    "magic_wand": "Magic wand",
    "paint_bucket": "Paint bucket",
}
PILE_NAMES = {
    "paintbrush": "paintbrushes",
    "palette": "palettes",
    "paint_bucket": "paint buckets",
    "magic_wand": "magic wands",
}


class KrittersScreen(ScoreEntry, base.GameScreen):
    def build(self) -> None:
        self._view = None  # (phase, ...) the body shows; rebuilt only when it changes
        self._drafts: dict[str, dict] = {}
        self._selected = 0
        self._advance = True
        self._over_pick = None

    def refresh(self) -> None:
        super().refresh()
        state = self.state
        view = (
            state.phase,
            state.turn,
            state.bought,
            state.piles,
            state.end_reason,
            len(state.results),
        )
        if view == self._view:
            return
        self._view = view
        self.body.clear_widgets()
        # the final ranking lists every score itself: the explanation gets that room
        self.wide(state.phase in ("setup", "scoring", "over"))
        {
            "setup": self._show_setup,
            "play": self._show_play,
            "scoring": self._show_scoring,
            "over": self._show_over,
        }[state.phase]()

    # set-up ---------------------------------------------------------------------------
    def _show_setup(self) -> None:
        s = self.session.game.setup(self.state)
        row = BoxLayout(spacing=dp(10))
        copies = " (two copies of the game)" if s.copies > 1 else ""
        who = "solo" if s.players == 1 else f"{s.players} players"
        text = f"[b]Set-up, {who}{copies}[/b]\n" + "\n".join(
            f"{i}. {t}" for i, t in enumerate(s.steps, 1)
        )
        steps = caption(text, size=18, valign="top", shrink=True, markup=True)
        row.add_widget(steps)
        right = BoxLayout(orientation="vertical", spacing=dp(4), size_hint_x=0.42)
        right.add_widget(
            caption(
                "Who takes the First Player card?",
                size=17,
                bold=True,
                size_hint_y=None,
                height=dp(40),
            )
        )
        grid = GridLayout(
            cols=1 if len(self.state.players) <= 4 else 2 if len(self.state.players) <= 8 else 3,
            spacing=dp(4),
        )
        for p in self.state.players:
            b = BigButton(text=p, size_hint_y=None, height=ROW)
            b.bind(on_release=lambda _b, p=p: self.submit(FirstPlayer(p)))
            grid.add_widget(b)
        right.add_widget(grid)
        row.add_widget(right)
        self.body.add_widget(row)

    # play -------------------------------------------------------------------------------
    def _show_play(self) -> None:
        state, game = self.state, self.session.game
        player = game.current_player(state)
        head = f"[b]{plain(player)}[/b]'s turn  -  round {state.round}"
        if state.end_reason:
            final = plain(state.players[(state.first + state.last_turn) % len(state.players)])
            head += f"\n[color=ffb347]Last round ({state.end_reason}); ends after {final}[/color]"
        self.body.add_widget(caption(head, size=20, markup=True, size_hint_y=None, height=dp(60)))
        piles = [
            f"{PILE_NAMES[p]} {state.pile(p)}"
            for p in ("paintbrush", "palette", "paint_bucket", "magic_wand")
            if state.pile(p) or p in ("paintbrush", "palette")
        ]
        deck = "kritter deck empty" if not state.pile("kritter_deck") else "kritter deck in play"
        bought = (
            f"   Bought: {', '.join(CARD_NAMES[b] for b in state.bought)}" if state.bought else ""
        )
        self.body.add_widget(
            caption(
                f"Left: {', '.join(piles)}; {deck}.{bought}",
                size=15,
                colour=colours.MUTED,
                size_hint_y=None,
                height=dp(40),
            )
        )
        grid = GridLayout(cols=3, spacing=dp(4))
        legal = set(game.legal_actions(state))
        for card in CARD_NAMES:
            if Bought(card) in legal:
                b = BigButton(text=f"Bought {CARD_NAMES[card].lower()}")
                b.bind(on_release=lambda _b, c=card: self.submit(Bought(c)))
                grid.add_widget(b)
        if PileEmpty("kritter_deck") in legal:
            b = BigButton(text="Kritter deck empty")
            b.bind(on_release=lambda *_: self.submit(PileEmpty("kritter_deck")))
            grid.add_widget(b)
        if len(state.players) == 1:
            for pile in ("paintbrush", "palette"):
                if state.pile(pile):
                    b = BigButton(text=f"Solo: {pile} removed")
                    b.bind(on_release=lambda _b, p=pile: self.submit(CardRemoved(p)))
                    grid.add_widget(b)
        if AgreeToEnd() in legal:
            b = BigButton(text="We agree to finish")
            b.bind(on_release=lambda *_: self.submit(AgreeToEnd()))
            grid.add_widget(b)
        self.body.add_widget(grid)
        nxt = BigButton(
            text="Turn done: next player",
            size_hint_y=None,
            height=dp(64),
            tint=colours.OK,
            font_size="24sp",
        )
        nxt.bind(on_release=lambda *_: self.submit(TurnDone()))
        self.body.add_widget(nxt)

    # final ranking ------------------------------------------------------------------------
    def _show_over(self) -> None:
        state = self.state
        places = ranking(state)
        row = BoxLayout(spacing=dp(12))
        left = BoxLayout(orientation="vertical", spacing=dp(4), size_hint_x=None, width=dp(280))
        head = "Final ranking" if len(state.players) > 1 else "Solo score"
        left.add_widget(caption(head, size=22, bold=True, size_hint_y=None, height=dp(40)))
        pick = self._over_pick or places[0][1]
        rows = GridLayout(cols=1, spacing=dp(4), size_hint_y=None)
        rows.bind(minimum_height=rows.setter("height"))
        for place, player, total in places:
            crown = " (win)" if place == 1 and len(places) > 1 else ""
            b = BigButton(
                text=f"{place}.  {player}{crown}   {total}",
                size_hint_y=None,
                height=ROW,
                halign="left",
                tint=colours.ACCENT if player == pick else colours.BUTTON,
            )
            b.bind(on_release=lambda _b, p=player: self._pick_over(p))
            rows.add_widget(b)
        ranking_list = ScrollView(do_scroll_x=False)  # twelve players do not fit: drag it
        ranking_list.add_widget(rows)
        left.add_widget(ranking_list)
        if len(state.players) == 1:
            best = self._earlier_solo_best(state.players[0])
            total = places[0][2]
            note = (
                "First solo game: this is the score to beat."
                if best is None
                else f"New best! Previous best {best}."
                if total > best
                else f"Best so far: {best}."
            )
            left.add_widget(caption(note, size=18, size_hint_y=None, height=dp(40)))
        row.add_widget(left)
        why = state.result(pick)
        right = BoxLayout(orientation="vertical")
        right.add_widget(
            caption(
                f"Why {pick} scored {why.total}:",
                size=20,
                bold=True,
                size_hint_y=None,
                height=dp(40),
            )
        )
        text = caption("\n".join(why.explanation), size=17, valign="top", shrink=True)
        text.line_height = 1.15
        right.add_widget(text)
        row.add_widget(right)
        self.body.add_widget(row)

    def _earlier_solo_best(self, player: str) -> int | None:
        """The best of this player's other finished solo games in the log."""
        earlier = [
            g.score for g in solo_games(self.ctx.log, player) if g.game_id != self.session.game_id
        ]
        if self.state.options.solo_best is not None:
            earlier.append(self.state.options.solo_best)
        return max(earlier) if earlier else None

    def _show_cue(self, c) -> None:
        # Solo: "Anna wins!" says nothing; the score against earlier games does.
        if isinstance(c, GameOver) and len(self.state.players) == 1 and self.state.results:
            total = self.state.results[0].total
            best = self._earlier_solo_best(self.state.players[0])
            beaten = best is not None and total > best
            self.show_banner(f"Solo score {total}" + (" - a new best!" if beaten else ""))
            return
        super()._show_cue(c)

    def _pick_over(self, player: str) -> None:
        self._over_pick = player
        self._view = None
        self.refresh()


GameScreen = KrittersScreen
