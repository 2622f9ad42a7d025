"""Color Milk rules: rounds of five phases around the mill, for boards 1-6 and solo.

Color Milk's rules as one flow: the phases below, and STEPS, the one table that says which
step takes each event in each phase. The steps are plain functions `(state, event) ->
(state, cues)` over the frozen MilkState (state.py), in modules by concern: readings.py
(balls crossing the beam and seen in the tray), predictions.py (the cards revealed and
their check), rounds.py (choosing, and "next" ending the round) and bonuses.py (what the
boards pay, in any phase, and the end bonuses).

predict (cards face down) -> mill (balls roll out; beam and camera report them) -> check
(all five balls known, waiting for predictions to be revealed; then the check itself) ->
choose (leader first, clockwise, one of the first three balls) -> colour (players colour
and tap their coins and pencils; "next" finishes the round) -> predict ...
Between cycles of the mill there is "remix"; boards with end bonuses have "tally" before
"over". On board 5 a "warriors" step follows the remix or the tally when someone has the
most warriors: the extra cell they colour may bring coins, tapped before play goes on.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from companion import cues as c
from companion.errors import IllegalMove, UsageError
from companion.events import BallPassed, BallSeen, ButtonPressed, Event
from companion.game import GameBase, GameConfig
from companion.games.color_milk import boards, bonuses, cards, predictions, readings, rounds
from companion.games.color_milk.cards import CardsToConfirm
from companion.games.color_milk.events import Choose, Count, KingsTower, Predict, Tally
from companion.games.color_milk.mill import COLOURS
from companion.games.color_milk.state import (
    DEFAULT_ASK_THRESHOLD,
    DEFAULT_FAILED_PENCIL_EVERY,
    OWN_OPTIONS,
    READING_PHASES,
    SENSOR_MAX,
    TABLE_WIDE_OPTIONS,
    MilkState,
    PlayerState,
)
from companion.players import Seating
from companion.words import not_used

Step = Callable[[MilkState, Any], tuple[MilkState, Sequence[c.Cue]]]
ANY = "any phase"  # a row for the phases that have none of their own for that event
NEXT = ButtonPressed("next")

# (phase, event) -> the step that takes it. A button is keyed by which button it is, any
# other event by its type. Rows are tried for the phase, then for ANY.
STEPS: dict[tuple[str, Any], Step] = {
    # the round's five balls and the predictions, until the check
    **{(phase, BallPassed): readings.ball_passed for phase in READING_PHASES},
    **{(phase, BallSeen): readings.ball_seen for phase in READING_PHASES},
    **{(phase, Predict): predictions.predict for phase in READING_PHASES},
    # choosing, then "next" through the end of the round
    ("choose", Choose): rounds.choose,
    ("choose", BallPassed): readings.ball_passed_after_five,
    ("colour", BallPassed): readings.ball_passed_after_five,
    ("colour", NEXT): rounds.finish_round,
    # the remix, the end bonuses and board 5's warriors
    ("remix", BallPassed): readings.last_five_passed,
    ("remix", NEXT): rounds.after_remix_or_tally,
    ("tally", NEXT): rounds.after_remix_or_tally,
    ("warriors", NEXT): rounds.warriors_done,
    # what the boards' artwork pays, tapped in any phase
    (ANY, Tally): bonuses.tally,
    (ANY, Count): bonuses.count,
    (ANY, KingsTower): bonuses.kings_tower,
    # the camera's question about revealed cards (cards.ask refuses it outside "check")
    (ANY, CardsToConfirm): cards.ask,
    # refused in every other phase, with the reason
    (ANY, BallPassed): readings.refuse_ball_passed,
    (ANY, BallSeen): readings.refuse_ball_seen,
    (ANY, Predict): predictions.refuse_predict,
    (ANY, Choose): rounds.refuse_choose,
    (ANY, NEXT): rounds.refuse_next,
    (ANY, ButtonPressed): rounds.refuse_button,  # any other button
}


def step_for(state: MilkState, event: Event) -> Step | None:
    kind = event if isinstance(event, ButtonPressed) else type(event)
    for key in ((state.phase, kind), (ANY, kind), (ANY, type(event))):
        if key in STEPS:
            return STEPS[key]
    return None


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

    # changing --------------------------------------------------------------------------
    def apply(self, state: MilkState, event: Event) -> tuple[MilkState, tuple[c.Cue, ...]]:
        if state.phase == "over":
            raise IllegalMove("the game is over")
        step = step_for(state, event)
        if step is None:
            raise IllegalMove(not_used("Color Milk", event))
        new, cues = step(state, event)
        return new, tuple(cues)

    def is_news(self, state: MilkState, event: Event) -> bool:
        return readings.is_news(state, event)

    # reading the state ---------------------------------------------------------------------
    def solo_rating(self, state: MilkState) -> str | None:
        return bonuses.solo_rating(state)

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
                for col in readings.likely_colours(state, i, None)
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


__all__ = [
    "COLOURS",
    "READING_PHASES",
    "SENSOR_MAX",
    "STEPS",
    "ColorMilk",
    "MilkState",
    "PlayerState",
]
