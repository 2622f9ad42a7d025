"""The kiosk left running: CPU share and memory of the real app, idle and in play.

    python benchmarks/kiosk.py [--display both|headless|xvfb] [--table both|sim|pi]
                               [--seconds 10] [--repeat 3] [--contention-seconds 40]
                               [--soak-minutes 30] [--xvfb :99]

Starts the real `companion run` (headless through SDL's offscreen driver, and in an Xvfb of
exactly 800x480), with the simulated table (strip, mock pins, rendered camera tray) and as
on a Pi (no strip, mock pins, camera and serial port as configured, absent here). A small
driver inside the app process taps through it the way a person would (home, a game, Kritters
with a turn clock, a Color Milk round read by the simulated camera, a scripted Color Milk
soak) and the figures come from outside: CPU seconds the app process itself used
(utime + stime from /proc/PID/stat, all its threads) over each interval, and its resident
memory. On a shared machine wall-clock CPU share misleads; the app's own CPU seconds do not,
and the load average is printed beside every figure. A bare Kivy window with five buttons,
same window and drivers, is measured first as the floor.

Targets (issue 15, this 2-core machine): home idle <= 3 % of a core and <= 250 MB; a game
idle <= 5 %; a running clock <= 10 %; <= 300 MB after 40 s of full CPU contention (three busy
loops); growth over the soak <= 10 MB.
"""

from __future__ import annotations

import argparse
import contextlib
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
        started = time.monotonic()
        self.proc = subprocess.Popen(
            [sys.executable, str(Path(__file__).resolve()), "--child", mode],
            env={**env, "NOTIFY_SOCKET": str(sock_path)},
            cwd=ROOT,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=self.err,
            text=True,
            bufsize=1,
        )
        if mode != "bare":
            while b"READY=1" not in self.sock.recv(4096):
                pass
        self.ready_seconds = time.monotonic() - started
        self.pid = self.proc.pid
        self.ask("ping")  # the driver answers once the UI loop runs

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


# the driver inside the app process --------------------------------------------------------
def child(mode: str) -> int:
    """Run the real app (or a bare Kivy window) and obey commands on stdin, one a line, each
    carried out on the UI thread. The app is started exactly as `companion run` starts it."""
    # Kivy's clock is loaded here, before the driver's thread may touch it (two threads
    # importing Kivy at once break its import); it creates no window.
    from kivy.clock import Clock

    running = threading.Event()
    Clock.schedule_once(lambda _dt: running.set())  # the first frame of the loop
    threading.Thread(target=_obey, args=(running,), daemon=True, name="bench-driver").start()
    if mode == "bare":
        return _bare_kivy()
    if mode == "pi":
        import hardware.table

        hardware.table.pi_present = lambda *a: True  # as on a Pi: real parts, mock pins
    from companion.cli import main

    return main(["run"] + (["--simulate"] if mode == "sim" else []))


def _bare_kivy() -> int:
    from companion.ui.launch import configure_window

    configure_window((800, 480))
    from kivy.app import App as KivyApp
    from kivy.uix.boxlayout import BoxLayout
    from kivy.uix.button import Button

    class Bare(KivyApp):
        def build(self):
            box = BoxLayout(orientation="vertical")
            for i in range(5):
                box.add_widget(Button(text=f"Button {i + 1}"))
            return box

    Bare().run()
    return 0


def _obey(running: threading.Event) -> None:
    from kivy.clock import Clock

    running.wait()
    for line in sys.stdin:
        if line.split():
            print(_on_ui_thread(Clock, line.split()), flush=True)


def _on_ui_thread(clock, words: list[str]) -> str:
    done = threading.Event()
    result: list[str] = []

    def run(_dt):
        try:
            result.append("ok " + (COMMANDS[words[0]](*words[1:]) or ""))
        except Exception as exc:  # the parent stops with this message
            result.append(f"error {type(exc).__name__}: {exc}")
        done.set()

    clock.schedule_once(run)
    done.wait(60)
    return result[0] if result else "error: the UI thread did not answer"


def _app():
    from kivy.app import App as KivyApp

    return KivyApp.get_running_app()


def _root():
    from companion.ui.app import Root

    return next(w for w in _app().root.walk() if isinstance(w, Root))


def _home() -> str:
    _root().current = "home"
    return ""


def _game(name: str) -> str:
    root = _root()
    root.choose_game(name)
    root.get_screen("setup").start()
    return root.get_screen("game").session.game.name


def _clock() -> str:
    """Kritters with a turn clock: the first player is chosen and the clock runs."""
    from dataclasses import replace

    ctx = _app().ctx
    ctx.save_settings(replace(ctx.settings, turn_timer_seconds=900))
    _game("kritters")
    screen = _root().get_screen("game")
    for _ in range(5):
        timer = screen.session.timer
        if timer is not None and timer.running:
            return f"{timer.remaining():.0f} s left"
        screen.submit(screen.session.game.legal_actions(screen.session.state)[0])
    raise RuntimeError("no clock started")


def _drop(colour: str) -> str:
    """A ball down the simulated chute, as the strip's ball button drops it."""
    strip = next(w for w in _app().root.walk() if type(w).__name__ == "SimPanel")
    strip._drop(colour)
    return ""


def _reading() -> str:
    """Whether the game's camera reads frames yet (its first calibration takes seconds)."""
    camera = _app().ctx.camera
    if camera is None or camera.reading.is_set():
        return "yes"
    feed = camera.feed  # as on a Pi without a camera: it stays disconnected
    return "yes" if feed is not None and feed.camera.status.value == "disconnected" else "no"


def _alive() -> str:
    """How many game screens, sessions and camera links are still in memory (a closed
    game's should be gone)."""
    import gc

    from kivy.graphics.texture import Texture

    from companion.session import Session
    from companion.ui.camera_link import CameraLink
    from companion.ui.game_screen import GameScreen

    gc.collect()
    kinds = (GameScreen, Session, CameraLink, Texture)
    counts = dict.fromkeys((k.__name__ for k in kinds), 0)
    for obj in gc.get_objects():
        for kind in kinds:
            with contextlib.suppress(ReferenceError):  # a dead weak proxy
                counts[kind.__name__] += isinstance(obj, kind)
    return " ".join(f"{k}={v}" for k, v in counts.items())


def _trace(what: str) -> str:
    """`trace start`: remember Python's allocations from now; `trace top`: the ten places
    whose allocations grew most since (tracemalloc)."""
    import tracemalloc

    if what == "start":
        tracemalloc.start(8)
        _TRACED[:] = [tracemalloc.take_snapshot()]
        return ""
    stats = tracemalloc.take_snapshot().compare_to(_TRACED[0], "lineno")
    return " | ".join(str(s) for s in stats[:10])


_TRACED: list = []


def _round() -> str:
    """A new Color Milk game on an emptied tray: the camera waits for its first ball."""
    _app().ctx.sim_tray.clear()
    return _game("color-milk")


def _soak(seed: str) -> str:
    """Scripted Color Milk games, one after the other, paced like people at the table:
    predictions, balls down the simulated chute (the camera reads the tray), taps."""
    threading.Thread(target=_soak_loop, args=(int(seed),), daemon=True, name="soak").start()
    return ""


SOAK_STEP = 0.25  # seconds between two things people do


def _soak_loop(seed: int) -> None:
    import random

    from kivy.clock import Clock

    from companion.errors import IllegalMove
    from companion.games.color_milk.autoplay import ScriptedTable

    def on_ui(fn):
        done, out = threading.Event(), []

        def run(_dt):
            try:
                out.append(fn())
            except IllegalMove:
                out.append(())
            done.set()

        Clock.schedule_once(run)
        done.wait(30)
        time.sleep(SOAK_STEP)
        return out[0] if out else ()

    def submit(event):
        def apply():
            screen = _root().get_screen("game")
            cues = screen.session.submit(event)
            screen.refresh()
            return cues

        return on_ui(apply)

    rng = random.Random(seed)
    try:
        while True:
            on_ui(_round)
            table = ScriptedTable(
                submit=submit,
                state=lambda: _root().get_screen("game").session.state,
                rng=rng,
                drop=lambda colour: on_ui(lambda: _drop(colour)),
            )
            table.play(max_rounds=12)
            _SOAKED["games"] += 1
    except Exception as exc:  # the report says the soak stopped, and why
        _SOAKED["error"] = f"{type(exc).__name__}: {exc}"


_SOAKED = {"games": 0, "error": ""}


def _soaked() -> str:
    stopped = f"; stopped: {_SOAKED['error']}" if _SOAKED["error"] else ""
    return f"{_SOAKED['games']} games played{stopped}"


def _frames() -> str:
    """How many frames the window has drawn since the driver first asked."""
    if not _FRAMES:
        from kivy.core.window import Window

        _FRAMES.append(0)
        Window.bind(on_flip=lambda *_: _FRAMES.__setitem__(0, _FRAMES[0] + 1))
    return str(_FRAMES[0])


_FRAMES: list[int] = []


def _camera(on: str) -> str:
    _app().ctx.watch_balls(on == "on")
    return ""


COMMANDS = {
    "frames": _frames,
    "camera": _camera,
    "ping": lambda: "",
    "home": _home,
    "game": _game,
    "clock": _clock,
    "drop": _drop,
    "round": _round,
    "trace": _trace,
    "alive": _alive,
    "reading": _reading,
    "soaked": _soaked,
    "soak": _soak,
}


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


def open_game(a, app: App, name: str) -> None:
    """Open a game and wait out its first seconds (imports, the camera's calibration)."""
    app.ask(f"game {name}")
    deadline = time.monotonic() + 60
    while app.ask("reading") != "yes" and time.monotonic() < deadline:
        time.sleep(0.5)
    time.sleep(a.warm_up)


def figures(a, app: App, during=None) -> list[Sample]:
    time.sleep(a.settle)
    return [measure(app, a.seconds, during) for _ in range(a.repeat)]


def bench_app(a, display: str, mode: str, tmp: Path, xvfb: str) -> None:
    app = App(env_for(display, tmp, xvfb), mode, tmp)
    print(f"  {mode} table:", flush=True)
    try:
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
        if a.contention_seconds:
            _contended(a, app, mode)
    finally:
        took = app.stop(signal.SIGINT)
        print(f"    SIGINT to exit: {took:.2f} s (target 2 s)", flush=True)


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
        line("bare Kivy, 5 buttons (floor)", figures(a, app), None)
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
        start = statistics.median(samples[:3])
        last = statistics.median(samples[-3:])
        print(
            f"    soak {a.soak_minutes:g} min of scripted Color Milk (after a 1 min warm-up): "
            f"RSS {start:.0f} -> {last:.0f} MB, growth {last - start:+.1f} MB "
            f"(target <= {SOAK_GROWTH}), peak {max(samples):.0f}, cpu {cpu:.1f} %, "
            f"load {os.getloadavg()[0]:.1f}",
            flush=True,
        )
        print(f"      RSS every 30 s: {' '.join(f'{s:.0f}' for s in samples)}", flush=True)
        print(f"      {app.ask('soaked')}", flush=True)
    finally:
        app.stop()


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--child", help=argparse.SUPPRESS)
    p.add_argument("--display", choices=("both", "headless", "xvfb"), default="both")
    p.add_argument("--table", choices=("both", "sim", "pi"), default="both")
    p.add_argument("--xvfb", default=":99", help="X display number for Xvfb (default :99)")
    p.add_argument("--seconds", type=float, default=10, help="length of one measurement")
    p.add_argument("--repeat", type=int, default=3, help="measurements per figure")
    p.add_argument("--settle", type=float, default=2, help="seconds before measuring")
    p.add_argument("--warm-up", type=float, default=8, help="seconds after opening a game")
    p.add_argument("--games", nargs="*", default=list(GAMES))
    p.add_argument("--contention-seconds", type=float, default=40)
    p.add_argument("--soak-minutes", type=float, default=30, help="0: no soak")
    p.add_argument("--soak-only", action="store_true", help="only the soak")
    a = p.parse_args()
    if a.child:
        return child(a.child)
    displays = ("headless", "xvfb") if a.display == "both" else (a.display,)
    tables = ("sim", "pi") if a.table == "both" else (a.table,)
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
        if a.soak_minutes:
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
