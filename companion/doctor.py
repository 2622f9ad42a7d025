"""`companion doctor`: check every part and print a pass/fail table (or JSON).

The core checks the data dir, the game log, settings and each game's rules. Hardware and
vision add their own checks through `hardware.doctor.checks(args)`.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import asdict

from companion.checks import Check, CheckResult


def _core_checks(args) -> Iterable[Check]:
    from companion import catalogue, paths, settings
    from companion.store import GameLog

    directory = paths.data_dir(getattr(args, "data_dir", None))

    def data_dir() -> CheckResult:
        directory.mkdir(parents=True, exist_ok=True)
        probe = directory / ".doctor-probe"
        probe.write_text("ok")
        probe.unlink()
        return CheckResult("data dir", True, str(directory))

    def game_log() -> CheckResult:
        with GameLog(paths.log_path(directory)) as log:
            n = len(log.games())
            unfinished = log.unfinished()
        extra = f", unfinished game #{unfinished.id}" if unfinished else ""
        return CheckResult("game log", True, f"{n} games{extra}")

    def settings_file() -> CheckResult:
        s, warning = settings.load(paths.settings_path(directory))
        return CheckResult("settings", warning is None, warning or "ok")

    def voice() -> CheckResult:
        from companion.speech import check_voice

        s, _ = settings.load(paths.settings_path(directory))
        directory.mkdir(parents=True, exist_ok=True)
        return check_voice(s.speak_cues, directory)

    yield data_dir
    yield game_log
    yield settings_file
    yield voice
    for info in catalogue.games():

        def rules(info=info) -> CheckResult:
            game = catalogue.load(info.name)
            return CheckResult(f"rules: {info.title}", True, repr(game))

        yield rules


def _extra_checks(args) -> Iterable[Check]:
    try:
        from hardware.doctor import checks
    except ImportError:
        return ()
    return checks(args)


def run_doctor(args) -> int:
    results = []
    for check in [*_core_checks(args), *_extra_checks(args)]:
        try:
            results.append(check())
        except Exception as exc:  # a failing part is a row in the table, not a crash
            name = getattr(check, "part", getattr(check, "__name__", "check"))
            results.append(
                CheckResult(name.replace("_", " "), False, f"{type(exc).__name__}: {exc}")
            )
    if getattr(args, "json", False):
        print(
            json.dumps(
                {"ok": all(r.ok for r in results), "checks": [asdict(r) for r in results]}, indent=2
            )
        )
    else:
        width = max(len(r.part) for r in results)
        for r in results:
            print(f"{'PASS' if r.ok else 'FAIL'}  {r.part:<{width}}  {r.detail}")
    return 0 if all(r.ok for r in results) else 1
