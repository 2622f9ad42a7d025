"""`companion demo node`: a whole game of Node played on the simulated table, every placement
read by the camera.

The pipeline is the app's own: two scripted players lay legal cards from their hands on the
rendered table (a little off the grid, a hand reaching in each time); the frames go through
the placement watcher and reader (vision.node.watch, vision.node); each reading is
posted to the table runtime, where Node's sensing hooks turn it into a placement, or into a
question that the scripted person answers like a real one: one press of "next" when the
proposal is right, the right card entered by touch when it is not. A reading the game took
but that differs from the card laid would be a silent misread: the demo counts them (and puts
the right card back), so its JSON shows what the camera really did.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path
from typing import Any

from companion import paths
from companion.cues import AskHuman, Cue
from companion.errors import IllegalMove, UsageError
from companion.events import ButtonPressed
from companion.game import GameConfig
from companion.runtime import Runtime
from companion.session import Session
from companion.settings import Settings
from companion.store import GameLog

from . import GAME
from .events import CardRead, Discard, PlaceCard
from .simtable import SimulatedNodeTable, nudge, truth

NAMES = ("Anna", "Ben")
HAND = 5
WAIT = 10.0  # seconds to wait for the runtime to handle the camera's readings


class _Parser(argparse.ArgumentParser):
    def error(self, message: str):
        raise UsageError(f"demo node: {message}")


def _parser() -> _Parser:
    p = _Parser(prog="companion demo node")
    p.add_argument("--seed", type=int, default=7, help="seeds the cards, the hands and the table")
    p.add_argument("--deck", type=int, default=24, help="cards in play (default 24)")
    p.add_argument("--light", default="daylight", help="the room's light (see vision LIGHTS)")
    p.add_argument("--headless", action="store_true", help="no window (the demo never opens one)")
    p.add_argument("--live", action="store_true", help="print the turns as they happen")
    p.add_argument("--no-hands", action="store_true", help="no hand in view while laying cards")
    p.add_argument("--data-dir", help="keep the game log here (default: a temporary dir)")
    return p


def _card(rng: random.Random, colours) -> tuple[str, ...]:
    return tuple(rng.choice(colours) for _ in range(6))


def run_demo(
    data_dir: Path,
    seed: int = 7,
    deck: int = 24,
    light: str = "daylight",
    hands_in_view: bool = True,
    live=None,
) -> dict[str, Any]:
    import numpy as np

    from vision.node.reader import NodeReader
    from vision.node.watch import NodeWatcher
    from vision.render.node import rendered_node_calibration
    from vision.render.tray import LIGHTS

    if light not in LIGHTS:
        raise UsageError(f"unknown light {light!r} (have: {', '.join(LIGHTS)})")
    if not 2 <= deck <= 60:
        raise UsageError("--deck must be 2-60 cards")
    say = live or (lambda line: None)
    started = time.perf_counter()
    settings = Settings()
    cal = rendered_node_calibration()
    cols, rows = cal.grid.cols, cal.grid.rows
    config = GameConfig(NAMES, {"deck": deck, "table_width": cols, "table_height": rows}, seed)
    # the camera nudged since the set-up: the reader finds the mat in the game's first frame
    table = SimulatedNodeTable(light, seed, camera=nudge(np.random.default_rng([seed, 3])))
    watcher = NodeWatcher(NodeReader(cal, ask_below=settings.ask_threshold))
    runtime = Runtime(settings)
    log = GameLog(paths.log_path(data_dir))
    asked: list[str] = []
    runtime.subscribe(on_cue=lambda cue: _cue(cue, asked, say))
    counts = dict(read=0, confirmed=0, corrected=0, entered=0, misreads=0, discards=0)
    rng = random.Random(seed)
    try:
        session = Session.start(GAME, log, config)
        runtime.play(session)
        watcher.reset(table.frame())
        hands = {p: [_card(rng, session.state.colours) for _ in range(HAND)] for p in NAMES}
        while not GAME.is_over(session.state):
            state = session.state
            player, hand = state.current, hands[state.current]
            choice = _choose(state, hand, rng)
            if choice is None:
                runtime.submit(Discard(player, tuple(hand)))
                hand.remove(rng.choice(hand))
                counts["discards"] += 1
                say(f"{player} cannot place a card and discards one")
            else:
                card, (row, col, rot) = choice
                hand.remove(card)
                want = PlaceCard(player, card, row, col, rot)
                outcome = _turn(runtime, table, watcher, want, hands_in_view, asked)
                counts[outcome] += 1
                say(
                    f"{player}: {'/'.join(card)} at row {row + 1}, column {col + 1}, "
                    f"turned {rot}: {outcome}"
                )
            hand.append(_card(rng, state.colours))
        runtime.drain(WAIT)
        final = session.state
        return {
            "winners": list(GAME.winners(final)),
            "scores": GAME.scores(final),
            "placements": final.played,
            **counts,
            "questions": asked,
            "camera_frames": table.frames,
            "pipeline": "rendered frames -> vision.node.watch -> vision.node "
            "-> runtime.post(CardRead) -> Node.interpret",
            "seconds": round(time.perf_counter() - started, 2),
            "log": log.export(session.game_id),
        }
    finally:
        runtime.close()
        log.close()


def _choose(state, hand, rng):
    """A card of the hand and a place where it fits, or None (a discard)."""
    for card in rng.sample(hand, len(hand)):
        spots = GAME.legal_placements(state, card)
        if spots:
            return card, rng.choice(spots)
    return None


def _turn(runtime, table, watcher, want: PlaceCard, hand: bool, asked: list[str]) -> str:
    """Lay the card, let the camera read it, and answer like a person; the outcome."""
    session = runtime.session
    before, questions = session.state.played, len(asked)
    table.lay(want.colours, want.row, want.col, want.rotation)
    for frame in table.turn(hand=hand):
        for r in watcher.feed(frame):
            runtime.post(
                CardRead(
                    r.colours, r.row, r.col, r.confidence, "" if r.status == "placed" else r.reason
                )
            )
    runtime.drain(WAIT)
    state = session.state
    right = truth(want.colours, want.row, want.col, want.rotation)
    if state.played > before:
        if {c: state.at(c) for c in state.last} == right and set(state.last) == set(right):
            return "read"
        runtime.undo()  # the game took a wrong card: put the right one back
        runtime.submit(want)
        return "misreads"
    proposal = state.proposal
    if (
        proposal is not None
        and truth(proposal.colours, proposal.row, proposal.col, proposal.rotation) == right
    ):
        done = runtime.changed_to(lambda s: s.played > before)
        runtime.post(ButtonPressed("next"))
        if done.wait(WAIT):
            return "confirmed"
    try:
        runtime.submit(want)
    except IllegalMove:
        raise UsageError("the demo laid a card the rules refuse (a bug: report the seed)") from None
    return "corrected" if len(asked) > questions else "entered"


def _cue(cue: Cue, asked: list[str], say) -> None:
    if isinstance(cue, AskHuman):
        asked.append(cue.question)
        say(f"? {cue.question}")


def main(argv: list[str]) -> int:
    args = _parser().parse_args(argv)
    with paths.demo_dir(args.data_dir, "node-demo-") as data_dir:
        out = run_demo(
            data_dir,
            seed=args.seed,
            deck=args.deck,
            light=args.light,
            hands_in_view=not args.no_hands,
            live=(lambda line: print(line, flush=True)) if args.live else None,
        )
        json.dump(out, sys.stdout, indent=1)
        sys.stdout.write("\n")
    return 0
