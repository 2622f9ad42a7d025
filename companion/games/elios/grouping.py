"""Elios's deal and its grouping phase: the options, the turn cycle (teams at 4), the beams
each player draws, then every player declares the sizes of their groups; whoever is ready
last starts."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from companion.cues import Announce, Cue, PhaseStarted
from companion.errors import IllegalMove, UsageError
from companion.game import GameConfig

from .events import Ready
from .state import BLOCKED_SUN, DEAL, DEFAULT_COLOURS, JOKER, MAX_GROUP, EliosState, Hand, with_hand


def options(config: GameConfig) -> tuple[tuple[str, ...], float | None, str]:
    opts: Mapping = config.options or {}
    colours = tuple(opts.get("colours", DEFAULT_COLOURS))
    if len(colours) != 8 or len(set(colours)) != 8 or JOKER in colours:
        raise UsageError("Elios needs 8 different beam colours, none of them white (the joker)")
    timer = opts.get("turn_timer")
    if timer in (None, 0, False):
        timer = None
    else:
        try:
            timer = float(timer)
        except (TypeError, ValueError):
            raise UsageError(f"turn_timer must be a number of seconds, not {timer!r}") from None
        if timer <= 0:
            raise UsageError("turn_timer must be positive (or 0 for no timer)")
    blocked = opts.get("blocked_sun", BLOCKED_SUN[0])
    if blocked not in BLOCKED_SUN:
        raise UsageError(f"blocked_sun is one of {', '.join(BLOCKED_SUN)}, not {blocked!r}")
    return colours, timer, blocked


def turn_cycle(config: GameConfig) -> tuple[tuple[str, ...], tuple]:
    seats = tuple(config.players)
    if len(seats) != 4:
        return seats, ()
    labels = tuple(config.teams) if config.teams else ("A", "B", "A", "B")
    if len(labels) != 4 or any(t is None for t in labels):
        raise UsageError("a 4-player game is played in two teams: give every player a team")
    teams: dict[str, list[str]] = {}
    for name, label in zip(seats, labels, strict=True):
        teams.setdefault(label, []).append(name)
    if len(teams) != 2 or any(len(m) != 2 for m in teams.values()):
        raise UsageError("a 4-player game needs two teams of two")
    (la, a), (lb, b) = teams.items()
    return (a[0], b[0], a[1], b[1]), ((la, tuple(a)), (lb, tuple(b)))


def deal(config: GameConfig) -> EliosState:
    n = len(config.players)
    if n not in DEAL:
        raise UsageError("Elios is for 2 to 4 players")
    if len(set(config.players)) != n:
        raise UsageError("player names must be different")
    colours, timer, blocked = options(config)
    order, teams = turn_cycle(config)
    beams, jokers = DEAL[n]
    return EliosState(
        seats=tuple(config.players),
        order=order,
        teams=teams,
        colours=colours,
        hands=tuple(Hand(p, beams + jokers, jokers) for p in config.players),
        rays=tuple((c,) for c in colours),
        turn_timer=timer,
        blocked_sun=blocked,
    )


def ready(state: EliosState, e: Ready) -> tuple[EliosState, list[Cue]]:
    hand = state.hand(e.player)
    if hand.ready:
        raise IllegalMove(f"{e.player} is already ready")
    groups = tuple(sorted((int(g) for g in e.groups), reverse=True))
    if any(g < 1 or g > MAX_GROUP for g in groups):
        raise IllegalMove("a group holds 1 to 3 beams")
    if sum(groups) != hand.dealt:
        raise IllegalMove(
            f"{e.player}'s groups hold {sum(groups)} beams, but {hand.dealt} were drawn"
        )
    if len(groups) < hand.jokers:
        # two jokers are two beams of the same colour (white)
        raise IllegalMove(f"{hand.jokers} jokers need {hand.jokers} different groups")
    hands = with_hand(state, replace(hand, groups=groups, ready=True))
    ready_order = state.ready_order + (e.player,)
    cues: list[Cue] = [Announce(f"{e.player} is ready")]
    new = replace(state, hands=hands, ready_order=ready_order)
    if len(ready_order) == len(state.seats):
        new = replace(new, phase="turns", current=e.player, turn=0)
        cues += [
            PhaseStarted("turn", e.player),
            Announce(
                f"{e.player} finished grouping last and starts: "
                "the first group played must hold a joker (white)"
            ),
        ]
    return new, cues


def refuse_ready(state: EliosState, e: Ready) -> tuple[EliosState, list[Cue]]:
    raise IllegalMove("grouping is over")


def refuse_turn(state: EliosState, e: Any) -> tuple[EliosState, list[Cue]]:
    """A move on the sun before everyone has grouped."""
    waiting = [h.player for h in state.hands if not h.ready]
    raise IllegalMove(f"still grouping: waiting for {', '.join(waiting)}")
