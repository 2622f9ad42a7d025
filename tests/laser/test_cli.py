"""`companion solve laser`: JSON in, JSON out, one-line errors with exit code 2."""

import io
import json
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest

from companion.cli import main

from .test_solver import COMP_EXAMPLE, TEAM_EXAMPLE

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def run(monkeypatch, capsys):
    """The real CLI entry point in-process: stdin in, (exit code, stdout, stderr) out."""

    def go(payload, *args):
        text = payload if isinstance(payload, str) else json.dumps(payload)
        monkeypatch.setattr(sys, "stdin", io.StringIO(text))
        code = main(["solve", "laser", *args])
        out = capsys.readouterr()
        return SimpleNamespace(returncode=code, stdout=out.out, stderr=out.err)

    return go


def test_command_line_end_to_end():
    out = subprocess.run(
        [sys.executable, "-m", "companion", "solve", "laser"],
        input=json.dumps(TEAM_EXAMPLE),
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
    )
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout)["min_cost"] == 3


def test_team_example_prints_the_optimum_and_exact_totals(run):
    out = run(TEAM_EXAMPLE)
    assert out.returncode == 0, out.stderr
    doc = json.loads(out.stdout)
    assert doc["min_cost"] == 3
    assert sum(m["cost"] for m in doc["moves"]) == 3
    assert doc["moves"][-1]["completes"] in ("blue", "cyan")
    assert doc["removed"] == 4 and doc["max_removed"] >= 4
    assert {3, 7, 8, 10} <= set(doc["exact_totals"]) and 2 not in doc["exact_totals"]


def test_competitive_example_and_a_max_cost_too_low(run):
    doc = json.loads(run(COMP_EXAMPLE).stdout)
    assert doc["min_cost"] == 3 and doc["exact_totals"] == []
    doc = json.loads(run({**COMP_EXAMPLE, "max_cost": 2}).stdout)
    assert doc["min_cost"] is None and doc["moves"] == [] and doc["impossible"] is False


def test_impossible_card_is_reported(run):
    data = {**TEAM_EXAMPLE, "cards": [{"colour": "cyan"}, {"colour": "blue"}]}
    data["supply"] = {**TEAM_EXAMPLE["supply"], "cyan": 0, "blue": 0}
    data["tiles"] = [None if t in ("cyan", "blue") else t for t in TEAM_EXAMPLE["tiles"]]
    doc = json.loads(run(data).stdout)
    assert doc["min_cost"] is None and doc["impossible"] is True


@pytest.mark.parametrize(
    "payload, message",
    [
        ("not json", "not valid JSON"),
        ("", "nothing on stdin"),
        ({**TEAM_EXAMPLE, "tiles": [["red", "blue"]] + [None] * 11}, "one colour name"),
        ({**TEAM_EXAMPLE, "tiles": ["red"] + [None] * 11}, "under the cat"),
        ({**TEAM_EXAMPLE, "cards": [{"colour": "purple"}]}, "unknown card colour"),
        ({**TEAM_EXAMPLE, "tiles": [None] + ["red"] * 5 + [None] * 6}, "red figures in play"),
        ({**TEAM_EXAMPLE, "tiles": [None] * 11}, "12 tiles"),
        ({**TEAM_EXAMPLE, "max_cost": "lots"}, "max_cost"),
    ],
)
def test_malformed_input_is_one_line_and_exit_2(run, payload, message):
    out = run(payload)
    assert out.returncode == 2
    assert message in out.stderr and out.stderr.count("\n") == 1
    assert out.stdout == ""


# Twelve team cards on a sparse board: the exact search runs for far longer than a person
# waits (the A* search up to 20 MP, then the search for any solution at all).
TWELVE_CARDS = {
    "mode": "team",
    "cat": 4,
    "tiles": [
        "yellow",
        "blue",
        "green",
        "magenta",
        None,
        "red",
        "red",
        "red",
        "blue",
        "green",
        "cyan",
        "cyan",
    ],  # fmt: skip
    "supply": {"red": 1, "yellow": 2, "green": 2, "cyan": 2, "blue": 2, "magenta": 2},
    "cards": [{"colour": c} for c in ("red", "yellow", "green", "cyan", "blue", "magenta")] * 2,
}


def test_timeout_answers_not_solved_honestly(run):
    out = run(TWELVE_CARDS, "--timeout", "0.5")
    assert out.returncode == 0, out.stderr
    doc = json.loads(out.stdout)
    assert doc["solved"] is False and doc["note"] == "not solved within 0.5 s or 256 MB of memory"
    assert doc["min_cost"] is None and doc["impossible"] is False and doc["exact_totals"] == []


def test_default_timeout_bounds_the_command_line():
    out = subprocess.run(
        [sys.executable, "-m", "companion", "solve", "laser"],
        input=json.dumps(TWELVE_CARDS),
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
    )
    assert out.returncode == 0, out.stderr
    doc = json.loads(out.stdout)
    assert doc["solved"] is False and doc["note"] == "not solved within 5 s or 256 MB of memory"


def test_two_cards_are_solved_within_the_timeout(run):
    doc = json.loads(run(TEAM_EXAMPLE, "--timeout", "2").stdout)
    assert doc["solved"] is True and "note" not in doc and doc["min_cost"] == 3


@pytest.mark.parametrize(
    "args, message",
    [
        (("--timeout",), "only --timeout S"),
        (("--timeout", "0"), "more than 0"),
        (("--timeout", "soon"), "not 'soon'"),
        (("--timeout", "nan"), "more than 0"),
        (("--fast",), "only --timeout S"),
    ],
)
def test_bad_timeout_is_one_line_and_exit_2(run, args, message):
    out = run(TEAM_EXAMPLE, *args)
    assert out.returncode == 2
    assert message in out.stderr and out.stderr.count("\n") == 1
    assert out.stdout == ""
