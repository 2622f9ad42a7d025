"""The kiosk unit and its installer: what systemd will see, checked by systemd's own tools."""

from __future__ import annotations

import configparser
import functools
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
UNIT = ROOT / "systemd" / "companion.service"
INSTALL = ROOT / "systemd" / "install.sh"
KIVY_CONFIG = ROOT / "systemd" / "kivy_config.py"


def unit_entries() -> dict[str, list[tuple[str, str]]]:
    """Sections of the unit as ordered (key, value) pairs; keys may repeat (Environment=)."""
    sections: dict[str, list[tuple[str, str]]] = {}
    current = None
    for raw in UNIT.read_text().splitlines():
        line = raw.strip()
        if not line or line.startswith(("#", ";")):
            continue
        if line.startswith("["):
            current = sections.setdefault(line.strip("[]"), [])
            continue
        key, _, value = line.partition("=")
        current.append((key.strip(), value.strip()))
    return sections


def one(section: str, key: str) -> str:
    values = [v for k, v in unit_entries()[section] if k == key]
    assert len(values) == 1, f"{key}= appears {len(values)} times in [{section}]"
    return values[0]


def environment() -> dict[str, str]:
    env = {}
    for k, v in unit_entries()["Service"]:
        if k == "Environment":
            name, _, value = v.partition("=")
            env[name] = value
    return env


def test_unit_is_a_notify_service_with_a_watchdog_and_restart():
    assert one("Service", "Type") == "notify"
    assert one("Service", "NotifyAccess") == "main"
    seconds = int(one("Service", "WatchdogSec").removesuffix("s"))
    assert 5 <= seconds <= 60
    assert one("Service", "Restart") == "on-failure"
    assert one("Install", "WantedBy") == "multi-user.target"


def test_unit_runs_the_app_from_the_installed_venv_as_its_own_user():
    exec_start = one("Service", "ExecStart").split()
    assert exec_start == ["/opt/table-companion/venv/bin/companion", "run"]
    assert one("Service", "User") == "companion"
    groups = set(one("Service", "SupplementaryGroups").split())
    assert {"gpio", "video", "input", "dialout"} <= groups
    installer = INSTALL.read_text()
    assert "PREFIX=${COMPANION_PREFIX:-/opt/table-companion}" in installer
    for g in groups:  # the installer must create every group, or the unit fails to start
        assert re.search(rf"GROUPS_NEEDED=\([^)]*\b{g}\b", installer), g


def test_unit_is_hardened_but_can_write_its_data_dir():
    assert one("Service", "NoNewPrivileges") == "yes"
    assert one("Service", "ProtectSystem") == "strict"
    assert one("Service", "PrivateTmp") == "yes"
    assert one("Service", "ProtectHome") == "yes"
    state = one("Service", "StateDirectory")
    env = environment()
    # ProtectSystem=strict leaves only the StateDirectory writable: the log must live there.
    assert env["COMPANION_DATA_DIR"] == f"/var/lib/{state}"
    assert env["KIVY_HOME"].startswith(env["COMPANION_DATA_DIR"] + "/")
    assert env["COMPANION_CONFIG_DIR"] == f"/etc/{one('Service', 'ConfigurationDirectory')}"
    assert env["COMPANION_PINS"] == env["COMPANION_CONFIG_DIR"] + "/pins.toml"


def test_hardening_leaves_the_devices_reachable():
    """PrivateDevices, DeviceAllow, a closed DevicePolicy, and ProtectClock (which implies
    DeviceAllow=char-rtc) would each cut the app off its screen, touch, pins and camera."""
    keys = {k: v for k, v in unit_entries()["Service"]}
    assert keys.get("PrivateDevices", "no") == "no"
    assert keys.get("ProtectClock", "no") == "no"
    assert "DeviceAllow" not in keys
    assert keys.get("DevicePolicy", "auto") == "auto"


def test_unit_draws_on_the_display_without_a_desktop():
    env = environment()
    assert env["SDL_VIDEODRIVER"] == "kmsdrm"
    assert env["KIVY_WINDOW"] == "sdl2"
    assert env["KIVY_IMAGE"] == "sdl2"  # keeps PIL and numpy out of start-up
    assert env["SDL_TOUCH_MOUSE_EVENTS"] == "0"  # touches arrive once, through hidinput
    assert env["KCFG_KIVY_EXIT_ON_ESCAPE"] == "0"  # a keyboard's Esc must not end the kiosk


systemd_analyze = shutil.which("systemd-analyze")
needs_systemd_analyze = pytest.mark.skipif(
    systemd_analyze is None, reason="systemd-analyze is not installed on this machine"
)


def rendered_unit(prefix: Path, user: str = "companion") -> str:
    """The unit exactly as the installer would write it for this prefix and user."""
    out = run_installer(
        "--print-unit", env={"COMPANION_PREFIX": str(prefix), "COMPANION_USER": user}
    )
    assert out.returncode == 0, out.stderr
    return out.stdout


def verify(unit_text: str, tmp_path: Path) -> subprocess.CompletedProcess:
    """`systemd-analyze verify`; the unit's ExecStart must exist, so make it under tmp."""
    binary = tmp_path / "opt" / "venv" / "bin" / "companion"
    binary.parent.mkdir(parents=True, exist_ok=True)
    binary.write_text("#!/bin/sh\n")
    binary.chmod(0o755)
    unit = tmp_path / "companion.service"
    unit.write_text(unit_text)
    return subprocess.run(
        [systemd_analyze, "verify", str(unit)], capture_output=True, text=True, timeout=60
    )


def test_installer_renders_the_unit_for_its_prefix_and_user(tmp_path):
    text = rendered_unit(tmp_path / "opt", user="tc")
    assert f"ExecStart={tmp_path}/opt/venv/bin/companion run\n" in text
    assert "\nUser=tc\n" in text and "\nGroup=tc\n" in text
    assert "/opt/table-companion" not in text
    assert rendered_unit(Path("/opt/table-companion")) == UNIT.read_text()


@needs_systemd_analyze
def test_systemd_analyze_verify_is_clean(tmp_path):
    out = verify(rendered_unit(tmp_path / "opt"), tmp_path)
    assert out.returncode == 0, out.stderr
    assert out.stdout + out.stderr == ""


@needs_systemd_analyze
def test_systemd_analyze_verify_would_catch_a_bad_directive(tmp_path):
    text = rendered_unit(tmp_path / "opt").replace("Type=notify", "Type=notfy")
    out = verify(text, tmp_path)
    assert "notfy" in out.stdout + out.stderr


@needs_systemd_analyze
def test_security_exposure_stays_low(tmp_path):
    out = subprocess.run(
        [systemd_analyze, "security", "--offline=true", "--no-pager", str(UNIT)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    match = re.search(r"Overall exposure level for companion.service: ([\d.]+)", out.stdout)
    if match is None:
        pytest.skip(f"this systemd-analyze cannot score offline units: {out.stderr.strip()}")
    assert float(match.group(1)) <= 2.0, out.stdout


def test_memory_is_capped_so_a_runaway_is_restarted_not_the_box_halted():
    high, most = (one("Service", key) for key in ("MemoryHigh", "MemoryMax"))
    assert high.endswith("M") and most.endswith("M")
    assert 300 < int(high[:-1]) < int(most[:-1]) <= 1024  # above the app's need, below a Pi's RAM
    assert one("Service", "Restart") == "on-failure"  # stopped at the cap: back with its game


def test_no_network_and_only_an_ordinary_services_system_calls():
    assert one("Service", "RestrictAddressFamilies").split() == ["AF_UNIX", "AF_NETLINK"]
    assert one("Service", "IPAddressDeny") == "any"
    assert one("Service", "SystemCallFilter") == "@system-service"
    assert one("Service", "SystemCallErrorNumber") == "EPERM"  # a refused call never kills
    for key in ("ProtectKernelTunables", "ProtectKernelModules", "ProtectControlGroups"):
        assert one("Service", key) == "yes", key
    assert one("Service", "LockPersonality") == one("Service", "RestrictRealtime") == "yes"
    # Mesa's llvmpipe JIT needs writable executable memory (see the unit's comment).
    assert "MemoryDenyWriteExecute" not in dict(unit_entries()["Service"])


CONFINE = Path(__file__).with_name("confine.py")


def allowed_syscalls(tmp_path: Path) -> Path:
    """The unit's SystemCallFilter= as a list of calls, as systemd resolves its groups."""
    names: set[str] = set()
    todo, seen = one("Service", "SystemCallFilter").split(), set()
    while todo:
        group = todo.pop()
        seen.add(group)
        out = subprocess.run(
            [systemd_analyze, "syscall-filter", "--no-pager", group],
            capture_output=True,
            text=True,
            timeout=60,
            check=True,
        )
        for line in out.stdout.splitlines()[1:]:
            item = line.strip()
            if item.startswith("@"):
                todo += [] if item in seen else [item]
            elif item and not item.startswith("#"):
                names.add(item)
    listing = tmp_path / "syscalls.txt"
    listing.write_text("\n".join(sorted(names)) + "\n")
    return listing


def confined(tmp_path: Path, *argv: str) -> subprocess.CompletedProcess:
    import socket

    families = ",".join(
        str(int(getattr(socket, f))) for f in one("Service", "RestrictAddressFamilies").split()
    )
    env = {
        **os.environ,
        "PYTHONPATH": str(ROOT),
        "COMPANION_DATA_DIR": str(tmp_path / "data"),
        "GPIOZERO_PIN_FACTORY": "mock",
        "KIVY_NO_ARGS": "1",
        "SDL_VIDEODRIVER": "offscreen",
    }
    command = [sys.executable, "-m", "companion", *argv]
    return subprocess.run(
        [sys.executable, str(CONFINE), str(allowed_syscalls(tmp_path)), families, "--", *command],
        capture_output=True,
        text=True,
        timeout=180,
        env=env,
        cwd=ROOT,
        stdin=subprocess.DEVNULL,
    )


@functools.cache
def seccomp_here() -> str:
    """ "ok" where a seccomp filter can be loaded here, else why not (tried in a child)."""
    out = subprocess.run(
        [sys.executable, str(CONFINE), "--probe"], capture_output=True, text=True, timeout=60
    )
    return out.stdout.strip() or f"the probe failed: {out.stderr.strip()[-200:]}"


@pytest.fixture
def seccomp():
    if systemd_analyze is None:
        pytest.skip("systemd-analyze is not installed on this machine")
    if sys.platform != "linux":
        pytest.skip("seccomp is Linux's")
    if (why := seccomp_here()) != "ok":
        pytest.skip(f"cannot load a system-call filter here: {why}")


def test_the_filter_refuses_what_the_unit_forbids(seccomp, tmp_path):
    probe = (
        "import socket, ctypes\n"
        "try:\n    socket.socket(socket.AF_INET)\n"
        "except PermissionError:\n    print('inet refused')\n"
        "socket.socket(socket.AF_UNIX).close(); print('unix ok')\n"
        "libc = ctypes.CDLL(None, use_errno=True)\n"
        "print('swapoff', libc.swapoff(b'/nonexistent'), ctypes.get_errno())\n"
    )
    families = "1,16"
    out = subprocess.run(
        [sys.executable, str(CONFINE), str(allowed_syscalls(tmp_path)), families, "--"]
        + [sys.executable, "-c", probe],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert out.stdout.split("\n")[:3] == ["inet refused", "unix ok", "swapoff -1 1"], out


@pytest.mark.slow
def test_the_app_draws_and_the_table_works_under_the_units_system_call_filter(seccomp, tmp_path):
    """Kivy, SDL, Mesa, the simulated table (mock pins, a pty chute board) and the doctor,
    run under the unit's own SystemCallFilter= and RestrictAddressFamilies=."""
    shot = tmp_path / "home.png"
    out = confined(tmp_path, "run", "--simulate", "--screenshot", str(shot))
    assert out.returncode == 0, out.stderr
    assert shot.stat().st_size > 1000
    out = confined(tmp_path, "doctor", "--simulate", "--json")
    checks = {c["part"]: c for c in json.loads(out.stdout)["checks"]}
    for part in ("data dir", "game log", "table", "beam", "serial board", "led red"):
        assert checks[part]["ok"], checks[part]


# installer ---------------------------------------------------------------------------


def run_installer(*args: str, env: dict | None = None) -> subprocess.CompletedProcess:
    return subprocess.run(
        ["bash", str(INSTALL), *args],
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, **(env or {})},
    )


def test_installer_is_valid_bash():
    subprocess.run(["bash", "-n", str(INSTALL)], check=True, timeout=30)
    assert os.access(INSTALL, os.X_OK)


@pytest.mark.skipif(shutil.which("shellcheck") is None, reason="shellcheck is not installed")
def test_installer_is_shellcheck_clean():
    out = subprocess.run(["shellcheck", str(INSTALL)], capture_output=True, text=True)
    assert out.returncode == 0, out.stdout


def commands(output: str) -> list[str]:
    return [line[2:] for line in output.splitlines() if line.startswith("+ ")]


def test_dry_run_install_does_every_step_in_order_and_changes_nothing(tmp_path):
    prefix = tmp_path / "opt"
    out = run_installer("--dry-run", "--no-apt", env={"COMPANION_PREFIX": str(prefix)})
    assert out.returncode == 0, out.stderr
    cmds = commands(out.stdout)
    venv = f"{prefix}/venv"

    def index(fragment: str) -> int:
        hits = [i for i, c in enumerate(cmds) if fragment in c]
        assert hits, f"no step with {fragment!r} in:\n" + "\n".join(cmds)
        return hits[0]

    steps = [
        "usermod --append --groups gpio\\,video\\,render\\,input\\,dialout",
        "-m venv --system-site-packages " + venv,
        f"{venv}/bin/pip install",
        "--no-deps --force-reinstall",
        "install -d -o companion -g companion -m 0750 /var/lib/table-companion",
        "/etc/table-companion/pins.toml",
        f"runuser -u companion -- {venv}/bin/python {prefix}/lib/kivy_config.py",
        "/etc/systemd/system/companion.service",
        f"{venv}/bin/companion doctor",
    ]
    order = [index(s) for s in steps]
    assert order == sorted(order)
    assert not prefix.exists()
    assert "--uninstall" in out.stdout  # tells how to undo it


@pytest.mark.parametrize("numpy", ["1.24.2", None])
def test_the_venv_keeps_the_os_numpy_that_picamera2_was_built_against(tmp_path, numpy):
    bin_dir = tmp_path / "bin"  # the OS's python3, with or without numpy
    bin_dir.mkdir()
    python = bin_dir / "python3"
    answer = f"echo {numpy}" if numpy else "exit 1"
    python.write_text(f'#!/bin/sh\ncase "$*" in *"import numpy"*) {answer} ;; esac\n')
    python.chmod(0o755)
    prefix = tmp_path / "opt"
    out = run_installer(
        "--dry-run",
        "--no-apt",
        env={"COMPANION_PREFIX": str(prefix), "PATH": f"{bin_dir}:{os.environ['PATH']}"},
    )
    assert out.returncode == 0, out.stderr
    cmds = commands(out.stdout)
    constraints = f"{prefix}/lib/constraints.txt"
    (pin,) = [c for c in cmds if c.startswith("sh -c") and constraints in c]
    assert (f"numpy=={numpy}" in pin) == (numpy is not None)
    (fetch,) = [c for c in cmds if "/bin/pip install" in c and "--no-deps" not in c]
    assert f"-c {constraints}" in fetch


def test_dry_run_installs_the_missing_os_packages_only(tmp_path):
    out = run_installer("--dry-run", env={"COMPANION_PREFIX": str(tmp_path / "opt")})
    assert out.returncode == 0, out.stderr
    if shutil.which("dpkg-query") is None:
        pytest.skip("not a Debian system")
    installs = [c for c in commands(out.stdout) if "apt-get install" in c]
    if "OS packages already installed" in out.stdout:
        assert installs == []
    else:
        (line,) = installs
        assert "--no-install-recommends" in line
        for pkg in line.split("--no-install-recommends", 1)[1].split():
            status = subprocess.run(
                ["dpkg-query", "-W", "-f=${Status}", pkg], capture_output=True, text=True
            )
            assert "ok installed" not in status.stdout, f"{pkg} is installed already"


def test_uninstall_keeps_the_games_unless_purged(tmp_path):
    env = {"COMPANION_PREFIX": str(tmp_path / "opt")}
    keep = run_installer("--dry-run", "--uninstall", env=env)
    assert keep.returncode == 0, keep.stderr
    removed = " ".join(c for c in commands(keep.stdout) if c.startswith("rm "))
    assert str(tmp_path / "opt") in removed and "/etc/systemd/system/companion.service" in removed
    assert "/var/lib/table-companion" not in removed
    assert "kept the games" in keep.stdout
    purge = run_installer("--dry-run", "--uninstall", "--purge", env=env)
    removed = " ".join(c for c in commands(purge.stdout) if c.startswith("rm "))
    assert "/var/lib/table-companion" in removed and "/etc/table-companion" in removed


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--bogus"], "unknown option --bogus"),
        (["--calibration"], "needs a FILE"),
        (["--dry-run", "--calibration", "/nonexistent.json"], "no such calibration file"),
    ],
)
def test_installer_refuses_bad_arguments_in_one_line(args, message):
    out = run_installer(*args)
    assert out.returncode == 2
    assert message in out.stderr and out.stderr.count("\n") == 1


def test_kivy_config_routes_touch_through_hidinput_once(tmp_path):
    home = tmp_path / "kivy"
    env = {k: v for k, v in os.environ.items() if not k.startswith(("KIVY_", "KCFG_"))}
    texts = []
    for _ in range(2):  # the installer runs it on every update: same file each time
        subprocess.run(
            [sys.executable, str(KIVY_CONFIG), str(home)],
            env=env,
            check=True,
            timeout=60,
            capture_output=True,
        )
        texts.append((home / "config.ini").read_text())
    assert texts[0] == texts[1]
    cfg = configparser.RawConfigParser()
    cfg.read(home / "config.ini")
    assert dict(cfg.items("input")) == {
        "mouse": "mouse,disable_multitouch",
        "touchscreen": "probesysfs,provider=hidinput",
    }
    assert cfg.get("kivy", "exit_on_escape") == "0"
    from kivy.config import KIVY_CONFIG_VERSION

    assert cfg.getint("kivy", "config_version") == KIVY_CONFIG_VERSION


def test_dry_run_installs_a_given_calibration(tmp_path):
    calibration = tmp_path / "camera.json"
    calibration.write_text("{}")
    out = run_installer(
        "--dry-run",
        "--no-apt",
        "--calibration",
        str(calibration),
        env={"COMPANION_PREFIX": str(tmp_path / "opt")},
    )
    assert out.returncode == 0, out.stderr
    assert f"install -m 0644 {calibration} /etc/table-companion/calibration.json" in (
        commands(out.stdout)
    )
