"""What every part of the game night shares (tests/night/test_night_*.py).

A game night as a family lives it, in the real app in a real 800x480 X window with the
simulated table: every game played to its end with the fewest and the most players, every
button that moves the game on tapped twice 150 ms apart (it counts once), a power cut
(SIGKILL) mid-round that comes back to the same game with nothing lost, and on every screen
passed through: no notice cut, no text out of its box, no button under 48x48 px, no list
that jumps under the finger.

Each game is its own test on one app (started once, as a family leaves it on), and says at
its end everything the family ran into, by check."""

from __future__ import annotations

import shutil
import time

import pytest

from tests.night.family import Family

NIGHT = [  # the marks of every part of the game night
    pytest.mark.ui,
    pytest.mark.slow,
    pytest.mark.skipif(
        not shutil.which("Xvfb"), reason="no X server: Xvfb is missing (`scripts/setup test`)"
    ),
]
STEPS = 400  # more than any game below needs; a game that does not end stops here
# s the camera may take to read what was laid: a bound against a hang, not a speed target (a
# machine busy with other work reads late, and the wait ends as soon as the reading is in);
# waited in short steps, as the driver gives up on one step after a minute
HANG = 60.0


def waited(family: Family, done, **what) -> dict:
    """The app's answers a quarter of a second apart (`what` ends each early, see
    `Family.until`) until `done(answer)` holds or `HANG` seconds have passed: the last
    answer either way."""
    end = time.monotonic() + HANG
    while True:
        answer = family.until(seconds=0.25, **what)
        if done(answer) or time.monotonic() > end:
            return answer


def ended_cleanly(family: Family, game: str, answer: dict) -> None:
    assert answer["game"]["over"], f"{game} did not reach its end: {answer['game']['describe']}"
    nothing_met(family, game)


def nothing_met(family: Family, game: str) -> None:
    problems = family.problems()
    if problems:
        pytest.fail(
            f"in {game} the family ran into:\n"
            + "\n".join(f"  {check}: {p}" for check, ps in problems.items() for p in ps)
        )


def play(family: Family, move, answer: dict) -> dict:
    for _ in range(STEPS):
        if answer["game"]["over"]:
            break
        answer = move(family, answer)
        if "game" not in answer:
            answer = family.look()
    return answer
