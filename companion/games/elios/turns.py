"""Elios's turns: on their turn a player places a group, adds a disc or splits a group (or
passes when they can do none of them); the first group played holds a joker. The turn goes
to the next player who still has beams; a side with none left wins.
"""

from __future__ import annotations

from dataclasses import replace

from companion.cues import Announce, AskHuman, Cue, PhaseStarted, TimeUp
from companion.errors import IllegalMove
from companion.events import TimerExpired
from companion.game import TimerSpec

from .events import AddDisc, Pass, PlaceGroup, SplitGroup
from .passing import pass_refusal
from .state import BEAMS_PER_COLOUR, DISCS_IN_BOX, JOKER, MAX_GROUP, EliosState, with_hand


def check_turn(state: EliosState, player: str) -> None:
    state.hand(player)
    if player != state.current:
        raise IllegalMove(f"it is {state.current}'s turn, not {player}'s")


def check_not_first(state: EliosState, player: str) -> None:
    """Every step but a placement waits for the first group (the one with a joker)."""
    check_turn(state, player)
    if state.turn == 0:
        raise IllegalMove(f"{player} starts and must place a group with a joker (white)")


def place(state: EliosState, e: PlaceGroup) -> tuple[EliosState, list[Cue]]:
    check_turn(state, e.player)
    hand = state.hand(e.player)
    try:
        beams = tuple((str(r), str(c)) for r, c in e.beams)
    except (TypeError, ValueError):
        raise IllegalMove("each beam is a (ray, colour) pair") from None
    n = len(beams)
    if not 1 <= n <= MAX_GROUP:
        raise IllegalMove("a group holds 1 to 3 beams")
    known = set(state.colours) | {JOKER}
    for ray, colour in beams:
        if ray not in state.colours:
            raise IllegalMove(f"there is no {ray} ray on the sun")
        if colour not in known:
            raise IllegalMove(f"there are no {colour} beams in Elios")
    colours = [c for _, c in beams]
    if len(set(colours)) != n:
        raise IllegalMove("a group can never hold two beams of the same colour")
    if len({r for r, _ in beams}) != n:
        raise IllegalMove("two beams of a group cannot go on the same ray")
    jokers = colours.count(JOKER)
    if state.turn == 0 and not jokers:
        raise IllegalMove("the first group played must hold a joker (white)")
    if n not in hand.groups:
        have = ", ".join(map(str, hand.groups)) or "none"
        raise IllegalMove(f"{e.player} has no group of {n} (groups: {have})")
    if jokers > hand.jokers:
        raise IllegalMove(f"{e.player} has no joker left")
    if n - jokers > hand.beams - hand.jokers:
        raise IllegalMove(f"{e.player} has only jokers left")
    if hand.jokers - jokers > len(hand.groups) - 1:
        # each joker sits in its own group, so the groups left must hold the jokers left
        raise IllegalMove(f"every group of {e.player}'s holds a joker: this one must too")
    levels = set()
    for ray, colour in beams:
        top = state.ray(ray)[-1]
        if colour != JOKER and top not in (colour, JOKER):
            raise IllegalMove(
                f"a {colour} beam goes on a {colour} beam or a joker, not on {top} (the {ray} ray)"
            )
        levels.add(len(state.ray(ray)) + 1)
    if len(levels) > 1:
        raise IllegalMove("all beams of a group must be placed on the same level")
    level = levels.pop()
    if level > state.discs:
        raise IllegalMove(
            f"level {level} would be above the discs ({state.discs} high): add a disc first"
        )
    for colour in set(colours) - {JOKER}:
        if state.placed(colour) + 1 > BEAMS_PER_COLOUR - 1:
            raise IllegalMove(f"all {BEAMS_PER_COLOUR} {colour} beams are already on the sun")
    rays = list(state.rays)
    for ray, colour in beams:
        i = state.colours.index(ray)
        rays[i] = rays[i] + (colour,)
    groups = list(hand.groups)
    groups.remove(n)
    hand = replace(hand, groups=tuple(groups), jokers=hand.jokers - jokers)
    new = replace(state, rays=tuple(rays), hands=with_hand(state, hand))
    what = " + ".join(c for c in colours)
    cues: list[Cue] = [Announce(f"{e.player} placed {what} on level {level}")]
    return end_turn(new, cues)


def add_disc(state: EliosState, e: AddDisc) -> tuple[EliosState, list[Cue]]:
    check_not_first(state, e.player)
    if state.discs >= DISCS_IN_BOX:
        raise IllegalMove(f"all {DISCS_IN_BOX} discs are already on the sun")
    new = replace(state, discs=state.discs + 1)
    return end_turn(new, [Announce(f"{e.player} added a disc ({new.discs} high)")])


def split(state: EliosState, e: SplitGroup) -> tuple[EliosState, list[Cue]]:
    check_not_first(state, e.player)
    hand = state.hand(e.player)
    size = int(e.size)
    if size < 2:
        raise IllegalMove("only a group of 2 or 3 beams can be split")
    if size not in hand.groups:
        have = ", ".join(map(str, hand.groups)) or "none"
        raise IllegalMove(f"{e.player} has no group of {size} (groups: {have})")
    groups = list(hand.groups)
    groups.remove(size)
    groups += [size - 1, 1]
    hand = replace(hand, groups=tuple(sorted(groups, reverse=True)))
    new = replace(state, hands=with_hand(state, hand))
    msg = f"{e.player} split a group of {size} into {size - 1} + 1"
    return end_turn(new, [Announce(msg)])


def pass_turn(state: EliosState, e: Pass) -> tuple[EliosState, list[Cue]]:
    check_not_first(state, e.player)
    refusal = pass_refusal(state, e.player)
    if refusal:
        raise IllegalMove(refusal)
    cues: list[Cue] = [Announce(f"{e.player} cannot play and passes")]
    passed = state.passed + (e.player,)
    if {h.player for h in state.hands if h.beams > 0} <= set(passed):
        return blocked(state, cues)
    return end_turn(state, cues, passed)


def blocked(state: EliosState, cues: list[Cue]) -> tuple[EliosState, list[Cue]]:
    """Everyone still holding beams passed in a row, and each pass was checked: nobody can
    act any more. The rulebook names no winner then; the "blocked_sun" option does."""
    sides = [m for _, m in state.teams] or [(p,) for p in state.seats]
    if state.blocked_sun == "draw":
        winners = state.seats
        said = "the game is a draw"
    else:
        left = {side: sum(state.hand(p).beams for p in side) for side in sides}
        fewest = min(left.values())
        winners = tuple(p for side in sides if left[side] == fewest for p in side)
        said = f"{' and '.join(winners)} win with the fewest beams left"
    return replace(state, phase="over", current=None, winners=winners, overtime=False), [
        *cues,
        Announce(f"Nobody can play: {said}"),
    ]


def time_up(state: EliosState, e: TimerExpired) -> tuple[EliosState, list[Cue]]:
    spec = timer(state)
    if spec is None or e.key != spec.key:
        raise IllegalMove(f"no running timer called {e.key!r}")
    # The turn stays with the player: the app never plays or skips for someone.
    player = state.current
    return replace(state, overtime=True), [
        TimeUp(e.key),
        AskHuman(
            f"{player}'s time is up. What does {player} do?",
            ("place a group", "add a disc", "split a group"),
        ),
    ]


def end_turn(
    state: EliosState, cues: list[Cue], passed: tuple[str, ...] = ()
) -> tuple[EliosState, list[Cue]]:
    player = state.current
    assert player is not None
    if all(state.hand(p).beams == 0 for p in state.team_of(player)):
        winners = state.team_of(player)
        return replace(state, phase="over", current=None, winners=winners, overtime=False), [
            *cues,
            Announce(f"{' and '.join(winners)} placed all their beams and win!"),
        ]
    nxt = next_player(state)
    new = replace(state, current=nxt, turn=state.turn + 1, overtime=False, passed=passed)
    return new, [*cues, PhaseStarted("turn", nxt)]


def next_player(state: EliosState) -> str:
    """The next player in the turn cycle who still has beams (players without skip)."""
    i = state.order.index(state.current)
    for step in range(1, len(state.order) + 1):
        p = state.order[(i + step) % len(state.order)]
        if state.hand(p).beams > 0:
            return p
    raise AssertionError("nobody has beams but the game is not over")


def timer(state: EliosState) -> TimerSpec | None:
    """The optional turn timer, once per turn: it does not restart after running out."""
    if state.turn_timer is None or state.phase != "turns" or state.overtime:
        return None
    return TimerSpec(f"elios-turn-{state.turn}", state.turn_timer)
