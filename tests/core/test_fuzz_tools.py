"""Every scriptable tool, fed generated bad input: a clear one-line error, never a traceback.

The tools run in-process through `companion.cli.main` (fast); a few subprocess runs check
the contract at the top (exit status, stderr). Inputs: valid documents with one part
replaced, removed or wrapped; any JSON value; broken text, bytes that are not UTF-8, NaN
and Infinity, nesting 100,000 deep.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion import cli

ROOT = Path(__file__).resolve().parents[2]
# COMPANION_FUZZ=2000 runs 2000 fresh inputs per tool instead of the same 150 every time.
EXAMPLES = int(os.environ.get("COMPANION_FUZZ", "0"))
FUZZ = settings(
    max_examples=EXAMPLES or 150,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
    derandomize=not EXAMPLES,
    database=None,
)

ODDS = {
    "mill": {"blue": 6, "green": 5, "orange": 4, "pink": 3, "purple": 2},
    "prediction": ["pink"],
}
SCORE = {
    "cyan": 4,
    "magenta": 6,
    "point_kritters": [{"colour": "red", "points": 3}],
    "paintbrushes": 1,
    "palettes": 1,
    "variant": "standard",
    "triad_bonus": False,
}
SOLVE = {
    "mode": "team",
    "cat": 0,
    "tiles": [None, "cyan", "cyan", "red", "green", "blue", "yellow", "magenta"] + [None] * 4,
    "supply": {"red": 2, "green": 2, "blue": 2},
    "cards": [{"colour": "cyan"}],
    "max_cost": 6,
}


def run(argv: list[str], stdin: bytes = b"") -> tuple[int, str, str]:
    """`companion ARGV` in-process with `stdin`: (exit status, stdout, stderr)."""
    out, err = io.StringIO(), io.StringIO()
    saved = sys.stdin
    sys.stdin = io.TextIOWrapper(io.BytesIO(stdin), encoding="utf-8")
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = cli.main(argv)
    finally:
        sys.stdin = saved
    return code, out.getvalue(), err.getvalue()


def assert_clean(code: int, err: str, allowed=(0, 2)) -> None:
    """Refused with one line (or accepted): never an internal error or a traceback."""
    assert code in allowed, err
    if code:
        lines = err.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith("companion"), err
        assert "internal error" not in err and "Traceback" not in err, err


# Generated input ------------------------------------------------------------------------
leaves = (
    st.none()
    | st.booleans()
    | st.integers(-(10**20), 10**20)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=12)
    | st.sampled_from(["", "red", "blue", "cyan", "pink", "standard", "team", "event", "x" * 300])
)
values = st.recursive(
    leaves,
    lambda inner: (
        st.lists(inner, max_size=5) | st.dictionaries(st.text(max_size=10), inner, max_size=5)
    ),
    max_leaves=15,
)


def paths(doc, here=()):
    yield here
    if isinstance(doc, dict):
        for k, v in doc.items():
            yield from paths(v, (*here, k))
    elif isinstance(doc, list):
        for i, v in enumerate(doc):
            yield from paths(v, (*here, i))


def replaced(doc, path, make):
    if not path:
        return make(doc)
    head, *rest = path
    copy = dict(doc) if isinstance(doc, dict) else list(doc)
    copy[head] = replaced(doc[head], rest, make)
    return copy


@st.composite
def mutants(draw, valid):
    """`valid` with one part replaced by any JSON, removed, emptied or wrapped in a list."""
    path = draw(st.sampled_from(list(paths(valid))))
    how = draw(st.sampled_from(["replace", "replace", "remove", "wrap", "empty", "huge"]))
    if how == "remove" and path:

        def without(parent):
            copy = dict(parent) if isinstance(parent, dict) else list(parent)
            del copy[path[-1]]
            return copy

        return replaced(valid, path[:-1], without)
    make = {
        "wrap": lambda v: [v],
        "empty": lambda v: type(v)() if isinstance(v, (dict, list, str)) else None,
        "huge": lambda v: 10**30 if not isinstance(v, str) else v * 1000,
    }.get(how, lambda v: draw(values))
    return replaced(valid, path, make)


def documents(valid) -> st.SearchStrategy[bytes]:
    """Bytes on stdin or in a file: mostly near-valid documents, some anything at all."""
    as_json = st.one_of(mutants(valid), mutants(valid), values).map(
        lambda d: json.dumps(d).encode()
    )
    text = json.dumps(valid)
    broken = st.one_of(
        st.integers(0, len(text)).map(lambda i: text[:i].encode()),  # cut short
        st.binary(max_size=64),  # anything, often not UTF-8
        st.sampled_from(
            [
                b"[" * 100_000 + b"]" * 100_000,
                b'{"a":' * 100_000 + b"1" + b"}" * 100_000,
                b"[" * 500 + b"]" * 500,
                text.replace("6", "NaN", 1).encode(),
                text.replace("1", "Infinity", 1).encode(),
                text.encode("utf-16"),
                b"\xff\xfe" + text.encode(),
                b"",
                b"   \n",
            ]
        ),
    )
    return st.one_of(as_json, as_json, broken)


# The stdin JSON tools -------------------------------------------------------------------
@pytest.mark.parametrize(
    "argv, valid",
    [
        (["odds", "color-milk"], ODDS),
        (["score", "kritters"], SCORE),
        (["solve", "laser"], SOLVE),
    ],
    ids=["odds", "score", "solve"],
)
def test_stdin_tools_refuse_bad_json_in_one_line(argv, valid):
    code, out, err = run(argv, json.dumps(valid).encode())
    assert code == 0, err  # the valid document really is valid

    @FUZZ
    @given(documents(valid))
    def fuzz(data):
        code, _, err = run(argv, data)
        assert_clean(code, err)

    fuzz()


# import --bgstats FILE --------------------------------------------------------------------
def test_import_bgstats_refuses_a_damaged_export_in_one_line(tmp_path):
    club = json.loads((ROOT / "tests" / "data" / "bgstats" / "club.bgsplay").read_text())
    argv = ["import", "--bgstats", "-", "--data-dir", str(tmp_path / "data")]
    code, _, err = run(argv, json.dumps(club).encode())
    assert code == 0, err

    @FUZZ
    @given(documents(club))
    def fuzz(data):
        code, _, err = run(argv, data)
        assert_clean(code, err)

    fuzz()


# replay LOG.json --------------------------------------------------------------------------
@pytest.fixture(scope="module")
def exported_log(tmp_path_factory) -> dict:
    code, out, err = run(
        ["demo", "color-milk", "--players", "2", "--seed", "3", "--no-camera", "--no-table"]
    )
    assert code == 0, err
    doc = json.loads(out)["log"]
    doc["entries"] = doc["entries"][:12]  # a short game in progress is as good as a long one
    return doc


def test_replay_refuses_a_damaged_json_log_in_one_line(exported_log, tmp_path):
    log = tmp_path / "log.json"
    log.write_text(json.dumps(exported_log))
    code, _, err = run(["replay", str(log)])
    assert code == 0, err

    @FUZZ
    @given(documents(exported_log))
    def fuzz(data):
        log.write_bytes(data)
        code, _, err = run(["replay", str(log)])
        assert_clean(code, err)

    fuzz()


# vision ---------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def vision_files(tmp_path_factory):
    from vision.calibration import to_json
    from vision.learn import rendered_calibration

    d = tmp_path_factory.mktemp("vision")
    code, _, err = run(["vision", "render", "--balls", "blue,pink", "--out", str(d / "tray.png")])
    assert code == 0, err
    return d, to_json(rendered_calibration(0))


def test_classify_refuses_a_damaged_calibration_in_one_line(vision_files, tmp_path):
    d, valid = vision_files
    calib = tmp_path / "calib.json"

    @FUZZ
    @given(documents(valid))
    def fuzz(data):
        calib.write_bytes(data)
        code, _, err = run(["vision", "classify", "--calibration", str(calib), str(d / "tray.png")])
        assert_clean(code, err, allowed=(0, 1, 2))  # 1: a damaged calibration file

    fuzz()


@FUZZ
@given(image=st.binary(max_size=200) | st.sampled_from([b"", b"\x89PNG\r\n\x1a\n"]))
def test_classify_refuses_an_image_that_is_not_one(image, vision_files):
    d, valid = vision_files
    (d / "calib.json").write_text(json.dumps(valid))
    (d / "bad.png").write_bytes(image)
    code, _, err = run(
        ["vision", "classify", "--calibration", str(d / "calib.json"), str(d / "bad.png")]
    )
    assert_clean(code, err, allowed=(0, 1, 2))


@FUZZ
@given(colours=st.text(max_size=20) | st.sampled_from([",,,", " , ", "blue,,gold", "BLUE"]))
def test_classify_refuses_bad_colours_in_one_line(colours, vision_files):
    d, valid = vision_files
    (d / "calib.json").write_text(json.dumps(valid))
    argv = ["vision", "classify", "--calibration", str(d / "calib.json"), "--colours", colours]
    code, _, err = run([*argv, str(d / "tray.png")])
    assert_clean(code, err)


def test_classify_a_tiny_image_with_a_white_patch_outside_it(vision_files, tmp_path):
    import cv2
    import numpy as np

    d, valid = vision_files
    calib = tmp_path / "calib.json"
    calib.write_text(json.dumps({**valid, "white_roi": [400, 300, 20, 20]}))
    for shape in ((4, 4, 3), (1, 1, 3), (40, 30, 3)):
        cv2.imwrite(str(tmp_path / "small.png"), np.full(shape, 200, np.uint8))
        code, _, err = run(
            ["vision", "classify", "--calibration", str(calib), str(tmp_path / "small.png")]
        )
        assert_clean(code, err, allowed=(0, 1, 2))


def test_classify_with_a_calibration_that_has_no_colours_yet(vision_files, tmp_path):
    d, valid = vision_files
    calib = tmp_path / "calib.json"
    calib.write_text(json.dumps({**valid, "prototypes": []}))
    code, _, err = run(["vision", "classify", "--calibration", str(calib), str(d / "tray.png")])
    assert_clean(code, err, allowed=(1, 2))
    assert "no colours" in err or "prototypes" in err, err


@FUZZ
@given(labels=st.binary(max_size=80) | st.text(max_size=80).map(str.encode))
def test_calibrate_refuses_bad_labels_in_one_line(labels, vision_files):
    d, _ = vision_files
    (d / "labels.csv").write_bytes(b"file,label\n" + labels if labels[:1] != b"\xff" else labels)
    code, _, err = run(
        [
            "vision",
            "calibrate",
            "--images",
            str(d),
            "--labels",
            str(d / "labels.csv"),
            "--out",
            str(d / "out.json"),
        ]
    )
    assert_clean(code, err, allowed=(0, 1, 2))


def test_calibrate_refuses_labels_that_are_not_utf8(vision_files):
    d, _ = vision_files
    (d / "latin1.csv").write_bytes("file,label\ntray.png,bleu clair é\n".encode("latin-1"))
    code, _, err = run(
        [
            "vision",
            "calibrate",
            "--images",
            str(d),
            "--labels",
            str(d / "latin1.csv"),
            "--out",
            str(d / "o.json"),
        ]
    )
    assert_clean(code, err, allowed=(1, 2))
    assert "UTF-8" in err, err


numbers = st.lists(st.integers(-5, 10**12).map(str) | st.text(max_size=4), max_size=5).map(",".join)


@FUZZ
@given(
    option=st.sampled_from(
        ["--patch", "--tray", "--ball-radius", "--slot-pitch", "--zone", "--frame-size"]
    ),
    value=numbers
    | st.text(max_size=12)
    | st.sampled_from(["nan", "inf", "-inf", "1e400", "a=1,2,3,4"]),
)
def test_regions_refuses_bad_numbers_in_one_line(option, value, tmp_path_factory):
    calib = tmp_path_factory.mktemp("regions") / "calib.json"
    code, _, err = run(["vision", "regions", "--calibration", str(calib), option, value])
    assert_clean(code, err)


# demo -------------------------------------------------------------------------------------
@FUZZ
@given(
    option=st.sampled_from(["--seed", "--players", "--board", "--light"]),
    value=st.sampled_from(["-1", "0", "-99999999999", "99999999999", "1e3", "", "x", "9" * 40]),
)
def test_demo_refuses_bad_options_in_one_line(option, value):
    code, _, err = run(["demo", "color-milk", "--no-camera", "--no-table", option, value])
    assert_clean(code, err)


@pytest.mark.parametrize("where", ["/proc/1", "/dev/null", "/dev/null/log", "/proc/1/x/y"])
def test_demo_refuses_a_data_dir_it_cannot_write(where):
    code, _, err = run(["demo", "color-milk", "--no-camera", "--no-table", "--data-dir", where])
    assert_clean(code, err, allowed=(2,))
    assert "--data-dir" in err


# The top-level contract, in real processes -----------------------------------------------
@pytest.mark.parametrize(
    "argv, stdin",
    [
        (["odds", "color-milk"], b"[" * 100_000 + b"]" * 100_000),
        (["score", "kritters"], b"\xff\xfe\x00"),
        (["solve", "laser"], b'{"mode": "team", "cat": Infinity}'),
        (["demo", "color-milk", "--seed", "-1", "--no-camera", "--no-table"], b""),
    ],
    ids=["deep", "not-utf8", "infinity", "negative-seed"],
)
def test_a_real_process_exits_2_with_one_line(argv, stdin):
    out = subprocess.run(
        [sys.executable, "-m", "companion", *argv],
        input=stdin,
        capture_output=True,
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        timeout=120,
    )
    err = out.stderr.decode()
    assert out.returncode == 2, err
    assert len(err.strip().splitlines()) == 1 and "internal error" not in err, err


def test_a_real_process_replays_a_json_log_and_names_a_mistyped_entry(exported_log, tmp_path):
    def replay(doc) -> subprocess.CompletedProcess:
        log = tmp_path / "log.json"
        log.write_text(json.dumps(doc))
        return subprocess.run(
            [sys.executable, "-m", "companion", "replay", str(log)],
            capture_output=True,
            text=True,
            cwd=ROOT,
            env={**os.environ, "PYTHONPATH": str(ROOT)},
            timeout=120,
        )

    good = replay(exported_log)
    assert good.returncode == 0, good.stderr
    assert json.loads(good.stdout)["events"] == len(exported_log["entries"])
    bad = json.loads(json.dumps(exported_log))
    n, entry = next((i, e) for i, e in enumerate(bad["entries"], 1) if "count" in e["event"])
    entry["event"]["count"] = "x"
    out = replay(bad)
    assert out.returncode == 2
    assert out.stderr.strip().endswith(
        f'entry {n} (core.BallPassed): count must be a whole number, not "x"'
    ), out.stderr


@pytest.mark.parametrize("text", ["[" * 100_000 + "]" * 100_000, "[1, 2]", '"text"', "{"])
def test_a_damaged_settings_file_is_set_aside_not_fatal(text, tmp_path):
    from companion import settings

    path = tmp_path / "settings.json"
    path.write_text(text)
    loaded, message = settings.load(path)
    assert loaded == settings.Settings() and "damaged" in message
    assert not path.exists() and path.with_suffix(".damaged.json").read_text() == text


@pytest.mark.parametrize(
    ("data", "expected"),
    [
        ({"volume": "loud", "phase_seconds": 45}, {"phase_seconds": 45}),
        ({"mute": "false", "learning_mode": "on"}, {"mute": False, "learning_mode": True}),
        ({"mute": "maybe", "camera": ["x"]}, {}),
        ({"camera": 1, "volume": 2.5}, {"camera": "1", "volume": 1.0}),
        ({"phase_seconds": True, "brightness": float("nan")}, {}),
    ],
)
def test_a_settings_value_of_the_wrong_type_is_its_default_and_named(data, expected, tmp_path):
    import json
    from dataclasses import replace

    from companion import settings

    path = tmp_path / "settings.json"
    path.write_text(json.dumps(data))
    loaded, message = settings.load(path)
    assert loaded == replace(settings.Settings(), **expected)
    wrong = sorted(set(data) - set(expected))
    assert (message is None) == (not wrong)
    assert all(name in message for name in wrong) if wrong else True
    assert path.exists()  # the values that could be used are kept


def test_a_settings_file_that_is_a_folder_is_defaults_and_saving_says_why(tmp_path):
    from companion import settings

    path = tmp_path / "settings.json"
    path.mkdir()
    loaded, message = settings.load(path)
    assert loaded == settings.Settings() and "not a file" in message
    with pytest.raises(OSError):
        settings.save(path, loaded)
    assert path.is_dir()


def test_settings_are_saved_through_a_fresh_temp_file_never_a_planted_link(tmp_path):
    from companion import settings

    target = tmp_path / "elsewhere.txt"
    target.write_text("keep me")
    for name in ("settings.tmp", "settings.json.tmp"):  # wherever the temp file may go
        (tmp_path / name).symlink_to(target)
    settings.save(tmp_path / "settings.json", settings.Settings(volume=0.3))
    assert target.read_text() == "keep me"
    assert settings.load(tmp_path / "settings.json")[0].volume == 0.3


@pytest.mark.parametrize(
    "data", [b"a = " + b"[" * 100_000 + b"]" * 100_000 + b"\n", b'a = "\xff"\n', b"[led\n"]
)
def test_a_damaged_pin_map_is_a_pin_map_error(data, tmp_path):
    from hardware import pins
    from hardware.errors import PinMapError

    path = tmp_path / "pins.toml"
    path.write_bytes(data)
    with pytest.raises(PinMapError, match="not valid TOML"):
        pins.load(path)


# import FILE --------------------------------------------------------------------------------
IMPORT_FUZZ = settings(FUZZ, max_examples=max(EXAMPLES, 320))


@pytest.fixture(scope="module")
def export_line(tmp_path_factory) -> dict:
    """A real export: a whole Kritters game played through its rules, written to a log and
    exported by `companion export`."""
    from benchmarks.playthroughs import play_game
    from companion.store import GameLog

    d = tmp_path_factory.mktemp("exported")
    with GameLog(d / "games.sqlite3") as log:
        log.add_games([play_game("kritters", 4, players=("Anna", "Ben"))])
    code, out, err = run(["export", "--all", "--data-dir", str(d)])
    assert code == 0, err
    return json.loads(out)


@st.composite
def import_lines(draw, valid):
    """One line of an import file: the export with one part changed (a fresh UUID unless
    the UUID is what changed, so the game is checked, not found here already), or any bytes."""
    doc = draw(mutants(valid))
    if isinstance(doc, dict) and doc.get("uuid") == valid["uuid"]:
        doc = {**doc, "uuid": str(draw(st.uuids(version=4)))}
    return json.dumps(doc).encode()


names = st.text(
    alphabet=st.characters(blacklist_categories=("Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp")),
    min_size=1,
    max_size=40,
).filter(lambda n: n.strip() == n and n and n not in ("Anna", "Ben"))


@st.composite
def renamed(draw, valid):
    """The export with a player renamed throughout (set-up, moves, result) to any name a
    person may type: markup, brackets, other scripts. A game the rules take as it is."""
    name = draw(names | st.sampled_from(["[size=400]Zoe", "[b]Bo[/b]", "[color=ff0000]", "A" * 40]))
    doc = json.loads(json.dumps(valid).replace('"Anna"', json.dumps(name)))
    doc["uuid"] = str(draw(st.uuids(version=4)))
    return json.dumps(doc).encode()


def test_import_refuses_any_bad_game_in_one_line_and_every_reader_survives_what_it_took(
    export_line, tmp_path
):
    """Mutants of a real export into one log: each refused in one line or taken; after each
    one taken, `history`, `stats`, `export` and the History and Statistics screens work."""
    from companion.ui.app import Root
    from companion.ui.context import AppContext
    from companion.ui.render import render_to_png

    data = tmp_path / "data"
    ctx = AppContext.open(data)
    root = Root(ctx)
    history, stats = root.get_screen("history"), root.get_screen("stats")
    file = tmp_path / "in.jsonl"
    taken = []

    def readers_work() -> None:
        for argv in (["history"], ["stats"], ["export", "--all"], ["export", "--bgstats"]):
            code, out, err = run([*argv, "--data-dir", str(data)])
            assert code == 0, (argv, err)
        root.current = "history"
        history.refresh()
        render_to_png(root, tmp_path / "history.png", (800, 480))  # every row drawn
        stats.show(history.history())
        assert stats.ready.wait(30)
        render_to_png(root, tmp_path / "stats.png", (800, 480))
        assert history.count_text.startswith(f"{len(ctx.log.games())} game")

    file.write_text(json.dumps(export_line) + "\n")
    assert run(["import", str(file), "--data-dir", str(data)])[0] == 0
    readers_work()

    @IMPORT_FUZZ
    @given(
        st.one_of(
            import_lines(export_line),
            import_lines(export_line),
            renamed(export_line),
            documents(export_line),
        )
    )
    def fuzz(line):
        file.write_bytes(line + b"\n")
        code, out, err = run(["import", str(file), "--data-dir", str(data)])
        assert_clean(code, err)
        if code == 0 and json.loads(out)["imported"]:
            taken.append(line)
            readers_work()

    try:
        fuzz()
        assert len(ctx.log.games()) == 1 + len(taken)
    finally:
        ctx.close()
    print(f"{len(taken)} mutants taken")


def test_import_takes_nothing_the_rules_or_the_readers_could_not_stand(export_line, tmp_path):
    """Item by item, what used to slip through a line's outline check."""
    data = tmp_path / "data"
    good = json.loads(json.dumps(export_line))
    game_uuid = good["uuid"]

    def fresh(change) -> dict:
        doc = json.loads(json.dumps(good))
        doc["uuid"] = str(__import__("uuid").uuid4())
        change(doc)
        return doc

    def first_event(doc) -> dict:
        return next(e for e in doc["entries"] if e["kind"] == "event")["event"]

    refused = {
        "options a list": lambda d: d["config"].update(options=[1]),
        "winners a number": lambda d: d["result"].update(winners=[1]),
        "players objects": lambda d: d["config"].update(players=[{"n": 1}, {"n": 2}]),
        "finished an object": lambda d: d.update(finished={}),
        "a list as type": lambda d: first_event(d).update(type=["kritters.TurnDone"]),
        "a string seed": lambda d: d["config"].update(seed="7"),
        "a 41-character name": lambda d: d["config"].update(players=["A" * 41, "Ben"]),
        "a newline in a name": lambda d: d["config"].update(players=["An\nna", "Ben"]),
        "13 players": lambda d: d["config"].update(players=[f"P{i}" for i in range(13)]),
        "dated 2030": lambda d: d.update(started="2030-01-01T00:00:00+00:00"),
        "a stated result the moves do not give": lambda d: d["result"]["scores"].update(Anna=999),
        "another winner": lambda d: d["result"].update(winners=["Ben", "Anna"]),
        "an event of another game": lambda d: first_event(d).update(
            type="laser.BidPlaced", player="Anna", bid=3
        ),
        "no moves yet finished": lambda d: d.update(entries=[]),
    }
    for why, change in refused.items():
        file = tmp_path / "in.jsonl"
        file.write_text(json.dumps(fresh(change)) + "\n")
        code, _, err = run(["import", str(file), "--data-dir", str(data)])
        assert code == 2 and "line 1:" in err and "nothing was imported" in err, (why, err)
    # the same UUID with other contents: refused, naming its line, not "already here"
    (tmp_path / "a.jsonl").write_text(json.dumps(good) + "\n")
    assert json.loads(run(["import", str(tmp_path / "a.jsonl"), "--data-dir", str(data)])[1]) == {
        "imported": 1,
        "already_here": 0,
    }
    other = json.loads(json.dumps(good))
    other["entries"] = other["entries"][:-1]
    (tmp_path / "b.jsonl").write_text(json.dumps(good) + "\n" + json.dumps(other) + "\n")
    code, _, err = run(["import", str(tmp_path / "b.jsonl"), "--data-dir", str(data)])
    assert code == 2 and "line 2:" in err and game_uuid in err, err
    code, out, _ = run(["import", str(tmp_path / "a.jsonl"), "--data-dir", str(data)])
    assert json.loads(out) == {"imported": 0, "already_here": 1}
