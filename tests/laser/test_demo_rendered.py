"""A short demonstration rendered, read by the ring reader and watched through the real
runtime: the solver's moves come back move by move and one press of "next" scores them."""

import random

import pytest

from companion.events import ButtonPressed, TimerExpired
from companion.game import GameConfig
from companion.games.laser import GAME
from companion.games.laser.board import COLOURS, FLOORS
from companion.games.laser.events import BidPlaced, BoardEntered, CardRevealed, ResultProposed
from companion.games.laser.sensing import ring_read
from companion.games.laser.sim.demonstration_frames import demonstration_shots, empty_ring
from companion.games.laser.solver import solve
from companion.games.laser.solver.positions import random_position
from companion.runtime import Runtime
from companion.session import Session
from companion.store import GameLog
from vision.render.ring import ring_calibration
from vision.ring.reader import RingReader

PLAYERS = ("Peter", "Suzie")


@pytest.fixture(scope="module")
def reader():
    return RingReader(ring_calibration())


def key(m):
    return (m.kind, m.src, m.dst, m.colour, m.onto, m.makes, m.completes)


@pytest.mark.parametrize("seed, light", [(12, "tungsten"), (31, "shadow")])
def test_a_rendered_demonstration_is_decoded_and_scored_with_one_press(
    reader, tmp_path, seed, light
):
    pos = random_position(random.Random(seed), "competitive")
    sol = solve(pos, totals=False)
    assert len(sol.moves) >= 2  # a cat's move and mixes, from these seeds
    shots = demonstration_shots(pos, sol.moves, light, seed)
    assert any(s.hand for s in shots)
    reader.find(empty_ring(light, seed))  # the ring as laid, before the figures
    seen = []
    runtime = Runtime(keep_time=False)
    runtime.subscribe(on_event=seen.append)
    try:
        with GameLog(tmp_path / "game.db") as log:
            runtime.play(Session.start(GAME, log, GameConfig(PLAYERS)))
            for c in pos.cards:
                runtime.submit(CardRevealed(COLOURS[c.colour], FLOORS[c.floor]))
            tiles = tuple(None if t is None else COLOURS[t] for t in pos.tiles)
            floors = tuple(FLOORS[f] for f in pos.floors)
            runtime.submit(BoardEntered(tiles, pos.cat, pos.supply, floors))
            runtime.submit(BidPlaced("Suzie", sol.min_cost))
            runtime.submit(TimerExpired(GAME.timer(runtime.session.state).key))
            assert runtime.session.state.phase == "demonstration"
            assert [s.kind for s in GAME.readers(runtime.session.state)] == ["ring"]
            memory = None  # the same pure hook beside the runtime, to look at its memory
            for shot in shots:
                reading = ring_read(reader.read(shot.frame))
                _, memory = GAME.interpret(runtime.session.state, reading, memory)
                runtime.sense(reading)
            decoded = memory.demo.demo.moves
            assert [key(m) for m in decoded] == [key(m) for m in sol.moves]
            (proposal,) = [e for e in seen if isinstance(e, ResultProposed)]
            assert proposal.success and proposal.removed == sol.removed
            runtime.sense(ButtonPressed("next"))
            state = runtime.session.state
            assert state.round == 2 and state.scores == (0, sol.removed)
    finally:
        runtime.close()
