"""Elios through a real Session: whole games, undo of every step, log replay, the turn timer."""

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.catalogue import load
from companion.clock import FakeClock
from companion.cues import AskHuman, TimeUp
from companion.errors import IllegalMove
from companion.game import GameConfig
from companion.games.elios import JOKER, AddDisc, Pass, PlaceGroup, Ready, SplitGroup
from companion.games.elios.state import BEAMS_PER_COLOUR, DISCS_IN_BOX, JOKERS_IN_BOX
from companion.session import Session, replay
from companion.store import GameLog

GAME = load("elios")


def choose_move(state, rng):
    """A legal move found the way a player would: a group that fits, else a disc, a split."""
    p = state.current
    hand = state.hand(p)
    levels = {}
    for ray in state.rays:
        levels.setdefault(len(ray) + 1, []).append(ray)
    for size in sorted(set(hand.groups), reverse=True):
        for level in sorted(levels):
            if level > state.discs or len(levels[level]) < size:
                continue
            rays = rng.sample(levels[level], size)
            must = state.turn == 0 or hand.jokers > len(hand.groups) - 1
            want_joker = must or (hand.jokers and rng.random() < 0.3)
            beams, used = [], set()
            for i, ray in enumerate(rays):
                top = ray[-1]
                if i == 0 and want_joker and hand.jokers:
                    colour = JOKER
                elif top == JOKER:
                    spare = [
                        c
                        for c in state.colours
                        if c not in used and state.placed(c) < BEAMS_PER_COLOUR - 1
                    ]
                    colour = rng.choice(spare) if spare else None
                else:
                    colour = top if top not in used else None
                    if colour and state.placed(colour) >= BEAMS_PER_COLOUR - 1:
                        colour = None
                if colour is None:
                    break
                used.add(colour)
                beams.append((ray[0], colour))
            else:
                n_jokers = sum(c == JOKER for _, c in beams)
                if (state.turn > 0 or n_jokers) and size - n_jokers <= hand.beams - hand.jokers:
                    return PlaceGroup(p, tuple(beams))
    if state.turn == 0:
        return None
    if state.discs < DISCS_IN_BOX:
        return AddDisc(p)
    big = [g for g in hand.groups if g > 1]
    return SplitGroup(p, rng.choice(big)) if big else single_beam(state) or Pass(p)


def single_beam(state):
    """With only single beams left: one that goes on any ray with room (these players hold
    whatever beam is still off the sun), else None."""
    p, hand = state.current, state.hand(state.current)
    for ray in state.rays:
        if len(ray) >= state.discs:
            continue
        if hand.jokers:
            return PlaceGroup(p, ((ray[0], JOKER),))
        for colour in state.colours if ray[-1] == JOKER else (ray[-1],):
            if state.placed(colour) < BEAMS_PER_COLOUR - 1 and hand.beams > hand.jokers:
                return PlaceGroup(p, ((ray[0], colour),))
    return None


def ready_everyone(session, rng):
    for p in rng.sample(list(session.config.players), len(session.config.players)):
        n = session.state.hand(p).dealt
        groups = []
        while n:
            g = rng.randint(1, min(3, n))
            groups.append(g)
            n -= g
        if len(groups) < session.state.hand(p).jokers:  # jokers need separate groups
            groups = [1] * session.state.hand(p).dealt
        session.submit(Ready(p, tuple(groups)))


def check_invariants(state, dealt_total):
    on_sun = sum(len(ray) - 1 for ray in state.rays)
    in_hands = sum(h.beams for h in state.hands)
    assert on_sun + in_hands == dealt_total
    assert 2 <= state.discs <= DISCS_IN_BOX
    assert all(len(ray) <= max(1, state.discs) for ray in state.rays)
    for c in state.colours:
        assert state.placed(c) <= BEAMS_PER_COLOUR - 1
    assert state.placed(JOKER) <= JOKERS_IN_BOX
    for h in state.hands:
        assert all(1 <= g <= 3 for g in h.groups)
        assert 0 <= h.jokers <= len(h.groups) or not h.ready


def ready_all(state, rng):
    for p in rng.sample(list(state.seats), len(state.seats)):
        n = state.hand(p).dealt
        groups = []
        while n:
            g = rng.randint(1, min(3, n))
            groups.append(g)
            n -= g
        state, _ = GAME.apply(state, Ready(p, tuple(groups)))
    return state


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 10_000), players=st.sampled_from([2, 3, 4]))
def test_random_play_keeps_the_books(seed, players):
    rng = random.Random(seed)
    state = ready_all(GAME.initial_state(GameConfig(tuple(f"p{i}" for i in range(players)))), rng)
    dealt_total = sum(h.dealt for h in state.hands)
    for _ in range(400):
        if GAME.is_over(state):
            break
        state, _ = GAME.apply(state, choose_move(state, rng))
        check_invariants(state, dealt_total)
    assert GAME.is_over(state)  # a win, or a table where nobody can play any more
    winners = GAME.winners(state)
    left = GAME.scores(state)
    sides = [m for _, m in state.teams] or [(p,) for p in state.seats]
    if all(left[w] == 0 for w in winners):  # a real win: exactly one side, all beams placed
        assert tuple(winners) in sides
    else:  # blocked: the fewest beams left win
        best = min(sum(left[p] for p in side) for side in sides)
        assert all(sum(left[p] for p in side) == best for side in sides if side[0] in winners)


@pytest.mark.parametrize("seed, players", [(1, 2), (2, 3), (3, 4)])
def test_session_games_undo_every_step_and_replay_from_the_log(tmp_path, seed, players):
    rng = random.Random(seed)
    names = tuple(f"p{i}" for i in range(players))
    with GameLog(tmp_path / "elios.sqlite") as log:
        session = Session.start(GAME, log, GameConfig(names, seed=seed))
        ready_everyone(session, rng)
        while not GAME.is_over(session.state):
            before = session.state
            session.submit(choose_move(session.state, rng))
            if rng.random() < 0.15:  # every step is one event: undo restores it exactly
                assert session.undo()
                assert session.state == before
                assert session.redo()
        states, _ = replay(GAME, session.config, log.entries(session.game_id))
        assert states[-1] == session.state
        assert log.game(session.game_id).status == "finished"


def test_turn_timer_runs_on_the_clock_and_asks_when_time_is_up(tmp_path):
    clock = FakeClock()
    cues = []
    with GameLog(tmp_path / "t.sqlite") as log:
        config = GameConfig(("ann", "bob"), {"turn_timer": 20})
        s = Session.start(GAME, log, config, clock=clock, sinks=[cues.append])
        s.submit(Ready("bob", (3,) * 5 + (2, 1)))
        s.submit(Ready("ann", (3,) * 5 + (2, 1)))
        assert s.timer is not None and s.timer.remaining() == pytest.approx(20)
        clock.advance(21)
        s.poll()
        assert any(isinstance(c, TimeUp) for c in cues)
        assert any(isinstance(c, AskHuman) for c in cues)
        assert s.state.current == "ann" and s.timer is None
        s.submit(PlaceGroup("ann", (("red", JOKER),)))
        assert s.state.current == "bob" and s.timer.remaining() == pytest.approx(20)
        s.undo()  # back to ann's late turn
        assert s.state.current == "ann" and s.state.overtime
        with pytest.raises(IllegalMove):
            s.submit(AddDisc("ann"))  # the first play still needs a joker
