"""Odds against an exact enumeration of every 5-ball draw of labelled balls."""

import io
import json
from collections import Counter
from fractions import Fraction
from itertools import combinations

import pytest

from companion import cli
from companion.games.color_milk.mill import COLOURS, FULL_MILL
from companion.games.color_milk.odds import all_odds, fulfil_probability

PREDICTIONS = [p for k in range(1, 6) for p in combinations(COLOURS, k)]


def enumerate_odds(mill, draws=5, seen=()):
    """Count every draw of `draws` labelled balls; the share containing each prediction."""
    balls = [c for c, n in zip(COLOURS, mill, strict=True) for _ in range(n)]
    hits, total = Counter(), 0
    for idx in combinations(range(len(balls)), draws):
        got = {balls[i] for i in idx} | set(seen)
        total += 1
        for pred in PREDICTIONS:
            if got.issuperset(pred):
                hits[pred] += 1
    return {pred: Fraction(hits[pred], total) for pred in PREDICTIONS}


@pytest.mark.parametrize(
    "mill",
    [
        FULL_MILL,
        (4, 3, 2, 1, 0),
        (1, 1, 1, 1, 1),
        (3, 4, 2, 3, 2),
        (0, 5, 0, 3, 2),
        (5, 4, 3, 2, 1),
    ],
)
def test_every_prediction_matches_enumeration(mill):
    expected = enumerate_odds(mill)
    got = all_odds(mill)
    assert got == expected
    assert len(got) == 31


def test_odds_mid_round_count_the_balls_already_seen():
    # two balls already out (pink, blue): three more to come from what is left inside
    inside = (5, 5, 4, 2, 2)
    expected = enumerate_odds(inside, draws=3, seen=("pink", "blue"))
    for pred in PREDICTIONS:
        assert fulfil_probability(inside, pred, draws=3, seen=("pink", "blue")) == expected[pred]


def test_known_values():
    assert fulfil_probability(FULL_MILL, ["purple"]) == 1 - Fraction(
        18 * 17 * 16 * 15 * 14, 20 * 19 * 18 * 17 * 16
    )
    assert fulfil_probability((1, 1, 1, 1, 1), COLOURS) == 1  # the last five are certain
    assert fulfil_probability((6, 4, 0, 0, 0), ["pink"]) == 0
    with pytest.raises(ValueError):
        fulfil_probability((1, 1, 1, 0, 0), ["blue"])


def run_cli(monkeypatch, capsys, payload):
    monkeypatch.setattr("sys.stdin", io.StringIO(payload))
    code = cli.main(["odds", "color-milk"])
    out = capsys.readouterr()
    return code, out.out, out.err


def test_cli_prints_the_exact_probability(monkeypatch, capsys):
    body = json.dumps(
        {"mill": dict(zip(COLOURS, FULL_MILL, strict=True)), "prediction": ["pink", "purple"]}
    )
    code, out, err = run_cli(monkeypatch, capsys, body)
    assert code == 0 and err == ""
    got = json.loads(out)
    exact = enumerate_odds(FULL_MILL)[("pink", "purple")]
    assert abs(got["probability"] - float(exact)) < 1e-12
    assert Fraction(got["exact"]) == exact


def test_cli_missing_colours_count_as_none(monkeypatch, capsys):
    code, out, _ = run_cli(monkeypatch, capsys, '{"mill": {"blue": 5}, "prediction": ["blue"]}')
    assert code == 0 and json.loads(out)["probability"] == 1.0


@pytest.mark.parametrize(
    "payload, words",
    [
        ('{"mill": {"red": 1, "blue": 6}, "prediction": ["blue"]}', "unknown colour 'red'"),
        ('{"mill": {"blue": -1, "green": 5}, "prediction": ["blue"]}', "negative count"),
        ('{"mill": {"purple": 3, "blue": 6}, "prediction": ["blue"]}', "at most 2 purple"),
        ('{"mill": {"blue": 6}, "prediction": []}', "1 to 5 colours"),
        ('{"mill": {"blue": 6}, "prediction": ["blue", "blue"]}', "at most once"),
        ('{"mill": {"blue": 6}, "prediction": ["cyan"]}', "unknown colour 'cyan'"),
        ('{"mill": {"blue": 2, "green": 2}, "prediction": ["blue"]}', "at least 5 balls"),
        ('{"mill": {"blue": 2.5, "green": 5}, "prediction": ["blue"]}', "whole number"),
        ('{"prediction": ["blue"]}', '"mill" must be'),
        ('{"mill": {"blue": 6}, "prediction": "blue"}', '"prediction" must be a list'),
        ("[1, 2]", "JSON object"),
        ("not json", "not valid JSON"),
    ],
)
def test_cli_bad_input_is_one_clear_line(monkeypatch, capsys, payload, words):
    code, out, err = run_cli(monkeypatch, capsys, payload)
    assert code == 2 and out == ""
    assert words in err and err.count("\n") == 1


def test_oversized_prediction_is_refused(monkeypatch, capsys):
    body = json.dumps({"mill": {"blue": 6}, "prediction": [*COLOURS, "blue"]})
    code, _, err = run_cli(monkeypatch, capsys, body)
    assert code == 2 and ("at most once" in err or "1 to 5" in err)
