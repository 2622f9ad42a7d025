"""Color Milk rules: rounds of five phases around the mill, for boards 1-6 and solo.

Phases of a round: "predict" (cards face down), "mill" (balls roll out; beam and camera
report them), "check" (all five balls known, waiting for predictions to be revealed), then
the check itself, "choose" (leader first, clockwise, one of the first three balls) and
"colour" (players colour and tap their coins and pencils; "next" finishes the round).
Between cycles of the mill there is "remix"; boards with end bonuses have "tally" before
"over".
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from companion import cues as c
from companion.errors import IllegalMove, UsageError
from companion.events import BallPassed, BallSeen, ButtonPressed, Event
from companion.game import GameBase, GameConfig
from companion.games.color_milk import boards
from companion.games.color_milk.events import Choose, Count, KingsTower, Predict, Tally
from companion.games.color_milk.mill import (
    BALLS_PER_ROUND,
    COLOURS,
    FULL_MILL,
    ROUNDS_PER_CYCLE,
    counts_of,
    fits,
    minus,
)
from companion.players import PLAYER_MARKERS, Seating

READING_PHASES = ("predict", "mill", "check")
AUTHORITATIVE = 1.0  # a tap on the screen; the camera reports less than certainty
SENSOR_MAX = 0.999  # sensor readings are capped here, so only a person is ever certain
DEFAULT_ASK_THRESHOLD = 0.8
DEFAULT_FAILED_PENCIL_EVERY = 3  # guess: the track's artwork is not in the rulebook text
OWN_OPTIONS = {"board", "ask_threshold", "failed_pencil_every", "first_leader"}
TABLE_WIDE_OPTIONS = {"learning", "turn_timer", "phase_seconds"}  # Color Milk has no timer


@dataclass(frozen=True)
class PlayerState:
    name: str
    coins: int = 0
    pencils: int = 0  # bonus pencils circled
    used: int = 0  # ... crossed out by use
    lost: int = 0  # ... crossed out by the warriors
    failed: int = 0  # failed-prediction icons circled
    zone_done: tuple[str, ...] = ()  # zone entries whose bonus was paid, e.g. "double:blue+pink"
    tokens: tuple[tuple[str, int], ...] = ()  # ship/key/any1/any2/cave/finish -> unused count
    doubles: int = 0  # successful double zone predictions (board 6 Treasure Cave)
    counts: tuple[tuple[str, int], ...] = ()  # warriors, railways, ...
    kings_tower: str = ""
    end_bonus: tuple[tuple[str, int], ...] = ()  # (reason, coins) added at the end
    # this round
    prediction: tuple[str, ...] = ()
    zone: str = ""
    fulfilled: bool | None = None
    chosen: tuple[str, ...] = ()

    @property
    def unused_pencils(self) -> int:
        return self.pencils - self.used - self.lost

    def token(self, kind: str) -> int:
        return dict(self.tokens).get(kind, 0)

    def count(self, item: str) -> int:
        return dict(self.counts).get(item, 0)


@dataclass(frozen=True)
class RoundRecord:
    round: int
    leader: str
    balls: tuple[str, ...]
    right: tuple[str, ...]  # players whose prediction was fulfilled


@dataclass(frozen=True)
class Ask:
    slot: int
    choices: tuple[str, ...]


@dataclass(frozen=True)
class MilkState:
    players: tuple[PlayerState, ...]
    board: int = 1
    ask_threshold: float = DEFAULT_ASK_THRESHOLD
    failed_pencil_every: int = DEFAULT_FAILED_PENCIL_EVERY
    round: int = 1
    leader: int = 0
    cycle_round: int = 1  # 1..3: which round of this fill of the mill
    mill: tuple[int, ...] = FULL_MILL  # inside the mill at the start of this round
    tray: tuple[str, ...] = ("",) * BALLS_PER_ROUND  # this round's balls by slot ("" unknown)
    tapped: tuple[bool, ...] = (False,) * BALLS_PER_ROUND  # slots a person entered
    row: tuple[str, ...] = ()  # the row players choose from, reordered by each choice
    passed: int = 0  # beam count this round
    asks: tuple[Ask, ...] = ()
    phase: str = "predict"
    chooser: int = 0  # how many players have chosen this round
    trigger_round: int | None = None
    history: tuple[RoundRecord, ...] = ()

    # derived views ---------------------------------------------------------------
    @property
    def names(self) -> tuple[str, ...]:
        return tuple(p.name for p in self.players)

    @property
    def solo(self) -> bool:
        return len(self.players) == 1

    @property
    def known(self) -> tuple[str, ...]:
        return tuple(b for b in self.tray if b)

    @property
    def inside(self) -> tuple[int, ...]:
        """What is in the mill right now, this round's known balls taken out."""
        return minus(self.mill, counts_of(self.known))

    @property
    def base(self) -> tuple[int, ...]:
        """Balls of earlier rounds of this cycle, waiting on the base."""
        return minus(FULL_MILL, self.mill)

    @property
    def final_round(self) -> int | None:
        return None if self.trigger_round is None else self.trigger_round + 1

    @property
    def choosing_order(self) -> tuple[int, ...]:
        n = len(self.players)
        return tuple((self.leader + i) % n for i in range(n))

    @property
    def chooser_name(self) -> str | None:
        if self.phase != "choose":
            return None
        return self.players[self.choosing_order[self.chooser]].name

    @property
    def extras(self) -> int:
        return max(0, self.passed - BALLS_PER_ROUND)

    def player(self, name: str) -> PlayerState:
        for p in self.players:
            if p.name == name:
                return p
        raise IllegalMove(f"no player called {name!r} in this game")

    def with_player(self, new: PlayerState) -> MilkState:
        return replace(self, players=tuple(new if p.name == new.name else p for p in self.players))


def _bump(pairs: tuple[tuple[str, int], ...], key: str, delta: int) -> tuple[tuple[str, int], ...]:
    d = dict(pairs)
    d[key] = d.get(key, 0) + delta
    return tuple(sorted((k, v) for k, v in d.items() if v))


def _set(pairs: tuple[tuple[str, int], ...], key: str, value: int) -> tuple[tuple[str, int], ...]:
    d = dict(pairs)
    d[key] = value
    return tuple(sorted(d.items()))


def _phase(phase: str, state: MilkState, player: str) -> c.PhaseStarted:
    """The phase with the LEDs in the marker colour of the player it belongs to."""
    seat = state.names.index(player)
    return c.PhaseStarted(phase, player, PLAYER_MARKERS[seat % len(PLAYER_MARKERS)][0])


def zone_entry(zone: str, colours: tuple[str, ...]) -> str:
    return f"{zone}:" + "+".join(sorted(colours, key=COLOURS.index))


class ColorMilk(GameBase):
    name = "color-milk"
    title = "Color Milk"
    min_players = 1
    max_players = 5  # five sets of prediction cards

    # set-up ------------------------------------------------------------------------
    def initial_state(self, config: GameConfig) -> MilkState:
        n = len(config.players)
        if not self.min_players <= n <= self.max_players:
            raise UsageError(f"Color Milk is for 1-5 players, not {n}")
        seating = Seating.of(config.players)
        opts = dict(config.options)
        unknown = set(opts) - OWN_OPTIONS - TABLE_WIDE_OPTIONS
        if unknown:
            raise UsageError(f"unknown Color Milk option(s): {', '.join(sorted(unknown))}")
        try:
            board = int(opts.get("board", 1))
            threshold = float(opts.get("ask_threshold", DEFAULT_ASK_THRESHOLD))
            every = int(opts.get("failed_pencil_every", DEFAULT_FAILED_PENCIL_EVERY))
            leader = int(opts.get("first_leader", 0))
        except (TypeError, ValueError) as exc:
            raise UsageError(f"bad Color Milk option: {exc}") from None
        if board not in boards.BOARDS:
            raise UsageError(f"board must be 1-6, not {board}")
        if not 0 <= threshold <= 1:
            raise UsageError("ask_threshold must be between 0 and 1")
        if every < 0:
            raise UsageError("failed_pencil_every must be 0 (never) or more")
        if not 0 <= leader < n:
            raise UsageError(f"first_leader must be a seat 0-{n - 1}")
        return MilkState(
            players=tuple(PlayerState(name) for name in seating.names),
            board=board,
            ask_threshold=threshold,
            failed_pencil_every=every,
            leader=leader,
        )

    # the one door ----------------------------------------------------------------------
    def apply(self, state: MilkState, event: Event) -> tuple[MilkState, tuple[c.Cue, ...]]:
        if state.phase == "over":
            raise IllegalMove("the game is over")
        handler = {
            BallSeen: self._ball_seen,
            BallPassed: self._ball_passed,
            Predict: self._predict,
            Choose: self._choose,
            ButtonPressed: self._button,
            Tally: self._tally,
            Count: self._count,
            KingsTower: self._kings_tower,
        }.get(type(event))
        if handler is None:
            raise IllegalMove(f"Color Milk does not use {type(event).__name__}")
        new, cues = handler(state, event)
        return new, tuple(cues)

    def is_news(self, state: MilkState, event: Event) -> bool:
        """Would this sensor reading change anything? The camera repeats itself every frame;
        only news is worth logging."""
        if isinstance(event, BallSeen):
            if state.phase not in READING_PHASES or not 0 <= event.slot < BALLS_PER_ROUND:
                return False
            try:
                return self.apply(state, event)[0] != state
            except IllegalMove:
                return True  # let the refusal reach a person
        return True

    # balls -------------------------------------------------------------------------------
    def _ball_passed(self, state: MilkState, ev: BallPassed):
        if ev.count < 1:
            raise IllegalMove("a beam count must be at least 1")
        if state.phase == "remix":  # the last five rolling out before the remix
            return replace(state, passed=state.passed + ev.count), ()
        if state.phase in ("choose", "colour"):
            # the round's five are all out: whatever crosses the beam now is one too many
            state = replace(state, passed=max(state.passed, BALLS_PER_ROUND))
        elif state.phase not in READING_PHASES:
            raise IllegalMove("no balls are expected now")
        before = state.extras
        new = replace(state, passed=state.passed + ev.count)
        cues: list[c.Cue] = []
        if state.phase == "predict":
            new = replace(new, phase="mill")
            cues.append(_phase("mill", state, state.players[state.leader].name))
        if new.extras > before:
            leader = state.players[state.leader].name
            n = new.extras
            cues.append(
                c.Announce(
                    f"{leader}: {n} ball{'s' if n > 1 else ''} too many rolled out. "
                    "Put the extra ball"
                    + ("s" if n > 1 else "")
                    + " back into the mill without looking; only the first 5 count."
                )
            )
        return new, cues

    def likely_colours(self, state: MilkState, slot: int, read: str | None) -> tuple[str, ...]:
        """Colours that could be at `slot`, the reading first, then the most plentiful."""
        others = tuple(b for i, b in enumerate(state.tray) if b and i != slot)
        room = minus(state.mill, counts_of(others))
        feasible = [col for col, n in zip(COLOURS, room, strict=True) if n > 0]
        feasible.sort(key=lambda col: (col != read, -room[COLOURS.index(col)]))
        return tuple(feasible)

    def _ball_seen(self, state: MilkState, ev: BallSeen):
        if ev.colour not in COLOURS:
            raise IllegalMove(f"{ev.colour!r} is not a Color Milk ball ({', '.join(COLOURS)})")
        if not 0 <= ev.slot < BALLS_PER_ROUND:
            raise IllegalMove(
                f"only the first {BALLS_PER_ROUND} balls count; put ball {ev.slot + 1} back "
                "into the mill without looking"
            )
        if state.phase not in READING_PHASES:
            raise IllegalMove("this round's balls are already checked; undo to correct one")
        tray = list(state.tray)
        tapped = list(state.tapped)
        current = tray[ev.slot]
        asks = tuple(a for a in state.asks if a.slot != ev.slot)
        authoritative = ev.confidence >= AUTHORITATIVE
        if current == ev.colour and len(asks) == len(state.asks):
            return state, ()  # the camera saw it again
        if tapped[ev.slot] and not authoritative:
            return state, ()  # a person said what this ball is; the camera does not overrule
        others = [b for i, b in enumerate(tray) if b and i != ev.slot]
        possible = fits([*others, ev.colour], state.mill)
        slot_words = f"ball {ev.slot + 1}"
        if not possible and authoritative:
            # A person overrules the camera: balls of this colour the camera read elsewhere
            # become questions. Only taps against taps are refused.
            suspects = [
                i for i, b in enumerate(tray) if b == ev.colour and i != ev.slot and not tapped[i]
            ]
            sure = [b for i, b in enumerate(tray) if b and i != ev.slot and i not in suspects]
            if not suspects or not fits([*sure, ev.colour], state.mill):
                left = state.mill[COLOURS.index(ev.colour)] - others.count(ev.colour)
                raise IllegalMove(
                    f"the mill holds no more {ev.colour} balls ({left} left this cycle); "
                    f"check {slot_words} or correct an earlier one"
                )
            for i in suspects:
                tray[i] = ""
            tray[ev.slot], tapped[ev.slot] = ev.colour, True
            new = replace(state, tray=tuple(tray), tapped=tuple(tapped), asks=asks)
            cues: list[c.Cue] = []
            for i in suspects:
                choices = self.likely_colours(new, i, None)
                new = replace(new, asks=(*new.asks, Ask(i, choices)))
                cues.append(
                    c.AskHuman(
                        f"Which colour is ball {i + 1}? It was read as {ev.colour}, "
                        f"but {slot_words} is {ev.colour}.",
                        choices,
                    )
                )
            return new, cues
        doubtful = ev.confidence < state.ask_threshold
        conflict = bool(current) and current != ev.colour and not authoritative
        if not possible or doubtful or conflict:
            choices = self.likely_colours(state, ev.slot, ev.colour if possible else None)
            if conflict:  # the two readings first
                first = (ev.colour, current) if possible else (current,)
                choices = (*first, *[x for x in choices if x not in first])
            why = (
                f"looks {ev.colour}, but the mill has no {ev.colour} left"
                if not possible
                else f"was read as {current}, now as {ev.colour}"
                if conflict
                else f"looks {ev.colour}, but I am not sure"
            )
            ask = Ask(ev.slot, choices)
            return replace(state, asks=(*asks, ask)), (
                c.AskHuman(f"Which colour is {slot_words}? It {why}.", choices),
            )
        tray[ev.slot], tapped[ev.slot] = ev.colour, authoritative
        new = replace(state, tray=tuple(tray), tapped=tuple(tapped), asks=asks)
        cues: list[c.Cue] = []
        if new.phase == "predict":
            new = replace(new, phase="mill")
            cues.append(_phase("mill", state, state.players[state.leader].name))
        return self._maybe_check(new, cues)

    # predictions ------------------------------------------------------------------------
    def _predict(self, state: MilkState, ev: Predict):
        p = state.player(ev.player)
        if state.phase not in READING_PHASES:
            raise IllegalMove("predictions are already checked this round")
        colours = tuple(ev.colours)
        for col in colours:
            if col not in COLOURS:
                raise IllegalMove(f"{col!r} is not a prediction card ({', '.join(COLOURS)})")
        if len(set(colours)) != len(colours):
            raise IllegalMove("each player has one card per colour: no colour twice")
        if not 1 <= len(colours) <= 5:
            raise IllegalMove("a prediction is 1 to 5 cards")
        need = {"": None, "double": 2, "triple": 3}
        if ev.zone not in need:
            raise IllegalMove(f"zone must be double or triple, not {ev.zone!r}")
        if need[ev.zone] is not None and len(colours) != need[ev.zone]:
            raise IllegalMove(f"a {ev.zone} prediction is exactly {need[ev.zone]} cards")
        colours = tuple(sorted(colours, key=COLOURS.index))
        new = state.with_player(replace(p, prediction=colours, zone=ev.zone))
        return self._maybe_check(new, [])

    def _maybe_check(self, state: MilkState, cues: list[c.Cue]):
        if "" in state.tray or state.asks:
            return state, cues
        if any(not p.prediction for p in state.players):
            if state.phase != "check":
                state = replace(state, phase="check")
                missing = ", ".join(p.name for p in state.players if not p.prediction)
                cues.append(c.PhaseStarted("check"))
                cues.append(c.Announce(f"All 5 balls are out. Reveal predictions: {missing}."))
            return state, cues
        return self._check(state, cues)

    def _check(self, state: MilkState, cues: list[c.Cue]):
        out = set(state.tray)
        right = []
        players = []
        for p in state.players:
            ok = set(p.prediction) <= out
            p = replace(p, fulfilled=ok)
            if ok:
                right.append(p.name)
                p, words = self._zone_bonus(state.board, p)
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
        cues.append(_phase("choose", state, state.chooser_name))
        return state, cues

    def _zone_bonus(self, board: int, p: PlayerState) -> tuple[PlayerState, str]:
        if not p.zone:
            return p, ""
        entry = zone_entry(p.zone, p.prediction)
        if entry in p.zone_done:
            return p, f" (the {p.zone} bonus for these colours is already used this game)"
        kind, label = boards.ZONE_BONUS[board][p.zone]
        p = replace(p, zone_done=(*p.zone_done, entry))
        if p.zone == "double":
            p = replace(p, doubles=p.doubles + 1)
        if kind == "pencil":
            p = replace(p, pencils=p.pencils + 1)
        else:
            p = replace(p, tokens=_bump(p.tokens, kind, 1))
        return p, f" — {p.zone} bonus: {label}"

    # choosing -------------------------------------------------------------------------
    def _choose(self, state: MilkState, ev: Choose):
        if state.phase != "choose":
            raise IllegalMove("it is not time to choose balls")
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
            p = replace(p, tokens=_bump(p.tokens, ev.bonus, -1))
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
            cues.append(_phase("choose", new, new.chooser_name))
        return new, cues

    # finishing the round ------------------------------------------------------------------
    def _button(self, state: MilkState, ev: ButtonPressed):
        if ev.button != "next":
            raise IllegalMove(f"the {ev.button!r} button does nothing in Color Milk")
        if state.phase == "colour":
            return self._finish_round(state)
        if state.phase == "remix":
            cues: list[c.Cue] = []
            if state.board == 5 and not state.solo:
                state = self._warriors(state, cues)
            return self._new_round(replace(state, mill=FULL_MILL, cycle_round=0), cues)
        if state.phase == "tally":
            return self._finish_game(state)
        if state.phase == "mill" and state.asks:  # five may show, one of them in question
            raise IllegalMove(f"ball {state.asks[0].slot + 1} is in question: tap its colour first")
        raise IllegalMove(
            {
                "predict": "make predictions and turn the mill first",
                "mill": "the round's 5 balls are not all known yet",
                "check": "reveal every prediction first",
                "choose": f"{state.chooser_name} still has to choose a ball",
            }[state.phase]
        )

    def _finish_round(self, state: MilkState):
        record = RoundRecord(
            state.round,
            state.players[state.leader].name,
            state.tray,
            tuple(p.name for p in state.players if p.fulfilled),
        )
        mill = minus(state.mill, counts_of(state.tray))
        state = replace(state, history=(*state.history, record))
        if state.final_round is not None and state.round >= state.final_round:
            state = replace(state, mill=mill, tray=("",) * BALLS_PER_ROUND, passed=0)
            if self._needs_tally(state):
                return replace(state, phase="tally"), [
                    c.PhaseStarted("tally"),
                    c.Announce("Final round done. Confirm the counts for the end bonuses."),
                ]
            return self._finish_game(state)
        if state.cycle_round >= ROUNDS_PER_CYCLE:
            state = replace(
                state, mill=mill, tray=("",) * BALLS_PER_ROUND, row=(), phase="remix", passed=0
            )
            return state, [
                _phase("remix", state, state.players[state.leader].name),
                c.Announce(f"Roll out the last 5 ({self._words(mill)}), then mix all 20."),
            ]
        return self._new_round(replace(state, mill=mill), [])

    @staticmethod
    def _words(counts: tuple[int, ...]) -> str:
        return ", ".join(f"{n} {col}" for col, n in zip(COLOURS, counts, strict=True) if n)

    def _new_round(self, state: MilkState, cues: list[c.Cue]):
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
        cues.append(_phase("predict", state, leader))
        if state.final_round == state.round:
            cues.append(c.Announce(f"Final round! {leader} leads."))
        if state.cycle_round == ROUNDS_PER_CYCLE:
            cues.append(c.Announce("Third round of this mill: after it, empty it and remix."))
        return state, cues

    # taps that the artwork decides ---------------------------------------------------------
    def _tally(self, state: MilkState, ev: Tally):
        p = state.player(ev.player)
        if ev.item == "coins":
            if p.coins + ev.delta < 0:
                raise IllegalMove(f"{p.name} has only {p.coins} coins")
            p = replace(p, coins=p.coins + ev.delta)
        elif ev.item == "pencils":
            if p.unused_pencils + ev.delta < 0:
                raise IllegalMove(f"{p.name} has only {p.unused_pencils} unused pencils")
            p = replace(p, pencils=p.pencils + ev.delta)
        elif ev.item == "used":
            if ev.delta > p.unused_pencils or p.used + ev.delta < 0:
                raise IllegalMove(f"{p.name} has {p.unused_pencils} unused bonus pencils")
            p = replace(p, used=p.used + ev.delta)
        else:
            raise IllegalMove(f"tally coins, pencils or used, not {ev.item!r}")
        cues: list[c.Cue] = []
        if ev.item == "coins" and ev.delta:
            cues.append(c.Scored(p.name, ev.delta))
        return self._after_coins(state.with_player(p), cues)

    def _after_coins(self, state: MilkState, cues: list[c.Cue]):
        goal = boards.coin_goal(state.board)
        reached = [p for p in state.players if p.coins >= goal]
        if state.trigger_round is None and reached and state.phase != "tally":
            state = replace(state, trigger_round=state.round)
            cues.append(
                c.Announce(
                    f"{reached[0].name} has {reached[0].coins} coins! "
                    "Finish this round, then play one final round."
                )
            )
        elif state.trigger_round == state.round and not reached:
            state = replace(state, trigger_round=None)  # a corrected tap takes it back
        return state, cues

    def _count(self, state: MilkState, ev: Count):
        p = state.player(ev.player)
        board = boards.COUNT_ITEMS.get(ev.item)
        if board is None:
            raise IllegalMove(f"unknown count {ev.item!r}")
        if board != state.board:
            raise IllegalMove(f"{ev.item} count only on board {board}")
        if ev.value < 0:
            raise IllegalMove("a count cannot be negative")
        if ev.item == "treasure_cave" and ev.value > 1:
            raise IllegalMove("treasure_cave is 1 when the cave is coloured, else 0")
        return state.with_player(replace(p, counts=_set(p.counts, ev.item, ev.value))), ()

    def _kings_tower(self, state: MilkState, ev: KingsTower):
        p = state.player(ev.player)
        if state.board != 5:
            raise IllegalMove("the King's Tower is on board 5")
        if ev.colour not in boards.KINGS_TOWER:
            raise IllegalMove(f"{ev.colour!r} is not a pencil colour")
        if p.kings_tower:
            raise IllegalMove(f"{p.name} already finished the King's Tower in {p.kings_tower}")
        coins, pencils = boards.KINGS_TOWER[ev.colour]
        p = replace(p, kings_tower=ev.colour, coins=p.coins + coins, pencils=p.pencils + pencils)
        extra = " and a bonus pencil" if pencils else ""
        cues: list[c.Cue] = [
            c.Scored(p.name, coins),
            c.Announce(f"{p.name}: King's Tower in {ev.colour} — {coins} coins{extra}."),
        ]
        return self._after_coins(state.with_player(p), cues)

    # end of the game ------------------------------------------------------------------------
    def _needs_tally(self, state: MilkState) -> bool:
        if state.board == 6:
            return True
        return state.board in (3, 5) and not state.solo

    def _warriors(self, state: MilkState, cues: list[c.Cue]) -> MilkState:
        most, least = boards.most_and_least({p.name: p.count("warriors") for p in state.players})
        if not most:
            cues.append(c.Announce("Warriors: everyone has the same number; nothing happens."))
            return state
        for name in most:
            cues.append(c.Announce(f"Warriors: {name} has the most — colour one adjacent cell."))
        for name in least:
            p = state.player(name)
            if p.unused_pencils > 0:
                state = state.with_player(replace(p, lost=p.lost + 1))
                cues.append(c.Announce(f"Warriors: {name} has the fewest — lose a bonus pencil."))
            else:
                cues.append(c.Announce(f"Warriors: {name} has the fewest but no pencil to lose."))
        return state

    def _finish_game(self, state: MilkState):
        cues: list[c.Cue] = []
        board, solo = state.board, state.solo
        if board == 5 and not solo:
            state = self._warriors(state, cues)
        bonus: dict[str, list[tuple[str, int]]] = {p.name: [] for p in state.players}
        if board == 3 and not solo:
            most, _ = boards.most_and_least({p.name: p.count("railways") for p in state.players})
            for name in most:
                bonus[name].append(("railways", 1))
        if board == 6:
            if not solo:
                market = {p.name: p.count("market") for p in state.players}
                top = max(market.values())
                for name, v in market.items():
                    if top > 0 and v == top:
                        bonus[name].append(("market", 1))
            for p in state.players:
                towns = p.count("ghost_towns") * (p.count("camels") // 7)
                if towns:
                    bonus[p.name].append(("ghost towns", towns))
                if p.count("treasure_cave") and p.doubles:
                    bonus[p.name].append(("treasure cave", p.doubles))
        players = []
        for p in state.players:
            got = tuple(bonus[p.name])
            total = sum(n for _, n in got)
            if total:
                cues.append(c.Scored(p.name, total))
            players.append(replace(p, coins=p.coins + total, end_bonus=got))
        state = replace(state, players=tuple(players), phase="over")
        if solo:
            cues.append(c.Announce(f"{state.round} turns: {self.solo_rating(state)}"))
        return state, cues

    # reading the state ---------------------------------------------------------------------
    def solo_rating(self, state: MilkState) -> str | None:
        return boards.solo_rating(state.board, state.round) if state.solo else None

    def legal_actions(self, state: MilkState):
        if state.phase == "choose":
            who = state.chooser_name
            acts: list[Event] = [Choose(who, (s,)) for s in range(3)]
            p = state.player(who)
            if p.token("any1"):
                acts += [Choose(who, (s,), "any1") for s in range(3, len(state.row))]
            return tuple(acts)
        if state.phase in ("colour", "remix", "tally"):
            return (ButtonPressed("next"),)
        if state.phase in READING_PHASES:
            return tuple(
                BallSeen(col, i, 1.0)
                for i, b in enumerate(state.tray)
                if not b
                for col in self.likely_colours(state, i, None)
            )
        return ()

    def current_player(self, state: MilkState) -> str | None:
        return state.chooser_name

    def scores(self, state: MilkState) -> dict[str, int]:
        return {p.name: p.coins for p in state.players}

    def is_over(self, state: MilkState) -> bool:
        return state.phase == "over"

    def winners(self, state: MilkState) -> tuple[str, ...]:
        """Most coins; ties go to most unused bonus pencils; then the win is shared."""
        if not self.is_over(state):
            return ()
        best = max((p.coins, p.unused_pencils) for p in state.players)
        return tuple(p.name for p in state.players if (p.coins, p.unused_pencils) == best)

    def describe(self, state: MilkState) -> str:
        # One short line for the header (about 45 characters); the round's details (mill
        # cycle, leader, coin goal) are on the screen body's info line.
        rnd = f"round {state.round}"
        return {
            "predict": f"{rnd}: make your predictions, turn the mill",
            "mill": f"{rnd}: turn the mill until 5 balls are out",
            "check": f"{rnd}: reveal your predictions",
            "choose": f"{rnd}: {state.chooser_name} chooses a ball",
            "colour": f"{rnd}: colour your boards, then Next round",
            "remix": "remix: empty the mill, mix all 20 balls",
            "tally": "confirm the counts for the end bonuses",
            "over": "game over",
        }[state.phase]

    def summary(self, state: MilkState) -> dict[str, Any]:
        """The result as plain data, for the log, the CLI and the results screen."""
        return {
            "board": state.board,
            "rounds": state.round,
            "winners": list(self.winners(state)),
            "players": [
                {
                    "name": p.name,
                    "coins": p.coins,
                    "unused_pencils": p.unused_pencils,
                    "failed_predictions": p.failed,
                    "end_bonus": dict(p.end_bonus),
                }
                for p in state.players
            ],
            **({"solo_rating": self.solo_rating(state)} if state.solo else {}),
        }
