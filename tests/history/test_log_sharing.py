"""Sharing the record: stable game UUIDs in the log, JSON Lines export and import through the
real CLI, merging without duplicates, refusing bad files whole, and the BG Stats file."""

import json
import sqlite3
import subprocess
import sys
import uuid

import pytest

from benchmarks.playthroughs import play_game, play_games
from companion.store import GameLog
from companion.store.schema import create


def companion(*args, stdin=None):
    return subprocess.run(
        [sys.executable, "-m", "companion", *args],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=300,
    )


def filled(path, games):
    with GameLog(path) as log:
        log.add_games(games)
    return path


def test_every_new_game_gets_its_own_uuid(tmp_path):
    with GameLog(tmp_path / "g.sqlite3") as log:
        a, b = (
            log.new_game("node", {"players": ["A", "B"]}),
            log.new_game("node", {"players": ["A", "B"]}),
        )
        ua, ub = log.game(a).uuid, log.game(b).uuid
    assert uuid.UUID(ua) and uuid.UUID(ub) and ua != ub


def test_a_log_from_before_uuids_gets_them_once_and_keeps_them(tmp_path):
    path = tmp_path / "old.sqlite3"
    create(path)  # the schema as older builds made it: no uuid column
    db = sqlite3.connect(path)
    db.execute("INSERT INTO games (game, config, started) VALUES ('node', '{}', '2025-01-01')")
    db.commit()
    db.close()
    with GameLog(path) as log:
        first = log.games()[0].uuid
    with GameLog(path) as log:
        assert log.games()[0].uuid == first
    assert uuid.UUID(first)


def test_adding_games_is_all_or_nothing(tmp_path):
    rec, entries = play_game("kritters", 1)
    with GameLog(tmp_path / "g.sqlite3") as log:
        with pytest.raises(sqlite3.IntegrityError):
            log.add_games([(rec, entries), (rec, entries)])  # the same UUID twice
        assert log.games() == []


def test_export_then_import_into_an_empty_log_gives_the_same_statistics(tmp_path):
    a, b = tmp_path / "a", tmp_path / "b"
    a.mkdir()
    filled(a / "games.sqlite3", play_games(24, seed=3))
    out = companion("export", "--all", "--data-dir", str(a))
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    assert len(lines) == 24 and all(json.loads(x)["uuid"] for x in lines)
    (tmp_path / "games.jsonl").write_text(out.stdout)

    first = companion("import", str(tmp_path / "games.jsonl"), "--data-dir", str(b))
    assert first.returncode == 0, first.stderr
    assert json.loads(first.stdout) == {"imported": 24, "already_here": 0}
    again = companion("import", str(tmp_path / "games.jsonl"), "--data-dir", str(b))
    assert json.loads(again.stdout) == {"imported": 0, "already_here": 24}

    stats_a = json.loads(companion("stats", "--data-dir", str(a)).stdout)
    stats_b = json.loads(companion("stats", "--data-dir", str(b)).stdout)
    assert stats_a == stats_b and stats_a["games"] == 24
    assert stats_a["color_milk_predictions"] and stats_a["players"]
    # and the merged log exports the very same lines
    assert companion("export", "--data-dir", str(b)).stdout.splitlines() == lines


def test_import_merges_another_tables_games_with_ours(tmp_path):
    ours, theirs = tmp_path / "ours", tmp_path / "theirs"
    ours.mkdir(), theirs.mkdir()
    filled(ours / "games.sqlite3", play_games(3, seed=1))
    filled(theirs / "games.sqlite3", play_games(3, seed=1)[:1] + play_games(2, seed=2))
    (tmp_path / "t.jsonl").write_text(companion("export", "--data-dir", str(theirs)).stdout)
    r = companion("import", str(tmp_path / "t.jsonl"), "--data-dir", str(ours))
    assert json.loads(r.stdout) == {"imported": 2, "already_here": 1}
    with GameLog(ours / "games.sqlite3") as log:
        assert len(log.games()) == 5


@pytest.mark.parametrize(
    "spoil, words",
    [
        (lambda line: line[: len(line) // 2], "not JSON"),
        (lambda line: line.replace('"format":"table-companion-game/1"', '"format":"x"'), "format"),
        (lambda line: line.replace('"status":"finished"', '"status":"active"'), "only finished"),
        (
            lambda line: line.replace('"type":"laser.BidPlaced"', '"type":"laser.Bid"'),
            "unknown event",
        ),
        (lambda line: line.replace('"seq":2}', '"seq":7}'), "entry 2 is malformed"),
        (lambda line: line.replace('"uuid":"', '"uuid":"x'), "uuid"),
    ],
)
def test_a_bad_line_is_named_and_nothing_of_the_file_is_imported(tmp_path, spoil, words):
    src = tmp_path / "src"
    src.mkdir()
    filled(src / "games.sqlite3", [play_game("laser", s) for s in range(3)])
    lines = companion("export", "--data-dir", str(src)).stdout.splitlines()
    lines[1] = spoil(lines[1])
    (tmp_path / "bad.jsonl").write_text("\n".join(lines) + "\n")
    dest = tmp_path / "dest"
    r = companion("import", str(tmp_path / "bad.jsonl"), "--data-dir", str(dest))
    assert r.returncode == 2
    assert r.stderr.count("\n") == 1 and "line 2:" in r.stderr and words in r.stderr, r.stderr
    assert "nothing was imported" in r.stderr
    with GameLog(dest / "games.sqlite3") as log:
        assert log.games() == []


def test_import_of_a_missing_file_and_export_of_a_missing_game_are_one_line_errors(tmp_path):
    for args in (["import", str(tmp_path / "nope.jsonl")], ["export", "--game", "99"]):
        r = companion(*args, "--data-dir", str(tmp_path))
        assert r.returncode == 2 and r.stderr.count("\n") == 1, r.stderr


def test_bgstats_export_lists_plays_with_players_scores_and_winners(tmp_path):
    filled(tmp_path / "games.sqlite3", play_games(8, seed=5))
    r = companion("export", "--bgstats", "--data-dir", str(tmp_path))
    doc = json.loads(r.stdout)
    players = {p["id"]: p["name"] for p in doc["players"]}
    titles = {g["id"]: g["name"] for g in doc["games"]}
    assert len(doc["plays"]) == 8 and "Color Milk" in titles.values()
    with GameLog(tmp_path / "games.sqlite3") as log:
        by_uuid = {g.uuid: g for g in log.games()}
    for play in doc["plays"]:
        rec = by_uuid[play["uuid"]]
        got = {players[s["playerRefId"]]: (s["score"], s["winner"]) for s in play["playerScores"]}
        want = {
            n: (str(rec.result["scores"][n]), n in rec.result["winners"])
            for n in rec.config["players"]
        }
        assert got == want
        assert len(play["playDate"]) == 19  # "YYYY-MM-DD HH:MM:SS"


def test_history_command_lists_finished_games_newest_first_with_filters(tmp_path):
    filled(tmp_path / "games.sqlite3", play_games(12, seed=7))
    rows = json.loads(companion("history", "--data-dir", str(tmp_path)).stdout)
    assert len(rows) == 12
    assert [r["started"] for r in rows] == sorted((r["started"] for r in rows), reverse=True)
    laser = json.loads(companion("history", "--game", "laser", "--data-dir", str(tmp_path)).stdout)
    assert laser and {r["game"] for r in laser} == {"laser"}
    who = rows[0]["players"][0]
    mine = json.loads(companion("history", "--player", who, "--data-dir", str(tmp_path)).stdout)
    assert mine and all(who in r["players"] for r in mine)
    assert all(set(r["winners"]) <= set(r["scores"]) for r in rows)
    bad = companion("history", "--game", "chess", "--data-dir", str(tmp_path))
    assert bad.returncode == 2 and "unknown game 'chess'" in bad.stderr
