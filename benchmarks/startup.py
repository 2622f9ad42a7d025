"""How long from switching on the app to its first drawn screen, and who spends the time.

    python benchmarks/startup.py [--runs 3] [--target 3.0]

Runs the real `python -m companion run --simulate` headless (SDL offscreen) under a notify
socket and times it to READY=1 (sent after the first frame, with the table open); and
`companion run --screenshot`, which builds the home screen and draws it once.
Prints wall time and CPU time (wall time alone misleads on a busy machine), the ratio to the
target, both as the app starts by default and with the kiosk service's environment, then
an import-time report (`-X importtime`, up to READY=1) grouped by package, with the import
chain that pulls in each heavy library, and what opening each game adds.
"""

from __future__ import annotations

import argparse
import os
import re
import resource
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
HEAVY = (
    "cv2",
    "numpy",
    "PIL",
    "kivy",
    "asyncio",
    "gpiozero",
    "serial",
    "picamera2",
    "vision",
    "hardware",
)
# What systemd/companion.service adds that changes start-up work.
SERVICE_ENV = {"KIVY_IMAGE": "sdl2"}


def base_env(tmp: Path) -> dict[str, str]:
    env = dict(os.environ)
    for key in list(env):
        if key.startswith(("KIVY_", "KCFG_")):
            del env[key]
    env.update(
        PYTHONPATH=str(ROOT),
        SDL_VIDEODRIVER="offscreen",
        KIVY_NO_ARGS="1",
        KIVY_NO_FILELOG="1",
        KIVY_HOME=str(tmp / "kivy"),
        COMPANION_DATA_DIR=str(tmp / "data"),
    )
    return env


def command(png: Path) -> list[str]:
    return [sys.executable, "-m", "companion", "run", "--simulate", "--screenshot", str(png)]


def timed(cmd: list[str], env: dict[str, str]) -> tuple[float, float, str]:
    """Wall seconds, CPU seconds (user + sys) of the child, and its stderr."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    out = subprocess.run(cmd, env=env, capture_output=True, text=True, cwd=ROOT, timeout=300)
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if out.returncode != 0:
        raise SystemExit(f"start-up failed ({out.returncode}): {out.stderr.strip()[-500:]}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu, out.stderr


def until_ready(env: dict[str, str], tmp: Path, stderr_path: Path | None = None):
    """The real `companion run --simulate` (table included) under a notify socket: seconds
    from spawning it to READY=1, and its CPU time by then. Then stopped with SIGTERM."""
    path = tmp / "notify.sock"
    path.unlink(missing_ok=True)
    err_path = stderr_path or Path(os.devnull)
    with (
        socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as sock,
        open(err_path, "w") as err,
    ):
        sock.bind(str(path))
        sock.settimeout(120)
        run_env = {**env, "NOTIFY_SOCKET": str(path)}
        started = time.perf_counter()
        proc = subprocess.Popen(
            [sys.executable, "-m", "companion", "run", "--simulate"],
            env=run_env,
            cwd=ROOT,
            stdout=subprocess.DEVNULL,
            stderr=err,
        )
        try:
            while b"READY=1" not in sock.recv(4096):
                pass
            wall = time.perf_counter() - started
            with open(f"/proc/{proc.pid}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
            cpu = (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
        finally:
            proc.send_signal(signal.SIGTERM)
            try:
                proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
    return wall, cpu


def startup(runs: int, extra: dict[str, str], tmp: Path) -> tuple[list[float], list[float]]:
    walls, cpus = [], []
    for i in range(runs + 1):  # the first run writes Kivy's config and warms the disk cache
        env = {**base_env(tmp), **extra}
        wall, cpu, _ = timed(command(tmp / f"shot{i}.png"), env)
        if i:
            walls.append(wall)
            cpus.append(cpu)
    return walls, cpus


# import-time report ---------------------------------------------------------------------
LINE = re.compile(r"import time:\s+(\d+) \|\s+(\d+) \| (\s*)(\S+)")


def parse_importtime(stderr: str) -> list[tuple[int, int, int, str]]:
    """(self_us, cumulative_us, depth, module) in the order Python printed them."""
    rows = []
    for line in stderr.splitlines():
        m = LINE.match(line)
        if m:
            rows.append((int(m[1]), int(m[2]), len(m[3]) // 2, m[4]))
    return rows


def chain(rows, index: int) -> list[str]:
    """The import chain that first pulled in rows[index], outermost first. Python prints a
    module after its children, so each parent is the next row one level up."""
    names = [rows[index][3]]
    depth = rows[index][2]
    for _, _, d, name in rows[index + 1 :]:
        if d == depth - 1:
            names.append(name)
            depth = d
            if d == 0:
                break
    return names[::-1]


def report_imports(rows, top: int = 12) -> None:
    total = sum(r[0] for r in rows) / 1e6
    print(f"\nimports: {len(rows)} modules, {total:.2f} s in total (-X importtime)")
    by_package: dict[str, float] = {}
    for self_us, _, _, name in rows:
        pkg = name.split(".")[0]
        by_package[pkg] = by_package.get(pkg, 0.0) + self_us / 1e6
    print("  by package (own time):")
    for pkg, secs in sorted(by_package.items(), key=lambda kv: -kv[1])[:top]:
        print(f"    {pkg:<22} {secs:6.3f} s  {secs / total:5.1%}")
    print("  heavy libraries and the chain that pulls them in:")
    for lib in HEAVY:
        hit = next((i for i, r in enumerate(rows) if r[3] == lib), None)
        if hit is None:
            print(f"    {lib:<10} not imported")
            continue
        print(f"    {lib:<10} {rows[hit][1] / 1e6:6.3f} s  via {' > '.join(chain(rows, hit))}")
    ours = [r for r in rows if r[3].startswith("companion")]
    print("  our modules by cumulative time (includes what they import):")
    for _, cum, _, name in sorted(ours, key=lambda r: -r[1])[:8]:
        print(f"    {name:<34} {cum / 1e6:6.3f} s")


GAME_IMPORT = """
import importlib, sys, time
import companion.ui.app  # what is loaded before a game is opened
from companion import catalogue
info = catalogue.info(sys.argv[1])
before = set(sys.modules)
t = time.perf_counter()
importlib.import_module(info.package)
try:
    importlib.import_module(info.package + ".screen")
except ModuleNotFoundError:
    pass
took = time.perf_counter() - t
heavy = sorted({m.split(".")[0] for m in set(sys.modules) - before} & {"numpy", "cv2", "PIL"})
print(f"{took:.3f} {','.join(heavy) or '-'}")
"""


def report_games(env: dict[str, str]) -> None:
    """What opening each game adds (its rules and screen), on top of the home screen. This
    lands before READY=1 when the app reopens an unfinished game at boot."""
    from companion import catalogue

    print("\nopening a game (rules + screen, imported after the home screen):")
    for info in catalogue.games():
        out = subprocess.run(
            [sys.executable, "-c", GAME_IMPORT, info.name],
            env=env,
            capture_output=True,
            text=True,
            cwd=ROOT,
            timeout=120,
        )
        if out.returncode != 0:
            print(f"    {info.name:<12} failed: {out.stderr.strip().splitlines()[-1:]}")
            continue
        took, heavy = out.stdout.split()
        print(f"    {info.name:<12} {float(took):6.3f} s  new heavy imports: {heavy}")


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--runs", type=int, default=3)
    p.add_argument("--target", type=float, default=3.0, help="seconds to the first screen")
    a = p.parse_args()
    with tempfile.TemporaryDirectory(prefix="startup-") as d:
        tmp = Path(d)
        bare = base_env(tmp)
        baseline, _, _ = timed([sys.executable, "-c", "pass"], bare)
        load = os.getloadavg()[0]
        print(
            f"machine: {os.cpu_count()} cores, load average {load:.1f}; "
            f"bare `python -c pass`: {baseline:.3f} s"
        )
        print(f"start-up, median of {a.runs} (target {a.target:.1f} s):")
        print("  `companion run --simulate` until it sends READY=1 (first frame, table open):")
        for label, extra in (("app defaults", {}), ("service environment", SERVICE_ENV)):
            results = [until_ready({**base_env(tmp), **extra}, tmp) for _ in range(a.runs + 1)]
            walls, cpus = [r[0] for r in results[1:]], [r[1] for r in results[1:]]
            wall, cpu = statistics.median(walls), statistics.median(cpus)
            print(
                f"  {label:<20} wall {wall:5.2f} s (min {min(walls):.2f})  cpu {cpu:5.2f} s  "
                f"wall/target {wall / a.target:4.2f}  cpu/target {cpu / a.target:4.2f}"
            )
        print("  `companion run --screenshot` (home screen drawn once, no table):")
        for label, extra in (("app defaults", {}), ("service environment", SERVICE_ENV)):
            walls, cpus = startup(a.runs, extra, tmp)
            wall, cpu = statistics.median(walls), statistics.median(cpus)
            print(
                f"  {label:<20} wall {wall:5.2f} s (min {min(walls):.2f})  cpu {cpu:5.2f} s  "
                f"wall/target {wall / a.target:4.2f}  cpu/target {cpu / a.target:4.2f}"
            )
        # Imports of the real run, up to READY=1 (the table included), as the app defaults.
        log = tmp / "importtime.txt"
        until_ready({**bare, "PYTHONPROFILEIMPORTTIME": "1"}, tmp, stderr_path=log)
        report_imports(parse_importtime(log.read_text()))
        report_games({**bare, **SERVICE_ENV})
    return 0


if __name__ == "__main__":
    sys.exit(main())
