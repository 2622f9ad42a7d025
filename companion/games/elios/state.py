"""Elios's state: the box's contents, a player's hand and the frozen EliosState.

The app keeps the sun as eight rays, one per colour, each a stack of beams from the sunbeam
at the bottom (level 1) upwards; the disc pile's height is the highest level a beam may reach.
A player's hand is kept as the sizes of their groups plus their jokers: the colours of a group
are entered only when it is placed, so grouping costs a few taps and every placement is still
checked against the sun, the box contents and the group sizes the player declared.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from companion.errors import IllegalMove

JOKER = "white"
# The rulebook names no colours; these are the defaults of the "colours" option.
DEFAULT_COLOURS = ("red", "orange", "yellow", "green", "cyan", "blue", "purple", "pink")
BEAMS_PER_COLOUR = 5  # 40 beams in 8 colours; one of each starts in the sun
JOKERS_IN_BOX = 4
DISCS_IN_BOX = 9
SETUP_DISCS = 2
MAX_GROUP = 3
# players -> (coloured beams, jokers) per player (CLARIFICATIONS.md)
DEAL = {2: (16, 2), 3: (10, 1), 4: (8, 1)}
# Who wins when nobody can act any more; the rulebook does not say (docs/elios.md). The first
# is the default of the "blocked_sun" option.
BLOCKED_SUN = ("fewest beams", "draw")


@dataclass(frozen=True)
class Hand:
    player: str
    dealt: int  # coloured beams + jokers drawn at setup
    jokers: int  # jokers not yet placed
    groups: tuple[int, ...] = ()  # group sizes, largest first; set when the player is ready
    ready: bool = False

    @property
    def beams(self) -> int:
        """Beams (jokers included) still in front of the player."""
        return sum(self.groups) if self.ready else self.dealt


@dataclass(frozen=True)
class EliosState:
    seats: tuple[str, ...]  # clockwise
    order: tuple[str, ...]  # the turn cycle (A, B, A, B for teams)
    teams: tuple[tuple[str, tuple[str, ...]], ...]  # (label, members); empty below 4 players
    colours: tuple[str, ...]
    hands: tuple[Hand, ...]  # in seat order
    rays: tuple[tuple[str, ...], ...]  # rays[i] starts with colours[i], bottom first
    discs: int = SETUP_DISCS
    phase: str = "grouping"  # grouping | turns | over
    ready_order: tuple[str, ...] = ()
    current: str | None = None
    turn: int = 0  # turns taken so far; the first turn is turn 0
    overtime: bool = False  # the turn timer ran out this turn
    passed: tuple[str, ...] = ()  # players who passed in a row, the sun unchanged since
    turn_timer: float | None = None
    blocked_sun: str = BLOCKED_SUN[0]
    winners: tuple[str, ...] = ()

    def hand(self, player: str) -> Hand:
        for h in self.hands:
            if h.player == player:
                return h
        raise IllegalMove(f"no player called {player!r}")

    def team_of(self, player: str) -> tuple[str, ...]:
        for _, members in self.teams:
            if player in members:
                return members
        return (player,)

    def ray(self, colour: str) -> tuple[str, ...]:
        return self.rays[self.colours.index(colour)]

    def placed(self, colour: str) -> int:
        """Beams of `colour` placed on the sun by players (the sunbeams themselves excluded)."""
        counts = Counter(b for ray in self.rays for b in ray[1:])
        return counts[colour]

    def off_sun(self, colour: str) -> int:
        """Beams of `colour` not on the sun: in hands, or left in the bag."""
        return BEAMS_PER_COLOUR - 1 - self.placed(colour)

    def open_rays(self) -> tuple[tuple[str, ...], ...]:
        """Rays with room for one more beam under the discs."""
        return tuple(ray for ray in self.rays if len(ray) < self.discs)


def with_hand(state: EliosState, hand: Hand) -> tuple[Hand, ...]:
    """The hands with `hand` in place of the one of the same player."""
    return tuple(hand if h.player == hand.player else h for h in state.hands)
