"""A game from outside the log (another table's export, another app's record) checked before
it joins the log: every field a screen or tool reads later, with its type, range and size;
its moves replayed through its own rules; its result derived from that replay.

    checked = check_game("laser", config, "finished", started, finished, entries, result)

A game brought in with its final scores but not its moves (its config says where from in
`scores_from`: a BG Stats play) has nothing to replay: `check_scores_only` checks each of its
fields on its own and keeps the result it states.

Pure: no files, no log. A refusal is a GameRefused saying what is wrong (the caller adds
where: a line of a file). The pieces are usable alone: `check_config` and `check_date` for a
record without moves, `replayed_result` for moves without a stated result.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from companion import catalogue
from companion import events as ev
from companion.codec import mistyped
from companion.entries import Entry, fold_entries
from companion.errors import UsageError
from companion.players import MAX_NAME, MAX_PLAYERS, name_problem
from companion.session import config_from_json

SHARED = ("finished", "abandoned")  # a game still in play stays on its own table
KINDS = ("event", "undo", "redo")
MAX_ENTRIES = 20_000  # a long game logs a few thousand
MAX_OPTIONS = 64
MAX_TEXT = 200  # an option's text (a mode, a variant)
MAX_LIST = 64  # an option's list (colours)
MAX_DATE = 40
MAX_SEED = 2**63
MAX_SCORE = 10**9  # a stated score, not counted from moves: no game of ours comes near
# Clocks of two tables disagree (a Pi has no clock of its own until it finds a network):
# "in the future" means by more than this.
CLOCK_SLACK = timedelta(days=1)


class GameRefused(ValueError):
    """A game from outside that cannot join the log as it is; the message says why."""


@dataclass(frozen=True)
class CheckedGame:
    game: str
    config: dict[str, Any]
    status: str
    started: str
    finished: str | None
    result: dict[str, Any]  # derived from the replay, never taken on trust
    entries: tuple[tuple[Entry, str], ...]  # each entry with when it was written


def check_game(
    name: Any,
    config: Any,
    status: Any,
    started: Any,
    finished: Any,
    entries: Any,
    result: Any = None,
    now: datetime | None = None,
) -> CheckedGame:
    """The game, checked whole (see the module doc); GameRefused saying why not. `result`
    is what the other side says the game ended with: a finished game's must be what its
    moves give; an abandoned game's may also be empty."""
    now = now or datetime.now(UTC)
    game = check_game_name(name)
    if status not in SHARED:
        raise GameRefused(f"it is {_said(status)}; only finished or abandoned games move")
    config = check_config(game, config)
    started = check_date(started, "started", now)
    if finished is not None or status == "finished":
        finished = check_date(finished, "finished", now)
    checked = check_entries(game, entries, started, now)
    over, derived = replayed_result(game, config, (e for e, _at in checked))
    if status == "finished" and not over:
        raise GameRefused("it is marked finished but its moves do not finish the game")
    if status == "abandoned" and over:
        raise GameRefused("it is marked abandoned but its moves finish the game")
    stated = status == "finished" or result not in (None, {})
    if stated and (why := result_mismatch(result, derived)):
        raise GameRefused(f"its result does not follow from its moves ({why})")
    return CheckedGame(game, config, status, started, finished, derived, tuple(checked))


def check_game_name(name: Any) -> str:
    if not isinstance(name, str) or name not in {g.name for g in catalogue.games()}:
        raise GameRefused(f"unknown game {_said(name)}")
    catalogue.load(name)  # registers the game's own event types
    return name


def check_config(game: str, config: Any) -> dict[str, Any]:
    """The set-up as the log stores it: players (names people can read), options (plain
    values of bounded size), seed and teams. Returns it as stored."""
    if not isinstance(config, dict):
        raise GameRefused("config must be an object")
    _known_keys(config, {"players", "options", "seed", "teams"})
    players = check_players(game, config.get("players"))
    out: dict[str, Any] = {"players": players}
    options = config.get("options", {})
    if not isinstance(options, dict) or len(options) > MAX_OPTIONS:
        raise GameRefused(f"config.options must be an object of at most {MAX_OPTIONS} options")
    for key, value in options.items():
        if len(key) > MAX_NAME or not _plain(value):
            raise GameRefused(f"option {_said(key)} is not a plain value: {_said(value)}")
    out["options"] = dict(options)
    seed = config.get("seed", 0)
    if not _whole(seed) or not 0 <= seed < MAX_SEED:
        raise GameRefused(f"config.seed must be a whole number from 0, not {_said(seed)}")
    out["seed"] = seed
    if "teams" in config and config["teams"] is not None:
        teams = config["teams"]
        if not isinstance(teams, list) or len(teams) != len(players):
            raise GameRefused("config.teams must list one team (or null) per player")
        for team in teams:
            if team is not None and name_problem(team):
                raise GameRefused(f"team {_said(team)}: {name_problem(team)}")
        out["teams"] = list(teams)
    return out


def check_players(game: str, players: Any) -> list[str]:
    """The players' names: as many as the game seats, each one people can read, no two
    alike."""
    lo, hi = catalogue.info(game).players
    if not isinstance(players, list) or not 1 <= len(players) <= MAX_PLAYERS:
        raise GameRefused(f"config.players must be a list of 1 to {MAX_PLAYERS} names")
    if not lo <= len(players) <= hi:
        raise GameRefused(
            f"{catalogue.info(game).title} is for {lo}-{hi} players, not {len(players)}"
        )
    for name in players:
        if why := name_problem(name):
            raise GameRefused(f"player {_said(name)}: {why}")
    if len(set(players)) != len(players):
        raise GameRefused("two players have the same name")
    return list(players)


def _known_keys(config: dict, known: set[str]) -> None:
    extra = sorted(set(config) - known)
    if extra:
        raise GameRefused(f"config holds unknown {', '.join(map(_said, extra))[:80]}")


def check_date(value: Any, what: str, now: datetime | None = None) -> str:
    """An ISO 8601 date and time, not in the future (by this box's clock, give or take
    CLOCK_SLACK). Returned as given."""
    if not isinstance(value, str) or len(value) > MAX_DATE:
        raise GameRefused(f"{what} must be a date and time, not {_said(value)}")
    try:
        when = datetime.fromisoformat(value)
    except ValueError:
        raise GameRefused(f"{what} must be a date and time, not {_said(value)}") from None
    when = when if when.tzinfo else when.replace(tzinfo=UTC)
    now = now or datetime.now(UTC)
    if when > now + CLOCK_SLACK:
        raise GameRefused(
            f"{what} {value} is in the future (this box's clock says {now:%Y-%m-%d %H:%M})"
        )
    return value


def check_entries(game: str, raw: Any, started: str, now: datetime) -> list[tuple[Entry, str]]:
    """The entries as written: numbered from 1, each an event of this game (or a core one),
    an undo or a redo, with when it was written."""
    if not isinstance(raw, list) or len(raw) > MAX_ENTRIES:
        raise GameRefused(f"entries must be a list of at most {MAX_ENTRIES}")
    own = (f"{game}.", "core.")
    out = []
    for i, e in enumerate(raw, start=1):
        if not isinstance(e, dict) or e.get("seq") != i or e.get("kind") not in KINDS:
            raise GameRefused(f"entry {i} is malformed")
        payload = e.get("event")
        if (e["kind"] == "event") != (payload is not None):
            raise GameRefused(f"entry {i} is malformed")
        if payload is not None:
            kind = payload.get("type") if isinstance(payload, dict) else None
            if not isinstance(kind, str):
                raise GameRefused(f"entry {i} is malformed (an event needs a type)")
            if not kind.startswith(own):
                raise GameRefused(f"entry {i}: {_said(kind)} is not an event of {game}")
            check_event(payload, i)
        at = e.get("at")
        at = started if at is None else check_date(at, f"entry {i}'s time", now)
        out.append((Entry(i, e["kind"], payload), at))
    return out


_EVENT_SHAPES: set[tuple] = set()  # event shapes already decoded once


def check_event(payload: dict, i: int) -> None:
    """GameRefused unless `payload` decodes to one of the registered events with every field
    of its declared type. Decoding depends only on the payload's shape: each shape once."""
    shape = (payload["type"], _shape(payload))
    if shape in _EVENT_SHAPES:
        return
    try:
        wrong = mistyped(ev.from_dict(payload))
    except UsageError as exc:
        raise GameRefused(f"entry {i}: {exc}") from None
    if wrong:
        raise GameRefused(f"entry {i} ({payload['type']}): {wrong}")
    _EVENT_SHAPES.add(shape)


def replayed_result(game: str, config: dict[str, Any], entries: Iterable[Entry]):
    """Replay the moves through the game's rules: (whether it is over, its result as the
    log stores it). GameRefused if the rules refuse a move or the set-up. Every move is
    applied, the undone ones too; only the newest state is kept."""
    rules = catalogue.load(game)
    done, undone = fold_entries(entries)
    try:
        state = rules.initial_state(config_from_json(config))
    except Exception as exc:  # whatever the set-up breaks is the file's fault, not ours
        raise GameRefused(f"its set-up is refused: {_why(exc)}") from None
    for n, payload in enumerate(done, start=1):
        state = _apply(rules, state, payload, f"move {n}")
    later = state
    for payload in reversed(undone):  # each undone move must have been legal where it was
        later = _apply(rules, later, payload, "an undone move")
    try:
        result = {
            "scores": dict(rules.scores(state)),
            "winners": list(rules.winners(state)),
        }
        return bool(rules.is_over(state)), result
    except Exception as exc:
        raise GameRefused(f"its final scores cannot be counted: {_why(exc)}") from None


def _apply(rules, state, payload: dict, what: str):
    try:
        return rules.apply(state, ev.from_dict(payload))[0]
    except Exception as exc:
        raise GameRefused(f"{what} ({payload.get('type')}) is refused: {_why(exc)}") from None


def result_mismatch(stated: Any, derived: dict[str, Any]) -> str | None:
    """What differs between a stated result and the replayed one, or None."""
    if not isinstance(stated, dict):
        return "no result given"
    scores, winners = stated.get("scores"), stated.get("winners")
    if not isinstance(scores, dict) or not isinstance(winners, list):
        return "a result needs scores and winners"
    want = derived["scores"]
    if set(scores) != set(want):
        return "the scores name other players"
    for name, value in want.items():
        got = scores[name]
        if not _number(got) or (got != value and not _close(got, value)):
            return f"{name} scored {_said(value)}, not {_said(got)}"
    if not all(isinstance(w, str) for w in winners) or sorted(winners) != sorted(
        derived["winners"]
    ):
        return f"the winners are {', '.join(derived['winners']) or 'nobody'}"
    return None


# a game with its scores only (entries.scores_only) -------------------------------------------
def check_scores_only(
    name: Any,
    config: Any,
    status: Any,
    started: Any,
    finished: Any,
    entries: Any,
    result: Any,
    now: datetime | None = None,
) -> CheckedGame:
    """A finished game of ours with its players and where its scores come from (config
    {"players", "scores_from"}), its dates, no moves, and a result: scores that are numbers
    of its players, winners among them. There are no moves to derive the result from, so
    the one stated is kept (a tie broken by hand stays broken as it was)."""
    now = now or datetime.now(UTC)
    game = check_game_name(name)
    if status != "finished":
        raise GameRefused(f"a game with its scores only is finished, not {_said(status)}")
    if not isinstance(config, dict):
        raise GameRefused("config must be an object")
    _known_keys(config, {"players", "scores_from"})
    source = config["scores_from"]
    if not isinstance(source, str) or name_problem(source):
        raise GameRefused(
            f"config.scores_from must name where the scores come from, not {_said(source)}"
        )
    players = check_players(game, config.get("players"))
    started = check_date(started, "started", now)
    finished = check_date(finished, "finished", now)
    if entries != []:
        raise GameRefused("a game with its scores only has no moves (entries must be [])")
    stated = check_stated_result(result, players)
    config = {"players": players, "scores_from": source}
    return CheckedGame(game, config, "finished", started, finished, stated, ())


def check_stated_result(result: Any, players: list[str]) -> dict[str, Any]:
    """A result as stated, not derived: {"scores": a number (within MAX_SCORE) for any of
    the players, "winners": some of them}. Returned as the log stores it."""
    if not isinstance(result, dict) or set(result) != {"scores", "winners"}:
        raise GameRefused("its result must hold scores and winners, and nothing else")
    scores, winners = result["scores"], result["winners"]
    if not isinstance(scores, dict) or not isinstance(winners, list):
        raise GameRefused("its result must hold scores (an object) and winners (a list)")
    for who, value in scores.items():
        if who not in players:
            raise GameRefused(f"a score is given for {_said(who)}, who did not play")
        if not _number(value) or abs(value) > MAX_SCORE:
            raise GameRefused(f"{who}'s score {_said(value)} is not a number of points")
    for who in winners:
        if not isinstance(who, str) or who not in players:
            raise GameRefused(f"the winner {_said(who)} did not play")
    if len(set(winners)) != len(winners):
        raise GameRefused("a winner is named twice")
    return {"scores": dict(scores), "winners": list(winners)}


def _close(a, b) -> bool:
    return _number(b) and math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-9)


def _number(v: Any) -> bool:
    return isinstance(v, int | float) and not isinstance(v, bool) and math.isfinite(v)


def _whole(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _plain(value: Any, depth: int = 0) -> bool:
    """A value an option may hold: text, a number, true/false, null, or a short list of
    those."""
    if value is None or isinstance(value, bool) or _whole(value):
        return True
    if isinstance(value, float):
        return math.isfinite(value)
    if isinstance(value, str):
        return len(value) <= MAX_TEXT
    if isinstance(value, list) and depth == 0:
        return len(value) <= MAX_LIST and all(_plain(v, 1) for v in value)
    return False


def _shape(value: Any) -> Any:
    kind = type(value)
    if kind is dict:
        return tuple((k, _shape(v)) for k, v in value.items())
    if kind is list:
        return tuple(map(_shape, value))
    return kind


def _why(exc: Exception) -> str:
    from companion.errors import CompanionError

    return str(exc) if isinstance(exc, CompanionError) else f"{type(exc).__name__}: {exc}"


def _said(value: Any) -> str:
    """A value quoted in a message, never long."""
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."
