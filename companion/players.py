"""Seated players: clockwise order, a rotating leader, and teams."""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass, replace

from companion.errors import UsageError

MAX_NAME = 40  # characters: a name fits a scoreboard row
MAX_PLAYERS = 12  # the most any table seats
# Characters that are not drawn as themselves: control and format characters, line and
# paragraph separators, surrogates, private use and unassigned code points.
_HIDDEN = frozenset({"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"})


def name_problem(name) -> str | None:
    """Why `name` cannot be a player's name, or None: text of 1 to MAX_NAME characters that
    are all drawn as themselves (no line breaks, no control characters)."""
    if not isinstance(name, str):
        return "a name must be text"
    if not name.strip():
        return "a name cannot be empty"
    if len(name) > MAX_NAME:
        return f"a name has at most {MAX_NAME} characters"
    if any(unicodedata.category(c) in _HIDDEN for c in name):
        return "a name cannot hold line breaks or control characters"
    return None


def shown_name(name) -> str:
    """A stored name as a screen shows it: on one line, every character drawn as itself,
    at most MAX_NAME characters (a longer one ends in an ellipsis)."""
    text = str(name)[: MAX_NAME * 4]  # bounded work, whatever was stored
    text = " ".join("".join(" " if unicodedata.category(c) in _HIDDEN else c for c in text).split())
    return text if len(text) <= MAX_NAME else text[: MAX_NAME - 1] + "\u2026"


# Marker colours for players on screen, each paired with a letter for colour-blind players.
PLAYER_MARKERS = (
    ("red", "R"),
    ("blue", "B"),
    ("yellow", "Y"),
    ("green", "G"),
    ("purple", "P"),
    ("orange", "O"),
    ("white", "W"),
    ("black", "K"),
    ("pink", "I"),
    ("brown", "N"),
)


@dataclass(frozen=True)
class Player:
    name: str
    marker: str = "red"
    team: str | None = None

    @property
    def letter(self) -> str:
        return dict(PLAYER_MARKERS).get(self.marker, self.name[:1].upper())


@dataclass(frozen=True)
class Seating:
    """Players in clockwise seat order; `leader` is a seat index."""

    players: tuple[Player, ...]
    leader: int = 0

    @classmethod
    def of(cls, names, leader: int = 0, teams=None) -> Seating:
        """Seat players by name (markers assigned in order), optionally with team labels."""
        names = list(names)
        if len(set(names)) != len(names):
            raise UsageError("player names must be different")
        if any(not str(n).strip() for n in names):
            raise UsageError("every player needs a name")
        teams = list(teams) if teams is not None else [None] * len(names)
        players = tuple(
            Player(str(n).strip(), PLAYER_MARKERS[i % len(PLAYER_MARKERS)][0], teams[i])
            for i, n in enumerate(names)
        )
        return cls(players, leader % max(1, len(players)))

    def __len__(self) -> int:
        return len(self.players)

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(p.name for p in self.players)

    @property
    def leader_name(self) -> str:
        return self.players[self.leader].name

    def index(self, name: str) -> int:
        for i, p in enumerate(self.players):
            if p.name == name:
                return i
        raise UsageError(f"no player called {name!r}")

    def left_of(self, seat: int, steps: int = 1) -> int:
        """The seat `steps` places clockwise (to the left) of `seat`."""
        return (seat + steps) % len(self.players)

    def clockwise_from(self, seat: int) -> tuple[int, ...]:
        """Every seat once, starting at `seat` and going clockwise."""
        n = len(self.players)
        return tuple((seat + i) % n for i in range(n))

    def rotate_leader(self, steps: int = 1) -> Seating:
        return replace(self, leader=self.left_of(self.leader, steps))

    def teams(self) -> dict[str, tuple[str, ...]]:
        """Team label -> member names, in seat order; players without a team are left out."""
        out: dict[str, list[str]] = {}
        for p in self.players:
            if p.team is not None:
                out.setdefault(p.team, []).append(p.name)
        return {k: tuple(v) for k, v in out.items()}
