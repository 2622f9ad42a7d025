"""`companion run`: pick the table (real or simulated), then start the app, or explain why not."""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import NoReturn

from companion.errors import CompanionError, UsageError


def display_available() -> bool:
    """An X/Wayland session, a forced SDL driver, or a KMS/framebuffer device (the Pi's screen)."""
    if os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"):
        return True
    if os.environ.get("SDL_VIDEODRIVER"):
        return True
    return Path("/dev/dri/card0").exists() or Path("/dev/dri/card1").exists()


def _size(text: str) -> tuple[int, int]:
    try:
        w, h = (int(v) for v in text.lower().split("x"))
    except ValueError:
        raise UsageError(f"--size takes WIDTHxHEIGHT, e.g. 800x480, not {text!r}") from None
    if not (320 <= w <= 4096 and 240 <= h <= 4096):
        raise UsageError(f"--size {text} is out of range")
    return w, h


def launch(args) -> int:
    from hardware.table import pi_present

    size = _size(args.size)
    if not os.environ.get("COMPANION_DEBUG"):
        os.environ.setdefault("KIVY_NO_CONSOLELOG", "1")
    # Kivy's default log mode swallows everything written to stderr; a refusal to start must
    # reach the terminal and the journal.
    os.environ.setdefault("KIVY_LOG_MODE", "MIXED")
    # SDL2 reads our PNGs; the default loader would pull in PIL and numpy at start-up.
    os.environ.setdefault("KIVY_IMAGE", "sdl2")
    simulate = args.simulate or not pi_present()
    if args.screenshot:
        os.environ.setdefault("SDL_VIDEODRIVER", "offscreen")
        return _screenshot(args, size, simulate)
    if not display_available():
        return _no_display()
    configure_window(size)  # before anything imports the UI, which creates the window
    stop_on_signals()
    from companion import memory

    memory.tune()
    from kivy.clock import Clock

    from companion.notify import Notifier
    from companion.ui.app import CompanionApp
    from companion.ui.context import AppContext

    notifier = Notifier.from_env()

    def first_frame():
        # systemd (Type=notify) counts the service as started once the screen is drawn, and
        # restarts it if the UI loop stops feeding the watchdog.
        notifier.ready()
        if every := notifier.watchdog_interval():
            Clock.schedule_interval(lambda _dt: notifier.watchdog(), every)

    try:
        ctx = AppContext.open(args.data_dir, simulate=simulate)
    except (CompanionError, OSError) as exc:
        return _refused(exc, args, first_frame, notifier)
    ctx.runtime.camera_source = "simulated" if simulate else ctx.settings.camera
    ctx.runtime.nudge_camera = simulate  # the readers find the table again each game
    try:
        _open_table(ctx)
    except (CompanionError, OSError) as exc:
        ctx.log.close()
        return _refused(exc, args, first_frame, notifier)
    if ctx.set_aside:
        from companion.ui.problem import show_notice

        for line in ctx.set_aside:
            print(f"companion: warning: {line}", file=sys.stderr, flush=True)

        Clock.schedule_once(lambda _dt: show_notice(ctx.set_aside), 0)
    try:
        CompanionApp(ctx, on_first_frame=first_frame, resume_unfinished=True).run()
    finally:
        notifier.stopping()
    _leave(0)


def _leave(code: int) -> NoReturn:
    """End the process now that the log and the table are closed (the app's on_stop). A
    camera reader still busy inside OpenCV or numpy (a calibration being learnt) must not
    meet the interpreter's teardown: that aborted the process (SIGABRT, "terminate called
    without an active exception") now and then when stopped mid-load."""
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(code)


def _refused(exc, args, first_frame, notifier) -> int:
    """Say why on stderr (the journal), then show it on the screen until someone picks a way
    out; then start over in a fresh process (same pid, so systemd keeps following it)."""
    from companion import paths
    from companion.ui.problem import ProblemApp, problem_for

    print(f"companion: error: {exc}", file=sys.stderr, flush=True)
    log_path = paths.log_path(paths.data_dir(args.data_dir))
    app = ProblemApp(problem_for(exc, log_path), log_path, on_first_frame=first_frame)
    app.run()
    if app.chosen is None:  # stopped from outside: the refusal stands
        notifier.stopping()
        return 1
    print(
        f"companion: {app.chosen} chosen on the screen; starting again", file=sys.stderr, flush=True
    )
    os.execv(sys.executable, [sys.executable, *sys.orig_argv[1:]])


# Kivy's loop wakes this often to look for touches and clock events even when it draws
# nothing: 30 a second answers a finger within a frame and halves the idle loop's cost.
MAX_FPS = 30
# Every redraw of the window (a clock's second, a reading) is drawn by the CPU where there
# is no GPU (Mesa's llvmpipe): multisampling made each one a third dearer for edges that the
# 48 px buttons and large type do not need.
MULTISAMPLES = 0


def configure_window(size: tuple[int, int]) -> None:
    """The window is exactly the display: `size` on a desktop (the simulated table's strip
    fits inside it), the whole screen where the kiosk service asks for full screen
    (KCFG_GRAPHICS_FULLSCREEN=auto). Must run before the first `companion.ui` import:
    Kivy creates its window the first time a size in dp is asked for."""
    os.environ.setdefault("KIVY_NO_ARGS", "1")
    from kivy.config import Config

    Config.set("graphics", "width", str(size[0]))
    Config.set("graphics", "height", str(size[1]))
    Config.set("graphics", "maxfps", str(MAX_FPS))
    Config.set("graphics", "multisamples", str(MULTISAMPLES))
    Config.set("kivy", "exit_on_escape", "0")
    # A mouse's right button would leave a simulated second finger on the glass (Kivy's red
    # dot), which the touch guard takes for a finger still down (one finger at a time).
    Config.set("input", "mouse", "mouse,disable_multitouch")


def stop_on_signals() -> None:
    """SIGINT (Ctrl+C) and SIGTERM (systemd, `kill`) end the app the way closing it does: the
    loop stops, `on_stop` closes the table and the log. Without this SIGINT raised inside
    Kivy's loop, `on_stop` never ran and the table's threads kept the process alive.
    A second signal ends it at once."""
    import signal

    def request_stop(signum, _frame):
        from kivy.base import EventLoop

        EventLoop.quit = True  # a plain flag: safe in a handler, seen within one frame
        signal.signal(signum, signal.SIG_DFL)

    # Installed before the window: SDL then leaves both signals to us.
    for signum in (signal.SIGINT, signal.SIGTERM):
        signal.signal(signum, request_stop)


def _open_table(ctx):
    """The table's hardware, if the hardware layer is installed; the app works without it."""
    try:
        import hardware.table  # noqa: F401
    except ImportError:
        ctx.runtime.camera_source = None
        return None
    return ctx.runtime.open_table(ctx.simulate)


def _screenshot(args, size, simulate) -> int:
    configure_window(size)
    from companion.ui.app import Root
    from companion.ui.context import AppContext
    from companion.ui.render import ensure_window, render_to_png

    ensure_window(size)
    try:
        ctx = AppContext.open(args.data_dir, simulate=simulate)
    except (CompanionError, OSError) as exc:  # a picture of what the screen would say
        from companion import paths
        from companion.ui.problem import ProblemScreen, problem_for

        log_path = paths.log_path(paths.data_dir(args.data_dir))
        screen = ProblemScreen(problem_for(exc, log_path), log_path, on_done=lambda _c: None)
        print(f"companion: wrote {render_to_png(screen, args.screenshot, size)}")
        print(f"companion: error: {exc}", file=sys.stderr)
        return 1
    root = Root(ctx)
    if args.screen == "setup":
        root.choose_game("color-milk")
    elif args.screen != "home":
        if not root.has_screen(args.screen):
            raise UsageError(f"no screen {args.screen!r} (try home, setup or settings)")
        root.current = args.screen
    path = render_to_png(root, args.screenshot, size)
    print(f"companion: wrote {path}")
    ctx.log.close()
    return 0


def _no_display() -> int:
    print(
        "companion: no display found (no X, Wayland or KMS screen); "
        "playing the Color Milk demo in this terminal instead. "
        "Use `companion run --screenshot start.png` for a picture of the app.",
        flush=True,
    )
    from companion import catalogue

    demo = catalogue.verbs("color-milk").get("demo")
    if demo is None:
        return 1
    return int(demo(["--players", "3", "--seed", "7", "--headless", "--live", "--no-json"]) or 0)


if __name__ == "__main__":
    sys.exit(launch(None))
