"""Small drivers shared by the Laser tests: play events through the real rules."""

from __future__ import annotations

from companion.events import TimerExpired
from companion.game import GameConfig
from companion.games.laser import GAME
from companion.games.laser.events import BidPlaced, CardRevealed

TEAM4 = ("Peter", "Suzie", "Tommy", "Kitti")


def new(players=TEAM4, **options):
    return GAME.initial_state(GameConfig(tuple(players), options))


def play(state, *events):
    """Apply events in order; return the final state and every cue."""
    cues = []
    for ev in events:
        state, out = GAME.apply(state, ev)
        cues.extend(out)
    return state, cues


def expire(state):
    """The running clock runs out."""
    spec = GAME.timer(state)
    assert spec is not None, f"no clock runs in {state.phase}"
    return play(state, TimerExpired(spec.key))


def reveal_team(state, colours=("cyan", "blue")):
    return play(state, *(CardRevealed(c) for c in colours))


def reveal_comp(state, cards=(("yellow", "wood"), ("green", "carpet"))):
    return play(state, *(CardRevealed(c, f) for c, f in cards))


def team_round_to_bids(state, colours=("cyan", "blue")):
    state, _ = reveal_team(state, colours)
    assert state.phase == "planning"
    state, _ = expire(state)
    assert state.phase == "bids"
    return state


def bid_all(state, bids: dict):
    return play(state, *(BidPlaced(p, b) for p, b in bids.items()))


# a ring as the camera sees it, tiles 1-12 (None: empty)
RING = ("red", "cat", "yellow", None, "green", "cyan")
RING += ("blue", "magenta", "red", None, "blue", "cyan")


def unsure_ring(tile: int, likely: tuple[str, ...]):
    """The camera's reading of `RING`, unsure of `tile` (its likely answers best first)."""
    from companion.games.laser.sensing.ring import RingRead

    confidence = tuple(0.3 if i == tile else 1.0 for i in range(12))
    candidates = tuple(likely if i == tile else (t or "empty",) for i, t in enumerate(RING))
    return RingRead(RING, confidence, candidates, (2, 1, 2, 2, 1, 2), (1.0,) * 6)


def steady(state, reading, memory=None, frames=3):
    """Laser's `interpret` of the same camera reading over `frames` frames: (events, memory)."""
    from companion.games.laser.sensing import interpret

    out = []
    for _ in range(frames):
        events, memory = interpret(state, reading, memory)
        out += events
    return out, memory
