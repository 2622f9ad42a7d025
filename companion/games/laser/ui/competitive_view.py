"""The competitive phases of the Laser screen, and the proof of an Impossible! claim: who
bids how many steps (a player row over a number pad), the demonstration and its removed-figure
count. A part of `LaserScreen`, which provides the prompt line, the verdict buttons and the
Impossible! button.
"""

from __future__ import annotations

from kivy.metrics import dp
from kivy.uix.gridlayout import GridLayout
from kivy.uix.label import Label

from companion.ui import colours
from companion.ui.widgets import BigButton, caption, row_of

from ..board import TEAM
from ..events import BidPlaced, ClaimerNamed, RoundResult
from ..proposal import no_solution_hint
from ..rules import TEAM_BID_MAX, TEAM_BID_MIN

ROW = dp(52)
COMPETITIVE_BIDS = range(1, 16)


class CompetitivePhases:
    def _draw_thinking(self, body) -> None:
        self._say(body, "First idea? Tap who, then the steps.")
        self._bid_pad(body, below=None)
        body.add_widget(row_of(self._impossible_button(), height=dp(50)))

    def _draw_bidding(self, body) -> None:
        st = self.state
        if st.best is None:
            self._say(body, "The clock runs: who bid, how many steps?")
            big = "?"
        else:
            seat, bid = st.best
            self._say(body, "Anyone lower?", 20)
            big = f"Lowest: {st.players[seat]} {bid}"
        body.add_widget(caption(big, 30, size_hint_y=None, height=dp(46), bold=True))
        self._bid_pad(body, below=st.best[1] if st.best else None)
        body.add_widget(row_of(self._impossible_button(), height=dp(50)))

    def _draw_challenge(self, body) -> None:
        st = self.state
        if st.claimer is None:
            body.add_widget(caption("Who grabbed the cat?", 18, size_hint_y=None, height=dp(28)))
            row = row_of()
            for p in st.players:
                row.add_widget(
                    BigButton(text=p, on_release=lambda _b, p=p: self.submit(ClaimerNamed(p)))
                )
            body.add_widget(row)
        who = st.players[st.claimer] if st.claimer is not None else "Someone"
        self._say(body, f"{who} says Impossible! Bid steps to prove it wrong.", 18)
        if st.best:
            lowest = f"Lowest: {st.players[st.best[0]]} {st.best[1]}"
            body.add_widget(caption(lowest, 20, size_hint_y=None, height=dp(30), bold=True))
        self._bid_pad(
            body, below=st.best[1] if st.best else None, exclude=st.claimer, team=st.mode == TEAM
        )
        body.add_widget(Label())  # keeps the cards and prompt at the top

    def _bid_pad(self, body, below, exclude=None, team=False) -> None:
        st = self.state
        players = row_of()
        for seat, p in enumerate(st.players):
            if seat == exclude:
                continue
            players.add_widget(
                BigButton(
                    text=p,
                    tint=colours.ACCENT if p == self.picked_player else colours.BUTTON,
                    on_release=lambda _b, p=p: self._pick_player(p),
                )
            )
        body.add_widget(players)
        numbers = range(TEAM_BID_MIN, TEAM_BID_MAX + 1) if team else COMPETITIVE_BIDS
        cols = len(numbers) if len(numbers) <= 9 else 8  # team bids 2-10 fit one row
        rows = -(-len(numbers) // cols)
        grid = GridLayout(
            cols=cols, spacing=dp(3), size_hint_y=None, height=ROW * rows + dp(3) * (rows - 1)
        )
        for n in numbers:
            grid.add_widget(
                BigButton(
                    text=str(n),
                    font_size=22,
                    disabled=self.picked_player is None or (below is not None and n >= below),
                    on_release=lambda _b, n=n: self._bid(n),
                )
            )
        body.add_widget(grid)

    def _pick_player(self, player: str) -> None:
        self.picked_player = player
        self.refresh()

    def _bid(self, n: int) -> None:
        if self.picked_player is not None:
            self.submit(BidPlaced(self.picked_player, n))

    def _draw_demonstration(self, body) -> None:
        st = self.state
        seat, bid = st.best
        name = st.players[seat]
        timed = st.phase == "demonstration"
        body.add_widget(
            caption(
                f"{name}: show it in exactly {bid} steps"
                + ("!" if timed else ". Time is up: did it work?"),
                21,
                size_hint_y=None,
                height=dp(40),
            )
        )
        if st.no_solution:
            self._no_solution(body)
        else:
            hint = (
                f"The solver says {bid} steps can remove {st.proposal} figures."
                if st.proposal is not None
                else "Tap how many figures were removed:"
            )
            body.add_widget(
                caption(hint, 17, colour=colours.MUTED, size_hint_y=None, height=dp(28))
            )
        grid = GridLayout(cols=8, spacing=dp(3), size_hint_y=None, height=ROW * 2 + dp(3))
        for n in range(1, 17):
            grid.add_widget(
                BigButton(
                    text=str(n),
                    disabled=st.no_solution,
                    tint=colours.OK if n == st.proposal else colours.BUTTON,
                    on_release=lambda _b, n=n: self.submit(RoundResult(True, n)),
                )
            )
        body.add_widget(grid)
        body.add_widget(
            row_of(
                BigButton(
                    text="Failed: X",
                    tint=colours.DANGER,
                    on_release=lambda _b: self.submit(RoundResult(False)),
                )
            )
        )
        body.add_widget(Label())

    def _no_solution(self, body) -> None:
        """The solver's proof that the bid cannot be done, before any result is tapped."""
        hint = no_solution_hint(self.state)
        if hint is not None:
            label = caption(hint, 17, colour=colours.DANGER, size_hint_y=None, height=dp(48))
            body.add_widget(label)

    # Impossible! ------------------------------------------------------------------------
    def _draw_proof(self, body) -> None:
        st = self.state
        seat, bid = st.best
        who = st.players[st.claimer] if st.claimer is not None else "the claimer"
        text = f"{st.players[seat]}: prove {who} wrong in {bid} steps"
        if st.phase == "proof-verdict":
            text += ". Time is up: did it work?"
        body.add_widget(caption(text, 20, size_hint_y=None, height=dp(60)))
        self._verdict_buttons(body, "It worked")

    _draw_proof_verdict = _draw_proof

    def _draw_who(self, body) -> None:
        body.add_widget(caption("Who grabbed the cat?", 20, size_hint_y=None, height=dp(40)))
        row = row_of()
        for p in self.state.players:
            row.add_widget(
                BigButton(text=p, on_release=lambda _b, p=p: self.submit(ClaimerNamed(p)))
            )
        body.add_widget(row)
        body.add_widget(Label())
