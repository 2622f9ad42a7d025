"""Color Milk rules: rounds of five phases around the mill, for boards 1-6 and solo.

Phases of a round: "predict" (cards face down), "mill" (balls roll out; beam and camera
report them), "check" (all five balls known, waiting for predictions to be revealed), then
the check itself, "choose" (leader first, clockwise, one of the first three balls) and
"colour" (players colour and tap their coins and pencils; "next" finishes the round).
Between cycles of the mill there is "remix"; boards with end bonuses have "tally" before
"over". On board 5 a "warriors" step follows the remix or the tally when someone has the
most warriors: the extra cell they colour may bring coins, tapped before play goes on.

The state is in state.py, the balls' readings in readings.py and the board bonuses in
bonuses.py; this class holds the round's flow: predictions and their check, choosing,
finishing rounds and reading the state.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from companion import cues as c
from companion.errors import IllegalMove, UsageError
from companion.events import BallPassed, BallSeen, ButtonPressed, Event
from companion.game import GameBase, GameConfig
from companion.games.color_milk import boards, cards
from companion.games.color_milk.bonuses import Bonuses
from companion.games.color_milk.cards import CardsToConfirm
from companion.games.color_milk.events import Choose, Count, KingsTower, Predict, Tally
from companion.games.color_milk.mill import (
    BALLS_PER_ROUND,
    COLOURS,
    FULL_MILL,
    ROUNDS_PER_CYCLE,
    counts_of,
    minus,
)
from companion.games.color_milk.readings import Readings
from companion.games.color_milk.state import (
    DEFAULT_ASK_THRESHOLD,
    DEFAULT_FAILED_PENCIL_EVERY,
    OWN_OPTIONS,
    READING_PHASES,
    SENSOR_MAX,
    TABLE_WIDE_OPTIONS,
    MilkState,
    PlayerState,
    RoundRecord,
    bump,
    phase_cue,
)
from companion.players import Seating
from companion.words import not_used


class ColorMilk(Readings, Bonuses, GameBase):
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
            CardsToConfirm: cards.ask,
        }.get(type(event))
        if handler is None:
            raise IllegalMove(not_used("Color Milk", event))
        new, cues = handler(state, event)
        return new, tuple(cues)

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
        cues.append(phase_cue("choose", state, state.chooser_name))
        return state, cues

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

    # finishing the round ------------------------------------------------------------------
    def _button(self, state: MilkState, ev: ButtonPressed):
        if ev.button != "next":
            raise IllegalMove(f"the {ev.button!r} button does nothing in Color Milk")
        if state.phase == "colour":
            return self._finish_round(state)
        if state.phase == "remix":
            return self._warriors_step(state)
        if state.phase == "tally":
            return self._warriors_step(state)
        if state.phase == "warriors":
            return self._after_warriors(state, [])
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

    def _warriors_step(self, state: MilkState):
        """Board 5 (not solo) checks the warriors before every remix and at the end. The
        players with most colour one cell at once, and it may bring coins: the "warriors"
        phase waits for those taps before the next round starts or the winner is decided."""
        cues: list[c.Cue] = []
        if state.board == 5 and not state.solo:
            state, most = self._warriors(state, cues)
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
        return self._after_warriors(state, cues)

    def _after_warriors(self, state: MilkState, cues: list[c.Cue]):
        if state.ending:
            return self._finish_game(state, cues)
        return self._new_round(replace(state, mill=FULL_MILL, cycle_round=0), cues)  # remixed

    def _finish_round(self, state: MilkState):
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
            if self._needs_tally(state):
                return replace(state, phase="tally"), [
                    c.PhaseStarted("tally"),
                    c.Announce("Final round done. Confirm the counts for the end bonuses."),
                ]
            return self._finish_game(state, [])
        if state.cycle_round >= ROUNDS_PER_CYCLE:
            state = replace(
                state, mill=mill, tray=("",) * BALLS_PER_ROUND, row=(), phase="remix", passed=0
            )
            return state, [
                phase_cue("remix", state, state.players[state.leader].name),
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
        cues.append(phase_cue("predict", state, leader))
        if state.final_round == state.round:
            cues.append(c.Announce(f"Final round! {leader} leads."))
        if state.cycle_round == ROUNDS_PER_CYCLE:
            cues.append(c.Announce("Third round of this mill: after it, empty it and remix."))
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
        if state.phase in ("colour", "remix", "tally", "warriors"):
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
        best = max(p.standing for p in state.players)
        return tuple(p.name for p in state.players if p.standing == best)

    def ranked(self, state: MilkState) -> tuple[PlayerState, ...]:
        """The players best first (coins, then unused bonus pencils), seat order on a tie."""
        return tuple(sorted(state.players, key=lambda p: p.standing, reverse=True))

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
            "warriors": "warriors: colour the extra cell, tap its coins",
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


__all__ = ["COLOURS", "READING_PHASES", "SENSOR_MAX", "ColorMilk", "MilkState", "PlayerState"]
