"""The game night's Elios and Node, played to their end in the real app."""

from __future__ import annotations

import pytest

from tests.night.evening import NIGHT, STEPS, ended_cleanly, play, waited
from tests.night.family import Family

pytestmark = NIGHT


# --- Node ---------------------------------------------------------------------------------
def node_move(family: Family, answer: dict) -> dict:
    """Cards laid on the table (the strip lays the current player's next card where the rules
    allow it), read by the camera and confirmed; after a few, the deck is out."""
    state = answer["game"]["state"]
    if len(state.get("placed", state.get("cards", ()))) >= 6 or answer.get("laid", 0) >= 6:
        return family.double_tap("No cards left")
    laid, entries = answer.get("laid", 0), answer["game"]["entries"]
    family.tap("Lay card", **{"in": "strip"})

    def placed(answer: dict) -> bool:  # a card the camera is sure of, else one confirmed
        if answer["until"]:
            answer.update(family.double_tap("Confirm"))
        return answer["game"]["entries"] > entries

    answer = waited(family, placed, text="Confirm")
    if answer["game"]["entries"] > entries:
        answer["laid"] = laid + 1
        return answer
    raise AssertionError(f"the camera did not read the card laid: {answer['texts'][-6:]}")


def test_node(family):
    answer = family.start_game("Node", 2)
    laid = 0
    for _ in range(STEPS):
        if answer["game"]["over"]:
            break
        answer["laid"] = laid
        answer = node_move(family, answer)
        laid = answer.get("laid", laid)
    ended_cleanly(family, "node", answer)


# --- Elios --------------------------------------------------------------------------------
def elios_state(family: Family):
    """The game's state as the app's log has it (replayed by the rules), for choosing a move
    the way the rules' own tests do."""
    from companion.catalogue import load
    from companion.game import GameConfig
    from companion.session import replay
    from companion.store import GameLog

    with GameLog(family.data_dir / "games.sqlite3") as log:
        rec = next(r for r in reversed(log.games()) if r.game == "elios")
        config = GameConfig(
            tuple(rec.config["players"]), rec.config.get("options", {}), rec.config.get("seed", 0)
        )
        states, _ = replay(load("elios"), config, log.entries(rec.id))
    return states[-1]


def elios_move(family: Family, answer: dict) -> dict:
    """One thing the family does next in Elios: groups made ready, then each turn a group laid
    on the sun's rays (a colour picked on the palette where the ray's top is not it), a disc,
    a split or a pass, found as the rules' tests find a legal move."""
    import random

    from companion.games.elios.events import AddDisc, Pass, PlaceGroup, SplitGroup
    from companion.games.elios.state import JOKER
    from companion.ui.colours import label
    from tests.elios.test_elios_session import choose_move

    if answer["game"]["state"]["phase"] == "grouping":  # the groups the screen offers
        return family.double_tap(re=" is ready$")
    state = elios_state(family)
    rng = random.Random(state.turn)
    move = None
    for _ in range(50):
        move = choose_move(state, rng)
        if move is not None:
            break
    assert move is not None, "no legal first move found"
    if isinstance(move, PlaceGroup):
        bases = [ray[0] for ray in state.rays]
        for base, colour in move.beams:
            top = state.rays[bases.index(base)][-1]
            if colour != top:
                family.tap("J" if colour == JOKER else label(colour))
            i = bases.index(base)
            family.tap(cls="SunView", at=[(i + 0.5) / len(bases), 0.5])
        return family.double_tap("Place")
    if isinstance(move, AddDisc):
        return family.double_tap("+ Disc")
    if isinstance(move, SplitGroup):
        return family.double_tap(f"Split {move.size}")
    if isinstance(move, Pass):
        answer = family.tap("Pass")
        if family.has(answer, "None fits: pass"):
            answer = family.tap("None fits: pass")
        return answer
    raise AssertionError(f"a move the family cannot make: {move}")


@pytest.mark.parametrize("players", [2, 4])
def test_elios(family, players):
    answer = family.start_game("Elios", players)
    answer = play(family, elios_move, answer)
    ended_cleanly(family, "elios", answer)
