"""Color Milk's round after the check: choosing balls, then "next" ends the colouring, and
the round, the remix, the warriors and the game follow. Plain functions over the frozen
MilkState; choose, the *_step functions and the refusals are steps of rules.STEPS."""

from __future__ import annotations

from dataclasses import replace
from typing import NoReturn

from companion import cues as c
from companion.errors import IllegalMove
from companion.events import ButtonPressed
from companion.games.color_milk.bonuses import finish_game, needs_tally, settle_warriors
from companion.games.color_milk.events import Choose
from companion.games.color_milk.mill import (
    BALLS_PER_ROUND,
    COLOURS,
    FULL_MILL,
    ROUNDS_PER_CYCLE,
    counts_of,
    minus,
)
from companion.games.color_milk.state import MilkState, RoundRecord, bump, phase_cue

# what "next" waits for in the phases it does not end
NEXT_WAITS_FOR = {
    "predict": "make predictions and turn the mill first",
    "mill": "the round's 5 balls are not all known yet",
    "check": "reveal every prediction first",
}


# choosing -------------------------------------------------------------------------------
def choose(state: MilkState, ev: Choose):
    """The chooser takes a ball (phase choose): the leader first, then clockwise."""
    who = state.chooser_name
    if ev.player != who:
        state.player(ev.player)
        raise IllegalMove(f"it is {who}'s turn to choose a ball")
    p = state.player(who)
    slots = tuple(ev.slots)
    if len(set(slots)) != len(slots):
        raise IllegalMove("the same ball cannot be taken twice")
    if ev.bonus == "":
        if len(slots) != 1 or not 0 <= slots[0] < 3:
            raise IllegalMove("take one of the first three balls of the row")
    elif ev.bonus in ("any1", "any2"):
        if state.board != 5:
            raise IllegalMove("taking any ball is a board 5 prediction bonus")
        if p.token(ev.bonus) < 1:
            raise IllegalMove(f"{who} has no unused {ev.bonus} bonus")
        want = 1 if ev.bonus == "any1" else 2
        if len(slots) != want or not all(0 <= s < len(state.row) for s in slots):
            raise IllegalMove(f"this bonus takes exactly {want} of the five balls")
        p = replace(p, tokens=bump(p.tokens, ev.bonus, -1))
    else:
        raise IllegalMove(f"unknown choice bonus {ev.bonus!r}")
    taken = tuple(state.row[s] for s in slots)
    row = tuple(b for i, b in enumerate(state.row) if i not in slots) + taken
    p = replace(p, chosen=taken)
    new = replace(state.with_player(p), row=row, chooser=state.chooser + 1)
    cues: list[c.Cue] = [c.Announce(f"{who} takes {' and '.join(taken)}.")]
    if new.chooser >= len(new.players):
        new = replace(new, phase="colour")
        cues.append(c.PhaseStarted("colour"))
    else:
        cues.append(phase_cue("choose", new, new.chooser_name))
    return new, cues


def refuse_choose(state: MilkState, ev: Choose) -> NoReturn:
    raise IllegalMove("it is not time to choose balls")


# "next" ---------------------------------------------------------------------------------
def finish_round(state: MilkState, ev: ButtonPressed):
    """Next after colouring: the round is recorded; then a new round, the remix after a
    mill's third round, or the end (with the tally when end bonuses need counts)."""
    record = RoundRecord(
        state.round,
        state.players[state.leader].name,
        state.tray,
        tuple(p.name for p in state.players if p.fulfilled),
    )
    mill = minus(state.mill, counts_of(state.tray))
    state = replace(state, history=(*state.history, record))
    if state.ending:
        state = replace(state, mill=mill, tray=("",) * BALLS_PER_ROUND, passed=0)
        if needs_tally(state):
            return replace(state, phase="tally"), [
                c.PhaseStarted("tally"),
                c.Announce("Final round done. Confirm the counts for the end bonuses."),
            ]
        return finish_game(state, [])
    if state.cycle_round >= ROUNDS_PER_CYCLE:
        state = replace(
            state, mill=mill, tray=("",) * BALLS_PER_ROUND, row=(), phase="remix", passed=0
        )
        return state, [
            phase_cue("remix", state, state.players[state.leader].name),
            c.Announce(f"Roll out the last 5 ({mill_words(mill)}), then mix all 20."),
        ]
    return new_round(replace(state, mill=mill), [])


def after_remix_or_tally(state: MilkState, ev: ButtonPressed):
    """Next after the remix or the tally. Board 5 (not solo) checks the warriors before
    every remix and at the end. The players with most colour one cell at once, and it may
    bring coins: the "warriors" phase waits for those taps before the next round starts or
    the winner is decided."""
    cues: list[c.Cue] = []
    if state.board == 5 and not state.solo:
        state, most = settle_warriors(state, cues)
        if most:
            state = replace(state, phase="warriors")
            return state, [
                *cues,
                c.PhaseStarted("warriors"),
                c.Announce(
                    f"{' and '.join(most)}: colour your extra cell now, tap any coin or "
                    "pencil it brings, then Next."
                ),
            ]
    return next_round_or_end(state, cues)


def warriors_done(state: MilkState, ev: ButtonPressed):
    """Next once the warriors' extra cells are coloured."""
    return next_round_or_end(state, [])


def next_round_or_end(state: MilkState, cues: list[c.Cue]):
    if state.ending:
        return finish_game(state, cues)
    return new_round(replace(state, mill=FULL_MILL, cycle_round=0), cues)  # remixed


def refuse_next(state: MilkState, ev: ButtonPressed) -> NoReturn:
    """Next in a phase that waits for something else: say what."""
    if state.phase == "mill" and state.asks:  # five may show, one of them in question
        raise IllegalMove(f"ball {state.asks[0].slot + 1} is in question: tap its colour first")
    if state.phase == "choose":
        raise IllegalMove(f"{state.chooser_name} still has to choose a ball")
    raise IllegalMove(NEXT_WAITS_FOR[state.phase])


def refuse_button(state: MilkState, ev: ButtonPressed) -> NoReturn:
    raise IllegalMove(f"the {ev.button!r} button does nothing in Color Milk")


def mill_words(counts: tuple[int, ...]) -> str:
    return ", ".join(f"{n} {col}" for col, n in zip(COLOURS, counts, strict=True) if n)


def new_round(state: MilkState, cues: list[c.Cue]):
    n = len(state.players)
    players = tuple(
        replace(p, prediction=(), zone="", fulfilled=None, chosen=()) for p in state.players
    )
    state = replace(
        state,
        players=players,
        round=state.round + 1,
        leader=(state.leader + 1) % n,
        cycle_round=state.cycle_round + 1,
        tray=("",) * BALLS_PER_ROUND,
        tapped=(False,) * BALLS_PER_ROUND,
        row=(),
        passed=0,
        asks=(),
        phase="predict",
        chooser=0,
    )
    leader = state.players[state.leader].name
    cues.append(phase_cue("predict", state, leader))
    if state.final_round == state.round:
        cues.append(c.Announce(f"Final round! {leader} leads."))
    if state.cycle_round == ROUNDS_PER_CYCLE:
        cues.append(c.Announce("Third round of this mill: after it, empty it and remix."))
    return state, cues
