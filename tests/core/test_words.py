"""What reaches people is in their words: counts agree with their nouns, and a game refusing
an event it has no use for says what it was at the table, not the code's name for it."""

from __future__ import annotations

import re

import pytest

from companion import catalogue
from companion.errors import IllegalMove
from companion.events import BallPassed, BallSeen, TimerExpired
from companion.game import GameConfig
from companion.words import plural

PLAYERS = {"laser": ("Anna", "Ben", "Cleo")}
OPTIONS = {"laser": {"mode": "team"}}


def test_counts_agree_with_their_nouns():
    assert plural(1, "node") == "1 node"
    assert plural(0, "node") == "0 nodes"
    assert plural(14, "node") == "14 nodes"
    assert plural(1, "paintbrush", "paintbrushes") == "1 paintbrush"
    assert plural(2, "paintbrush", "paintbrushes") == "2 paintbrushes"


@pytest.mark.parametrize("name", [g.name for g in catalogue.games()])
@pytest.mark.parametrize("event", [BallPassed(), TimerExpired("nonesuch"), BallSeen("red", 9)])
def test_an_event_a_game_has_no_use_for_is_refused_in_plain_words(name, event):
    game = catalogue.load(name)
    config = GameConfig(PLAYERS.get(name, ("Anna", "Ben")), OPTIONS.get(name, {}))
    state = game.initial_state(config)
    try:
        game.apply(state, event)
    except IllegalMove as exc:
        text = str(exc)
    else:
        return  # the game uses it
    assert type(event).__name__ not in text and " events" not in text, text
    assert not re.search(r"[a-z][A-Z]", text), f"a code name reaches people: {text}"


def test_a_node_capture_of_one_node_says_node():
    from companion.games.node.clusters import capture_cues
    from companion.games.node.state import Cluster

    game = catalogue.load("node")
    state = game.initial_state(GameConfig(("Anna", "Ben")))
    cues = capture_cues(state, Cluster("red", frozenset({(0, 0)})), "Anna")
    assert "(1 node)" in cues[0].text, cues[0].text
