"""The Kritters screen: set-up, turns and piles, score entry with live totals, final ranking.

Score entry keeps a draft per player on the screen; every tap re-runs the scorer (about a
millisecond) so the total and its explanation follow the fingers. Saving submits one
ScoreEntered event; the rules recompute the score from the same counts.
"""

from __future__ import annotations

from kivy.metrics import dp, sp
from kivy.properties import NumericProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.gridlayout import GridLayout
from kivy.uix.label import Label

from companion.cues import GameOver
from companion.games.kritters.history import solo_games
from companion.games.kritters.rules import (
    AgreeToEnd,
    Bought,
    CardRemoved,
    FirstPlayer,
    PileEmpty,
    ScoreEntered,
    TurnDone,
    ranking,
)
from companion.games.kritters.score_input import LIMITS
from companion.games.kritters.scoring import (
    PRIMARIES,
    SECONDARIES,
    Collection,
    PointKritter,
    best_score,
)
from companion.ui import colours
from companion.ui import game_screen as base
from companion.ui.widgets import BigButton, ColourChip

ROW = dp(50)
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
ITEM_COLOUR = {
    "paintbrushes": "white",
    "palettes": "brown",
    "paint_buckets": "orange",
    "wild": "wild",
}
ITEM_LETTER = {"paintbrushes": "Br", "palettes": "Pa", "paint_buckets": "Bu", "wild": "*"}


def _label(text, size=18, bold=False, colour=colours.TEXT, halign="left", valign="middle", **kw):
    lab = Label(
        text=text,
        font_size=f"{size}sp",
        bold=bold,
        color=colour,
        halign=halign,
        valign=valign,
        markup=True,
        **kw,
    )
    lab.bind(size=lambda w, s: setattr(w, "text_size", s))
    return lab


def _shrink_to_fit(label, *_):
    """Smaller text until a long explanation fits its box (never below 10 sp)."""
    if label.height > 1 and label.texture_size[1] > label.height and label.font_size > sp(10):
        label.font_size -= sp(1)


class Stepper(BoxLayout):
    """A caption over [-] count [+]; the count sits on a chip of the card's colour."""

    value = NumericProperty(0)

    def __init__(self, key, caption, colour, letter, maximum, on_change, **kw):
        super().__init__(orientation="vertical", size_hint_y=None, height=ROW + dp(20), **kw)
        self.key, self.maximum, self.on_change = key, maximum, on_change
        self.add_widget(
            _label(
                f"{caption} ({letter})",
                size=14,
                colour=colours.MUTED,
                halign="center",
                size_hint_y=None,
                height=dp(20),
            )
        )
        row = BoxLayout(spacing=dp(4))
        self.minus = BigButton(text="-", size_hint_x=None, width=dp(48), font_size="26sp")
        self.minus.bind(on_release=lambda *_: self.step(-1))
        self.plus = BigButton(text="+", size_hint_x=None, width=dp(48), font_size="26sp")
        self.plus.bind(on_release=lambda *_: self.step(+1))
        self.chip = ColourChip(colour=colour, size=(dp(46), dp(46)), pos_hint={"center_y": 0.5})
        chip_box = BoxLayout()  # centres the chip between the buttons
        chip_box.add_widget(BoxLayout())
        chip_box.add_widget(self.chip)
        chip_box.add_widget(BoxLayout())
        row.add_widget(self.minus)
        row.add_widget(chip_box)
        row.add_widget(self.plus)
        self.add_widget(row)
        self.bind(value=self._show)
        self._show()

    def _show(self, *_):
        self.chip.text = str(self.value)
        self.minus.disabled = self.value <= 0
        self.plus.disabled = self.value >= self.maximum

    def step(self, delta: int) -> None:
        new = max(0, min(self.maximum, self.value + delta))
        if new != self.value:
            self.value = new
            self.on_change(self.key, new)


class PointRow(BoxLayout):
    """One secondary colour: tap a value to add a point kritter, '-' removes the last one."""

    def __init__(self, colour, values, on_change, **kw):
        super().__init__(
            orientation="horizontal", spacing=dp(4), size_hint_y=None, height=ROW, **kw
        )
        self.colour, self.on_change = colour, on_change
        self.add_widget(ColourChip(colour=colour, pos_hint={"center_y": 0.5}))
        for v in values:
            b = BigButton(
                text=f"+{v}", size_hint_x=None, width=dp(54), tint=colours.rgba(colour, 0.55)
            )
            b.bind(on_release=lambda _b, v=v: self.on_change(self.colour, v))
            self.add_widget(b)
        self.shown = _label("", size=16)
        self.add_widget(self.shown)
        self.minus = BigButton(text="-", size_hint_x=None, width=dp(48), font_size="26sp")
        self.minus.bind(on_release=lambda *_: self.on_change(self.colour, None))
        self.add_widget(self.minus)

    def show(self, points: list[int]) -> None:
        if points:
            self.shown.text = f"{self.colour}: {' + '.join(map(str, points))} = {sum(points)}"
        else:
            self.shown.text = f"{self.colour}: none"
        self.minus.disabled = not points


class KrittersScreen(base.GameScreen):
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
        self._wide(state.phase in ("setup", "scoring", "over"))
        {
            "setup": self._show_setup,
            "play": self._show_play,
            "scoring": self._show_scoring,
            "over": self._show_over,
        }[state.phase]()

    def _wide(self, wide: bool) -> None:
        """Score entry and set-up use the scoreboard's column too."""
        column = self.ids.scoreboard.parent
        column.size_hint_x = 0.001 if wide else 0.3
        column.opacity = 0 if wide else 1
        column.disabled = wide

    # set-up ---------------------------------------------------------------------------
    def _show_setup(self) -> None:
        s = self.session.game.setup(self.state)
        row = BoxLayout(spacing=dp(10))
        copies = " (two copies of the game)" if s.copies > 1 else ""
        who = "solo" if s.players == 1 else f"{s.players} players"
        text = f"[b]Set-up, {who}{copies}[/b]\n" + "\n".join(
            f"{i}. {t}" for i, t in enumerate(s.steps, 1)
        )
        steps = _label(text, size=18, valign="top")
        steps.bind(texture_size=_shrink_to_fit, size=_shrink_to_fit)
        row.add_widget(steps)
        right = BoxLayout(orientation="vertical", spacing=dp(4), size_hint_x=0.42)
        right.add_widget(
            _label(
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
        head = f"[b]{player}[/b]'s turn  -  round {state.round}"
        if state.end_reason:
            final = state.players[(state.first + state.last_turn) % len(state.players)]
            head += f"\n[color=ffb347]Last round ({state.end_reason}); ends after {final}[/color]"
        self.body.add_widget(_label(head, size=20, size_hint_y=None, height=dp(60)))
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
            _label(
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

    # score entry --------------------------------------------------------------------------
    def _draft(self, player: str) -> dict:
        if player not in self._drafts:
            done = self.state.result(player)
            if done:
                c = done.cards
                self._drafts[player] = {
                    **{k: c.count(k) for k in PRIMARIES},
                    "wild": c.wild,
                    "paintbrushes": c.paintbrushes,
                    "palettes": c.palettes,
                    "paint_buckets": c.paint_buckets,
                    "point_kritters": [(p.colour, p.points) for p in c.point_kritters],
                }
            else:
                self._drafts[player] = {**{k: 0 for k in LIMITS}, "point_kritters": []}
        return self._drafts[player]

    @property
    def _player(self) -> str:
        return self.state.players[self._selected % len(self.state.players)]

    def _show_scoring(self) -> None:
        if self._advance:  # after a save, move on to the first player still to enter
            waiting = [i for i, p in enumerate(self.state.players) if not self.state.result(p)]
            self._selected = waiting[0] if waiting else self._selected
            self._advance = False
        self._render_scoring()

    def _render_scoring(self) -> None:
        opts = self.state.options
        draft = self._draft(self._player)
        row = BoxLayout(spacing=dp(8))
        left = BoxLayout(orientation="vertical", spacing=dp(3))
        keys = [(c, c, c, colours.label(c)) for c in PRIMARIES] + [("wild", "wild", "wild", "*")]
        if not opts.junior:
            keys += [
                (k, k.replace("_", " "), ITEM_COLOUR[k], ITEM_LETTER[k])
                for k in ("paintbrushes", "palettes")
            ]
        self._steppers = {}
        grid = GridLayout(cols=3, spacing=dp(3), size_hint_y=None)
        grid.bind(minimum_height=grid.setter("height"))
        for key, caption, colour, letter in keys:
            st = Stepper(key, caption, colour, letter, LIMITS[key], self._changed)
            st.value = draft[key]
            self._steppers[key] = st
            grid.add_widget(st)
        left.add_widget(grid)
        values = (2, 3, 4, 5, 6) if opts.more_points else (3, 4, 5)
        self._point_rows = {}
        for c in SECONDARIES:
            pr = PointRow(c, values, self._point_changed)
            self._point_rows[c] = pr
            left.add_widget(pr)
        left.add_widget(BoxLayout())  # keep rows at the top
        row.add_widget(left)

        right = BoxLayout(orientation="vertical", spacing=dp(4), size_hint_x=None, width=dp(250))
        pick = BoxLayout(size_hint_y=None, height=ROW, spacing=dp(4))
        prev = BigButton(text="<", size_hint_x=None, width=dp(48))
        prev.bind(on_release=lambda *_: self._pick(-1))
        nxt = BigButton(text=">", size_hint_x=None, width=dp(48))
        nxt.bind(on_release=lambda *_: self._pick(+1))
        entered = sum(1 for p in self.state.players if self.state.result(p))
        self._who = _label("", size=18, bold=True, halign="center")
        pick.add_widget(prev)
        pick.add_widget(self._who)
        pick.add_widget(nxt)
        right.add_widget(pick)
        right.add_widget(
            _label(
                f"{entered} of {len(self.state.players)} entered",
                size=14,
                colour=colours.MUTED,
                halign="center",
                size_hint_y=None,
                height=dp(22),
            )
        )
        self._total = _label(
            "", size=30, bold=True, halign="center", size_hint_y=None, height=dp(44)
        )
        right.add_widget(self._total)
        self._why = _label("", size=14, colour=colours.MUTED, valign="top")
        self._why.bind(texture_size=_shrink_to_fit, size=_shrink_to_fit)
        right.add_widget(self._why)
        if opts.more_points:  # beside the explanation: the left column is full
            st = Stepper(
                "paint_buckets",
                "paint buckets",
                "orange",
                "Bu",
                LIMITS["paint_buckets"],
                self._changed,
            )
            st.value = draft["paint_buckets"]
            self._steppers["paint_buckets"] = st
            right.add_widget(st)
        self._save = BigButton(text="", size_hint_y=None, height=dp(58), tint=colours.OK)
        self._save.bind(on_release=lambda *_: self._save_score())
        right.add_widget(self._save)
        row.add_widget(right)
        self.body.add_widget(row)
        self._update_entry()

    def _changed(self, key: str, value: int) -> None:
        self._draft(self._player)[key] = value
        self._update_entry()

    def _point_changed(self, colour: str, value: int | None) -> None:
        points = self._draft(self._player)["point_kritters"]
        if value is None:
            for i in range(len(points) - 1, -1, -1):
                if points[i][0] == colour:
                    del points[i]
                    break
        elif len(points) < 30:
            points.append((colour, value))
        self._update_entry()

    def _collection(self, draft: dict) -> Collection:
        counts = {k: v for k, v in draft.items() if k != "point_kritters"}
        pks = tuple(PointKritter(c, p) for c, p in draft["point_kritters"])
        return Collection(**counts, point_kritters=pks)

    def preview(self):
        """The score the current draft is worth, as the rules will compute it."""
        return best_score(
            self._collection(self._draft(self._player)), self.session.game.scoring_rules(self.state)
        )

    def _update_entry(self) -> None:
        player, draft = self._player, self._draft(self._player)
        for key, st in self._steppers.items():
            st.value = draft[key]
        for c, pr in self._point_rows.items():
            pr.show([p for col, p in draft["point_kritters"] if col == c])
        score = self.preview()
        done = self.state.result(player)
        self._who.text = player + (" (saved)" if done else "")
        self._total.text = f"{score.total} points"
        self._why.font_size = sp(14)
        self._why.text = "\n".join(score.explanation[:-1]) or "Tap the cards this player has."
        self._save.text = f"Save {player}: {score.total}"

    def _pick(self, delta: int) -> None:
        self._selected = (self._selected + delta) % len(self.state.players)
        self.body.clear_widgets()
        self._render_scoring()

    def _save_score(self) -> None:
        player, draft = self._player, self._draft(self._player)
        event = ScoreEntered(
            player,
            **{k: v for k, v in draft.items() if k != "point_kritters"},
            point_kritters=tuple(draft["point_kritters"]),
        )
        self._advance = True
        if self.submit(event):
            self._drafts.pop(player, None)
        else:
            self._advance = False

    # final ranking ------------------------------------------------------------------------
    def _show_over(self) -> None:
        state = self.state
        places = ranking(state)
        row = BoxLayout(spacing=dp(12))
        left = BoxLayout(orientation="vertical", spacing=dp(4), size_hint_x=None, width=dp(280))
        head = "Final ranking" if len(state.players) > 1 else "Solo score"
        left.add_widget(_label(head, size=22, bold=True, size_hint_y=None, height=dp(40)))
        pick = self._over_pick or places[0][1]
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
            left.add_widget(b)
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
            left.add_widget(_label(note, size=18, size_hint_y=None, height=dp(40)))
        left.add_widget(BoxLayout())
        row.add_widget(left)
        why = state.result(pick)
        right = BoxLayout(orientation="vertical")
        right.add_widget(
            _label(
                f"Why {pick} scored {why.total}:",
                size=20,
                bold=True,
                size_hint_y=None,
                height=dp(40),
            )
        )
        text = _label("\n".join(why.explanation), size=17)
        text.valign = "top"
        text.line_height = 1.15
        text.bind(texture_size=_shrink_to_fit, size=_shrink_to_fit)
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
