"""`companion import --bgstats`: a BG Stats export (the app's own `.bgsplay` or JSON file) into
the history, so a club that already logs its games in BG Stats brings its past plays.

The plays of our five games are taken (games matched by title, players by name to the names
the history already knows, ignoring case); other games' plays and plays the app marks as
ignored are skipped and counted. A BG Stats play holds scores and winners, not the moves, so
each becomes a scores-only game (its config says `scores_from: "BG Stats"`), and they go in
through the same import as another table's games (`sharing.import_games`): every field
checked as for any game from outside (names, players, dates, scores and winners; with no moves,
nothing is replayed: `game_check.check_scores_only`), short transactions, and a play already
here (same UUID, same scores) is not added twice. A file that is not a BG Stats export, or one
play that cannot be read or taken, refuses the whole file in one line.
"""

from __future__ import annotations

import json
import math
import re
import uuid as uuidlib
from collections import Counter
from datetime import UTC, datetime, timedelta
from typing import Any

from companion import catalogue
from companion.bgstats import DATE
from companion.players import MAX_NAME
from companion.sharing import FORMAT, ImportRefused, import_games
from companion.store import GameLog

MAX_BYTES = 64 * 2**20  # real exports of years of plays are a few MB
SCORES_FROM = "BG Stats"


class _Bad(ValueError):
    """One part of the file that cannot be read; becomes the one-line refusal."""


def import_bgstats(log: GameLog, data: bytes) -> dict[str, int]:
    """Read a BG Stats export and add its plays of our games to `log`; the counts of what
    was added and skipped. ImportRefused (nothing added) if the file cannot be read whole."""
    try:
        doc = _parse(data)
        lines, skipped = game_lines(doc, _known_players(log))
    except _Bad as exc:
        raise ImportRefused(f"{exc}; nothing was imported") from None
    try:
        added = import_games(log, [json.dumps(line) for line in lines])
    except ImportRefused as exc:  # our own check of a converted play: name the play
        raise ImportRefused(_name_play(str(exc), lines)) from None
    return {**added, "other_games": skipped["other"], "ignored_in_bgstats": skipped["ignored"]}


def _parse(data: bytes) -> dict[str, Any]:
    if len(data) > MAX_BYTES:
        raise _Bad(f"the file is larger than {MAX_BYTES // 2**20} MB: not a BG Stats export")
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise _Bad("not a BG Stats export (not UTF-8 text)") from None
    try:
        doc = json.loads(text, parse_constant=_no_constant)
    except (ValueError, RecursionError) as exc:
        raise _Bad(f"not a BG Stats export (not JSON: {exc})") from None
    if not isinstance(doc, dict) or not isinstance(doc.get("plays"), list):
        raise _Bad("not a BG Stats export (no list of plays)")
    for key in ("games", "players"):
        if not isinstance(doc.get(key), list):
            raise _Bad(f"not a BG Stats export (no list of {key})")
    return doc


def _no_constant(name: str):
    raise ValueError(f"{name} is not a number")


def _known_players(log: GameLog) -> dict[str, str]:
    """The history's player names by their case-folded form."""
    return {n.casefold(): n for r in log.games() for n in r.config.get("players", ())}


# matching ------------------------------------------------------------------------------------
def title_key(title: str) -> str:
    """A game's title as people write it: case, spaces, punctuation and colour/color aside."""
    return re.sub(r"[\W_]+", "", title.casefold().replace("colour", "color"))


def our_games() -> dict[str, str]:
    """Title key -> our game's name, for each game's title and its short name."""
    out = {}
    for g in catalogue.games():
        out[title_key(g.title)] = out[title_key(g.name)] = g.name
    return out


# the file's parts ------------------------------------------------------------------------------
def _ref_id(item: Any, where: str, key: str = "id") -> int:
    value = item.get(key) if isinstance(item, dict) else None
    if isinstance(value, bool) or not isinstance(value, int):
        raise _Bad(f"{where}: {key} must be a whole number")
    return value


def _text(item: dict, key: str, where: str) -> str:
    value = item.get(key)
    if not isinstance(value, str):
        raise _Bad(f"{where}: {key} must be text")
    return value


def _by_id(items: list, kind: str) -> dict[int, dict]:
    out: dict[int, dict] = {}
    for i, item in enumerate(items, start=1):
        ref = _ref_id(item, f"{kind} {i}")
        if ref in out:
            raise _Bad(f"{kind} {i}: id {ref} is used twice")
        out[ref] = item
    return out


def game_lines(doc: dict, known: dict[str, str]) -> tuple[list[dict], Counter]:
    """Our own export lines (`sharing.FORMAT`) for the file's plays of our games, and how many
    plays were skipped: {"other": other games' plays, "ignored": marked ignored in BG Stats}.
    `known`: player names by case-folded name; names met in the file are added to it."""
    titles = our_games()
    ours: dict[int, str | None] = {}
    for ref, g in _by_id(doc["games"], "game").items():
        where = f"game {ref}"
        name = titles.get(title_key(_text(g, "name", where)))
        if name is None and isinstance(g.get("bggName"), str):
            name = titles.get(title_key(g["bggName"]))
        ours[ref] = name
    people = _by_id(doc["players"], "player")
    lines, skipped = [], Counter(other=0, ignored=0)
    for i, play in enumerate(doc["plays"], start=1):
        where = f"play {i}"
        ref = _ref_id(play, where, "gameRefId")
        if ref not in ours:
            raise _Bad(f"{where}: gameRefId {ref} is not one of the file's games")
        game = ours[ref]
        if game is None:
            skipped["other"] += 1
            continue
        if play.get("ignored") is True:
            skipped["ignored"] += 1
            continue
        lines.append(_line(play, game, people, known, where))
    return lines, skipped


def _line(play: dict, game: str, people: dict, known: dict[str, str], where: str) -> dict:
    try:
        play_uuid = str(uuidlib.UUID(_text(play, "uuid", where)))
    except ValueError:
        raise _Bad(f"{where}: uuid {play['uuid']!r} is not a UUID") from None
    where = f"{where} ({catalogue.info(game).title}, {play.get('playDate')!s:.19})"
    minutes = play.get("durationMin", 0)
    if isinstance(minutes, bool) or not isinstance(minutes, int) or not 0 <= minutes < 10**5:
        raise _Bad(f"{where}: durationMin must be a whole number of minutes")
    started, finished = _times(_text(play, "playDate", where), minutes, where)
    seats = play.get("playerScores")
    if not isinstance(seats, list) or not seats:
        raise _Bad(f"{where}: a play needs a list of playerScores, one per player")
    players, scores, winners = [], {}, []
    for seat in _in_seat_order(seats, where):
        name = _player_name(seat, people, known, where)
        while name in players:  # the app lets one anonymous player sit twice
            name = _next_name(name)
        players.append(name)
        score = _score(seat.get("score"), f"{where}: {name}'s score")
        if score is not None:
            scores[name] = score
        won = seat.get("winner", False)
        if not isinstance(won, bool):
            raise _Bad(f"{where}: {name}'s winner must be true or false")
        if won:
            winners.append(name)
    return {
        "format": FORMAT,
        "uuid": play_uuid,
        "game": game,
        "config": {"players": players, "scores_from": SCORES_FROM},
        "started": started,
        "finished": finished,
        "status": "finished",
        "result": {"scores": scores, "winners": winners},
        "entries": [],
    }


def _times(text: str, minutes: int, where: str) -> tuple[str, str]:
    """When the play started and ended, in UTC as the log keeps them (the app writes local
    time)."""
    try:
        start = datetime.strptime(text.replace("T", " ")[:19], DATE).astimezone(UTC)
        end = start + timedelta(minutes=minutes)
    except (ValueError, OverflowError):  # not a date, or one at the very end of the calendar
        raise _Bad(f"{where}: playDate {text[:40]!r} is not a date (YYYY-MM-DD HH:MM:SS)") from None
    return start.isoformat(timespec="seconds"), end.isoformat(timespec="seconds")


def _in_seat_order(seats: list, where: str) -> list[dict]:
    if not all(isinstance(s, dict) for s in seats):
        raise _Bad(f"{where}: each of playerScores must be an object")
    order = [s.get("seatOrder") for s in seats]
    seated = all(isinstance(o, int) and not isinstance(o, bool) and o > 0 for o in order)
    if seated and len(set(order)) == len(order):  # 1-based seats, 0 = not set
        return sorted(seats, key=lambda s: s["seatOrder"])
    return seats


def _player_name(seat: dict, people: dict, known: dict[str, str], where: str) -> str:
    ref = _ref_id(seat, where, "playerRefId")
    person = people.get(ref)
    if person is None:
        raise _Bad(f"{where}: playerRefId {ref} is not one of the file's players")
    name = _text(person, "name", f"player {ref}").strip()
    if person.get("isAnonymous") is True and isinstance(seat.get("anonymousName"), str):
        name = seat["anonymousName"].strip() or name
    if not name:
        name = f"Player {ref}"
    if len(name) > MAX_NAME:
        raise _Bad(f"player {ref}: a name longer than {MAX_NAME} characters")
    return known.setdefault(name.casefold(), name)  # the first spelling met is kept


def _next_name(name: str) -> str:
    head, _, number = name.rpartition(" ")
    return f"{head} {int(number) + 1}" if head and number.isdigit() else f"{name} 2"


_SUM = re.compile(r"[\d.+\- ]*\d[\d.+\- ]*")
_TERM = re.compile(r"([+\-]*)\s*(\d+\.?\d*|\.\d+)")


def _score(value: Any, what: str) -> int | float | None:
    """A score as the app writes it: text ("12", "-3", "2.5", or a sum it adds up such as
    "12+5+3"), null or "" for none; a plain number is taken too."""
    if value is None or value == "":
        return None
    if isinstance(value, str) and _SUM.fullmatch(value.strip()):
        total = sum(
            (-1 if sign.count("-") % 2 else 1) * float(digits)
            for sign, digits in _TERM.findall(value)
        )
    elif isinstance(value, float) or (isinstance(value, int) and not isinstance(value, bool)):
        total = float(min(max(value, -1e300), 1e300))  # an int too large for a float
    else:
        raise _Bad(f"{what} {str(value)[:40]!r} is not a number")
    if not math.isfinite(total) or abs(total) > 1e9:
        raise _Bad(f"{what} {str(value)[:40]!r} is out of range")
    total = round(total, 6)
    return int(total) if total.is_integer() else total


def _name_play(message: str, lines: list[dict]) -> str:
    """Our import names the line it refuses; here a line is a play of the file."""
    match = re.match(r"line (\d+): (.*)", message)
    if not match or not 0 < int(match[1]) <= len(lines):
        return message
    line = lines[int(match[1]) - 1]
    title = catalogue.info(line["game"]).title
    return f"BG Stats play {line['uuid']} ({title}, {line['started'][:10]}): {match[2]}"
