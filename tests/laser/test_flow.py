"""The shape of Laser's rules: one table (rules.STEPS) says which step takes each event in
each phase; the steps share helpers that import no step; the camera hooks need no GAME."""

import random
from pathlib import Path

import pytest

from companion.events import ButtonPressed, TimerExpired
from companion.game import GameConfig
from companion.games import laser
from companion.games.laser import GAME, sensing
from companion.games.laser.events import ImpossibleClaimed
from companion.games.laser.rules import ANY, STEPS, step_for
from tests import flow_shape

LASER = Path(laser.__file__).parent
STEP_MODULES = {"rules", "table", "team", "competitive", "impossible", "judging"}
REFUSALS = {
    step for (phase, _), step in STEPS.items() if phase == ANY and "refuse" in step.__name__
}


def kind(event):
    return event if isinstance(event, ButtonPressed) else type(event)


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("mode, players", [("team", 4), ("competitive", 2)])
def test_every_legal_action_is_taken_by_a_row_of_its_own_phase(seed, mode, players):
    rng = random.Random(seed)
    names = tuple(f"P{i}" for i in range(players))
    s = GAME.initial_state(GameConfig(names, {"mode": mode}))
    seen = set()
    for _step in range(400):
        if GAME.is_over(s):
            break
        actions = list(GAME.legal_actions(s))
        for ev in actions:
            assert (s.phase, kind(ev)) in STEPS, f"{ev} in {s.phase} has no row of its own"
        spec = GAME.timer(s)
        if spec is not None:
            assert (s.phase, TimerExpired) in STEPS, f"the {s.phase} clock has no row"
        seen.add(s.phase)
        if spec is not None and (not actions or rng.random() < 0.3):
            ev = TimerExpired(spec.key)
        else:  # a claim of Impossible! now and then, so that rounds get played through
            plain = [ev for ev in actions if not isinstance(ev, ImpossibleClaimed)]
            ev = rng.choice(plain if plain and rng.random() < 0.9 else actions)
        s, _ = GAME.apply(s, ev)
    # the walk went through whole rounds, not around one phase
    round_of = {"team": {"reveal", "planning", "bids", "mixing"}}
    assert round_of.get(mode, {"reveal", "thinking", "bidding", "demonstration"}) <= seen


def test_an_event_a_phase_does_not_take_is_refused_with_its_reason():
    s = GAME.initial_state(GameConfig(("A", "B", "C"), {"mode": "team"}))
    step = step_for(s, ButtonPressed("bid"))
    assert step in REFUSALS
    with pytest.raises(Exception, match="bid button starts the clock"):
        GAME.apply(s, ButtonPressed("bid"))
    assert step_for(s, ButtonPressed("honk")) in REFUSALS


def imported(path: Path) -> set[str]:
    return flow_shape.imported(path, "companion.games.laser")


@pytest.mark.parametrize("helper", ["flow.py", "proposal.py", "state.py"])
def test_the_helpers_the_steps_share_import_no_step(helper):
    assert not imported(LASER / helper) & STEP_MODULES


def test_the_camera_hooks_need_no_game_object():
    for path in sorted((LASER / "sensing").glob("*.py")):
        assert not imported(path) & (STEP_MODULES | {"GAME"}), path.name
    assert GAME.interpret == sensing.interpret and GAME.readers == sensing.readers
