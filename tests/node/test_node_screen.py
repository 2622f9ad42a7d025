"""The Node screen used as a person would: paint a card, touch the table, place; screenshots."""

import pytest

from companion.catalogue import load  # noqa: E402
from companion.clock import FakeClock  # noqa: E402
from companion.game import GameConfig  # noqa: E402
from companion.games.node import PlaceCard  # noqa: E402
from companion.games.node.geometry import footprint  # noqa: E402
from companion.session import Session  # noqa: E402
from companion.ui.context import AppContext  # noqa: E402
from companion.ui.render import ensure_window, pump  # noqa: E402
from companion.ui.widgets import MIN_TOUCH, BigButton  # noqa: E402

pytestmark = pytest.mark.ui
GAME = load("node")
C = {"r": "red", "y": "yellow", "g": "green", "b": "blue", "p": "purple"}


def card(letters):
    return tuple(C[x] for x in letters.replace("/", ""))


def make_screen(data_dir, **options):
    from companion.games.node.screen import NodeScreen

    ctx = AppContext.open(data_dir)
    config = GameConfig(("Anna", "Ben"), {"deck": 30, **options})
    session = Session.start(GAME, ctx.log, config, clock=FakeClock())
    return NodeScreen(ctx=ctx, session=session), session


def paint(screen, letters):
    """Tap palette colours and card nodes, as a player does."""
    for i, x in enumerate(letters.replace("/", "")):
        screen._choose_paint(C[x])
        screen.editor.children[::-1][i].dispatch("on_release")


def touch_cell(screen, row, col):
    """A real touch on the table, through the window."""
    from kivy.tests.common import UnitTestTouch

    window = ensure_window()
    window.add_widget(screen)
    screen.size_hint, screen.size, screen.pos = (None, None), (800, 480), (0, 0)
    try:
        pump()
        if not screen.table.shown(row, col):
            drag_table_to(screen.table, row, col)
        x, y, cell = screen.table.cell_rect(row, col)
        touch = UnitTestTouch(x + cell / 2, y + cell / 2)
        touch.touch_down()
        touch.touch_up()
    finally:
        window.remove_widget(screen)


def drag_table_to(table, row, col):
    """Drag the table, from a spot off the card, until (row, col) is in view."""
    from kivy.tests.common import UnitTestTouch

    r0, c0, rows, cols = table.view()
    cell = table.cell_size()
    dr = min(0, row - r0) or max(0, row - (r0 + rows - 1))
    dc = min(0, col - c0) or max(0, col - (c0 + cols - 1))
    start = next(
        (x + cell / 2, y + cell / 2)
        for r in range(r0, r0 + rows)
        for c in range(c0, c0 + cols)
        if (r, c) not in table.preview
        for x, y, _ in [table.cell_rect(r, c)]
    )
    touch = UnitTestTouch(*start)
    touch.touch_down()
    touch.touch_move(start[0] - dc * cell, start[1] + dr * cell)
    touch.touch_up()
    pump(1)
    assert table.shown(row, col), (row, col, table.view())


def test_paint_a_card_touch_the_table_and_place_it(data_dir):
    screen, session = make_screen(data_dir)
    assert "enter the card's colours (6 to go)" in screen.reason_label.text
    paint(screen, "rrr/bbb")
    assert screen.card == list(card("rrr/bbb"))
    assert screen.table.preview_ok  # shown in the middle, where the first card goes
    touch_cell(screen, 0, 0)
    assert "edge" in screen.reason_label.text  # centred on the corner it hangs off
    touch_cell(screen, 2, 2)
    assert not screen.table.preview_ok
    assert "middle" in screen.reason_label.text
    touch_cell(screen, *session.state.middle)
    assert screen.table.preview_ok
    screen.place_button.dispatch("on_release")
    assert session.state.played == 1
    assert screen.card == [None] * 6  # ready for the next card
    assert GAME.current_player(session.state) == "Ben"


def test_invalid_spot_shows_red_with_the_reason_and_place_is_refused(data_dir, docs_shot):
    screen, session = make_screen(data_dir)
    session.submit(PlaceCard("Anna", card("rrr/bbb"), 6, 9))
    screen.refresh()
    screen.set_card(card("ggg/yyy"))
    touch_cell(screen, 7, 10)  # centre on the blue row: green cannot cover blue
    assert not screen.table.preview_ok
    assert "cannot cover a blue node" in screen.reason_label.text
    path = docs_shot(screen, "node-invalid")
    import cv2

    img = cv2.imread(str(path))
    x, y, cell = screen.table.cell_rect(7, 10)
    # the preview's red edge is drawn there (image rows run top-down)
    px = img[480 - int(y) - 2, int(x) + 1]
    assert px[2] > 150 and px[1] < 120  # BGR: red
    screen.place_button.dispatch("on_release")
    assert session.state.played == 1
    assert screen.banner_kind == "error"


def test_turning_the_card(data_dir):
    screen, session = make_screen(data_dir)
    screen.set_card(card("rrr/bbb"))
    screen.rotate_button.dispatch("on_release")
    assert screen.rotation == 90 and "90" in screen.turn_label.text
    assert len({r for r, _ in screen.table.preview}) == 3  # portrait: three rows
    screen.place_button.dispatch("on_release")
    assert session.state.played == 1
    r, c = session.state.middle
    assert session.state.at((r - 1, c)) == "blue"  # turned clockwise: blue on the left


def test_discard_is_refused_while_the_card_fits(data_dir):
    screen, session = make_screen(data_dir)
    session.submit(PlaceCard("Anna", card("rrr/bbb"), 6, 9))
    screen.refresh()
    screen.set_card(card("rrr/ggg"))
    screen.discard_button.dispatch("on_hold")
    assert "fits" in screen.banner_text and session.state.discarded == 0
    screen.set_card(card("ppp/yyy"))
    screen.discard_button.dispatch("on_press")
    screen.discard_button.dispatch("on_release")  # a tap only says to hold it
    assert session.state.discarded == 0 and screen.discard_button.text == "Hold to discard"
    screen.discard_button.dispatch("on_hold")
    assert session.state.discarded == 1


def test_grid_with_clusters_screenshot(data_dir, docs_shot):
    import random

    import cv2

    screen, session = make_screen(data_dir)
    rng = random.Random(7)
    played = 0
    while played < 14:
        palette = rng.sample(list(C.values()), 2)
        colours = tuple(rng.choice(palette) for _ in range(6))
        spots = GAME.legal_placements(session.state, colours)
        if spots:
            r, c, rot = rng.choice(spots)
            session.submit(PlaceCard(session.state.current, colours, r, c, rot))
            played += 1
    screen.refresh()
    screen.set_card(card("ppy/bbb"))
    path = docs_shot(screen, "node-grid")
    img = cv2.imread(str(path))
    assert img.shape[:2] == (480, 800) and img.std() > 20
    for b in screen.walk():
        if isinstance(b, BigButton) and not b.disabled:
            assert b.width >= MIN_TOUCH and b.height >= MIN_TOUCH, (b.text, b.size)
    # every controlled cluster carries its owner's initial
    assert {screen.table.letters[k.owner] for k in session.state.clusters if k.owner} <= {"A", "B"}


def test_uncounted_deck_ends_when_the_players_say_so(data_dir):
    screen, session = make_screen(data_dir, deck=None)
    session.submit(PlaceCard("Anna", card("rrr/bbb"), 6, 9))
    screen.refresh()
    assert not screen.end_button.disabled
    screen.end_button.dispatch("on_release")
    assert GAME.is_over(session.state) and GAME.winners(session.state) == ("Anna",)
    assert screen.place_button.disabled and screen.end_button.disabled


def test_counted_deck_hides_the_end_button(data_dir):
    screen, _ = make_screen(data_dir)
    assert screen.end_button.disabled


def test_undo_takes_the_card_and_its_captures_back(data_dir):
    screen, session = make_screen(data_dir)
    session.submit(PlaceCard("Anna", card("rrr/bbb"), 6, 9))
    screen.refresh()
    screen.set_card(card("rrr/rrr"))
    touch_cell(screen, 5, 10)  # centred just above: covers the red row, grows red to 6
    screen.place_button.dispatch("on_release")
    assert session.state.owner_of("red") == "Ben"
    screen.undo()
    assert session.state.owner_of("red") == "Anna" and session.state.played == 1
    assert screen.table.state is session.state  # the grid shows the table as it was


def played_table(data_dir, cards=14, seed=7):
    import random

    screen, session = make_screen(data_dir, deck=60)
    rng = random.Random(seed)
    played = 0
    while played < cards and not session.state.over:
        palette = rng.sample(list(C.values()), 2)
        colours = tuple(rng.choice(palette) for _ in range(6))
        spots = GAME.legal_placements(session.state, colours)
        if spots:
            r, c, rot = rng.choice(spots)
            session.submit(PlaceCard(session.state.current, colours, r, c, rot))
            played += 1
    screen.refresh()
    return screen, session


def test_the_grid_zooms_to_the_nodes_and_fits_the_played_area_whole(data_dir):
    from kivy.metrics import dp

    from companion.ui.sim_strip import STRIP_HEIGHT
    from tests.ui.fingers import off_window, on_window

    screen, session = make_screen(data_dir)
    on_window(screen)
    try:
        first = screen.table.cell_size()
        assert first >= dp(40) and screen.table.shown(*session.state.middle)
        session.submit(PlaceCard("Anna", card("rrr/bbb"), 6, 9))
        screen.refresh()
        pump()
        r0, c0, rows, cols = screen.table.view()
        assert screen.table.cell_size() >= dp(40)  # few nodes: big cells
        for cell in session.state.last:  # the card just placed is in view
            assert screen.table.shown(*cell)
        assert rows < session.state.height and cols < session.state.width  # zoomed in
    finally:
        off_window(screen)
    big, session = played_table(data_dir, cards=30, seed=3)
    on_window(big, (800, 480 - STRIP_HEIGHT))  # over the simulated strip: the least room
    try:
        s = session.state
        played = [(r, c) for r in range(s.height) for c in range(s.width) if s.grid[r][c]]
        hidden = [cell for cell in played if not big.table.shown(*cell)]
        assert not hidden, f"{len(hidden)} of {len(played)} nodes need a drag to be seen"
        assert big.table.cell_size() >= dp(18)  # a letter still reads
    finally:
        off_window(big)


def test_a_drag_on_the_table_pans_it_and_a_tap_moves_the_card(data_dir):
    from tests.ui.fingers import drag, off_window, on_window, tap

    screen, session = played_table(data_dir)
    screen.set_card(card("ppy/bbb"))
    table = screen.table
    on_window(screen, (480, 320))  # a small window: the played area does not fit whole
    try:
        r0, c0, rows, cols = table.view()
        assert cols < session.state.width
        cell = table.cell_size()
        anchor = screen.anchor
        free = next(
            (r, c)
            for r in range(r0 + 1, r0 + rows - 1)
            for c in range(c0 + 3, c0 + cols - 3)
            if (r, c) not in table.preview
        )
        x, y, _ = table.cell_rect(*free)
        start = (x + cell / 2, y + cell / 2)
        room_right = session.state.width - (c0 + cols)
        step = min(2, room_right) or -min(2, c0)
        drag([start, (start[0] - step * cell / 2, start[1]), (start[0] - step * cell, start[1])], 0)
        assert table.view()[1] == c0 + step  # the table followed the finger
        assert screen.anchor == anchor  # and the card stayed where it was
        x, y, _ = table.cell_rect(*free)
        tap(x + cell / 2, y + cell / 2, 0)
        assert screen.anchor == free  # a tap puts the card there
    finally:
        off_window(screen)


def test_a_cluster_badge_never_hides_the_colour_of_its_node(data_dir, tmp_path):
    import cv2

    from companion.ui import colours
    from companion.ui.render import render_to_png

    screen, session = played_table(data_dir)
    path = render_to_png(screen, tmp_path / "badges.png")
    img = cv2.imread(str(path))
    table = screen.table
    badges = table._badges(session.state)
    assert badges
    for (r, c), _badge in badges.items():
        if not table.shown(r, c) or (r, c) in table.preview:
            continue
        x, y, cell = table.cell_rect(r, c)
        rgb = [int(v * 255) for v in colours.rgba(session.state.at((r, c)))[:3]]
        top, left = 480 - int(y + cell) + 2, int(x) + 2
        patch = img[top : top + int(cell) - 4, left : left + int(cell) - 4][:, :, ::-1]
        same = (abs(patch.astype(int) - rgb).sum(axis=2) < 40).mean()
        assert same > 0.4, ((r, c), same)  # most of the cell still shows its colour


def camera_reads(screen, reading):
    """A reading from the camera, through the runtime's engine thread, then a frame."""
    from kivy.clock import Clock

    screen.ctx.table_event(reading)
    assert screen.ctx.runtime.drain(5)
    Clock.tick()


def camera_buttons(screen):
    return [b.text for b in screen.palette.children[::-1]]


def test_an_unsure_camera_card_is_shown_on_the_grid_and_confirm_places_it(data_dir, docs_shot):
    from companion.games.node.events import CardRead

    screen, session = make_screen(data_dir)
    session.submit(PlaceCard("Anna", card("rrr/bbb"), 6, 9))
    screen.refresh()
    unsure = ((1.0, 0.5, 1.0), (1.0, 1.0, 1.0))
    camera_reads(screen, CardRead((card("yyy"), card("rrr")), 5, 9, unsure))
    assert session.state.proposal is not None and session.state.played == 1
    assert camera_buttons(screen) == ["Confirm", "Correct"]
    assert "unsure of 1 node" in screen.reason_label.text
    shown = {(5, 9): "yellow", (5, 10): "yellow", (5, 11): "yellow", (6, 9): "red"}
    assert shown.items() <= screen.table.preview.items() and screen.table.preview_ok
    for b in screen.palette.children:
        assert b.width >= MIN_TOUCH and b.height >= MIN_TOUCH
    docs_shot(screen, "node-camera-card")
    screen.palette.children[-1].dispatch("on_release")  # Confirm
    assert session.state.played == 2 and session.state.at((5, 10)) == "yellow"
    assert session.state.asked is None and "Confirm" not in camera_buttons(screen)


def test_correct_opens_the_editor_with_the_camera_s_card(data_dir):
    from companion.games.node.events import CardRead

    screen, session = make_screen(data_dir)
    session.submit(PlaceCard("Anna", card("rrr/bbb"), 6, 9))
    screen.refresh()
    tall = (card("ry"), card("ry"), card("by"))  # lying tall: turned from the printed card
    camera_reads(screen, CardRead(tall, 5, 11, ((0.5, 1.0),) * 3))
    proposal = session.state.proposal
    assert proposal is not None and proposal.rotation == 90
    screen.palette.children[0].dispatch("on_release")  # Correct
    assert screen.card == list(proposal.colours) and screen.rotation == 90
    assert screen._top_left() == (5, 11) and screen.table.preview_ok
    assert screen.table.preview == footprint(proposal.colours, 2, 3, 5, 11, 90)
    assert "Confirm" not in camera_buttons(screen)  # the palette is back for the editor
    # the camera was wrong about the node on (5, 12): it is green
    node = next(
        i
        for i in range(6)
        if footprint(
            tuple("x" if j == i else c for j, c in enumerate(proposal.colours)), 2, 3, 5, 11, 90
        )[(5, 12)]
        == "x"
    )
    screen._choose_paint("green")
    screen.editor.children[::-1][node].dispatch("on_release")
    screen.place_button.dispatch("on_release")
    assert session.state.played == 2 and session.state.at((5, 12)) == "green"


def test_a_card_the_rules_refuse_is_shown_in_red_with_the_reason(data_dir):
    from companion.games.node.events import CardRead

    screen, session = make_screen(data_dir)
    session.submit(PlaceCard("Anna", card("rrr/bbb"), 6, 9))
    screen.refresh()
    sure = ((1.0,) * 3,) * 2
    camera_reads(screen, CardRead((card("ggg"), card("ggg")), 6, 9, sure))
    assert session.state.proposal is None and session.state.asked.refused
    assert "cannot cover a red" in screen.reason_label.text
    assert camera_buttons(screen) == ["Correct"]  # nothing to confirm
    assert not screen.table.preview_ok and screen.table.preview[(6, 9)] == "green"
