"""A game's own statistics come from its own folder: the test-only Colour Race
(tests/sixth_game/) and Dice Golf (tests/history/more_games/, where the fewest strokes win)
are put on the catalogue's path and nothing else, and `companion stats`, the Statistics
screen, the results' summary and BG Stats pick up their lines and which way their scores run."""

from __future__ import annotations

import json
import random
from contextlib import contextmanager
from pathlib import Path

import pytest

import companion.games
from companion import catalogue, cli
from companion.bgstats import Play
from companion.clock import FakeClock
from companion.game import GameConfig
from companion.history import History
from companion.paths import log_path
from companion.session import Session
from companion.store import GameLog
from companion.ui.render import ensure_window, pump
from tests.sixth_game.catalogue import sixth_game_in_catalogue

MORE_GAMES = str(Path(__file__).with_name("more_games"))


@contextmanager
def dice_golf_in_catalogue():
    companion.games.__path__.append(MORE_GAMES)
    try:
        yield
    finally:
        companion.games.__path__.remove(MORE_GAMES)


@pytest.fixture(autouse=True)
def catalogue_with_test_games():
    with sixth_game_in_catalogue(), dice_golf_in_catalogue():
        yield


def play(log: GameLog, name: str, players: tuple[str, ...], seed: int) -> None:
    """A whole game of random legal moves, stored as the app stores it."""
    game, rng = catalogue.load(name), random.Random(seed)
    s = Session.start(game, log, GameConfig(players, seed=seed), clock=FakeClock())
    while not game.is_over(s.state):
        s.submit(rng.choice(game.legal_actions(s.state)))


@pytest.fixture
def data(tmp_path):
    """A table's data dir with 6 Colour Races and 6 rounds of Dice Golf."""
    folder = tmp_path / "data"
    folder.mkdir()
    with GameLog(log_path(folder)) as log:
        for seed in range(6):
            play(log, "colour-race", ("Ann", "Ben", "Cleo")[: 2 + seed % 2], seed)
            play(log, "dice-golf", ("Ann", "Ben"), seed)
    return folder


def finished(folder, name):
    with GameLog(log_path(folder)) as log:
        return [r for r in log.games("finished") if r.game == name]


def test_companion_stats_carries_each_test_game_s_own_statistics_and_lines(data, capsys):
    assert cli.main(["stats", "--data-dir", str(data)]) == 0
    got = json.loads(capsys.readouterr().out)
    races = finished(data, "colour-race")
    first = sum(r.config["players"][0] in r.result["winners"] for r in races)
    assert got["colour_race_first_roller"] == {"races": 6, "won": first}
    rounds = finished(data, "dice-golf")
    under = {p: sum(r.result["scores"][p] < 9 for r in rounds) for p in ("Ann", "Ben")}
    assert got["dice_golf_under_par"] == {p: [6, n] for p, n in under.items()}
    assert {
        "game": "colour-race",
        "title": "Colour Race",
        "player": "",
        "text": (f"the first to roll won {first} of 6 races"),
    } in got["lines"]
    for p, n in under.items():
        line = {"game": "dice-golf", "title": "Dice Golf", "player": p}
        assert {**line, "text": f"under par in {n} of 6 rounds"} in got["lines"]


def test_where_the_fewest_strokes_win_the_best_score_is_the_lowest_everywhere(data):
    rounds = finished(data, "dice-golf")
    for r in rounds:  # the game's own winners: GameBase reads lower_is_better
        scores = r.result["scores"]
        assert set(r.result["winners"]) == {p for p in scores if scores[p] == min(scores.values())}
    with GameLog(log_path(data)) as log:
        stats = History(log).statistics("dice-golf")
    best = {s["player"]: s["best"] for s in stats["players"]}
    assert best == {p: min(r.result["scores"][p] for r in rounds) for p in ("Ann", "Ben")}
    spread = next(r for r in rounds if len(set(r.result["scores"].values())) == 2)
    play_ = Play.of(spread)
    assert not play_.highest_wins
    low = min(spread.result["scores"], key=spread.result["scores"].get)
    assert play_.ranks[play_.players.index(low)] == 1

    from companion.ui.results import summary_text

    r = spread
    text = summary_text(r.game, r.config, r.started, r.result["scores"], r.result["winners"])
    listed = [line.split(":")[0] for line in text.splitlines()[1:3]]
    assert listed[0] == low  # best first: the fewest strokes


def test_the_statistics_screen_shows_the_test_games_lines_under_their_titles(data):
    ensure_window((800, 480))
    from companion.ui.context import AppContext
    from companion.ui.stats_screen import StatsScreen

    ctx = AppContext.open(data)
    try:
        screen = StatsScreen(name="stats", ctx=ctx)
        screen.show(History(ctx.log))
        assert screen.ready.wait(30)
        pump()
        notes = screen.ids.notes.children[0].text.splitlines()
        want = History(ctx.log).statistics()["lines"]
        assert len(notes) == len(want) >= 3
        assert any(n.startswith("Colour Race: the first to roll won ") for n in notes)
        assert any(n.startswith("Dice Golf, Ann: under par in ") for n in notes)
        columns = [c.text.split("\n") for c in reversed(screen.ids.grid.children)]
        golfers = [i for i, g in enumerate(columns[1]) if g == "Dice Golf"]
        assert len(golfers) == 2  # Ann's and Ben's rows, with their lowest as best
        finals = [r.result["scores"] for r in finished(data, "dice-golf")]
        for i in golfers:
            assert columns[5][i] == f"{min(s[columns[0][i]] for s in finals):g}"
    finally:
        ctx.log.close()
