"""The game's clockwork: first player, turns, item piles, the end trigger, the finishing round,
score entry and the final ranking. Pure rules over frozen state.

The app does not see the cards; players tell it what they bought (so it counts the item
piles down) and when the kritter deck runs out. When an end condition is met, the round is
played out to the player on the first player's right, so everyone has had the same number of
turns; then each player enters their cards and the scorer finds their best score.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from companion import cues as cue
from companion.errors import IllegalMove, UsageError
from companion.events import ButtonPressed, Event, TimerExpired, event
from companion.game import GameBase, GameConfig, TimerSpec
from companion.games.kritters import score_input
from companion.games.kritters.scoring import Collection, Rules, Score, best_score
from companion.games.kritters.setup import Options, setup_for

ITEMS = ("paintbrush", "palette", "paint_bucket", "magic_wand")
CARDS = ("kritter", *ITEMS)
KRITTER_DECK = "kritter_deck"
PILES = (*ITEMS, KRITTER_DECK)
NEXT_BUTTON = "next"

# Events -----------------------------------------------------------------------------------


@event("kritters")
class FirstPlayer(Event):
    """Who takes the First Player card (the youngest player decides)."""

    player: str


@event("kritters")
class Bought(Event):
    """The player whose turn it is bought a card: kritter, paintbrush, palette, ..."""

    card: str


@event("kritters")
class PileEmpty(Event):
    """A pile ran out: the kritter deck, or (as a correction) an item pile."""

    pile: str


@event("kritters")
class CardRemoved(Event):
    """Solo: the top card of an item pile left the game without being bought."""

    pile: str


@event("kritters")
class TurnDone(Event):
    """The player whose turn it is has discarded and refilled; pass clockwise."""


@event("kritters")
class AgreeToEnd(Event):
    """Junior: the players agree to finish before the decks are empty."""


@event("kritters")
class ScoreEntered(Event):
    """One player's cards at the end; the app finds the best score for them."""

    player: str
    cyan: int = 0
    magenta: int = 0
    yellow: int = 0
    wild: int = 0
    point_kritters: tuple[tuple[str, int], ...] = ()  # (colour, points)
    paintbrushes: int = 0
    palettes: int = 0
    paint_buckets: int = 0

    def document(self) -> dict[str, Any]:
        return {
            "cyan": self.cyan,
            "magenta": self.magenta,
            "yellow": self.yellow,
            "wild": self.wild,
            "paintbrushes": self.paintbrushes,
            "palettes": self.palettes,
            "paint_buckets": self.paint_buckets,
            "point_kritters": [{"colour": c, "points": p} for c, p in self.point_kritters],
        }


# State ---------------------------------------------------------------------------------------


@dataclass(frozen=True)
class PlayerScore:
    player: str
    cards: Collection
    total: int
    explanation: tuple[str, ...]


@dataclass(frozen=True)
class KrittersState:
    players: tuple[str, ...]
    options: Options
    piles: tuple[tuple[str, int], ...]  # cards left in each pile (the kritter deck: 1 or 0)
    phase: str = "setup"  # setup -> play -> scoring -> over
    first: int = 0  # seat holding the First Player card
    turn: int = 0  # turns started so far minus one: the current turn's number from 0
    bought: tuple[str, ...] = ()  # this turn's purchases
    end_reason: str | None = None  # why the last round was called
    last_turn: int | None = None  # the turn after which play stops
    time_up: bool = False  # this turn's countdown already ran out
    results: tuple[PlayerScore, ...] = ()

    def pile(self, name: str) -> int:
        return dict(self.piles)[name]

    @property
    def seat(self) -> int:
        return (self.first + self.turn) % len(self.players)

    @property
    def round(self) -> int:
        return self.turn // len(self.players) + 1

    def result(self, player: str) -> PlayerScore | None:
        return next((r for r in self.results if r.player == player), None)


# Rules ---------------------------------------------------------------------------------------


def _end_reason(state: KrittersState) -> str | None:
    """Which end condition the piles now meet, if any."""
    if state.pile(KRITTER_DECK) == 0:
        return "the kritter deck is empty"
    if state.options.junior:
        return None
    empty = [p for p in ("paintbrush", "palette", "paint_bucket") if state.pile(p) == 0]
    if state.options.more_points:
        if len(empty) >= 2:
            return f"the {' and '.join(p.replace('_', ' ') for p in empty[:2])} piles are empty"
        return None
    if "paintbrush" in empty and "palette" in empty:
        return "the paintbrush and palette piles are empty"
    return None


def ranking(state: KrittersState) -> list[tuple[int, str, int]]:
    """(place, player, score), best first; equal scores share a place (1, 1, 3)."""
    rows = sorted(state.results, key=lambda r: -r.total)
    out: list[tuple[int, str, int]] = []
    for i, r in enumerate(rows):
        place = out[-1][0] if out and out[-1][2] == r.total else i + 1
        out.append((place, r.player, r.total))
    return out


class Kritters(GameBase):
    name = "kritters"
    title = "Colour MY Kritters"
    min_players = 1
    max_players = 12

    # set-up --------------------------------------------------------------------------
    def initial_state(self, config: GameConfig) -> KrittersState:
        players = tuple(config.players)
        if len(set(players)) != len(players) or any(not str(p).strip() for p in players):
            raise UsageError("every player needs a different, non-empty name")
        opts = Options.parse(config.options, len(players))
        s = setup_for(len(players), opts)
        piles = (
            ("paintbrush", s.paintbrushes),
            ("palette", s.palettes),
            ("paint_bucket", s.paint_buckets),
            ("magic_wand", s.magic_wands),
            (KRITTER_DECK, 1),
        )
        return KrittersState(players=players, options=opts, piles=piles)

    def setup(self, state: KrittersState):
        return setup_for(len(state.players), state.options)

    def scoring_rules(self, state: KrittersState) -> Rules:
        return Rules(state.options.variant, state.options.triad_bonus)

    # events ------------------------------------------------------------------------------
    def apply(self, state: KrittersState, ev: Event) -> tuple[KrittersState, Sequence[cue.Cue]]:
        handler = {
            FirstPlayer: self._first_player,
            Bought: self._bought,
            PileEmpty: self._pile_empty,
            CardRemoved: self._card_removed,
            TurnDone: self._turn_done,
            AgreeToEnd: self._agree_to_end,
            ScoreEntered: self._score_entered,
            TimerExpired: self._timer_expired,
            ButtonPressed: self._button,
        }.get(type(ev))
        if handler is None:
            raise IllegalMove(f"Colour MY Kritters does not use {type(ev).__name__} events")
        return handler(state, ev)

    def _need(self, state: KrittersState, phase: str, what: str) -> None:
        if state.phase != phase:
            when = {
                "setup": "before the first turn",
                "play": "during play",
                "scoring": "at the end of the game",
                "over": "after the game",
            }[phase]
            raise IllegalMove(f"{what} only {when}; now: {self.describe(state)}")

    def _first_player(self, state, ev: FirstPlayer):
        self._need(state, "setup", "The first player is chosen")
        if ev.player not in state.players:
            raise IllegalMove(f"{ev.player!r} is not playing")
        new = replace(state, phase="play", first=state.players.index(ev.player))
        return new, [
            cue.Announce(f"{ev.player} takes the First Player card"),
            cue.PhaseStarted("turn", ev.player),
        ]

    def _bought(self, state, ev: Bought):
        self._need(state, "play", "Cards are bought")
        if ev.card not in CARDS:
            raise IllegalMove(f"unknown card {ev.card!r} (one of: {', '.join(CARDS)})")
        self._check_purchase(state, ev.card)
        piles = state.piles
        if ev.card in ITEMS:
            piles = tuple((p, n - (p == ev.card)) for p, n in piles)
        new = replace(state, piles=piles, bought=state.bought + (ev.card,))
        return self._maybe_end(new, [])

    def _check_purchase(self, state: KrittersState, card: str) -> None:
        if card in ("paintbrush", "palette") and state.options.junior:
            raise IllegalMove("Junior games use no paintbrushes or palettes")
        if card == "paint_bucket" and not state.options.more_points:
            raise IllegalMove(
                "paint buckets come with the More Points expansion, which this game does not use"
            )
        if card in ITEMS and state.pile(card) == 0:
            raise IllegalMove(f"the {card.replace('_', ' ')} pile is empty")
        limit = 2 if state.options.double_purchase else 1
        if len(state.bought) >= limit:
            raise IllegalMove(
                f"{self.current_player(state)} already bought "
                f"{' and '.join(state.bought)} this turn"
            )
        if state.bought and (card in ITEMS and any(b in ITEMS for b in state.bought)):
            raise IllegalMove(
                "a double purchase is 2 kritters or 1 kritter and 1 item, never 2 items"
            )

    def _pile_empty(self, state, ev: PileEmpty):
        self._need(state, "play", "Piles run out")
        if ev.pile not in PILES:
            raise IllegalMove(f"unknown pile {ev.pile!r} (one of: {', '.join(PILES)})")
        if state.pile(ev.pile) == 0:
            raise IllegalMove(f"the {ev.pile.replace('_', ' ')} is already empty")
        piles = tuple((p, 0 if p == ev.pile else n) for p, n in state.piles)
        return self._maybe_end(replace(state, piles=piles), [])

    def _card_removed(self, state, ev: CardRemoved):
        self._need(state, "play", "Cards are removed")
        if ev.pile not in ("paintbrush", "palette"):
            raise IllegalMove("only paintbrush and palette cards are removed from their piles")
        if len(state.players) != 1:
            raise IllegalMove("cards leave the item piles unbought only in solo games")
        if state.pile(ev.pile) == 0:
            raise IllegalMove(f"the {ev.pile} pile is already empty")
        piles = tuple((p, n - (p == ev.pile)) for p, n in state.piles)
        return self._maybe_end(replace(state, piles=piles), [])

    def _agree_to_end(self, state, ev: AgreeToEnd):
        self._need(state, "play", "The players agree to finish")
        if not state.options.junior:
            raise IllegalMove("only Junior games may finish early by agreement")
        if state.end_reason:
            raise IllegalMove(f"this is already the last round ({state.end_reason})")
        return self._call_last_round(state, "the players agreed to finish", [])

    def _maybe_end(self, state: KrittersState, cues: list) -> tuple[KrittersState, list]:
        if state.end_reason is None:
            reason = _end_reason(state)
            if reason:
                return self._call_last_round(state, reason, cues)
        return state, cues

    def _call_last_round(self, state: KrittersState, reason: str, cues: list):
        n = len(state.players)
        last = (state.turn // n) * n + n - 1  # the player on the first player's right
        final = state.players[(state.first + last) % n]
        new = replace(state, end_reason=reason, last_turn=last)
        text = (
            f"Last round: {reason}. The game ends after {final}'s turn"
            if final != self.current_player(state)
            else f"Last turn: {reason}. The game ends after this turn"
        )
        return new, [*cues, cue.Announce(text)]

    def _turn_done(self, state, ev):
        self._need(state, "play", "Turns end")
        if state.last_turn is not None and state.turn >= state.last_turn:
            return replace(state, phase="scoring", bought=(), time_up=False), [
                cue.PhaseStarted("scoring"),
                cue.AskHuman("Everyone: enter your cards to find your best score"),
            ]
        new = replace(state, turn=state.turn + 1, bought=(), time_up=False)
        player = self.current_player(new)
        cues: list[cue.Cue] = [cue.PhaseStarted("turn", player)]
        if new.last_turn is not None and new.turn == new.last_turn:
            cues.append(cue.Announce(f"{player} plays the last turn"))
        return new, cues

    def _button(self, state, ev: ButtonPressed):
        if ev.button != NEXT_BUTTON:
            raise IllegalMove(f"the {ev.button!r} button does nothing in Colour MY Kritters")
        if state.phase != "play":
            raise IllegalMove(
                f"the next button passes the turn during play; now: {self.describe(state)}"
            )
        return self._turn_done(state, TurnDone())

    def _timer_expired(self, state, ev: TimerExpired):
        spec = self.timer(state)
        if spec is None or ev.key != spec.key:
            raise IllegalMove(f"no countdown {ev.key!r} is running")
        player = self.current_player(state)
        return replace(state, time_up=True), [
            cue.TimeUp(ev.key),
            cue.Announce(f"{player}: time is up"),
        ]

    def _score_entered(self, state, ev: ScoreEntered):
        self._need(state, "scoring", "Scores are entered")
        if ev.player not in state.players:
            raise IllegalMove(f"{ev.player!r} is not playing")
        try:
            try:
                doc = ev.document()
            except (TypeError, ValueError):
                raise UsageError("point kritters are (colour, points) pairs") from None
            doc.update(variant=state.options.variant, triad_bonus=state.options.triad_bonus)
            col, rules = score_input.parse(doc)
        except UsageError as exc:
            raise IllegalMove(f"{ev.player}: {exc}") from None
        if not state.options.more_points:
            if col.paint_buckets:
                raise IllegalMove(
                    "paint buckets come with the More Points expansion, "
                    "which this game does not use"
                )
            odd = [p.points for p in col.point_kritters if p.points not in (3, 4, 5)]
            if odd:
                raise IllegalMove(
                    f"point kritters worth {odd[0]} come with the More Points "
                    "expansion, which this game does not use"
                )
        score: Score = best_score(col, rules)
        entry = PlayerScore(ev.player, col, score.total, score.explanation)
        results = tuple(r for r in state.results if r.player != ev.player) + (entry,)
        results = tuple(sorted(results, key=lambda r: state.players.index(r.player)))
        new = replace(state, results=results)
        cues: list[cue.Cue] = [cue.Scored(ev.player, score.total)]
        if len(results) == len(state.players):
            new = replace(new, phase="over")
            cues.extend(self._final_cues(new))
        return new, cues

    def _final_cues(self, state: KrittersState) -> list[cue.Cue]:
        if len(state.players) == 1:
            total = state.results[0].total
            best = state.options.solo_best
            if best is None:
                return [cue.Announce(f"Solo score: {total}. Beat it next time!")]
            if total > best:
                return [cue.Announce(f"New best solo score: {total} (was {best})!")]
            return [cue.Announce(f"Solo score: {total}; your best is {best}")]
        top = [p for place, p, _ in ranking(state) if place == 1]
        return [cue.Announce(" and ".join(top) + (" share the win" if len(top) > 1 else " wins"))]

    # reading ---------------------------------------------------------------------------
    def legal_actions(self, state: KrittersState) -> Sequence[Event]:
        if state.phase == "setup":
            return tuple(FirstPlayer(p) for p in state.players)
        if state.phase != "play":
            return ()
        out: list[Event] = [TurnDone()]
        for card in CARDS:
            try:
                self._check_purchase(state, card)
            except IllegalMove:
                continue
            out.append(Bought(card))
        out.extend(PileEmpty(p) for p in PILES if p == KRITTER_DECK and state.pile(p))
        if state.options.junior and not state.end_reason:
            out.append(AgreeToEnd())
        return tuple(out)

    def current_player(self, state: KrittersState) -> str | None:
        return state.players[state.seat] if state.phase == "play" else None

    def scores(self, state: KrittersState) -> dict[str, int]:
        got = {r.player: r.total for r in state.results}
        return {p: got.get(p, 0) for p in state.players}

    def is_over(self, state: KrittersState) -> bool:
        return state.phase == "over"

    def timer(self, state: KrittersState) -> TimerSpec | None:
        seconds = state.options.turn_timer
        if state.phase != "play" or not seconds or state.time_up:
            return None
        return TimerSpec(f"turn-{state.turn}", seconds)

    def describe(self, state: KrittersState) -> str:
        if state.phase == "setup":
            return "set-up: choose who takes the First Player card"
        if state.phase == "play":
            last = ", last round" if state.end_reason else ""
            return f"round {state.round}{last}: {self.current_player(state)}'s turn"
        if state.phase == "scoring":
            return f"scoring: {len(state.results)} of {len(state.players)} players entered"
        places = ranking(state)
        top = [p for place, p, _ in places if place == 1]
        return f"game over: {' and '.join(top)} with {places[0][2]}"
