"""Laser's rules: phases, clocks, bids, teams, scoring and the Impossible! challenge.

Team mode:        reveal -> planning (30 s) -> bids -> [choosing] -> mixing (30 s) -> [verdict]
Competitive mode: reveal -> thinking -> bidding (30 s from the first bid) -> demonstration
                  (30 s) -> [verdict]
Impossible!:      (planning / bids / thinking / bidding) -> challenge (30 s counter-bids)
                  -> proof (30 s) -> [proof-verdict] -> [who]
Bracketed phases wait for people: a verdict after the clock ran out, the active player's
pick between equally close bidders, the name of whoever grabbed the cat.
Learning mode doubles every clock to 60 s.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from companion.cues import Announce, AskHuman, Cue, PhaseStarted, Scored, TimeUp
from companion.errors import IllegalMove, UsageError
from companion.events import ButtonPressed, CardSeen, Event, TimerExpired
from companion.game import GameBase, GameConfig, TimerSpec

from .board import (
    COLOURS,
    COMPETITIVE,
    FLOORS,
    MODES,
    TEAM,
    TILES,
    Card,
    Position,
    colour_index,
    floor_index,
)
from .events import (
    BidPlaced,
    BoardEntered,
    CardRevealed,
    ClaimerNamed,
    ImpossibleClaimed,
    RoundResult,
    TeammateChosen,
)

WIN_POINTS = 15  # competitive: first to 15 wins at once
X_LIMIT = 3  # every third X becomes -6
X_PENALTY = -6
IMPOSSIBLE_POINTS = 10  # team mode
TEAM_BID_MIN, TEAM_BID_MAX = 2, 10
MAX_BID = 99
CARD_CONFIDENCE = 0.7  # camera readings below this ask a person

TIMED = {"planning", "bidding", "mixing", "demonstration", "challenge", "proof"}
CLAIM_PHASES = {"planning", "bids", "thinking", "bidding"}


@dataclass(frozen=True)
class LaserState:
    mode: str
    players: tuple[str, ...]
    learning: bool = False
    phase_seconds: int = 30  # the table setting; learning mode doubles it
    n_cards: int = 2
    turns_each: int = 3  # team mode: active turns per player
    scores: tuple[int, ...] = ()
    xs: tuple[int, ...] = ()  # competitive: X marks since the last -6
    penalties: tuple[int, ...] = ()  # competitive: how many -6 each player took
    round: int = 1
    active: int = 0  # team mode: seat of the active player
    turns_done: int = 0
    phase: str = "reveal"
    cards: tuple[tuple[str, str | None], ...] = ()
    bids: tuple[int | None, ...] = ()  # team mode: this round's bids by seat
    best: tuple[int, int] | None = None  # (seat, bid): lowest competitive bid / counter-bid
    bid_log: tuple[tuple[int, int], ...] = ()  # accepted bids in order
    candidates: tuple[int, ...] = ()  # team: equally close bidders for the active player
    mate: int | None = None
    claimer: int | None = None
    claim_right: bool | None = None  # outcome waiting for the claimer's name
    board: tuple | None = None  # (tiles, floors, cat, supply) entered this round
    proposal: int | None = None  # solver's removed-figure count for the demonstrated bid
    serial: int = 0  # bumps on every timed phase: timer keys are unique per phase instance
    over: bool = False
    last: tuple[str, ...] = ()  # what happened in the previous round, for people
    last_board: tuple | None = None
    last_cards: tuple[tuple[str, str | None], ...] = ()
    last_bid: int | None = None
    ask_threshold: float = CARD_CONFIDENCE  # camera readings below this ask a person


def _players_check(config: GameConfig, mode: str) -> None:
    n = len(config.players)
    if len(set(config.players)) != n:
        raise UsageError("player names must be different")
    if mode == TEAM and not 3 <= n <= 10:
        raise UsageError("team mode needs 3-10 players (2 players: competitive mode)")
    if mode == COMPETITIVE and not 2 <= n <= 10:
        raise UsageError("Laser is for 2-10 players")


class LaserGame(GameBase):
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

    def position(self, state: LaserState, board=None, cards=None) -> Position | None:
        """The entered board with this round's cards as a solver position, if complete."""
        board = state.board if board is None else board
        cards = state.cards if cards is None else cards
        if board is None or not cards:
            return None
        tiles, floors, cat, supply = board
        return Position(
            state.mode,
            tuple(None if t is None else COLOURS.index(t) for t in tiles),
            cat,
            tuple(supply),
            tuple(Card(COLOURS.index(c), None if f is None else FLOORS.index(f)) for c, f in cards),
            None if floors is None else tuple(FLOORS.index(f) for f in floors),
        )

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
            lo, hi = (
                (TEAM_BID_MIN, TEAM_BID_MAX)
                if (ph == "challenge" and state.mode == TEAM)
                else (1, 20)
            )
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
                out += [RoundResult(True, n) for n in range(1, 17)]
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

    # cards and board ------------------------------------------------------------------
    def _card_seen(self, state: LaserState, ev: CardSeen):
        zone = ev.zone.lower()
        if not (zone.startswith("centre") or zone.startswith("center")):
            raise IllegalMove(f"Laser reads cards in the centre, not in {ev.zone!r}")
        floor = zone.split(":", 1)[1] if ":" in zone else None
        if ev.confidence < state.ask_threshold:
            return state, [
                AskHuman(f"Is this prism card {ev.colour}? Tap the right colour.", COLOURS)
            ]
        if state.mode == COMPETITIVE and floor is None:
            return state, [AskHuman(f"Which floor is on the {ev.colour} card?", FLOORS)]
        return self._reveal(state, ev.colour, floor)

    def _reveal(self, state: LaserState, colour: str, floor: str | None):
        if state.phase != "reveal":
            raise IllegalMove(f"all {state.n_cards} prism cards are already revealed")
        try:
            colour = COLOURS[colour_index(colour)]
            if state.mode == COMPETITIVE:
                if floor is None:
                    raise IllegalMove("a competitive prism card needs its floor")
                floor = FLOORS[floor_index(floor)]
            else:
                floor = None
        except UsageError as exc:
            raise IllegalMove(str(exc)) from None
        card = (colour, floor)
        if state.cards.count(card) >= 2:
            label = colour if floor is None else f"{colour} on {floor}"
            raise IllegalMove(f"the deck has only two {label} cards")
        cards = state.cards + (card,)
        label = colour if floor is None else f"{colour} on {floor}"
        cues: list[Cue] = [Announce(f"Prism card: {label}")]
        if len(cards) < state.n_cards:
            return replace(state, cards=cards), cues
        if state.mode == TEAM:
            new = self._timed(state, "planning", cards=cards)
            cues += [self._started(new, new.active), Announce("Plan in silence. No touching!")]
        else:
            new = replace(state, phase="thinking", cards=cards)
            cues += [self._started(new), Announce("First idea? Say your number of steps.")]
        return new, cues

    def _board(self, state: LaserState, ev: BoardEntered):
        if state.phase in ("who",):
            raise IllegalMove("name who grabbed the cat first")
        floors = ev.floors
        if state.mode == TEAM:
            floors = None
        board = (
            tuple(ev.tiles),
            None if floors is None else tuple(floors),
            ev.cat,
            tuple(ev.supply),
        )
        try:
            pos_cards = state.cards or (("red", None if state.mode == TEAM else "wood"),)
            self.position(state, board, pos_cards)
            for t in ev.tiles:
                if t is not None and t not in COLOURS:
                    raise UsageError(f"unknown colour {t!r}")
        except (UsageError, ValueError, TypeError) as exc:
            raise IllegalMove(f"that board cannot be right: {exc}") from None
        return replace(state, board=board), [Announce("Board saved for the referee.")]

    # claims ---------------------------------------------------------------------------
    def _claim(self, state: LaserState, player: str | None):
        if state.phase not in CLAIM_PHASES:
            raise IllegalMove(
                "Impossible! can be called once the cards are revealed, before anyone mixes"
            )
        seat = None if player is None else self._seat(state, player)
        new = self._timed(state, "challenge", claimer=seat, best=None, bid_log=())
        who = player or "Someone"
        cues: list[Cue] = [
            self._started(new, seat),
            Announce(f"{who} says Impossible! Others: bid steps to prove it wrong."),
        ]
        if seat is None:
            cues.append(AskHuman("Who grabbed the cat?", state.players))
        return new, cues

    def _name_claimer(self, state: LaserState, player: str):
        seat = self._seat(state, player)
        if state.phase not in ("challenge", "proof", "proof-verdict", "who"):
            raise IllegalMove("there is no Impossible! claim to name")
        if state.claimer is not None and state.phase != "who":
            raise IllegalMove(f"{state.players[state.claimer]} already claimed Impossible!")
        if state.best is not None and state.best[0] == seat:
            raise IllegalMove(f"{player} bid against the claim and cannot be the claimer")
        new = replace(state, claimer=seat)
        if state.phase == "who":
            return self._settle_claim(new, state.claim_right, [])
        return new, [Announce(f"{player} grabbed the cat.")]

    def _settle_claim(self, state: LaserState, right: bool, cues: list[Cue]):
        if state.claimer is None:
            new = replace(state, phase="who", claim_right=right)
            return new, cues + [AskHuman("Who grabbed the cat?", state.players)]
        claimer = state.claimer
        name = state.players[claimer]
        scores, xs, pens = list(state.scores), list(state.xs), list(state.penalties)
        if right:
            cues.append(Announce(f"{name} was right: it is impossible."))
        else:
            cues.append(Announce(f"{name} was wrong: it can be done."))
        if state.mode == TEAM:
            gainers = [claimer] if right else [i for i in range(len(scores)) if i != claimer]
            for i in gainers:
                scores[i] += IMPOSSIBLE_POINTS
                cues.append(Scored(state.players[i], IMPOSSIBLE_POINTS))
            summary = (
                f"Impossible! by {name}: "
                + ("right, +10" if right else "wrong, everyone else +10"),
            )
        else:
            takers = [i for i in range(len(scores)) if i != claimer] if right else [claimer]
            for i in takers:
                cues += _take_x(state.players, i, scores, xs, pens)
            summary = (
                f"Impossible! by {name}: "
                + ("right, everyone else takes an X" if right else "wrong, takes an X"),
            )
        new = replace(
            state, scores=tuple(scores), xs=tuple(xs), penalties=tuple(pens), claim_right=None
        )
        return self._end_round(new, cues, summary)

    # bids ----------------------------------------------------------------------------
    def _bid_button(self, state: LaserState):
        if state.mode != COMPETITIVE or state.phase != "thinking":
            raise IllegalMove(
                "the bid button starts the clock in competitive mode, before the first bid"
            )
        new = self._timed(state, "bidding", best=None, bid_log=())
        return new, [self._started(new), AskHuman("Who bid, and how many steps?", ())]

    def _bid(self, state: LaserState, player: str, bid: int):
        seat = self._seat(state, player)
        if not isinstance(bid, int) or isinstance(bid, bool):
            raise IllegalMove("a bid is a whole number of steps")
        ph = state.phase
        if ph == "bids":
            if not TEAM_BID_MIN <= bid <= TEAM_BID_MAX:
                raise IllegalMove(f"team bids are {TEAM_BID_MIN}-{TEAM_BID_MAX} steps")
            bids = list(state.bids)
            bids[seat] = bid
            new = replace(state, bids=tuple(bids))
            if any(b is None for b in bids):
                return new, []
            return self._form_team(new)
        if not 1 <= bid <= MAX_BID:
            raise IllegalMove(f"a bid is 1-{MAX_BID} steps")
        if ph == "thinking":
            new = self._timed(state, "bidding", best=(seat, bid), bid_log=((seat, bid),))
            return new, [
                self._started(new, seat),
                Announce(f"{player} bids {bid}. Anyone lower? 30 seconds!"),
            ]
        if ph == "bidding":
            if state.best is not None and bid >= state.best[1]:
                raise IllegalMove(f"only bids below {state.best[1]} count now")
            new = replace(state, best=(seat, bid), bid_log=state.bid_log + ((seat, bid),))
            return new, [Announce(f"{player} bids {bid}.")]
        if ph == "challenge":
            if seat == state.claimer:
                raise IllegalMove(f"{player} claimed Impossible! and cannot bid against it")
            if state.mode == TEAM and not TEAM_BID_MIN <= bid <= TEAM_BID_MAX:
                raise IllegalMove(f"team bids are {TEAM_BID_MIN}-{TEAM_BID_MAX} steps")
            if state.best is not None and bid >= state.best[1]:
                raise IllegalMove(f"only bids below {state.best[1]} count now")
            new = replace(state, best=(seat, bid), bid_log=state.bid_log + ((seat, bid),))
            return new, [Announce(f"{player} says it can be done in {bid}.")]
        if ph == "planning":
            raise IllegalMove("bids are shown together when the planning time is over")
        raise IllegalMove(f"no bids are taken during {ph}")

    def _to_bids(self, state: LaserState, cues: list[Cue]):
        new = replace(state, phase="bids", bids=(None,) * len(state.players))
        return new, cues + [self._started(new), Announce("One, two, three: show your bids!")]

    def _form_team(self, state: LaserState):
        a = state.active
        mine = state.bids[a]
        gaps = {i: abs(b - mine) for i, b in enumerate(state.bids) if i != a}
        closest = min(gaps.values())
        cands = tuple(i for i in sorted(gaps) if gaps[i] == closest)
        if len(cands) == 1:
            return self._start_mixing(replace(state, candidates=cands), cands[0])
        new = replace(state, phase="choosing", candidates=cands)
        names = tuple(state.players[i] for i in cands)
        return new, [
            self._started(new, a),
            AskHuman(f"{state.players[a]}: choose your teammate", names),
        ]

    def _choose(self, state: LaserState, player: str):
        if state.phase != "choosing":
            raise IllegalMove("there is no teammate to choose now")
        seat = self._seat(state, player)
        if seat not in state.candidates:
            names = ", ".join(state.players[i] for i in state.candidates)
            raise IllegalMove(f"{player}'s bid is not among the closest (choose from {names})")
        return self._start_mixing(state, seat)

    def _start_mixing(self, state: LaserState, mate: int):
        new = self._timed(state, "mixing", mate=mate)
        a, bid = state.players[state.active], state.bids[state.active]
        return new, [
            self._started(new, state.active),
            Announce(
                f"{a} and {state.players[mate]}: exactly {bid} steps, {a} starts. No talking!"
            ),
        ]

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

    def _start_demo(self, state: LaserState, seat: int, bid: int, cues: list[Cue]):
        proposal = None
        pos = self.position(state)
        if pos is not None:
            proposal = propose_removed(pos, bid)
        new = self._timed(state, "demonstration", proposal=proposal)
        name = state.players[seat]
        cues = cues + [self._started(new, seat), Announce(f"{name}: show it in {bid} steps!")]
        if proposal is not None:
            cues.append(AskHuman(f"{name} removes how many figures?", (str(proposal),)))
        return new, cues

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

    def _team_result(self, state: LaserState, success: bool):
        a, mate, bid = state.active, state.mate, state.bids[state.active]
        scores = list(state.scores)
        cues: list[Cue] = []
        if success:
            gainers = [a, mate]
            text = f"{state.players[a]} and {state.players[mate]} did it in {bid}: +{bid} each"
        else:
            gainers = [i for i in range(len(scores)) if i not in (a, mate)]
            text = f"{state.players[a]} and {state.players[mate]} failed: others +{bid}"
        for i in gainers:
            scores[i] += bid
            cues.append(Scored(state.players[i], bid))
        return self._end_round(replace(state, scores=tuple(scores)), cues, (text,))

    def _competitive_result(self, state: LaserState, success: bool, removed: int | None):
        seat, bid = state.best
        name = state.players[seat]
        scores, xs, pens = list(state.scores), list(state.xs), list(state.penalties)
        cues: list[Cue] = []
        if success:
            if removed is None:
                removed = state.proposal
            if removed is None:
                raise IllegalMove("enter how many figures were removed")
            if (
                not isinstance(removed, int)
                or isinstance(removed, bool)
                or not (1 <= removed <= 24)
            ):
                raise IllegalMove("removed figures must be a whole number 1-24")
            scores[seat] += removed
            cues.append(Scored(name, removed))
            text = f"{name} did it in {bid}: +{removed} (figures removed)"
        else:
            cues += _take_x(state.players, seat, scores, xs, pens)
            text = f"{name} failed {bid}: X"
        new = replace(state, scores=tuple(scores), xs=tuple(xs), penalties=tuple(pens))
        return self._end_round(new, cues, (text,))

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
            proposal=None,
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


PROPOSAL_SLACK = 3  # bids this far above the optimum still get a proposal (time grows fast)


def propose_removed(pos: Position, bid: int) -> int | None:
    """The most figures a solution of exactly `bid` steps removes, when the solver can say
    quickly: at the optimum (one A* search) or up to PROPOSAL_SLACK above it."""
    from .solver import max_removed_for, solve

    sol = solve(pos, totals=False)
    if sol.min_cost is None or bid < sol.min_cost or bid > sol.min_cost + PROPOSAL_SLACK:
        return None
    if bid == sol.min_cost:
        return sol.max_removed
    return max_removed_for(pos, bid)


def _take_x(players, seat: int, scores: list[int], xs: list[int], pens: list[int]) -> list[Cue]:
    """One X for `seat`; the third becomes -6 and the count starts again."""
    xs[seat] += 1
    if xs[seat] >= X_LIMIT:
        xs[seat] = 0
        pens[seat] += 1
        scores[seat] += X_PENALTY
        return [Announce(f"{players[seat]}: third X, -6 instead"), Scored(players[seat], X_PENALTY)]
    return [Announce(f"{players[seat]} takes an X ({xs[seat]} of {X_LIMIT})")]


GAME = LaserGame()

__all__ = ["GAME", "LaserGame", "LaserState", "TILES"]
