"""Colour Race rules: players roll in turn; red 1, yellow 2, blue 3 points; first to 10.
Each turn has a 30 s clock; when it runs out the turn passes. The camera may read the die
as it lands in its tray (camera.py): the roll of the player whose turn it is."""

from __future__ import annotations

from dataclasses import dataclass, replace

from companion import cues as c
from companion.errors import IllegalMove, UsageError
from companion.events import Event, TimerExpired, event
from companion.game import GameBase, GameConfig, ReaderSpec, TimerSpec

POINTS = {"red": 1, "yellow": 2, "blue": 3}
GOAL = 10
TURN_SECONDS = 30


@event("colour_race")
class Roll(Event):
    player: str
    colour: str


@event("colour_race")
class DieSeen(Event):
    """The camera saw the die land in its tray, this face up."""

    colour: str


@dataclass(frozen=True)
class RaceState:
    names: tuple[str, ...]
    points: tuple[int, ...]
    turn: int = 0  # turns played so far

    @property
    def current(self) -> str:
        return self.names[self.turn % len(self.names)]


class ColourRace(GameBase):
    name = "colour-race"
    title = "Colour Race"
    min_players = 2
    max_players = 4

    def initial_state(self, config: GameConfig) -> RaceState:
        n = len(config.players)
        if not self.min_players <= n <= self.max_players:
            raise UsageError(f"Colour Race is for 2-4 players, not {n}")
        return RaceState(tuple(config.players), (0,) * n)

    def apply(self, state: RaceState, ev: Event):
        if self.is_over(state):
            raise IllegalMove("the race is over")
        if isinstance(ev, TimerExpired):
            if ev.key != self.timer(state).key:
                raise IllegalMove("that clock is not running")
            return replace(state, turn=state.turn + 1), (c.TimeUp(ev.key),)
        if not isinstance(ev, Roll):
            raise IllegalMove(f"Colour Race does not use {type(ev).__name__}")
        if ev.player != state.current:
            raise IllegalMove(f"it is {state.current}'s turn")
        if ev.colour not in POINTS:
            raise IllegalMove(f"the die has no {ev.colour!r} face")
        seat = state.names.index(ev.player)
        points = list(state.points)
        points[seat] += POINTS[ev.colour]
        new = replace(state, points=tuple(points), turn=state.turn + 1)
        return new, (c.Scored(ev.player, POINTS[ev.colour]),)

    def legal_actions(self, state: RaceState):
        if self.is_over(state):
            return ()
        return tuple(Roll(state.current, colour) for colour in POINTS)

    def current_player(self, state: RaceState) -> str | None:
        return None if self.is_over(state) else state.current

    def scores(self, state: RaceState) -> dict[str, int]:
        return dict(zip(state.names, state.points, strict=True))

    def is_over(self, state: RaceState) -> bool:
        return max(state.points) >= GOAL

    def interpret(self, state: RaceState, reading: Event, memory):
        if isinstance(reading, DieSeen):  # the die read: the roll of whoever's turn it is
            return (
                (Roll(state.current, reading.colour),) if not self.is_over(state) else ()
            ), memory
        return (reading,), memory

    def readers(self, state: RaceState) -> tuple[ReaderSpec, ...]:
        return () if self.is_over(state) else (ReaderSpec("die", f"turn {state.turn}"),)

    def timer(self, state: RaceState) -> TimerSpec | None:
        if self.is_over(state):
            return None
        return TimerSpec(f"turn-{state.turn}", TURN_SECONDS, (10,))


GAME = ColourRace()
