"""The protocol every game implements, in the spirit of OpenSpiel's state interface.

A game is a module-level object with pure functions over frozen state. It never touches the
clock, the screen, pins or files: time reaches it as `TimerExpired` events, and what it wants
shown or sounded leaves it as cues.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol, runtime_checkable

from companion.cues import Cue
from companion.events import Event
from companion.timer import DEFAULT_WARNINGS


@dataclass(frozen=True)
class TimerSpec:
    """The countdown a state wants running. A new `key` means a new countdown."""

    key: str
    seconds: float
    warnings: tuple[int, ...] = DEFAULT_WARNINGS


@dataclass(frozen=True)
class ReaderSpec:
    """A camera reader a state wants running, e.g. ReaderSpec("balls", "round 3").

    Declared like a TimerSpec: the same key keeps the reader going; a new key starts it
    afresh (the tray was emptied for a new round); no spec pauses it.
    """

    kind: str
    key: str = ""
    colours: tuple[str, ...] = ()  # what the reader chooses among (the cards of the game)
    floors: tuple[str, ...] = ()  # patterns printed under a card's colour, read with it
    colour_set: str = ""  # which of the calibration's sets those colours are learnt in


@dataclass(frozen=True)
class GameConfig:
    """Everything needed to start a game: who sits where, options, and the random seed."""

    players: tuple[str, ...]
    options: Mapping[str, Any] = field(default_factory=dict)
    seed: int = 0
    teams: tuple[str | None, ...] | None = None


@runtime_checkable
class Game(Protocol):
    name: str  # stable id: "color-milk", "laser", "kritters", "elios", "node"
    title: str  # as printed on the box: "Color Milk"
    min_players: int
    max_players: int
    lower_is_better: bool  # the lowest score is best (Elios: the beams still in hand)

    def initial_state(self, config: GameConfig) -> Any:
        """The state before the first event. Raises UsageError for a bad config."""
        ...

    def apply(self, state: Any, event: Event) -> tuple[Any, Sequence[Cue]]:
        """The next state and the cues to show. Raises IllegalMove and changes nothing."""
        ...

    def legal_actions(self, state: Any) -> Sequence[Event]:
        """Events a person may enter now (sensor readings are accepted when they fit)."""
        ...

    def current_player(self, state: Any) -> str | None:
        """Whose turn it is, or None during simultaneous phases and at the end."""
        ...

    def scores(self, state: Any) -> Mapping[str, float]: ...

    def is_over(self, state: Any) -> bool: ...

    def winners(self, state: Any) -> tuple[str, ...]:
        """Everyone who shares the win; empty until the game is over."""
        ...

    def timer(self, state: Any) -> TimerSpec | None:
        """The countdown this state wants running, if any."""
        ...

    def describe(self, state: Any) -> str:
        """One line for people: the phase and whose turn it is."""
        ...

    def interpret(self, state: Any, reading: Event, memory: Any) -> tuple[Sequence[Event], Any]:
        """What a sensor reading means now: the events to submit (none for a repeat or a
        reading that is not this game's), and the sensor memory to keep for the next one.

        `memory` starts as None for every game in play and is kept by the runtime, so the
        game stays pure (e.g. Color Milk numbers the chute's balls within a round).
        """
        ...

    def readers(self, state: Any) -> Sequence[ReaderSpec]:
        """The camera readers this state wants running, like timer()."""
        ...

    def sim_pool(self, state: Any) -> Sequence[str]:
        """The balls the simulated table may drop now, each at most once (empty: any
        colour): a simulated mill never rolls out a ball the real one could not hold."""
        ...


class GameBase:
    """Sensible defaults for the optional parts of the protocol."""

    min_players = 1
    max_players = 10
    lower_is_better = False

    def legal_actions(self, state: Any) -> Sequence[Event]:
        return ()

    def current_player(self, state: Any) -> str | None:
        return None

    def timer(self, state: Any) -> TimerSpec | None:
        return None

    def winners(self, state: Any) -> tuple[str, ...]:
        """The best score wins (the highest, or the lowest where lower is better), ties
        shared; games with tie-breaks override this."""
        if not self.is_over(state):
            return ()
        scores = self.scores(state)
        if not scores:
            return ()
        best = (min if self.lower_is_better else max)(scores.values())
        return tuple(p for p, s in scores.items() if s == best)

    def describe(self, state: Any) -> str:
        player = self.current_player(state)
        return f"{player}'s turn" if player else ""

    def interpret(self, state: Any, reading: Event, memory: Any) -> tuple[Sequence[Event], Any]:
        """Readings count as they come: buttons, beam counts."""
        return (reading,), memory

    def readers(self, state: Any) -> Sequence[ReaderSpec]:
        return ()

    def sim_pool(self, state: Any) -> Sequence[str]:
        return ()

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {getattr(self, 'name', '?')}>"


@dataclass(frozen=True)
class Option:
    """A choice offered on the player set-up screen; stored in GameConfig.options[key].

    A game package lists its options as `OPTIONS = (Option(...), ...)` in its __init__.py.
    """

    key: str
    label: str
    choices: tuple[Any, ...]
    default: Any
    help: str = ""
