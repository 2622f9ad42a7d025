"""`companion`: the app and its scriptable tools. Errors are one line, never a traceback.

companion run [--simulate] [--screenshot PATH]    the touchscreen app
companion games                                   the games and their tools (JSON)
companion replay LOG [--game ID]                  re-apply a game log, print the state
companion doctor [--json]                         self-test of every part
companion restore [--list] [--from FILE]          put a backup of the game log back (JSON)
companion vision calibrate|classify ...           the camera's colour classifier
companion <tool> <game> ...                       a game's tool: odds, score, solve, demo
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import traceback
from pathlib import Path

from companion import __version__
from companion.errors import CompanionError, UsageError


class _Parser(argparse.ArgumentParser):
    def error(self, message: str):  # argparse prints usage + message; we want one line
        raise UsageError(f"{self.prog}: {message}")


def _data_dir_arg(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--data-dir",
        help="where the game log and settings live "
        "(default: $COMPANION_DATA_DIR or the platform's user data dir)",
    )


def _parser() -> _Parser:
    p = _Parser(prog="companion", description="Table Companion for physical colour games.")
    p.add_argument("--version", action="version", version=f"companion {__version__}")
    sub = p.add_subparsers(dest="command", parser_class=_Parser, metavar="COMMAND")

    run = sub.add_parser("run", help="start the touchscreen app")
    run.add_argument(
        "--simulate",
        action="store_true",
        help="use the simulated table even if Pi hardware is present",
    )
    run.add_argument(
        "--screenshot", metavar="PATH", help="render the start screen to a PNG and exit"
    )
    run.add_argument("--size", default="800x480", help="window size WxH (default 800x480)")
    run.add_argument("--screen", default="home", help="with --screenshot: which screen")
    _data_dir_arg(run)

    sub.add_parser("games", help="list the supported games and their tools as JSON")

    rp = sub.add_parser("replay", help="re-apply a saved game log and print the final state")
    rp.add_argument("log", help="a game log (.sqlite3) or an exported JSON log")
    rp.add_argument("--game", type=int, help="which game in the log (default: the latest)")

    rs = sub.add_parser(
        "restore",
        help="put the newest backup of the game log in place (the log it replaces is set "
        "aside, never deleted) and print what was done as JSON; stop the app first",
    )
    rs.add_argument("--list", action="store_true", help="list the backups as JSON, change nothing")
    rs.add_argument("--from", dest="source", metavar="FILE", help="restore this backup instead")
    _data_dir_arg(rs)

    doc = sub.add_parser("doctor", help="check every configured part and print a table")
    doc.add_argument("--json", action="store_true", help="print the results as JSON")
    doc.add_argument("--simulate", action="store_true", help="check the simulated table")
    _data_dir_arg(doc)
    return p


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    try:
        return _dispatch(argv)
    except UsageError as exc:
        print(f"companion: error: {exc}", file=sys.stderr)
        return 2
    except (CompanionError, OSError) as exc:
        print(f"companion: error: {exc}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return 130
    except Exception as exc:  # a bug: one line for people, the trace on request
        if os.environ.get("COMPANION_DEBUG"):
            traceback.print_exc()
        print(
            f"companion: internal error: {type(exc).__name__}: {exc} "
            "(set COMPANION_DEBUG=1 for details)",
            file=sys.stderr,
        )
        return 70


def _dispatch(argv: list[str]) -> int:
    from companion import games

    # `companion <tool> <game> ...` is routed to the game's own tool.
    if argv and argv[0] == "vision":
        from vision.cli import main as vision_main

        return vision_main(argv[1:])
    if argv and not argv[0].startswith("-") and argv[0] not in _FIXED:
        tool = argv[0]
        if len(argv) < 2:
            raise UsageError(f"usage: companion {tool} GAME ...")
        offered = games.verbs(argv[1])
        if tool not in offered:
            have = ", ".join(sorted(offered)) or "none"
            raise UsageError(f"{argv[1]} has no tool {tool!r} (it has: {have})")
        return int(offered[tool](argv[2:]) or 0)

    args = _parser().parse_args(argv)
    if args.command is None:
        _parser().print_help()
        return 0
    return _COMMANDS[args.command](args)


def _cmd_games(args) -> int:
    from companion import games

    out = [
        {
            "name": g.name,
            "title": g.title,
            "players": list(g.players),
            "about": g.blurb,
            "tools": sorted(games.verbs(g.name)),
        }
        for g in games.CATALOGUE
    ]
    print(json.dumps(out, indent=2))
    return 0


def _cmd_replay(args) -> int:
    from companion import games
    from companion.codec import jsonable
    from companion.session import config_from_json, replay
    from companion.store import GameLog, iter_entries

    path = Path(args.log)
    if not path.exists():
        raise UsageError(f"no such log: {path}")
    if path.suffix == ".json":
        try:
            doc = json.loads(path.read_text())
        except ValueError as exc:
            raise UsageError(f"{path} is not valid JSON: {exc}") from None
        name, config, entries = doc["game"], doc["config"], list(iter_entries(doc))
        game_id = None
    else:
        with GameLog(path) as log:
            records = log.games()
            if not records:
                raise UsageError(f"{path} holds no games")
            rec = log.game(args.game) if args.game else records[-1]
            name, config, entries, game_id = rec.game, rec.config, log.entries(rec.id), rec.id
    game = games.load(name)
    states, _ = replay(game, config_from_json(config), entries)
    state = states[-1]
    print(
        json.dumps(
            {
                "game": name,
                "game_id": game_id,
                "events": len(states) - 1,
                "is_over": game.is_over(state),
                "scores": dict(game.scores(state)),
                "winners": list(game.winners(state)),
                "state": jsonable(state),
            },
            indent=2,
        )
    )
    return 0


def _cmd_doctor(args) -> int:
    from companion.doctor import run_doctor

    return run_doctor(args)


def _cmd_restore(args) -> int:
    from companion import backup, paths

    log = paths.log_path(paths.data_dir(args.data_dir))
    if args.list:
        out = {"log": str(log), "backups": [b.as_json() for b in backup.Backups(log).list()]}
    else:
        out = backup.restore(log, Path(args.source) if args.source else None)
    print(json.dumps(out, indent=2))
    return 0


def _cmd_run(args) -> int:
    from companion.ui.launch import launch

    return launch(args)


_COMMANDS = {
    "games": _cmd_games,
    "replay": _cmd_replay,
    "doctor": _cmd_doctor,
    "restore": _cmd_restore,
    "run": _cmd_run,
}
_FIXED = set(_COMMANDS) | {"help"}


if __name__ == "__main__":
    raise SystemExit(main())
