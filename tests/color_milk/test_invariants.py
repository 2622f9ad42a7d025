"""Whole random games: the mill stays possible, cycles are 3 rounds, the log replays exactly."""

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.events import BallSeen
from companion.game import GameConfig
from companion.games.color_milk import GAME
from companion.games.color_milk.autoplay import ScriptedTable
from companion.games.color_milk.mill import COLOURS, FULL_MILL, possible
from companion.session import Session, replay
from companion.store import GameLog

NAMES = ("Anna", "Ben", "Cleo", "Dan", "Eve")


def noisy_reader(rng):
    """A camera that is sometimes unsure, and wrong only when unsure (a confident misread
    is a fact to the rules; undo is the cure for that, tested elsewhere)."""

    def read(balls):
        out = []
        for slot, colour in enumerate(balls):
            r = rng.random()
            if r < 0.1:
                out.append(BallSeen(rng.choice(("purple", "pink")), slot, 0.7))  # misread
            elif r < 0.2:
                out.append(BallSeen(colour, slot, 0.5))  # unsure
            out.append(BallSeen(colour, slot, 0.95))
        rng.shuffle(out)
        return out

    return read


def check_invariants(s, remix_after):
    assert possible(s.mill) and possible(s.inside)
    assert min(s.inside) >= 0 and sum(s.inside) + sum(s.base) + len(s.known) <= 20
    assert 1 <= s.cycle_round <= 3 and s.cycle_round == (s.round - 1) % 3 + 1
    if s.phase == "remix" and (not remix_after or remix_after[-1] != s.round):
        remix_after.append(s.round)
        assert s.mill != FULL_MILL and sum(s.mill) == 5 and sum(s.base) == 15


def check_final(final, remix_after):
    assert GAME.is_over(final)
    assert GAME.winners(final)
    assert remix_after == list(range(3, final.round, 3))  # every cycle is 3 rounds
    for start in range(0, len(final.history), 3):  # each cycle's balls fit the box
        cycle = [b for rec in final.history[start : start + 3] for b in rec.balls]
        assert all(cycle.count(c) <= n for c, n in zip(COLOURS, FULL_MILL, strict=True))


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), players=st.integers(1, 5), board=st.integers(1, 6))
def test_random_games_keep_the_mill_possible(seed, players, board):
    rng = random.Random(seed)
    box = {"state": GAME.initial_state(GameConfig(NAMES[:players], {"board": board}))}
    remix_after = []

    def submit(ev):
        if not GAME.is_news(box["state"], ev):
            return ()
        box["state"], cues = GAME.apply(box["state"], ev)
        check_invariants(box["state"], remix_after)
        return cues

    table = ScriptedTable(submit, lambda: box["state"], rng, read=noisy_reader(rng))
    # A solo player whose areas rarely pay coins can take long; the game must still end.
    check_final(table.play(max_rounds=400), remix_after)


@settings(
    max_examples=4, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(seed=st.integers(0, 2**32 - 1), players=st.integers(1, 5), board=st.integers(1, 6))
def test_replaying_the_log_reproduces_the_state(tmp_path, seed, players, board):
    rng = random.Random(seed)
    config = GameConfig(NAMES[:players], {"board": board}, seed=seed)
    path = tmp_path / f"g{seed}-{players}-{board}.sqlite3"
    with GameLog(path) as log:
        session = Session.start(GAME, log, config)
        seen_states = []
        remix_after = []

        def submit(ev):
            if not GAME.is_news(session.state, ev):
                return ()
            cues = session.submit(ev)
            seen_states.append(session.state)
            check_invariants(session.state, remix_after)
            return cues

        table = ScriptedTable(submit, lambda: session.state, rng, read=noisy_reader(rng))
        final = table.play(max_rounds=400)
        check_final(final, remix_after)
        game_id = session.game_id
    with GameLog(path) as log:  # reopen: a game is its log
        resumed = Session.resume(GAME, log, game_id)
        assert resumed.state == final
        states, _ = replay(GAME, config, log.entries(game_id))
        assert states[1:] == seen_states
        assert log.game(game_id).status == "finished"
        assert log.game(game_id).result["winners"] == list(GAME.winners(final))


def test_undo_of_every_step_restores_the_previous_state(tmp_path):
    rng = random.Random(7)
    config = GameConfig(NAMES[:3], {"board": 5})
    with GameLog(tmp_path / "u.sqlite3") as log:
        session = Session.start(GAME, log, config)
        history = [session.state]

        def submit(ev):
            if not GAME.is_news(session.state, ev):
                return ()
            cues = session.submit(ev)
            history.append(session.state)
            return cues

        ScriptedTable(submit, lambda: session.state, rng).play(max_rounds=4)
        for before in reversed(history[:-1]):
            assert session.undo()
            assert session.state == before
        assert not session.can_undo
