"""The game tracker: set-up, turns, end triggers, the finishing round, scoring and ranking."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.catalogue import load
from companion.clock import FakeClock
from companion.cues import Announce, GameOver, PhaseStarted, Scored, TimeUp, TimeWarning
from companion.errors import IllegalMove, UsageError
from companion.events import ButtonPressed, TimerExpired
from companion.game import GameConfig
from companion.games.kritters import GAME
from companion.games.kritters.events import (
    AgreeToEnd,
    Bought,
    CardRemoved,
    FirstPlayer,
    PileEmpty,
    ScoreEntered,
    TurnDone,
)
from companion.games.kritters.history import solo_best, solo_games, solo_options
from companion.games.kritters.setup import Options, setup_for
from companion.games.kritters.state import ranking
from companion.session import Session
from companion.store import GameLog

NAMES = ("Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jo", "Kim", "Lu")


def start(n=3, first=None, **options):
    state = GAME.initial_state(GameConfig(NAMES[:n], options))
    if first is not False:
        state, _ = GAME.apply(state, FirstPlayer(first or NAMES[0]))
    return state


def play(state, *events):
    cues = []
    for ev in events:
        state, out = GAME.apply(state, ev)
        cues.extend(out)
    return state, cues


def test_catalogue_loads_the_game():
    assert load("kritters") is GAME and GAME.name == "kritters"


# Set-up ------------------------------------------------------------------------------------

RULEBOOK_PILES = {
    2: (5, 3),
    3: (7, 4),
    4: (9, 5),
    5: (11, 6),
    6: (12, 6),
    7: (14, 7),
    8: (16, 8),
    9: (18, 9),
    10: (20, 10),
    11: (22, 11),
    12: (24, 12),
}


@pytest.mark.parametrize("players", sorted(RULEBOOK_PILES))
def test_item_piles_by_player_count(players):
    s = setup_for(players, Options())
    assert (s.paintbrushes, s.palettes) == RULEBOOK_PILES[players]
    assert s.magic_wands == (9 if players <= 6 else 18)
    assert s.kritter_market == (4 if players <= 6 else 6)
    assert s.copies == (1 if players <= 6 else 2)
    state = GAME.initial_state(GameConfig(NAMES[:players]))
    assert (state.pile("paintbrush"), state.pile("palette")) == RULEBOOK_PILES[players]


def test_solo_setup_moves_items_into_the_kritter_deck():
    s = setup_for(1, Options())
    assert (s.paintbrushes, s.palettes, s.magic_wands, s.kritter_market) == (5, 3, 9, 6)
    assert s.kritter_deck == 63 + 4 + 2
    assert any("Split the kritter deck into 3 piles" in step for step in s.steps)


def test_more_points_junior_and_split_decks():
    assert setup_for(4, Options(more_points=True)).paint_buckets == 6
    assert setup_for(9, Options(more_points=True)).paint_buckets == 12
    junior = setup_for(3, Options(variant="junior"))
    assert (junior.paintbrushes, junior.palettes, junior.kritter_deck) == (0, 0, 63 - 18)
    split = setup_for(4, Options(split_decks=True))
    assert (split.paintbrushes, split.palettes, split.magic_wands) == (8, 4, 3)
    assert split.kritter_deck == 18 + 12 + 6 + 6


@pytest.mark.parametrize(
    "players, options, words",
    [
        (0, {}, "1 to 12"),
        (13, {}, "1 to 12"),
        (1, {"variant": "junior"}, "2 or more"),
        (3, {"variant": "junior", "triad_bonus": True}, "Junior"),
        (5, {"split_decks": True}, "2 to 4"),
        (3, {"turn_timer": -5}, "turn_timer"),
        (3, {"turn_timer": 2.5}, "turn_timer"),
        (3, {"colour": "red"}, "unknown Kritters option"),
        (3, {"more_points": "yes"}, "true or false"),
    ],
)
def test_bad_configs_are_refused(players, options, words):
    with pytest.raises(UsageError, match=words):
        GAME.initial_state(
            GameConfig(
                NAMES[:players] if players <= 12 else tuple(f"P{i}" for i in range(players)),
                options,
            )
        )


# Turns ----------------------------------------------------------------------------------


def test_turns_go_clockwise_from_the_first_player():
    state = start(4, first=False)
    assert GAME.current_player(state) is None
    assert set(GAME.legal_actions(state)) == {FirstPlayer(p) for p in NAMES[:4]}
    state, cues = play(state, FirstPlayer("Cy"))
    order = [GAME.current_player(state)]
    for _ in range(5):
        state, _ = play(state, TurnDone())
        order.append(GAME.current_player(state))
    assert order == ["Cy", "Dee", "Ann", "Bob", "Cy", "Dee"]
    assert state.round == 2
    assert PhaseStarted("turn", "Cy") in cues


def test_the_next_button_passes_the_turn():
    state, _ = play(start(2), ButtonPressed("next"))
    assert GAME.current_player(state) == "Bob"
    with pytest.raises(IllegalMove, match="does nothing"):
        GAME.apply(state, ButtonPressed("bid"))


def test_illegal_moves_change_nothing():
    state = start(2)
    for ev, words in [
        (FirstPlayer("Bob"), "before the first turn"),
        (Bought("unicorn"), "unknown card"),
        (Bought("paint_bucket"), "More Points"),
        (ScoreEntered("Ann", cyan=3), "at the end of the game"),
        (CardRemoved("paintbrush"), "solo"),
        (AgreeToEnd(), "Junior"),
        (PileEmpty("cellar"), "unknown pile"),
    ]:
        with pytest.raises(IllegalMove, match=words):
            GAME.apply(state, ev)
    bought, _ = play(state, Bought("palette"))
    with pytest.raises(IllegalMove, match="already bought"):
        GAME.apply(bought, Bought("kritter"))
    assert bought.pile("palette") == state.pile("palette") - 1


def test_double_purchase_is_two_kritters_or_a_kritter_and_an_item():
    state = start(2, double_purchase=True)
    two, _ = play(state, Bought("kritter"), Bought("paintbrush"))
    assert two.bought == ("kritter", "paintbrush")
    one_item, _ = play(state, Bought("palette"))
    with pytest.raises(IllegalMove, match="never 2 items"):
        GAME.apply(one_item, Bought("magic_wand"))


def test_an_empty_item_pile_cannot_be_bought_from():
    state = start(2)  # 3 palettes
    for _ in range(3):
        state, _ = play(state, Bought("palette"), TurnDone())
    assert state.pile("palette") == 0
    with pytest.raises(IllegalMove, match="palette pile is empty"):
        GAME.apply(state, Bought("palette"))
    assert Bought("palette") not in GAME.legal_actions(state)


# End triggers and the finishing round --------------------------------------------------------


def buy_all(state, card):
    while state.pile(card):
        state, _ = play(state, Bought(card), TurnDone())
    return state


def test_standard_end_needs_both_paintbrush_and_palette_piles_empty():
    state = buy_all(start(2), "palette")
    assert state.end_reason is None
    state = buy_all(state, "paintbrush")
    assert state.end_reason == "the paintbrush and palette piles are empty"


def test_kritter_deck_running_out_ends_the_game():
    state, cues = play(start(3), PileEmpty("kritter_deck"))
    assert state.end_reason == "the kritter deck is empty"
    assert Announce("Last round: the kritter deck is empty. The game ends after Cy's turn") in cues


def test_more_points_ends_when_two_of_three_item_piles_are_empty():
    state = buy_all(start(2, more_points=True), "paintbrush")
    assert state.end_reason is None
    state = buy_all(state, "paint_bucket")
    assert state.end_reason == "the paintbrush and paint bucket piles are empty"


def test_junior_ends_on_the_deck_or_by_agreement():
    state = start(2, variant="junior")
    with pytest.raises(IllegalMove, match="Junior"):
        GAME.apply(state, Bought("paintbrush"))
    agreed, _ = play(state, AgreeToEnd())
    assert agreed.end_reason == "the players agreed to finish"


def test_solo_removed_items_count_down_the_piles_and_end_the_game():
    state = start(1)
    for pile in ("paintbrush", "palette"):
        while state.pile(pile):
            state, _ = play(state, CardRemoved(pile))
    assert state.end_reason is not None
    state, cues = play(state, TurnDone())
    assert state.phase == "scoring"


@pytest.mark.parametrize("trigger_turn", [0, 1, 2, 3])
def test_the_round_is_finished_so_everyone_has_equal_turns(trigger_turn):
    state = start(4, first="Bob")
    turns = Counter()
    for _ in range(4 + trigger_turn):
        turns[GAME.current_player(state)] += 1
        state, _ = play(state, TurnDone())
    state, _ = play(state, PileEmpty("kritter_deck"))
    while state.phase == "play":
        turns[GAME.current_player(state)] += 1
        last = GAME.current_player(state)
        state, _ = play(state, TurnDone())
    assert last == "Ann"  # on the first player's right
    assert set(turns.values()) == {2}
    assert state.phase == "scoring" and GAME.legal_actions(state) == ()


@settings(max_examples=40, deadline=None)
@given(st.integers(1, 12), st.data())
def test_any_game_gives_everyone_the_same_number_of_turns(players, data):
    state = start(
        players,
        first=NAMES[data.draw(st.integers(0, players - 1))],
        more_points=data.draw(st.booleans()),
    )
    turns = Counter()
    for _ in range(400):
        if state.phase != "play":
            break
        ev = data.draw(st.sampled_from(GAME.legal_actions(state)))
        if isinstance(ev, TurnDone):
            turns[GAME.current_player(state)] += 1
        state, _ = GAME.apply(state, ev)
    else:
        state, _ = play(state, PileEmpty("kritter_deck"))
        while state.phase == "play":
            turns[GAME.current_player(state)] += 1
            state, _ = play(state, TurnDone())
    assert state.phase == "scoring"
    assert len(set(turns[p] for p in NAMES[:players])) == 1


# Scoring and ranking -------------------------------------------------------------------------

RULEBOOK_HAND = dict(
    cyan=4,
    magenta=6,
    yellow=5,
    paintbrushes=1,
    palettes=2,
    point_kritters=(("red", 3), ("blue", 4)),
)


def at_scoring(n=3, **options):
    state, _ = play(start(n, **options), PileEmpty("kritter_deck"))
    while state.phase == "play":
        state, _ = play(state, TurnDone())
    return state


def test_scores_are_the_best_layout_and_ties_share_a_place():
    state = at_scoring(4)
    state, cues = play(
        state,
        ScoreEntered("Ann", **RULEBOOK_HAND),
        ScoreEntered("Bob", cyan=2),
        ScoreEntered("Cy", **RULEBOOK_HAND),
    )
    assert Scored("Ann", 24) in cues and not GAME.is_over(state)
    state, cues = play(state, ScoreEntered("Dee", magenta=3, paintbrushes=1))
    assert GAME.is_over(state)
    assert ranking(state) == [(1, "Ann", 24), (1, "Cy", 24), (3, "Dee", 3), (4, "Bob", 0)]
    assert GAME.winners(state) == ("Ann", "Cy")
    assert Announce("Ann and Cy share the win") in cues
    assert state.result("Ann").explanation[-1] == "total: 24"


def test_triad_option_reaches_the_scorer():
    state, _ = play(at_scoring(1, triad_bonus=True), ScoreEntered("Ann", **RULEBOOK_HAND))
    assert GAME.scores(state) == {"Ann": 26}


def test_a_player_may_correct_their_entry_before_the_end():
    state, _ = play(
        at_scoring(2),
        ScoreEntered("Ann", cyan=1, paintbrushes=1),
        ScoreEntered("Ann", cyan=5, paintbrushes=1),
    )
    assert GAME.scores(state) == {"Ann": 5, "Bob": 0} and not GAME.is_over(state)


@pytest.mark.parametrize(
    "entry, words",
    [
        (ScoreEntered("Zed", cyan=1), "not playing"),
        (ScoreEntered("Ann", cyan=-2), "negative"),
        (ScoreEntered("Ann", paint_buckets=1), "More Points"),
        (ScoreEntered("Ann", point_kritters=(("red", 6),)), "More Points"),
        (ScoreEntered("Ann", point_kritters=(("pink", 3),)), "red, green, blue"),
        (ScoreEntered("Ann", point_kritters=(("red",),)), "pairs"),
    ],
)
def test_bad_score_entries_are_refused(entry, words):
    with pytest.raises(IllegalMove, match=words):
        GAME.apply(at_scoring(2), entry)


def test_junior_scoring_refuses_items():
    with pytest.raises(IllegalMove, match="Junior"):
        GAME.apply(at_scoring(2, variant="junior"), ScoreEntered("Ann", paintbrushes=1))
    state, _ = play(at_scoring(2, variant="junior"), ScoreEntered("Ann", cyan=2, magenta=2, wild=2))
    assert GAME.scores(state)["Ann"] == 10


# Through a real Session and game log ------------------------------------------------------


def test_turn_timer_on_a_fake_clock(tmp_path):
    clock, seen = FakeClock(), []
    with GameLog(tmp_path / "log.sqlite3") as log:
        s = Session.start(
            GAME, log, GameConfig(NAMES[:2], {"turn_timer": 20}), clock=clock, sinks=[seen.append]
        )
        assert s.timer is None  # no countdown before the first player is chosen
        s.submit(FirstPlayer("Ann"))
        assert GAME.timer(s.state).key == "turn-0" and s.timer.remaining() == 20
        clock.advance(12)
        assert s.poll() == (TimeWarning(10),)
        s.submit(TurnDone())  # Bob's turn: a fresh countdown under a new key
        assert GAME.timer(s.state).key == "turn-1" and s.timer.remaining() == 20
        clock.advance(21)
        cues = s.poll()
        assert TimeUp("turn-1") in cues and Announce("Bob: time is up") in cues
        assert s.timer is None and GAME.current_player(s.state) == "Bob"
        with pytest.raises(IllegalMove):
            s.submit(TimerExpired("turn-1"))
        s.submit(TurnDone())
        assert GAME.timer(s.state).key == "turn-2"
        # The log holds the expiry: a restart replays to the same state.
        again = Session.resume(GAME, log, s.game_id, clock=clock)
        assert again.state == s.state


def test_a_whole_game_is_logged_and_finished(tmp_path):
    with GameLog(tmp_path / "log.sqlite3") as log:
        s = Session.start(GAME, log, GameConfig(NAMES[:2]), clock=FakeClock())
        s.submit(FirstPlayer("Bob"))
        s.submit(Bought("paintbrush"))
        s.submit(PileEmpty("kritter_deck"))
        s.submit(TurnDone())
        s.submit(TurnDone())
        s.submit(ScoreEntered("Ann", **RULEBOOK_HAND))
        cues = s.submit(ScoreEntered("Bob", magenta=3, paintbrushes=1))
        assert GameOver(("Ann",)) in cues
        rec = log.games("finished")[0]
        assert rec.result == {"scores": {"Ann": 24, "Bob": 3}, "winners": ["Ann"]}
        again = Session.resume(GAME, log, s.game_id, clock=FakeClock())
        assert again.state == s.state and GAME.is_over(again.state)
        s.undo()
        assert log.games("finished") == [] and GAME.describe(s.state).startswith("scoring")


def finish_solo(log, score_hand, options=None):
    s = Session.start(
        GAME, log, GameConfig(("Ann",), solo_options(log, "Ann", options)), clock=FakeClock()
    )
    s.submit(FirstPlayer("Ann"))
    s.submit(PileEmpty("kritter_deck"))
    s.submit(TurnDone())
    return s.submit(ScoreEntered("Ann", **score_hand))


def test_solo_best_score_comes_from_the_log(tmp_path):
    with GameLog(tmp_path / "log.sqlite3") as log:
        assert solo_best(log) is None
        cues = finish_solo(log, RULEBOOK_HAND)
        assert Announce("Solo score: 24. Beat it next time!") in cues
        cues = finish_solo(log, dict(magenta=4, paintbrushes=1))
        assert Announce("Solo score: 4; your best is 24") in cues
        cues = finish_solo(log, RULEBOOK_HAND, {"triad_bonus": True})
        assert Announce("New best solo score: 26 (was 24)!") in cues
        # A two-player game does not count towards solo bests.
        s = Session.start(GAME, log, GameConfig(("Ann", "Bob")), clock=FakeClock())
        s.submit(FirstPlayer("Ann"))
        s.submit(PileEmpty("kritter_deck"))
        s.submit(TurnDone())
        s.submit(TurnDone())
        s.submit(ScoreEntered("Ann", magenta=30, paintbrushes=1, palettes=1))
        s.submit(ScoreEntered("Bob"))
        assert [g.score for g in solo_games(log)] == [24, 4, 26]
        assert solo_best(log, "Ann") == 26 and solo_best(log, "Bob") is None
