"""A deliberately tiny game used to exercise the engine core without any real game's rules:
players take turns adding 1-3 points; a phase timer runs each turn; first to 10 wins."""

from __future__ import annotations

from dataclasses import dataclass, replace

from companion.cues import Scored
from companion.errors import IllegalMove
from companion.events import Event, TimerExpired, event
from companion.game import GameBase, GameConfig, TimerSpec
from companion.players import Seating


@event("tally")
class Add(Event):
    player: str
    points: int


@dataclass(frozen=True)
class TallyState:
    seating: Seating
    points: tuple[int, ...]
    turn: int = 0
    timeouts: int = 0


class Tally(GameBase):
    name = "tally"
    title = "Tally"
    min_players, max_players = 1, 4

    def initial_state(self, config: GameConfig) -> TallyState:
        seating = Seating.of(config.players)
        return TallyState(seating, (0,) * len(seating))

    def current_player(self, state):
        return (
            None
            if self.is_over(state)
            else state.seating.players[state.turn % len(state.seating)].name
        )

    def apply(self, state, ev):
        if self.is_over(state):
            raise IllegalMove("the game is over")
        if isinstance(ev, TimerExpired):
            return replace(state, turn=state.turn + 1, timeouts=state.timeouts + 1), ()
        if not isinstance(ev, Add):
            raise IllegalMove(f"Tally has no {type(ev).__name__}")
        if ev.player != self.current_player(state):
            raise IllegalMove(f"it is {self.current_player(state)}'s turn, not {ev.player}'s")
        if not 1 <= ev.points <= 3:
            raise IllegalMove("add 1, 2 or 3 points")
        seat = state.seating.index(ev.player)
        points = list(state.points)
        points[seat] += ev.points
        return replace(state, points=tuple(points), turn=state.turn + 1), (
            Scored(ev.player, ev.points),
        )

    def legal_actions(self, state):
        p = self.current_player(state)
        return () if p is None else tuple(Add(p, n) for n in (1, 2, 3))

    def scores(self, state):
        return dict(zip(state.seating.names, state.points, strict=True))

    def is_over(self, state):
        return max(state.points) >= 10

    def timer(self, state):
        return None if self.is_over(state) else TimerSpec(f"turn-{state.turn}", 20, (10, 5))


TALLY = Tally()
