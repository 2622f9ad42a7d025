"""The camera watches the demonstration through Laser's sensing hooks and the real rules:
stable views only, the result proposed at the end and confirmed by one press of "next",
a change it cannot explain asked, never scored."""

import pytest

from companion.cues import AskHuman
from companion.errors import IllegalMove
from companion.events import ButtonPressed, TimerExpired
from companion.games.laser import GAME
from companion.games.laser.board import COLOURS
from companion.games.laser.events import BoardEntered, ResultProposed, RoundResult
from companion.games.laser.sensing.ring import RingRead

from .helpers import bid_all, new, play, team_round_to_bids

# Cards cyan and blue. Tiles 1-7: green, blue, cyan, magenta, the cat, red, yellow.
TILES = ("green", "blue", "cyan", "magenta", None, "red", "yellow") + (None,) * 5
CAT = 4
FULL = (2, 2, 2, 2, 2, 2)


def mixing(bid=3):
    """Team mode: Peter (active) bid `bid`, Suzie the same: they mix."""
    state = team_round_to_bids(new())
    state, _ = play(state, BoardEntered(TILES, CAT, FULL))
    state, _ = bid_all(state, {"Peter": bid, "Suzie": bid, "Tommy": 9, "Kitti": 10})
    assert state.phase == "mixing" and state.mate == 1
    return state


def view(*edits, cat=CAT, supply=FULL, unsure=()):
    """The camera's reading of the board with tiles edited ((tile, colour|None), ...)."""
    tiles = list(TILES)
    for k, t in edits:
        tiles[k] = t
    tiles[cat] = "cat"
    conf = tuple(0.3 if k in unsure else 0.95 for k in range(12))
    return RingRead(tuple(tiles), conf, ((),) * 12, tuple(supply), (0.95,) * 6)


GREEN_ON_BLUE = view((0, None), (1, "cyan"), supply=(2, 2, 2, 1, 2, 2))
CYAN_ON_MAGENTA = view((0, None), (1, None), (3, "blue"), supply=(2, 2, 2, 1, 1, 2))


def watch(state, *readings, memory=None):
    """Feed readings as the runtime does; return the state, memory, events and cues."""
    events, cues = [], []
    for r in readings:
        out, memory = GAME.interpret(state, r, memory)
        for ev in out:
            state, c = GAME.apply(state, ev)
            events.append(ev)
            cues.extend(c)
    return state, memory, events, cues


def test_the_ring_is_watched_during_the_mixing_once_the_board_is_known():
    state = mixing()
    assert [s.kind for s in GAME.readers(state)] == ["ring"]
    assert GAME.readers(state)[0].key == "demonstration, round 1"
    no_board = team_round_to_bids(new())
    no_board, _ = bid_all(no_board, {"Peter": 3, "Suzie": 3, "Tommy": 9, "Kitti": 10})
    assert no_board.phase == "mixing" and GAME.readers(no_board) == ()


def test_a_view_counts_once_seen_twice_with_no_hand_between():
    state = mixing()
    hand = RingRead(hand=True)
    state, memory, events, _ = watch(state, view(), view(), GREEN_ON_BLUE, hand, GREEN_ON_BLUE)
    assert events == [] and memory.demo.demo.moves == ()
    state, memory, events, _ = watch(state, GREEN_ON_BLUE, memory=memory)
    (move,) = memory.demo.demo.moves
    assert (move.src, move.dst, COLOURS[move.makes]) == (0, 1, "cyan") and events == []


def test_every_card_done_in_the_bid_is_proposed_and_one_press_of_next_or_a_tap_scores_it():
    state = mixing(bid=3)
    readings = (view(), view(), GREEN_ON_BLUE, GREEN_ON_BLUE, CYAN_ON_MAGENTA, CYAN_ON_MAGENTA)
    state, memory, events, cues = watch(state, *readings)
    (proposal,) = events
    assert proposal.success and proposal.removed == 4
    assert "every card done in 3 MP, 4 figures removed" in proposal.question
    assert AskHuman(proposal.question, ("Confirm",), (RoundResult(True, 4),)) in cues
    assert state.demo_result == (True, 4) and state.scores == (0, 0, 0, 0)
    state, memory, events, _ = watch(state, CYAN_ON_MAGENTA, memory=memory)
    assert events == []  # said once
    state, memory, events, _ = watch(state, ButtonPressed("next"), memory=memory)
    assert events == [RoundResult(True, 4)]
    assert state.scores == (3, 3, 0, 0) and state.round == 2 and state.demo_result is None


def test_more_movement_points_than_the_bid_is_proposed_as_a_failure():
    state = mixing(bid=3)
    cat_takes_cyan = view((2, None), cat=2)  # 2 tiles at 2 MP a tile in team mode
    state, memory, events, _ = watch(state, view(), cat_takes_cyan, cat_takes_cyan)
    (proposal,) = events
    assert proposal.success is False and "4 MP used, more than the bid of 3" in proposal.question
    state, memory, events, _ = watch(state, ButtonPressed("next"), memory=memory)
    assert events == [RoundResult(False, None)] and state.scores == (0, 0, 3, 3)


def test_a_change_no_move_explains_is_a_question_and_next_confirms_nothing():
    state = mixing()
    odd = view((5, "yellow"))
    state, memory, events, cues = watch(state, odd, odd)
    (question,) = events
    assert question == ResultProposed(
        "The camera cannot tell the move: tile 6: red -> yellow.", None, None
    )
    assert AskHuman(question.question) in cues and state.demo_result is None
    out, memory = GAME.interpret(state, ButtonPressed("next"), memory)
    assert out == (ButtonPressed("next"),)  # nothing to confirm: the rules refuse it
    with pytest.raises(IllegalMove):
        GAME.apply(state, out[0])
    # the table put right is watched on from the last position explained
    state, memory, events, _ = watch(state, GREEN_ON_BLUE, GREEN_ON_BLUE, memory=memory)
    assert len(memory.demo.demo.moves) == 1


def test_a_move_against_the_rules_is_proposed_as_a_failure_naming_the_rule():
    state = mixing()
    cat_takes_red = view((5, None), cat=5)
    state, memory, events, _ = watch(state, cat_takes_red, cat_takes_red)
    (proposal,) = events
    assert proposal.success is False
    assert "the cat from tile 5 to 6 takes the red" in proposal.question
    assert "open card needs (cyan, blue)" in proposal.question


def test_time_up_with_a_card_open_is_proposed_as_a_failure():
    state = mixing()
    state, memory, events, _ = watch(state, GREEN_ON_BLUE, GREEN_ON_BLUE)
    assert events == []
    state, _ = GAME.apply(state, TimerExpired(GAME.timer(state).key))
    assert state.phase == "verdict"
    state, memory, events, _ = watch(state, GREEN_ON_BLUE, memory=memory)
    (proposal,) = events
    assert proposal.success is False and "Time is up with blue still open" in proposal.question


def test_an_unsure_tile_waits_for_a_sure_view_rather_than_guess():
    state = mixing()
    unsure = view((0, None), (1, "blue"), supply=(2, 2, 2, 1, 2, 2), unsure=(1,))
    state, memory, events, _ = watch(state, unsure, unsure)
    (move,) = memory.demo.demo.moves  # the only move that fits what is sure
    assert (move.src, move.dst) == (0, 1) and events == []


def test_a_tile_flickering_into_doubt_does_not_keep_the_view_from_settling():
    state = mixing()
    flicker = view((0, None), (1, "cyan"), (5, "cat"), supply=(2, 2, 2, 1, 2, 2), unsure=(5,))
    state, memory, events, _ = watch(state, GREEN_ON_BLUE, flicker)
    (move,) = memory.demo.demo.moves
    assert (move.src, move.dst) == (0, 1)
    sure_but_different = view((0, None), (1, "cyan"), (5, "green"), supply=(2, 2, 2, 1, 2, 2))
    state, memory, events, _ = watch(mixing(), GREEN_ON_BLUE, sure_but_different)
    assert memory.demo.demo.moves == () and events == []  # two sure readings disagree


def test_a_ring_with_no_cat_is_asked_about_once_it_settles():
    state = mixing()
    no_cat = RingRead(TILES, (0.95,) * 12, ((),) * 12, FULL, (0.95,) * 6)
    state, memory, events, _ = watch(state, no_cat)
    assert events == []
    state, memory, events, cues = watch(state, no_cat, memory=memory)
    (question,) = events
    assert question.success is None and "no cat, or two" in question.question
    assert AskHuman(question.question) in cues


def test_a_view_that_may_hide_a_move_waits_and_is_asked_only_when_time_is_up():
    # the cat (tile 5) may have taken the cyan on tile 3: neither tile is read for sure
    maybe = view((4, None), cat=2, unsure=(2, 4))
    cat_took_cyan = view((2, None), cat=2)
    state, memory, events, _ = watch(mixing(bid=4), maybe, maybe)
    assert events == [] and memory.demo.unsettled
    state, memory, events, _ = watch(state, cat_took_cyan, cat_took_cyan, memory=memory)
    assert [m.kind for m in memory.demo.demo.moves] == ["cat"] and not memory.demo.unsettled
    state, memory, events, _ = watch(mixing(bid=4), maybe, maybe)
    state, _ = GAME.apply(state, TimerExpired(GAME.timer(state).key))
    state, memory, events, _ = watch(state, maybe, memory=memory)
    (question,) = events
    assert question.success is None and "cannot tell the last move" in question.question
    assert "a move or none fit what the camera sees (unsure of tile 3, 5)" in question.question


def test_time_up_on_a_view_not_explained_asks_rather_than_propose_a_failure():
    # green onto blue then cyan onto magenta (3 MP), or blue onto green first (4 MP)
    state, memory, events, _ = watch(mixing(bid=3), CYAN_ON_MAGENTA, CYAN_ON_MAGENTA)
    (question,) = events
    assert question.success is None and "2 different moves fit" in question.question
    state, _ = GAME.apply(state, TimerExpired(GAME.timer(state).key))
    state, memory, events, _ = watch(state, CYAN_ON_MAGENTA, memory=memory)
    (question,) = events
    assert question.success is None and question.question.startswith("Time is up. The camera")
    assert state.demo_result is None
