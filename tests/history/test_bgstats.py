"""BG Stats files both ways: the export checked against the format observed in the app's own
exports (tests/data/bgstats/format.json), two tables' files merged by UUID, the round trip
through a BG Stats file into an empty log, reading an export written in the app's layout, and
bad or hostile files refused whole in one line."""

from __future__ import annotations

import contextlib
import io
import json
import os
import re
import subprocess
import sys
import uuid
from dataclasses import replace
from datetime import datetime, timedelta
from pathlib import Path
from urllib.parse import unquote

import pytest

from benchmarks.playthroughs import play_game, play_games
from companion import bgstats, bgstats_import, cli
from companion.entries import GameRecord
from companion.history import History
from companion.store import GameLog

DATA = Path(__file__).resolve().parents[1] / "data" / "bgstats"
FORMAT = json.loads((DATA / "format.json").read_text())["objects"]
CLUB = DATA / "club.bgsplay"
DATE = re.compile(r"^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$")
NEW_YORK, TOKYO = "EST5EDT,M3.2.0,M11.1.0", "JST-9"  # POSIX rules: no time zone files needed


def companion(*args, env=None):
    return subprocess.run(
        [sys.executable, "-m", "companion", *args],
        capture_output=True,
        text=True,
        timeout=300,
        env={**os.environ, **(env or {})},
    )


def record(game, players, scores, winners, started="2026-02-01T18:00:00+00:00", minutes=30):
    """A finished game as the log keeps it (its moves are not needed for the file)."""
    end = datetime.fromisoformat(started) + timedelta(minutes=minutes)
    return GameRecord(
        0,
        game,
        {"players": list(players)},
        started,
        end.isoformat(timespec="seconds"),
        "finished",
        {"scores": dict(zip(players, scores, strict=True)), "winners": list(winners)},
        str(uuid.uuid4()),
    )


def pencil_tie():
    """Color Milk: Ben and Cleo tie on coins, Cleo wins on unused pencils."""
    return record("color-milk", ["Ben", "Cleo"], [5, 5], ["Cleo"])


def elios():
    """Fewest beams left wins."""
    return record("elios", ["Dora", "Eli", "Finn"], [0, 3, 3], ["Dora"], minutes=22)


def filled(path, records):
    path.mkdir(parents=True, exist_ok=True)
    with GameLog(path / "games.sqlite3") as log:
        log.add_games([(r, []) if isinstance(r, GameRecord) else r for r in records])
    return path


def exported(data_dir, env=None) -> dict:
    r = companion("export", "--bgstats", "--data-dir", str(data_dir), env=env)
    assert r.returncode == 0, r.stderr
    return json.loads(r.stdout)


def kinds(doc):
    """(kind, object) for every object in a BG Stats file, as format.json names the kinds."""
    yield "file", doc
    yield "userInfo", doc["userInfo"]
    for kind, key in (("player", "players"), ("game", "games"), ("location", "locations")):
        for item in doc[key]:
            yield kind, item
    for play in doc["plays"]:
        yield "play", play
        for score in play["playerScores"]:
            yield "playerScore", score
        for extra in play["expansionPlays"]:
            yield "expansionPlay", extra


def json_type(value) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        return "integer"
    return {float: "number", str: "string", list: "array", dict: "object"}[type(value)]


# the export ------------------------------------------------------------------------------------
def test_the_export_has_every_key_the_apps_exports_always_carry_with_their_types(tmp_path):
    doc = exported(filled(tmp_path / "a", [r for r, _ in play_games(12, seed=5)] + [elios()]))
    seen: dict[str, set[str]] = {}
    for kind, item in kinds(doc):
        described = FORMAT[kind]
        for key, value in item.items():
            assert key in described, f"{kind}.{key} is not in the app's exports"
            assert json_type(value) in described[key]["types"], (kind, key, value)
            fmt = described[key].get("format")
            if fmt == "uuid" and value:
                assert str(uuid.UUID(value)) == value.lower(), (kind, key, value)
            if fmt == "YYYY-MM-DD HH:MM:SS" and value:
                assert DATE.match(value), (kind, key, value)
        always = {k for k, d in described.items() if d["always"]}
        assert always <= set(item), f"{kind} lacks {sorted(always - set(item))}"
        seen.setdefault(kind, set()).update(item)
    assert {"file", "userInfo", "player", "game", "location", "play", "playerScore"} <= set(seen)
    assert len(doc["plays"]) == 13 and {g["name"] for g in doc["games"]} >= {"Laser", "Elios"}


def test_ranks_manual_winner_seats_and_scores_follow_the_app(tmp_path):
    doc = exported(filled(tmp_path / "a", [pencil_tie(), elios()]))
    names = {p["id"]: p["name"] for p in doc["players"]}
    titles = {g["id"]: g for g in doc["games"]}
    milk, sun = doc["plays"]
    assert milk["manualWinner"] is True  # Cleo won the tie on pencils, not on coins
    rows = [
        (names[s["playerRefId"]], s["score"], s["rank"], s["winner"], s["seatOrder"])
        for s in milk["playerScores"]
    ]
    assert rows == [("Ben", "5", 1, False, 1), ("Cleo", "5", 1, True, 2)]
    assert titles[sun["gameRefId"]]["highestWins"] is False  # Elios: fewest beams left
    assert sun["manualWinner"] is False
    assert [(s["score"], s["rank"]) for s in sun["playerScores"]] == [("0", 1), ("3", 2), ("3", 2)]
    assert sun["durationMin"] == 22 and doc["userInfo"]["meRefId"] == 0


def test_dates_are_local_time_as_the_app_writes_them(tmp_path):
    rec = record("node", ["Anna", "Ben"], [3, 1], ["Anna"], started="2026-07-01T18:00:00+00:00")
    where = filled(tmp_path / "a", [rec])
    new_york = exported(where, env={"TZ": NEW_YORK})["plays"][0]
    tokyo = exported(where, env={"TZ": TOKYO})["plays"][0]
    assert new_york["playDate"] == "2026-07-01 14:00:00"  # UTC-4 in July
    assert (
        tokyo["playDate"] == "2026-07-02 03:00:00" and tokyo["entryDate"] == "2026-07-02 03:30:00"
    )
    # and read back on the same table, the play is at the moment it was played
    back = tmp_path / "back"
    (tmp_path / "t.bgsplay").write_text(json.dumps(exported(where, env={"TZ": TOKYO})))
    r = companion(
        "import",
        "--bgstats",
        str(tmp_path / "t.bgsplay"),
        "--data-dir",
        str(back),
        env={"TZ": TOKYO},
    )
    assert r.returncode == 0, r.stderr
    with GameLog(back / "games.sqlite3") as log:
        assert log.games()[0].started == rec.started


def test_two_tables_files_merged_by_uuid_keep_people_and_games_apart(tmp_path):
    """The merge a BG Stats merge tool does: objects are the same when their UUIDs are."""
    first = exported(filled(tmp_path / "a", [record("node", ["Anna", "Ben"], [4, 2], ["Anna"])]))
    second = exported(
        filled(
            tmp_path / "b",
            [
                record("laser", ["Cleo", "Anna", "Dan"], [10, 30, 20], ["Anna"]),
                record(
                    "node", ["Ben", "Anna"], [5, 1], ["Ben"], started="2026-02-02T18:00:00+00:00"
                ),
            ],
        )
    )
    # both files number their players and games from 1: by id, Node and Laser would be one
    assert first["games"][0]["id"] == second["games"][0]["id"] == 1
    merged_players, merged_games, plays = {}, {}, []
    for doc in (first, second):
        people = {p["id"]: p for p in doc["players"]}
        titles = {g["id"]: g for g in doc["games"]}
        for p in doc["players"]:
            merged_players.setdefault(p["uuid"], p["name"])
        for g in doc["games"]:
            merged_games.setdefault(g["uuid"], g["name"])
        for play in doc["plays"]:
            plays.append(
                (
                    merged_games[titles[play["gameRefId"]]["uuid"]],
                    [
                        merged_players[people[s["playerRefId"]]["uuid"]]
                        for s in play["playerScores"]
                    ],
                )
            )
    assert sorted(merged_players.values()) == ["Anna", "Ben", "Cleo", "Dan"]
    assert sorted(merged_games.values()) == ["Laser", "Node"]
    assert plays == [
        ("Node", ["Anna", "Ben"]),
        ("Laser", ["Cleo", "Anna", "Dan"]),
        ("Node", ["Ben", "Anna"]),
    ]


def test_export_then_import_bgstats_into_an_empty_log_gives_the_same_statistics(tmp_path):
    a = filled(tmp_path / "a", [*play_games(24, seed=3), pencil_tie(), elios()])
    path = tmp_path / "club.bgsplay"
    path.write_text(json.dumps(exported(a)))
    b = tmp_path / "b"
    first = companion("import", "--bgstats", str(path), "--data-dir", str(b))
    assert json.loads(first.stdout) == {
        "imported": 26,
        "already_here": 0,
        "other_games": 0,
        "ignored_in_bgstats": 0,
    }, first.stderr
    again = companion("import", "--bgstats", str(path), "--data-dir", str(b))
    assert json.loads(again.stdout)["already_here"] == 26
    stats_a = json.loads(companion("stats", "--data-dir", str(a)).stdout)
    stats_b = json.loads(companion("stats", "--data-dir", str(b)).stdout)
    assert stats_a["games"] == stats_b["games"] == 26
    assert stats_a["players"] == stats_b["players"]  # plays, wins, best, average, streaks
    assert stats_a["kritters_solo_best"] == stats_b["kritters_solo_best"]
    # the file holds no moves: what is known only from the rounds stays on the first table
    assert stats_a["color_milk_predictions"] and not stats_b["color_milk_predictions"]
    assert stats_b["laser_bids"] == {}


# reading a BG Stats export ----------------------------------------------------------------------
def test_import_reads_an_export_in_the_apps_layout(tmp_path):
    here = filled(tmp_path / "club", [record("node", ["Anna", "Tom"], [1, 2], ["Tom"])])
    r = companion("import", "--bgstats", str(CLUB), "--data-dir", str(here), env={"TZ": "UTC"})
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout) == {
        "imported": 5,
        "already_here": 0,
        "other_games": 2,
        "ignored_in_bgstats": 1,
    }
    with GameLog(here / "games.sqlite3") as log:
        got = {(r.game, r.started[:16]): r for r in log.games()[1:]}
        history = History(log)
        kritters = got["kritters", "2025-03-01T20:00"]  # Catan before it is skipped
        assert kritters.config == {
            "players": ["Maya", "Tom", "Anonymous player", "Anonymous player 2"],
            "scores_from": "BG Stats",
        }
        assert kritters.result == {
            "scores": {"Maya": 20, "Tom": 17, "Anonymous player": 9},  # "12+5+3"; null
            "winners": ["Maya"],
        }
        laser = got["laser", "2025-03-08T19:30"]  # seats 2, 1, 3; "anna" is our Anna
        assert laser.config["players"] == ["Tom", "Anna", "Maya"]
        assert laser.finished[11:16] == "20:10"  # 40 minutes
        sun = got["elios", "2025-03-08T21:00"]
        assert sun.config["players"] == ["Léa", "Ben"] and sun.result["winners"] == ["Léa"]
        milk = got["color-milk", "2025-03-15T19:00"]
        assert milk.uuid == str(uuid.UUID(milk.uuid)) and milk.result["winners"] == ["Tom"]
        series = history.series(kritters)  # no moves to replay: the final scores
        assert series.labels == ("End",) and series.of("Maya") == [20.0]
        stats = {(s.player, s.game): s for s in _player_stats(history)}
    assert stats["Tom", "laser"].plays == 1 and stats["Anna", "laser"].wins == 1
    assert stats["Anna", "node"].plays == 1  # the same Anna as before the import


def _player_stats(history):
    from companion.stats import player_stats

    return player_stats(history.summaries())


@pytest.mark.parametrize(
    "spoil, words",
    [
        (lambda t: t[: len(t) // 2], "not JSON"),
        (lambda t: t.encode("utf-16"), "not UTF-8"),
        (lambda t: "[" + t + "]", "no list of plays"),
        (lambda t: t.replace('"gameRefId":3', '"gameRefId":33'), "not one of the file's games"),
        (lambda t: t.replace('"playerRefId":3,', '"playerRefId":"3",'), "whole number"),
        (
            lambda t: t.replace('"playerRefId":5', '"playerRefId":55'),
            "not one of the file's players",
        ),
        (lambda t: t.replace('"12+5+3"', '"12 pts"'), "is not a number"),
        (lambda t: t.replace('"score":"31"', '"score":1e300'), "out of range"),
        (lambda t: t.replace('"score":"31"', '"score":' + "9" * 400), "out of range"),
        (
            lambda t: t.replace(
                '"playDate":"2025-03-16 10:00:00"', '"playDate":"9999-12-31 23:59:59"'
            ),
            "not a date",
        ),
        (
            lambda t: t.replace('"score":"31","winner":true', '"score":"31","winner":"yes"'),
            "winner must be true or false",
        ),
        (
            lambda t: t.replace('"playDate":"2025-03-16 10:00:00"', '"playDate":"yesterday"'),
            "not a date",
        ),
        (lambda t: t.replace('"durationMin":15', '"durationMin":-15'), "durationMin"),
        (
            lambda t: re.sub(
                r'"uuid":"[^"]+"(,"modificationDate":"2025-03-16)', r'"uuid":"x"\1', t
            ),
            "not a UUID",
        ),
        (
            lambda t: t.replace('"id":6,"name":"Color Milk"', '"id":5,"name":"Color Milk"'),
            "used twice",
        ),
        (lambda t: t.replace('"name":"Tom"', '"name":"' + "T" * 5000 + '"'), "longer than"),
        (lambda t: t.replace('"score":"31"', '"score":NaN'), "NaN is not a number"),
        (lambda t: '{"plays":' + "[" * 100_000 + "]" * 100_000 + "}", "not JSON"),
    ],
)
def test_a_bad_file_is_refused_in_one_line_and_nothing_is_imported(tmp_path, spoil, words):
    bad = tmp_path / "bad.bgsplay"
    spoilt = spoil(CLUB.read_text(encoding="utf-8"))
    bad.write_bytes(spoilt if isinstance(spoilt, bytes) else spoilt.encode())
    dest = tmp_path / "dest"
    r = companion("import", "--bgstats", str(bad), "--data-dir", str(dest), env={"TZ": "UTC"})
    assert r.returncode == 2, r.stderr
    assert r.stderr.count("\n") == 1 and words in r.stderr, r.stderr
    assert "nothing was imported" in r.stderr
    with GameLog(dest / "games.sqlite3") as log:
        assert log.games() == []


def _club(change=None) -> dict:
    doc = json.loads(CLUB.read_text(encoding="utf-8"))
    if change is not None:
        change(doc)
    return doc


def _play_of(doc, title) -> dict:
    ref = next(g["id"] for g in doc["games"] if g["name"] == title)
    return next(p for p in doc["plays"] if p["gameRefId"] == ref)


def _rename(doc, old, new) -> None:
    next(p for p in doc["players"] if p["name"] == old)["name"] = new


def test_a_bgstats_file_goes_through_the_checks_of_every_import(tmp_path):
    """The plays are checked as any game from outside is (game_check.check_scores_only):
    what is stored is what the check takes, a play already here is one with the same scores,
    and the same play with other scores is refused by name, not counted as here."""
    from companion.game_check import check_scores_only

    data = tmp_path / "data"
    path = tmp_path / "club.bgsplay"
    path.write_text(json.dumps(_club()))
    r = companion("import", "--bgstats", str(path), "--data-dir", str(data), env={"TZ": "UTC"})
    assert r.returncode == 0 and json.loads(r.stdout)["imported"] == 5, r.stderr
    with GameLog(data / "games.sqlite3") as log:
        for rec in log.games():
            took = check_scores_only(
                rec.game, rec.config, rec.status, rec.started, rec.finished, [], rec.result
            )
            assert (took.config, took.result) == (rec.config, rec.result) and not rec.damaged
    again = companion("import", "--bgstats", str(path), "--data-dir", str(data), env={"TZ": "UTC"})
    assert json.loads(again.stdout)["already_here"] == 5, again.stderr
    path.write_text(
        json.dumps(_club(lambda d: _play_of(d, "Elios")["playerScores"][1].update(score="1")))
    )
    other = companion("import", "--bgstats", str(path), "--data-dir", str(data), env={"TZ": "UTC"})
    assert other.returncode == 2 and other.stderr.count("\n") == 1, other.stderr
    assert "BG Stats play 2b846645-8d45-50e0-961a-489dcb7347e5 (Elios, " in other.stderr
    assert "here already" in other.stderr and "nothing was imported" in other.stderr
    # the readers take what came in
    for argv in (["history"], ["stats"], ["export"], ["export", "--bgstats"]):
        assert companion(*argv, "--data-dir", str(data)).returncode == 0, argv


def _seat(doc, title, *player_refs) -> None:
    """More players at the play of `title` (taken, even if the club marked it ignored)."""
    play = _play_of(doc, title)
    play["ignored"] = False
    for ref in player_refs:
        play["playerScores"].append({**play["playerScores"][-1], "playerRefId": ref})
        play["playerScores"][-1]["winner"] = False


@pytest.mark.parametrize(
    "change, words",
    [
        (
            lambda d: _play_of(d, "Elios").update(playDate="2999-03-08 21:00:00"),
            "is in the future",
        ),
        (lambda d: _rename(d, "Léa", "L\néa"), "line breaks"),
        (lambda d: _rename(d, "Léa", "L\u202eéa"), "control characters"),
        (lambda d: _rename(d, "Léa", "L" * 41), "longer than 40"),
        (lambda d: _seat(d, "Elios", 1, 2, 3), "Elios is for 2-4 players, not 5"),
        (lambda d: _seat(d, "Node", 2), "Node is for 2-2 players, not 3"),
    ],
)
def test_a_hostile_bgstats_file_is_refused_in_one_line(tmp_path, change, words):
    """What a BG Stats file may hold but no game of ours can: refused in one line by the
    checks every import goes through, naming the play or the player; nothing is imported."""
    bad = tmp_path / "hostile.bgsplay"
    bad.write_text(json.dumps(_club(change)))
    dest = tmp_path / "dest"
    r = companion("import", "--bgstats", str(bad), "--data-dir", str(dest), env={"TZ": "UTC"})
    assert r.returncode == 2 and r.stderr.count("\n") == 1, r.stderr
    assert words in r.stderr and "nothing was imported" in r.stderr, r.stderr
    with GameLog(dest / "games.sqlite3") as log:
        assert log.games() == []


def test_a_game_with_its_scores_only_moves_between_tables_checked_field_by_field(tmp_path):
    """A BG Stats play exported as our own JSON Lines goes to another table; the same line
    made hostile is refused in one line (it has no moves to replay, so its fields are all
    there is to check)."""
    a, b = tmp_path / "a", tmp_path / "b"
    r = companion("import", "--bgstats", str(CLUB), "--data-dir", str(a), env={"TZ": "UTC"})
    assert r.returncode == 0, r.stderr
    lines = companion("export", "--data-dir", str(a)).stdout.splitlines()
    sun = json.loads(next(line for line in lines if '"elios"' in line))
    file = tmp_path / "in.jsonl"
    file.write_text(json.dumps(sun) + "\n")
    r = companion("import", str(file), "--data-dir", str(b))
    assert json.loads(r.stdout) == {"imported": 1, "already_here": 0}, r.stderr
    with GameLog(b / "games.sqlite3") as log:
        (rec,) = log.games()
        assert rec.config == {"players": ["Léa", "Ben"], "scores_from": "BG Stats"}
        assert rec.result == {"scores": {"Léa": 0, "Ben": 3}, "winners": ["Léa"]}

    def hostile(change) -> dict:
        doc = json.loads(json.dumps(sun))
        doc["uuid"] = str(uuid.uuid4())
        change(doc)
        return doc

    cases = {
        "moves": lambda d: d.update(entries=[{"seq": 1, "kind": "undo", "event": None}]),
        "abandoned": lambda d: d.update(status="abandoned"),
        "a score for someone else": lambda d: d["result"]["scores"].update(Zoe=5),
        "a score as text": lambda d: d["result"]["scores"].update(Ben="3"),
        "a huge score": lambda d: d["result"]["scores"].update(Ben=1e12),
        "a winner who did not play": lambda d: d["result"].update(winners=["Zoe"]),
        "a winner twice": lambda d: d["result"].update(winners=["Léa", "Léa"]),
        "no result": lambda d: d.update(result=None),
        "a source that is no text": lambda d: d["config"].update(scores_from=["BG Stats"]),
        "options": lambda d: d["config"].update(options={"board": 3}),
        "one player at Elios": lambda d: d["config"].update(players=["Léa"]),
        "dated 2999": lambda d: d.update(started="2999-01-01T00:00:00+00:00"),
        "markup-long name": lambda d: d["config"].update(players=["[size=400]" * 5, "Ben"]),
    }
    for why, change in cases.items():
        file.write_text(json.dumps(hostile(change)) + "\n")
        r = companion("import", str(file), "--data-dir", str(b))
        assert r.returncode == 2 and r.stderr.count("\n") == 1, (why, r.stderr)
        assert "line 1:" in r.stderr and "nothing was imported" in r.stderr, (why, r.stderr)
    with GameLog(b / "games.sqlite3") as log:
        assert len(log.games()) == 1


def test_the_bgstats_export_leaves_a_damaged_record_out(tmp_path):
    """A stored game whose result cannot be read as one (entries.record_problem) is shown as
    damaged in History; the export writes the other games and nothing of it."""
    tie, sun, laser = pencil_tie(), elios(), record("laser", ["Cleo", "Dan"], [10, 20], ["Dan"])
    damaged = replace(laser, result={"scores": {"Cleo": "ten", "Dan": 20}, "winners": ["Dan"]})
    where = filled(tmp_path / "a", [tie, damaged, sun])
    with GameLog(where / "games.sqlite3") as log:
        assert [bool(r.damaged) for r in log.games()] == [False, True, False]
    doc = exported(where)
    assert [p["uuid"] for p in doc["plays"]] == [tie.uuid, sun.uuid]
    assert "Dan" not in {p["name"] for p in doc["players"]}
    assert {g["name"] for g in doc["games"]} == {"Color Milk", "Elios"}


def test_other_files_are_refused_in_one_line(tmp_path, monkeypatch):
    ours = tmp_path / "games.jsonl"
    filled(tmp_path / "src", [play_game("node", 1)])
    ours.write_text(companion("export", "--data-dir", str(tmp_path / "src")).stdout)
    for args, words in (
        (["--bgstats", ours], "not a BG Stats export"),  # our own JSON Lines, as BG Stats
        (["--bgstats", tmp_path / "nope.bgsplay"], "no such file"),
        ([CLUB], "a BG Stats export? add --bgstats"),  # the app's file, as our own
    ):
        r = companion("import", *map(str, args), "--data-dir", str(tmp_path / "d"))
        assert r.returncode == 2 and r.stderr.count("\n") == 1 and words in r.stderr, r.stderr
    # a file too large to be an export is refused before it is read
    monkeypatch.setattr(bgstats_import, "MAX_BYTES", 1000)
    err = io.StringIO()
    with contextlib.redirect_stderr(err):
        code = cli.main(["import", "--bgstats", str(CLUB), "--data-dir", str(tmp_path / "d")])
    assert code == 2 and "larger than" in err.getvalue()


# the play link ----------------------------------------------------------------------------------
def test_the_play_link_is_the_documented_per_play_import():
    play = bgstats.Play.of(pencil_tie())
    link = bgstats.play_link(play)
    assert link.startswith("https://app.bgstatsapp.com/createPlay.html?data=")
    assert not set(link[len(bgstats.PLAY_LINK) :]) & set(' "{}[]+&#')  # one query value
    data = json.loads(unquote(link.split("?data=", 1)[1]))
    assert data["sourceName"] == "Table Companion" and data["sourcePlayId"] == play.uuid
    assert data["game"] == {
        "name": "Color Milk",
        "sourceGameId": "color-milk",
        "highestWins": True,
        "noPoints": False,
    }
    assert [(p["name"], p["score"], p["rank"], p["winner"]) for p in data["players"]] == [
        ("Ben", 5, 1, False),
        ("Cleo", 5, 1, True),
    ]
    assert DATE.match(data["playDate"]) and data["durationMin"] == 30
    # the same person has the same source id on every table, so the app's match sticks
    again = bgstats.play_link(bgstats.Play.of(record("node", ["Cleo", "Ann"], [1, 2], ["Ann"])))
    ids = {
        p["name"]: p["sourcePlayerId"]
        for p in json.loads(unquote(again.split("=", 1)[1]))["players"]
    }
    assert ids["Cleo"] == data["players"][1]["sourcePlayerId"]


def test_a_play_our_own_import_refuses_is_named_as_the_files_play(tmp_path, monkeypatch):
    """The converted plays pass our import's own checks; should one not, the refusal names
    the play in the BG Stats file, not a line of a file the user never saw."""
    from companion import sharing
    from companion.sharing import ImportRefused

    real = sharing.parse_line
    calls = []

    def refuse_the_second(text):
        calls.append(text)
        if len(calls) == 2:
            raise ValueError("refused for the test")
        return real(text)

    monkeypatch.setattr(sharing, "parse_line", refuse_the_second)
    with GameLog(tmp_path / "games.sqlite3") as log:
        with pytest.raises(ImportRefused) as refused:
            bgstats_import.import_bgstats(log, CLUB.read_bytes())
        assert log.games() == []
    message = str(refused.value)
    assert message.startswith("BG Stats play ") and "(Laser, " in message
    assert message.endswith("refused for the test; nothing was imported")
