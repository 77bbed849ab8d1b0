"""Running the kiosk with a display: the pyglet loop, or the offscreen loop with scripts and screenshots.

``run(kiosk, options)`` reads from `options` (an argparse namespace or anything
with these attributes; missing ones take the defaults):

* ``display``: "window", "fullscreen", "offscreen" ("auto" means fullscreen);
* ``size``: (w, h) or "WxH" (None: 1280x800 in a window, the screen in full screen);
* ``gl``: "auto", "gl" or "gles"; ``layout``: "tabletop" or "upright"; ``language``;
* ``rotation``: 0, 90, 180 or 270 degrees clockwise (default: the config's ``[display] rotation``);
* ``script``: a file of inputs (the headless format plus ``tap-px X Y``);
* ``sound``: "auto" (the config's ``[sound]`` with a screen, off offscreen), "on" or "off";
* ``screenshot_dir``: offscreen only — a PNG after each scripted input (and of the first frame).

Offscreen, frames are rendered as fast as possible and the kiosk's clock, when
virtual, moves 1/60 s per frame, so a scripted run shows exactly what a
person would have seen, without waiting for it.
"""

from __future__ import annotations

import logging
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Protocol, runtime_checkable

from kiosk.errors import ContractError
from kiosk.core.clock import VirtualClock

if TYPE_CHECKING:  # pragma: no cover
    from kiosk.core.script import Step
    from kiosk.sound import Sound
    from kiosk.ui.shell.window import UI
    from kiosk.ui.shell.contract import KioskView

log = logging.getLogger(__name__)

FRAME_S = 1 / 60
LONGEST_SLEEP_S = 1.0  # a still window loop wakes at least this often anyway (a safety net, no frame)
SETTLE_MAX_S = 8.0  # a scripted input waits at most this long (virtual) for things to calm down


def _opt(options: Any, name: str, default: Any = None) -> Any:
    value = getattr(options, name, None)
    return default if value is None else value


def _size(value: Any) -> tuple[int, int] | None:
    if value is None or value == "auto":
        return None
    if isinstance(value, str):
        from kiosk.ui.kit.layout import parse_size

        return parse_size(value)
    return (int(value[0]), int(value[1]))


@runtime_checkable
class Scripted(Protocol):
    """A kiosk that plays the lines of a script itself (kiosk.core.kiosk.Kiosk; the test kiosk does not)."""

    def script_input(self, step: "Step | str") -> None: ...


def open_ui(kiosk: "KioskView", options: Any) -> "UI":
    """Make the window and the UI for `options` (see module docstring); returns the UI."""
    t0 = time.perf_counter()
    from kiosk.ui.shell.window import UI, make_window, prepare_pyglet

    display = _opt(options, "display", "window")
    if display == "auto":
        display = "fullscreen"
    config = kiosk.config
    cfg = config.display if config is not None else None
    gl_api = _opt(options, "gl", cfg.gl if cfg is not None else "auto")
    layout = _opt(options, "layout", cfg.layout if cfg is not None else "tabletop")
    size = _size(_opt(options, "size", cfg.size if cfg is not None else None))
    language = _opt(options, "language", config.game.language if config is not None else "en")
    rotation = int(_opt(options, "rotation", cfg.rotation if cfg is not None else 0))
    prepare_pyglet(display, gl_api)
    if size is not None and rotation in (90, 270) and display != "fullscreen":
        size = (size[1], size[0])  # --size is the picture's size; the panel is turned
    window = make_window(display, size, gl_api)
    # offscreen the kiosk's clock is virtual: the UI's timers (idle, peek, gesture) run on it too
    now = kiosk.clock.now if kiosk.clock.virtual else time.monotonic
    ui = UI(
        kiosk,
        window,
        layout=layout,
        language=language,
        first=_opt(options, "first_screen", None),
        rotation=rotation,
        display=display,
        clock=now,
    )
    ui.sound = open_sound(kiosk, ui, display, _opt(options, "sound", "auto"))
    ui.startup_s = time.perf_counter() - t0
    log.info(
        "display %s %dx%d, OpenGL%s, layout %s, rotation %d, ready in %.2f s",
        display,
        window.width,
        window.height,
        " ES" if getattr(window, "gl_api", "gl") == "gles" else "",
        layout,
        rotation,
        ui.startup_s,
    )
    return ui


def open_sound(kiosk: "KioskView", ui: "UI", display: str, choice: str = "auto") -> "Sound | None":
    """The sound cues for this UI (kiosk/sound), or None: off by ``--sound off``, by ``[sound]
    enabled = false``, and offscreen unless ``--sound on`` (tests and screenshots stay quiet)."""
    if choice == "off" or (choice == "auto" and display == "offscreen"):
        return None
    from kiosk.sound import Sound, SoundSettings

    settings = SoundSettings.from_config(kiosk.config)
    if not settings.enabled:
        log.info("sound off ([sound] enabled = false)")
        return None
    sound = Sound(kiosk.bus, settings)
    from kiosk.ui.screens.operator_settings import apply_to_sound

    apply_to_sound(ui, sound)  # the operator menu's volume and mute, kept across restarts
    ui.screen_listeners.append(sound.screen_shown)
    if ui.screen is not None:
        sound.screen_shown(ui.screen.name)
    return sound


def run(kiosk: "KioskView", options: Any) -> int:
    ui = open_ui(kiosk, options)
    try:
        if ui.display == "offscreen":
            return run_offscreen(ui, kiosk, options)
        return run_window(ui, kiosk)
    finally:
        if ui.sound is not None:
            ui.sound.close()
        ui.close()
        if ui.display != "offscreen":
            ui.window.close()
        # Offscreen the EGL surface is left to the process exit: Mesa's eglTerminate/context
        # teardown has been seen to take ~11 s after a run with many textures, and nothing is
        # lost by not closing a window nobody sees (screenshots are written and closed already).


def run_window(ui: "UI", kiosk: "KioskView") -> int:
    """The pyglet event loop, paced by a :class:`Pacer`: at 60 Hz while something moves, asleep
    while nothing does (pyglet's own redraw is off). A frame not drawn is not flipped either, so
    the front buffer keeps showing the last one."""
    import pyglet
    from pyglet.app.base import EventLoop

    pacer = Pacer(ui, kiosk, notify=pyglet.app.platform_event_loop.notify, on_frame=lambda: _first_frame_drawn(kiosk))

    class Loop(EventLoop):
        def idle(self) -> float | None:
            dt = self.clock.update_time()
            self.clock.call_scheduled_functions(dt)  # pyglet's own (the sound's players)
            wait = pacer.turn()
            if kiosk.stopping:
                self.exit()
            theirs = self.clock.get_sleep_time(True)
            return wait if theirs is None else min(wait, theirs)

    loop, saved = Loop(), pyglet.app.event_loop
    pyglet.app.event_loop = loop  # pyglet.app.exit() and the windows' close go to this loop
    kiosk.bus.on_post = pacer.wake
    try:
        loop.run(None)
    finally:
        kiosk.bus.on_post = None
        pyglet.app.event_loop = saved
    return kiosk.exit_status


def _first_frame_drawn(kiosk: "KioskView") -> None:
    """A frame is on the screen: now the kiosk has started (READY=1 to systemd, once; the kiosk
    ignores repeats). A kiosk without systemd support (the test kiosk) has nothing to report."""
    report = getattr(kiosk, "report_ready", None)
    if report is not None:
        report()


class Pacer:
    """When the window loop runs the UI's next step, and how long it may sleep until then.

    While something moves (``ui.needs_frame()``) a step every `frame_s`, or at the pace of the
    screen's own motion (``ui.frame_interval``, ``Screen.motion_hz``), news and touches at once. While nothing does, the
    loop sleeps until the earliest of: the kiosk's next timer (AI pacing, the next demo game),
    the systemd watchdog's next ping, the UI's own (``ui.wake_in()``: the idle question, the
    operator gesture, a message running out), at most `longest_s`; an input wakes it (the
    platform loop returns on window events) and so does a message posted on the bus from any
    thread (:meth:`wake`, the bus's ``on_post``: an AI's answer, a button). The time slept is
    handed to the UI as ``waited`` (see ``UI.step``)."""

    def __init__(
        self,
        ui: "UI",
        kiosk: "KioskView",
        notify: Callable[[], None] | None = None,
        clock: Callable[[], float] = time.monotonic,
        frame_s: float = FRAME_S,
        longest_s: float = LONGEST_SLEEP_S,
        on_frame: Callable[[], None] | None = None,
    ) -> None:
        self.ui = ui
        self.kiosk = kiosk
        self.notify = notify  # wakes the platform loop (thread-safe: pyglet's notify writes a pipe)
        self.on_frame = on_frame  # after each frame put on the screen (the first one: READY=1)
        self.clock = clock
        self.frame_s = frame_s
        self.longest_s = longest_s
        self.last = clock() - frame_s  # the first turn steps at once
        self.next_at = self.last
        self.moving = True  # the last step left something moving: the next is one frame later
        self._woken = False
        self.steps = 0
        self.drawn = 0

    def wake(self) -> None:
        """Something was posted (any thread): step at the next frame time."""
        self._woken = True
        if self.notify is not None:
            self.notify()

    def turn(self) -> float:
        """Step the UI if it is due (drawing and flipping a frame if it changed); returns the seconds
        the loop may sleep until the next turn."""
        now = self.clock()
        news = self._woken or self.kiosk.bus.pending() > 0
        due = self.last + self._frame_after(news) if news or self.ui.needs_frame() else self.next_at
        if now < due:
            return due - now
        self._woken = False
        elapsed = now - self.last
        waited = elapsed - self.frame_s if not self.moving and elapsed > self.frame_s else 0.0
        self.last = now
        self.steps += 1
        if self.ui.step(elapsed - waited, waited=waited):
            self.ui.window.flip()
            self.drawn += 1
            if self.on_frame is not None:
                self.on_frame()
        pending = self.kiosk.bus.pending() > 0
        self.moving = pending or self.ui.needs_frame()
        self.next_at = now + (self._frame_after(pending) if self.moving else self._still_for())
        return max(0.0, self.next_at - self.clock())

    def _frame_after(self, news: bool) -> float:
        """Seconds from one frame to the next while something moves: one `frame_s` for news or work
        waiting, else the UI's (a change at once, a screen's own motion at its pace)."""
        return self.frame_s if news else self.ui.frame_interval(self.frame_s)

    def _still_for(self) -> float:
        """How long nothing needs the loop: the earliest of the kiosk's timers, the watchdog's
        ping and the UI's own, at most `longest_s`."""
        times = [self.longest_s, self.ui.wake_in()]
        clock = self.kiosk.clock
        due = clock.next_due()
        if due is not None:
            times.append(due - clock.now())
        watchdog = getattr(self.kiosk, "watchdog", None)
        if watchdog is not None:
            times.append(watchdog.due_in())
        return max(0.0, min(t for t in times if t is not None))


# ---------------------------------------------------------------------- offscreen
class Offscreen:
    """Drives the UI without a screen: frames on demand, a virtual clock, scripted inputs."""

    def __init__(
        self, ui: "UI", kiosk: "KioskView", screenshot_dir: str | Path | None = None, frame_s: float = FRAME_S
    ):
        self.ui = ui
        self.frame_s = frame_s  # virtual time per frame (tests use bigger steps)
        self.kiosk = kiosk
        self.dir = Path(screenshot_dir) if screenshot_dir else None
        self.shots = 0
        self.virtual: VirtualClock | None = kiosk.clock if isinstance(kiosk.clock, VirtualClock) else None

    def frame(self, dt: float | None = None) -> None:
        dt = self.frame_s if dt is None else dt
        if self.virtual is not None:
            self.virtual.advance(dt)
        self.ui.step(dt)

    def run_for(self, seconds: float) -> None:
        for _ in range(max(1, round(seconds / self.frame_s))):
            self.frame()

    def calm(self) -> bool:
        return self.kiosk.settled() and not self.ui.busy()

    def settle(self, max_s: float = SETTLE_MAX_S) -> None:
        """Render frames until the bus is quiet, animations are done and no AI is acting."""
        for _ in range(int(max_s / self.frame_s)):
            self.frame()
            if self.calm():
                self.frame()
                return

    def shot(self, label: str) -> Path | None:
        if self.dir is None:
            return None
        self.shots += 1
        safe = "".join(ch if ch.isalnum() or ch in "-_" else "_" for ch in label)[:40]
        return self.ui.screenshot(self.dir / f"{self.shots:04d}-{safe}.png")

    def do(self, line: "Step | str") -> None:
        """One scripted input: a kiosk.core.script Step or a line (docs/keys.md: the headless format + tap-px)."""
        if isinstance(line, str):
            self._do_line(line)
            return
        step = line
        if step.verb == "wait":
            self.run_for(step.args[0] / 1000)
            return
        if step.verb == "tap-px":
            self.ui.tap_px(*step.args)
        elif isinstance(self.kiosk, Scripted):
            self.kiosk.script_input(step)
        else:
            raise ContractError(f"script: {step.text!r}: this kiosk takes script lines, not parsed steps")
        self.settle()

    def _do_line(self, line: str) -> None:
        """A line not parsed by kiosk.core.script (a kiosk without ``script_input``, e.g. the test kiosk)."""
        words = line.split()
        if not words:
            return
        verb = words[0].lower()
        if verb == "wait":
            if len(words) != 2:
                raise ValueError(f"script: {line!r}: write wait MILLISECONDS")
            self.run_for(int(words[1]) / 1000)
            return
        if verb == "tap-px":
            if len(words) != 3:
                raise ValueError(f"script: {line!r}: write tap-px X Y (pixels from the top-left)")
            self.ui.tap_px(float(words[1]), float(words[2]))
        else:
            if isinstance(self.kiosk, Scripted):
                self.kiosk.script_input(line)
            elif verb == "button" and len(words) == 2:
                self.ui.press_button(words[1])
            else:
                self._play_game_line(line)
        self.settle()

    def _play_game_line(self, line: str) -> None:
        """A game's own line (kiosk.games ScriptWords), for the game that runs."""
        from kiosk import games
        from kiosk.core.script import parse_line

        step = parse_line(line)
        session = self.kiosk.game_session
        kind = games.get(session.game_name)
        if step is None or kind.script is None or step.verb not in kind.script.verbs:
            raise ValueError(
                f"script: {line!r} is not an input (button N, wait MS, tap-px X Y, or a line of the game that runs)"
            )
        for command in kind.script.play(session, step.verb, step.args):
            self.ui.post(command)


def read_script(path: str | Path) -> list[str]:
    """The input lines of a script: blank lines and # comments dropped."""
    lines = []
    for raw in Path(path).read_text(encoding="utf-8").splitlines():
        text = raw.split("#", 1)[0].strip()
        if text:
            lines.append(text)
    return lines


def run_offscreen(ui: "UI", kiosk: "KioskView", options: Any) -> int:
    runner = Offscreen(ui, kiosk, _opt(options, "screenshot_dir", None))
    runner.settle(1.0)
    runner.shot("start")
    _first_frame_drawn(kiosk)
    script = _opt(options, "script", None)
    if script:
        steps: list[Step | str]
        if isinstance(kiosk, Scripted):
            from kiosk.core.script import load

            steps = [*load(script, pixels=True)]
        else:
            steps = [*read_script(script)]
        for n, step in enumerate(steps, 1):
            runner.do(step)
            runner.shot(f"{n}-{step}")
            if kiosk.stopping:
                break
        return kiosk.exit_status
    # no script: run like the kiosk until it stops, in real time
    last = time.perf_counter()
    while not kiosk.stopping:
        now = time.perf_counter()
        runner.frame(now - last)
        last = now
        time.sleep(max(0.0, FRAME_S - (time.perf_counter() - now)))
    return kiosk.exit_status
