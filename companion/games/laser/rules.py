"""Laser's rules: phases, clocks, bids, teams, scoring and the Impossible! challenge.

Team mode:        reveal -> planning (30 s) -> bids -> [choosing] -> mixing (30 s) -> [verdict]
Competitive mode: reveal -> thinking -> bidding (30 s from the first bid) -> demonstration
                  (30 s) -> [verdict]
Impossible!:      (planning / bids / thinking / bidding) -> challenge (30 s counter-bids)
                  -> proof (30 s) -> [proof-verdict] -> [who]
Bracketed phases wait for people: a verdict after the clock ran out, the active player's
pick between equally close bidders, the name of whoever grabbed the cat.
Learning mode doubles every clock to 60 s.

Each mode's own steps are in team.py, competitive.py and impossible.py; this class holds
what they share: set-up, reading the state, cards and board, bids, clocks and the round's end.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from companion.cues import Announce, AskHuman, Cue, PhaseStarted, TimeUp
from companion.errors import IllegalMove, UsageError
from companion.events import ButtonPressed, CardSeen, Event, TimerExpired
from companion.game import GameBase, GameConfig, TimerSpec

from .board import COLOURS, COMPETITIVE, FLOORS, MODES, TEAM, TILES
from .competitive import PROPOSAL_SLACK, CompetitiveMode, propose_removed
from .events import (
    BidPlaced,
    BoardEntered,
    BoardProposed,
    CardRevealed,
    ClaimerNamed,
    ImpossibleClaimed,
    RefillSeen,
    ResultProposed,
    RoundResult,
    TeammateChosen,
)
from .impossible import ImpossibleChallenge
from .state import (
    CARD_CONFIDENCE,
    CLAIM_PHASES,
    JUDGED,
    MAX_BID,
    TEAM_BID_MAX,
    TEAM_BID_MIN,
    TIMED,
    WIN_POINTS,
    LaserState,
)
from .table import CardsAndBoard
from .team import TeamMode


def _players_check(config: GameConfig, mode: str) -> None:
    n = len(config.players)
    if len(set(config.players)) != n:
        raise UsageError("player names must be different")
    if mode == TEAM and not 3 <= n <= 10:
        raise UsageError("team mode needs 3-10 players (2 players: competitive mode)")
    if mode == COMPETITIVE and not 2 <= n <= 10:
        raise UsageError("Laser is for 2-10 players")


class LaserGame(CardsAndBoard, TeamMode, CompetitiveMode, ImpossibleChallenge, GameBase):
    name = "laser"
    title = "Laser"
    min_players = 2
    max_players = 10

    # set-up ---------------------------------------------------------------------------
    def initial_state(self, config: GameConfig) -> LaserState:
        opts = dict(config.options)
        mode = opts.get("mode", "auto")
        if mode == "auto":
            mode = TEAM if len(config.players) >= 3 else COMPETITIVE
        if mode not in MODES:
            raise UsageError(f"mode must be 'team' or 'competitive', not {mode!r}")
        _players_check(config, mode)
        n_cards = opts.get("cards", 2)
        if not isinstance(n_cards, int) or isinstance(n_cards, bool) or not 2 <= n_cards <= 6:
            raise UsageError("cards must be a whole number 2-6 (3+ is the harder game)")
        learning = bool(opts.get("learning", False))
        threshold = opts.get("ask_threshold", CARD_CONFIDENCE)
        if not isinstance(threshold, (int, float)) or not 0 <= threshold <= 1:
            raise UsageError("ask_threshold must be a number 0-1")
        first = opts.get("first", 0)
        if isinstance(first, str):
            if first not in config.players:
                raise UsageError(f"no player called {first!r}")
            first = config.players.index(first)
        n = len(config.players)
        return LaserState(
            mode=mode,
            players=tuple(config.players),
            learning=learning,
            phase_seconds=int(opts.get("phase_seconds", 30)),
            n_cards=n_cards,
            turns_each=3 if n <= 5 else 2,
            scores=(0,) * n,
            xs=(0,) * n,
            penalties=(0,) * n,
            active=int(first) % n,
            bids=(None,) * n,
            ask_threshold=float(threshold),
        )

    # reading --------------------------------------------------------------------------
    def seconds(self, state: LaserState) -> int:
        return state.phase_seconds * (2 if state.learning else 1)

    def timer(self, state: LaserState) -> TimerSpec | None:
        if state.over or state.phase not in TIMED:
            return None
        return TimerSpec(f"laser:{state.phase}:{state.serial}", self.seconds(state))

    def scores(self, state: LaserState) -> dict[str, int]:
        return dict(zip(state.players, state.scores, strict=True))

    def is_over(self, state: LaserState) -> bool:
        return state.over

    def winners(self, state: LaserState) -> tuple[str, ...]:
        if not state.over:
            return ()
        if state.mode == COMPETITIVE:
            return tuple(
                p for p, s in zip(state.players, state.scores, strict=True) if s >= WIN_POINTS
            )
        return super().winners(state)

    def current_player(self, state: LaserState) -> str | None:
        if state.over:
            return None
        if state.phase in ("demonstration", "proof", "verdict", "proof-verdict"):
            if state.phase == "verdict" and state.mode == TEAM:
                return state.players[state.active]
            return state.players[state.best[0]] if state.best else None
        if state.mode == TEAM and state.phase in ("choosing", "mixing"):
            return state.players[state.active]
        return None

    def describe(self, state: LaserState) -> str:
        if state.over:
            return "game over: " + ", ".join(self.winners(state)) + " won"
        who = self.current_player(state)
        head = f"round {state.round}"
        if state.mode == TEAM:
            head += f", {state.players[state.active]} active"
        return f"{head}: {state.phase}" + (f" ({who})" if who else "")

    def legal_actions(self, state: LaserState) -> Sequence[Event]:
        if state.over:
            return ()
        ph, out = state.phase, []
        if ph == "reveal":
            floors = (None,) if state.mode == TEAM else FLOORS
            out += [CardRevealed(c, f) for c in COLOURS for f in floors]
        if ph in CLAIM_PHASES:
            out += [ImpossibleClaimed(p) for p in state.players]
        if ph == "bids":
            out += [
                BidPlaced(p, b)
                for p in state.players
                for b in range(TEAM_BID_MIN, TEAM_BID_MAX + 1)
            ]
        if ph in ("thinking", "bidding", "challenge"):
            lo, hi = 1, 20
            if state.best is not None and ph != "thinking":
                hi = min(hi, state.best[1] - 1)
            out += [
                BidPlaced(p, b)
                for i, p in enumerate(state.players)
                if not (ph == "challenge" and i == state.claimer)
                for b in range(lo, hi + 1)
            ]
        if ph == "thinking":
            out.append(ButtonPressed("bid"))
        if ph == "challenge" and state.claimer is None:
            out += [
                ClaimerNamed(p)
                for i, p in enumerate(state.players)
                if not (state.best and state.best[0] == i)
            ]
        if ph == "choosing":
            out += [TeammateChosen(state.players[i]) for i in state.candidates]
        if ph in ("mixing", "verdict", "demonstration", "proof", "proof-verdict"):
            if state.mode == COMPETITIVE and ph in ("demonstration", "verdict"):
                if not state.no_solution:
                    most = self.most_removable(state)[0]
                    out += [RoundResult(True, n) for n in range(1, most + 1)]
            else:
                out.append(RoundResult(True))
            out.append(RoundResult(False))
        if ph == "who":
            out += [ClaimerNamed(p) for p in state.players]
        return tuple(out)

    # changing -------------------------------------------------------------------------
    def apply(self, state: LaserState, event: Event) -> tuple[LaserState, list[Cue]]:
        if state.over:
            raise IllegalMove("the game is over")
        if isinstance(event, TimerExpired):
            return self._expired(state, event)
        if isinstance(event, CardSeen):
            return self._card_seen(state, event)
        if isinstance(event, CardRevealed):
            return self._reveal(state, event.colour, event.floor)
        if isinstance(event, BoardEntered):
            return self._board(state, event)
        if isinstance(event, BoardProposed):
            return self._board_proposed(state, event)
        if isinstance(event, RefillSeen):
            return self._refill_seen(state, event)
        if isinstance(event, ButtonPressed):
            if event.button == "impossible":
                return self._claim(state, None)
            if event.button == "bid":
                return self._bid_button(state)
            if event.button == "next" and state.phase == "planning":
                return self._to_bids(state, [Announce("Planning ended early.")])
            raise IllegalMove(f"the {event.button!r} button does nothing in {state.phase}")
        if isinstance(event, ImpossibleClaimed):
            return self._claim(state, event.player)
        if isinstance(event, ClaimerNamed):
            return self._name_claimer(state, event.player)
        if isinstance(event, BidPlaced):
            return self._bid(state, event.player, event.bid)
        if isinstance(event, TeammateChosen):
            return self._choose(state, event.player)
        if isinstance(event, RoundResult):
            return self._result(state, event.success, event.removed)
        if isinstance(event, ResultProposed):
            return self._result_proposed(state, event)
        raise IllegalMove(f"Laser does not use {type(event).__name__} events")

    # helpers ----------------------------------------------------------------------------
    def _seat(self, state: LaserState, name: str | None) -> int:
        if name not in state.players:
            raise IllegalMove(f"no player called {name!r}")
        return state.players.index(name)

    def _timed(self, state: LaserState, phase: str, **kw: Any) -> LaserState:
        return replace(state, phase=phase, serial=state.serial + 1, **kw)

    def _started(self, state: LaserState, player: int | None = None) -> PhaseStarted:
        name = state.players[player] if player is not None else None
        return PhaseStarted(state.phase, name)

    # bids ----------------------------------------------------------------------------
    def _bid(self, state: LaserState, player: str, bid: int):
        seat = self._seat(state, player)
        if not isinstance(bid, int) or isinstance(bid, bool):
            raise IllegalMove("a bid is a whole number of steps")
        ph = state.phase
        if ph == "bids":
            return self._team_bid(state, seat, bid)
        if not 1 <= bid <= MAX_BID:
            raise IllegalMove(f"a bid is 1-{MAX_BID} steps")
        if ph in ("thinking", "bidding"):
            return self._competitive_bid(state, seat, bid)
        if ph == "challenge":
            return self._counter_bid(state, seat, bid)
        if ph == "planning":
            raise IllegalMove("bids are shown together when the planning time is over")
        raise IllegalMove(f"no bids are taken during {ph}")

    # clocks ---------------------------------------------------------------------------
    def _expired(self, state: LaserState, ev: TimerExpired):
        spec = self.timer(state)
        if spec is None or spec.key != ev.key:
            raise IllegalMove(f"timer {ev.key!r} is not running")
        cues: list[Cue] = [TimeUp(ev.key)]
        ph = state.phase
        if ph == "planning":
            return self._to_bids(state, cues)
        if ph == "bidding":
            if state.best is None:
                new = replace(state, phase="thinking")
                return new, cues + [Announce("No bid was entered."), self._started(new)]
            seat, bid = state.best
            return self._start_demo(state, seat, bid, cues)
        if ph == "challenge":
            if state.best is None:
                return self._settle_claim(state, True, cues + [Announce("Nobody disagreed.")])
            seat, bid = state.best
            new = self._timed(state, "proof")
            return new, cues + [
                self._started(new, seat),
                Announce(f"{state.players[seat]}: show it in {bid} steps!"),
            ]
        # mixing, demonstration, proof: people say whether it was done in time
        new = replace(state, phase="proof-verdict" if ph == "proof" else "verdict")
        return new, cues + [
            self._started(new),
            AskHuman("Time! Was every card completed in time?", ("yes", "no")),
        ]

    # results --------------------------------------------------------------------------
    def _result(self, state: LaserState, success: bool, removed: int | None):
        ph = state.phase
        if ph in ("proof", "proof-verdict"):
            # the prover succeeding means the claimer was wrong
            return self._settle_claim(state, not success, [])
        if ph not in ("mixing", "demonstration", "verdict"):
            raise IllegalMove(f"there is nothing to judge during {ph}")
        if state.mode == TEAM:
            return self._team_result(state, bool(success))
        return self._competitive_result(state, bool(success), removed)

    def _result_proposed(self, state: LaserState, ev: ResultProposed):
        """The camera's word on the demonstration: keep the result to confirm, ask."""
        if state.phase not in JUDGED:
            raise IllegalMove(f"there is no demonstration to judge during {state.phase}")
        if ev.success is None:
            return state, [AskHuman(ev.question)]
        new = replace(state, demo_result=(bool(ev.success), ev.removed))
        result = RoundResult(bool(ev.success), ev.removed)  # what "next" or a tap confirms
        return new, [AskHuman(ev.question, ("Confirm",), (result,))]

    def _end_round(self, state: LaserState, cues: list[Cue], summary: tuple[str, ...]):
        n = len(state.players)
        common = dict(
            round=state.round + 1,
            phase="reveal",
            cards=(),
            bids=(None,) * n,
            best=None,
            bid_log=(),
            candidates=(),
            mate=None,
            claimer=None,
            claim_right=None,
            board=None,
            proposed_board=None,
            proposal=None,
            demo_result=None,
            no_solution=False,
            last=summary,
            last_board=state.board,
            last_cards=state.cards,
            last_bid=(
                state.best[1]
                if state.best
                else (state.bids[state.active] if state.mode == TEAM else None)
            ),
        )
        if state.mode == TEAM:
            done = state.turns_done + 1
            over = done >= state.turns_each * n
            new = replace(
                state, turns_done=done, active=(state.active + 1) % n, over=over, **common
            )
        else:
            over = any(s >= WIN_POINTS for s in state.scores)
            new = replace(state, over=over, **common)
        if not over:
            cues = cues + [
                PhaseStarted("reveal", new.players[new.active] if new.mode == TEAM else None),
                Announce("Refill the colour cards, then reveal new prism cards."),
            ]
        return new, cues


GAME = LaserGame()

__all__ = [
    "GAME",
    "PROPOSAL_SLACK",
    "TEAM_BID_MAX",
    "TEAM_BID_MIN",
    "TILES",
    "WIN_POINTS",
    "LaserGame",
    "LaserState",
    "propose_removed",
]
