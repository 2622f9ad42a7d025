"""`companion demo laser`: whole rounds on the simulated table, cards and ring read by the
camera through the real runtime, the demonstration watched, the refill laid with a misplaced
figure and checked."""

import random
from itertools import permutations

import pytest

from companion.cli import main
from companion.games.laser.board import TILES
from companion.games.laser.refill import refill
from companion.games.laser.sim.demo import run_demo
from companion.games.laser.sim.simtable import SimulatedLaserTable


@pytest.mark.parametrize(("mode", "seed"), [("team", 3), ("competitive", 1)])
def test_two_rounds_read_by_the_camera_with_a_misplaced_figure_named(tmp_path, mode, seed):
    out = run_demo(tmp_path, mode=mode, rounds=2, seed=seed, misplace_every=1)
    assert out["rounds"] == 2 and out["refused"] == []
    assert out["silent_misreads"] == 0
    cards, tiles, refills = out["cards"], out["tiles"], out["refills"]
    assert cards["misread"] == tiles["misread"] == tiles["spares_misread"] == 0
    assert cards["read"] + cards["asked"] + cards["tapped_refill_unconfirmed"] == 4
    assert tiles["read"] + tiles["asked"] == 2 * TILES
    assert cards["read"] >= 3 and tiles["read"] >= 20  # the camera did the work
    # round 2's refill: one figure misplaced, named by the app, put right, then confirmed
    assert refills["misplaced"] == 1 and refills["misjudged"] == 0
    assert refills["misplaced_named"] == 1 and refills["checked"] == 1
    (named,) = out["named"]
    assert named.startswith(("Tile ", "The ")) and " should " in named
    if mode == "competitive":
        assert cards["floors_asked"] == 4  # the rendered cards carry no floor pattern
        assert out["referee"]["proposals_right"] == 2
    referee = out["referee"]
    assert referee["demonstrations_replayed"] + referee["impossible_rounds"] == 2
    assert referee["demonstrations_wrong"] == 0
    # each demonstration played on the table is watched; a result proposed is never wrong
    shown = out["demonstrations"]
    assert shown["watched"] == referee["demonstrations_replayed"] >= 1
    assert shown["wrong"] == 0
    assert (
        shown["decoded"] + shown["asked"] + shown["nothing_said"] + shown["next_lost"]
        == (shown["watched"])
    )
    assert shown["decoded"] >= 1  # the camera scored at least one round with one press
    assert out["camera"]["ring_frames_read"] > 0 and out["camera"]["card_frames_read"] > 0


def test_the_simulated_table_slips_only_where_the_rules_see_a_wrong_refill():
    """Every slip leaves a table that no order of the refill could give, and is undone."""
    kinds = set()
    for seed in range(40):
        rng = random.Random(seed)
        table = SimulatedLaserTable("team", "daylight", seed)
        tiles = [t for t in range(TILES) if t != table.cat]
        removed = []
        for _ in range(rng.randint(1, 2)):  # mixes: two figures off, a product from its card
            src, dst = rng.sample([t for t in tiles if table.tiles[t] is not None], 2)
            removed += [table.tiles[src], table.tiles[dst]]
            table.tiles[src] = table.tiles[dst] = None
            product = rng.choice([c for c in range(6) if table.supply[c] > 0])
            table.supply[product] -= 1
            table.tiles[dst] = product
        if rng.random() < 0.5:  # the cat took one
            t = rng.choice([t for t in tiles if table.tiles[t] is not None])
            removed.append(table.tiles[t])
            table.tiles[t], table.cat = None, t
        if rng.random() < 0.4:  # a figure went back into the box: an empty tile to spare
            t = rng.choice([t for t in tiles if table.tiles[t] is not None])
            table.tiles[t] = None
        before = table.table()
        plan, slip = table.lay_refill(list(removed), slip=True)
        if not plan.placements:
            assert slip is None
            continue
        kinds.add(slip.kind)
        legal = {refill(before, order).table for order in permutations(removed)}
        assert table.table() not in legal
        table.undo_slip(slip)
        assert table.table() == plan.table
    assert kinds == {"wrong tile", "wrong figure", "forgotten"}


def test_bad_options_are_one_line_errors(capsys):
    assert main(["demo", "laser", "--mode", "solo"]) == 2
    assert main(["demo", "laser", "--rounds", "0"]) == 2
    err = capsys.readouterr().err
    assert "demo laser" in err and "--rounds must be 1-50" in err
