"""The operator menu: a hidden gesture, a PIN, then hardware test, statistics and quit.

Visitors must not stumble into it, staff must find it without tools: press and
hold the top-left corner for 3 seconds on any screen (:class:`CornerHold`, run
by the UI for every screen; a finger on something that plays -- a panel
button, an arrow, a board cell -- never counts, so it never steals a tap or a
peek from a game), then type the PIN from the config (``[kiosk]
operator_pin``) on a big keypad. Three wrong PINs lock the keypad for 30 s, each
further wrong PIN doubles the lock up to hours, and the count survives a
restart (kiosk/store/pin.py). The
menu goes back (to the game it was opened from, if that still runs, else to
the attract screen) after a minute without a touch, so it is never left open
for the next visitor.

Pages:
- hardware test: the 12 arrow buttons (and rotate/stay) drawn around a board
  outline light up when pressed; "test the ring" cycles the ring colours.
- statistics: the summary of the game history (kiosk/store/history.py).
- sound & display: volume, mute, high contrast (kiosk/ui/screens/operator_settings.py).
- quit: the only way out of the app in kiosk mode (tap twice to confirm).

What it needs from the kiosk object (all optional, looked up by name):
``kiosk.set_button_test(on)`` so presses are not also played as moves,
``kiosk.test_ring(rgb)`` to paint the ring, ``kiosk.store.history`` (or
``config.paths.state_dir``) for the statistics.
"""

from __future__ import annotations

import logging
import math
from functools import partial
from typing import TYPE_CHECKING, Any

import pyglet
from pyglet import shapes

from engine.outcome import GAME_OVER
from kiosk.ui.kit.text_cache import Text
from kiosk import games
from kiosk.games import HUMAN
from kiosk.core.events import ButtonPressed, Quit
from kiosk.store.pin import PinGuard
from kiosk.version import version as running_version

from kiosk.ui.art import SEAT_COLORS
from kiosk.core.config import ARROWS
from kiosk.ui.kit.layout import Rect
from kiosk.ui.kit.menu import GO, TOGGLE_OFF, Canvas, config_value, fit_font, make_button, measure, panel
from kiosk.ui.kit.typeface import BODY
from kiosk.ui.shell.screen import Screen, game_on, register, session_for
from kiosk.ui.kit.widgets import ACCENT, BUTTON, DANGER, DIM, INK, Frame, label

if TYPE_CHECKING:  # pragma: no cover
    from kiosk.ui.shell.window import UI

log = logging.getLogger(__name__)

HOLD_S = 3.0  # press-and-hold time on the corner
TIMEOUT_S = 60.0  # untouched operator menu returns to attract
LIT_S = 0.6  # the button test: a pressed button's light stays lit this long, then shows it was seen
#: design units from one line of the statistics to the next (a body-size line and its gap)
LINE = 26
COUNTDOWN_POLL_S = 0.25  # how often a still menu looks at the PIN's countdown and the statistics' count
RING_COLOURS = (SEAT_COLORS[0], SEAT_COLORS[1], SEAT_COLORS[2], SEAT_COLORS[3], (255, 255, 255), (0, 0, 0))
LIT = (90, 230, 120)
SEEN = (40, 120, 70)


class CornerHold:
    """The hidden gesture: a finger held on the top-left corner for `hold` seconds opens the PIN pad.

    A screen calls ``press``/``release``/``update``; a short tap in the corner
    does whatever the screen normally does.
    """

    def __init__(self, ui: "UI", hold: float = HOLD_S):
        self.ui = ui
        self.hold = hold
        self.since: float | None = None

    def zone(self) -> Rect:
        side = self.ui.layout.touch * 1.5
        return Rect(0, self.ui.layout.height - side, side, side)

    def press(self, x: float, y: float) -> None:
        self.since = self.ui.now() if self.zone().contains(x, y) else None

    def release(self) -> None:
        self.since = None

    def wake_in(self) -> float | None:
        """Seconds until a finger held on the corner has held long enough (None: no finger there)."""
        return None if self.since is None else self.hold - (self.ui.now() - self.since)

    def update(self) -> bool:
        """True (and the operator screen shown) once the corner has been held long enough."""
        if self.since is not None and self.ui.now() - self.since >= self.hold:
            self.since = None
            self.ui.goto("operator")
            return True
        return False


@register("operator")
class OperatorScreen(Screen):
    """PIN keypad, then the menu pages."""

    background = (18, 20, 26)
    shows_table = False  # the staff's screen: plain

    def __init__(self, ui: "UI"):
        super().__init__(ui)
        self.back = "attract"  # the screen the menu was opened from
        self.page = "pin"  # pin | hardware | stats
        self.entered = ""
        self.message = ""
        self.guard = _guard(ui)
        self._shown_locked = False  # the pad was drawn locked: redraw when the lock ends
        self._shown_countdown = ""
        self.quit_armed = False
        self.pressed: dict[str, float] = {}  # button -> when it was last pressed
        self.ring_index = -1
        self._armed = False  # a finger went down on this screen (ignores the gesture's lift)
        self._last_touch = 0.0
        self._shapes: list = []
        self._lights: dict[str, shapes.ShapeBase] = {}
        self._count: Text | None = None  # the button test's live count
        self._count_fit = (1.0, 1.0)  # its largest size and its width (points, px)
        self.stats_job: Any = None  # a kiosk.store.stats.Background counting the history for the Statistics page
        self._stats_drawn = False  # the page shows the job's result (not "counting")

    # ------------------------------------------------------------ lifecycle
    def enter(self, back: str = "attract", **kw) -> None:
        self.back = back
        self.page = "pin"
        self.entered = ""
        self.message = ""
        self.quit_armed = False
        self._armed = False
        self._last_touch = self.ui.now()
        self._build()

    def leave(self) -> None:
        super().leave()
        self._button_test(False)

    def resize(self, layout) -> None:
        self._build()

    def update(self, dt: float) -> None:
        now = self.ui.now()
        if now - self._last_touch >= TIMEOUT_S:
            self.go_back()
            return
        if self.page == "stats" and not self._stats_drawn and self.stats_job is not None and self.stats_job.done:
            self._build()  # the history is counted: draw it
        if self.page == "pin" and self._shown_locked and not self.locked:
            self.message = ""
            self._build()
        elif self.page == "pin" and self._shown_locked and _countdown(self.guard.remaining()) != self._shown_countdown:
            self._build()  # the countdown ticks
        for name, light in self._lights.items():
            t = self.pressed.get(name)
            if t is None:
                continue
            fresh = now - t < LIT_S
            color = LIT if fresh else SEEN
            if tuple(light.color[:3]) != color[:3]:
                light.color = color
                self.ui.request_frame()

    @property
    def animating(self) -> bool:
        """Nothing on the menu moves: it is drawn again when it is built again or a button's light
        changes, not every frame."""
        return False

    def wake_in(self) -> float | None:
        """The next moment the menu changes by itself: back to start when untouched, a button's
        light going from lit to seen, the PIN's countdown, the statistics counted."""
        now = self.ui.now()
        times = [TIMEOUT_S - (now - self._last_touch)]
        times += [t + LIT_S - now for t in self.pressed.values() if now - t < LIT_S]
        if self.page == "pin" and self._shown_locked:
            times.append(COUNTDOWN_POLL_S)
        if self.page == "stats" and not self._stats_drawn and self.stats_job is not None:
            times.append(COUNTDOWN_POLL_S)  # counted on another thread: look again soon
        return max(0.0, min(times))

    def back_to(self) -> str:
        """Where Back goes: the screen the menu was opened from if it still shows something (a game
        still running, the setup, the how-to), otherwise the attract screen."""
        back = self.back
        game_name = game_on(back)
        if game_name is not None:
            session = session_for(self.kiosk, game_name)
            game = session.game if session is not None else None
            return back if game is not None and game.phase != GAME_OVER else "attract"
        return back if back in ("setup", *(g.howto_screen for g in games.all_games())) else "attract"

    def go_back(self) -> None:
        self.ui.goto(self.back_to())

    def press(self, x: float, y: float) -> None:
        self._armed = True
        self._last_touch = self.ui.now()
        super().press(x, y)

    def tap(self, x: float, y: float) -> bool:
        if not self._armed:  # the lift of the finger that held the corner
            return True
        self._last_touch = self.ui.now()
        return super().tap(x, y)

    def on_event(self, event) -> None:
        if isinstance(event, ButtonPressed) and self.page == "hardware":
            self.pressed[event.button] = self.ui.now()
            self._last_touch = self.ui.now()
            self._show_count()

    def _show_count(self) -> None:
        """How many of the 12 arrow buttons were pressed, counted as they come; all of them: said so."""
        count = getattr(self, "_count", None)
        if count is None or self.page != "hardware":
            return
        seen = sum(1 for n in ARROWS if n in self.pressed)
        text = self.t("operator.all_buttons") if seen == len(ARROWS) else f"{seen} / {len(ARROWS)}"
        if count.text != text:
            pts, width = self._count_fit
            count.text = text
            count.font_size = fit_font(text, pts, width)
            count.color = (*(LIT if seen == len(ARROWS) else INK), 255)

    # ------------------------------------------------------------ PIN
    @property
    def pin(self) -> str:
        return str(config_value(self.ui, "kiosk", "operator_pin", "2580"))

    @property
    def locked(self) -> bool:
        return self.guard.locked

    def key(self, k: str) -> None:
        if self.locked:
            return
        if k == "del":
            self.entered = self.entered[:-1]
        elif k == "ok":
            self.submit()
            return
        elif len(self.entered) < 12:
            self.entered += k
            self.message = ""
        self._build()

    def submit(self) -> None:
        verdict = self.guard.check(self.entered, self.pin)
        self.entered = ""
        if verdict == "ok":
            self.message = ""
            self.open_page("hardware")
            return
        self.message = self.t("operator.wrong_pin")
        self._build()

    # ------------------------------------------------------------ pages
    def open_page(self, page: str) -> None:
        self.page = page
        self.quit_armed = False
        self._button_test(page == "hardware")
        if page == "stats":
            self._start_count()
        self._build()

    def quit(self) -> None:
        if not self.quit_armed:
            self.quit_armed = True
            self._build()
            return
        log.info("operator menu: quit")
        self.ui.post(Quit("operator"))

    def cycle_ring(self) -> None:
        self.ring_index = (self.ring_index + 1) % len(RING_COLOURS)
        rgb = RING_COLOURS[self.ring_index]
        try:
            self.kiosk.test_ring(rgb)
        except Exception as exc:  # a missing ring must not break the menu
            log.warning("ring test failed: %s", exc)
        self._build()

    def _button_test(self, on: bool) -> None:
        self.kiosk.set_button_test(on)

    def _history(self):
        """The kiosk's history, or the configured state directory's (None: nothing to count)."""
        history = self.kiosk.history
        if history is None:
            from kiosk.store.history import History

            state_dir = config_value(self.ui, "paths", "state_dir", None)
            if state_dir is None:
                return None
            history = History(state_dir)
        return history

    def _start_count(self) -> None:
        """Count the history on a worker thread: a history of years takes seconds on a Pi, and the
        UI loop (and with it the systemd watchdog) must go on meanwhile; update() draws the result."""
        from kiosk.store.stats import Background, count_history

        history = self._history()
        self.stats_job = None if history is None else Background(lambda: count_history(history))
        self._stats_drawn = False

    def statistics(self) -> list[str]:
        """The history summary as short translated lines (a line saying so while it is counted)."""
        job = self.stats_job
        if job is None:
            return [self.t("operator.stats_unavailable")]
        if not job.done:
            return [self.t("operator.stats_counting")]
        if job.error is not None:
            log.warning("statistics unavailable: %s", job.error)
            return [self.t("operator.stats_unavailable")]
        s = job.result[0]
        waiting = [self.t("operator.pending", n=s.pending)] if s.pending else []
        if not s.games:
            return [self.t("operator.no_games"), *waiting]
        humans = s.wins.get(HUMAN, 0)
        computers = s.computer_wins  # each game once, however many computers shared its win
        lines = [
            self.t("operator.games_played", n=s.games),
            self.t("operator.avg_turns", n=f"{s.mean_turns:.1f}"),
            self.t("operator.avg_duration", minutes=f"{(s.mean_duration_s or 0) / 60:.1f}"),
            self.t("operator.wins", humans=humans, computers=computers),
        ]
        recent = list(s.per_day.items())[-5:]
        lines += [f"{day}:  {n}" for day, n in recent]
        return lines + waiting + self.seat_and_score_lines()

    def seat_and_score_lines(self) -> list[str]:
        """How often seats changed hands, and each game's scores (a puzzle's stars), if any."""
        job = self.stats_job
        if job is None or not job.done or job.error is not None:
            return []
        s = job.result[0]
        lines = []
        if s.seat_changes:
            lines.append(self.t("operator.seat_changes", n=s.seat_changes, games=s.games_seats_changed))
        for game, counts in s.scores.items():
            scores = ", ".join(f"{score} \u00d7{n}" for score, n in counts.items())
            lines.append(self.t("operator.scores", game=self._game_title(game), scores=scores))
        return lines

    def _game_title(self, game: str) -> str:
        from kiosk import games

        if game not in games.names():
            return game
        kind = games.get(game)
        return self.t(kind.title_key) if kind.title_key else kind.title

    # ------------------------------------------------------------ drawing
    def _build(self) -> None:
        self.clear_widgets()
        for s in self._shapes:
            s.delete()
        self._shapes = []
        self._lights = {}
        self._count = None
        self.batch = pyglet.graphics.Batch()
        c = Canvas(self.layout)
        frame = Frame(self.layout.screen, 0)
        if self.page == "pin":
            self._build_pin(c, frame)
        else:
            self._build_menu(c, frame)
        self.ui.request_frame()  # the new picture (the screen draws only when it changes)

    _bg = pyglet.graphics.Group(order=0)
    _fg = pyglet.graphics.Group(order=3)

    def _text(self, c, frame, text, x, y, size, *, color=INK, anchor_x="center", bold=True, width=None, least=0.0):
        """A text `size` tall (design units), narrowed to `width` if it must; with `least`, never under that
        size: what does not fit then is cut short with an ellipsis (the statistics: read, not squeezed)."""
        pts = fit_font(text, c.font(size), c.px(width)) if width else c.font(size)
        if least and pts < c.font(least):
            pts = c.font(least)
            text = elide(text, pts, c.px(width), bold)
        lbl = label(text, frame, c.px(x), c.px(y), pts, self.batch, self._fg, color=color, anchor_x=anchor_x, bold=bold)
        self._shapes.append(lbl)
        return lbl

    def _build_pin(self, c: Canvas, frame: Frame) -> None:
        W, H = c.W, c.H
        key_w, key_h, gap = 84, 56, 8
        pad_w = 3 * key_w + 2 * gap
        pad_h = 4 * key_h + 3 * gap
        # the keypad centred, the PIN display above it
        x0 = (W - pad_w) / 2
        y0 = min((H - pad_h - 100) / 2, 40) if W > H else (H - pad_h) / 2 - 60
        y0 = max(12, y0)
        top = y0 + pad_h
        self._text(c, frame, self.t("operator.enter_pin"), W / 2, min(H - 24, top + 100), 20)
        shown = "\u25cf " * len(self.entered) if self.entered else "\u2013"
        self._shapes += panel(frame, c.r(x0, top + 12, pad_w, 40), self.batch, self._bg, radius=c.px(8))
        self._text(c, frame, shown.strip(), W / 2, top + 32, 20)
        self._shown_locked = self.locked
        if self.locked:
            self._shown_countdown = _countdown(self.guard.remaining())
            msg = f"{self.t('operator.wrong_pin')}  \u2013  {self._shown_countdown}"
        else:
            msg = self.message
        if msg:
            self._text(c, frame, msg, W / 2, top + 70, 16, color=DANGER)
        keys = ["1", "2", "3", "4", "5", "6", "7", "8", "9", "del", "0", "ok"]
        for i, k in enumerate(keys):
            r, col = divmod(i, 3)
            text = {"del": "\u232b", "ok": "OK"}.get(k, k)
            color = {"del": TOGGLE_OFF, "ok": GO}.get(k, BUTTON)
            b = make_button(
                self,
                c,
                frame,
                Rect(x0 + col * (key_w + gap), top - (r + 1) * key_h - r * gap, key_w, key_h),
                text,
                self.batch,
                self._bg,
                size=24,
                color=color,
                on_tap=partial(self.key, k),
            )
            if self.locked:
                b.set_enabled(False)
        make_button(
            self,
            c,
            frame,
            Rect(12, 12, 120, 52),
            "\u2039 " + self.t("common.back"),
            self.batch,
            self._bg,
            size=16,
            color=TOGGLE_OFF,
            on_tap=self.go_back,
        )

    def _build_menu(self, c: Canvas, frame: Frame) -> None:
        W, H = c.W, c.H
        t = self.t
        portrait = H > W
        # tabs: a column on the left (landscape) or a row on top (portrait)
        tabs = (
            ("hardware", "operator.hardware_test"),
            ("stats", "operator.statistics"),
            ("settings", "operator.sound_display"),
        )
        if portrait:
            tab_w, tab_h = (W - 12 * (len(tabs) + 1)) / len(tabs), 56
            for i, (page, key) in enumerate(tabs):
                make_button(
                    self,
                    c,
                    frame,
                    Rect(12 + i * (tab_w + 12), H - 12 - tab_h, tab_w, tab_h),
                    t(key),
                    self.batch,
                    self._bg,
                    size=17,
                    color=ACCENT if self.page == page else BUTTON,
                    text_color=(30, 30, 30) if self.page == page else INK,
                    on_tap=partial(self.open_page, page),
                )
            area = Rect(12, 12 + 64, W - 24, H - 24 - tab_h - 12 - 64)
            bottom = Rect(12, 12, W - 24, 56)
        else:
            tab_w, tab_h = 200, 56
            self._text(c, frame, t("operator.title"), 12 + tab_w / 2, H - 30, 18, color=DIM, width=tab_w)
            for i, (page, key) in enumerate(tabs):
                make_button(
                    self,
                    c,
                    frame,
                    Rect(12, H - 60 - (i + 1) * (tab_h + 10), tab_w, tab_h),
                    t(key),
                    self.batch,
                    self._bg,
                    size=17,
                    color=ACCENT if self.page == page else BUTTON,
                    text_color=(30, 30, 30) if self.page == page else INK,
                    on_tap=partial(self.open_page, page),
                )
            area = Rect(12 + tab_w + 14, 12, W - tab_w - 38, H - 24)
            bottom = Rect(12, 12, tab_w, 56 * 2 + 10)
        # back and quit
        if portrait:
            bw = (bottom.w - 12) / 2
            back_r = Rect(bottom.x, bottom.y, bw, bottom.h)
            quit_r = Rect(bottom.x + bw + 12, bottom.y, bw, bottom.h)
        else:
            back_r = Rect(bottom.x, bottom.y + 66, bottom.w, 56)
            quit_r = Rect(bottom.x, bottom.y, bottom.w, 56)
        make_button(
            self,
            c,
            frame,
            back_r,
            "\u2039 " + t("gameover.back" if self.back_to() == "attract" else "operator.back_to_game"),
            self.batch,
            self._bg,
            size=16,
            color=TOGGLE_OFF,
            on_tap=self.go_back,
        )
        make_button(
            self,
            c,
            frame,
            quit_r,
            t("operator.quit_confirm") if self.quit_armed else t("operator.quit"),
            self.batch,
            self._bg,
            size=17,
            color=DANGER,
            on_tap=self.quit,
        )
        self._shapes += panel(frame, c.r(*area), self.batch, self._bg, radius=c.px(12))
        # which release runs: what an operator reads out when reporting a problem
        if portrait:
            self._text(
                c,
                frame,
                f"v{running_version()}",
                area.right - 10,
                area.top + 4,
                10,
                color=DIM,
                anchor_x="right",
                bold=False,
            )
        else:
            self._text(
                c,
                frame,
                f"labyrinth-kiosk {running_version()}",
                12 + 200 / 2,
                H - 56,
                BODY,
                color=DIM,
                bold=False,
                width=200,
                least=BODY,
            )
        if self.page == "hardware":
            self._build_hardware(c, frame, area)
        elif self.page == "settings":
            from kiosk.ui.screens.operator_settings import build_settings

            build_settings(self, c, frame, area)
        else:
            self._build_stats(c, frame, area)

    def _build_hardware(self, c: Canvas, frame: Frame, area: Rect) -> None:
        t = self.t
        # no real pins on a Pi (hardware.pins): said where the instruction to press them would be
        problem = self.ui.kiosk.pins_problem
        text, size, color = (problem, 15, DANGER) if problem else (t("operator.press_buttons"), 16, INK)
        self._text(c, frame, text, area.cx, area.top - 22, size, color=color, width=area.w - 20)
        # a board outline with the 12 arrow buttons around it: left part (landscape) or top (portrait)
        tall = area.h > area.w
        if tall:
            side = min(area.w - 40, area.h * 0.55)
            bx, by = area.cx - side / 2, area.top - 50 - side
        else:
            side = min(area.h - 150, area.w * 0.55)
            bx, by = area.x + 16, area.y + 70
        cell = side / 9
        self._shapes.append(
            shapes.Rectangle(
                c.px(bx + cell),
                c.px(by + cell),
                c.px(7 * cell),
                c.px(7 * cell),
                color=(50, 58, 72),
                batch=self.batch,
                group=self._bg,
            )
        )
        for name in ARROWS:
            row, col = _arrow_cell(name)
            cx = bx + (col + 1.5) * cell
            cy = by + side - (row + 1.5) * cell
            light = shapes.Circle(
                c.px(cx),
                c.px(cy),
                c.px(cell * 0.42),
                color=SEEN if name in self.pressed else (70, 76, 88),
                batch=self.batch,
                group=self._bg,
            )
            self._shapes.append(light)
            self._lights[name] = light
            self._text(c, frame, name, cx, cy, max(7.0, cell * 0.3))
        for i, name in enumerate(("rotate", "stay")):
            cx = bx + side / 2 + (i - 0.5) * 2.6 * cell
            cy = by - 30
            light = shapes.Circle(
                c.px(cx),
                c.px(cy),
                c.px(cell * 0.55),
                color=SEEN if name in self.pressed else (70, 76, 88),
                batch=self.batch,
                group=self._bg,
            )
            self._shapes.append(light)
            self._lights[name] = light
            self._text(c, frame, "\u21bb" if name == "rotate" else "\u25a0", cx, cy, max(8.0, cell * 0.45))
        self._count = self._text(c, frame, "", bx + side / 2, by + side / 2, 22)
        self._count_fit = (c.font(22), c.px(7 * cell - 8))
        self._show_count()
        # the ring preview and its test button, right part of the area
        if tall:
            rx0, rw = area.x + 12, area.w - 24
            rcx, rcy = area.cx, (by - 60 + area.y + 80) / 2
            radius = min(rw / 2 - 10, (by - 60 - area.y - 80) / 2 - 10)
        else:
            rx0 = bx + side + 20
            rw = area.right - rx0 - 12
            rcx, rcy = rx0 + rw / 2, area.y + area.h * 0.58
            radius = min(rw / 2 - 10, area.h * 0.25)
        n = max(6, min(60, int(config_value(self.ui, "ring", "led_count", 24) or 24)))
        colour = RING_COLOURS[self.ring_index] if self.ring_index >= 0 else (70, 76, 88)
        for k in range(n):
            a = 2 * math.pi * k / n
            self._shapes.append(
                shapes.Circle(
                    c.px(rcx + radius * math.cos(a)),
                    c.px(rcy + radius * math.sin(a)),
                    c.px(max(3.0, radius * 0.11)),
                    color=colour[:3],
                    batch=self.batch,
                    group=self._bg,
                )
            )
        make_button(
            self,
            c,
            frame,
            Rect(rx0, area.y + 12, rw, 56),
            t("operator.ring_test"),
            self.batch,
            self._bg,
            size=15,
            on_tap=self.cycle_ring,
        )

    def chart_data(self):
        """The numbers for the charts (kiosk/store/stats.py), or None until the history is counted."""
        job = self.stats_job
        if job is None or not job.done or job.error is not None:
            return None
        return job.result[1]

    def _build_stats(self, c: Canvas, frame: Frame, area: Rect) -> None:
        self._stats_drawn = self.stats_job is None or self.stats_job.done
        lines = self.statistics()
        data = self.chart_data()
        self.chart_bars = 0
        if data is not None and data.games:
            # the four summary lines in two rows on top, the charts below them
            half = (area.w - 32) / 2
            for i, line in enumerate(lines[:4]):
                row, col = divmod(i, 2)
                self._text(
                    c,
                    frame,
                    line,
                    area.x + 16 + col * (half + 8),
                    area.top - 22 - row * LINE,
                    BODY,
                    anchor_x="left",
                    bold=i == 0,
                    width=half,
                    least=BODY,
                )
            waiting = self.stats_job.result[0].pending
            more = [self.t("operator.pending", n=waiting)] if waiting else []
            # finished games not yet in the history, seats that changed hands, scores: one row
            # each under the summary, the charts a little lower
            more += self.seat_and_score_lines()
            for k, line in enumerate(more):
                colour = ACCENT if waiting and k == 0 else INK
                self._text(
                    c,
                    frame,
                    line,
                    area.x + 16,
                    area.top - 22 - 2 * LINE - LINE * k,
                    BODY,
                    anchor_x="left",
                    color=colour,
                    bold=False,
                    width=area.w - 32,
                    least=BODY,
                )
            from kiosk.ui.screens.charts import draw

            top = 22 + 2 * LINE + LINE * len(more)
            self.chart_bars = draw(self, c, frame, Rect(area.x + 12, area.y + 10, area.w - 24, area.h - top), data)
            return
        y = area.top - 30
        for i, line in enumerate(lines):
            self._text(
                c,
                frame,
                line,
                area.x + 20,
                y,
                BODY,
                anchor_x="left",
                bold=i == 0,
                color=INK if i < 4 else DIM,
                width=area.w - 40,
                least=BODY,
            )
            y -= 36 if i < 4 else 26


def elide(text: str, pts: float, width: float, bold: bool = True) -> str:
    """`text` cut short with an ellipsis until it fits one line `width` px at `pts` (the whole of it
    when it fits)."""
    if width <= 0 or measure(text, pts, bold)[0] <= width:
        return text
    words = text
    while len(words) > 1 and measure(words + "\u2026", pts, bold)[0] > width:
        words = words[:-1]
    return words.rstrip() + "\u2026"


def _guard(ui: "UI") -> PinGuard:
    """The PIN guard on the UI's clock, kept in the kiosk's state directory when it has one
    (a kiosk without saving, e.g. a scripted run, keeps the count in memory only)."""
    history = ui.kiosk.history
    return PinGuard(history.path.parent if history is not None else None, clock=ui.now)


def _countdown(seconds: float) -> str:
    s = math.ceil(seconds)
    if s < 120:
        return f"{s} s"
    m = math.ceil(s / 60)
    return f"{m} min" if m < 120 else f"{m // 60} h {m % 60:02d} min"


def _arrow_cell(name: str) -> tuple[int, int]:
    side, k = name[0], int(name[1])
    return {"N": (-1, k), "S": (7, k), "W": (k, -1), "E": (k, 7)}[side]
