"""The game night's Laser (ten players bidding in teams, a competitive game to its end) and
Colour MY Kritters (one player, twelve)."""

from __future__ import annotations

import pytest

from tests.night.evening import NIGHT, ended_cleanly, nothing_met, play, waited
from tests.night.family import Family

pytestmark = NIGHT


# --- Colour MY Kritters -------------------------------------------------------------------
def kritters_move(family: Family, answer: dict) -> dict:
    state = answer["game"]["state"]
    phase = state["phase"]
    if phase == "setup":  # who takes the First Player card; the screen becomes the turn
        return family.double_tap(state["players"][0])
    if phase == "play":
        if state["turn"] == 0 and not state["bought"]:  # a paintbrush, then the deck runs out
            return family.double_tap("Bought paintbrush")
        if not state["end_reason"] and state["turn"] >= 1:
            return family.double_tap("Kritter deck empty")
        return family.double_tap("Turn done: next player")
    if phase == "scoring":
        family.tap("+")  # a card of the first kind
        return family.double_tap(re="^Save ")
    raise AssertionError(f"Kritters in a phase the family does not know: {phase}")


@pytest.mark.parametrize("players", [1, 12])
def test_colour_my_kritters(family, players):
    answer = family.start_game("Colour MY Kritters", players)
    answer = play(family, kritters_move, answer)
    ended_cleanly(family, "kritters", answer)


# --- Laser --------------------------------------------------------------------------------
def test_laser_team_bids_land_on_the_players_meant(family):
    """Ten players bid in turn, each on their own row of the bids list (scrolled to it as a
    finger drags it): every bid lands on the player meant, and the list stays where it was
    left after each bid."""
    answer = family.start_game("Laser", 10, {"Mode": "team"})
    for cards in range(1, 3):  # two prism cards turned up on the table; the camera reads them
        family.tap("Reveal", **{"in": "strip"})
        answer = waited(family, lambda a, n=cards: len(a["game"]["state"]["cards"]) >= n)
    answer = waited(family, lambda a: a["until"], text="Everyone ready")
    assert answer["until"], f"the prism cards were not read: {answer['texts'][-6:]}"
    answer = family.double_tap("Everyone ready")
    assert answer["game"]["phase"] == "bids", answer["game"]["describe"]
    players = answer["game"]["players"]
    meant = {name: 2 + i % 9 for i, name in enumerate(players)}
    for name, bid in meant.items():
        answer = family.tap(str(bid), row=f"^{name}( \\*)?$")
        if answer["game"]["phase"] != "bids":
            break
    placed = answer["game"]["state"]["bids"]
    got = {name: placed[i] for i, name in enumerate(players) if placed[i] is not None}
    wrong = {n: (meant[n], b) for n, b in got.items() if b != meant[n]}
    assert not wrong, f"bids landed on the wrong players (meant, placed): {wrong}"
    nothing_met(family, "laser")


def laser_move(family: Family, answer: dict) -> dict:
    """One thing the family does next in competitive Laser: prism cards turned up on the
    table, a first bid, the bidding clock run out, the figures removed in the demonstration."""
    state = answer["game"]["state"]
    phase = state["phase"]
    if phase == "reveal":
        cards = len(state["cards"])
        family.tap("Reveal", **{"in": "strip"})
        answer = waited(  # the camera reads the card turned up
            family,
            lambda a: len(a["game"]["state"]["cards"]) > cards or a["game"]["phase"] != phase,
            phase="thinking planning",
        )
        if len(answer["game"]["state"]["cards"]) > cards or answer["game"]["phase"] != phase:
            return answer
        raise AssertionError(f"the camera did not read prism card {cards + 1}")
    if phase == "thinking":  # the first idea, from the players in turn
        family.tap(state["players"][state["round"] % len(state["players"])])
        return family.double_tap("9")  # the pad then offers only lower bids
    if phase == "bidding":  # nobody lower: the clock runs out
        return family.until(seconds=15, phase="demonstration")
    if phase == "demonstration":  # six figures out; the screen turns to the next reveal
        proposal = state["proposal"]
        return family.double_tap(str(proposal) if proposal else "6")
    if phase == "verdict":
        return family.double_tap(re="^(It worked|Done in time)$")
    raise AssertionError(f"Laser in a phase the family does not know: {phase}")


def test_laser_competitive(family):
    answer = family.start_game("Laser", 2, {"Mode": "competitive"})
    answer = play(family, laser_move, answer)
    ended_cleanly(family, "laser", answer)
