"""The camera link serves every game's readers: the Laser ring and the Node table are read
from the simulated table's camera through the real runtime, as the strip's "lay" and
"reveal" change the scene; the readers sleep off screen and stop when the game leaves."""

import threading
import time
from collections import Counter

import cv2
import pytest

from companion import cues as C
from companion.events import ButtonPressed
from companion.game import GameConfig
from companion.games.color_milk import GAME as MILK
from companion.games.laser import GAME as LASER
from companion.games.laser.events import BidPlaced, BoardEntered, CardRevealed
from companion.games.laser.read_ring import RING
from companion.games.laser.sim.ring import SimulatedRing
from companion.games.node import GAME as NODE
from companion.games.node.events import CardProposed, PlaceCard
from companion.games.node.simtable import truth
from companion.runtime import Runtime
from companion.runtime.sim_scene import SimulatedScene
from companion.session import Session
from companion.store import GameLog

WAIT = 90  # seconds: the first calibration of a rendered table, on a busy machine


def ring_of(scene):
    """The simulated table's Laser ring (Laser's part of the scene)."""
    return scene.part("laser").ring


def node_of(scene):
    """The simulated table's Node table (Node's part of the scene)."""
    return scene.part("node").node


def table(tmp_path, game, config, **runtime):
    """A runtime with the simulated camera looking at the scene, `game` in play; and every
    event it submits from a reading, and every cue."""
    rt = Runtime(camera_source="simulated", **runtime)
    rt.scene = SimulatedScene("daylight")
    events, cues = [], []
    rt.subscribe(on_event=events.append, on_cue=cues.append)
    session = Session.start(game, GameLog(tmp_path / "log.db"), config)
    rt.play(session)
    return rt, session, events, cues


@pytest.mark.slow
def test_a_laser_board_revealed_and_laid_on_the_simulated_table_is_entered_by_the_camera(
    tmp_path,
):
    rt, session, events, cues = table(
        tmp_path, LASER, GameConfig(("Ann", "Bo", "Cy"), {"mode": "team", "cards": 2})
    )
    try:
        planning = rt.changed_to(lambda s: s.phase == "planning")
        for _ in range(2):  # the strip's "Reveal": a prism card in the centre, read there
            rt.simulated_hand("reveal")
            revealed = len(ring_of(rt.scene).cards)
            assert rt.changed_to(lambda s, n=revealed: len(s.cards) == n).wait(WAIT)
        assert planning.wait(5)
        assert [c for c, _ in session.state.cards] == list(ring_of(rt.scene).cards)
        entered = rt.changed_to(lambda s: s.board is not None)
        assert entered.wait(WAIT)  # the ring, read once the cards are out
        board = ring_of(rt.scene).board
        tiles, _floors, cat, supply = session.state.board
        assert tiles == tuple(None if t == "cat" else t for t in board.tiles)
        assert board.tiles[cat] == "cat"
        assert supply == tuple(
            board.spares[c] for c in ("red", "yellow", "green", "cyan", "blue", "magenta")
        )
        assert sum(isinstance(e, BoardEntered) for e in events) == 1  # read once, not a stream
        assert not LASER.readers(session.state)  # the board is known: nothing more to read ...
        assert eventually(lambda: rt.camera.feed.paused)  # ... and no frames are taken
    finally:
        rt.close()


def test_the_next_rounds_ring_is_the_refilled_board():
    from companion.games.laser.sim.ring import Demonstrated

    ring = SimulatedRing(seed=3)
    ring.start()
    for number in range(2, 8):
        before = ring.board
        ring.demonstrate(Demonstrated("team", (("cyan", None), ("blue", None))))
        ring.next_round(number)
        after = ring.board
        assert after.tiles.index("cat") == before.tiles.index("cat")  # the cat stays
        assert ring.round == number and ring.cards == ()

        def held(board, aside):
            figures = Counter(t for t in board.tiles if t not in (None, "cat"))
            figures.update({c: n for c, n in board.spares.items()})
            figures.update(("red", "yellow", "green", "cyan", "blue", "magenta")[c] for c in aside)
            return figures

        # every figure taken off came back: onto its card, a tile, or aside for later
        assert held(after, ring.aside) - held(before, ()) == Counter()
        assert max(held(after, ring.aside).values()) <= 4
        assert all(n <= 2 for n in after.spares.values())


@pytest.mark.slow
def test_a_node_card_laid_on_the_simulated_table_reaches_the_session(tmp_path):
    rt, session, events, cues = table(tmp_path, NODE, GameConfig(("Ann", "Bo")))
    try:
        for turn in range(3):
            state = session.state
            news = rt.changed_to(lambda s, n=state.played: s.played > n or s.proposal)
            rt.simulated_hand("lay")  # the strip's "Lay card": the current player's next card
            assert news.wait(WAIT)
            laid = node_of(rt.scene).table.cards[-1]
            reading = [e for e in events if isinstance(e, (PlaceCard, CardProposed))][-1]
            assert reading.player == state.current
            want = {
                (laid.row + r, laid.col + c): colour
                for r, line in enumerate(laid.colours)
                for c, colour in enumerate(line)
            }
            got = truth(reading.colours, reading.row, reading.col, reading.rotation)
            assert got == want  # the card where it lies, with its colours
            if session.state.proposal is not None:  # asked: one press of "next" confirms
                rt.post(ButtonPressed("next"))
                assert rt.changed_to(lambda s, n=turn: s.played == n + 1).wait(10)
        assert session.state.played == 3
        assert any(isinstance(c, C.Announce) and "lays" in c.text for c in cues)
    finally:
        rt.close()


@pytest.mark.slow
def test_a_colour_milk_prediction_laid_and_revealed_on_the_simulated_table_is_read(tmp_path):
    from companion.events import BallSeen

    rt, session, events, cues = table(tmp_path, MILK, GameConfig(("Ann", "Bo")))
    try:
        rt.simulated_hand("lay")  # face down for Ann, while the mill turns
        assert rt.scene.tray.laid("seat1") == ("back",)
        for slot, colour in enumerate(("blue", "pink", "orange", "green", "blue")):
            rt.submit(BallSeen(colour, slot, 1.0))
        assert session.state.phase == "check"
        rt.simulated_hand("reveal")
        (shown,) = rt.scene.tray.laid("seat1")
        assert rt.changed_to(lambda s: s.player("Ann").prediction == (shown,)).wait(WAIT)
    finally:
        rt.close()


@pytest.mark.slow
def test_readers_sleep_while_no_game_is_on_screen_and_stop_with_the_game(tmp_path):
    others = set(threading.enumerate())
    rt, session, events, cues = table(tmp_path, NODE, GameConfig(("Ann", "Bo")))
    try:
        camera = rt.camera
        assert camera.reading.wait(WAIT)
        camera.sleep()
        time.sleep(0.5)  # a frame already taken may still be read
        asleep = camera.feed.frames_read
        time.sleep(1.0)
        assert camera.feed.frames_read == asleep  # no frames, no reading
        rt.simulated_hand("lay")  # laid while the home screen was up ...
        camera.wake()
        assert rt.changed_to(lambda s: s.played == 1 or s.proposal).wait(WAIT)  # ... seen
        threads = [t for t in set(threading.enumerate()) - others if t.name == "vision"]
        assert threads  # the camera's reader
    finally:
        rt.close()
    for t in threads:
        t.join(timeout=5)
        assert not t.is_alive()
    assert rt.camera is None


def test_a_real_camera_without_a_ring_calibration_says_how_to_calibrate_once(tmp_path):
    from vision.render.ring import render_ring
    from vision.render.ring_board import RingBoard

    folder = tmp_path / "camera"
    folder.mkdir()
    tiles = ("cat",) + ("red", "yellow", "green", "cyan", "blue", "magenta") * 2
    cv2.imwrite(str(folder / "ring.png"), render_ring(RingBoard(tiles[:12])))
    rt = Runtime(camera_source=str(folder), calibration_file=tmp_path / "camera.json")
    cues = []
    rt.subscribe(on_cue=cues.append)
    session = Session.start(
        LASER,
        GameLog(tmp_path / "log.db"),
        GameConfig(("Ann", "Bo", "Cy"), {"mode": "team", "cards": 2}),
    )
    rt.play(session)
    try:
        from companion.events import CardSeen

        for colour in ("red", "cyan"):
            rt.submit(CardSeen("centre", colour, 1.0))  # tapped in: the ring is wanted now
        said = [RING.how_to]
        deadline = time.monotonic() + WAIT
        while time.monotonic() < deadline and not any(c.text in said for c in _texts(cues)):
            time.sleep(0.1)
        time.sleep(1.0)  # more frames go by: it is not said again
        assert sum(c.text in said for c in _texts(cues)) == 1
        assert rt.camera.feed.paused  # no reader it could run: the camera is off
        assert session.state.board is None  # the game goes on by touch
        session.submit(BoardEntered(tuple(None if t == "cat" else t for t in tiles[:12]), 0))
        assert session.state.board is not None
    finally:
        rt.close()


def reveal_both(rt) -> None:
    """The strip's "Reveal" twice, each prism card read into the state before the next."""
    for _ in range(2):
        rt.simulated_hand("reveal")
        revealed = len(ring_of(rt.scene).cards)
        assert rt.changed_to(lambda s, n=revealed: len(s.cards) == n).wait(WAIT)


def eventually(condition, seconds: float = 10.0) -> bool:
    deadline = time.monotonic() + seconds
    while not condition() and time.monotonic() < deadline:
        time.sleep(0.05)
    return condition()


def _texts(cues):
    return [c for c in cues if isinstance(c, C.Announce)]


def test_a_new_laser_round_gathers_the_prism_cards_and_refills_the_ring():
    from dataclasses import replace

    scene = SimulatedScene()
    state = LASER.initial_state(GameConfig(("Ann", "Bo", "Cy"), {"mode": "team", "cards": 2}))
    scene.play("laser", state)
    reveal = {"cards"}  # the card reader is wanted while the prism cards are revealed
    scene.follow(state, reveal)
    assert scene.frame(0) is scene.tray.frame(0)  # the camera looks at the centre
    assert "revealed" in scene.act("reveal", state, reveal)
    assert scene.act("reveal", state, {"ring"}).startswith("The prism cards are revealed at")
    assert len(scene.tray.laid("centre")) == 1
    first = ring_of(scene).board
    scene.follow(replace(state, phase="planning"), {"ring"})
    assert scene.frame(0) is ring_of(scene).frame(0)  # ... then at the ring
    assert ring_of(scene).board == first
    cards = tuple((c, None) for c in ring_of(scene).cards) + (("blue", None),)
    scene.follow(replace(state, phase="mixing", cards=cards), {"ring"})  # the pair mix ...
    scene.follow(replace(state, round=2), reveal)
    assert ring_of(scene).round == 2 and ring_of(scene).board != first  # ... and the table changed
    assert scene.tray.laid("centre") == () and ring_of(scene).cards == ()


@pytest.mark.slow
def test_competitive_prism_cards_revealed_by_the_strip_are_read_with_their_floors(tmp_path):
    rt, session, _events, _cues = table(
        tmp_path, LASER, GameConfig(("Ann", "Bo"), {"mode": "competitive", "cards": 2})
    )
    try:
        for _ in range(2):
            rt.simulated_hand("reveal")
            revealed = len(ring_of(rt.scene).cards)
            assert rt.changed_to(lambda s, n=revealed: len(s.cards) == n).wait(WAIT)
        laid = [tuple(card.split(":")) for card in ring_of(rt.scene).cards]
        assert all(len(card) == 2 for card in laid)  # each competitive card shows its floor
        assert list(session.state.cards) == laid
    finally:
        rt.close()


@pytest.mark.slow
def test_a_later_laser_round_checks_the_refill_then_reads_the_cards(tmp_path):
    from companion.events import TimerExpired
    from companion.games.laser.events import RefillSeen, RoundResult

    rt, session, events, _cues = table(
        tmp_path, LASER, GameConfig(("Ann", "Bo", "Cy"), {"mode": "team", "cards": 2})
    )

    try:
        reveal_both(rt)
        assert rt.changed_to(lambda s: s.board is not None).wait(WAIT)
        rt.submit(TimerExpired(LASER.timer(session.state).key))
        for name, bid in (("Ann", 5), ("Bo", 5), ("Cy", 9)):
            rt.submit(BidPlaced(name, bid))
        # while the pair mix, the camera sees the table the round leaves (the refill's start)
        assert eventually(lambda: getattr(rt._memory.refill, "ended", None) is not None, WAIT)
        rt.submit(RoundResult(False))  # the pair failed: the round ends on any board
        assert session.state.round == 2 and session.state.phase == "reveal"
        assert eventually(lambda: RefillSeen("ready") in events, WAIT)  # the ring, refilled
        reveal_both(rt)  # then the prism cards, read by the camera a moment after they lie
        assert eventually(
            lambda: [c for c, _ in session.state.cards] == list(ring_of(rt.scene).cards), WAIT
        )
    finally:
        rt.close()


def _laser_round(scene, state, submit, claim_if_impossible=True):
    """One competitive round on the simulated table as people play it: two prism cards
    revealed from the strip, the board entered as it lies (floors as the box lays them), the
    cheapest solution bid and demonstrated; Impossible! when there is none. Returns whether
    the round could be done."""
    from companion.events import TimerExpired
    from companion.games.laser.board import COLOURS
    from companion.games.laser.events import CardRevealed, ImpossibleClaimed, RoundResult
    from companion.games.laser.sim.ring import DEFAULT_FLOORS
    from companion.games.laser.solver import solve

    for _ in range(2):
        scene.act("reveal", state(), {"cards"})
    for card in ring_of(scene).cards:
        colour, _, floor = card.partition(":")
        submit(CardRevealed(colour, floor))
    ring = ring_of(scene).board
    tiles = tuple(None if t == "cat" else t for t in ring.tiles)
    spares = tuple(ring.spares[c] for c in COLOURS)
    submit(BoardEntered(tiles, ring.tiles.index("cat"), spares, DEFAULT_FLOORS))
    sol = solve(LASER.position(state()), totals=False)
    if sol.min_cost is None:
        submit(ImpossibleClaimed(state().players[0]))
    else:
        submit(BidPlaced(state().players[state().round % 2], sol.min_cost))
    submit(TimerExpired(LASER.timer(state()).key))
    if sol.min_cost is not None:
        submit(RoundResult(True))
    return sol.min_cost is not None


@pytest.mark.parametrize("seed", [0, 5])
def test_a_simulated_competitive_game_is_played_to_15_without_typing_a_board(seed):
    # the players demonstrate the cheapest solution, the refill puts the figures back as the
    # rulebook says: the ring stays full and the game reaches 15 points in a few rounds

    scene = SimulatedScene()
    scene.rng.seed(seed)
    ring_of(scene).rng.seed(seed)
    game = {"state": LASER.initial_state(GameConfig(("Ann", "Bo"), {"mode": "competitive"}))}

    def submit(event):
        game["state"], _ = LASER.apply(game["state"], event)
        s = game["state"]
        scene.follow(s, {"cards"} if s.phase == "reveal" else {"ring"})

    scene.play("laser", game["state"])
    scene.follow(game["state"], {"cards"})
    done, figures = [], []
    while not game["state"].over and len(done) < 12:
        figures.append(sum(t not in (None, "cat") for t in ring_of(scene).board.tiles))
        done.append(_laser_round(scene, lambda: game["state"], submit))
    assert game["state"].over, (done, figures, game["state"].scores)
    assert max(game["state"].scores) >= 15
    assert done.count(False) <= 1, done
    assert min(figures) >= 9, figures  # the tiles do not empty round after round


def test_a_round_ended_by_an_undisputed_impossible_claim_leaves_the_ring_as_it_was():
    from companion.events import TimerExpired
    from companion.games.laser.events import ImpossibleClaimed

    scene = SimulatedScene()
    state = LASER.initial_state(GameConfig(("Ann", "Bo", "Cy"), {"mode": "team"}))
    scene.play("laser", state)
    for card in ("red", "red"):
        ring_of(scene).reveal(card)
        state, _ = LASER.apply(state, CardRevealed(card))
    before = ring_of(scene).board
    for event in (ImpossibleClaimed("Ann"), None):
        event = event or TimerExpired(LASER.timer(state).key)
        state, _ = LASER.apply(state, event)
        scene.follow(state, {"ring"})
    assert state.round == 2
    assert ring_of(scene).round == 2 and ring_of(scene).board == before  # nobody moved a figure


@pytest.mark.slow
def test_after_an_undisputed_impossible_claim_the_next_prism_cards_are_read(tmp_path):
    from companion.events import TimerExpired
    from companion.games.laser.events import ImpossibleClaimed, RefillSeen

    rt, session, events, _cues = table(
        tmp_path, LASER, GameConfig(("Ann", "Bo", "Cy"), {"mode": "team", "cards": 2})
    )

    try:
        reveal_both(rt)
        assert rt.changed_to(lambda s: s.board is not None).wait(WAIT)
        rt.submit(ImpossibleClaimed("Bo"))
        rt.submit(TimerExpired(LASER.timer(session.state).key))  # nobody disagreed
        assert session.state.round == 2 and session.state.phase == "reveal"
        assert eventually(lambda: RefillSeen("ready") in events, WAIT), events
        reveal_both(rt)  # the camera reads them: nothing to tap
        assert [c for c, _ in session.state.cards] == list(ring_of(rt.scene).cards)
        assert session.state.phase == "planning"
    finally:
        rt.close()


@pytest.mark.slow
def test_a_competitive_game_on_the_simulated_table_is_played_to_15_by_the_camera(tmp_path):
    """Hands-free but for the floors set once: the strip reveals the cards, the camera reads
    them, the ring and each refill; the players bid the cheapest solution and do it."""
    from companion.events import TimerExpired
    from companion.games.laser.events import ImpossibleClaimed, RoundResult
    from companion.games.laser.sim.ring import DEFAULT_FLOORS
    from companion.games.laser.solver import solve

    rt, session, events, _cues = table(
        tmp_path, LASER, GameConfig(("Ann", "Bo"), {"mode": "competitive", "cards": 2})
    )
    typed = 0
    try:
        while not session.state.over:
            assert session.state.round <= 12, session.state.scores
            for _ in range(2):
                rt.simulated_hand("reveal")
                n = len(ring_of(rt.scene).cards)
                assert rt.changed_to(lambda s, n=n: len(s.cards) == n).wait(WAIT), events[-3:]
            known = rt.changed_to(lambda s: s.board is not None or s.proposed_board is not None)
            assert known.wait(WAIT)
            if session.state.board is None:  # the floors are set once on the board editor
                typed += 1
                draft = session.state.proposed_board
                tiles = tuple(None if t == "cat" else t for t in draft.tiles)
                cat = draft.tiles.index("cat")
                rt.submit(BoardEntered(tiles, cat, draft.supply, DEFAULT_FLOORS))
            sol = solve(LASER.position(session.state), totals=False)
            players = session.state.players
            if sol.min_cost is None:
                rt.submit(ImpossibleClaimed(players[0]))
                rt.submit(TimerExpired(LASER.timer(session.state).key))
                continue
            rt.submit(BidPlaced(players[session.state.round % 2], sol.min_cost))
            rt.submit(TimerExpired(LASER.timer(session.state).key))
            rt.submit(RoundResult(True))
        assert max(session.state.scores) >= 15 and typed == 1
    finally:
        rt.close()


@pytest.mark.slow
def test_a_board_typed_by_hand_is_not_replaced_by_the_camera_next_round(tmp_path):
    """The camera read the ring; a person typed another board (one figure otherwise). After
    an undisputed Impossible! nothing moved: next round the typed board is entered again,
    not the camera's reading, and the app says where they differ."""
    from companion.events import TimerExpired
    from companion.games.laser.events import ImpossibleClaimed

    rt, session, events, cues = table(
        tmp_path, LASER, GameConfig(("Ann", "Bo", "Cy"), {"mode": "team", "cards": 2})
    )

    try:
        reveal_both(rt)
        assert rt.changed_to(lambda s: s.board is not None).wait(WAIT)
        tiles, _floors, cat, supply = session.state.board
        k = next(i for i, t in enumerate(tiles) if t is not None)
        mine = tiles[:k] + (None,) + tiles[k + 1 :]  # the person says tile k is empty
        rt.submit(BoardEntered(mine, cat, supply))
        rt.submit(ImpossibleClaimed("Bo"))
        rt.submit(TimerExpired(LASER.timer(session.state).key))
        assert session.state.round == 2
        reveal_both(rt)
        assert rt.changed_to(lambda s: s.board is not None).wait(WAIT)
        assert session.state.board[0] == mine  # the typed board, entered again
        said = [c.text for c in _texts(cues) if "otherwise than the board typed in" in c.text]
        assert said and f"tile {k + 1} " in said[0]
    finally:
        rt.close()


def test_the_nudged_camera_warps_each_picture_once():
    """Five frames a second of a tray nobody touches: the nudged camera's view of it is
    warped once, not once a frame; a ball rolling in is a new picture, seen anew."""
    scene = SimulatedScene(nudge=True)
    scene.play("color-milk", MILK.initial_state(GameConfig(("Ann", "Bo"))))
    first = scene.frame(0)
    assert scene.frame(1) is first
    scene.tray.add("blue")
    moved = scene.frame(2)
    assert moved is not first and scene.frame(3) is moved
    straight = scene.tray.frame(3)
    assert moved.shape == straight.shape and (moved != straight).any()  # still nudged
