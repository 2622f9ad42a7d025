"""The kiosk left running: CPU share and memory of the real app, idle and in play.

    python benchmarks/kiosk.py [--display both|headless|xvfb] [--table both|sim|pi|none]
                               [--seconds 10] [--repeat 3] [--contention-seconds 40]
                               [--soak-minutes 30] [--cycles 3] [--cycles-only] [--xvfb :99]

Starts the real `companion run` (headless through SDL's offscreen driver, and in an Xvfb of
exactly 800x480), with the simulated table (strip, mock pins, rendered camera tray) and as
on a Pi (no strip, mock pins, camera and serial port as configured, absent here). A small
driver inside the app process (kiosk_driver.py) taps through it as a person would (home,
each game, Kritters with a turn clock, a Color Milk round read by the simulated camera, a
scripted Color Milk soak) and the figures come from outside: CPU seconds the app process itself used
(utime + stime from /proc/PID/stat, all its threads) over each interval, and its resident
memory. On a shared machine wall-clock CPU share misleads; the app's own CPU seconds do not,
and the load average is printed beside every figure. A bare Kivy window with five buttons,
same window and drivers, is measured first as the floor.

Targets (issue 15, this 2-core machine): home idle <= 3 % of a core and <= 250 MB; a game
idle <= 5 %; a running clock <= 10 %; <= 300 MB after 40 s of full CPU contention (three busy
loops); growth over the soak <= 10 MB.

"games opened N times": the RSS after each round of home -> game -> home through all five
games. Under SDL's offscreen driver a bare Kivy ScreenManager grows with every frame drawn
(Mesa never finishes a frame of an EGL pbuffer; see companion/ui/frames.py): the bare row
shows it, and the same with each frame finished, as the app does.
"""

from __future__ import annotations

import argparse
import os
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
GAMES = ("color-milk", "laser", "kritters", "elios", "node")
TARGETS = {"home": 3.0, "game": 5.0, "clock": 10.0}
RSS_HOME, RSS_CONTENDED, SOAK_GROWTH = 250, 300, 10
TICK = os.sysconf("SC_CLK_TCK")


# measuring from outside ------------------------------------------------------------------
def cpu_seconds(pid: int) -> float:
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICK


def rss_mb(pid: int) -> float:
    with open(f"/proc/{pid}/status") as f:
        line = next(x for x in f if x.startswith("VmRSS"))
    return int(line.split()[1]) / 1024


Sample = tuple[float, float, float, float]  # cpu %, RSS MB, frames drawn a second, load


def measure(app: App, seconds: float, during=None) -> Sample:
    """The app's CPU share of one core over `seconds` (%), its RSS at the end (MB), the
    frames its window drew a second, and the 1-minute load average. `during(seconds)`, if
    given, spends the interval doing something (dropping balls)."""
    f0 = int(app.ask("frames"))
    c0, t0 = cpu_seconds(app.pid), time.monotonic()
    (during or time.sleep)(seconds)
    c1, t1 = cpu_seconds(app.pid), time.monotonic()
    frames = int(app.ask("frames")) - f0
    return 100 * (c1 - c0) / (t1 - t0), rss_mb(app.pid), frames / (t1 - t0), os.getloadavg()[0]


class Busy:
    """Three busy loops competing for the cores, as a slower Pi or another process would."""

    def __init__(self, n: int = 3) -> None:
        self.n = n
        self.procs: list[subprocess.Popen] = []

    def __enter__(self) -> Busy:
        code = "while True: pass"
        self.procs = [subprocess.Popen([sys.executable, "-c", code]) for _ in range(self.n)]
        return self

    def __exit__(self, *exc) -> None:
        for p in self.procs:
            p.kill()
            p.wait()


class Xvfb:
    def __init__(self, display: str) -> None:
        self.display = display
        self.proc: subprocess.Popen | None = None

    def __enter__(self) -> Xvfb:
        self.proc = subprocess.Popen(
            ["Xvfb", self.display, "-screen", "0", "800x480x24", "-nolisten", "tcp"],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        lock = Path(f"/tmp/.X11-unix/X{self.display.lstrip(':')}")
        deadline = time.monotonic() + 10
        while not lock.exists() and time.monotonic() < deadline:
            time.sleep(0.05)
        return self

    def __exit__(self, *exc) -> None:
        if self.proc is not None:
            self.proc.terminate()
            self.proc.wait(10)


class App:
    """The real app in a child process, driven over its stdin (see `child` below)."""

    def __init__(self, env: dict[str, str], mode: str, tmp: Path) -> None:
        self.tmp = tmp
        sock_path = tmp / f"notify-{time.monotonic_ns()}.sock"
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        self.sock.bind(str(sock_path))
        self.sock.settimeout(120)
        self.err = open(tmp / "app-stderr.txt", "a")  # noqa: SIM115 (closed in stop)
        self.proc = subprocess.Popen(
            [sys.executable, str(Path(__file__).with_name("kiosk_driver.py")), mode],
            env={**env, "NOTIFY_SOCKET": str(sock_path)},
            cwd=ROOT,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=self.err,
            text=True,
            bufsize=1,
        )
        self.pid = self.proc.pid
        try:
            if mode != "bare":
                while b"READY=1" not in self.sock.recv(4096):
                    pass
            self.ask("ping")  # the driver answers once the UI loop runs
        except (SystemExit, OSError):  # never leave the app running behind
            self.stop(signal.SIGKILL)
            raise

    def ask(self, command: str, timeout: float = 60) -> str:
        """Send one driver command; the child answers once it is done on the UI thread."""
        self.proc.stdin.write(command + "\n")
        self.proc.stdin.flush()
        answer: list[str] = []
        reader = threading.Thread(target=lambda: answer.append(self.proc.stdout.readline()))
        reader.start()
        reader.join(timeout)
        line = answer[0].strip() if answer else ""
        if not line.startswith("ok"):
            raise SystemExit(f"the app did not do {command!r}: {line or 'no answer'}")
        return line[2:].strip()

    def stop(self, sig=signal.SIGTERM) -> float:
        """Seconds from the signal to the end of the process."""
        started = time.monotonic()
        self.proc.send_signal(sig)
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
            return float("inf")
        finally:
            self.sock.close()
            self.err.close()
        return time.monotonic() - started


# the report -------------------------------------------------------------------------------
def env_for(display: str, tmp: Path, xvfb: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("KIVY_", "KCFG_"))}
    env.update(
        PYTHONPATH=str(ROOT),
        KIVY_NO_ARGS="1",
        KIVY_NO_FILELOG="1",
        KIVY_NO_CONSOLELOG="1",
        KIVY_HOME=str(tmp / "kivy"),
        COMPANION_DATA_DIR=str(tmp / f"data-{time.monotonic_ns()}"),
        KIVY_IMAGE="sdl2",  # as `companion run` sets it
        GPIOZERO_PIN_FACTORY="mock",
    )
    if display == "headless":
        env["SDL_VIDEODRIVER"] = "offscreen"
        env.pop("DISPLAY", None)
    else:
        env.pop("SDL_VIDEODRIVER", None)
        env["DISPLAY"] = xvfb
    return env


def line(label: str, samples: list[Sample], target: float | None) -> None:
    cpus = [x[0] for x in samples]
    cpu = statistics.median(cpus)
    frames = statistics.median(x[2] for x in samples)
    verdict = f"  cpu/target {cpu / target:4.2f}" if target else ""
    print(
        f"    {label:<28} cpu {cpu:5.1f} % (runs {', '.join(f'{c:.1f}' for c in cpus)})"
        f"{verdict}  rss {samples[-1][1]:4.0f} MB  {frames:4.1f} frames/s"
        f"  load {', '.join(f'{x[3]:.1f}' for x in samples)}",
        flush=True,
    )


def open_game(a, app: App, name: str, warm_up: float | None = None) -> None:
    """Open a game and wait out its first seconds (imports, the camera's calibration)."""
    app.ask(f"game {name}")
    deadline = time.monotonic() + 60
    while app.ask("reading") != "yes" and time.monotonic() < deadline:
        time.sleep(0.5)
    time.sleep(a.warm_up if warm_up is None else warm_up)


def cycled(a, app: App, label: str, open_one, alive: bool = False) -> None:
    """RSS after each round of home -> game -> home through every game, `a.cycles` rounds.
    The first round loads each game's code, fonts and the camera's calibration; growth a
    round is measured from the end of the first to the end of the last (flat: about 0).
    `alive`: then count the app's live game objects (one game's at most)."""
    rss, f0 = [rss_mb(app.pid)], int(app.ask("frames"))
    for _ in range(a.cycles):
        for name in a.games:
            open_one(name)
            time.sleep(a.cycle_seconds)  # people look at it: its frames are drawn
            app.ask("home")
            time.sleep(a.cycle_seconds / 4)
        rss.append(rss_mb(app.pid))
    growth = (rss[-1] - rss[1]) / (a.cycles - 1) if a.cycles > 1 else float("nan")
    frames = (int(app.ask("frames")) - f0) / a.cycles
    print(
        f"    {label:<28} RSS {' -> '.join(f'{r:.0f}' for r in rss)} MB; "
        f"growth {growth:+.1f} MB a round of {len(a.games)} after the first "
        f"({frames:.0f} frames drawn a round)",
        flush=True,
    )
    if alive:
        print(f"      alive: {app.ask('alive')}", flush=True)


def figures(a, app: App, during=None) -> list[Sample]:
    time.sleep(a.settle)
    return [measure(app, a.seconds, during) for _ in range(a.repeat)]


def bench_app(a, display: str, mode: str, tmp: Path, xvfb: str) -> None:
    app = App(env_for(display, tmp, xvfb), mode, tmp)
    print(f"  {mode} table:", flush=True)
    try:
        if not a.cycles_only:
            _idle_figures(a, app, mode)
        if a.cycles:
            opened = f"games opened {a.cycles} times"
            cycled(a, app, opened, lambda name: open_game(a, app, name, 0), alive=True)
        if a.contention_seconds and not a.cycles_only:
            _contended(a, app, mode)
    finally:
        took = app.stop(signal.SIGINT)
        print(f"    SIGINT to exit: {took:.2f} s (target 2 s)", flush=True)


def _idle_figures(a, app: App, mode: str) -> None:
    line("home idle", figures(a, app), TARGETS["home"])
    home_rss = rss_mb(app.pid)
    for name in a.games:
        open_game(a, app, name)
        line(f"{name} idle", figures(a, app), TARGETS["game"])
    app.ask("clock")
    line("kritters, turn clock running", figures(a, app), TARGETS["clock"])
    if mode == "sim":
        open_game(a, app, "color-milk")
        line("color-milk, camera reads 5 balls", figures(a, app, _balls(app)), None)
    app.ask("home")
    line("home again", figures(a, app), TARGETS["home"])
    print(f"    home RSS at start {home_rss:.0f} MB (target {RSS_HOME} MB)", flush=True)


def _balls(app: App):
    """Five balls down the simulated chute, spread over the interval, on a new round."""

    def drop(seconds: float) -> None:
        app.ask("round")
        for colour in ("blue", "green", "orange", "pink", "purple"):
            app.ask(f"drop {colour}")
            time.sleep(seconds / 5)

    return drop


def _contended(a, app: App, mode: str) -> None:
    where = "color-milk with the camera" if mode == "sim" else "color-milk"
    open_game(a, app, "color-milk")
    before = peak = rss_mb(app.pid)
    with Busy():
        deadline = time.monotonic() + a.contention_seconds
        while time.monotonic() < deadline:
            time.sleep(1)
            peak = max(peak, rss_mb(app.pid))
            if mode == "sim" and int(deadline - time.monotonic()) % 8 == 0:
                app.ask("drop blue")  # the camera has something to read meanwhile
        after = rss_mb(app.pid)
        load = os.getloadavg()[0]
    print(
        f"    {a.contention_seconds:.0f} s of 3 busy loops in {where}: RSS {before:.0f} -> "
        f"{after:.0f} MB (peak {peak:.0f}, target {RSS_CONTENDED})  load {load:.1f}",
        flush=True,
    )
    app.ask("home")


def bench_bare(a, display: str, tmp: Path, xvfb: str) -> None:
    app = App(env_for(display, tmp, xvfb), "bare", tmp)
    try:
        if not a.cycles_only:
            line("bare Kivy, 5 buttons (floor)", figures(a, app), None)
        if a.cycles:
            screens = f"bare Kivy, screens opened {a.cycles} times"
            cycled(a, app, screens, lambda name: app.ask(f"bare-game {name}"))
    finally:
        app.stop()
    if a.cycles and display == "headless":  # the same, each frame finished as the app does
        app = App(env_for(display, tmp, xvfb), "bare", tmp)
        try:
            app.ask("finish")
            cycled(a, app, "  ... each frame finished", lambda n: app.ask(f"bare-game {n}"))
        finally:
            app.stop()


def soak(a, display: str, tmp: Path, xvfb: str) -> None:
    app = App(env_for(display, tmp, xvfb), "sim", tmp)
    pid = app.pid
    try:
        app.ask("soak 7")
        time.sleep(60)  # the first game warms caches (fonts, textures, the camera reader)
        c0, t0 = cpu_seconds(pid), time.monotonic()
        samples = [rss_mb(pid)]
        end = time.monotonic() + a.soak_minutes * 60
        while time.monotonic() < end:
            time.sleep(min(30, max(0.0, end - time.monotonic())))
            samples.append(rss_mb(pid))
        cpu = 100 * (cpu_seconds(pid) - c0) / (time.monotonic() - t0)
        # RSS rises and falls within each game (its log of states, its screens): compare the
        # lowest and the highest of the first third of the soak with those of the last third.
        third = max(1, len(samples) // 3)
        first, last = samples[:third], samples[-third:]
        floor, peak = min(last) - min(first), max(last) - max(first)
        print(
            f"    soak {a.soak_minutes:g} min of scripted Color Milk (after a 1 min warm-up): "
            f"RSS {samples[0]:.0f} -> {samples[-1]:.0f} MB; growth, first vs last third: "
            f"lowest {floor:+.1f} MB, highest {peak:+.1f} MB (target <= {SOAK_GROWTH}); "
            f"peak {max(samples):.0f} MB, cpu {cpu:.1f} %, load {os.getloadavg()[0]:.1f}",
            flush=True,
        )
        print(f"      RSS every 30 s: {' '.join(f'{s:.0f}' for s in samples)}", flush=True)
        print(f"      {app.ask('soaked')}", flush=True)
    finally:
        app.stop()


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--display", choices=("both", "headless", "xvfb"), default="both")
    p.add_argument("--table", choices=("both", "sim", "pi", "none"), default="both")
    p.add_argument("--xvfb", default=":99", help="X display number for Xvfb (default :99)")
    p.add_argument("--seconds", type=float, default=10, help="length of one measurement")
    p.add_argument("--repeat", type=int, default=3, help="measurements per figure")
    p.add_argument("--settle", type=float, default=2, help="seconds before measuring")
    p.add_argument("--warm-up", type=float, default=8, help="seconds after opening a game")
    p.add_argument("--games", nargs="*", default=list(GAMES))
    p.add_argument("--cycles", type=int, default=3, help="rounds of opening every game")
    p.add_argument("--cycle-seconds", type=float, default=2, help="on each game's screen")
    p.add_argument("--cycles-only", action="store_true", help="only the games opened N times")
    p.add_argument("--contention-seconds", type=float, default=40)
    p.add_argument("--soak-minutes", type=float, default=30, help="0: no soak")
    p.add_argument("--soak-only", action="store_true", help="only the soak")
    a = p.parse_args()
    displays = ("headless", "xvfb") if a.display == "both" else (a.display,)
    tables = {"both": ("sim", "pi"), "none": ()}.get(a.table, (a.table,))  # none: bare Kivy
    print(
        f"machine: {os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f} "
        f"(CPU figures: the app's own CPU seconds / wall seconds, 100 % = one core)",
        flush=True,
    )
    with tempfile.TemporaryDirectory(prefix="kiosk-bench-") as d:
        tmp = Path(d)
        for display in () if a.soak_only else displays:
            with Xvfb(a.xvfb) if display == "xvfb" else _Nothing():
                print(f"{display}{' (Xvfb 800x480 ' + a.xvfb + ')' if display == 'xvfb' else ''}:")
                bench_bare(a, display, tmp, a.xvfb)
                for mode in tables:
                    bench_app(a, display, mode, tmp, a.xvfb)
        if a.soak_minutes and not a.cycles_only:
            with Xvfb(a.xvfb):
                print(f"soak (Xvfb {a.xvfb}, simulated table):")
                soak(a, "xvfb", tmp, a.xvfb)
    return 0


class _Nothing:
    def __enter__(self):
        return self

    def __exit__(self, *exc):
        pass


if __name__ == "__main__":
    sys.exit(main())
