"""Colour MY Kritters's clockwork as one flow: first player, turns, item piles, the end
trigger, the finishing round, score entry and the final ranking. Pure rules over frozen state.

The app does not see the cards; players tell it what they bought (so it counts the item
piles down) and when the kritter deck runs out. When an end condition is met, the round is
played out to the player on the first player's right, so everyone has had the same number of
turns; then each player enters their cards and the scorer finds their best score.

setup (who takes the First Player card) -> play (turns, then the last round) -> scoring
(everyone enters their cards) -> over

STEPS is the one table that says which step takes each event in each phase. The steps are
plain functions `(state, event) -> (state, cues)` over the frozen KrittersState (state.py):
turns.py (set-up and play) and ending.py (the scores), sharing flow.py.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from companion import cues as cue
from companion.errors import IllegalMove, UsageError
from companion.events import ButtonPressed, Event, TimerExpired
from companion.game import GameBase, GameConfig, TimerSpec
from companion.games.kritters.scoring import Rules
from companion.games.kritters.setup import Options, setup_for
from companion.words import not_used

from . import ending, flow, turns
from .events import AgreeToEnd, Bought, CardRemoved, FirstPlayer, PileEmpty, ScoreEntered, TurnDone
from .state import CARDS, KRITTER_DECK, PILES, KrittersState

Step = Callable[[KrittersState, Any], tuple[KrittersState, Sequence[cue.Cue]]]
ANY = "any phase"  # a row for the phases that have none of their own for that event

# (phase, event type) -> the step that takes it. Rows are tried for the phase, then for ANY.
STEPS: dict[tuple[str, type], Step] = {
    ("setup", FirstPlayer): turns.first_player,
    ("play", Bought): turns.bought,
    ("play", PileEmpty): turns.pile_empty,
    ("play", CardRemoved): turns.card_removed,
    ("play", AgreeToEnd): turns.agree_to_end,
    ("play", TurnDone): turns.turn_done,
    ("scoring", ScoreEntered): ending.score_entered,
    (ANY, ButtonPressed): turns.button,  # "next" passes the turn during play
    (ANY, TimerExpired): turns.timer_expired,  # refused unless the turn's countdown runs
    # refused in every other phase, saying when they are taken
    (ANY, FirstPlayer): flow.only("setup", "The first player is chosen"),
    (ANY, Bought): flow.only("play", "Cards are bought"),
    (ANY, PileEmpty): flow.only("play", "Piles run out"),
    (ANY, CardRemoved): flow.only("play", "Cards are removed"),
    (ANY, AgreeToEnd): flow.only("play", "The players agree to finish"),
    (ANY, TurnDone): flow.only("play", "Turns end"),
    (ANY, ScoreEntered): flow.only("scoring", "Scores are entered"),
}


def step_for(state: KrittersState, event: Event) -> Step | None:
    for key in ((state.phase, type(event)), (ANY, type(event))):
        if key in STEPS:
            return STEPS[key]
    return None


class Kritters(GameBase):
    name = "kritters"
    title = "Colour MY Kritters"
    min_players = 1
    max_players = 12

    # set-up --------------------------------------------------------------------------
    def initial_state(self, config: GameConfig) -> KrittersState:
        players = tuple(config.players)
        if len(set(players)) != len(players) or any(not str(p).strip() for p in players):
            raise UsageError("every player needs a different, non-empty name")
        opts = Options.parse(config.options, len(players))
        s = setup_for(len(players), opts)
        piles = (
            ("paintbrush", s.paintbrushes),
            ("palette", s.palettes),
            ("paint_bucket", s.paint_buckets),
            ("magic_wand", s.magic_wands),
            (KRITTER_DECK, 1),
        )
        return KrittersState(players=players, options=opts, piles=piles)

    def setup(self, state: KrittersState):
        return setup_for(len(state.players), state.options)

    def scoring_rules(self, state: KrittersState) -> Rules:
        return Rules(state.options.variant, state.options.triad_bonus)

    # changing ----------------------------------------------------------------------------
    def apply(self, state: KrittersState, ev: Event) -> tuple[KrittersState, Sequence[cue.Cue]]:
        step = step_for(state, ev)
        if step is None:
            raise IllegalMove(not_used("Colour MY Kritters", ev))
        return step(state, ev)

    # reading ---------------------------------------------------------------------------
    def legal_actions(self, state: KrittersState) -> Sequence[Event]:
        if state.phase == "setup":
            return tuple(FirstPlayer(p) for p in state.players)
        if state.phase != "play":
            return ()
        out: list[Event] = [TurnDone()]
        for card in CARDS:
            try:
                turns.check_purchase(state, card)
            except IllegalMove:
                continue
            out.append(Bought(card))
        out.extend(PileEmpty(p) for p in PILES if p == KRITTER_DECK and state.pile(p))
        if state.options.junior and not state.end_reason:
            out.append(AgreeToEnd())
        return tuple(out)

    def current_player(self, state: KrittersState) -> str | None:
        return flow.current_player(state)

    def scores(self, state: KrittersState) -> dict[str, int]:
        got = {r.player: r.total for r in state.results}
        return {p: got.get(p, 0) for p in state.players}

    def is_over(self, state: KrittersState) -> bool:
        return state.phase == "over"

    def timer(self, state: KrittersState) -> TimerSpec | None:
        return flow.timer(state)

    def describe(self, state: KrittersState) -> str:
        return flow.describe(state)
