"""`companion`: the app and its scriptable tools. Errors are one line, never a traceback.

companion run [--simulate] [--screenshot PATH]    the touchscreen app
companion games                                   the games and their tools (JSON)
companion replay LOG [--game ID]                  re-apply a game log, print the state
companion doctor [--json]                         self-test of every part
companion export [--game ID | --all] [--bgstats]  games as JSON Lines (or a BG Stats file)
companion import [--bgstats] FILE                 merge another table's games (or BG Stats plays)
companion stats [--game NAME]                     statistics per player and game (JSON)
companion history [--game NAME] [--player NAME]   finished games, newest first (JSON)
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
    _sharing_parsers(sub)
    return p


def _sharing_parsers(sub) -> None:
    ex = sub.add_parser("export", help="print games as JSON Lines, one game per line")
    which = ex.add_mutually_exclusive_group()
    which.add_argument("--game", type=int, metavar="ID", help="only this game")
    which.add_argument("--all", action="store_true", help="every finished game (default)")
    ex.add_argument(
        "--bgstats", action="store_true", help="a BG Stats file (.bgsplay) of the finished games"
    )
    _data_dir_arg(ex)
    im = sub.add_parser("import", help="merge games exported by another table")
    im.add_argument("file", help="a JSON Lines file from `companion export` (- for stdin)")
    im.add_argument(
        "--bgstats",
        action="store_true",
        help="FILE is a BG Stats export (.bgsplay or .json): its plays of these games",
    )
    _data_dir_arg(im)
    st = sub.add_parser("stats", help="statistics per player and game as JSON")
    st.add_argument("--game", help="only this game (a name `companion games` lists)")
    _data_dir_arg(st)
    hi = sub.add_parser("history", help="finished games, newest first, as JSON")
    hi.add_argument("--game", help="only this game (a name `companion games` lists)")
    hi.add_argument("--player", help="only games this player played")
    _data_dir_arg(hi)


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    try:
        return _dispatch(argv)
    except UsageError as exc:
        print(f"companion: error: {_one_line(exc)}", file=sys.stderr)
        return 2
    except (CompanionError, OSError) as exc:
        print(f"companion: error: {_one_line(exc)}", file=sys.stderr)
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


def _one_line(exc: BaseException) -> str:
    """The message on one line, however many line breaks the input it quotes holds."""
    return " ".join(str(exc).splitlines())


def _dispatch(argv: list[str]) -> int:
    from companion import catalogue

    # `companion <tool> <game> ...` is routed to the game's own tool.
    if argv and argv[0] == "vision":
        from vision.cli import main as vision_main

        return vision_main(argv[1:])
    if argv and not argv[0].startswith("-") and argv[0] not in _FIXED:
        tool = argv[0]
        if len(argv) < 2:
            raise UsageError(f"usage: companion {tool} GAME ...")
        offered = catalogue.verbs(argv[1])
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
    from companion import catalogue

    out = [
        {
            "name": g.name,
            "title": g.title,
            "players": list(g.players),
            "about": g.blurb,
            "tools": sorted(catalogue.verbs(g.name)),
        }
        for g in catalogue.games()
    ]
    print(json.dumps(out, indent=2))
    return 0


def _cmd_replay(args) -> int:
    from companion import catalogue
    from companion.codec import jsonable
    from companion.session import config_from_json, replay
    from companion.store import GameLog

    path = Path(args.log)
    if not path.exists():
        raise UsageError(f"no such log: {path}")
    if path.suffix == ".json":
        name, config, entries = _json_log(path)
        game_id = None
    else:
        with GameLog(path, read_only=True) as log:  # looked at, never written
            records = log.games()
            if not records:
                raise UsageError(f"{path} holds no games")
            rec = log.game(args.game) if args.game else records[-1]
            name, config, entries, game_id = rec.game, rec.config, log.entries(rec.id), rec.id
    game = catalogue.load(name)
    try:
        states, _ = replay(game, config_from_json(config), entries)
    except (CompanionError, LookupError, TypeError, ValueError, ArithmeticError) as exc:
        if game_id is not None:  # our own log: a failure here is not the user's input
            raise
        # An exported log comes from outside: whatever its events break is its fault.
        what = "" if isinstance(exc, CompanionError) else f"{type(exc).__name__}: "
        raise UsageError(f"{path} holds an event that cannot be replayed: {what}{exc}") from None
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


def _json_log(path: Path) -> tuple[str, dict, list]:
    """An exported log's game, config and entries, checked; malformed is a UsageError."""
    from companion import catalogue
    from companion.codec import loads, mistyped
    from companion.entries import iter_entries, refuse_set_aside
    from companion.events import from_dict

    doc = loads(path.read_bytes(), str(path))
    if not isinstance(doc, dict) or not isinstance(doc.get("game"), str):
        raise UsageError(f"{path} is not an exported game log (no game name)")
    refuse_set_aside(doc)
    catalogue.load(doc["game"])  # an unknown game is refused; a known one registers its events
    config, entries = doc.get("config"), doc.get("entries", [])
    players = config.get("players") if isinstance(config, dict) else None
    if not isinstance(players, list) or not all(isinstance(p, str) and p for p in players):
        raise UsageError(f"{path}: config.players must be a list of names")
    if not isinstance(config.get("options", {}), dict) or not isinstance(
        config.get("seed", 0), int
    ):
        raise UsageError(f"{path}: config.options must be an object and config.seed a number")
    if not isinstance(config.get("teams", []), list | None):
        raise UsageError(f"{path}: config.teams must be a list")
    if not isinstance(entries, list):
        raise UsageError(f"{path}: entries must be a list")
    for i, e in enumerate(entries, start=1):
        if (
            not isinstance(e, dict)
            or e.get("kind") not in ("event", "undo", "redo")
            or not isinstance(e.get("seq", i), int)
            or (e["kind"] == "event" and not _is_event(e.get("event")))
        ):
            raise UsageError(f"{path}: entry {i} is malformed: {json.dumps(e)[:80]}")
        if e["kind"] == "event":
            try:
                wrong = mistyped(from_dict(e["event"]))
            except UsageError as exc:  # an unknown event type
                raise UsageError(f"{path}: entry {i}: {exc}") from None
            if wrong:
                raise UsageError(f"{path}: entry {i} ({e['event']['type']}): {wrong}")
    return doc["game"], config, list(iter_entries(doc))


def _is_event(payload) -> bool:
    return isinstance(payload, dict) and isinstance(payload.get("type"), str)


def _cmd_doctor(args) -> int:
    from companion.doctor import run_doctor

    return run_doctor(args)


def _cmd_restore(args) -> int:
    from companion import paths
    from companion.store.backups import Backups
    from companion.store.restore import restore

    log = paths.log_path(paths.data_dir(args.data_dir))
    if args.list:
        out = {"log": str(log), "backups": [b.as_json() for b in Backups(log).list()]}
    else:
        out = restore(log, Path(args.source) if args.source else None)
    print(json.dumps(out, indent=2))
    return 0


def _cmd_run(args) -> int:
    from companion.ui.launch import launch

    return launch(args)


def _cmd_sharing(args) -> int:
    from companion.sharing_cli import run

    return run(args)


_COMMANDS = {
    "games": _cmd_games,
    "replay": _cmd_replay,
    "doctor": _cmd_doctor,
    "run": _cmd_run,
    "restore": _cmd_restore,
    "export": _cmd_sharing,
    "import": _cmd_sharing,
    "stats": _cmd_sharing,
    "history": _cmd_sharing,
}
_FIXED = set(_COMMANDS) | {"help"}


if __name__ == "__main__":
    raise SystemExit(main())
