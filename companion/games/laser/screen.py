"""The Laser screen: reveal cards, the silent clock, bids, teammates, results, Impossible!
(the competitive phases and the proof live in ui/competitive_view.py), the board editor, and a
referee panel with the solver's optimum for the round just played (referee.py).
When the camera read the ring but is unsure (state.proposed_board), a "Check board" button
beside the cards opens the editor on that reading.

Every phase redraws the body from the state. Bids are big 2-10 buttons on one row per
player (team) or a player row plus a number row (competitive); colours always carry their
letter (R Y G C B M) for colour-blind players.
"""

from __future__ import annotations

from kivy.metrics import dp
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.gridlayout import GridLayout
from kivy.uix.label import Label
from kivy.uix.scrollview import ScrollView

from companion.ui import colours
from companion.ui import game_screen as base
from companion.ui.widgets import BigButton, ColourButton, ColourChip, caption, row_of

from .board import COLOURS, COMPETITIVE, FLOORS, TEAM
from .events import (
    BidPlaced,
    BoardEntered,
    CardRevealed,
    ImpossibleClaimed,
    RoundResult,
    TeammateChosen,
)
from .rules import TEAM_BID_MAX, TEAM_BID_MIN
from .solver.referee import Referee
from .ui.board_editor import BoardEditor
from .ui.competitive_view import ROW, CompetitivePhases


class LaserScreen(CompetitivePhases, base.GameScreen):
    def build(self) -> None:
        self.pending_colour: str | None = None  # competitive reveal: colour tapped first
        self.picked_player: str | None = None  # competitive bids: who is bidding
        self.editor: BoardEditor | None = None
        self.show_referee = False
        self.referee = Referee(on_ready=self._refresh_trigger)

    # drawing --------------------------------------------------------------------------
    def refresh(self) -> None:
        super().refresh()
        self._scores_with_x()
        body = self.body
        body.clear_widgets()
        st = self.state
        referee = self.show_referee and st.phase == "reveal" and not st.cards and st.last_board
        self.wide(bool(referee) or self.editor is not None)  # both need the room
        if self.editor is not None:
            self._draw_editor(body)
            return
        if referee:
            self._draw_referee(body)
            return
        body.add_widget(self._cards_line())
        if st.over:
            self._draw_over(body)
            return
        draw = getattr(self, f"_draw_{st.phase.replace('-', '_')}", None)
        if draw is not None:
            draw(body)

    def _scores_with_x(self) -> None:
        """Competitive: the X marks beside each score (X, XX), -6s already in the score."""
        st = self.state
        if st.mode != COMPETITIVE:
            return
        rows = []
        for row, x in zip(self.ids.scoreboard.rows, st.xs, strict=False):
            marker, letter, name, score, current = row
            rows.append((marker, letter, name, f"{score} {'X' * x}".strip(), current))
        self.ids.scoreboard.rows = rows

    def _cards_line(self) -> BoxLayout:
        st = self.state
        box = row_of(height=dp(44), spacing=dp(6))
        self.prompt = None
        if not st.cards:
            box.height = 0
            return box
        if self._camera_board() is not None:
            box.height = dp(52)  # room for a whole touch target
        for colour, floor in st.cards:
            chip = ColourChip(colour=colour, size=(dp(40), dp(40)))
            box.add_widget(chip)
            if floor:
                box.add_widget(caption(floor, 15, size_hint_x=None, width=dp(58)))
        self.prompt = caption("", 17)
        box.add_widget(self.prompt)
        if self._camera_board() is not None:
            box.add_widget(
                BigButton(
                    text="Check board",
                    font_size="18sp",
                    tint=colours.ACCENT,
                    size_hint_x=None,
                    width=dp(150),
                    on_release=lambda _b: self._open_editor(),
                )
            )
        return box

    def _camera_board(self):
        """The camera's unsure reading of the ring, while the board is still to be entered."""
        st = self.state
        return st.proposed_board if st.board is None and not st.over else None

    def _say(self, body, text: str, size: str = 17, height: float = dp(30)) -> None:
        """A prompt: beside the cards when they are shown, else on its own line."""
        if self.state.cards and getattr(self, "prompt", None) is not None and not self.prompt.text:
            self.prompt.text = text
            self.prompt.font_size = size
        else:
            body.add_widget(caption(text, size, size_hint_y=None, height=height))

    # reveal -------------------------------------------------------------------------
    def _draw_reveal(self, body) -> None:
        st = self.state
        left = st.n_cards - len(st.cards)
        self._say(
            body,
            f"Reveal {left} more prism card{'s' if left > 1 else ''}: "
            "the camera reads them, or tap.",
        )
        grid = GridLayout(cols=6, size_hint_y=None, height=ROW, spacing=dp(4))
        for c in COLOURS:
            grid.add_widget(
                ColourButton(
                    colour=c,
                    selected=c == self.pending_colour,
                    on_release=lambda _b, c=c: self._tap_colour(c),
                )
            )
        body.add_widget(grid)
        if st.mode == COMPETITIVE:
            floors = row_of()
            for f in FLOORS:
                floors.add_widget(
                    BigButton(
                        text=f.title(),
                        disabled=self.pending_colour is None,
                        on_release=lambda _b, f=f: self._tap_floor(f),
                    )
                )
            body.add_widget(floors)
        tools = row_of()
        tools.add_widget(BigButton(text="Enter board", on_release=lambda _b: self._open_editor()))
        if st.last_board is not None and st.last_cards:
            tools.add_widget(
                BigButton(text="Referee: last round", on_release=lambda _b: self._toggle_referee())
            )
        body.add_widget(tools)
        if st.last:
            body.add_widget(
                caption(
                    " ".join(st.last), 16, colour=colours.MUTED, size_hint_y=None, height=dp(26)
                )
            )
        body.add_widget(Label())

    def _tap_colour(self, colour: str) -> None:
        if self.state.mode == TEAM:
            self.submit(CardRevealed(colour))
        else:
            self.pending_colour = colour
            self.refresh()

    def _tap_floor(self, floor: str) -> None:
        if self.pending_colour is not None:
            colour, self.pending_colour = self.pending_colour, None
            self.submit(CardRevealed(colour, floor))

    def _toggle_referee(self) -> None:
        self.show_referee = not self.show_referee
        self.refresh()

    def referee_text(self) -> str:
        """The referee's answer for the round just played, or that it is still thinking."""
        return self.referee.text(self.session.game, self.state)

    def _draw_referee(self, body) -> None:
        body.add_widget(
            caption(
                " ".join(self.state.last), 17, colour=colours.MUTED, size_hint_y=None, height=dp(28)
            )
        )
        body.add_widget(self._referee_panel())
        body.add_widget(Label())
        body.add_widget(
            row_of(
                BigButton(text="Back", on_release=lambda _b: self._toggle_referee()), height=dp(52)
            )
        )

    def _referee_panel(self) -> Label:
        text = self.referee_text()
        lab = caption(text, 15, size_hint_y=None, height=dp(22) * (text.count("\n") + 2))
        lab.valign = "top"
        return lab

    # team ---------------------------------------------------------------------------
    def _draw_planning(self, body) -> None:
        st = self.state
        body.add_widget(
            caption(
                f"{st.players[st.active]} is active. Plan in silence: how "
                "many steps for all the cards?",
                20,
                size_hint_y=None,
                height=dp(64),
            )
        )
        body.add_widget(
            row_of(
                BigButton(text="Everyone ready", on_release=lambda _b: self._next()),
                self._impossible_button(),
            )
        )
        body.add_widget(Label())

    def _next(self) -> None:
        from companion.events import ButtonPressed

        self.submit(ButtonPressed("next"))

    def _impossible_button(self) -> BigButton:
        return BigButton(
            text="Impossible!",
            tint=colours.DANGER,
            on_release=lambda _b: self.submit(ImpossibleClaimed(None)),
        )

    def _draw_bids(self, body) -> None:
        st = self.state
        self._say(body, "On three, show your bids!")
        # The same list all through one bidding: a bid lights its button and the list stays
        # scrolled where it was, so the next tap lands on the row the finger aims at.
        key = (st.round, st.serial, st.players)
        if getattr(self, "_bid_list", None) is None or self._bid_list[0] != key:
            self._bid_list = (key, *self._bid_rows(st))
        _key, scroll, lit = self._bid_list
        for (seat, b), btn in lit.items():
            btn.tint = colours.ACCENT if st.bids[seat] == b else colours.BUTTON
        body.add_widget(scroll)
        body.add_widget(row_of(self._impossible_button(), height=dp(50)))

    def _bid_rows(self, st) -> tuple[ScrollView, dict]:
        """One row of 2-10 buttons per player, in a list that scrolls."""
        rows = GridLayout(cols=1, size_hint_y=None, spacing=dp(3))
        rows.bind(minimum_height=rows.setter("height"))
        lit = {}
        for seat, name in enumerate(st.players):
            row = row_of(height=ROW, spacing=dp(2))
            active = " *" if seat == st.active else ""
            row.add_widget(caption(name + active, 17, size_hint_x=None, width=dp(84)))
            for b in range(TEAM_BID_MIN, TEAM_BID_MAX + 1):
                lit[seat, b] = btn = BigButton(
                    text=str(b),
                    font_size=20,
                    on_release=lambda _b, p=name, b=b: self.submit(BidPlaced(p, b)),
                )
                row.add_widget(btn)
            rows.add_widget(row)
        scroll = ScrollView(do_scroll_x=False)
        scroll.add_widget(rows)
        return scroll, lit

    def _draw_choosing(self, body) -> None:
        st = self.state
        body.add_widget(
            caption(
                f"{st.players[st.active]} bid {st.bids[st.active]}: choose your "
                "teammate among the closest bids.",
                19,
                size_hint_y=None,
                height=dp(60),
            )
        )
        row = row_of()
        for i in st.candidates:
            row.add_widget(
                BigButton(
                    text=f"{st.players[i]} ({st.bids[i]})",
                    on_release=lambda _b, p=st.players[i]: self.submit(TeammateChosen(p)),
                )
            )
        body.add_widget(row)
        body.add_widget(Label())

    def _draw_mixing(self, body) -> None:
        st = self.state
        if st.mode == TEAM:
            a, m, bid = st.players[st.active], st.players[st.mate], st.bids[st.active]
            text = f"{a} + {m}: exactly {bid} MP, {a} starts.\nTake turns, no talking!"
        else:
            text = ""
        body.add_widget(caption(text, 22, size_hint_y=None, height=dp(80)))
        self._verdict_buttons(body)

    def _draw_verdict(self, body) -> None:
        st = self.state
        if st.mode == COMPETITIVE:
            self._draw_demonstration(body)
            return
        body.add_widget(
            caption(
                "Time! Did the team complete every card with exactly the bid?",
                20,
                size_hint_y=None,
                height=dp(60),
            )
        )
        self._verdict_buttons(body)

    def _verdict_buttons(self, body, success_text="Done in time") -> None:
        self._no_solution(body)
        body.add_widget(
            row_of(
                BigButton(
                    text=success_text,
                    tint=colours.OK,
                    disabled=self.state.no_solution,
                    on_release=lambda _b: self.submit(RoundResult(True)),
                ),
                BigButton(
                    text="Failed",
                    tint=colours.DANGER,
                    on_release=lambda _b: self.submit(RoundResult(False)),
                ),
                height=dp(64),
            )
        )
        body.add_widget(Label())

    def _draw_over(self, body) -> None:
        game = self.session.game
        winners = " and ".join(game.winners(self.state))
        body.add_widget(caption(f"{winners} won!", 30, size_hint_y=None, height=dp(60)))
        if self.state.last:
            body.add_widget(
                caption(
                    " ".join(self.state.last),
                    17,
                    colour=colours.MUTED,
                    size_hint_y=None,
                    height=dp(30),
                )
            )
        if self.state.last_board is not None and self.state.last_cards:
            body.add_widget(self._referee_panel())
        body.add_widget(Label())

    # board editor -----------------------------------------------------------------------
    def _open_editor(self) -> None:
        st = self.state
        proposal = self._camera_board()
        if proposal is not None:
            self.editor = BoardEditor.from_proposal(st.mode, proposal)
        else:
            self.editor = BoardEditor(mode=st.mode, board=st.board or st.last_board)
        self.refresh()

    def _draw_editor(self, body) -> None:
        body.add_widget(self.editor)
        body.add_widget(
            row_of(
                BigButton(text="Save board", tint=colours.OK, on_release=lambda _b: self._save()),
                BigButton(text="Cancel", on_release=lambda _b: self._close_editor()),
                height=dp(54),
            )
        )

    def _save(self) -> None:
        tiles, floors, cat, supply = self.editor.board()
        if self.submit(BoardEntered(tiles, cat, supply, floors)):
            self._close_editor()

    def close(self) -> None:
        self.referee.close()
        super().close()

    def _close_editor(self) -> None:
        self.editor = None
        self.refresh()


GameScreen = LaserScreen
