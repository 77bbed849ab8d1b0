"""Sound: short friendly cues for what happens in the game, played on a thread of their own.

``Sound`` subscribes to the kiosk's bus and turns events into cues
(kiosk/sound/synth.py makes them). The life cycle every game shares
(kiosk/core/events.py) sounds the same in every game: "your turn" when a
person's turn begins (``TurnBegan``), the game won (``GameEnded``). Each
game declares the cues of its own events with its registration
(``GameType.sounds``, e.g. kiosk/games/labyrinth/cues.py: an arrow chosen,
the tile pushed, a blocked arrow, one step per cell walked, a treasure
found; kiosk/games/cards/cues.py: a card laid, cards taken, a refused lay).
The attract screen gets a jingle when it shows (again every
``ATTRACT_REPEAT_S`` while it stays).

Cues follow the game's animations (the board plays them one after the
other): a pawn's steps start when the row has landed, a treasure sounds when
the pawn arrives. ``Sound`` keeps that timeline itself (``_free_at``) from
the durations each :class:`Cue` gives (``lasts``), so it needs nothing from
the UI but the name of the screen shown (``screen_shown``).

Nothing here waits: the bus handlers put (time, cue) on a queue and return;
the sound thread synthesises the cues (once, cached), opens the audio device
and starts each cue at its time. No device (no PulseAudio/PipeWire server, no
ALSA card): one log line, and the kiosk carries on silent. The headless mode
never makes a ``Sound`` (kiosk/ui/shell/runner.py makes it with the window).

Operators: ``[sound]`` in the config (enabled, volume, quiet hours when the
attract jingle stays silent) and the operator menu (``volume``, ``muted``).
"""

from __future__ import annotations

import heapq
import io
import logging
import threading
import time
from collections import deque
from dataclasses import dataclass
from typing import Any, Callable

from kiosk.games import HUMAN
from kiosk.sound import synth

log = logging.getLogger(__name__)

ATTRACT_REPEAT_S = 300.0  # the jingle again after this long on the attract screen
RHYTHM_SLACK_S = 0.02  # a cue started later than this shifts the ones close behind it...
RHYTHM_SPAN_S = 2.0  # ...that are due within this long after it
LATE_S = 0.5  # a cue this late (the device still opening) is dropped: a late sound confuses


@dataclass(frozen=True)
class Cue:
    """What one of a game's events sounds like (``GameType.sounds`` answers these).

    `name` is a cue of synth.py. ``at_once``: it answers an input (an arrow
    chosen, a refusal) and sounds now; else it waits until the animations of
    earlier events are done. `lasts`: how long the animation this event starts
    keeps later cues waiting. ``repeat`` cues `every` seconds apart (a walk's steps).
    """

    name: str
    at_once: bool = False
    lasts: float = 0.0
    repeat: int = 1
    every: float = 0.0


@dataclass
class SoundSettings:
    """What the operator chose: ``[sound]`` in the config, then the operator menu."""

    enabled: bool = True
    volume: int = 70  # percent
    quiet_hours: tuple[int, int] | None = None  # (start, end) minutes after midnight; attract is silent

    @classmethod
    def from_config(cls, config: Any) -> "SoundSettings":
        section = getattr(config, "sound", None)
        if section is None:
            return cls()
        return cls(
            enabled=bool(getattr(section, "enabled", True)),
            volume=int(getattr(section, "volume", 70)),
            quiet_hours=getattr(section, "quiet_hours", None),
        )


def parse_quiet_hours(text: str) -> tuple[int, int] | None:
    """``"22:00-08:30"`` -> (1320, 510); ``""`` or ``"none"`` -> None. Raises ValueError on anything else."""
    text = str(text).strip().lower()
    if text in ("", "none", "off"):
        return None
    try:
        a, b = text.split("-")
        out: list[int] = []
        for part in (a, b):
            hh, mm = part.strip().split(":")
            h, m = int(hh), int(mm)
            if not (0 <= h <= 23 and 0 <= m <= 59):
                raise ValueError
            out.append(h * 60 + m)
    except ValueError:
        raise ValueError(f'{text!r}: write quiet hours as HH:MM-HH:MM (e.g. "22:00-08:00") or "none"') from None
    return out[0], out[1]


def format_quiet_hours(value: tuple[int, int] | None) -> str:
    if value is None:
        return "none"
    return "-".join(f"{m // 60:02d}:{m % 60:02d}" for m in value)


def in_quiet_hours(value: tuple[int, int] | None, minute_of_day: int) -> bool:
    """Is `minute_of_day` inside (start, end)? A span may cross midnight (22:00-08:00)."""
    if value is None:
        return False
    start, end = value
    if start <= end:
        return start <= minute_of_day < end
    return minute_of_day >= start or minute_of_day < end


class PygletOutput:
    """Plays PCM cues through pyglet's audio driver (PulseAudio/PipeWire, else OpenAL on ALSA).

    Used from the sound thread only. Each cue gets its own short-lived player,
    deleted after it has played: pyglet's end-of-stream event needs pyglet's
    app loop, which the offscreen runner does not run, so nothing here waits for it.
    """

    def __init__(self):
        self._sources: dict[str, Any] = {}
        self._players: list[tuple[float, Any]] = []
        self.available = False
        self.reason = ""

    def open(self) -> bool:
        try:
            import pyglet  # noqa: PLC0415 -- pyglet's audio only once the sound opens

            pyglet.options["audio"] = ("pulse", "openal", "silent")
            import pyglet.media  # noqa: PLC0415 -- pyglet's audio only once the sound opens

            driver = pyglet.media.get_audio_driver()
            name = type(driver).__name__ if driver is not None else "none"
            if driver is None or "Silent" in name:
                self.reason = "no audio device (no PulseAudio/PipeWire server, no OpenAL)"
                return False
            self.available = True
            self.reason = name
            return True
        except Exception as exc:  # a broken audio library must not stop the kiosk
            self.reason = f"audio unavailable: {exc}"
            return False

    def load(self, name: str, data: bytes) -> None:

        import pyglet.media  # noqa: PLC0415 -- pyglet's audio only once the sound opens

        self._sources[name] = pyglet.media.load(f"{name}.wav", file=io.BytesIO(synth.wav(data)), streaming=False)

    def play(self, name: str, volume: float) -> None:
        import pyglet.media  # noqa: PLC0415 -- pyglet's audio only once the sound opens

        player = pyglet.media.Player()
        player.volume = volume
        player.queue(self._sources[name])
        player.play()
        self._players.append((time.monotonic() + self._sources[name].duration + 0.5, player))

    def reap(self) -> None:
        now = time.monotonic()
        keep = []
        for until, player in self._players:
            if now >= until:
                player.delete()
            else:
                keep.append((until, player))
        self._players = keep

    def close(self) -> None:
        for _, player in self._players:
            player.delete()
        self._players = []


class Sound:
    """Cues for the kiosk's events; see the module docstring."""

    def __init__(
        self,
        bus: Any,
        settings: SoundSettings | None = None,
        *,
        output: Any = None,
        now: Callable[[], float] = time.monotonic,
        wall: Callable[[], time.struct_time] = time.localtime,
        start: bool = True,
    ):
        self.settings = settings or SoundSettings()
        self.muted = False
        self.volume = max(0, min(100, int(self.settings.volume)))
        # a visitor's own choice (the in-game menu): quieter than the operator's volume or silent,
        # never louder; the next visitor (the attract screen) starts at the operator's volume again
        self.visitor_volume: int | None = None
        self.visitor_muted = False
        self.now = now
        self.wall = wall
        self.played: deque[tuple[float, str]] = deque(maxlen=500)  # (time, cue) as started, the latest
        self._output = output if output is not None else PygletOutput()
        self._due: list[tuple[float, int, str]] = []
        self._seq = 0
        self._lock = threading.Condition()
        self._free_at = 0.0  # when the board's animations so far will have finished
        self._turn_key: tuple[int, int] | None = None  # (player, turn) of the last turn begun
        self._screen = ""
        self._attract_next: float | None = None
        self._stop = False
        self._thread: threading.Thread | None = None
        self._unsubscribe: list[Callable[[], None]] = []
        self.ready = threading.Event()  # the device is open and every cue is made
        if bus is not None:
            self._subscribe(bus)
        if start and self.settings.enabled:
            self._thread = threading.Thread(target=self._run, name="sound", daemon=True)
            self._thread.start()

    # ------------------------------------------------------------ controls
    @property
    def audible(self) -> bool:
        return self.settings.enabled and not self.muted and not self.visitor_muted and self.playing_volume > 0

    @property
    def playing_volume(self) -> int:
        """The volume cues play at (percent): the operator's, or a visitor's lower one."""
        return self.volume if self.visitor_volume is None else min(self.volume, self.visitor_volume)

    def set_visitor_volume(self, percent: int) -> int:
        """A visitor's volume, kept between silence and the operator's volume; the level set."""
        self.visitor_volume = max(0, min(self.volume, int(percent)))
        return self.visitor_volume

    def set_visitor_muted(self, muted: bool) -> None:
        self.visitor_muted = bool(muted)

    def reset_visitor(self) -> None:
        """A new visitor: the operator's volume, not muted."""
        self.visitor_volume, self.visitor_muted = None, False

    def set_volume(self, percent: int) -> None:
        self.volume = max(0, min(100, int(percent)))

    def set_muted(self, muted: bool) -> None:
        self.muted = bool(muted)

    def quiet_now(self) -> bool:
        t = self.wall()
        return in_quiet_hours(self.settings.quiet_hours, t.tm_hour * 60 + t.tm_min)

    # ------------------------------------------------------------ events -> cues
    def _subscribe(self, bus: Any) -> None:
        # the events and the registry only on subscribing: the sound's synthesis loads alone
        from kiosk.core.events import GameBegan, GameEnded, TurnBegan  # noqa: PLC0415 -- see above
        from kiosk.games import all_games  # noqa: PLC0415 -- see above

        handlers: list[tuple[type, Callable[[Any], None]]] = [
            (GameBegan, lambda ev: self._reset_timeline()),
            (TurnBegan, self._on_turn),
            (GameEnded, lambda ev: self._after("won", 0.0) if ev.winners else None),
        ]
        for game in all_games():
            if game.sounds is not None:
                handlers += [(kind, self._game_cue(answer)) for kind, answer in game.sounds().items()]
        for kind, handler in handlers:
            self._unsubscribe.append(bus.subscribe(kind, handler))

    def _game_cue(self, answer: Callable[[Any], Cue | None]) -> Callable[[Any], None]:
        """A bus handler playing the Cue a game's `answer` gives for an event."""

        def handle(ev: Any) -> None:
            cue = answer(ev)
            if cue is None:
                return
            if cue.at_once:
                self.cue(cue.name)
                return
            with self._lock:  # the sound thread moves the timeline when it runs late
                at = max(self.now(), self._free_at)
                self._free_at = at + cue.lasts
            for k in range(cue.repeat):
                self.cue(cue.name, at + k * cue.every)

        return handle

    def _on_turn(self, ev: Any) -> None:
        """ "Your turn" once at the start of a person's turn (not again at its later phases)."""
        key = (ev.player, ev.turn)
        if key == self._turn_key:
            return
        self._turn_key = key
        if ev.kind == HUMAN:
            self._after("turn", 0.0)

    def _reset_timeline(self) -> None:
        with self._lock:
            self._free_at = self.now()
            self._turn_key = None

    def _after(self, name: str, lasts: float) -> None:
        """Cue `name` when the animations before it are done; what follows waits `lasts` more."""
        with self._lock:  # the sound thread moves the timeline when it runs late
            at = max(self.now(), self._free_at)
            self._free_at = at + lasts
        self.cue(name, at)

    def screen_shown(self, name: str) -> None:
        """The UI shows screen `name`: the attract screen gets its jingle (not in quiet hours)."""
        self._screen = name
        if name == "attract":
            self.reset_visitor()
            self._attract_next = self.now()
            self._attract_due()
        else:
            self._attract_next = None

    def _attract_due(self) -> None:
        if self._attract_next is None or self.now() < self._attract_next:
            return
        self._attract_next = self.now() + ATTRACT_REPEAT_S
        if self.quiet_now():
            log.debug("quiet hours: the attract jingle stays silent")
            return
        self.cue("attract")

    def cue(self, name: str, at: float | None = None) -> bool:
        """Play cue `name` at time `at` (default now); never waits. False if nothing will sound."""
        if name not in synth.LEAD_HZ:
            raise KeyError(f"no sound cue called {name!r}")
        if not self.audible or self._thread is None:
            return False
        with self._lock:
            self._seq += 1
            heapq.heappush(self._due, (self.now() if at is None else at, self._seq, name))
            self._lock.notify()
        return True

    # ------------------------------------------------------------ the sound thread
    def _run(self) -> None:
        out = self._output
        if not self._prepare(out):
            return
        while True:
            with self._lock:
                if self._stop:
                    break
                ready = self._next_due()
            if self._screen == "attract":
                self._attract_due()
            for at, name in ready:
                self._play(out, at, name)
            out.reap()
        out.close()

    def _prepare(self, out) -> bool:
        """Open the device and make every cue (~1 s of pure Python the first time, then read from
        the cache); False (and one log line) when there is no sound to be had."""
        if not out.open():
            log.warning("sound off: %s", out.reason)
            with self._lock:
                self._thread = None
                self._due.clear()
            return False
        log.info("sound on (%s), volume %d%%", out.reason, self.volume)
        for name in synth.CUES:
            if self._stop:
                return False
            try:
                out.load(name, synth.cached_pcm(name))
            except Exception:
                log.exception("sound cue %r could not be made; sound off", name)
                return False
        self.ready.set()
        return True

    def _next_due(self) -> list[tuple[float, str]]:
        """Wait (the lock held) until a cue is due or a quarter second passed; the due cue, if any."""
        wait = 0.25
        if self._due:
            wait = min(wait, self._due[0][0] - self.now())
        if wait > 0:
            self._lock.wait(wait)
        if not (self._due and self._due[0][0] <= self.now() + 0.005):
            return []
        at, _, name = heapq.heappop(self._due)
        late = self.now() - at
        if late > RHYTHM_SLACK_S:
            # this thread woke late (a busy CPU): what follows closely moves along, so a walk's
            # steps keep their beat instead of sounding all at once
            self._due = [(t + late if t < at + RHYTHM_SPAN_S else t, k, n) for t, k, n in self._due]
            heapq.heapify(self._due)
            if self._free_at > at:
                self._free_at += late  # and so do the cues of events still to come
        return [(at, name)]

    def _play(self, out, at: float, name: str) -> None:
        if not self.audible:
            return
        if name != "attract" and self.now() - at > LATE_S:
            log.debug("sound: %s dropped, %.2f s late", name, self.now() - at)
            return
        try:
            out.play(name, self.playing_volume / 100)
            self.played.append((self.now(), name))
            log.debug("sound: %s", name)
        except Exception as exc:
            log.warning("sound cue %r failed: %s", name, exc)

    def close(self) -> None:
        for unsubscribe in self._unsubscribe:
            try:
                unsubscribe()
            except Exception:
                pass
        self._unsubscribe = []
        with self._lock:
            self._stop = True
            self._lock.notify()
        thread = self._thread
        if thread is not None and thread is not threading.current_thread():
            thread.join(timeout=2)


__all__ = [
    "Cue",
    "Sound",
    "SoundSettings",
    "PygletOutput",
    "parse_quiet_hours",
    "format_quiet_hours",
    "in_quiet_hours",
    "ATTRACT_REPEAT_S",
]
