"""A deterministic Color Milk game played through a real Session and GameLog.

    python tests/pi/scripted_game.py DATA_DIR [--seed N] [--delay S]

Resumes the unfinished game in DATA_DIR's log (or starts one) and plays it to the end,
printing `<seq> <entry as JSON>` after every entry the log has committed. The move made at
log entry n depends only on (seed, n, the state), so a game killed and resumed any number of
times must end exactly like one played straight through, unless the log lost something.
Only the rules and the store are imported (no Kivy, no OpenCV): it starts in a blink.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from companion import events as ev  # noqa: E402
from companion.catalogue import load  # noqa: E402
from companion.game import GameConfig  # noqa: E402
from companion.session import Session  # noqa: E402
from companion.store import GameLog  # noqa: E402

GAME = "color-milk"
PLAYERS = ("Anna", "Ben", "Chloe")
UNDO_CHANCE = 0.06
REDO_CHANCE = 0.5


def candidates(game, state) -> list:
    """What a table could enter now: the rules' legal actions plus unrevealed predictions."""
    from companion.games.color_milk.events import Predict, Tally
    from companion.games.color_milk.rules import COLOURS, READING_PHASES

    acts = list(game.legal_actions(state))
    if state.phase in READING_PHASES:
        for p in state.players:
            if not p.prediction:
                acts += [Predict(p.name, (a,)) for a in COLOURS]
                acts += [Predict(p.name, (a, b)) for a in COLOURS for b in COLOURS if a < b]
    if state.phase == "colour":  # the coins each player's colouring earned
        acts += [Tally(p.name, "coins", 1) for p in state.players]
    return acts


def next_move(game, session: Session, n: int, seed: int) -> tuple[str, object]:
    """The move for log entry n: ("undo"|"redo", None) or ("event", event)."""
    rng = random.Random(seed * 1_000_003 + n)
    roll = rng.random()
    if session.can_undo and roll < UNDO_CHANCE:
        return "undo", None
    if session.can_redo and roll < UNDO_CHANCE + REDO_CHANCE * (1 - UNDO_CHANCE):
        return "redo", None
    return "event", rng.choice(candidates(game, session.state))


def open_session(log: GameLog, seed: int) -> Session:
    game = load(GAME)
    # This log holds one game: resume it even if it already ended (the kill may have come
    # between its last entry and the word "over").
    records = log.games()
    if records:
        return Session.resume(game, log, records[-1].id)
    return Session.start(game, log, GameConfig(players=PLAYERS, seed=seed))


def play(data_dir: Path, seed: int, delay: float = 0.0, out=sys.stdout) -> None:
    with GameLog(data_dir / "games.sqlite3") as log:
        _play(log, seed, delay, out)


def _play(log: GameLog, seed: int, delay: float, out) -> None:
    session = open_session(log, seed)
    game = session.game
    n = len(log.entries(session.game_id))
    print(f"resumed {session.game_id} at {n}", file=out, flush=True)
    while not game.is_over(session.state):
        kind, event = next_move(game, session, n + 1, seed)
        if kind == "undo":
            session.undo()
        elif kind == "redo":
            session.redo()
        else:
            session.submit(event)
        n += 1
        payload = ev.to_dict(event) if event is not None else None
        print(f"{n} {json.dumps([kind, payload], sort_keys=True)}", file=out, flush=True)
        if delay:
            time.sleep(delay)
    print("over", file=out, flush=True)


def main() -> int:
    p = argparse.ArgumentParser()
    p.add_argument("data_dir", type=Path)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--delay", type=float, default=0.0)
    a = p.parse_args()
    a.data_dir.mkdir(parents=True, exist_ok=True)
    play(a.data_dir, a.seed, a.delay)
    return 0


if __name__ == "__main__":
    sys.exit(main())
