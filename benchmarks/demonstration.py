"""Laser demonstrations watched by the camera: solver solutions rendered, read and decoded.

For each random position (both modes) the solver gives a solution: the optimum, or every
third one a solution costing a little more; some optimal ones get one move carried the long
way round, as a higher bid allows (the solver's `replay` checks them).
Its positions are rendered under the five lights (Laser's `sim/demonstration_frames.py`: a hand in
view while a figure moves, figures off-centre, three frames at rest) and read by the ring
reader; the readings go through Laser's sensing hooks and rules exactly as the runtime
posts them, in the demonstration phase (team mode: the mixing) with the solution's cost as
the bid. A solution is decoded exactly when the moves decoded equal the solver's move by
move (figure, tiles, colours made, card completed), the proposed result is a success with
the solver's movement points and removed figures, and one press of "next" scores it. When
nothing was proposed by the last frame, the clock runs out and what the watcher says then is
counted (a question, or a failure proposed).

Prints counts, mismatches, questions asked and the time per frame (reading; watching).

    python benchmarks/demonstration.py [--solutions N]
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections import Counter
from dataclasses import replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from companion.errors import IllegalMove  # noqa: E402
from companion.events import ButtonPressed, TimerExpired  # noqa: E402
from companion.game import GameConfig  # noqa: E402
from companion.games.laser import GAME, sensing  # noqa: E402
from companion.games.laser.board import COLOURS, COMPETITIVE, FLOORS, TEAM, TILES  # noqa: E402
from companion.games.laser.events import (  # noqa: E402
    BidPlaced,
    BoardEntered,
    CardRevealed,
    ResultProposed,
    RoundResult,
    TeammateChosen,
)
from companion.games.laser.sensing.decode import settle  # noqa: E402
from companion.games.laser.sim.demonstration_frames import demonstration_shots, empty_ring  # noqa: E402
from companion.games.laser.solver import replay, solution_for, solve  # noqa: E402
from companion.games.laser.solver.positions import random_position  # noqa: E402
from vision.render.ring import LIGHTS, ring_calibration  # noqa: E402
from vision.ring.reader import RingReader  # noqa: E402

TEAM_PLAYERS = ("Peter", "Suzie", "Tommy", "Kitti")
DUEL = ("Peter", "Suzie")


def solutions(count: int, seed: int = 0):
    """(position, moves, cost) from the solver, both modes; every third costs more than the
    optimum when such a solution exists (team bids stay within 2-10)."""
    i = seed
    while count > 0:
        i += 1
        rng = random.Random(i)
        mode = (TEAM, COMPETITIVE)[i % 2]
        pos = random_position(rng, mode)
        sol = solve(pos, totals=False)
        if not sol.moves:
            continue
        moves, cost = tuple(sol.moves), sol.min_cost
        if i % 3 == 0:
            more = solution_for(pos, cost + rng.choice((1, 2, 3)))
            if more:
                moves, cost = tuple(more), sum(m.cost for m in more)
        elif i % 5 == 0:  # one figure carried the long way round, to spend a higher bid
            moves = the_long_way(moves, rng)
            cost, _ = replay(pos, moves)
        if mode == TEAM and not 2 <= cost <= 10:
            continue
        count -= 1
        yield i, pos, moves, cost


def the_long_way(moves, rng):
    """The solution with one of its moves (not of 6 tiles) carried the long way round."""
    which = [k for k, m in enumerate(moves) if m.steps * 2 != TILES]
    if not which:
        return moves
    k = rng.choice(which)
    m = moves[k]
    steps = TILES - m.steps
    flipped = replace(m, steps=steps, clockwise=not m.clockwise, cost=m.cost // m.steps * steps)
    return moves[:k] + (flipped,) + moves[k + 1 :]


def apply(state, events, cues=None):
    for ev in events:
        state, out = GAME.apply(state, ev)
        if cues is not None:
            cues.extend(out)
    return state


def demonstration_state(pos, cost):
    """A game in the demonstration (competitive) or the mixing (team) with `cost` bid and
    the board of `pos` entered."""
    comp = pos.mode == COMPETITIVE
    state = GAME.initial_state(GameConfig(DUEL if comp else TEAM_PLAYERS, {"mode": pos.mode}))
    cards = [
        CardRevealed(COLOURS[c.colour], None if c.floor is None else FLOORS[c.floor])
        for c in pos.cards
    ]
    tiles = tuple(None if t is None else COLOURS[t] for t in pos.tiles)
    floors = None if pos.floors is None else tuple(FLOORS[f] for f in pos.floors)
    state = apply(state, cards + [BoardEntered(tiles, pos.cat, pos.supply, floors)])
    if comp:
        state = apply(state, [BidPlaced("Peter", cost)])
    else:
        state = apply(state, [TimerExpired(GAME.timer(state).key)])
        other = cost + 3 if cost <= 7 else cost - 3
        bids = [BidPlaced(p, cost if p == "Peter" else other) for p in TEAM_PLAYERS]
        state = apply(state, bids)
        if state.phase == "choosing":
            state = apply(state, [TeammateChosen(state.players[state.candidates[0]])])
        return state
    return apply(state, [TimerExpired(GAME.timer(state).key)])


def key(m):
    return (m.kind, m.src, m.dst, m.colour, m.onto, m.makes, m.completes)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--solutions", type=int, default=210)
    args = ap.parse_args()
    reader = RingReader(ring_calibration())
    n = Counter()
    read_ms, watch_ms, mismatches, asked = [], [], [], []
    t_start = time.perf_counter()
    for i, pos, moves, cost in solutions(args.solutions):
        n["solutions"] += 1
        n[f"solutions, {pos.mode}"] += 1
        n["moves"] += len(moves)
        state = demonstration_state(pos, cost)
        assert state.phase in ("demonstration", "mixing"), state.phase
        light = LIGHTS[i % len(LIGHTS)]
        memory = None
        proposals = []
        reader.find(empty_ring(light, i))  # the ring as laid, before the figures
        for shot in demonstration_shots(pos, moves, light, i):
            n["frames"] += 1
            n["frames with a hand"] += shot.hand
            t0 = time.perf_counter()
            reading = sensing.ring_read(reader.read(shot.frame))
            t1 = time.perf_counter()
            events, memory = sensing.interpret(state, reading, memory)
            watch_ms.append((time.perf_counter() - t1) * 1000)
            read_ms.append((t1 - t0) * 1000)
            if reading.hand != shot.hand:
                n["hand seen wrongly" if reading.hand else "hand not seen"] += 1
            for ev in events:
                if isinstance(ev, ResultProposed):
                    proposals.append(ev)
                    if ev.success is None:
                        asked.append((i, ev.question))
            state = apply(state, events)
        if not any(p.success is not None for p in proposals):
            # nothing proposed: the clock runs out and the camera looks once more
            n["clock run out"] += 1
            state = apply(state, [TimerExpired(GAME.timer(state).key)])
            events, memory = sensing.interpret(state, reading, memory)
            for ev in events:
                if isinstance(ev, ResultProposed):
                    proposals.append(ev)
                    n["  then asked" if ev.success is None else "  then failure proposed"] += 1
                    if ev.success is None:
                        asked.append((i, ev.question))
            state = apply(state, events)
        n["questions asked"] += sum(p.success is None for p in proposals)
        demo = memory.demo.demo if memory is not None else None
        decoded = () if demo is None else demo.moves
        r = settle(demo, cost) if demo is not None else None
        final = [p for p in proposals if p.success is not None]
        cues: list = []
        events, memory = sensing.interpret(state, ButtonPressed("next"), memory)
        try:
            scored = apply(state, events, cues)
        except IllegalMove:  # nothing proposed: "next" does nothing now
            scored = state
        exact = (
            [key(m) for m in decoded] == [key(m) for m in moves]
            and r is not None
            and r.success
            and r.cost == cost
            and r.removed == sum(m.removed for m in moves)
            and len(final) == 1
            and final[0].success
            and final[0].removed == r.removed
            and events == (RoundResult(True, r.removed),)
            and scored.round == 2
        )
        if exact:
            n["decoded exactly"] += 1
            n["long way assumed"] += bool(r.long_way)
            n["directions as the solver's"] += [m.clockwise for m in r.moves] == [
                m.clockwise for m in moves
            ]
        else:
            said = [p.question for p in proposals]
            mismatches.append((i, pos.mode, light, len(moves), len(decoded), said, r))
    elapsed = time.perf_counter() - t_start
    print(
        f"solutions: {n['solutions']} ({n['solutions, team']} team, "
        f"{n['solutions, competitive']} competitive), {n['moves']} moves"
    )
    print(
        f"frames: {n['frames']} at 640x480, {n['frames with a hand']} with a hand, "
        f"lights {', '.join(LIGHTS)}"
    )
    for what in (
        "decoded exactly",
        "long way assumed",
        "directions as the solver's",
        "questions asked",
        "clock run out",
        "  then asked",
        "  then failure proposed",
        "hand not seen",
        "hand seen wrongly",
    ):
        print(f"  {what:32s} {n[what]}")
    print(f"  {'mismatches':32s} {len(mismatches)}")
    for m in mismatches[:10]:
        print("    mismatch:", m)
    for q in asked[:10]:
        print("    asked:", q)
    for name, ms in (("read", read_ms), ("watch (decode)", watch_ms)):
        ms = sorted(ms)
        print(
            f"per frame, {name}: median {statistics.median(ms):.2f} ms, "
            f"p95 {ms[int(0.95 * (len(ms) - 1))]:.2f} ms, max {ms[-1]:.2f} ms"
        )
    print(f"total {elapsed:.0f} s (rendering included)")
    return 1 if mismatches else 0


if __name__ == "__main__":
    sys.exit(main())
