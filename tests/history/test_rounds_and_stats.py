"""Round-by-round facts replayed from real logs, and the statistics over them."""

import pytest

from benchmarks.playthroughs import play_game
from companion import events as ev
from companion.entries import Entry
from companion.games.color_milk.stats import predictions as milk_predictions
from companion.games.kritters.stats import solo_bests
from companion.games.laser import GAME as LASER
from companion.games.laser.events import BidPlaced, BoardEntered, CardRevealed, RoundResult
from companion.games.laser.stats import bids as laser_bids
from companion.history import History
from companion.rounds import ScoreSeries, game_facts
from companion.stats import GameSummary, mode_label, player_stats
from companion.store import GameLog
from tests.laser.helpers import expire, new, play, reveal_comp
from tests.laser.test_solver import COMP_EXAMPLE


@pytest.mark.parametrize("name", ["color-milk", "laser", "kritters", "node"])
def test_the_series_starts_at_nothing_and_ends_at_the_logged_result(name):
    rec, entries = play_game(name, 11)
    facts = game_facts(name, rec.config, [e for e, _ in entries])
    series = ScoreSeries.from_json(facts["series"])
    assert series.players == tuple(rec.config["players"])
    assert len(series.labels) == len(series.points) >= 2
    assert series.labels[0] == "Start"
    final = dict(zip(series.players, series.points[-1], strict=True))
    assert final == {p: float(s) for p, s in rec.result["scores"].items()}


def test_color_milk_has_a_point_per_round_and_every_prediction_by_size():
    rec, entries = play_game("color-milk", 4)
    facts = game_facts("color-milk", rec.config, [e for e, _ in entries])
    events = [ev.from_dict(e.payload) for e, _ in entries]
    predictions = [e for e in events if type(e).__name__ == "Predict"]
    assert len(facts["predictions"]) == len(predictions)
    assert sorted(len(p.colours) for p in predictions) == sorted(
        p["size"] for p in facts["predictions"]
    )
    rounds_played = len(predictions) // len(rec.config["players"])
    assert len(facts["series"]["points"]) == rounds_played + 1


def test_undone_moves_are_not_in_the_series():
    rec, entries = play_game("laser", 2)
    plain = game_facts("laser", rec.config, [e for e, _ in entries])
    extra = [e for e, _ in entries] + [Entry(len(entries) + 1, "undo", None)]
    undone = game_facts("laser", rec.config, extra)
    assert undone["series"]["points"] != plain["series"]["points"]
    assert undone["result"]["over"] is False


def _competitive_round(bids):
    """The rulebook's competitive board, bids in order, the lowest bidder succeeds."""
    cards = (("yellow", "wood"), ("green", "carpet"))
    s, _ = reveal_comp(new(("Peter", "Tommy", "Suzie"), mode="competitive"), cards)
    board = BoardEntered(
        tuple(COMP_EXAMPLE["tiles"]),
        COMP_EXAMPLE["cat"],
        (2, 1, 2, 2, 2, 2),
        tuple(COMP_EXAMPLE["floors"]),
    )
    events = [*(CardRevealed(c, f) for c, f in cards), board, *(BidPlaced(p, b) for p, b in bids)]
    s, _ = play(s, *events[len(cards) :])
    spec = LASER.timer(s)
    events.append(ev.TimerExpired(spec.key))
    s, _ = expire(s)
    events.append(RoundResult(True))
    return [Entry(i, "event", ev.to_dict(e)) for i, e in enumerate(events, 1)]


def test_laser_bids_are_weighed_against_the_true_optimum():
    config = {"players": ["Peter", "Tommy", "Suzie"], "options": {"mode": "competitive"}}
    entries = _competitive_round((("Tommy", 5), ("Suzie", 4), ("Peter", 3)))
    facts = game_facts("laser", config, entries)
    # Peter's 3 steps are the rulebook's best
    assert facts["bids"] == [
        {"player": "Peter", "bid": 3, "optimum": 3},
        {"player": "Tommy", "bid": 5, "optimum": 3},
        {"player": "Suzie", "bid": 4, "optimum": 3},
    ]
    assert laser_bids([facts, facts]) == {
        "Peter": {"bids": 2, "optimal": 2, "over": 0},
        "Suzie": {"bids": 2, "optimal": 0, "over": 2},
        "Tommy": {"bids": 2, "optimal": 0, "over": 4},
    }


def _g(n, game, players, scores, winners, started):
    return GameSummary(f"u{n}", n, game, started, "", players, scores, winners)


def test_plays_wins_bests_averages_and_streaks():
    games = [
        _g(1, "node", ("A", "B"), {"A": 3, "B": 1}, ("A",), "2026-01-01"),
        _g(2, "node", ("A", "B"), {"A": 4, "B": 2}, ("A",), "2026-01-02"),
        _g(3, "node", ("A", "B"), {"A": 1, "B": 5}, ("B",), "2026-01-03"),
        _g(4, "node", ("A", "B"), {"A": 2, "B": 2}, ("A", "B"), "2026-01-04"),
        _g(5, "elios", ("A", "B"), {"A": 0, "B": 4}, ("A",), "2026-01-05"),
        _g(6, "elios", ("A", "B"), {"A": 3, "B": 0}, ("B",), "2026-01-06"),
    ]
    got = {(s.player, s.game): s for s in player_stats(reversed(games))}  # order read: by date
    a = got[("A", "node")]
    assert (a.plays, a.wins, a.best, a.average, a.best_streak, a.streak) == (4, 3, 4, 2.5, 2, 1)
    b = got[("B", "node")]
    assert (b.wins, b.win_rate, b.best_streak, b.streak) == (2, 0.5, 2, 2)
    assert got[("A", "elios")].best == 0 and got[("B", "elios")].best == 0  # fewest beams
    assert got[("A", "elios")].streak == 0


def test_color_milk_predictions_by_size_and_kritters_solo_bests():
    facts = [
        {"predictions": [{"player": "A", "size": 2, "fulfilled": True}]},
        {
            "predictions": [
                {"player": "A", "size": 2, "fulfilled": False},
                {"player": "B", "size": 5, "fulfilled": True},
            ]
        },
    ]
    assert milk_predictions(facts) == {"A": {2: [2, 1]}, "B": {5: [1, 1]}}
    games = [
        _g(1, "kritters", ("A",), {"A": 20}, ("A",), "1"),
        _g(2, "kritters", ("A",), {"A": 31}, ("A",), "2"),
        _g(3, "kritters", ("A", "B"), {"A": 50, "B": 1}, ("A",), "3"),  # not solo
    ]
    assert solo_bests(games) == {"A": 31}


def test_history_lists_newest_first_filters_and_caches_the_replay(tmp_path):
    from benchmarks.playthroughs import play_games

    with GameLog(tmp_path / "games.sqlite3") as log:
        log.add_games(play_games(8, seed=9))
        history = History.beside(log)
        rows = history.summaries()
        assert [r.started for r in rows] == sorted((r.started for r in rows), reverse=True)
        assert {r.game for r in history.summaries(game="laser")} == {"laser"}
        anna = history.summaries(player="Anna")
        assert anna and all("Anna" in r.players for r in anna)
        rec = log.game(rows[0].id)
        first = history.facts(rec)
        history.close()
        again = History.beside(log)  # a new reader finds the replay in the cache file
        assert again._cache.get(rec.uuid, first["_stamp"]) is not None
        assert again.series(rec).to_json() == first["series"]
        assert again.facts(rec) == first
        again.close()


def test_a_damaged_cache_is_rebuilt(tmp_path):
    with GameLog(tmp_path / "games.sqlite3") as log:
        log.add_games([play_game("node", 1)])
        (tmp_path / "history-cache.sqlite3").write_bytes(b"not a database at all" * 100)
        history = History.beside(log)
        assert history.statistics()["games"] == 1
        history.close()


@pytest.mark.parametrize(
    ("game", "players", "mode", "label"),
    [
        ("laser", ("A", "B", "C"), "auto", "team"),  # Laser names its "auto" as played
        ("laser", ("A", "B"), "auto", "competitive"),
        ("laser", ("A", "B", "C"), "competitive", "competitive"),
        ("node", ("A", "B"), "auto", "auto"),  # another game's option is shown as stored
    ],
)
def test_the_history_names_a_mode_as_the_game_names_it(game, players, mode, label):
    config = {"players": list(players), "options": {"mode": mode}}
    assert mode_label(game, config) == label
