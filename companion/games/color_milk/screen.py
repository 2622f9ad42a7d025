"""The Color Milk round view: the five balls as they arrive, every prediction with its odds,
who was right, who chooses from which three balls, coins and pencils, the mill's cycle, and
the final results. Readable from a metre away at 800x480; every colour carries its letter.

One colour pad along the bottom serves whatever the phase needs: entering a ball, a
prediction, a choice, or the tallies of the selected player.
"""

from __future__ import annotations

from functools import partial

from kivy.graphics import Color, Line, RoundedRectangle
from kivy.metrics import dp
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.label import Label

from companion.events import BallSeen, ButtonPressed
from companion.games.color_milk import boards
from companion.games.color_milk.events import Choose, Count, Predict, Tally
from companion.games.color_milk.mill import BALLS_PER_ROUND, COLOURS, ROUNDS_PER_CYCLE
from companion.games.color_milk.odds import fulfil_probability
from companion.games.color_milk.rules import READING_PHASES, MilkState
from companion.players import PLAYER_MARKERS
from companion.ui import colours
from companion.ui.game_screen import GameScreen as BaseGameScreen
from companion.ui.widgets import MIN_BUTTON, BigButton, ColourButton, ColourChip, caption

ZONES = ("", "double", "triple")


_label = partial(caption, halign="center")


def percent(p) -> str:
    v = float(p) * 100
    if v >= 99.5 and p < 1:
        return ">99%"
    if 0 < v < 0.5:
        return "<1%"
    return f"{v:.0f}%"


class PlayerCard(BoxLayout):
    """One player: name, prediction chips, odds or result, coins and pencils."""

    def __init__(self, screen, name: str, seat: int, **kw):
        super().__init__(orientation="vertical", spacing=dp(2), padding=dp(3), **kw)
        self.screen, self.name, self.seat = screen, name, seat
        self.marker = PLAYER_MARKERS[seat % len(PLAYER_MARKERS)][0]
        self.highlight = False
        self.bind(pos=self._draw, size=self._draw)

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


class GameScreen(BaseGameScreen):
    """Color Milk's screen inside the shared frame (header, undo/redo, scoreboard, banner)."""

    def build(self) -> None:
        self.selected: str | None = None  # the player the pad works for
        self.target_slot: int | None = None  # the ball the pad enters
        self.draft: tuple[str, ...] = ()
        self.zone = ""
        self.any_ball = ""  # board 5 bonus being used: "", "any1", "any2"
        self.picked: tuple[int, ...] = ()
        self._round = 0

    @property
    def show_odds(self) -> bool:
        settings = getattr(self.ctx, "settings", None)
        return bool(getattr(settings, "show_odds", True))

    # drawing ------------------------------------------------------------------------
    def refresh(self) -> None:
        self._refresh_frame()
        s: MilkState = self.state
        if s.round != self._round:  # a new round, perhaps started from the table's button
            self._round = s.round
            self.selected, self.target_slot, self.draft, self.zone = None, None, (), ""
            self.any_ball, self.picked = "", ()
        if self.target_slot is None and s.asks and s.phase in READING_PHASES:
            self.target_slot = s.asks[0].slot  # the pad offers the question's answers
        if self.selected not in s.names:
            self.selected = s.names[s.leader]
            self.draft, self.zone = s.player(self.selected).prediction, s.player(self.selected).zone
        body = self.body
        body.clear_widgets()
        if s.phase == "over":
            self._results(body, s)
            return
        body.add_widget(self._info_line(s))
        body.add_widget(self._ball_row(s))
        body.add_widget(self._player_cards(s))
        self.pad = self._pad(s)
        body.add_widget(self.pad)

    def _info_line(self, s: MilkState) -> BoxLayout:
        row = BoxLayout(size_hint_y=None, height=dp(30), spacing=dp(8))
        leader = s.names[s.leader]
        goal = boards.coin_goal(s.board)
        final = " - FINAL ROUND" if s.final_round == s.round else ""
        row.add_widget(_label(f"Round {s.round}{final}", 18, True, halign="left"))
        dots = BoxLayout(size_hint_x=None, width=dp(110), spacing=dp(4))
        dots.add_widget(_label("Mill", 15, colour=colours.MUTED))
        for i in range(1, ROUNDS_PER_CYCLE + 1):
            filled = s.phase == "remix" or i <= s.cycle_round
            chip = ColourChip(colour="white" if filled else "grey", text=str(i))
            chip.size = (dp(24), dp(24))
            chip.pos_hint = {"center_y": 0.5}
            dots.add_widget(chip)
        row.add_widget(dots)
        row.add_widget(_label(f"{leader} leads | goal {goal} coins", 15, colour=colours.MUTED))
        return row

    def _ball_row(self, s: MilkState) -> BoxLayout:
        row = BoxLayout(size_hint_y=None, height=dp(64), spacing=dp(6))
        choosing = s.phase == "choose"
        balls = s.row if choosing else s.tray
        if s.phase == "remix" and s.history:  # the round just played, while the mill empties
            balls = s.history[-1].balls
        asked = {a.slot for a in s.asks}
        for slot in range(BALLS_PER_ROUND):
            colour = balls[slot] if slot < len(balls) else ""
            if colour and slot not in asked:  # a ball in question shows as asked
                btn = ColourButton(colour=colour)
                btn.text = f"{slot + 1}:{colours.label(colour)}"
            else:
                btn = BigButton(text="?" if slot not in asked else "ask")
                btn.tint = colours.DANGER if slot in asked else colours.BUTTON
            if choosing:
                reach = len(balls) if self.any_ball else 3
                btn.selected = slot < reach if colour else False
                btn.opacity = 1 if slot < reach else 0.45
                if slot in self.picked:
                    btn.text = "take"
            else:
                btn.selected = slot == self.target_slot and s.phase in READING_PHASES
            btn.bind(on_release=lambda _b, i=slot: self.tap_ball(i))
            row.add_widget(btn)
        status = self._beam_text(s)
        row.add_widget(_label(status, 15, colour=colours.MUTED, size_hint_x=0.6))
        return row

    @staticmethod
    def _beam_text(s: MilkState) -> str:
        if s.phase == "remix":
            return "remix\nall 20"
        extra = f"\n{s.extras} extra!" if s.extras else ""
        inside = sum(s.inside)
        return f"beam {min(s.passed, 5)}/5{extra}\n{inside} in mill"

    def _player_cards(self, s: MilkState) -> BoxLayout:
        row = BoxLayout(spacing=dp(4))
        draws = BALLS_PER_ROUND - len(s.known)
        chooser = s.chooser_name
        for seat, p in enumerate(s.players):
            card = PlayerCard(self, p.name, seat)
            card.highlight = p.name in (self.selected, chooser)
            name = BigButton(text=p.name, size_hint_y=None, height=MIN_BUTTON, font_size="18sp")
            name.tint = colours.rgba(card.marker, 0.55 if p.name != chooser else 0.95)
            name.bind(on_release=lambda _b, n=p.name: self.select(n))
            card.add_widget(name)
            if s.phase == "tally":  # the end counts' pad needs the room; predictions are done
                self._card_totals(card, p, len(s.players))
                row.add_widget(card)
                continue
            chips = BoxLayout(size_hint_y=None, height=dp(34), spacing=dp(3))
            pred = p.prediction
            editing = p.name == self.selected and s.phase in READING_PHASES and self.draft
            if editing and self.draft != pred:
                pred = self.draft  # what is being entered
            for col in pred:
                chip = ColourChip(colour=col)
                chip.size = (dp(34), dp(34))
                chips.add_widget(chip)
            if not pred:
                chips.add_widget(_label("no prediction", 13, colour=colours.MUTED))
            card.add_widget(chips)
            verdict = self._verdict(s, p, draws)
            tone = {True: colours.OK, False: colours.DANGER}.get(p.fulfilled, colours.TEXT)
            card.add_widget(_label(verdict, 21, True, colour=tone, size_hint_y=None, height=dp(30)))
            self._card_totals(card, p, len(s.players))
            extra = self._tokens_text(p)
            if extra:
                card.add_widget(
                    _label(extra, 12, colour=colours.MUTED, size_hint_y=None, height=dp(16))
                )
            row.add_widget(card)
        return row

    @staticmethod
    def _card_totals(card: PlayerCard, p, players: int) -> None:
        pen = p.unused_pencils
        coins = f"{p.coins} coin{'s' if p.coins != 1 else ''}"
        pencils = f"{pen} pencil{'s' if pen != 1 else ''}"
        sep = "\n" if players > 3 else "  "
        card.add_widget(_label(f"{coins}{sep}{pencils}", 15))

    def _verdict(self, s: MilkState, p, draws: int) -> str:
        zone = {"double": " D", "triple": " T"}.get(p.zone, "")
        if p.fulfilled is True:
            return "RIGHT" + zone
        if p.fulfilled is False:
            return "missed" + zone
        if not p.prediction:
            return "-"
        if not self.show_odds or s.phase not in READING_PHASES:
            return "?" + zone
        p_ok = fulfil_probability(s.inside, p.prediction, draws=draws, seen=s.known)
        return percent(p_ok) + zone

    @staticmethod
    def _tokens_text(p) -> str:
        names = {"ship": "ship", "key": "key", "any1": "any-1", "any2": "any-2"}
        parts = [f"{names[k]} x{n}" for k, n in p.tokens if k in names and n]
        return " ".join(parts)

    # the pad -------------------------------------------------------------------------
    def _pad(self, s: MilkState) -> BoxLayout:
        pad = BoxLayout(size_hint_y=None, height=dp(56), spacing=dp(4))
        phase = s.phase
        if phase in READING_PHASES:
            self._reading_pad(pad, s)
        elif phase == "choose":
            who = s.chooser_name
            p = s.player(who)
            reach = "any ball" if self.any_ball else "one of the first three balls"
            pad.add_widget(_label(f"{who}: take {reach}", 18, True, halign="left"))
            for bonus in ("any1", "any2"):
                if p.token(bonus):
                    on = self.any_ball == bonus
                    b = BigButton(
                        text=("cancel " if on else "") + bonus.replace("any", "any "),
                        size_hint_x=0.35,
                    )
                    b.bind(on_release=lambda _b, k=bonus: self.toggle_any(k))
                    pad.add_widget(b)
        elif phase in ("colour", "warriors"):  # warriors: the coins of the extra cell
            self._tally_buttons(pad, s.player(self.selected))
            pad.add_widget(self._next_button("Finish game" if s.ending else "Next round"))
        elif phase == "remix":
            if s.board == 5 and not s.solo:
                self._count_buttons(pad, s, ("warriors",))
            else:
                pad.add_widget(_label("Roll out the last 5, put all 20 back, mix.", 17))
            pad.add_widget(self._next_button("Mill refilled"))
        elif phase == "tally":
            items = boards.count_items(s.board, s.solo)
            if len(items) > 2:  # board 6: two rows keep every +/- a full touch target
                pad.orientation, pad.height = "vertical", dp(116)
                first, second = (BoxLayout(spacing=dp(4)) for _ in range(2))
                self._count_buttons(first, s, items[:2])
                self._count_buttons(second, s, items[2:], named=False)
                second.add_widget(self._next_button("Finish game"))
                pad.add_widget(first)
                pad.add_widget(second)
            else:
                self._count_buttons(pad, s, items)
                pad.add_widget(self._next_button("Finish game"))
        return pad

    def _reading_pad(self, pad: BoxLayout, s: MilkState) -> None:
        if self.target_slot is not None:
            ask = next((a for a in s.asks if a.slot == self.target_slot), None)
            pad.add_widget(self._pad_label(f"Ball {self.target_slot + 1}"))
            offer = ask.choices if ask else COLOURS
            for col in COLOURS:
                b = ColourButton(colour=col, disabled=col not in offer)
                b.bind(on_release=lambda _b, c=col: self.tap_colour(c))
                pad.add_widget(b)
            return
        who = self.selected
        pad.add_widget(self._pad_label(who))
        for col in COLOURS:
            b = ColourButton(colour=col, selected=col in self.draft)
            b.bind(on_release=lambda _b, c=col: self.tap_colour(c))
            pad.add_widget(b)
        zone = BigButton(
            text={"": "free", "double": "double", "triple": "triple"}[self.zone],
            size_hint_x=0.8,
            font_size="16sp",
        )
        zone.bind(on_release=lambda _b: self.cycle_zone())
        pad.add_widget(zone)
        ok = BigButton(text="OK", size_hint_x=0.6, disabled=not self.draft)
        ok.tint = colours.OK
        ok.bind(on_release=lambda _b: self.confirm_prediction())
        pad.add_widget(ok)

    @staticmethod
    def _pad_label(text: str) -> Label:
        return _label(text, 18, True, size_hint_x=None, width=dp(72), halign="left")

    def _tally_buttons(self, pad: BoxLayout, p) -> None:
        pad.add_widget(self._pad_label(p.name))
        for text, item, delta in (
            ("+1 coin", "coins", 1),
            ("-1 coin", "coins", -1),
            ("+pencil", "pencils", 1),
            ("use pencil", "used", 1),
        ):
            b = BigButton(text=text, font_size="16sp")
            b.bind(on_release=lambda _b, i=item, d=delta: self.tally(i, d))
            pad.add_widget(b)

    def _count_buttons(self, pad: BoxLayout, s: MilkState, items, named: bool = True) -> None:
        """A label and -/+ per count; the selected player's name leads the first one."""
        p = s.player(self.selected)
        for n, item in enumerate(items):
            value = p.count(item)
            text = f"{item.replace('_', ' ')} {value}"
            if named and n == 0:
                text = f"{p.name}: {text}"
            pad.add_widget(_label(text, 17, True, halign="right"))
            for sign, d in (("-", -1), ("+", 1)):
                b = BigButton(text=sign, font_size="24sp", size_hint_x=None, width=dp(56))
                b.bind(on_release=lambda _b, i=item, v=value + d: self.count(i, v))
                pad.add_widget(b)

    def _next_button(self, text: str) -> BigButton:
        b = BigButton(text=text, size_hint_x=0.9)
        b.tint = colours.ACCENT
        b.bind(on_release=lambda _b: self.next())
        return b

    # the final results ----------------------------------------------------------------
    def _results(self, body: BoxLayout, s: MilkState) -> None:
        game = self.session.game
        winners = game.winners(s)
        title = " and ".join(winners) + (" win!" if len(winners) > 1 else " wins!")
        body.add_widget(_label(title, 30, True, size_hint_y=None, height=dp(56)))
        if s.solo:
            body.add_widget(
                _label(
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
            row.add_widget(_label(p.name, 22, p.name in winners, halign="left"))
            row.add_widget(_label(f"{p.coins} coin{'s' if p.coins != 1 else ''}", 22, True))
            pen = p.unused_pencils
            row.add_widget(_label(f"{pen} unused pencil{'s' if pen != 1 else ''}", 17))
            bonus = ", ".join(f"+{n} {why}" for why, n in p.end_bonus) or ""
            row.add_widget(_label(bonus, 15, colour=colours.MUTED))
            body.add_widget(row)
        top = max(p.coins for p in s.players)
        if sum(p.coins == top for p in s.players) > len(winners):
            body.add_widget(
                _label(
                    "Tied on coins: unused bonus pencils decide.",
                    17,
                    size_hint_y=None,
                    height=dp(30),
                )
            )
        right = {p.name: sum(p.name in r.right for r in s.history) for p in s.players}
        body.add_widget(
            _label(
                f"{s.round} rounds. Predictions right: "
                + ", ".join(f"{n} {k}" for n, k in right.items()),
                15,
                colour=colours.MUTED,
                size_hint_y=None,
                height=dp(30),
            )
        )
        body.add_widget(BoxLayout())

    # taps ---------------------------------------------------------------------------------
    def select(self, name: str) -> None:
        s = self.state
        self.selected = name
        self.target_slot = None
        self.draft, self.zone = s.player(name).prediction, s.player(name).zone
        self.refresh()

    def tap_ball(self, slot: int) -> None:
        s = self.state
        if s.phase in READING_PHASES:
            self.target_slot = None if self.target_slot == slot else slot
            self.refresh()
        elif s.phase == "choose":
            self._pick(slot)

    def _pick(self, slot: int) -> None:
        s = self.state
        if not self.any_ball:
            self.submit(Choose(s.chooser_name, (slot,)))
            return
        want = 1 if self.any_ball == "any1" else 2
        self.picked = tuple(x for x in self.picked if x != slot) + (
            () if slot in self.picked else (slot,)
        )
        if len(self.picked) == want:
            picked, bonus = self.picked, self.any_ball
            self.picked, self.any_ball = (), ""
            if not self.submit(Choose(s.chooser_name, picked, bonus)):
                self.refresh()
        else:
            self.refresh()

    def toggle_any(self, bonus: str) -> None:
        self.any_ball = "" if self.any_ball == bonus else bonus
        self.picked = ()
        self.refresh()

    def tap_colour(self, colour: str) -> None:
        s = self.state
        if self.target_slot is not None:
            slot = self.target_slot
            empty = [i for i, b in enumerate(s.tray) if not b and i != slot]
            self.target_slot = empty[0] if empty else None
            if not self.submit(BallSeen(colour, slot, 1.0)):
                self.target_slot = slot
                self.refresh()
            return
        d = set(self.draft) ^ {colour}
        self.draft = tuple(c for c in COLOURS if c in d)
        self.refresh()

    def cycle_zone(self) -> None:
        self.zone = ZONES[(ZONES.index(self.zone) + 1) % len(ZONES)]
        self.refresh()

    def confirm_prediction(self) -> None:
        s = self.state
        if self.submit(Predict(self.selected, self.draft, self.zone)):
            # on to the next player still without a prediction
            s = self.state
            waiting = [p.name for p in s.players if not p.prediction]
            if waiting and s.phase in READING_PHASES:
                self.select(waiting[0])
            else:
                self.draft, self.zone = (), ""
                self.refresh()

    # questions from the camera ----------------------------------------------------------
    def question_open(self, question, stage) -> bool:
        """A question about a player's cards is moot once that player's prediction is in
        (tapped on the pad, or read again)."""
        s = self.state
        for answer in question.answers:
            if isinstance(answer, Predict) and s.player(answer.player).prediction:
                return False
        return super().question_open(question, stage)

    def question_other(self, question) -> None:
        """On "Other…": the pad, for that player, with the cards as read filled in."""
        first = next((a for a in question.answers if isinstance(a, Predict)), None)
        if first is not None:
            self.selected, self.target_slot = first.player, None
            self.draft, self.zone = first.colours, ""

    def tally(self, item: str, delta: int) -> None:
        self.submit(Tally(self.selected, item, delta))

    def count(self, item: str, value: int) -> None:
        self.submit(Count(self.selected, item, max(0, value)))

    def next(self) -> None:
        if self.submit(ButtonPressed("next")):
            self.draft, self.zone, self.target_slot = (), "", None
            self.selected = None
            self.refresh()
