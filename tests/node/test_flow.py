"""The shape of Node's rules: one table (rules.STEPS) says which step takes each event in
each phase; the steps are plain functions over the frozen state, and the helpers they share
import no step."""

import ast
import inspect
import random
from pathlib import Path

import pytest

from companion.errors import IllegalMove
from companion.events import ButtonPressed
from companion.game import GameBase, GameConfig
from companion.games import node
from companion.games.node import GAME, Discard, NoCardsLeft, PlaceCard, rules
from companion.games.node.events import CardProposed
from companion.games.node.rules import STEPS, step_for
from tests import flow_shape

NODE = Path(node.__file__).parent
STEP_MODULES = {"rules", "turns"}
COLOURS = ("red", "yellow", "green", "blue", "purple")


@pytest.mark.parametrize("seed", range(3))
def test_every_move_of_a_whole_game_is_taken_by_a_row_of_the_turns(seed):
    rng = random.Random(seed)
    s = GAME.initial_state(GameConfig(("ann", "bob"), {"table_width": 9, "table_height": 7}))
    for _ in range(40):
        if GAME.is_over(s):
            break
        colours = tuple(rng.choice(COLOURS[:3]) for _ in range(s.card_width * s.card_height))
        spots = GAME.legal_placements(s, colours)
        if spots:
            ev = PlaceCard(s.current, colours, *rng.choice(spots))
        else:
            ev = Discard(s.current, (colours,))
        assert step_for(s, ev) is STEPS[("turns", type(ev))]
        s, _ = GAME.apply(s, ev)
    assert s.played > 5
    for ev in (NoCardsLeft(), CardProposed("sure?")):
        assert step_for(s, ev) is STEPS[("turns", type(ev))]


def test_an_event_no_row_takes_is_refused_in_words_and_the_end_takes_nothing():
    s = GAME.initial_state(GameConfig(("ann", "bob")))
    assert step_for(s, ButtonPressed("next")) is None
    with pytest.raises(IllegalMove, match="Node"):
        GAME.apply(s, ButtonPressed("next"))
    s, _ = GAME.apply(s, NoCardsLeft())
    with pytest.raises(IllegalMove, match="over"):
        GAME.apply(s, NoCardsLeft())


def test_the_rules_are_one_class_over_plain_steps_without_mixins():
    assert rules.Node.__bases__ == (GameBase,)
    assert GAME.apply.__func__ is rules.Node.apply
    tree = ast.parse((NODE / "turns.py").read_text())
    assert not [n.name for n in ast.walk(tree) if isinstance(n, ast.ClassDef)]
    for step in set(STEPS.values()):  # (state, event) -> (state, cues)
        assert inspect.isfunction(step) and len(inspect.signature(step).parameters) == 2, step


def imported(path: Path) -> set[str]:
    return flow_shape.imported(path, "companion.games.node")


@pytest.mark.parametrize("helper", ["state.py", "placing.py", "clusters.py", "geometry.py"])
def test_the_helpers_the_steps_share_import_no_step(helper):
    assert not imported(NODE / helper) & STEP_MODULES
