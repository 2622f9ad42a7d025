"""Spoken cues: the phrases, a queue that never makes a cue wait, the setting, and the real
espeak-ng writing audio."""

import shutil
import threading
from dataclasses import replace

import pytest

from companion import cues as C
from companion.settings import Settings
from companion.speech import QUEUE_LENGTH, Voice, check_voice, espeak, phrase


@pytest.mark.parametrize(
    "cue, said",
    [
        (C.TimeWarning(10), "ten seconds"),
        (C.TimeWarning(1), "one second"),
        (C.TimeWarning(45), "forty five seconds"),
        (C.TimeUp("laser-3"), "time"),
        (C.PhaseStarted("choose", "Anna", "red"), "Anna chooses"),
        (C.PhaseStarted("predict", "Ben", "blue"), "Ben leads"),
        (C.PhaseStarted("remix", "Ben", "blue"), "the mill is full: empty it"),
        (C.GameOver(("Anna", "Ben")), "Anna and Ben win"),
        (C.PhaseStarted("choose"), None),  # nobody named: nothing to say
        (C.Announce("Board saved for the referee."), None),
        (C.Scored("Anna", 3), None),
    ],
)
def test_phrases(cue, said):
    assert phrase(cue) == said


class Mouth:
    """Stands in for the loudspeaker: records what is said and can hold a phrase up."""

    def __init__(self, done_after=1):
        self.done_after = done_after
        self.said, self.hold = [], threading.Event()
        self.speaking, self.done = threading.Event(), threading.Event()

    def __call__(self, text, amplitude):
        self.said.append((text, amplitude))
        self.speaking.set()
        self.hold.wait(10)
        if len(self.said) >= self.done_after:
            self.done.set()


def test_the_voice_is_off_by_default_and_says_nothing():
    mouth = Mouth()
    voice = Voice(lambda: Settings(), speak=mouth)
    voice.cue(C.TimeUp("k"))
    assert voice._thread is None and mouth.said == []


def test_a_slow_voice_never_holds_up_a_cue_and_drops_stale_phrases():
    settings = Settings(speak_cues=True, volume=0.5)
    mouth = Mouth(done_after=1 + QUEUE_LENGTH)
    voice = Voice(lambda: settings, speak=mouth)
    voice.cue(C.PhaseStarted("choose", "Anna"))
    assert mouth.speaking.wait(5)  # "Anna chooses" is being spoken, and takes its time
    returned = threading.Event()

    def burst():
        for s in range(20, 0, -1):  # far more than the queue holds
            voice.cue(C.TimeWarning(s))
        returned.set()

    threading.Thread(target=burst).start()
    assert returned.wait(2), "cue() waited for the voice"
    mouth.hold.set()
    assert mouth.done.wait(5)
    voice.close()
    voice._thread.join(5)
    texts = [t for t, _ in mouth.said]
    assert texts[0] == "Anna chooses" and mouth.said[0][1] == 100
    assert len(texts) == 1 + QUEUE_LENGTH and texts[-1] == "one second"  # the freshest kept


def test_muting_silences_the_voice_too():
    mouth = Mouth()
    voice = Voice(lambda: Settings(speak_cues=True, mute=True), speak=mouth)
    voice.cue(C.TimeUp("k"))
    assert voice._thread is None


@pytest.mark.skipif(shutil.which("espeak-ng") is None, reason="espeak-ng is an OS package")
def test_espeak_ng_really_speaks_into_a_file_and_the_doctor_says_so(tmp_path):
    espeak("Anna chooses", wav=tmp_path / "a.wav")
    data = (tmp_path / "a.wav").read_bytes()
    assert data[:4] == b"RIFF" and len(data) > 5000
    ok = check_voice(True, tmp_path)
    assert ok.ok and "speaks" in ok.detail and "on" in ok.detail
    assert not list(tmp_path.glob(".doctor-voice*"))


def test_the_doctor_fails_a_missing_voice_only_when_it_is_switched_on(tmp_path, monkeypatch):
    monkeypatch.setenv("PATH", str(tmp_path))  # no espeak-ng anywhere
    assert check_voice(False, tmp_path).ok
    off = check_voice(True, tmp_path)
    assert not off.ok and "not installed" in off.detail


def test_the_setting_survives_a_save(tmp_path):
    from companion import settings as S

    S.save(tmp_path / "s.json", replace(Settings(), speak_cues=True))
    assert S.load(tmp_path / "s.json")[0].speak_cues is True
