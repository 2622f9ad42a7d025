"""scripts/setup on machines this one is not: a Pi with Raspberry Pi OS, a Pi with plain
Debian, 32-bit Raspberry Pi OS. The real script runs in a copy of the repository; the OS's
tools it calls (dpkg, dpkg-query, apt-get, apt-cache, sudo) and the system Python are small
stand-ins that keep a package state in files and log every call, and the device-tree model is
a file of our own. apt-get refuses a package its archive lacks, as the real one does."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

TOOLS = {
    "dpkg": """[ "$1" = --print-architecture ] && cat "$STATE/arch" """,
    "dpkg-query": """grep -qx "${@: -1}" "$STATE/installed" && echo "install ok installed" """,
    "apt-cache": """grep -qx "$2" "$STATE/archive" && echo "  Candidate: 1.0" ; exit 0""",
    "apt-get": """echo "apt-get $*" >>"$STATE/log"
[ "$1" = update ] && exit 0
for p in "$@"; do case $p in -*|install) ;; *)
    grep -qx "$p" "$STATE/archive" || { echo "E: Unable to locate package $p" >&2; exit 100; }
esac; done
for p in "$@"; do case $p in -*|install) ;; *) echo "$p" >>"$STATE/installed" ;; esac; done""",
    "sudo": 'exec "$@"',
    # The system Python: its version, its numpy (if any), and `-m venv`, which makes a venv
    # whose python logs what pip is asked to do.
    "python3": """case "$1" in
-c) case "$2" in *numpy*) [ -s "$STATE/numpy" ] && cat "$STATE/numpy" || exit 1 ;;
       *) echo 3.11 ;; esac ;;
-m) shift 2; dir=${*: -1}; mkdir -p "$dir/bin"
    echo "venv $*" >>"$STATE/log"
    cp "$STATE/venv-python" "$dir/bin/python" ;;
esac""",
}

# The venv's python: logs what it is asked; as pip, it says what a machine's pip may say (a
# local index named by its configuration lacks a package; a real complaint) and exits with
# $FAKE_PIP_EXIT.
IGNORED = "is ignored: it is neither a file nor a directory."
VENV_PYTHON = f"""#!/bin/bash
echo "venv-python $*" >>"$STATE/log"
if [ "$1 $2" = "-m pip" ]; then
    echo "WARNING: Location 'file:///opt/index/simple/kivy/' {IGNORED}" >&2
    echo "ERROR: a real complaint" >&2
    exit "${{FAKE_PIP_EXIT:-0}}"
fi
"""

PI_OS = {"python3-lgpio", "python3-picamera2"}  # only Raspberry Pi OS's archive has these
BASE = {"python3", "python3-venv"}


class Machine:
    def __init__(self, tmp_path: Path, arch="arm64", pi=True, archive=(), numpy="") -> None:
        self.repo = tmp_path / "repo"
        (self.repo / "scripts").mkdir(parents=True)
        shutil.copy(ROOT / "scripts" / "setup", self.repo / "scripts" / "setup")
        shutil.copy(ROOT / "pyproject.toml", self.repo / "pyproject.toml")
        self.state = tmp_path / "state"
        self.state.mkdir()
        bin_dir = tmp_path / "bin"
        bin_dir.mkdir()
        for name, body in TOOLS.items():
            (bin_dir / name).write_text(f"#!/bin/bash\n{body}\n")
            (bin_dir / name).chmod(0o755)
        (self.state / "arch").write_text(arch + "\n")
        (self.state / "installed").write_text("".join(f"{p}\n" for p in BASE))
        (self.state / "archive").write_text("".join(f"{p}\n" for p in archive))
        (self.state / "numpy").write_text(numpy)
        (self.state / "log").write_text("")
        (self.state / "venv-python").write_text(VENV_PYTHON)
        (self.state / "venv-python").chmod(0o755)
        model = tmp_path / "model"
        model.write_text("Raspberry Pi 4 Model B Rev 1.5\0" if pi else "QEMU Virtual Machine\0")
        self.env = {
            "PATH": f"{bin_dir}:/usr/bin:/bin",
            "HOME": str(tmp_path),
            "STATE": str(self.state),
            "COMPANION_MODEL_FILE": str(model),
        }

    def setup(self, *args: str, **env: str) -> subprocess.CompletedProcess:
        (self.state / "log").write_text("")
        return subprocess.run(
            ["bash", str(self.repo / "scripts" / "setup"), *args],
            capture_output=True,
            text=True,
            timeout=60,
            env={**self.env, **env},
        )

    def log(self) -> list[str]:
        return (self.state / "log").read_text().splitlines()

    def installed(self) -> set[str]:
        return set((self.state / "installed").read_text().split())

    def venv(self) -> Path:
        return self.repo / ".venv"


def all_os_packages() -> set[str]:
    """Every package the set-up asks apt for, read from the script, plus the Pi's two."""
    text = (ROOT / "scripts" / "setup").read_text()
    names: set[str] = set()
    for chunk in text.split("packages")[1:]:
        if chunk.startswith(("=(", "+=(")):
            names |= set(chunk.split("(", 1)[1].split(")", 1)[0].split())
    return names | PI_OS


def test_32_bit_arm_is_refused_in_one_line_naming_the_64_bit_system(tmp_path):
    m = Machine(tmp_path, arch="armhf", archive=all_os_packages())
    out = m.setup()
    assert out.returncode == 1
    assert out.stdout == "" and len(out.stderr.splitlines()) == 1, out.stderr
    assert "32-bit" in out.stderr and "64-bit Raspberry Pi OS" in out.stderr
    assert m.log() == [] and not m.venv().exists()  # nothing installed, nothing made


def test_plain_debian_on_a_pi_says_what_is_missing_and_sets_up_without_it(tmp_path):
    m = Machine(tmp_path, archive=all_os_packages() - PI_OS, numpy="1.24.2")
    out = m.setup("test")
    assert out.returncode == 0, out.stderr
    said = [line for line in out.stdout.splitlines() if "not in this system's apt" in line]
    assert len(said) == 2, out.stdout
    assert "python3-lgpio" in said[0] and "native pin factory" in said[0]
    assert "python3-picamera2" in said[1] and "OpenCV" in said[1]
    assert not PI_OS & m.installed()
    assert "shellcheck" in m.installed() and "espeak-ng" in m.installed()
    # nothing from apt to see: a venv of its own, no pin
    assert any(line.startswith("venv ") and "--system" not in line for line in m.log())
    assert (m.venv() / "constraints.txt").read_text().strip() == ""
    assert any("pip install" in line and "-e .[test]" in line for line in m.log())


def test_raspberry_pi_os_gets_picamera2_beside_the_venv_and_one_numpy(tmp_path):
    m = Machine(tmp_path, archive=all_os_packages(), numpy="1.24.2")
    out = m.setup()
    assert out.returncode == 0, out.stderr
    assert m.installed() >= PI_OS
    assert "venv --system-site-packages" in "\n".join(m.log())
    assert (m.venv() / "constraints.txt").read_text().split() == ["numpy==1.24.2"]
    pip = [line for line in m.log() if "pip install" in line and "-e ." in line]
    assert pip and "-c .venv/constraints.txt" in pip[0]


def test_the_venv_is_rebuilt_when_the_machine_no_longer_matches_it_and_only_then(tmp_path):
    m = Machine(tmp_path, archive=all_os_packages() - PI_OS, numpy="1.24.2")
    assert m.setup().returncode == 0
    assert "system-site-packages=false" in (m.venv() / ".flavour").read_text()
    again = m.setup()
    assert "rebuilding" not in again.stdout and not any("venv " in x for x in m.log())
    # picamera2 from apt arrives (Raspberry Pi OS's archive added)
    (m.state / "archive").write_text("".join(f"{p}\n" for p in all_os_packages()))
    out = m.setup()
    assert out.returncode == 0, out.stderr
    assert "rebuilding .venv" in out.stdout
    assert "venv --system-site-packages" in "\n".join(m.log())
    assert "pins=numpy==1.24.2" in (m.venv() / ".flavour").read_text()
    # a venv made before the flavour was recorded is rebuilt too
    (m.venv() / ".flavour").unlink()
    assert "rebuilding .venv" in m.setup().stdout


def test_pip_s_warning_about_a_missing_local_index_entry_is_not_printed(tmp_path):
    m = Machine(tmp_path, arch="amd64", pi=False, archive=all_os_packages() - PI_OS)
    out = m.setup("test")
    assert out.returncode == 0, out.stderr
    assert "is ignored" not in out.stderr + out.stdout
    assert out.stderr.count("ERROR: a real complaint") == 2  # pip itself, then the project
    assert (m.venv() / ".installed[test]").exists()


def test_a_failing_pip_still_stops_the_set_up(tmp_path):
    m = Machine(tmp_path, arch="amd64", pi=False, archive=all_os_packages() - PI_OS)
    out = m.setup("test", FAKE_PIP_EXIT="1")
    assert out.returncode != 0
    assert not (m.venv() / ".installed[test]").exists()


def test_setup_and_check_arm64_are_shellcheck_clean():
    if shutil.which("shellcheck") is None:
        pytest.skip("shellcheck is not installed (`scripts/setup test` installs it)")
    for script in ("setup", "check-arm64"):
        out = subprocess.run(
            ["shellcheck", str(ROOT / "scripts" / script)], capture_output=True, text=True
        )
        assert out.returncode == 0, out.stdout
