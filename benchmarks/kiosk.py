"""The kiosk left running at the table: CPU share and memory of the real app, measured from
outside while a person drives it.

    python benchmarks/kiosk.py [--seconds 10] [--repeat 3] [--play-minutes 30]
                               [--only home,games,clock,camera,play] [--display :NN]

Starts the real `companion run --simulate` in an Xvfb of exactly 800x480 on a display of its
own (benchmarks/kiosk_x.py) and drives it with xdotool as a person would: taps on the words
the screen shows (read back with xwd and tesseract) and the simulated table's keys. Scenes:
home idle; each game just started and left alone; a running clock (Laser's planning); the
camera watching a Laser demonstration (the mixing clock running); then a scripted-play loop of
`--play-minutes` (each game in turn: started, played through its first steps with taps and the
strip's keys, left for Home) with the RSS sampled every 30 s.

The figures come from /proc: the app's own CPU seconds (utime + stime of /proc/PID/stat, all
its threads, Mesa's too) over wall seconds, 100 % = one core, and VmRSS of /proc/PID/status.
On a shared machine the app's own CPU seconds barely depend on the load; the load average is
printed beside every figure all the same.

Targets (issue 31): home idle <= 3 %, every game idle <= 4 %, a clock <= 8 %, the camera
watching a demonstration <= 15 %; RSS <= 250 MB fresh, <= 280 MB after 30 min of play.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from kiosk_x import Kiosk, Xvfb  # noqa: E402

TICK = os.sysconf("SC_CLK_TCK")
TARGET = {"home": 3.0, "game": 4.0, "clock": 8.0, "camera": 15.0}
RSS_FRESH, RSS_PLAYED = 250.0, 280.0
# The home screen's tile of each game, by its title's first word (tapped on the largest).
GAMES = {"color-milk": "Color", "laser": "Laser", "kritters": "Kritters", "elios": "Elios",
         "node": "Node"}  # fmt: skip


def cpu_seconds(pid: int) -> float:
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICK


def rss_mb(pid: int) -> float:
    with open(f"/proc/{pid}/status") as f:
        line = next(x for x in f if x.startswith("VmRSS"))
    return int(line.split()[1]) / 1024


@dataclass
class Row:
    label: str
    target: float | None  # CPU % of one core, or MB with unit "MB"
    values: list[float] = field(default_factory=list)
    loads: list[float] = field(default_factory=list)
    unit: str = "%"

    def line(self) -> str:
        if not self.values:
            return f"  {self.label:<34} (not measured)"
        value = statistics.median(self.values) if self.unit == "%" else max(self.values)
        verdict = ""
        if self.target is not None:
            verdict = "ok  " if value <= self.target else "OVER"
        target = f"<= {self.target:g} {self.unit}" if self.target is not None else ""
        runs = ", ".join(f"{v:.1f}" for v in self.values)
        loads = ", ".join(f"{x:.1f}" for x in self.loads)
        return (
            f"  {self.label:<34} {value:6.1f} {self.unit:<2}  {target:<11} {verdict}"
            f"  (runs {runs}; load {loads})"
        )


def measure(app: Kiosk, row: Row, seconds: float, repeat: int, show: bool = True) -> Row:
    for _ in range(repeat):
        c0, t0 = cpu_seconds(app.pid), time.monotonic()
        time.sleep(seconds)
        c1, t1 = cpu_seconds(app.pid), time.monotonic()
        row.values.append(100 * (c1 - c0) / (t1 - t0))
        row.loads.append(os.getloadavg()[0])
    if show:
        print(row.line(), flush=True)
    return row


def open_game(app: Kiosk, name: str) -> None:
    """From home: the game's tile, then Start (held when another game is unfinished: the
    first tap then only warns)."""
    app.tap(GAMES[name], largest=True)
    app.tap("Start")
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        words = {w.text.lower() for w in app.words()}
        if "anyway" in words:  # "Not finished yet: ...", "Hold to start a new game anyway"
            app.hold("anyway")
        elif "undo" in words or not any(w.startswith(("seat", "playing")) for w in words):
            return  # the game's header, or at least no longer the set-up's seats (a header
            # greyed out at a game's start is too faint for tesseract)
        time.sleep(0.5)
    raise SystemExit(f"{name} did not start")


HOME_BUTTON = (45, 38)  # the header's first button, in the same place on every game screen


def go_home(app: Kiosk) -> None:
    """Tap Home (its label is too short for tesseract to find on every screen), then wait
    for the home screen."""
    for _ in range(3):  # a notice or a sheet may take the first tap
        if app.shows("Close"):  # a game played to its end: its results sheet
            app.tap("Close")
        app.tap_at(*HOME_BUTTON)
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            words = {w.text.lower() for w in app.words()}
            if {"settings", "history"} & words:
                return
            time.sleep(0.5)
    shown = " ".join(w.text for w in app.words())
    raise SystemExit(f"Home did not bring the home screen back; the screen shows: {shown[:400]}")


def laser_round(app: Kiosk) -> None:
    """A Laser game from home up to the demonstration: two prism cards revealed on the
    simulated table (the camera reads them), planning, bids, a teammate, then mixing."""
    open_game(app, "laser")
    app.key("r", settle=1.5)
    app.key("r", settle=1.5)
    app.tap("Everyone")  # planning clock: everyone is ready
    shown = app.words()
    rows = sorted({w.y for w in shown if w.text == "5"})  # one row of bids a player
    for y, bid in zip(rows, ("5", "4", "6"), strict=False):
        hit = min((w for w in shown if w.text == bid), key=lambda w: abs(w.y - y))
        app.tap_at(hit.x, hit.y)
    app.tap("(4)", timeout=10)  # the closest bid as teammate


def scripted_game(app: Kiosk, name: str, seconds: float) -> None:
    """One game for `seconds`: started, then played with the strip's keys and taps as people
    would (lay and reveal cards, drop balls, next), then Home."""
    steps = {
        "color-milk": ["l", "l", "l", "r", "space", "space", "space", "space", "space", "n"],
        "laser": ["r", "r", "n", "b", "n"],
        "kritters": ["n", "n", "b", "n"],
        "elios": ["n", "n", "n"],
        "node": ["l", "n", "l", "n", "l"],
    }[name]
    open_game(app, name)
    end = time.monotonic() + seconds
    i = 0
    while time.monotonic() < end:
        app.key(steps[i % len(steps)], settle=2.0)
        i += 1
    go_home(app)


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--seconds", type=float, default=10, help="length of one measurement")
    p.add_argument("--repeat", type=int, default=3, help="measurements per figure")
    p.add_argument("--warm-up", type=float, default=10, help="seconds after opening a game")
    p.add_argument("--play-minutes", type=float, default=30, help="the scripted-play loop")
    p.add_argument("--only", default="home,games,clock,camera,play")
    p.add_argument("--display", default=None, help="an X display to start Xvfb on")
    a = p.parse_args()
    only = set(a.only.split(","))
    rows: list[Row] = []
    print(
        f"machine: {os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f} "
        "(CPU: the app's own CPU seconds / wall seconds, 100 % = one core)",
        flush=True,
    )
    with tempfile.TemporaryDirectory(prefix="kiosk-bench-") as d, Xvfb(a.display) as x:
        app = Kiosk(x.display, Path(d))
        print(f"Xvfb 800x480 on {x.display}, app pid {app.pid}", flush=True)
        try:
            time.sleep(3)
            rows.append(Row("RSS fresh (home)", RSS_FRESH, [rss_mb(app.pid)], unit="MB"))
            print(rows[-1].line(), flush=True)
            if "home" in only:
                rows.append(measure(app, Row("home idle", TARGET["home"]), a.seconds, a.repeat))
            if "games" in only:
                for name in GAMES:
                    open_game(app, name)
                    time.sleep(a.warm_up)  # the camera's first calibration, imports
                    row = Row(f"{name} idle", TARGET["game"])
                    rows.append(measure(app, row, a.seconds, a.repeat))
                    go_home(app)
            if "clock" in only:  # Laser's 30 s planning clock, with the camera on the ring
                row = Row("a clock running (Laser planning)", TARGET["clock"])
                for _ in range(a.repeat):
                    open_game(app, "laser")
                    app.key("r", settle=1.5)
                    app.key("r", settle=1.5)
                    measure(app, row, min(a.seconds, 20), 1, show=False)
                    go_home(app)
                rows.append(row)
                print(row.line(), flush=True)
            if "camera" in only:
                row = Row("camera watching a demonstration", TARGET["camera"])
                for _ in range(a.repeat):
                    laser_round(app)
                    measure(app, row, min(a.seconds, 20), 1, show=False)
                    go_home(app)
                rows.append(row)
                print(row.line(), flush=True)
            if "play" in only and a.play_minutes > 0:
                rows += play(app, a.play_minutes)
        finally:
            app.stop()
    print("\nkiosk figures (CPU: median of the runs; RSS: the highest sample)")
    for row in rows:
        print(row.line())
    return 0


def play(app: Kiosk, minutes: float) -> list[Row]:
    """The scripted-play loop: every game in turn, a minute each, RSS every 30 s."""
    rss = Row(f"RSS after {minutes:g} min of play", RSS_PLAYED, unit="MB")
    cpu = Row(f"CPU over {minutes:g} min of play", None)
    c0, t0 = cpu_seconds(app.pid), time.monotonic()
    end = t0 + minutes * 60
    samples = [rss_mb(app.pid)]
    next_sample = t0 + 30
    games = list(GAMES)
    i = 0
    while time.monotonic() < end:
        scripted_game(app, games[i % len(games)], min(60, max(5, end - time.monotonic())))
        i += 1
        if time.monotonic() >= next_sample:
            samples.append(rss_mb(app.pid))
            next_sample += 30
            minute = (time.monotonic() - t0) / 60
            print(f"    {minute:4.1f} min, {i} games: RSS {samples[-1]:.0f} MB", flush=True)
    time.sleep(5)
    samples.append(rss_mb(app.pid))
    cpu.values.append(100 * (cpu_seconds(app.pid) - c0) / (time.monotonic() - t0))
    cpu.loads.append(os.getloadavg()[0])
    rss.values, rss.loads = [samples[-1]], [os.getloadavg()[0]]
    print(f"  {i} games played; RSS samples (MB): {' '.join(f'{s:.0f}' for s in samples)}")
    print(f"  peak RSS {max(samples):.0f} MB")
    return [cpu, rss]


if __name__ == "__main__":
    sys.exit(main())
