"""Color Milk's predictions: the cards players reveal once the five balls are out, and the
check that pays fulfilled ones and marks the missed. Plain functions over the frozen
MilkState; predict and refuse_predict are steps of rules.STEPS."""

from __future__ import annotations

from dataclasses import replace
from typing import NoReturn

from companion import cues as c
from companion.errors import IllegalMove
from companion.games.color_milk.bonuses import zone_bonus
from companion.games.color_milk.events import Predict
from companion.games.color_milk.mill import COLOURS
from companion.games.color_milk.state import MilkState, phase_cue

ZONE_SIZES = {"": None, "double": 2, "triple": 3}  # "" is a free prediction, any size


def predict(state: MilkState, ev: Predict):
    """A player's prediction, entered any time before the check (phases predict to check)."""
    p = state.player(ev.player)
    colours = tuple(ev.colours)
    for col in colours:
        if col not in COLOURS:
            raise IllegalMove(f"{col!r} is not a prediction card ({', '.join(COLOURS)})")
    if len(set(colours)) != len(colours):
        raise IllegalMove("each player has one card per colour: no colour twice")
    if not 1 <= len(colours) <= 5:
        raise IllegalMove("a prediction is 1 to 5 cards")
    if ev.zone not in ZONE_SIZES:
        raise IllegalMove(f"zone must be double or triple, not {ev.zone!r}")
    need = ZONE_SIZES[ev.zone]
    if need is not None and len(colours) != need:
        raise IllegalMove(f"a {ev.zone} prediction is exactly {need} cards")
    colours = tuple(sorted(colours, key=COLOURS.index))
    new = state.with_player(replace(p, prediction=colours, zone=ev.zone))
    return check_when_ready(new, [])


def refuse_predict(state: MilkState, ev: Predict) -> NoReturn:
    state.player(ev.player)  # an unknown player is refused for that first
    raise IllegalMove("predictions are already checked this round")


def check_when_ready(state: MilkState, cues: list[c.Cue]):
    """Once all five balls are known (none in question): ask for the predictions still
    hidden, or check them all when every player's is in."""
    if "" in state.tray or state.asks:
        return state, cues
    if any(not p.prediction for p in state.players):
        if state.phase != "check":
            state = replace(state, phase="check")
            missing = ", ".join(p.name for p in state.players if not p.prediction)
            cues.append(c.PhaseStarted("check"))
            cues.append(c.Announce(f"All 5 balls are out. Reveal predictions: {missing}."))
        return state, cues
    return check_predictions(state, cues)


def check_predictions(state: MilkState, cues: list[c.Cue]):
    """Every prediction against the five balls; then the leader chooses first."""
    out = set(state.tray)
    players = []
    for p in state.players:
        ok = set(p.prediction) <= out
        p = replace(p, fulfilled=ok)
        if ok:
            p, words = zone_bonus(state.board, p)
            cues.append(c.Announce(f"{p.name}: prediction fulfilled{words}."))
        else:
            p = replace(p, failed=p.failed + 1)
            every = state.failed_pencil_every
            if every and p.failed % every == 0:
                p = replace(p, pencils=p.pencils + 1)
                words = " — bonus pencil of any colour"
            else:
                words = ""
            cues.append(c.Announce(f"{p.name}: prediction missed{words}."))
        players.append(p)
    state = replace(state, players=tuple(players), row=state.tray, phase="choose", chooser=0)
    cues.append(phase_cue("choose", state, state.chooser_name))
    return state, cues
