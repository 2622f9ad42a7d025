"""The scripted people of `companion demo laser`: the players who lay the cards, bid from the
exact solver's answer and play the winning bid move by move, and the person who answers the
app's questions and corrects what it took wrongly, counting what the camera got right."""

from __future__ import annotations

import random

from companion.cues import AskHuman, Cue
from companion.events import ButtonPressed, Event, TimerExpired

from .. import GAME
from ..board import COLOURS, TEAM, TILES
from ..events import (
    BidPlaced,
    BoardEntered,
    CardRevealed,
    ImpossibleClaimed,
    RefillSeen,
    ResultProposed,
    RoundResult,
    TeammateChosen,
)
from ..sensing.refill_check import PATIENCE
from .demo_camera import STILL, WAIT
from .simtable import Slip

BY_EYE = {"unsure", "unverified"}  # the refill check asks a person to look
SOLVE_SECONDS = 5.0


class ScriptedPlayers:
    """One scripted game: the table, the camera, the players and the person answering."""

    def __init__(self, runtime, table, camera, rng_seed: int, say, misplace_every: int) -> None:
        self.runtime, self.table, self.camera, self.say = runtime, table, camera, say
        self.rng = random.Random(rng_seed)
        self.misplace_every = misplace_every
        self.asked: list[str] = []
        self.refills = 0
        self.removed: list[int] = []  # this round's figures off the board, in order
        self.counts = dict(
            cards_read=0,
            cards_asked=0,
            cards_misread=0,
            cards_tapped=0,
            floors_asked=0,
            tiles_read=0,
            tiles_asked=0,
            tiles_misread=0,
            spares_misread=0,
            boards_entered_by_camera=0,
            refills_checked=0,
            refills_by_eye=0,
            refills_misjudged=0,
            misplaced=0,
            misplaced_named=0,
            proposals_right=0,
            proposals_wrong=0,
            impossible_rounds=0,
            demonstrations_replayed=0,
            demonstrations_wrong=0,
            demonstrations_watched=0,
            demonstrations_decoded=0,
            demonstrations_asked=0,
            demonstrations_misjudged=0,
            demonstrations_unsaid=0,
            demonstrations_unconfirmed=0,
        )
        self.named: list[str] = []
        self.slips: list[str] = []  # the kinds of figures misplaced

    @property
    def state(self):
        return self.runtime.session.state

    def cue(self, cue: Cue) -> None:
        if isinstance(cue, AskHuman):
            self.asked.append(cue.question)
            self.say(f"? {cue.question}")

    def submit(self, event: Event) -> None:
        """A person's touch."""
        self.runtime.submit(event)

    def clock_runs_out(self) -> None:
        spec = GAME.timer(self.state)
        self.submit(TimerExpired(spec.key))

    def questions_since(self, mark: int) -> list[str]:
        return self.asked[mark:]

    # a round --------------------------------------------------------------------------------
    def play_round(self) -> str:
        if self.state.round > 1:
            self.check_refill()
        cards = self.table.draw_cards(self.state.n_cards)
        self.camera.new_round()
        for card in cards:
            self.reveal(card)
        self.read_board()
        return self.bid_and_play()

    def reveal(self, card: tuple[str, str | None]) -> None:
        colour, floor = card
        before, mark = len(self.state.cards), len(self.asked)
        self.table.cards.append(card)
        self.camera.watch_centre()
        state = self.state
        if len(state.cards) > before:
            if state.cards[-1] == card:
                self.counts["cards_read"] += 1
                return
            self.counts["cards_misread"] += 1  # taken wrongly without a question
            self.runtime.undo()
        else:
            asked = self.questions_since(mark)
            floors = [q for q in asked if q.startswith("Which floor is on the ")]
            self.counts["floors_asked"] += bool(floors)
            if floors and floors[-1] == f"Which floor is on the {colour} card?":
                self.counts["cards_read"] += 1
            elif floors:  # the question took a wrong colour as known
                self.counts["cards_misread"] += 1
            elif self.questions_since(mark):
                self.counts["cards_asked"] += 1
            else:  # held: the refill was not confirmed by the camera
                self.counts["cards_tapped"] += 1
        self.submit(CardRevealed(colour, floor))

    def read_board(self) -> None:
        """The ring read once the cards lie: the board enters, or the person fills it in."""
        self.camera.last_ring = None
        self.camera.watch_ring()
        truth = self.table.ring()
        draft = self.camera.last_ring
        board = self.state.board
        if board is not None:
            self.counts["boards_entered_by_camera"] += 1
            seen = tuple("cat" if i == board[2] else t for i, t in enumerate(board[0]))
            wrong = sum(a != b for a, b in zip(seen, truth, strict=True))
            spares = sum(a != b for a, b in zip(board[3], self.table.supply, strict=True))
            self.counts["tiles_misread"] += wrong
            self.counts["tiles_read"] += TILES - wrong
            self.counts["spares_misread"] += spares
            if wrong or spares:
                self.enter_board()  # the person corrects it on the board editor
            return
        if draft is not None:
            from ..sensing.ring import unsure

            asked = [i for i in unsure(draft, self.state.ask_threshold) if i >= 0]
            sure = [i for i in range(TILES) if i not in asked and i < len(draft.tiles)]
            self.counts["tiles_asked"] += TILES - len(sure)
            self.counts["tiles_misread"] += sum(draft.tiles[i] != truth[i] for i in sure)
            self.counts["tiles_read"] += sum(draft.tiles[i] == truth[i] for i in sure)
        else:
            self.counts["tiles_asked"] += TILES
        self.enter_board()

    def enter_board(self) -> None:
        """The board editor, filled in by the person (the floors are printed on the tiles)."""
        t = self.table
        tiles = tuple(None if c is None else COLOURS[c] for c in t.tiles)
        self.submit(BoardEntered(tiles, t.cat, tuple(t.supply), t.floors))

    # bids, the demonstration and the result -----------------------------------------------
    def bid_and_play(self) -> str:
        from ..solver import solution_for, solve
        from ..solver.limit import SEARCH_MEGABYTES, Limit

        state = self.state
        pos = GAME.position(state)
        sol = solve(pos, limit=Limit(seconds=SOLVE_SECONDS, megabytes=SEARCH_MEGABYTES))
        players = state.players
        if state.mode == TEAM:
            return self._team_round(pos, sol, solution_for)
        if sol.min_cost is None:
            return self._impossible(players[1])
        first = sol.min_cost + self.rng.choice((0, 1, 2, 3))
        if solution_for(pos, first) is None:
            first = sol.min_cost
        self.submit(BidPlaced(players[0], first))
        lowest = first
        if first > sol.min_cost and self.rng.random() < 0.7:
            lowest = sol.min_cost
            self.submit(BidPlaced(players[1], lowest))
        self.clock_runs_out()  # the bidding clock: the lowest bidder demonstrates
        moves = self._demonstrate(pos, lowest, solution_for)
        removed = sum(m.removed for m in moves)
        proposal, seat = self.state.proposal, self.state.best[0]
        self.counts["proposals_right" if proposal == removed else "proposals_wrong"] += 1
        self.watch_demonstration(pos, moves, removed)
        return f"{players[seat]} showed {lowest} steps, {removed} figures removed"

    def _team_round(self, pos, sol, solution_for) -> str:
        state = self.state
        active = state.active
        spendable = [b for b in sol.exact_totals if 2 <= b <= 10]
        if sol.impossible:
            return self._impossible(state.players[(active + 1) % len(state.players)])
        self.clock_runs_out()  # planning: 30 s of silence
        if not spendable:  # too long for any bid: the team tries and fails
            for p in state.players:
                self.submit(BidPlaced(p, 10))
            self._choose_mate()
            self.submit(RoundResult(False))
            return "no bid 2-10 can be spent exactly: the team failed"
        bid = spendable[0] if self.rng.random() < 0.6 else self.rng.choice(spendable)
        for i, p in enumerate(state.players):
            b = bid if i == active else self.rng.choice(spendable + [min(10, bid + 2), 10])
            self.submit(BidPlaced(p, b))
        self._choose_mate()
        moves = self._demonstrate(pos, bid, solution_for)
        self.watch_demonstration(pos, moves, sum(m.removed for m in moves))
        return f"{state.players[active]} and a mate mixed in exactly {bid}"

    def _demonstrate(self, pos, bid: int, solution_for) -> tuple:
        """The moves the players make for exactly `bid`, checked by the rules' replay."""
        from ..solver import replay

        moves = tuple(solution_for(pos, bid))
        cost, _removed = replay(pos, moves)
        self.counts["demonstrations_replayed" if cost == bid else "demonstrations_wrong"] += 1
        return moves

    def watch_demonstration(self, pos, moves: tuple, removed: int) -> None:
        """The players make the moves, watched by the camera frame by frame. The result the
        game proposes is confirmed with one press of "next" when it is the truth; asked
        instead, or told anything else, the person enters the result by hand."""
        said: list[ResultProposed] = []

        def keep(event: Event) -> None:
            if isinstance(event, ResultProposed):
                said.append(event)

        stop = self.runtime.subscribe(on_event=keep)
        try:
            frames = self.table.demonstration_frames(pos, moves, self.camera.hands)
            self.removed = self.table.play(moves)
            self.camera.watch_frames(frames)
            # the camera keeps looking while the players check the table, before "next":
            # the table the round leaves, for the refill check (it keeps the last clear view)
            self.camera.watch_frames([self.table.ring_frame() for _ in range(STILL)])
        finally:
            stop()
        self.counts["demonstrations_watched"] += 1
        truth = (True, removed)
        proposed = [(e.success, e.removed) for e in said if e.success is not None]
        if any(p != truth for p in proposed):
            self.counts["demonstrations_misjudged"] += 1  # to be told wrong, without a doubt
        elif self.state.demo_result == truth:
            round_ = self.state.round
            self.runtime.post(ButtonPressed("next"))  # the arcade button
            self.runtime.drain(WAIT)
            if self.state.round > round_:
                self.counts["demonstrations_decoded"] += 1
                return
            self.counts["demonstrations_unconfirmed"] += 1
        elif said:
            self.counts["demonstrations_asked"] += 1
        else:
            self.counts["demonstrations_unsaid"] += 1
        self.submit(RoundResult(*truth))  # the person enters the result by hand

    def _choose_mate(self) -> None:
        state = self.state
        if state.phase == "choosing":
            self.submit(TeammateChosen(state.players[state.candidates[0]]))

    def _impossible(self, claimer: str) -> str:
        self.counts["impossible_rounds"] += 1
        self.submit(ImpossibleClaimed(claimer))
        self.clock_runs_out()  # nobody bids against it
        self.removed = []
        return f"{claimer} called Impossible!"

    # the refill ---------------------------------------------------------------------------
    def check_refill(self) -> None:
        """The table as the round left it, then the refill laid (a figure misplaced now and
        then), each seen by the camera; the person puts right what the app names."""
        seen = self._watch()  # as the round left it: the app announces the plan
        slip_now = self.misplace_every > 0 and self.refills % self.misplace_every == 0
        self.refills += 1
        _plan, slip = self.table.lay_refill(self.removed, slip=slip_now)
        mark = len(self.asked)
        # a forgotten figure is only an unfinished refill until it stays so for a while
        forgotten = slip is not None and slip.kind == "forgotten"
        seen += self._watch(PATIENCE + 1 if forgotten else STILL)
        if slip is not None:
            self.counts["misplaced"] += 1
            self.slips.append(slip.kind)
            asked = [q for q in self.questions_since(mark) if self._names(q, slip)]
            if "ready" in seen:
                self.counts["refills_misjudged"] += 1  # a wrong table let through silently
            elif asked:
                self.counts["misplaced_named"] += 1
                self.named.append(asked[0])
            # else the person, asked to check by eye, finds it
            self.table.undo_slip(slip)
            seen += self._watch()
        if "ready" in seen:
            self.counts["refills_checked"] += 1
        elif BY_EYE & set(seen):
            self.counts["refills_by_eye"] += 1

    def _watch(self, still: int = STILL) -> list[str]:
        """The camera watches the ring; what the refill check said meanwhile."""
        seen: list[Event] = []
        stop = self.runtime.subscribe(on_event=seen.append)
        try:
            self.camera.watch_ring(still)
        finally:
            stop()
        return [e.status for e in seen if isinstance(e, RefillSeen)]

    @staticmethod
    def _names(question: str, slip: Slip) -> bool:
        """Does the app's question name the figure that is not where it should be?"""
        colour = COLOURS[slip.colour]
        if slip.kind == "wrong tile":
            return f"Tile {slip.tile + 1} should be empty; the camera sees {colour}" in question
        if slip.kind == "wrong figure":
            return f"Tile {slip.tile + 1} should hold the " in question and (
                f"the camera sees {colour}" in question
            )
        if slip.meant is None:
            return f"The {colour} card should hold" in question
        # any figure still to place may go there (the rulebook fixes no order)
        return f"Tile {slip.meant + 1} should hold the " in question
