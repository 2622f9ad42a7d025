"""Colour MY Kritters's state: the piles the app counts down, whose turn it is, the end
trigger and the scores entered at the end; and the final ranking read from it."""

from __future__ import annotations

from dataclasses import dataclass

from companion.games.kritters.scoring import Collection
from companion.games.kritters.setup import Options

ITEMS = ("paintbrush", "palette", "paint_bucket", "magic_wand")
CARDS = ("kritter", *ITEMS)
KRITTER_DECK = "kritter_deck"
PILES = (*ITEMS, KRITTER_DECK)
NEXT_BUTTON = "next"


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


def ranking(state: KrittersState) -> list[tuple[int, str, int]]:
    """(place, player, score), best first; equal scores share a place (1, 1, 3)."""
    rows = sorted(state.results, key=lambda r: -r.total)
    out: list[tuple[int, str, int]] = []
    for i, r in enumerate(rows):
        place = out[-1][0] if out and out[-1][2] == r.total else i + 1
        out.append((place, r.player, r.total))
    return out
