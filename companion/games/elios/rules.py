"""Elios (Helvetiq): be the first to place all your beams on the sun.

The app keeps the sun as eight rays, one per colour, each a stack of beams from the sunbeam
at the bottom (level 1) upwards; the disc pile's height is the highest level a beam may reach.
A player's hand is kept as the sizes of their groups plus their jokers: the colours of a group
are entered only when it is placed, so grouping costs a few taps and every placement is still
checked against the sun, the box contents and the group sizes the player declared.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, replace

from companion.cues import Announce, AskHuman, Cue, PhaseStarted, TimeUp
from companion.errors import IllegalMove, UsageError
from companion.events import Event, TimerExpired
from companion.game import GameBase, GameConfig, TimerSpec

from .events import AddDisc, Pass, PlaceGroup, Ready, SplitGroup

JOKER = "white"
# The rulebook names no colours; these are the defaults of the "colours" option.
DEFAULT_COLOURS = ("red", "orange", "yellow", "green", "cyan", "blue", "purple", "pink")
BEAMS_PER_COLOUR = 5  # 40 beams in 8 colours; one of each starts in the sun
JOKERS_IN_BOX = 4
DISCS_IN_BOX = 9
SETUP_DISCS = 2
MAX_GROUP = 3
# players -> (coloured beams, jokers) per player (CLARIFICATIONS.md)
DEAL = {2: (16, 2), 3: (10, 1), 4: (8, 1)}


@dataclass(frozen=True)
class Hand:
    player: str
    dealt: int  # coloured beams + jokers drawn at setup
    jokers: int  # jokers not yet placed
    groups: tuple[int, ...] = ()  # group sizes, largest first; set when the player is ready
    ready: bool = False

    @property
    def beams(self) -> int:
        """Beams (jokers included) still in front of the player."""
        return sum(self.groups) if self.ready else self.dealt


@dataclass(frozen=True)
class EliosState:
    seats: tuple[str, ...]  # clockwise
    order: tuple[str, ...]  # the turn cycle (A, B, A, B for teams)
    teams: tuple[tuple[str, tuple[str, ...]], ...]  # (label, members); empty below 4 players
    colours: tuple[str, ...]
    hands: tuple[Hand, ...]  # in seat order
    rays: tuple[tuple[str, ...], ...]  # rays[i] starts with colours[i], bottom first
    discs: int = SETUP_DISCS
    phase: str = "grouping"  # grouping | turns | over
    ready_order: tuple[str, ...] = ()
    current: str | None = None
    turn: int = 0  # turns taken so far; the first turn is turn 0
    overtime: bool = False  # the turn timer ran out this turn
    passes: int = 0  # consecutive turns passed because nothing could be played
    turn_timer: float | None = None
    winners: tuple[str, ...] = ()

    def hand(self, player: str) -> Hand:
        for h in self.hands:
            if h.player == player:
                return h
        raise IllegalMove(f"no player called {player!r}")

    def team_of(self, player: str) -> tuple[str, ...]:
        for _, members in self.teams:
            if player in members:
                return members
        return (player,)

    def ray(self, colour: str) -> tuple[str, ...]:
        return self.rays[self.colours.index(colour)]

    def placed(self, colour: str) -> int:
        """Beams of `colour` placed on the sun by players (the sunbeams themselves excluded)."""
        counts = Counter(b for ray in self.rays for b in ray[1:])
        return counts[colour]


def _options(config: GameConfig) -> tuple[tuple[str, ...], float | None]:
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
    return colours, timer


def _turn_cycle(config: GameConfig) -> tuple[tuple[str, ...], tuple]:
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


class Elios(GameBase):
    name = "elios"
    title = "Elios"
    min_players = 2
    max_players = 4

    # setup ---------------------------------------------------------------------------
    def initial_state(self, config: GameConfig) -> EliosState:
        n = len(config.players)
        if n not in DEAL:
            raise UsageError("Elios is for 2 to 4 players")
        if len(set(config.players)) != n:
            raise UsageError("player names must be different")
        colours, timer = _options(config)
        order, teams = _turn_cycle(config)
        beams, jokers = DEAL[n]
        return EliosState(
            seats=tuple(config.players),
            order=order,
            teams=teams,
            colours=colours,
            hands=tuple(Hand(p, beams + jokers, jokers) for p in config.players),
            rays=tuple((c,) for c in colours),
            turn_timer=timer,
        )

    # events --------------------------------------------------------------------------
    def apply(self, state: EliosState, event: Event) -> tuple[EliosState, list[Cue]]:
        if state.phase == "over":
            raise IllegalMove("the game is over")
        if isinstance(event, Ready):
            return self._ready(state, event)
        if isinstance(event, TimerExpired):
            return self._time_up(state, event)
        if isinstance(event, (PlaceGroup, AddDisc, SplitGroup, Pass)):
            self._check_turn(state, event.player)
            if isinstance(event, PlaceGroup):
                return self._place(state, event)
            if state.turn == 0:
                raise IllegalMove(
                    f"{event.player} starts and must place a group with a joker (white)"
                )
            if isinstance(event, AddDisc):
                return self._add_disc(state, event)
            if isinstance(event, SplitGroup):
                return self._split(state, event)
            return self._pass(state, event)
        raise IllegalMove(f"Elios does not use {type(event).__name__}")

    def _ready(self, state: EliosState, e: Ready) -> tuple[EliosState, list[Cue]]:
        if state.phase != "grouping":
            raise IllegalMove("grouping is over")
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
        hands = _with_hand(state, replace(hand, groups=groups, ready=True))
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

    def _check_turn(self, state: EliosState, player: str) -> None:
        if state.phase != "turns":
            waiting = [h.player for h in state.hands if not h.ready]
            raise IllegalMove(f"still grouping: waiting for {', '.join(waiting)}")
        state.hand(player)
        if player != state.current:
            raise IllegalMove(f"it is {state.current}'s turn, not {player}'s")

    def _place(self, state: EliosState, e: PlaceGroup) -> tuple[EliosState, list[Cue]]:
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
                    f"a {colour} beam goes on a {colour} beam or a joker, not on {top} "
                    f"(the {ray} ray)"
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
        new = replace(state, rays=tuple(rays), hands=_with_hand(state, hand))
        what = " + ".join(c for c in colours)
        cues: list[Cue] = [Announce(f"{e.player} placed {what} on level {level}")]
        return self._end_turn(new, cues)

    def _add_disc(self, state: EliosState, e: AddDisc) -> tuple[EliosState, list[Cue]]:
        if state.discs >= DISCS_IN_BOX:
            raise IllegalMove(f"all {DISCS_IN_BOX} discs are already on the sun")
        new = replace(state, discs=state.discs + 1)
        return self._end_turn(new, [Announce(f"{e.player} added a disc ({new.discs} high)")])

    def _split(self, state: EliosState, e: SplitGroup) -> tuple[EliosState, list[Cue]]:
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
        new = replace(state, hands=_with_hand(state, hand))
        msg = f"{e.player} split a group of {size} into {size - 1} + 1"
        return self._end_turn(new, [Announce(msg)])

    def _pass(self, state: EliosState, e: Pass) -> tuple[EliosState, list[Cue]]:
        hand = state.hand(e.player)
        if state.discs < DISCS_IN_BOX:
            raise IllegalMove(f"{e.player} can still add a disc")
        if any(g > 1 for g in hand.groups):
            raise IllegalMove(f"{e.player} can still split a group")
        cues: list[Cue] = [Announce(f"{e.player} cannot play and passes")]
        passes = state.passes + 1
        if passes >= sum(1 for h in state.hands if h.beams > 0):
            return self._blocked(state, cues)
        return self._end_turn(state, cues, passes)

    def _blocked(self, state: EliosState, cues: list[Cue]) -> tuple[EliosState, list[Cue]]:
        """Everyone still holding beams passed in a row: the sun is blocked for good (the
        rulebook is silent). The player or team with the fewest beams left wins; ties share."""
        sides = [m for _, m in state.teams] or [(p,) for p in state.seats]
        left = {side: sum(state.hand(p).beams for p in side) for side in sides}
        fewest = min(left.values())
        winners = tuple(p for side in sides if left[side] == fewest for p in side)
        return replace(state, phase="over", current=None, winners=winners, overtime=False), [
            *cues,
            Announce(f"Nobody can play: {' and '.join(winners)} win with the fewest beams left"),
        ]

    def _time_up(self, state: EliosState, e: TimerExpired) -> tuple[EliosState, list[Cue]]:
        spec = self.timer(state)
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

    def _end_turn(
        self, state: EliosState, cues: list[Cue], passes: int = 0
    ) -> tuple[EliosState, list[Cue]]:
        player = state.current
        assert player is not None
        if all(state.hand(p).beams == 0 for p in state.team_of(player)):
            winners = state.team_of(player)
            return replace(state, phase="over", current=None, winners=winners, overtime=False), [
                *cues,
                Announce(f"{' and '.join(winners)} placed all their beams and win!"),
            ]
        nxt = self.next_player(state)
        new = replace(state, current=nxt, turn=state.turn + 1, overtime=False, passes=passes)
        return new, [*cues, PhaseStarted("turn", nxt)]

    def next_player(self, state: EliosState) -> str:
        """The next player in the turn cycle who still has beams (players without skip)."""
        i = state.order.index(state.current)
        for step in range(1, len(state.order) + 1):
            p = state.order[(i + step) % len(state.order)]
            if state.hand(p).beams > 0:
                return p
        raise AssertionError("nobody has beams but the game is not over")

    # queries -------------------------------------------------------------------------
    def legal_actions(self, state: EliosState) -> tuple[Event, ...]:
        """The steps that need no colours; placements depend on the beams in front of the
        player and are checked when entered."""
        if state.phase == "grouping":
            return ()
        if state.phase != "turns" or state.turn == 0:
            return ()
        p = state.current
        out: list[Event] = []
        if state.discs < DISCS_IN_BOX:
            out.append(AddDisc(p))
        for size in sorted({g for g in state.hand(p).groups if g > 1}):
            out.append(SplitGroup(p, size))
        if not out:
            out.append(Pass(p))
        return tuple(out)

    def current_player(self, state: EliosState) -> str | None:
        return state.current if state.phase == "turns" else None

    def scores(self, state: EliosState) -> dict[str, int]:
        """Beams still in front of each player: fewer is better, 0 wins."""
        return {h.player: h.beams for h in state.hands}

    def is_over(self, state: EliosState) -> bool:
        return state.phase == "over"

    def winners(self, state: EliosState) -> tuple[str, ...]:
        return state.winners

    def timer(self, state: EliosState) -> TimerSpec | None:
        if state.turn_timer is None or state.phase != "turns" or state.overtime:
            return None
        return TimerSpec(f"elios-turn-{state.turn}", state.turn_timer)

    def describe(self, state: EliosState) -> str:
        if state.phase == "grouping":
            waiting = [h.player for h in state.hands if not h.ready]
            return f"Grouping: waiting for {', '.join(waiting)}"
        if state.phase == "over":
            return f"{' and '.join(state.winners)} won"
        extra = " (first play: a group with a joker)" if state.turn == 0 else ""
        late = " (time is up)" if state.overtime else ""
        return f"{state.current}'s turn{extra}{late}"


def _with_hand(state: EliosState, hand: Hand) -> tuple[Hand, ...]:
    return tuple(hand if h.player == hand.player else h for h in state.hands)


GAME = Elios()
