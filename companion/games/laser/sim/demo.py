"""`companion demo laser`: whole rounds of Laser on the simulated table, the prism cards and
the ring read by the camera.

The pipeline is the app's own. Each round the simulated table lays the prism cards in the
centre one by one (a hand reaching in each time); the rendered frames go through the card
reader (vision.card_zones) and each reading is posted to the table runtime as a `ZoneRead`,
where Laser's sensing hooks enter the card or ask. Then the ring is rendered and read
(vision.ring) and posted as a `RingRead`, which enters the board for the referee. The
scripted players bid from the exact solver's answer (the optimum, or another total a team can
spend exactly; the rules' replay checks it), and the winning bid is played move by move on
the table: every position rendered (demonstration_frames.py, a hand carrying each figure
between two), read by the ring reader and posted, for the game to watch the demonstration
(sensing/demonstration.py). The result it proposes is confirmed with one press of "next" when true;
asked instead, the person enters it by hand. The referee's proposal is checked against the
figures really removed. The still table after the last move is the table the round leaves,
as the refill check sees it. Before the next reveal the table lays the refill as the app
lists it, now and then with a figure on the wrong tile, and the camera checks it
(sensing/refill_check.py): the demo's person fixes the figure the app names.

A person answers every question like a real one (a floor, a tile, a teammate) and corrects
anything the game took wrongly. What the game took wrongly without asking is a silent
misread: the JSON counts them. The clocks are the game's, run out at once (no 30 s waits).

This module is the harness (the runtime, the simulated table and camera, the log) and the
JSON it prints; the players and the person are scripted in demo_players.py.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from companion import paths
from companion.errors import IllegalMove, UsageError
from companion.game import GameConfig
from companion.runtime import Runtime
from companion.session import Session
from companion.settings import Settings
from companion.store import GameLog

from .. import GAME
from ..board import COMPETITIVE, MODES, TEAM
from ..solver.referee import referee_text
from .demo_camera import WAIT, Camera
from .demo_players import ScriptedPlayers
from .simtable import SimulatedLaserTable

NAMES = {TEAM: ("Anna", "Ben", "Cleo", "Dan"), COMPETITIVE: ("Anna", "Ben")}


class _Parser(argparse.ArgumentParser):
    def error(self, message: str):
        raise UsageError(f"demo laser: {message}")


def _parser() -> _Parser:
    p = _Parser(prog="companion demo laser")
    p.add_argument(
        "--mode", choices=MODES, default=TEAM, help="team (4 players) or competitive (2)"
    )
    p.add_argument("--rounds", type=int, default=4, help="rounds to play (default 4)")
    p.add_argument("--seed", type=int, default=7, help="seeds the board, the deck and the players")
    p.add_argument("--light", default="daylight", help="the room's light (see vision LIGHTS)")
    p.add_argument("--headless", action="store_true", help="no window (the demo never opens one)")
    p.add_argument("--live", action="store_true", help="print the rounds as they happen")
    p.add_argument("--no-hands", action="store_true", help="no hand in view while laying")
    p.add_argument(
        "--misplace-every", type=int, default=2, help="one refill in N has a misplaced figure"
    )
    p.add_argument("--data-dir", help="keep the game log here (default: a temporary dir)")
    return p


def run_demo(
    data_dir: Path,
    mode: str = TEAM,
    rounds: int = 4,
    seed: int = 7,
    light: str = "daylight",
    hands_in_view: bool = True,
    misplace_every: int = 2,
    live: Callable[[str], None] | None = None,
) -> dict[str, Any]:
    from vision.render.tray import LIGHTS

    if mode not in MODES:
        raise UsageError(f"--mode must be team or competitive, not {mode!r}")
    if light not in LIGHTS:
        raise UsageError(f"unknown light {light!r} (have: {', '.join(LIGHTS)})")
    if not 1 <= rounds <= 50:
        raise UsageError("--rounds must be 1-50")
    if misplace_every < 0:
        raise UsageError("--misplace-every must be 0 (never) or more")
    say = live or (lambda line: None)
    started = time.perf_counter()
    settings = Settings()
    options = {"mode": mode, "ask_threshold": settings.ask_threshold}
    config = GameConfig(NAMES[mode], options, seed)
    table = SimulatedLaserTable(mode, light, seed)
    runtime = Runtime(settings, keep_time=False)  # the demo runs the clocks out itself
    log = GameLog(paths.log_path(data_dir))
    refused: list[str] = []
    runtime.subscribe(on_refusal=lambda ev, why: refused.append(f"{type(ev).__name__}: {why}"))
    try:
        camera = Camera(runtime, table, hands_in_view)
        demo = ScriptedPlayers(runtime, table, camera, seed, say, misplace_every)
        runtime.subscribe(on_cue=demo.cue)
        session = Session.start(GAME, log, config)
        runtime.play(session)
        played = 0
        while played < rounds and not GAME.is_over(session.state):
            n = session.state.round
            try:
                line = demo.play_round()
            except IllegalMove as exc:
                raise UsageError(
                    f"the demo made a move the rules refuse ({exc}); seed {seed}"
                ) from None
            played += 1
            say(f"round {n}: {line}; scores {GAME.scores(session.state)}")
            if live and session.state.last_board is not None:
                say(referee_text(GAME, session.state))
        runtime.drain(WAIT)
        final = session.state
        ms = camera.ms
        c = demo.counts
        return {
            "mode": mode,
            "rounds": played,
            "scores": GAME.scores(final),
            "over": final.over,
            "cards": {
                "read": c["cards_read"],
                "asked": c["cards_asked"],
                "misread": c["cards_misread"],
                "floors_asked": c["floors_asked"],
                "tapped_refill_unconfirmed": c["cards_tapped"],
            },
            "tiles": {
                "read": c["tiles_read"],
                "asked": c["tiles_asked"],
                "misread": c["tiles_misread"],
                "spares_misread": c["spares_misread"],
                "boards_entered_by_camera": c["boards_entered_by_camera"],
            },
            "refills": {
                "checked": c["refills_checked"],
                "misplaced": c["misplaced"],
                "misplaced_named": c["misplaced_named"],
                "misjudged": c["refills_misjudged"],
                "by_eye": c["refills_by_eye"],
            },
            "named": demo.named,
            "slips": demo.slips,
            "silent_misreads": c["cards_misread"]
            + c["tiles_misread"]
            + c["spares_misread"]
            + c["refills_misjudged"]
            + c["demonstrations_misjudged"],
            "referee": {
                "proposals_right": c["proposals_right"],
                "proposals_wrong": c["proposals_wrong"],
                "impossible_rounds": c["impossible_rounds"],
                "demonstrations_replayed": c["demonstrations_replayed"],
                "demonstrations_wrong": c["demonstrations_wrong"],
            },
            "demonstrations": {
                "watched": c["demonstrations_watched"],
                "decoded": c["demonstrations_decoded"],
                "asked": c["demonstrations_asked"],
                "wrong": c["demonstrations_misjudged"],
                "nothing_said": c["demonstrations_unsaid"],
                "next_lost": c["demonstrations_unconfirmed"],
            },
            "questions": demo.asked,
            "refused": refused,
            "camera": {
                "frames": table.frames,
                "ring_frames_read": len(ms["ring"]),
                "card_frames_read": len(ms["cards"]),
                "ring_ms_median": _median(ms["ring"]),
                "card_ms_median": _median(ms["cards"]),
            },
            "pipeline": "rendered frames -> vision.card_zones / vision.ring "
            "-> runtime.post(ZoneRead / RingRead) -> Laser sensing "
            "(cards, ring, demonstration, refill)",
            "seconds": round(time.perf_counter() - started, 2),
        }
    finally:
        runtime.close()
        log.close()


def _median(values: list[float]) -> float | None:
    return round(statistics.median(values), 2) if values else None


def main(argv: list[str]) -> int:
    args = _parser().parse_args(argv)
    with paths.demo_dir(args.data_dir, "laser-demo-") as data_dir:
        out = run_demo(
            data_dir,
            mode=args.mode,
            rounds=args.rounds,
            seed=args.seed,
            light=args.light,
            hands_in_view=not args.no_hands,
            misplace_every=args.misplace_every,
            live=(lambda line: print(line, flush=True)) if args.live else None,
        )
        json.dump(out, sys.stdout, indent=1)
        sys.stdout.write("\n")
    return 0
