"""Pull the plug mid-game: SIGKILL a real game at random moments, resume it, lose nothing.

tests/pi/scripted_game.py plays a deterministic Color Milk game through a Session and a
GameLog, printing each entry once the log has committed it. Killed at random and restarted
on the same log, it must (a) keep every entry it printed, (b) never hold an entry the
uninterrupted game would not have at that place, and (c) end in the very same state.
"""

from __future__ import annotations

import io
import json
import os
import random
import signal
import sqlite3
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from companion.catalogue import load
from companion.codec import jsonable
from companion.session import replay
from companion.store import GameLog

HERE = Path(__file__).resolve().parent
SCRIPT = HERE / "scripted_game.py"
ROOT = HERE.parents[1]


def _scripted():
    import importlib.util

    spec = importlib.util.spec_from_file_location("pi_scripted_game", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


scripted = _scripted()


def log_entries(data_dir: Path) -> list[list]:
    """Every entry of the (single) game in the log, as [kind, payload]."""
    path = data_dir / "games.sqlite3"
    if not path.exists():
        return []
    with GameLog(path) as log:
        games = log.games()
        if not games:
            return []
        assert len(games) == 1, "a resumed game must never be started twice"
        return [[e.kind, e.payload] for e in log.entries(games[0].id)]


def final_state(data_dir: Path):
    with GameLog(data_dir / "games.sqlite3") as log:
        (rec,) = log.games()
        game = load(rec.game)
        states, _ = replay(game, scripted.GameConfig(**_config(rec.config)), log.entries(rec.id))
        return jsonable(states[-1]), game.is_over(states[-1])


def _config(raw: dict) -> dict:
    return {
        "players": tuple(raw["players"]),
        "options": raw.get("options", {}),
        "seed": raw.get("seed", 0),
    }


def reference(tmp_path: Path, seed: int) -> tuple[list[list], object]:
    """The same game played straight through, in this process."""
    d = tmp_path / f"reference-{seed}"
    scripted.play(d, seed, out=io.StringIO())
    state, over = final_state(d)
    assert over
    return log_entries(d), state


class Run:
    """One start of the scripted game as `python scripted_game.py`, killed when told to."""

    def __init__(self, data_dir: Path, seed: int) -> None:
        env = dict(os.environ, PYTHONPATH=str(ROOT))
        self.proc = subprocess.Popen(
            [sys.executable, str(SCRIPT), str(data_dir), "--seed", str(seed)],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env=env,
        )
        self._listen(self.proc.stdout)

    def _listen(self, stream) -> None:
        self.lines: list[str] = []
        self.started = threading.Event()
        self.reader = threading.Thread(target=self._read, args=(stream,), daemon=True)
        self.reader.start()

    def _read(self, stream) -> None:
        for line in stream:
            self.lines.append(line.rstrip("\n"))
            self.started.set()
        self.started.set()

    def alive(self) -> bool:
        return self.proc.poll() is None

    def wait(self, timeout: float) -> int:
        return self.proc.wait(timeout=timeout)

    def kill(self) -> bool:
        """SIGKILL; True if the process was still running (a real mid-game kill)."""
        was_alive = self.alive()
        if was_alive:
            os.kill(self.pid, signal.SIGKILL)
        code = self.wait(timeout=30)
        self.reader.join(timeout=30)
        return was_alive and code == -signal.SIGKILL

    @property
    def pid(self) -> int:
        return self.proc.pid

    def finish(self) -> None:
        code = self.wait(timeout=60)
        self.reader.join(timeout=30)
        assert code == 0, f"the scripted game failed ({code})"

    def committed(self) -> dict[int, list]:
        """Entries the process reported as committed: seq -> [kind, payload]."""
        out = {}
        for line in self.lines:
            head, _, rest = line.partition(" ")
            if head.isdigit():
                out[int(head)] = json.loads(rest)
        return out

    @property
    def over(self) -> bool:
        return "over" in self.lines


class ForkRun(Run):
    """The same game in a forked child: no interpreter start-up, so many kills stay quick.
    The child is a real process; SIGKILL ends it as abruptly as a pulled plug ends the app."""

    def __init__(self, data_dir: Path, seed: int) -> None:
        read_fd, write_fd = os.pipe()
        pid = os.fork()
        if pid == 0:  # the child: play, never return into pytest
            code = 1
            try:
                os.close(read_fd)
                with os.fdopen(write_fd, "w") as out:
                    scripted.play(data_dir, seed, out=out)
                code = 0
            finally:
                os._exit(code)
        os.close(write_fd)
        self._pid, self._code = pid, None
        self._listen(os.fdopen(read_fd))

    @property
    def pid(self) -> int:
        return self._pid

    def alive(self) -> bool:
        if self._code is None:
            pid, status = os.waitpid(self._pid, os.WNOHANG)
            if pid:
                self._code = os.waitstatus_to_exitcode(status)
        return self._code is None

    def never_ran(self) -> bool:
        """The child has used no CPU time at all: it hangs in the fork itself, before a line
        of the game ran (qemu's user emulation can deadlock a fork of a threaded process)."""
        try:
            fields = Path(f"/proc/{self._pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            return False
        return int(fields[11]) + int(fields[12]) == 0  # utime + stime, in clock ticks

    def wait(self, timeout: float) -> int:
        deadline = time.monotonic() + timeout
        while self.alive():
            assert time.monotonic() < deadline, "the scripted game hangs"
            time.sleep(0.005)
        return self._code


def check_log(data_dir: Path, ref: list[list], printed: dict[int, list]) -> list[list]:
    got = log_entries(data_dir)
    assert got == ref[: len(got)], "the log differs from the uninterrupted game"
    for seq, entry in printed.items():
        assert seq <= len(got), f"entry {seq} was committed before the kill but is gone"
        assert got[seq - 1] == entry
    return got


def kill_and_resume(
    tmp_path: Path, seed: int, kills: int, rng: random.Random, real_every: int = 1
) -> dict:
    """Kill the game `kills` times (or until it ends); every `real_every`-th start is a
    fresh interpreter running the script, the others forked children."""
    ref, ref_state = reference(tmp_path, seed)
    data_dir = tmp_path / f"killed-{seed}"
    stats = {"kills": 0, "during_start": 0, "entries": len(ref)}
    printed: dict[int, list] = {}
    starts = 0
    while stats["kills"] < kills:
        starts += 1
        run = (Run if starts % real_every == 0 else ForkRun)(data_dir, seed)
        # Now and then kill it while it starts up and replays the log; but let the very first
        # start create the log (a kill during creation: test_a_log_cut_off_while_created...).
        if starts > 1 and rng.random() < 0.2:
            time.sleep(rng.uniform(0, 0.05))
            stats["during_start"] += not run.started.is_set()
        else:
            if not run.started.wait(timeout=60):
                if isinstance(run, ForkRun) and run.never_ran():
                    run.kill()
                    pytest.skip(
                        "cannot fork the threaded test process here: a forked child used no"
                        " CPU in 60 s (qemu's user emulation deadlocks such forks)"
                    )
                raise AssertionError("the scripted game did not start")
            time.sleep(rng.uniform(0, 0.03))
        killed = run.kill()
        printed.update(run.committed())
        check_log(data_dir, ref, printed)
        if killed:
            stats["kills"] += 1
        if run.over:
            break
    run = Run(data_dir, seed)  # and once more, left alone, to the end
    run.finish()
    printed.update(run.committed())
    got = check_log(data_dir, ref, printed)
    assert got == ref
    state, over = final_state(data_dir)
    assert over and state == ref_state
    return stats


def test_one_kill_mid_game_loses_nothing(tmp_path):
    rng = random.Random(7)
    stats = kill_and_resume(tmp_path, seed=3, kills=1, rng=rng)
    assert stats["kills"] == 1


@pytest.mark.slow
def test_fifty_random_kills_lose_nothing_and_end_the_same(tmp_path):
    rng = random.Random(2026)
    total, seed, games, during_start = 0, 10, 0, 0
    started = time.monotonic()
    while total < 50:
        stats = kill_and_resume(tmp_path, seed, kills=50 - total, rng=rng, real_every=10)
        total += stats["kills"]
        during_start += stats["during_start"]
        seed += 1
        games += 1
    elapsed = time.monotonic() - started
    print(
        f"\npower cut: {total} kills ({during_start} during start-up) over {games} games "
        f"in {elapsed:.1f} s, nothing lost"
    )
    assert total >= 50


def test_a_log_cut_off_while_created_is_created_again(tmp_path):
    # Exactly what GameLog._open leaves on disk if the power goes between
    # `PRAGMA journal_mode=WAL` (which writes page 1) and the schema transaction.
    path = tmp_path / "games.sqlite3"
    db = sqlite3.connect(path)
    db.execute("PRAGMA journal_mode=WAL")
    db.close()
    with GameLog(path) as log:
        assert log.games() == []


def _play_until_one_before_the_end(log: GameLog, seed: int):
    """A Session on the scripted game, stopped just before its last entry; and that entry."""
    session = scripted.open_session(log, seed)
    n = 0
    while True:
        kind, event = scripted.next_move(session.game, session, n + 1, seed)
        if kind == "event":
            after, _ = session.game.apply(session.state, event)
            if session.game.is_over(after):
                return session, event
            session.submit(event)
        elif kind == "undo":
            session.undo()
        else:
            session.redo()
        n += 1


def test_a_game_killed_right_after_its_last_event_counts_as_finished(tmp_path):
    with GameLog(tmp_path / "games.sqlite3") as log:
        session, last = _play_until_one_before_the_end(log, seed=3)
        # Session.submit writes the entry, then marks the game finished: cut in between.
        log.append(session.game_id, "event", scripted.ev.to_dict(last))
        resumed = scripted.Session.resume(session.game, log, session.game_id)
        assert resumed.game.is_over(resumed.state)
        assert log.game(session.game_id).status == "finished"
        assert log.unfinished() is None


def test_an_undo_of_the_last_event_killed_before_reopen_can_be_resumed(tmp_path):
    with GameLog(tmp_path / "games.sqlite3") as log:
        session, last = _play_until_one_before_the_end(log, seed=3)
        session.submit(last)
        assert log.game(session.game_id).status == "finished"
        log.append(session.game_id, "undo")  # Session.undo, cut before log.reopen
        resumed = scripted.Session.resume(session.game, log, session.game_id)
        assert not resumed.game.is_over(resumed.state)
        assert log.unfinished() is not None and log.unfinished().id == session.game_id
