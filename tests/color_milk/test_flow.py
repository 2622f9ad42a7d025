"""The shape of Color Milk's rules: one table (rules.STEPS) says which step takes each event
in each phase; the steps are plain functions over the frozen state (no mixins), and the
helpers they share import no step."""

import ast
import inspect
import random
from pathlib import Path

import pytest

from companion.errors import IllegalMove
from companion.events import ButtonPressed
from companion.game import GameBase, GameConfig
from companion.games import color_milk
from companion.games.color_milk import GAME, rules
from companion.games.color_milk.autoplay import ScriptedTable
from companion.games.color_milk.events import Choose
from companion.games.color_milk.rules import ANY, STEPS, step_for
from tests import flow_shape

MILK = Path(color_milk.__file__).parent
STEP_MODULES = {"rules", "readings", "predictions", "rounds", "bonuses"}
REFUSALS = {
    step for (phase, _), step in STEPS.items() if phase == ANY and "refuse" in step.__name__
}
NAMES = ("Anna", "Ben", "Cleo", "Dan")


def kind(event):
    return event if isinstance(event, ButtonPressed) else type(event)


@pytest.mark.parametrize("seed, players, board", [(1, 3, 1), (2, 4, 5), (3, 2, 6), (4, 1, 3)])
def test_every_event_a_whole_game_takes_has_a_row_that_is_no_refusal(seed, players, board):
    box = {"state": GAME.initial_state(GameConfig(NAMES[:players], {"board": board}))}
    seen = set()

    def submit(ev):
        s = box["state"]
        for action in GAME.legal_actions(s):
            assert (s.phase, kind(action)) in STEPS, f"{action} in {s.phase} has no row"
        step = step_for(s, ev)
        assert step is not None and step not in REFUSALS, f"{ev} in {s.phase}"
        seen.add(s.phase)
        box["state"], cues = GAME.apply(s, ev)
        return cues

    final = ScriptedTable(submit, lambda: box["state"], random.Random(seed)).play(max_rounds=40)
    assert GAME.is_over(final)
    assert {"predict", "mill", "choose", "colour", "remix"} <= seen


def test_an_event_a_phase_does_not_take_is_refused_with_its_reason():
    s = GAME.initial_state(GameConfig(NAMES[:2]))
    assert step_for(s, Choose("Anna", (0,))) in REFUSALS
    with pytest.raises(IllegalMove, match="not time to choose"):
        GAME.apply(s, Choose("Anna", (0,)))
    assert step_for(s, ButtonPressed("next")) in REFUSALS
    assert step_for(s, ButtonPressed("honk")) in REFUSALS
    with pytest.raises(IllegalMove, match="'honk' button does nothing"):
        GAME.apply(s, ButtonPressed("honk"))


def test_the_rules_are_one_class_over_plain_steps_without_mixins():
    assert GAME.apply.__func__ is rules.ColorMilk.apply
    assert rules.ColorMilk.__bases__ == (GameBase,)
    for name in STEP_MODULES - {"rules"}:
        tree = ast.parse((MILK / f"{name}.py").read_text())
        assert not [n.name for n in ast.walk(tree) if isinstance(n, ast.ClassDef)], name
    for step in set(STEPS.values()):  # (state, event) -> (state, cues)
        assert inspect.isfunction(step) and len(inspect.signature(step).parameters) == 2, step


def imported(path: Path) -> set[str]:
    return flow_shape.imported(path, "companion.games.color_milk")


@pytest.mark.parametrize("helper", ["state.py", "mill.py", "boards.py", "events.py"])
def test_the_helpers_the_steps_share_import_no_step(helper):
    assert not imported(MILK / helper) & STEP_MODULES
