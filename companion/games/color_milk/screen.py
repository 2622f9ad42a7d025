"""The Color Milk round view: the five balls as they arrive, every prediction with its odds,
who was right, who chooses from which three balls, coins and pencils, the mill's cycle, and
the final results. Readable from a metre away at 800x480; every colour carries its letter.

One colour pad along the bottom serves whatever the phase needs: entering a ball, a
prediction, a choice, or the tallies of the selected player.

The screen keeps what is being entered (the selected player, the ball, the draft prediction)
and takes the taps; each panel is a widget of ui/ drawn from the state and that entry.
"""

from __future__ import annotations

from companion.events import BallSeen, ButtonPressed
from companion.games.color_milk.events import Choose, Count, Predict, Tally
from companion.games.color_milk.mill import COLOURS
from companion.games.color_milk.state import READING_PHASES, SECRET_PHASES, MilkState
from companion.ui.game_screen import GameScreen as BaseGameScreen

from .ui.ball_row import BallRow
from .ui.info_line import InfoLine
from .ui.pad import Pad
from .ui.player_cards import PlayerCards
from .ui.results import Results

ZONES = ("", "double", "triple")


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
            self._load_draft()
        if s.phase == "over":
            self.show_panels([((Results, s), lambda: Results(self.session.game, s))])
            return
        ball = (s, self.any_ball, self.picked, self.target_slot)
        pad = (s, self.selected, self.zone, self.target_slot, self.any_ball)  # not the draft:
        _, _, cards, self.pad = self.show_panels(  # it lights the pad's colours in place
            [
                ((InfoLine, s), lambda: InfoLine(s)),
                ((BallRow, *ball), lambda: BallRow(self, s)),
                ((PlayerCards,), lambda: PlayerCards(self)),  # it keeps the cards that stay
                ((Pad, *pad), lambda: Pad(self, s)),
            ]
        )
        cards.show(s)
        self.pad.show_draft(self.draft)

    # taps ---------------------------------------------------------------------------------
    def select(self, name: str) -> None:
        self.selected = name
        self.target_slot = None
        self._load_draft()
        self.refresh()

    def _load_draft(self) -> None:
        """The pad starts from the selected player's prediction, unless it lies face down: then
        it is tapped in afresh, and nobody sees what it was."""
        s, name = self.state, self.selected
        self.draft, self.zone = s.player(name).prediction, s.player(name).zone
        if s.phase in SECRET_PHASES:
            self.draft, self.zone = (), ""

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
