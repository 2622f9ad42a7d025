"""Color Milk's game state: the players' sheets, the mill and this round's tray, and the
numbers the rules fix."""

from __future__ import annotations

from dataclasses import dataclass, replace

from companion import cues as c
from companion.errors import IllegalMove
from companion.games.color_milk.mill import BALLS_PER_ROUND, COLOURS, FULL_MILL, counts_of, minus
from companion.players import PLAYER_MARKERS

READING_PHASES = ("predict", "mill", "check")
# Prediction cards lie face down until all five balls are out: until then the screen shows no
# player's cards (nor their odds) but those being tapped in.
SECRET_PHASES = ("predict", "mill")
AUTHORITATIVE = 1.0  # a tap on the screen; the camera reports less than certainty
SENSOR_MAX = 0.999  # sensor readings are capped here, so only a person is ever certain
DEFAULT_ASK_THRESHOLD = 0.8
DEFAULT_FAILED_PENCIL_EVERY = 3  # guess: the track's artwork is not in the rulebook text
OWN_OPTIONS = {"board", "ask_threshold", "failed_pencil_every", "first_leader"}
TABLE_WIDE_OPTIONS = {"learning", "turn_timer", "phase_seconds"}  # Color Milk has no timer


@dataclass(frozen=True)
class PlayerState:
    name: str
    coins: int = 0
    pencils: int = 0  # bonus pencils circled
    used: int = 0  # ... crossed out by use
    lost: int = 0  # ... crossed out by the warriors
    failed: int = 0  # failed-prediction icons circled
    zone_done: tuple[str, ...] = ()  # zone entries whose bonus was paid, e.g. "double:blue+pink"
    tokens: tuple[tuple[str, int], ...] = ()  # ship/key/any1/any2/cave/finish -> unused count
    doubles: int = 0  # successful double zone predictions (board 6 Treasure Cave)
    counts: tuple[tuple[str, int], ...] = ()  # warriors, railways, ...
    kings_tower: str = ""
    end_bonus: tuple[tuple[str, int], ...] = ()  # (reason, coins) added at the end
    # this round
    prediction: tuple[str, ...] = ()
    zone: str = ""
    fulfilled: bool | None = None
    chosen: tuple[str, ...] = ()

    @property
    def unused_pencils(self) -> int:
        return self.pencils - self.used - self.lost

    @property
    def standing(self) -> tuple[int, int]:
        """What ranks players: coins, then unused bonus pencils break a tie."""
        return self.coins, self.unused_pencils

    def token(self, kind: str) -> int:
        return dict(self.tokens).get(kind, 0)

    def count(self, item: str) -> int:
        return dict(self.counts).get(item, 0)


@dataclass(frozen=True)
class RoundRecord:
    round: int
    leader: str
    balls: tuple[str, ...]
    right: tuple[str, ...]  # players whose prediction was fulfilled


@dataclass(frozen=True)
class Ask:
    slot: int
    choices: tuple[str, ...]


@dataclass(frozen=True)
class MilkState:
    players: tuple[PlayerState, ...]
    board: int = 1
    ask_threshold: float = DEFAULT_ASK_THRESHOLD
    failed_pencil_every: int = DEFAULT_FAILED_PENCIL_EVERY
    round: int = 1
    leader: int = 0
    cycle_round: int = 1  # 1..3: which round of this fill of the mill
    mill: tuple[int, ...] = FULL_MILL  # inside the mill at the start of this round
    tray: tuple[str, ...] = ("",) * BALLS_PER_ROUND  # this round's balls by slot ("" unknown)
    tapped: tuple[bool, ...] = (False,) * BALLS_PER_ROUND  # slots a person entered
    row: tuple[str, ...] = ()  # the row players choose from, reordered by each choice
    passed: int = 0  # beam count this round
    asks: tuple[Ask, ...] = ()
    phase: str = "predict"
    chooser: int = 0  # how many players have chosen this round
    trigger_round: int | None = None
    history: tuple[RoundRecord, ...] = ()

    # derived views ---------------------------------------------------------------
    @property
    def names(self) -> tuple[str, ...]:
        return tuple(p.name for p in self.players)

    @property
    def solo(self) -> bool:
        return len(self.players) == 1

    @property
    def known(self) -> tuple[str, ...]:
        return tuple(b for b in self.tray if b)

    @property
    def inside(self) -> tuple[int, ...]:
        """What is in the mill right now, this round's known balls taken out."""
        return minus(self.mill, counts_of(self.known))

    @property
    def base(self) -> tuple[int, ...]:
        """Balls of earlier rounds of this cycle, waiting on the base."""
        return minus(FULL_MILL, self.mill)

    @property
    def final_round(self) -> int | None:
        return None if self.trigger_round is None else self.trigger_round + 1

    @property
    def ending(self) -> bool:
        """The final round has been played: what is left decides the winner."""
        return self.final_round is not None and self.round >= self.final_round

    @property
    def choosing_order(self) -> tuple[int, ...]:
        n = len(self.players)
        return tuple((self.leader + i) % n for i in range(n))

    @property
    def chooser_name(self) -> str | None:
        if self.phase != "choose":
            return None
        return self.players[self.choosing_order[self.chooser]].name

    @property
    def extras(self) -> int:
        return max(0, self.passed - BALLS_PER_ROUND)

    def player(self, name: str) -> PlayerState:
        for p in self.players:
            if p.name == name:
                return p
        raise IllegalMove(f"no player called {name!r} in this game")

    def with_player(self, new: PlayerState) -> MilkState:
        return replace(self, players=tuple(new if p.name == new.name else p for p in self.players))


def bump(pairs: tuple[tuple[str, int], ...], key: str, delta: int) -> tuple[tuple[str, int], ...]:
    d = dict(pairs)
    d[key] = d.get(key, 0) + delta
    return tuple(sorted((k, v) for k, v in d.items() if v))


def put(pairs: tuple[tuple[str, int], ...], key: str, value: int) -> tuple[tuple[str, int], ...]:
    d = dict(pairs)
    d[key] = value
    return tuple(sorted(d.items()))


def phase_cue(phase: str, state: MilkState, player: str) -> c.PhaseStarted:
    """The phase with the LEDs in the marker colour of the player it belongs to."""
    seat = state.names.index(player)
    return c.PhaseStarted(phase, player, PLAYER_MARKERS[seat % len(PLAYER_MARKERS)][0])


def zone_entry(zone: str, colours: tuple[str, ...]) -> str:
    return f"{zone}:" + "+".join(sorted(colours, key=COLOURS.index))
