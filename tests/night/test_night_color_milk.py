"""The game night's Color Milk: games with the fewest and the most players, and a power cut
(SIGKILL) mid-round that comes back to the same game, the one in play, with nothing lost."""

from __future__ import annotations

import pytest

from tests.night.evening import NIGHT, STEPS, ended_cleanly, nothing_met, play, waited
from tests.night.family import Family

pytestmark = NIGHT

COLOURS = ("blue", "green", "orange", "pink", "purple")
LETTER = {"blue": "B", "green": "G", "orange": "O", "pink": "Pk", "purple": "Pu"}


# --- Color Milk -------------------------------------------------------------------------------
def in_mill(state: dict) -> list[str]:
    """The balls still in the mill, most first (the mill's counts less the tray)."""
    left = dict(zip(COLOURS, state["mill"], strict=True))
    for ball in state["tray"]:
        if ball:
            left[ball] -= 1
    return sorted((c for c in COLOURS if left[c] > 0), key=lambda c: -left[c])


def color_milk_move(family: Family, answer: dict) -> dict:
    """One thing the family does next in Color Milk."""
    state = answer["game"]["state"]
    phase = state["phase"]
    if phase in ("predict", "mill", "check"):
        waiting = [p["name"] for p in state["players"] if not p["prediction"]]
        if waiting:  # the likeliest colour, on the pad, then OK (the pad moves to the next)
            family.tap(waiting[0])
            family.tap(LETTER[in_mill(state)[0]])
            return family.double_tap("OK")
        if "" in state["tray"]:  # a ball rolls out of the mill: the camera reads it
            return drop_ball(family, state)
    if phase == "choose":  # the first ball of the row, the row moves up under the finger
        first = next(b["text"] for b in answer["buttons"] if b["text"].startswith("1:"))
        return family.double_tap(first)
    if phase == "colour":
        leader = state["players"][state["leader"]]
        if leader["coins"] < 6 and state["round"] == 1:  # a good first round ends the game soon
            if leader["coins"] == 0:
                family.tap(leader["name"])
            return family.tap("+1 coin")
        return family.double_tap(re="^(Next round|Finish game)$")
    if phase == "remix":
        return family.double_tap("Mill refilled")
    if phase in ("tally", "warriors"):
        return family.double_tap(re="^(Finish game|Next round)$")
    raise AssertionError(f"Color Milk in a phase the family does not know: {phase}")


@pytest.mark.parametrize("players", [1, 5])
def test_color_milk(family, players):
    answer = family.start_game("Color Milk", players)
    answer = play(family, color_milk_move, answer)
    ended_cleanly(family, "color-milk", answer)


# --- a power cut mid-round ----------------------------------------------------------------
def drop_ball(family: Family, state: dict) -> dict:
    """The next ball out of the mill, down the strip's chute, until the camera has read it."""
    read = sum(1 for b in state["tray"] if b)
    family.tap(LETTER[in_mill(state)[0]], **{"in": "strip"})

    def read_it(answer: dict) -> bool:
        tray = answer["game"]["state"]["tray"]
        return sum(1 for b in tray if b) > read or answer["game"]["phase"] == "choose"

    answer = waited(family, read_it, phase="choose")
    tray = answer["game"]["state"]["tray"]
    if read_it(answer):
        return answer
    raise AssertionError(
        f"the camera did not read ball {read + 1}: {tray}; {answer['game']['describe']}"
    )


def power_cut(family: Family, before: dict) -> dict:
    """SIGKILL and a restart: the app must come back to the game `before`, the one in play."""
    family.kill()
    answer = family.start()
    after = answer.get("game")
    assert after and (after["name"], after["id"]) == (before["name"], before["id"]), (
        f"after the power cut the app opened {after and after['name']}, not the game in play"
    )
    return answer


def test_a_power_cut_mid_round_loses_nothing(family):
    """Color Milk after three balls: a power cut (SIGKILL) and a restart bring back the same
    game with all it knew, and the camera reads the round's last two balls and the next
    round's first."""
    answer = family.start_game("Color Milk", 3)
    while not all(p["prediction"] for p in answer["game"]["state"]["players"]):
        answer = color_milk_move(family, answer)  # the predictions, and not yet a ball
    for _ in range(3):
        answer = drop_ball(family, answer["game"]["state"])
    before = answer["game"]

    answer = power_cut(family, before)
    after = answer["game"]
    assert after["entries"] == before["entries"], "entries were lost"
    assert after["state"]["tray"] == before["state"]["tray"], "balls read were lost"
    for _ in range(2):  # the camera goes on reading after the restart
        answer = drop_ball(family, answer["game"]["state"])
    assert answer["game"]["phase"] == "choose", answer["game"]["describe"]

    # The round played out, the next one begins: its predictions, then its first ball, which
    # the camera reads as it did before the power cut.
    for _ in range(STEPS):
        state = answer["game"]["state"]
        if state["round"] == 2 and state["phase"] != "predict":
            break
        if state["phase"] == "colour":  # no coins to settle: straight on to the next round
            answer = family.double_tap("Next round")
        else:
            answer = color_milk_move(family, answer)
    assert answer["game"]["state"]["round"] == 2, answer["game"]["describe"]
    answer = drop_ball(family, answer["game"]["state"])
    assert answer["game"]["state"]["tray"][0], answer["game"]["describe"]
    nothing_met(family, "the power cut")


def test_the_game_resumed_is_the_one_back_after_a_power_cut(family):
    """Color Milk started, then Kritters (newer), then Color Milk again from the unfinished
    list: after a power cut the app opens Color Milk, the one being played, and the camera
    reads its next ball. A double tap on Abandon does not get past its confirmation."""
    answer = family.start_game("Color Milk", 2)
    while answer["game"]["phase"] == "predict":
        answer = color_milk_move(family, answer)
    answer = drop_ball(family, answer["game"]["state"])
    family.start_game("Colour MY Kritters", 2)  # a second game, begun later
    family.tap("Anna")  # Anna takes the First Player card
    family.home()
    family.tap(re="^All unfinished")
    answer = family.tap("Resume", row="Color Milk")
    assert answer["game"]["name"] == "color-milk", answer["game"]["name"]
    before = answer["game"]

    answer = power_cut(family, before)
    answer = drop_ball(family, answer["game"]["state"])

    family.home()
    family.tap(re="^All unfinished")
    answer = family.double_tap("Abandon", row="Kritters")
    assert any("Kritters" in t for t in answer["texts"]), "a double tap abandoned a game"
    nothing_met(family, "the unfinished list")
