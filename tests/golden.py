"""Golden playthrough logs of every game, and the one command that regenerates them.

Each test folder with a `playthroughs.py` (tests/<game>/, and tests/sixth_game/ for the
test-only game) declares `PLAYTHROUGHS = {stem: play}`, where `play(tmp_dir)` plays a whole
seeded game through a Session and returns its exported log. The golden file
`<folder>/data/<stem>.json` holds that log and the result its replay reached.

    python -m tests.golden           # check: every playthrough still writes its golden file
    python -m tests.golden --write   # regenerate them all (after a deliberate rules change)

tests/test_golden.py replays every golden file against today's rules.
"""

from __future__ import annotations

import argparse
import importlib
import json
import sys
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

TESTS = Path(__file__).parent


def folders() -> list[Path]:
    return sorted(p.parent for p in TESTS.glob("*/playthroughs.py"))


def playthroughs() -> Iterator[tuple[Path, Callable[[Path], dict]]]:
    """(golden file, play) of every playthrough declared in a test folder."""
    for folder in folders():
        module = importlib.import_module(f"tests.{folder.name}.playthroughs")
        for stem, play in module.PLAYTHROUGHS.items():
            yield folder / "data" / f"{stem}.json", play


def golden_files() -> list[Path]:
    return sorted(TESTS.glob("*/data/golden-*.json"))


def replayed(doc: dict) -> tuple[Any, Any, list]:
    """(game, final state, redo stack) of a golden file's log."""
    from companion import catalogue
    from companion.entries import iter_entries
    from companion.session import config_from_json, replay

    log = doc["log"]
    game = catalogue.load(log["game"])
    states, redo = replay(game, config_from_json(log["config"]), list(iter_entries(log)))
    return game, states[-1], redo


def result(game, state) -> dict:
    """What a golden file records about the end: the game's own summary if it has one."""
    if hasattr(game, "summary"):
        return game.summary(state)
    return {"scores": dict(game.scores(state)), "winners": list(game.winners(state))}


def record(play: Callable[[Path], dict]) -> dict:
    with tempfile.TemporaryDirectory(prefix="golden-") as tmp:
        log = play(Path(tmp))
    game, final, _ = replayed({"log": log})
    return {"log": log, "result": result(game, final)}


def main(argv: list[str] | None = None) -> int:
    from tests.sixth_game.catalogue import sixth_game_in_catalogue

    p = argparse.ArgumentParser(prog="python -m tests.golden", description=__doc__.split("\n")[0])
    p.add_argument("--write", action="store_true", help="regenerate every golden file")
    args = p.parse_args(argv)
    stale = 0
    with sixth_game_in_catalogue():
        for path, play in playthroughs():
            text = json.dumps(record(play), indent=1, sort_keys=True) + "\n"
            same = path.exists() and json.loads(path.read_text()) == json.loads(text)
            if args.write and not same:
                path.parent.mkdir(exist_ok=True)
                path.write_text(text)
            print(f"{'same' if same else 'written' if args.write else 'DIFFERS'}  {path}")
            stale += not same
    return 0 if args.write or not stale else 1


if __name__ == "__main__":
    sys.exit(main())
