"""Whole games played by scripted tables through the real rules, as log records: for the
history benchmark and the history tests (a generated log of any size, no fsync per event)."""

from __future__ import annotations

import random
import uuid
from datetime import UTC, datetime, timedelta

from companion import catalogue
from companion import events as ev
from companion.entries import Entry, GameRecord
from companion.events import ButtonPressed, TimerExpired
from companion.game import GameConfig
from companion.session import config_to_json

NAMES = ("Anna", "Ben", "Chloe", "David", "Emma", "Felix")


class _Pure:
    """A Session without a log: submit applies the rules and remembers the event."""

    def __init__(self, name: str, config: GameConfig) -> None:
        self.game = catalogue.load(name)
        self.config = config
        self.state = self.game.initial_state(config)
        self.events: list = []

    def submit(self, event):
        self.state, cues = self.game.apply(self.state, event)
        self.events.append(event)
        return tuple(cues)


def _color_milk(rng: random.Random, players) -> _Pure:
    from companion.games.color_milk.autoplay import ScriptedTable

    t = _Pure(
        "color-milk", GameConfig(players, {"board": rng.randint(1, 6)}, seed=rng.randrange(2**31))
    )
    ScriptedTable(t.submit, lambda: t.state, rng).play()
    return t


def _laser(rng: random.Random, players) -> _Pure:
    t = _Pure("laser", GameConfig(players, {"mode": "team"}))
    for _ in range(2000):
        if t.game.is_over(t.state):
            break
        acts = list(t.game.legal_actions(t.state))
        spec = t.game.timer(t.state)
        if spec is not None:
            acts.append(TimerExpired(spec.key))
        t.submit(rng.choice(acts))
    return t


def _kritters(rng: random.Random, players) -> _Pure:
    from companion.games.kritters.events import FirstPlayer, PileEmpty, ScoreEntered, TurnDone

    t = _Pure("kritters", GameConfig(players, {}))
    t.submit(FirstPlayer(rng.choice(players)))
    for _ in range(rng.randint(3, 12) * len(players)):
        t.submit(TurnDone())
    t.submit(PileEmpty("kritter_deck"))
    while t.state.phase == "play":
        t.submit(TurnDone())
    for p in players:
        hand = {c: rng.randint(0, 6) for c in ("cyan", "magenta", "yellow")}
        t.submit(
            ScoreEntered(p, paintbrushes=rng.randint(0, 2), palettes=rng.randint(0, 2), **hand)
        )
    return t


def _node(rng: random.Random, players) -> _Pure:
    from companion.games.node import Discard, PlaceCard

    colours = ("red", "yellow", "green", "blue", "purple")
    t = _Pure("node", GameConfig(players[:2], {"deck": rng.randint(16, 40)}))
    for _ in range(200):
        if t.game.is_over(t.state):
            break
        palette = rng.sample(colours, 2)
        card = tuple(rng.choice(palette) for _ in range(t.state.card_width * t.state.card_height))
        spots = t.game.legal_placements(t.state, card)
        who = t.state.current
        if spots:
            row, col, rot = rng.choice(spots)
            t.submit(PlaceCard(who, card, row, col, rot))
        else:
            t.submit(Discard(who, (card,)))
    return t


PLAYERS = {"color-milk": (2, 5), "laser": (3, 5), "kritters": (1, 4), "node": (2, 2)}
_PLAY = {"color-milk": _color_milk, "laser": _laser, "kritters": _kritters, "node": _node}


def play_game(name: str, seed: int, players=None):
    """One whole game: (GameRecord, [(Entry, time written)])."""
    rng = random.Random(seed)
    if players is None:
        lo, hi = PLAYERS[name]
        players = tuple(rng.sample(NAMES, rng.randint(lo, hi)))
    t = _PLAY[name](rng, tuple(players))
    started = datetime(2026, 1, 1, tzinfo=UTC) + timedelta(hours=seed % 100_000)
    at = [
        (started + timedelta(seconds=20 * i)).isoformat(timespec="seconds")
        for i in range(len(t.events) + 1)
    ]
    over = t.game.is_over(t.state)
    rec = GameRecord(
        id=0,
        game=name,
        config=config_to_json(t.config),
        started=at[0],
        finished=at[-1] if over else None,
        status="finished" if over else "active",
        result={"scores": dict(t.game.scores(t.state)), "winners": list(t.game.winners(t.state))}
        if over
        else None,
        uuid=str(uuid.UUID(int=random.Random(f"{name}-{seed}").getrandbits(128), version=4)),
    )
    entries = [(Entry(i, "event", ev.to_dict(e)), at[i]) for i, e in enumerate(t.events, 1)]
    return rec, entries


def play_games(n: int, seed: int = 0, kinds=tuple(_PLAY)):
    """`n` games of the given kinds in turn, reproducibly."""
    return [play_game(kinds[i % len(kinds)], seed * 100_000 + i) for i in range(n)]


__all__ = ["ButtonPressed", "play_game", "play_games"]
