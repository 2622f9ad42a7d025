"""Random legal Node games: the incremental clusters always match a flood fill from scratch,
no colour is ever controlled twice, and the log replays to the same table."""

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.catalogue import load
from companion.game import GameConfig
from companion.games.node import Discard, PlaceCard
from companion.session import Session, replay
from companion.store import GameLog

GAME = load("node")
COLOURS = ("red", "yellow", "green", "blue", "purple")


def flood_fill(grid):
    """Clusters recomputed from nothing: colour -> sorted sizes, and cell -> cluster id."""
    seen, out = {}, []
    for r, line in enumerate(grid):
        for c, colour in enumerate(line):
            if colour is None or (r, c) in seen:
                continue
            stack, cells = [(r, c)], set()
            seen[(r, c)] = len(out)
            while stack:
                y, x = stack.pop()
                cells.add((y, x))
                for ny, nx in ((y - 1, x), (y + 1, x), (y, x - 1), (y, x + 1)):
                    if (
                        0 <= ny < len(grid)
                        and 0 <= nx < len(line)
                        and (ny, nx) not in seen
                        and grid[ny][nx] == colour
                    ):
                        seen[(ny, nx)] = len(out)
                        stack.append((ny, nx))
            out.append((colour, frozenset(cells)))
    return out


def random_card(rng, n):
    """Cards mostly of two colours, like the printed ones, sometimes more."""
    palette = rng.sample(COLOURS, rng.choice((1, 2, 2, 2, 3)))
    return tuple(rng.choice(palette) for _ in range(n))


def play_randomly(state, rng, moves):
    events = []
    for _ in range(moves):
        if GAME.is_over(state):
            break
        colours = random_card(rng, state.card_width * state.card_height)
        spots = GAME.legal_placements(state, colours)
        if spots:
            row, col, rot = rng.choice(spots)
            e = PlaceCard(state.current, colours, row, col, rot)
        else:
            e = Discard(state.current, (colours,))
        before = state
        state, _ = GAME.apply(state, e)
        events.append(e)
        check(before, state)
    return state, events


def check(before, state):
    scratch = flood_fill(state.grid)
    assert sorted((c, sorted(cells)) for c, cells in scratch) == sorted(
        (k.colour, sorted(k.cells)) for k in state.clusters
    )
    for colour in state.colours:
        owned = [k for k in state.clusters if k.colour == colour and k.owner]
        assert len(owned) <= 1
    # nodes never change colour and never disappear
    for r, line in enumerate(before.grid):
        for c, colour in enumerate(line):
            if colour is not None:
                assert state.grid[r][c] == colour
    # a capture always lands on a cluster strictly larger than every other of its colour
    for k in state.clusters:
        if k.owner and before.owner_of(k.colour) != k.owner:
            assert all(
                k.size > o.size for o in state.clusters if o.colour == k.colour and o is not k
            )


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 100_000), shape=st.sampled_from([(3, 2), (2, 1), (2, 2)]))
def test_random_play_keeps_clusters_and_control_honest(seed, shape):
    rng = random.Random(seed)
    w, h = shape
    state = GAME.initial_state(
        GameConfig(
            ("ann", "bob"), {"table_width": 9, "table_height": 7, "card_width": w, "card_height": h}
        )
    )
    play_randomly(state, rng, 30)


@settings(
    max_examples=8, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(seed=st.integers(0, 100_000))
def test_replaying_the_log_reproduces_the_table(tmp_path, seed):
    rng = random.Random(seed)
    config = GameConfig(("ann", "bob"), {"table_width": 10, "table_height": 8, "deck": 24})
    with GameLog(tmp_path / f"node-{seed}.sqlite") as log:
        session = Session.start(GAME, log, config)
        _, events = play_randomly(GAME.initial_state(config), rng, 24)
        for e in events:
            session.submit(e)
        states, _ = replay(GAME, config, log.entries(session.game_id))
        assert states[-1] == session.state
        assert GAME.is_over(states[-1])  # 24 cards played or discarded, or five colours


def test_legal_placements_agree_with_the_placement_check():
    from companion.errors import IllegalMove
    from companion.games.node.geometry import distinct_rotations

    rng = random.Random(5)
    state = GAME.initial_state(GameConfig(("a", "b"), {"table_width": 9, "table_height": 7}))
    for _ in range(25):
        if GAME.is_over(state):  # five colours won
            break
        colours = random_card(rng, 6)
        fast = set(GAME.legal_placements(state, colours))
        slow = set()
        for rot in distinct_rotations(colours, 2, 3):
            for r in range(-2, 9):
                for c in range(-2, 11):
                    try:
                        GAME.check_placement(state, colours, r, c, rot)
                    except IllegalMove:
                        continue
                    slow.add((r, c, rot))
        assert fast == slow
        if fast:
            r, c, rot = rng.choice(sorted(fast))
            state, _ = GAME.apply(state, PlaceCard(state.current, colours, r, c, rot))
