"""`companion demo color-milk`: a whole scripted game on the simulated table.

The pipeline is the real one, on the app's own table runtime: balls roll out of a seeded
physical mill and across the simulated chute (beam -> BallPassed), the tray is rendered as
camera frames and read by the ball reader (frames -> BallSeen), every reading goes through
the game's sensing hooks and the session (logged before it is applied), and every cue goes
to the table's LEDs and buzzer.
The players' predictions and choices are scripted from the seed. Each player lays the
prediction cards face down in their seat's zone before the mill turns and reveals them once
the balls are out; the rendered table is read by the app's card adapter (frames ->
ZoneRead), and the game's sensing turns each steady reading into a `Predict` or a question
that the scripted person answers like a real one (the answer that is the player's intent, or
the prediction entered by hand). A prediction the camera entered that differs from the cards
laid would be a silent misread: it is counted and put right. When the vision or hardware
package is missing, that stage is replaced by exact readings / taps / direct beam counts and
the output says so.

This module is the harness (the runtime, the log, the person's touches and presses) and its
JSON; the scripted players are autoplay.py's, the camera stages demo_stages.py's and the
live lines demo_narration.py's.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

from companion import cues as C
from companion import paths
from companion.errors import IllegalMove, UsageError
from companion.events import BallPassed, BallSeen, ButtonPressed, Event
from companion.game import GameConfig
from companion.games.color_milk import GAME
from companion.games.color_milk.autoplay import ScriptedTable, exact_reader
from companion.runtime import Runtime
from companion.session import Session
from companion.settings import Settings
from companion.store import GameLog

from .demo_narration import say_cue, say_event
from .demo_stages import Camera, CardCamera, card_vision_ready, hardware_ready, vision_ready

NAMES = ("Anna", "Ben", "Cleo", "Dan", "Eve")
DEMO_COIN_CHANCE = 0.5  # a short game: about eight rounds
EVENT_WAIT = 2.0  # seconds to wait for the simulated beam to report a ball


class _Parser(argparse.ArgumentParser):
    def error(self, message: str):
        raise UsageError(f"demo color-milk: {message}")


def _parser() -> _Parser:
    p = _Parser(prog="companion demo color-milk", add_help=True)
    p.add_argument("--players", type=int, default=3, help="1-5 (default 3)")
    p.add_argument("--seed", type=int, default=7, help="seeds the mill and the players")
    p.add_argument("--board", type=int, default=1, help="board 1-6 (default 1)")
    p.add_argument("--headless", action="store_true", help="no window (the demo never opens one)")
    p.add_argument("--live", action="store_true", help="print the table's events as they happen")
    p.add_argument("--data-dir", help="keep the game log here (default: a temporary dir)")
    p.add_argument(
        "--light", default="daylight", help="rendered lighting for the camera, or 'all' to vary"
    )
    p.add_argument("--no-camera", action="store_true", help="tap the balls in instead")
    p.add_argument("--no-table", action="store_true", help="count balls without the table")
    p.add_argument("--no-json", action="store_true", help="leave out the log and result JSON")
    return p


def run_demo(
    data_dir: Path,
    players: int = 3,
    seed: int = 7,
    board: int = 1,
    live=None,
    camera: bool = True,
    table: bool = True,
    light: str = "daylight",
) -> dict[str, Any]:
    """Play one game; return the result, the log and how the pipeline was made up."""
    if not 1 <= players <= 5:
        raise UsageError("--players must be 1-5")
    say = live or (lambda line: None)
    started = time.perf_counter()
    settings = Settings()
    config = GameConfig(
        NAMES[:players], {"board": board, "ask_threshold": settings.ask_threshold}, seed=seed
    )
    GAME.initial_state(config)  # refuse a bad board before anything is opened
    cam = Camera(light, seed, settings.ask_threshold) if camera and vision_ready() else None
    runtime = Runtime(settings)  # the same runtime as the app's, without a screen
    log = GameLog(paths.log_path(data_dir))
    refused: list[str] = []

    def narrate_event(ev: Event) -> None:
        line = say_event(ev)
        if line:
            say(line)

    def narrate_cue(cue: C.Cue) -> None:
        line = say_cue(cue)
        if line:
            say(line)

    def refusal(ev: Event, why: str) -> None:  # shown to people; the game goes on
        refused.append(f"{type(ev).__name__}: {why}")
        say(f"! {why}")

    runtime.subscribe(on_event=narrate_event, on_cue=narrate_cue, on_refusal=refusal)
    ready = cam is not None and card_vision_ready()
    cards = CardCamera(light, settings.ask_threshold, narrate_cue) if ready else None
    try:
        if table and hardware_ready():
            runtime.open_table(simulate=True)
        sim = runtime.hands  # the simulated table's hands; None: no table, touch only
        session = Session.start(GAME, log, config)
        runtime.play(session)

        def submit(ev: Event) -> tuple[C.Cue, ...]:
            """A person's touch."""
            narrate_event(ev)
            try:
                return runtime.submit(ev)
            except IllegalMove as exc:
                refusal(ev, str(exc))
                return ()

        def press(button: str) -> None:
            """The arcade button: through the table's debounced input when there is one."""
            if sim is None:
                submit(ButtonPressed(button))
                return
            pressed = threading.Event()
            stop = runtime.subscribe(
                on_event=lambda ev: ev == ButtonPressed(button) and pressed.set()
            )
            sim.press(button).wait(EVENT_WAIT)
            if not pressed.wait(EVENT_WAIT):
                submit(ButtonPressed(button))  # the press was lost: a person taps the screen
            stop()
            runtime.drain(EVENT_WAIT)

        def drop(colour: str) -> None:
            if sim is None:
                submit(BallPassed(1))
                return
            counted = threading.Event()
            stop = runtime.subscribe(on_event=lambda ev: ev == BallPassed() and counted.set())
            sim.drop_ball(colour).wait(EVENT_WAIT)
            counted.wait(EVENT_WAIT)
            stop()
            runtime.drain(EVENT_WAIT)

        first = session.state
        say(f"Color Milk, board {board}: {', '.join(first.names)}")
        say(f"== predict — {first.names[first.leader]}")
        rng = random.Random(seed)

        def read(balls: list[str]) -> list[BallSeen]:
            if cards is not None:
                cards.balls(balls)
            return cam.read(balls) if cam is not None else exact_reader(balls)

        scripted = ScriptedTable(
            submit,
            lambda: session.state,
            rng,
            drop=drop,
            press=press,
            coin_chance=DEMO_COIN_CHANCE,
            read=read,
            sense=runtime.sense if cam is not None else None,  # camera readings are sensed
            cards=cards,
            undo=runtime.undo,
        )
        final = scripted.play(max_rounds=60)
        runtime.drain(EVENT_WAIT)
        if not GAME.is_over(final):
            raise UsageError("the demo game did not finish (a bug: please report the seed)")
        result = GAME.summary(final)
        return {
            "result": result,
            "winners": list(GAME.winners(final)),
            "scores": GAME.scores(final),
            "rounds": final.round,
            "pipeline": {
                "camera": "rendered frames -> vision.balls.BallReader" if cam else "exact taps",
                "table": "hardware.table simulated (beam, LEDs, buzzer)" if sim else "direct",
                "cards": "rendered seat zones -> runtime.read_cards.CardAdapter -> ZoneRead"
                if cards
                else "tapped in",
            },
            "questions_asked": scripted.asked,
            "predictions": scripted.predictions,
            "refused": refused,
            "camera_frames": cam.frames if cam else 0,
            "card_frames": cards.frames if cards else 0,
            "seconds": round(time.perf_counter() - started, 2),
            "log": log.export(session.game_id),
        }
    finally:
        runtime.close()
        log.close()


def main(argv: list[str]) -> int:
    args = _parser().parse_args(argv)
    if args.seed < 0:
        raise UsageError(f"demo color-milk: --seed must be 0 or more, not {args.seed}")
    tmp = None
    if args.data_dir:
        data_dir = Path(args.data_dir).expanduser()
        try:  # the log must be writable there before a game starts
            data_dir.mkdir(parents=True, exist_ok=True)
            tempfile.TemporaryFile(dir=data_dir).close()
        except OSError as exc:
            raise UsageError(f"demo color-milk: --data-dir {data_dir}: {exc.strerror}") from None
    else:
        # A throw-away log: in memory where the system has a RAM disk, so fsyncs cost nothing.
        shm = Path("/dev/shm")
        where = str(shm) if shm.is_dir() and os.access(shm, os.W_OK) else None
        tmp = tempfile.mkdtemp(prefix="color-milk-demo-", dir=where)
        data_dir = Path(tmp)

    def live(line: str) -> None:
        print(line, flush=True)

    try:
        out = run_demo(
            players=args.players,
            seed=args.seed,
            board=args.board,
            data_dir=data_dir,
            live=live if args.live else None,
            camera=not args.no_camera,
            table=not args.no_table,
            light=args.light,
        )
        out["data_dir"] = None if tmp else str(data_dir)
        if not args.no_json:
            json.dump(out, sys.stdout, indent=1)
            sys.stdout.write("\n")
    finally:
        if tmp:
            shutil.rmtree(tmp, ignore_errors=True)
    return 0
