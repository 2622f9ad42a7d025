"""`companion score kritters`: JSON in, best score out; bad input is one clear line, exit 2."""

from __future__ import annotations

import io
import json
import subprocess
import sys

import pytest

from companion.cli import main

RULEBOOK = {
    "cyan": 4,
    "magenta": 6,
    "yellow": 5,
    "paintbrushes": 1,
    "palettes": 2,
    "point_kritters": [{"colour": "red", "points": 3}, {"colour": "blue", "points": 4}],
}


def run(monkeypatch, capsys, doc):
    text = doc if isinstance(doc, str) else json.dumps(doc)
    monkeypatch.setattr(sys, "stdin", io.StringIO(text))
    code = main(["score", "kritters"])
    out, err = capsys.readouterr()
    return code, out, err


def test_rulebook_example(monkeypatch, capsys):
    code, out, err = run(monkeypatch, capsys, RULEBOOK)
    assert code == 0 and err == ""
    result = json.loads(out)
    assert result["total"] == 24
    assert result["assignment"]["paintbrushes"] == ["magenta"]
    assert sorted(result["assignment"]["palettes"]) == ["magenta", "yellow"]
    assert "paintbrush + palette on magenta: 6 x 2 = 12" in result["explanation"]


def test_triad_and_missing_keys(monkeypatch, capsys):
    code, out, _ = run(monkeypatch, capsys, {**RULEBOOK, "triad_bonus": True})
    assert code == 0 and json.loads(out)["total"] == 26
    code, out, _ = run(monkeypatch, capsys, {})
    assert code == 0 and json.loads(out)["total"] == 0


def test_wilds_buckets_and_junior(monkeypatch, capsys):
    doc = {
        "cyan": 2,
        "wild": 3,
        "paintbrushes": 1,
        "palettes": 1,
        "paint_buckets": 1,
        "point_kritters": [{"colour": "green", "points": 6}, {"colour": "green", "points": 2}],
    }
    code, out, _ = run(monkeypatch, capsys, doc)
    result = json.loads(out)
    assert result["total"] == (2 + 3) * 2 + 8 + 4
    assert result["assignment"]["wild"] == {"cyan": 3, "magenta": 0, "yellow": 0}
    assert result["assignment"]["paint_buckets"] == ["green"]
    code, out, _ = run(
        monkeypatch, capsys, {"cyan": 2, "magenta": 1, "wild": 1, "variant": "junior"}
    )
    assert json.loads(out)["total"] == 5


@pytest.mark.parametrize(
    "doc, words",
    [
        ({"cyan": -1}, "negative"),
        ({"cyan": 2.5}, "whole number"),
        ({"wild": True}, "whole number"),
        ({"magenta": 10**12}, "at most"),
        ('{"cyan": 1e999}', "whole number"),
        ({"purple": 3}, "unknown key 'purple'"),
        ({"point_kritters": [{"colour": "purple", "points": 3}]}, "red, green, blue"),
        ({"point_kritters": [{"colour": "red", "points": 9}]}, "worth"),
        ({"point_kritters": [{"colour": "red"}]}, "each point kritter"),
        ({"point_kritters": "red"}, "must be a list"),
        ({"variant": "expert"}, "variant"),
        ({"triad_bonus": "yes"}, "true or false"),
        ({"variant": "junior", "paintbrushes": 1}, "Junior"),
        ({"variant": "junior", "triad_bonus": True}, "Junior"),
        ("[1, 2]", "JSON object"),
        ("{not json", "not valid JSON"),
        ("", "nothing on stdin"),
    ],
)
def test_bad_input_is_one_clear_line(monkeypatch, capsys, doc, words):
    code, out, err = run(monkeypatch, capsys, doc)
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and err.startswith("companion: error: ")
    assert words in err


def test_as_a_real_command():
    proc = subprocess.run(
        [sys.executable, "-m", "companion", "score", "kritters"],
        input=json.dumps(RULEBOOK),
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["total"] == 24
    bad = subprocess.run(
        [sys.executable, "-m", "companion", "score", "kritters"],
        input='{"cyan": -3}',
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert (
        bad.returncode == 2
        and bad.stderr.strip() == "companion: error: cyan cannot be negative (-3)"
    )
