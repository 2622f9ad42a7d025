"""A family at the table, for the game night (tests/night/test_night_*.py): the real app
(`companion run --simulate`, started through tests/night/driver.py) in a real X window of
exactly 800x480, fingers on its buttons, and what they notice along the way.

Everything is done through the window: buttons found by their text, tapped with Kivy's own
touch events, balls dropped with the simulated table's strip, the app killed with SIGKILL and
started again on the same data directory. The app's state is read only to decide the next
move, as people at the table see the game.
"""

from __future__ import annotations

import json
import signal
from collections import defaultdict
from pathlib import Path

from tests.ui import test_real_window as real

DRIVER = Path(__file__).with_name("driver.py")
DOUBLE_TAP = 0.15  # s between the two fingers of a double tap
FAST = {"phase_seconds": 5, "turn_timer_seconds": 0, "speak_cues": False}  # short timers


class Family:
    """The app as the family meets it, and what went wrong for them (by check)."""

    def __init__(self, display: str, data_dir: Path) -> None:
        self.display, self.data_dir = display, data_dir
        data_dir.mkdir(parents=True, exist_ok=True)
        settings = data_dir / "settings.json"  # set once in Settings on an earlier evening
        settings.write_text(json.dumps(FAST))
        self.seen: dict[str, set[str]] = defaultdict(set)
        self.app: real.RunningApp | None = None
        self.last: dict = {}
        self.start()

    # the app -----------------------------------------------------------------------------
    def start(self) -> dict:
        """Start the app as a user does, on the family's data directory."""
        saved = real.DRIVER
        real.DRIVER = DRIVER
        try:
            self.app = real.RunningApp(self.display, self.data_dir, "--simulate")
        finally:
            real.DRIVER = saved
        return self.look()

    def kill(self) -> None:
        """A power cut: SIGKILL, nothing saved on the way out."""
        self.app.proc.send_signal(signal.SIGKILL)
        self.app.proc.wait(10)
        self.app.stderr.close()

    def stop(self) -> int:
        return self.app.stop()

    def do(self, **command) -> dict:
        try:
            answer = self.app.show(json.dumps(command))  # one JSON line in, one out
        except AssertionError:
            if self.app.proc.poll() is None:
                raise
            # The app ended under the family's fingers: they start it again and go on.
            err = self.app.stderr_path.read_text()[-600:]
            self.seen["crash"].add(f"the app ended on {command}: {err}")
            raise
        self.last = answer
        self.notice(answer)
        return answer

    def notice(self, answer: dict) -> None:
        screen = answer["screen"]
        where = answer["game"]["name"] if screen == "game" and "game" in answer else screen
        for problem in answer["problems"]:
            self.seen[f"{where}: text or button"].add(problem)
        for jump in answer.get("jumps", ()):
            self.seen[f"{where}: list jumps"].add(f"{jump} (tapping {answer['tapped']!r})")

    # looking and tapping ---------------------------------------------------------------------
    def look(self) -> dict:
        return self.do(do="look")

    def tap(self, text: str | None = None, *, re: str | None = None, **more) -> dict:
        spec = {"text": text} if text is not None else {"re": re} if re is not None else {}
        answer = self.do(do="tap", **spec, **more)
        if answer.get("acted") == 0:  # the finger was dropped, or landed on something else
            where = answer.get("game", {}).get("name", answer["screen"])
            self.seen[f"{where}: tap"].add(
                f"a finger on {answer['tapped']!r} did not reach it: {answer['fingers']}"
            )
        return answer

    def double_tap(self, text: str | None = None, *, re: str | None = None, **more) -> dict:
        """Two fingers on the same spot 150 ms apart, as an eager hand or a bouncing finger
        does: it must count once, even when the first tap changes what lies under it. In a
        game, once means at most one entry people made (a clock running out meanwhile is not)."""
        last = self.last if self.last.get("screen") == "game" else self.look()
        before = last.get("game", {}).get("by_hand")
        answer = self.tap(text, re=re, double=DOUBLE_TAP, **more)
        after = answer.get("game", {}).get("by_hand")
        if before is not None and after is not None and after - before > 1:
            self.seen[f"{answer['game']['name']}: double tap"].add(
                f"{answer['tapped']!r} tapped twice in 150 ms made {after - before} entries: "
                f"{answer['game']['last'][-(after - before) :]}"
            )
        return answer

    def has(self, answer: dict, text: str, part: str = "screen") -> bool:
        return any(b["text"].strip() == text and b["in"] == part for b in answer["buttons"])

    def until(self, seconds: float = 10, **what) -> dict:
        return self.do(do="until", seconds=seconds, **what)

    # going home and starting a game ---------------------------------------------------------
    def home(self) -> dict:
        if self.app.proc.poll() is not None:  # it ended in an earlier game: start it again
            self.app.stderr.close()
            self.start()
        answer = self.look()
        for _ in range(4):
            if answer["screen"] == "home":
                break
            # the results laid over a finished game are closed first, as people do
            way = [w for w in ("Close", "Back") if self.has(answer, w)]
            answer = self.tap(way[0] if way else "Home")
        return answer

    def start_game(self, title: str, players: int, options: dict[str, str] | None = None) -> dict:
        """From Home: the game's tile, seats added or taken away to `players`, options cycled
        to the wanted value, then Start (twice if the app points out unfinished games first)."""
        home = self.home()
        waiting = any(b["text"].startswith("All unfinished") for b in home["buttons"])
        setup = self.double_tap(re=f"^{title}\n")  # the tile leads to the set-up, once
        assert setup["screen"] == "setup", setup["screen"]
        seats = len(_seats(setup))
        while seats != players:
            setup = self.tap("+ Player" if seats < players else "- Player")
            now = len(_seats(setup))
            assert now != seats, f"the seats stay at {seats}: {setup['texts'][-6:]}"
            seats = now
        for label, value in (options or {}).items():
            for _ in range(8):
                if self.has(setup, f"{label}: {value}"):
                    break
                setup = self.tap(re=f"^{label}: ")
            assert self.has(setup, f"{label}: {value}"), (label, value)
        answer = self.double_tap(re="^Start ")
        if answer["screen"] == "setup":  # other games are unfinished: it said so first
            answer = self.tap(re="^Hold to start", hold=1.0)
        elif waiting:
            self.seen[f"{answer['game']['name']}: double tap"].add(
                "a double tap on Start went past the word about unfinished games"
            )
        assert answer["screen"] == "game", (answer["texts"][-5:], answer.get("fingers"))
        assert len(answer["game"]["players"]) == players
        return answer

    def problems(self) -> dict[str, list[str]]:
        """Everything the family ran into since `forget` (each test's own evening)."""
        return {k: sorted(v) for k, v in self.seen.items()}

    def forget(self) -> None:
        self.seen.clear()


def _seats(setup: dict) -> list[str]:
    """The names in the set-up screen's seats."""
    return setup["inputs"]
