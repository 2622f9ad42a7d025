"""A game night as a family lives it, in the real app in a real 800x480 X window with the
simulated table: every game played to its end with the fewest and the most players, every
button that moves the game on tapped twice 150 ms apart (it counts once), a power cut
(SIGKILL) mid-round that comes back to the same game with nothing lost, and on every screen
passed through: no notice cut, no text out of its box, no button under 48x48 px, no list
that jumps under the finger.

Each game is its own test on one app (started once, as a family leaves it on), and says at
its end everything the family ran into, by check."""

from __future__ import annotations

import shutil

import pytest

from tests.night.family import Family
from tests.ui.test_real_window import display

__all__ = ["display"]  # the Xvfb fixture (800x480, a display number of its own)

pytestmark = [
    pytest.mark.ui,
    pytest.mark.slow,
    pytest.mark.skipif(
        not shutil.which("Xvfb"), reason="no X server: Xvfb is missing (`scripts/setup test`)"
    ),
]

COLOURS = ("blue", "green", "orange", "pink", "purple")
LETTER = {"blue": "B", "green": "G", "orange": "O", "pink": "Pk", "purple": "Pu"}
STEPS = 400  # more than any game below needs; a game that does not end stops here


@pytest.fixture(scope="module")
def family(display, tmp_path_factory):
    f = Family(display, tmp_path_factory.mktemp("night") / "data")
    yield f
    crashed = f.seen.get("crash")
    by = {}
    for kind, secs in f.timings:
        by.setdefault(kind, []).append(secs)
    print({k: (len(v), round(sum(v), 1)) for k, v in by.items()})
    assert f.stop() == 0 or crashed  # the test that crashed it says so


@pytest.fixture(autouse=True)
def _each_test_its_own_findings(family):
    """Each test is its own evening: from Home, with nothing seen yet (the last game's
    results, still up, were the last test's)."""
    family.home()
    family.forget()


def ended_cleanly(family: Family, game: str, answer: dict) -> None:
    assert answer["game"]["over"], f"{game} did not reach its end: {answer['game']['describe']}"
    nothing_met(family, game)


def nothing_met(family: Family, game: str) -> None:
    problems = family.problems()
    if problems:
        pytest.fail(
            f"in {game} the family ran into:\n"
            + "\n".join(f"  {check}: {p}" for check, ps in problems.items() for p in ps)
        )


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


def play(family: Family, move, answer: dict) -> dict:
    for _ in range(STEPS):
        if answer["game"]["over"]:
            break
        answer = move(family, answer)
        if "game" not in answer:
            answer = family.look()
    return answer


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
    for _ in range(40):
        answer = family.until(seconds=0.25, phase="choose")
        tray = answer["game"]["state"]["tray"]
        if sum(1 for b in tray if b) > read or answer["game"]["phase"] == "choose":
            return answer
    raise AssertionError(
        f"the camera did not read ball {read + 1}: {tray}; {answer['game']['describe']}"
    )


def test_a_power_cut_mid_round_loses_nothing(family):
    """Color Milk after three balls: a power cut (SIGKILL) and a restart bring back the same
    game with all it knew, and the camera reads the round's last two balls and the next
    round's first."""
    answer = family.start_game("Color Milk", 3)
    while answer["game"]["phase"] == "predict":
        answer = color_milk_move(family, answer)  # the predictions
    for _ in range(3):
        answer = drop_ball(family, answer["game"]["state"])
    before = answer["game"]

    family.kill()
    answer = family.start()
    after = answer.get("game")
    assert after and (after["name"], after["id"]) == (before["name"], before["id"]), (
        f"after the power cut the app opened {after and after['name']}, not the game in play"
    )
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

    family.kill()
    answer = family.start()
    after = answer.get("game")
    assert after and (after["name"], after["id"]) == (before["name"], before["id"]), (
        f"after the power cut the app opened {after and after['name']}, not the game in play"
    )
    answer = drop_ball(family, answer["game"]["state"])

    family.home()
    family.tap(re="^All unfinished")
    answer = family.double_tap("Abandon", row="Kritters")
    assert any("Kritters" in t for t in answer["texts"]), "a double tap abandoned a game"
    nothing_met(family, "the unfinished list")


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


# --- Node ---------------------------------------------------------------------------------
def node_move(family: Family, answer: dict) -> dict:
    """Cards laid on the table (the strip lays the current player's next card where the rules
    allow it), read by the camera and confirmed; after a few, the deck is out."""
    state = answer["game"]["state"]
    if len(state.get("placed", state.get("cards", ()))) >= 6 or answer.get("laid", 0) >= 6:
        return family.double_tap("No cards left")
    laid, entries = answer.get("laid", 0), answer["game"]["entries"]
    family.tap("Lay card", **{"in": "strip"})
    for _ in range(40):  # the camera places a card it is sure of, else asks to confirm it
        answer = family.until(seconds=0.25, text="Confirm")
        if answer["until"]:
            answer = family.double_tap("Confirm")
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


# --- Laser --------------------------------------------------------------------------------
def test_laser_team_bids_land_on_the_players_meant(family):
    """Ten players bid in turn, each on their own row of the bids list (scrolled to it as a
    finger drags it): every bid lands on the player meant, and the list stays where it was
    left after each bid."""
    answer = family.start_game("Laser", 10, {"Mode": "team"})
    for _ in range(2):  # two prism cards turned up on the table; the camera reads them
        family.tap("Reveal", **{"in": "strip"})
        answer = family.until(seconds=8, phase="planning")
    answer = family.until(seconds=8, text="Everyone ready")
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
        for _ in range(40):  # the camera reads the card turned up
            answer = family.until(seconds=0.25, phase="thinking planning")
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
