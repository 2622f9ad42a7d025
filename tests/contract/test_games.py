"""The contract every game keeps, checked over every game the catalogue discovers (the
test-only sixth game included) on its golden playthroughs: legal actions are accepted,
every event survives a JSON round trip, the live session equals the replay of its log,
undo and redo walk the same states, and the timer specs are sound."""

from __future__ import annotations

import json

import pytest

from companion import catalogue
from companion import events as ev
from companion.clock import FakeClock
from companion.entries import iter_entries
from companion.errors import IllegalMove, UsageError
from companion.game import Game, GameConfig, TimerSpec
from companion.session import Session, config_from_json, replay
from companion.store import GameLog
from tests.golden import golden_files
from tests.sixth_game.catalogue import sixth_game_in_catalogue

with sixth_game_in_catalogue():
    NAMES = [g.name for g in catalogue.games()]


@pytest.fixture(autouse=True)
def sixth_game():
    with sixth_game_in_catalogue():
        yield


def goldens(name: str) -> list[dict]:
    docs = [json.loads(p.read_text()) for p in golden_files()]
    return [d for d in docs if d["log"]["game"] == name]


def test_the_catalogue_finds_the_five_games_and_the_sixth():
    assert NAMES == ["color-milk", "laser", "kritters", "elios", "node", "colour-race"]


@pytest.mark.parametrize("name", NAMES)
def test_metadata_comes_from_the_game_package(name):
    info, game = catalogue.info(name), catalogue.load(name)
    assert isinstance(game, Game)
    assert (info.name, info.title, info.players, info.lower_is_better) == (
        game.name,
        game.title,
        (game.min_players, game.max_players),
        game.lower_is_better,
    )
    assert info.title and info.blurb and 1 <= info.players[0] <= info.players[1]


@pytest.mark.parametrize("name", NAMES)
def test_player_counts_outside_the_box_are_refused(name):
    game = catalogue.load(name)
    for n in (game.min_players - 1, game.max_players + 1):
        if n >= 1:
            with pytest.raises(UsageError):
                game.initial_state(GameConfig(tuple(f"P{i}" for i in range(n))))


@pytest.mark.parametrize("name", NAMES)
def test_every_game_has_golden_playthroughs_that_end(name):
    docs = goldens(name)
    assert len(docs) >= 2
    for doc in docs:
        game = catalogue.load(name)
        config = config_from_json(doc["log"]["config"])
        states, redo = replay(game, config, list(iter_entries(doc["log"])))
        assert game.is_over(states[-1]) and redo == []


@pytest.mark.parametrize("name", NAMES)
def test_every_event_survives_a_json_round_trip(name):
    for doc in goldens(name):
        for entry in doc["log"]["entries"]:
            if entry["kind"] != "event":
                continue
            event = ev.from_dict(entry["event"])
            again = json.loads(json.dumps(ev.to_dict(event)))
            assert again == entry["event"] and ev.from_dict(again) == event


@pytest.mark.parametrize("name", NAMES)
def test_the_live_session_equals_the_replay_and_undo_redo_walk_the_same_states(name, tmp_path):
    game = catalogue.load(name)
    for i, doc in enumerate(goldens(name)):
        config = config_from_json(doc["log"]["config"])
        states, _ = replay(game, config, list(iter_entries(doc["log"])))
        with GameLog(tmp_path / f"{i}.sqlite3") as log:
            live = Session.start(game, log, config, clock=FakeClock())
            for entry in doc["log"]["entries"]:
                if entry["kind"] == "event":
                    live.submit(ev.from_dict(entry["event"]))
                else:
                    getattr(live, entry["kind"])()  # undo, redo
            assert live.state == states[-1]
            assert Session.resume(game, log, live.game_id, clock=FakeClock()).state == live.state
            assert log.game(live.game_id).status == "finished"
            for back in reversed(states[:-1]):
                assert live.undo() and live.state == back
            assert not live.undo()
            for forward in states[1:]:
                assert live.redo() and live.state == forward
            assert not live.redo() and log.game(live.game_id).status == "finished"


@pytest.mark.parametrize("name", NAMES)
def test_legal_actions_are_accepted_and_timers_are_sound(name):
    game = catalogue.load(name)
    for doc in goldens(name):
        config = config_from_json(doc["log"]["config"])
        states, _ = replay(game, config, list(iter_entries(doc["log"])))
        for state in states:
            spec = game.timer(state)
            if spec is not None:
                assert isinstance(spec, TimerSpec) and isinstance(spec.key, str)
                assert spec.seconds > 0
                assert all(0 < w < spec.seconds for w in spec.warnings)
            for action in game.legal_actions(state):
                try:
                    after, cues = game.apply(state, action)
                except IllegalMove as exc:
                    pytest.fail(f"{game.describe(state)!r}: legal {action} refused: {exc}")
                assert type(after) is type(state)
        with pytest.raises(IllegalMove):  # a finished game takes nothing more
            over = states[-1]
            legal = list(game.legal_actions(over)) or [ev.ButtonPressed("next")]
            game.apply(over, legal[0])
