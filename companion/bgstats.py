"""BG Stats, the phone app many clubs keep their plays in: finished games as a BG Stats file
(`.bgsplay`) laid out as the app itself writes one, and one game as the app's documented
per-play import link, which the results screen's QR code can carry. Reading a BG Stats file
into the history is `bgstats_import.py`.

The file carries every key the app's own exports always carry (observed in real exports:
tests/data/bgstats/format.json). Players, games and the location have UUIDs made from their
names, so every table writes the same UUID for the same person and game, and two tables' files
merged by UUID keep different people and games apart. Dates are local time, as the app writes
them; ranks are 1-based with ties sharing a rank.
"""

from __future__ import annotations

import json
import platform
import uuid as uuidlib
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any
from urllib.parse import quote

from companion import __version__, catalogue
from companion.entries import GameRecord
from companion.stats import mode_label

SOURCE = "Table Companion"  # the location, and the source named in a play link
NAMESPACE = uuidlib.uuid5(uuidlib.NAMESPACE_DNS, "bgstats.table-companion")
# The documented per-play import (bgstatsapp.com, "Push plays to BG Stats from other apps or
# websites"): opens the app's import dialog on a phone that has it.
PLAY_LINK = "https://app.bgstatsapp.com/createPlay.html?data="
DATE = "%Y-%m-%d %H:%M:%S"


def name_uuid(kind: str, name: str) -> str:
    """The same UUID on every table for the same player, game or location name."""
    return str(uuidlib.uuid5(NAMESPACE, f"{kind}:{name}"))


def local_time(iso: str) -> str:
    """A stored time (UTC, ISO 8601) as the app writes dates: local, `YYYY-MM-DD HH:MM:SS`."""
    moment = datetime.fromisoformat(iso)
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return moment.astimezone().strftime(DATE)


def competition_ranks(scores: list[float | None], highest_wins: bool) -> list[int]:
    """1 + how many scored better; a player without a score has rank 0 (unset), as in the
    app's files."""
    known = [s for s in scores if s is not None]
    return [
        0 if s is None else 1 + sum((o > s) if highest_wins else (o < s) for o in known)
        for s in scores
    ]


def _number(score: Any) -> int | float | None:
    if isinstance(score, bool) or not isinstance(score, int | float):
        return None
    return int(score) if float(score).is_integer() else score


@dataclass(frozen=True)
class Play:
    """One finished game as BG Stats sees it: who sat where, their scores, the winners."""

    uuid: str
    game: str
    title: str
    highest_wins: bool
    players: tuple[str, ...]
    scores: tuple[int | float | None, ...]
    winners: frozenset[str]
    board: str
    started: str
    finished: str | None
    teams: tuple[str, ...] | None

    @classmethod
    def of(cls, rec: GameRecord, finished: str | None = None) -> Play:
        result = rec.result or {}
        players = tuple(rec.config.get("players", ()))
        scores = result.get("scores", {})
        teams = rec.config.get("teams")
        return cls(
            uuid=rec.uuid,
            game=rec.game,
            title=catalogue.info(rec.game).title,
            highest_wins=not catalogue.lower_is_better(rec.game),
            players=players,
            scores=tuple(_number(scores.get(p)) for p in players),
            winners=frozenset(result.get("winners", ())),
            board=mode_label(rec.game, rec.config),
            started=rec.started,
            finished=rec.finished or finished,
            teams=tuple(str(t) for t in teams) if isinstance(teams, list) else None,
        )

    @property
    def ranks(self) -> list[int]:
        return competition_ranks(list(self.scores), self.highest_wins)

    @property
    def manual_winner(self) -> bool:
        """True when the winners are not exactly the best scores (a tie broken by another
        count, a team win), as the app marks a winner chosen by hand."""
        known = [s for s in self.scores if s is not None]
        if not known:
            return bool(self.winners)
        best = max(known) if self.highest_wins else min(known)
        return self.winners != {
            p for p, s in zip(self.players, self.scores, strict=True) if s == best
        }

    @property
    def minutes(self) -> int:
        try:
            span = datetime.fromisoformat(self.finished) - datetime.fromisoformat(self.started)
        except (TypeError, ValueError):
            return 0
        return max(0, round(span.total_seconds() / 60))


def export_file(records) -> dict[str, Any]:
    """Finished games as a BG Stats file, oldest first: the app imports it, and so do the
    tools that read the app's own exports. A damaged record (entries.record_problem) is left
    out: nothing in it can be trusted as a play."""
    plays = [Play.of(r) for r in records if r.status == "finished" and not r.damaged]
    players: dict[str, dict[str, Any]] = {}
    titles: dict[str, dict[str, Any]] = {}
    location = {"uuid": name_uuid("location", SOURCE), "id": 1, "name": SOURCE}
    out_plays = []
    for play in plays:
        when = local_time(play.started)
        entered = local_time(play.finished or play.started)
        location.setdefault("modificationDate", when)
        if play.game not in titles:
            titles[play.game] = _game(play, len(titles) + 1, when)
        game = titles[play.game]
        game["usesTeams"] = game["usesTeams"] or play.teams is not None
        scores = []
        for seat, (name, score, rank) in enumerate(
            zip(play.players, play.scores, play.ranks, strict=True)
        ):
            if name not in players:
                players[name] = _player(name, len(players) + 1, when)
            player = players[name]
            entry = {
                "score": None if score is None else str(score),
                "winner": name in play.winners,
                "newPlayer": False,
                "startPlayer": False,  # who started is not recorded for every game
                "playerRefId": player["id"],
                "rank": rank,
                "seatOrder": seat + 1,
            }
            if play.teams is not None and seat < len(play.teams):
                entry["team"] = play.teams[seat]
            scores.append(entry)
        out_plays.append(
            {
                "uuid": play.uuid,
                "modificationDate": entered,
                "entryDate": entered,
                "playDate": when,
                "usesTeams": play.teams is not None,
                "durationMin": play.minutes,
                "ignored": False,
                "manualWinner": play.manual_winner,
                "rounds": 0,
                "bggId": 0,
                "importPlayId": 0,
                "locationRefId": location["id"],
                "gameRefId": game["id"],
                "board": play.board,
                "rating": 0,
                "nemestatsId": 0,
                "scoringSetting": 0,
                "playerScores": scores,
                "expansionPlays": [],
            }
        )
    return {
        "tags": [],
        "groups": [],
        "players": list(players.values()),
        "locations": [location] if plays else [],
        "games": list(titles.values()),
        "plays": out_plays,
        "challenges": [],
        "deletedObjects": [],
        "userInfo": {
            "meRefId": 0,  # the table is none of the players
            "exportDate": datetime.now().astimezone().strftime(DATE),
            "appVersion": f"{SOURCE} {__version__}",
            "systemVersion": platform.system(),
            "device": SOURCE,
        },
    }


def _player(name: str, ref: int, when: str) -> dict[str, Any]:
    return {
        "uuid": name_uuid("player", name),
        "id": ref,
        "name": name,
        "isAnonymous": False,
        "modificationDate": when,
        "bggUsername": "",
    }


def _game(play: Play, ref: int, when: str) -> dict[str, Any]:
    low, high = catalogue.info(play.game).players
    return {
        "uuid": name_uuid("game", play.game),
        "id": ref,
        "name": play.title,
        "modificationDate": when,
        "cooperative": False,
        "highestWins": play.highest_wins,
        "noPoints": False,
        "usesTeams": False,
        "bggYear": 0,
        "bggId": 0,  # not looked up on BoardGameGeek: the app treats it as its own game
        "isBaseGame": 1,
        "isExpansion": 0,
        "rating": 0,
        "minPlayerCount": low,
        "maxPlayerCount": high,
        "minPlayTime": 0,
        "maxPlayTime": 0,
        "minAge": 0,
        "preferredImage": 0,
        "previouslyPlayedAmount": 0,
        "copies": [],
    }


def play_link(play: Play) -> str:
    """The documented per-play import link: a phone with BG Stats opens the play in the app's
    import dialog, which matches the game and players by name and remembers the matches by
    the source ids. Kept short, so that its QR code stays coarse enough to scan."""
    players = []
    for name, score, rank in zip(play.players, play.scores, play.ranks, strict=True):
        entry: dict[str, Any] = {"name": name, "sourcePlayerId": name_uuid("player", name)[:8]}
        if score is not None:
            entry["score"] = score
        players.append(
            {**entry, "winner": name in play.winners, "rank": rank, "startPlayer": False}
        )
    data: dict[str, Any] = {
        "sourceName": SOURCE,
        "sourcePlayId": play.uuid,
        "playDate": local_time(play.started),
        "durationMin": play.minutes,
        "location": SOURCE,
        "game": {
            "name": play.title,
            "sourceGameId": play.game,
            "highestWins": play.highest_wins,
            "noPoints": False,
        },
        "players": players,
    }
    if play.board:
        data["board"] = play.board
    text = json.dumps(data, separators=(",", ":"), ensure_ascii=False)
    return PLAY_LINK + quote(text, safe=":,")
