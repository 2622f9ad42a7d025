"""Spoken cues, offline: "ten seconds", "time", "Anna chooses", "Ben leads".

A cue sink like the table's: `Voice.cue(cue)` only puts a phrase on a queue and returns at
once; one thread of its own speaks them with espeak-ng, so speech never delays a cue, a
blink or a touch. The buzzer and the LEDs stay the primary signals: a voice that is off,
missing or slow changes nothing else. Off by default (Settings: Spoken cues).
"""

from __future__ import annotations

import contextlib
import logging
import queue
import shutil
import subprocess
import threading
from collections.abc import Callable
from pathlib import Path

from companion import cues as C

log = logging.getLogger(__name__)

ENGINE = "espeak-ng"
WORDS_PER_MINUTE = 160
QUEUE_LENGTH = 4  # older phrases are dropped rather than spoken late

_NUMBERS = (
    *("zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten"),
    *("eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen"),
    *("eighteen", "nineteen", "twenty"),
)
_TENS = {30: "thirty", 40: "forty", 50: "fifty", 60: "sixty"}

# PhaseStarted(phase, player) -> what is said; {p} is the player.
PHASES = {
    "choose": "{p} chooses",
    "predict": "{p} leads",
    "reveal": "{p} leads",
    "turn": "{p}'s turn",
    "remix": "the mill is full: empty it",
    "demonstration": "{p}: show it",
}


def number_words(n: int) -> str:
    if 0 <= n <= 20:
        return _NUMBERS[n]
    tens, ones = divmod(n, 10)
    if tens * 10 in _TENS:
        return _TENS[tens * 10] + (f" {_NUMBERS[ones]}" if ones else "")
    return str(n)


def phrase(cue: C.Cue) -> str | None:
    """What to say for a cue, or None for cues the screen shows better."""
    if isinstance(cue, C.TimeWarning):
        n = cue.seconds_left
        return f"{number_words(n)} second{'s' * (n != 1)}"
    if isinstance(cue, C.TimeUp):
        return "time"
    if isinstance(cue, C.PhaseStarted):
        text = PHASES.get(cue.phase)
        if text is None or ("{p}" in text and not cue.player):
            return None
        return text.format(p=cue.player)
    if isinstance(cue, C.GameOver) and cue.winners:
        return " and ".join(cue.winners) + (" win" if len(cue.winners) > 1 else " wins")
    return None


def espeak(text: str, amplitude: int = 100, wav: Path | None = None) -> None:
    """Say `text` (or write it to `wav`) with espeak-ng; raises OSError if it cannot."""
    argv = [ENGINE, "-s", str(WORDS_PER_MINUTE), "-a", str(amplitude)]
    if wav is not None:
        argv += ["-w", str(wav)]
    subprocess.run(argv + ["--", text], check=True, capture_output=True, timeout=20)


class Voice:
    """The speaking cue sink. `settings()` is read at every cue: switching the voice off,
    muting or turning the volume down applies to the next phrase."""

    def __init__(self, settings: Callable, speak: Callable[[str, int], None] = espeak) -> None:
        self.settings = settings
        self.speak = speak
        self._queue: queue.Queue[str | None] = queue.Queue(maxsize=QUEUE_LENGTH)
        self._thread: threading.Thread | None = None
        self.failed: str | None = None  # the last error, for the doctor and the home screen

    def __repr__(self) -> str:
        return f"<Voice {ENGINE} queued={self._queue.qsize()}>"

    def cue(self, cue: C.Cue) -> None:
        s = self.settings()
        if not getattr(s, "speak_cues", False) or getattr(s, "mute", False):
            return
        text = phrase(cue)
        if text is None:
            return
        if self._thread is None:
            self._thread = threading.Thread(target=self._run, name="voice", daemon=True)
            self._thread.start()
        while True:
            try:
                self._queue.put_nowait(text)
                return
            except queue.Full:
                with contextlib.suppress(queue.Empty):
                    self._queue.get_nowait()  # the oldest phrase is stale by now

    def close(self) -> None:
        if self._thread is not None:
            with contextlib.suppress(queue.Full):
                self._queue.put_nowait(None)

    def _run(self) -> None:
        while (text := self._queue.get()) is not None:
            volume = float(getattr(self.settings(), "volume", 0.6))
            try:
                self.speak(text, int(round(volume * 200)))
                self.failed = None
            except (OSError, subprocess.SubprocessError) as exc:
                self.failed = f"{type(exc).__name__}: {exc}"
                log.warning("voice: %s", self.failed)


def voice_for(ctx) -> Voice:
    """The app's one Voice, made on first use and kept on the app context."""
    voice = getattr(ctx, "voice", None)
    if voice is None:
        voice = Voice(lambda: ctx.settings)
        ctx.voice = voice
    return voice


def check_voice(enabled: bool, tmp_dir: Path):
    """`companion doctor`: can espeak-ng say a phrase? (into a file: no sound at the table)"""
    from companion.checks import CheckResult

    if shutil.which(ENGINE) is None:
        detail = f"{ENGINE} is not installed (apt install {ENGINE})"
        return CheckResult(
            "voice", not enabled, detail + ("" if enabled else "; spoken cues are off")
        )
    wav = tmp_dir / ".doctor-voice.wav"
    try:
        espeak("ten seconds", wav=wav)
        size = wav.stat().st_size
    finally:
        wav.unlink(missing_ok=True)
    state = "on" if enabled else "off (Settings: Spoken cues)"
    return CheckResult(
        "voice", size > 1000, f"{ENGINE} speaks ({size} bytes of audio); spoken cues {state}"
    )
