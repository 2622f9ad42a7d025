"""The History, game record and Statistics screens, the results chart and the QR code,
rendered headless at 800x480 and checked in their widgets and their pixels."""

from __future__ import annotations

import shutil
import subprocess

import numpy as np
import pytest
from kivy.core.image import Image as CoreImage

from benchmarks.playthroughs import play_game, play_games
from companion import catalogue
from companion import events as ev
from companion.rounds import game_facts
from companion.session import Session, config_from_json
from companion.ui.context import AppContext
from companion.ui.render import ensure_window, pump

ensure_window((800, 480))

from companion.ui.app import Root, open_session_screen  # noqa: E402
from companion.ui.chart import ScoreChart, marker_of  # noqa: E402
from companion.ui.qr import QrCode, qr_matrix  # noqa: E402


def pixels(path):
    """(width, height, pixel(x, y) -> (r, g, b) in 0-255, y from the top)."""
    img = CoreImage(str(path), keep_data=True)
    w, h = img.size

    def at(x, y):
        r, g, b, _ = img.read_pixel(x, y)
        return round(r * 255), round(g * 255), round(b * 255)

    return w, h, at


def settle(event, timeout=30.0):
    """Let the Kivy clock run until `event` is set (work done off the UI thread comes back
    through Clock.schedule_once); False if it never is."""
    import time

    end = time.monotonic() + timeout
    while not event.wait(0.02):
        pump(1)
        if time.monotonic() > end:
            return False
    pump()
    return True


def near(c, want, tol=40):
    return all(abs(a - b) <= tol for a, b in zip(c, want, strict=True))


def rgb(name):
    from companion.ui import colours

    return tuple(round(v * 255) for v in colours.rgba(name)[:3])


def ocr(path) -> str:
    if shutil.which("tesseract") is None:
        pytest.skip("tesseract is an OS package")
    out = subprocess.run(["tesseract", str(path), "-"], capture_output=True, text=True, timeout=60)
    return out.stdout


@pytest.fixture
def ctx(tmp_path):
    c = AppContext.open(tmp_path / "data")
    yield c
    c.log.close()


def test_the_chart_draws_a_line_per_player_in_their_colour_ending_at_their_score(docs_shot):
    rec, entries = play_game("laser", 7, players=("Anna", "Ben", "Chloe"))
    from companion.rounds import ScoreSeries

    series = ScoreSeries.from_json(
        game_facts("laser", rec.config, [e for e, _ in entries])["series"]
    )
    path = docs_shot(ScoreChart(series=series), "history-chart")
    w, h, at = pixels(path)
    assert (w, h) == (800, 480)
    final = dict(zip(series.players, series.points[-1], strict=True))
    # each player's colour is on the chart, and the best final score's line ends highest
    ends = {}
    for seat, name in enumerate(series.players):
        want = rgb(marker_of(seat)[0])
        hits = [
            (x, y) for x in range(500, 790, 2) for y in range(40, 470, 2) if near(at(x, y), want)
        ]
        assert len(hits) > 30, f"{name}'s line is missing"
        ends[name] = min(y for x, y in hits if x > 700)  # top of the end marker
    by_score = sorted(series.players, key=lambda p: final[p])
    by_height = sorted(series.players, key=lambda p: -ends[p])  # larger y: lower on screen
    assert by_score == by_height
    text = ocr(path)
    assert "Anna" in text and "Ben" in text  # the legend names the lines


def test_the_qr_code_is_drawn_top_row_first_each_module_a_whole_number_of_pixels(tmp_path):
    """Every pixel of the code is its module's colour: no module is a pixel wider or
    narrower than another (the code sits on whole pixels), the top row is on top."""
    import cv2

    from companion.ui.render import render_to_png

    text = "Laser (team) 2026-01-02\nAnna: 35 *\nWinner: Anna"
    path = render_to_png(QrCode(text=text), tmp_path / "qr.png", (401, 400))
    rows = qr_matrix(text)
    n, k = len(rows), 400 // len(rows)
    side = n * k
    x0, y0 = round((401 - side) / 2), 400 - round((400 - side) / 2) - side  # from the top
    dark = cv2.imread(str(path), cv2.IMREAD_GRAYSCALE)[y0 : y0 + side, x0 : x0 + side] < 128
    want = np.kron(np.array(rows, dtype=bool), np.ones((k, k), dtype=bool))
    assert k >= 2 and (dark == want).all()


def test_history_lists_games_newest_first_and_filters_them(ctx, docs_shot):
    ctx.log.add_games(play_games(30, seed=4))
    root = Root(ctx)
    root.current = "history"
    screen = root.get_screen("history")
    path = docs_shot(root, "history")
    assert len(screen.rows) == 30
    text = ocr(path)
    assert "Game: All games" in text and " won" in text
    shown = [ctx.log.game(r["game_id"]).started for r in screen.rows]
    assert shown == sorted(shown, reverse=True)
    screen.next_game_filter()  # Color Milk
    assert screen.game_title == "Color Milk"
    assert {ctx.log.game(r["game_id"]).game for r in screen.rows} == {"color-milk"}
    screen.next_player_filter()
    who = screen.player_filter
    assert who and all(who in ctx.log.game(r["game_id"]).config["players"] for r in screen.rows)
    # pixels: the rows are drawn as buttons down the screen
    w, h, at = pixels(path)
    from companion.ui import colours

    button = tuple(round(v * 255) for v in colours.BUTTON[:3])
    rows_seen = sum(near(at(400, y), button, 12) for y in range(100, 470, 10))
    assert rows_seen > 15


def test_a_past_game_shows_its_rounds_and_its_final_screen_without_changing_the_log(ctx, docs_shot):
    ctx.log.add_games(
        [play_game("color-milk", s, players=("Anna", "Ben", "Chloe")) for s in (1, 2)]
    )
    root = Root(ctx)
    root.current = "history"
    history = root.get_screen("history")
    gid = history.rows[0]["game_id"]
    before = len(ctx.log.entries(gid))
    history.open_game(gid)
    screen = root.get_screen("history_game")
    assert settle(screen.panel.ready)
    path = docs_shot(root, "history-game")
    series = screen.panel.chart.series
    rec = ctx.log.game(gid)
    assert dict(zip(series.players, series.points[-1], strict=True)) == {
        p: float(v) for p, v in rec.result["scores"].items()
    }
    assert screen.panel.qr.text.startswith("Color Milk") and rec.uuid in screen.panel.qr.text
    text = ocr(path)
    assert "Round" in text and "Anna" in text
    screen.toggle()
    pump()
    final = screen.ids.body.children[0]
    past = final.children[0]
    assert past.session.game.is_over(past.session.state)
    assert past.ids.undo.disabled
    from kivy.tests.common import UnitTestTouch

    x, y = past.ids.undo.to_window(*past.ids.undo.center)
    touch = UnitTestTouch(x, y)
    touch.touch_down()
    touch.touch_up()
    pump()
    docs_shot(root, "history-final")
    assert len(ctx.log.entries(gid)) == before and ctx.log.game(gid).status == "finished"


def test_statistics_screen_counts_every_finished_game(ctx, docs_shot):
    ctx.log.add_games(play_games(20, seed=6))
    root = Root(ctx)
    root.current = "history"
    root.get_screen("history").open_stats()
    stats = root.get_screen("stats")
    assert settle(stats.ready)
    path = docs_shot(root, "statistics")
    assert stats.status_text == "20 finished games"
    text = ocr(path)
    assert "Player" in text and "Average" in text and "Color Milk" in text
    columns = [c.text for c in reversed(stats.ids.grid.children)]
    rows = [line.split("\n") for line in columns]
    assert len({len(r) for r in rows}) == 1  # every column has a cell in every row
    with_players = stats.history.statistics()["players"]
    assert len(rows[0]) == 1 + len(with_players)
    assert "predictions fulfilled" in stats.ids.notes.children[0].text


def test_the_results_sheet_opens_when_a_game_ends_with_the_replayed_chart(ctx, docs_shot):
    rec, entries = play_game("kritters", 3, players=("Anna", "Ben"))
    game = catalogue.load("kritters")
    session = Session.start(game, ctx.log, config_from_json(rec.config))
    root = Root(ctx)
    screen = open_session_screen(ctx, session)
    root.add_widget(screen)
    root.current = "game"
    for e, _ in entries:
        screen.submit(ev.from_dict(e.payload))
    pump()
    sheet = screen.results_sheet
    assert sheet.parent is screen
    assert settle(sheet.panel.ready)
    series = sheet.panel.chart.series
    assert dict(zip(series.players, series.points[-1], strict=True)) == {
        p: float(v) for p, v in rec.result["scores"].items()
    }
    assert "Winner: " in sheet.panel.qr.text
    path = docs_shot(root, "results-sheet")
    text = ocr(path)
    assert "wins!" in text and "Close" in text
    # the sheet takes the touches on its screen: Undo under it is not pressed
    from kivy.tests.common import UnitTestTouch

    n = len(ctx.log.entries(session.game_id))
    x, y = screen.ids.undo.to_window(*screen.ids.undo.center)
    touch = UnitTestTouch(x, y)
    touch.touch_down()
    touch.touch_up()
    assert len(ctx.log.entries(session.game_id)) == n
    sheet.dismiss()
    assert sheet.parent is None


def test_a_stored_game_whose_moves_do_not_replay_is_said_so_and_import_refuses_it(ctx):
    import json

    from companion.entries import Entry
    from companion.sharing import ImportRefused, game_line, import_games
    from companion.store import GameLog

    rec, entries = play_game("laser", 5, players=("Anna", "Ben", "Chloe"))
    with GameLog(ctx.data_dir / "other.sqlite3") as other:
        (gid,) = other.add_games([(rec, entries)])
        doc = game_line(other, other.game(gid))
    bids = [e for e in doc["entries"] if e["event"]["type"] == "laser.BidPlaced"]
    bids[0]["event"]["bid"] = 100  # no bid of any kind is that high: the rules refuse it
    with pytest.raises(ImportRefused, match=r"line 1: move \d+ \(laser.BidPlaced\) is refused"):
        import_games(ctx.log, [json.dumps(doc)])
    assert ctx.log.games() == []
    # such a game came in through an older version's import: the screens still stand
    spoiled = [(Entry(e["seq"], e["kind"], e["event"]), e["at"]) for e in doc["entries"]]
    ctx.log.add_games([(rec, spoiled)])
    root = Root(ctx)
    root.current = "history"
    history = root.get_screen("history")
    history.open_game(history.rows[0]["game_id"])
    screen = root.get_screen("history_game")
    assert settle(screen.panel.ready)
    assert "cannot be replayed" in screen.panel.chart.text and "100" not in screen.title
    history.open_stats()
    stats = root.get_screen("stats")
    assert settle(stats.ready)  # the statistics still come, without that game's rounds
    assert stats.status_text == "1 finished game"


def test_spoken_cues_are_a_setting_off_by_default_and_reach_the_voice_in_play(ctx, tmp_path):
    import threading
    from dataclasses import replace

    from companion.settings import load
    from companion.speech import voice_for
    from companion.ui.render import render_to_png
    from companion.ui.widgets import BigButton

    root = Root(ctx)
    root.current = "settings"
    settings = root.get_screen("settings")
    assert not ctx.settings.speak_cues
    assert "Spoken cues" in ocr(render_to_png(root, tmp_path / "settings.png"))
    # the button beside the "Spoken cues" label switches the voice on and saves it
    labels = [w for w in settings.walk() if getattr(w, "text", "") == "Spoken cues"]
    grid = labels[0].parent
    cells = list(reversed(grid.children))
    toggle = cells[cells.index(labels[0]) + 1]
    assert isinstance(toggle, BigButton) and toggle.text == "Off"
    toggle.dispatch("on_release")
    assert ctx.settings.speak_cues and toggle.text == "On"
    assert load(ctx.data_dir / "settings.json")[0].speak_cues

    heard, said = threading.Event(), []

    def mouth(text, amplitude):
        said.append(text)
        heard.set()

    voice = voice_for(ctx)
    voice.speak = mouth
    ctx.settings = replace(ctx.settings, mute=False)
    rec, entries = play_game("color-milk", 5, players=("Anna", "Ben"))
    session = Session.start(catalogue.load("color-milk"), ctx.log, config_from_json(rec.config))
    open_session_screen(ctx, session)  # the app adds its sinks, the voice among them
    for e, _ in entries[:60]:  # a round or two, as the table played it
        session.submit(ev.from_dict(e.payload))
    assert heard.wait(10)
    assert any(t.endswith("chooses") or t.endswith("leads") for t in said), said


def _code_on(path, qr):
    """The pixels of `qr`'s code as the rendered window `path` shows them (top row first)."""
    import cv2

    (x, y), (side, _) = qr.to_window(*qr._rect.pos), qr._rect.size
    x, y, side = int(x), int(y), int(side)
    image = cv2.imread(str(path), cv2.IMREAD_GRAYSCALE)
    return image[image.shape[0] - y - side : image.shape[0] - y, x : x + side]


def test_the_results_code_switches_to_the_bgstats_play_link_and_remembers_it(ctx, docs_shot):
    import json
    from urllib.parse import unquote

    import cv2
    from kivy.core.window import Window
    from kivy.tests.common import UnitTestTouch

    from companion import settings
    from companion.bgstats import PLAY_LINK

    players = ("Anna", "Ben", "Chloe", "David")
    rec, entries = play_game("kritters", 3, players=players)
    session = Session.start(catalogue.load("kritters"), ctx.log, config_from_json(rec.config))
    root = Root(ctx)
    screen = open_session_screen(ctx, session)
    root.add_widget(screen)
    root.current = "game"
    for e, _ in entries:
        screen.submit(ev.from_dict(e.payload))
    pump()
    panel = screen.results_sheet.panel
    assert settle(panel.ready)
    assert panel.qr.text.startswith("Colour MY Kritters") and not panel.switch.disabled

    def tap(widget):  # a finger on the screen: the window passes the touch down to it
        Window.add_widget(root)
        try:
            pump()
            touch = UnitTestTouch(*widget.to_window(*widget.center))
            touch.touch_down()
            touch.touch_up()
            pump()
        finally:
            Window.remove_widget(root)

    tap(panel.switch)
    assert panel.qr.text == panel.link and panel.link.startswith(PLAY_LINK)
    assert panel.caption.text == "Scan: add the play to BG Stats"
    data = json.loads(unquote(panel.link.split("?data=", 1)[1]))
    assert [p["name"] for p in data["players"]] == list(players)
    assert {p["name"]: p["score"] for p in data["players"]} == rec.result["scores"]
    path = docs_shot(root, "results-bgstats")
    code = _code_on(path, panel.qr)
    assert code.shape[0] >= 3 * len(panel.qr._rows)  # modules of 3 px or more
    assert cv2.QRCodeDetector().detectAndDecode(code)[0] == panel.link  # read off the screen
    # the table remembers: the next results start with the link, across a restart too
    assert settings.load(ctx.data_dir / "settings.json")[0].results_bgstats
    root.get_screen("history").open_game(session.game_id)
    later = root.get_screen("history_game").panel
    assert settle(later.ready) and later.qr.text == later.link
    tap(later.switch)
    assert later.qr.text == later.summary and not ctx.settings.results_bgstats


def test_the_largest_tables_link_is_still_drawn_with_whole_pixel_modules(tmp_path):
    from companion.bgstats import Play, play_link
    from companion.entries import GameRecord
    from companion.rounds import ScoreSeries
    from companion.ui.render import render_to_png
    from companion.ui.results import ResultsPanel

    names = [f"Player {i}" for i in range(1, 13)]  # Colour MY Kritters: up to 12
    scores = {n: 10 + i for i, n in enumerate(names)}
    rec = GameRecord(
        0,
        "kritters",
        {"players": names},
        "2026-01-01T18:00:00+00:00",
        "2026-01-01T19:00:00+00:00",
        "finished",
        {"scores": scores, "winners": names[-1:]},
        "8a0c8d63-6bb1-4b9e-a0bd-2d0c1e1c3c55",
    )
    link = play_link(Play.of(rec))
    series = ScoreSeries(tuple(names), ("End",), (tuple(scores.values()),))
    panel = ResultsPanel(series=series, summary="x", link=link)
    panel.toggle()
    path = render_to_png(panel, tmp_path / "panel.png", (784, 402))  # the sheet's panel
    rows = qr_matrix(link)
    k = panel.qr._rect.size[0] // len(rows)
    want = np.kron(np.array(rows, dtype=bool), np.ones((int(k), int(k)), dtype=bool))
    assert k >= 2 and ((_code_on(path, panel.qr) < 128) == want).all()


def test_a_play_from_bgstats_shows_its_final_scores_and_no_final_screen(ctx, docs_shot):
    from pathlib import Path

    from companion.bgstats_import import import_bgstats

    club = Path(__file__).resolve().parents[1] / "data" / "bgstats" / "club.bgsplay"
    assert import_bgstats(ctx.log, club.read_bytes())["imported"] == 5
    root = Root(ctx)
    root.current = "history"
    history = root.get_screen("history")
    laser = next(r for r in history.rows if ctx.log.game(r["game_id"]).game == "laser")
    history.open_game(laser["game_id"])
    screen = root.get_screen("history_game")
    assert settle(screen.panel.ready)
    docs_shot(root, "history-bgstats")
    assert screen.title.endswith("from BG Stats") and not screen.can_show_final
    series = screen.panel.chart.series
    assert series.labels == ("End",) and series.of("anna") == [50.0]
    assert screen.panel.link and "Laser" in screen.panel.summary
