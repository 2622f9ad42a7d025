"""Random walks through the rules: every legal action is accepted, invariants hold, and the
game reaches its end."""

import random

import pytest

from companion.events import TimerExpired
from companion.game import GameConfig
from companion.games.laser import GAME
from companion.games.laser.rules import WIN_POINTS


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize(
    "mode, players", [("team", 3), ("team", 7), ("competitive", 2), ("competitive", 4)]
)
def test_random_walk_accepts_every_legal_action_and_ends(seed, mode, players):
    rng = random.Random(seed)
    names = tuple(f"P{i}" for i in range(players))
    s = GAME.initial_state(GameConfig(names, {"mode": mode, "cards": rng.choice((2, 3))}))
    for _step in range(3000):
        if GAME.is_over(s):
            break
        actions = list(GAME.legal_actions(s))
        spec = GAME.timer(s)
        if spec is not None and (not actions or rng.random() < 0.3):
            ev = TimerExpired(spec.key)
        else:
            assert actions, f"stuck in {s.phase}"
            ev = rng.choice(actions)
        s, _ = GAME.apply(s, ev)
        assert all(0 <= x < 3 for x in s.xs)
        if mode == "team":
            assert min(s.scores) >= 0
            assert s.turns_done <= s.turns_each * players
    assert GAME.is_over(s)
    winners = GAME.winners(s)
    assert winners
    if mode == "competitive":
        assert all(GAME.scores(s)[w] >= WIN_POINTS for w in winners)
    else:
        assert s.turns_done == s.turns_each * players
