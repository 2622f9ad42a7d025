"""Dice Golf rules: in turn, each player enters the strokes (1-9) the hole took them; after
three holes each the round is over and the fewest strokes win (GameBase.winners, since the
game declares lower_is_better)."""

from __future__ import annotations

from dataclasses import dataclass, replace

from companion import cues as c
from companion.errors import IllegalMove, UsageError
from companion.events import Event, event
from companion.game import GameBase, GameConfig

HOLES = 3
PAR = 3  # strokes per hole


@event("dice_golf")
class Holed(Event):
    player: str
    strokes: int


@dataclass(frozen=True)
class GolfState:
    names: tuple[str, ...]
    strokes: tuple[int, ...]
    turn: int = 0  # holes played so far, all players together

    @property
    def current(self) -> str:
        return self.names[self.turn % len(self.names)]


class DiceGolf(GameBase):
    name = "dice-golf"
    title = "Dice Golf"
    min_players = 1
    max_players = 4
    lower_is_better = True

    def initial_state(self, config: GameConfig) -> GolfState:
        n = len(config.players)
        if not self.min_players <= n <= self.max_players:
            raise UsageError(f"Dice Golf is for 1-4 players, not {n}")
        return GolfState(tuple(config.players), (0,) * n)

    def apply(self, state: GolfState, ev: Event):
        if self.is_over(state):
            raise IllegalMove("the round is over")
        if not isinstance(ev, Holed):
            raise IllegalMove(f"Dice Golf does not use {type(ev).__name__}")
        if ev.player != state.current:
            raise IllegalMove(f"it is {state.current}'s turn")
        if not 1 <= ev.strokes <= 9:
            raise IllegalMove("a hole takes 1-9 strokes")
        seat = state.names.index(ev.player)
        strokes = list(state.strokes)
        strokes[seat] += ev.strokes
        return replace(state, strokes=tuple(strokes), turn=state.turn + 1), (
            c.Scored(ev.player, ev.strokes),
        )

    def legal_actions(self, state: GolfState):
        if self.is_over(state):
            return ()
        return tuple(Holed(state.current, n) for n in range(1, 10))

    def current_player(self, state: GolfState) -> str | None:
        return None if self.is_over(state) else state.current

    def scores(self, state: GolfState) -> dict[str, int]:
        return dict(zip(state.names, state.strokes, strict=True))

    def is_over(self, state: GolfState) -> bool:
        return state.turn >= HOLES * len(state.names)


GAME = DiceGolf()
