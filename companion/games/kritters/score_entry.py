"""Score entry for Colour MY Kritters: a draft per player kept on the screen, steppers for
counts, a row of values per point-kritter colour, and a live total with its explanation.

Every tap re-runs the scorer (about a millisecond) so the total follows the fingers. Saving
submits one ScoreEntered event; the rules recompute the score from the same counts.
"""

from __future__ import annotations

from kivy.metrics import dp, sp
from kivy.properties import NumericProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.gridlayout import GridLayout

from companion.games.kritters.events import ScoreEntered
from companion.games.kritters.score_input import LIMITS
from companion.games.kritters.scoring import (
    PRIMARIES,
    SECONDARIES,
    Collection,
    PointKritter,
    best_score,
)
from companion.ui import colours
from companion.ui.widgets import MIN_BUTTON, BigButton, ColourChip, caption
from companion.words import plural

ROW = dp(50)
ITEM_COLOUR = {
    "paintbrushes": "white",
    "palettes": "brown",
    "paint_buckets": "orange",
    "wild": "wild",
}
ITEM_LETTER = {"paintbrushes": "Br", "palettes": "Pa", "paint_buckets": "Bu", "wild": "*"}


class Stepper(BoxLayout):
    """A caption over [-] count [+]; the count sits on a chip of the card's colour."""

    value = NumericProperty(0)

    def __init__(self, key, title, colour, letter, maximum, on_change, **kw):
        super().__init__(orientation="vertical", size_hint_y=None, height=ROW + dp(20), **kw)
        self.key, self.maximum, self.on_change = key, maximum, on_change
        self.add_widget(
            caption(
                f"{title} ({letter})",
                size=14,
                colour=colours.MUTED,
                halign="center",
                size_hint_y=None,
                height=dp(20),
            )
        )
        row = BoxLayout(spacing=dp(4))
        self.minus = BigButton(text="-", size_hint_x=None, width=MIN_BUTTON, font_size="26sp")
        self.minus.bind(on_release=lambda *_: self.step(-1))
        self.plus = BigButton(text="+", size_hint_x=None, width=MIN_BUTTON, font_size="26sp")
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
        self.shown = caption("", size=16)
        self.add_widget(self.shown)
        self.minus = BigButton(text="-", size_hint_x=None, width=MIN_BUTTON, font_size="26sp")
        self.minus.bind(on_release=lambda *_: self.on_change(self.colour, None))
        self.add_widget(self.minus)

    def show(self, points: list[int]) -> None:
        if points:
            self.shown.text = f"{self.colour}: {' + '.join(map(str, points))} = {sum(points)}"
        else:
            self.shown.text = f"{self.colour}: none"
        self.minus.disabled = not points


class ScoreEntry:
    """The scoring phase of the Kritters screen (a part of `KrittersScreen`)."""

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
        for key, title, colour, letter in keys:
            st = Stepper(key, title, colour, letter, LIMITS[key], self._changed)
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
        prev = BigButton(text="<", size_hint_x=None, width=MIN_BUTTON)
        prev.bind(on_release=lambda *_: self._pick(-1))
        nxt = BigButton(text=">", size_hint_x=None, width=MIN_BUTTON)
        nxt.bind(on_release=lambda *_: self._pick(+1))
        entered = sum(1 for p in self.state.players if self.state.result(p))
        self._who = caption("", size=18, bold=True, halign="center")
        pick.add_widget(prev)
        pick.add_widget(self._who)
        pick.add_widget(nxt)
        right.add_widget(pick)
        right.add_widget(
            caption(
                f"{entered} of {len(self.state.players)} entered",
                size=14,
                colour=colours.MUTED,
                halign="center",
                size_hint_y=None,
                height=dp(22),
            )
        )
        self._total = caption(
            "", size=30, bold=True, halign="center", size_hint_y=None, height=dp(44)
        )
        right.add_widget(self._total)
        self._why = caption("", size=14, colour=colours.MUTED, valign="top", shrink=True)
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
        self._total.text = plural(score.total, "point")
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
