"""The attract screen: computer players play a demo game while "touch to play" invites visitors.

The demo is a real game: a private bus and session with four computer seats,
drawn by the same board view as the play screen; the game that brings it declares
its parts (``GameType.demo``, e.g. kiosk/games/labyrinth/demo.py). It is
private on purpose: the demo must not be saved, counted in the statistics,
shown on the LED ring or resumed after a power cut — the kiosk's own session
stays free for visitors. Its clock is virtual and advances with the frames, so
the demo pauses when the screen is hidden and tests can drive it with ``dt``.

"Touch to play" changes language every few seconds (all eight, each in its own
words), one straight after the other (a fade through nothing left the banner
blank). In the tabletop layout it is written twice, once for each long side of
the table. A tap anywhere opens the setup screen, facing the person who tapped;
"How to play" (on a table: one button for each long side) opens the guide facing
that side;
holding the top-left corner opens the operator menu.
"""

from __future__ import annotations

import logging
import random
from functools import partial
from typing import Any, NamedTuple

import pyglet
from pyglet import shapes

from engine.outcome import GAME_OVER
from kiosk import games
from kiosk.core.bus import Bus
from kiosk.core.clock import VirtualClock
from kiosk.core.events import GameSetup, SeatSetup

from kiosk.ui.kit import seating
from kiosk.ui.kit.i18n import LANGUAGES, names_list
from kiosk.ui.kit.layout import Layout, Rect, ShowcaseLayout
from kiosk.ui.kit.menu import GO, Canvas, config_value, current_language, fit_box, make_button, panel, set_language
from kiosk.ui.screens.operator import CornerHold
from kiosk.ui.art.wordmark import PLAQUE
from kiosk.ui.shell.screen import PASSERS_BY_HZ, Screen, register
from kiosk.ui.kit.typeface import BODY
from kiosk.ui.kit.widgets import ACCENT, DIM, INK, AnchorX, AnchorY, Frame, box, label, label_spec
from kiosk.ui.kit.text_cache import CACHE

log = logging.getLogger(__name__)

CYCLE_S = 3.0  # each language's "touch to play" stays this long
DEMO_MAX_TURNS = 60  # a demo that drags on is replaced by a fresh one
RESTART_S = 4.0  # pause after a demo game ends
STILL_POLL_S = 0.25  # while nothing moves, the demo is looked at this often (it advances at most this per frame)
# the "touch to play" bands: a burgundy banner like the wordmark's plaque (docs/art.md), opaque, so
# the arrows and the spare under them do not show through the words
BAND = PLAQUE
#: the demo's board on the attract screen, as a share of its height on the play screen (landscape):
#: the rest makes the banners along the long sides tall enough for the name above "touch to play"
SHOWCASE_BOARD = 0.82
TITLE_SHARE = 0.46  # the part of a banner (as read: its top, by the board) that holds the name
BANNER_CELLS = 2.2  # a banner's height at most, in board cells (portrait leaves the rest to the table)


class _DemoLabel(NamedTuple):
    """Where the demo's caption ("The computers play", or "Today's best game" while a record is replayed)
    goes beside the how-to button (design units)."""

    x: float
    y: float
    anchor_x: AnchorX
    anchor_y: AnchorY
    width: float
    align: str


def demo_parts() -> Any:
    """The demo of the first registered game that has one (``GameType.demo``), or None."""
    for game in games.all_games():
        if game.demo is not None:
            return game.demo()
    return None


class Demo:
    """A private game between computer players: its own bus, virtual clock and session (the game's
    demo parts make the session, `parts.seats` are who plays)."""

    def __init__(self, parts: Any, seed: int | None = None, kinds: tuple[str, ...] | None = None, pacing=None):
        self.bus = Bus()
        self.clock = VirtualClock()
        self.session = parts.session(self.bus, self.clock, pacing=pacing)
        self.over_at: float | None = None
        self.kinds = kinds or parts.seats
        self._seed = seed

    def start(self) -> None:
        seed = self._seed if self._seed is not None else random.randrange(1 << 30)
        self._seed = None
        self.over_at = None
        self.session.start(GameSetup(seats=tuple(SeatSetup(k) for k in self.kinds), seed=seed))

    def advance(self, dt: float) -> None:
        """Let `dt` seconds of demo time pass: timers, then the bus (bounded per frame)."""
        self.clock.advance(min(dt, 0.25))
        self.clock.run_due()
        self.bus.dispatch_pending(max_count=64)
        game = self.session.game
        if game is None:
            return
        if game.phase == GAME_OVER or game.turns >= DEMO_MAX_TURNS:
            if self.over_at is None:
                self.over_at = self.clock.now()
            elif self.clock.now() - self.over_at >= RESTART_S:
                self.start()

    def close(self) -> None:
        self.session.abandon("demo closed")
        self.session.close()


@register("attract")
class AttractScreen(Screen):
    """The demo game behind an invitation to play."""

    motion_hz = PASSERS_BY_HZ  # the demo

    def __init__(self, ui):
        super().__init__(ui)
        self.demo: Demo | None = None
        self.board: Any = None
        self.parts: Any = None  # the demo's game's parts (GameType.demo)
        self.overlay = pyglet.graphics.Batch()
        self.live = pyglet.graphics.Batch()  # what moves on the demo's board (the rest is in the frame cache)
        self.gesture = CornerHold(ui)
        self.clock = 0.0  # seconds since enter (language cycle)
        self.lang_index = 0
        self._unsub = None
        self._shapes: list[Any] = []
        self._invites: list[Any] = []
        self._fits: dict[str, list[float]] = {}  # made again by _build_overlay
        self._captions: list[Any] = []  # what the game behind is: a demo, or the day's best game
        self._offered = None  # (game, id) of the game set aside the overlay offers to continue
        self._time_bars: list[Any] = []  # (bar, full width, frame) of that offer's time left
        self.demo_seed: int | None = None  # tests fix the demo game
        self._showcase: ShowcaseLayout | None = None
        self._invite_boxes: list[Rect] = []  # where "touch to play" goes in each banner (its frame's units)

    @property
    def layout(self) -> Layout:
        """The window's layout with the demo's board smaller (:data:`SHOWCASE_BOARD`), made once per size."""
        base = self.ui.layout
        made = self._showcase
        if made is None or (made.width, made.height, made.mode) != (base.width, base.height, base.mode):
            made = self._showcase = ShowcaseLayout(base.width, base.height, base.mode, share=SHOWCASE_BOARD)
        return made

    # ------------------------------------------------------------ lifecycle
    def enter(self, **kw) -> None:
        default = str(config_value(self.ui, "game", "language", "en"))
        if default in LANGUAGES and current_language(self.ui) != default:
            set_language(self.ui, default)  # a new visitor starts in the kiosk's language
        self.clock = 0.0
        self.lang_index = 0
        self._start_demo()
        self._build_overlay()

    # ------------------------------------------------------------ a game left alone: continue it?
    def set_aside(self):
        """(game name, SetAside) of a game left alone that may still be continued, or None."""
        from kiosk import games
        from kiosk.ui.shell.screen import session_for

        for kind in games.all_games():
            kept = getattr(session_for(self.kiosk, kind.name), "set_aside", None)
            if kept is not None:
                return kind.name, kept
        return None

    def offer_text(self) -> str:
        """ "Continue the game of Red and Blue?" for the game set aside ("" without one)."""
        found = self.set_aside()
        if found is None:
            return ""
        names = [self.t(f"colour.{c}") for c in found[1].people]
        return self.t("attract.continue", players=names_list(self.t, names))

    def continue_game(self, game: str) -> None:
        from kiosk.core.events import ContinueGame

        self.ui.post(ContinueGame(game))  # the session brings it back; its start shows the play screen

    def _offer_key(self):
        found = self.set_aside()
        return None if found is None else (found[0], found[1].game_id)

    def leave(self) -> None:
        super().leave()
        self.gesture.release()
        self._stop_demo()

    def resize(self, layout) -> None:
        if self.board is not None:
            self.board.resize(self.layout)  # the window's `layout` with the smaller board
            session = self.demo.session if self.demo else None
            if session is not None and session.game is not None:
                self.board.load(session.public_snapshot())
        if self.ui.screen is self:  # hidden, it is built when shown (``enter``), not twice
            self._build_overlay()

    def _start_demo(self) -> None:
        self._stop_demo()
        if self.parts is None:
            self.parts = demo_parts()
            if self.parts is None:
                return  # no game brings a demo: the invitation alone
        if self.board is None:
            self.board = self.parts.view(self.ui, self.batch, self.live)
            self.board.resize(self.layout)
        self.demo = self._make_demo()
        self._unsub = self.demo.bus.subscribe_all(self._on_demo_event)
        try:
            self.demo.start()
        except Exception:  # never let the demo keep visitors out
            log.exception("demo game could not start")
        self._set_caption()

    def caption_key(self) -> str:
        """The text key of what plays behind the invitation: the day's best game replayed, or a demo."""
        return "attract.best_game" if getattr(self.demo, "record", None) is not None else "attract.demo"

    def caption(self) -> str:
        """What plays behind the invitation, and that the kiosk has both games (the demo is the board
        game's; the card game is a tap away, on the setup screen)."""
        return self.t(self.caption_key()) + "\n" + self.t("attract.both_games")

    def _title(self, c: Canvas, frame: Frame, w: float, h: float, title_h: float, batch: Any) -> None:
        """The product's name on one line across the top `title_h` of a banner `w` x `h` (as read)."""
        from kiosk.ui.art.wordmark import draw_name_line

        area = Rect(w * 0.06, h - title_h, w * 0.88, title_h - self._rule)
        mark = pyglet.graphics.Group(order=32)
        draw_name_line(self.ui, Frame(frame.area(area), frame.angle), batch, mark, self._shapes)

    def _set_caption(self) -> None:
        text = self.caption()
        for lbl in self._captions:
            lbl.text = text

    # ------------------------------------------------------------ the day's best game (kiosk/ui/screens/playback.py)
    _bad_replays: frozenset[str] = frozenset()  # records whose replay failed: a fresh demo instead

    def _make_demo(self):
        """The day's best board game replayed ([kiosk] attract_replay, the kiosk's RecordShelf),
        or a fresh demo game when there is none, it cannot be read or its replay failed before."""
        if config_value(self.ui, "kiosk", "attract_replay", True):
            from kiosk.ui.screens.playback import best_record_of_day

            record = best_record_of_day(getattr(self.kiosk, "record_shelf", None), self.parts.game)
            if record is not None and record.text() not in self._bad_replays:
                try:
                    return self.parts.replay(record, lambda: self.board is not None and self.board.busy)
                except Exception:
                    log.exception("the day's best game cannot be replayed; a fresh demo instead")
                    self._bad_replays = self._bad_replays | {record.text()}
        return Demo(self.parts, seed=self.demo_seed)

    def _demo_failed(self) -> None:
        """A replay that failed is not tried again (the next demo is a fresh game)."""
        record = getattr(self.demo, "record", None)
        if record is not None:
            self._bad_replays = self._bad_replays | {record.text()}

    def _stop_demo(self) -> None:
        if self._unsub is not None:
            self._unsub()
            self._unsub = None
        if self.demo is not None:
            self.demo.close()
            self.demo = None

    def _on_demo_event(self, ev) -> None:
        if self.board is not None:
            self.board.on_event(ev)

    # ------------------------------------------------------------ frame
    def update(self, dt: float) -> None:
        if self.gesture.update():
            return
        if self._offer_key() != self._offered:
            self._build_overlay()  # a game was set aside, continued or archived meanwhile
        self._show_time_left()
        if self.demo is not None:
            try:
                self.demo.advance(dt)
            except Exception:
                log.exception("demo game failed; starting a new one")
                self._demo_failed()
                self._start_demo()
        if self.board is not None:
            self.board.update(dt)
        self.clock += dt
        index = int(self.clock // CYCLE_S) % len(LANGUAGES)
        if index != self.lang_index:
            self.lang_index = index
            self._set_invite_text()
            self.ui.request_frame()  # the next language's words, in the frame that takes the last one's place

    def draw(self) -> None:
        self.draw_table()
        self.batch.draw()
        self.live.draw()
        self.overlay.draw()

    # the frame cache (kiosk/ui/kit/frame_cache.py): the demo's still board once, then each frame what
    # moves on it and "touch to play" over it (its words fade)
    def draw_static(self) -> None:
        self.draw_table()
        self.batch.draw()

    def draw_live(self) -> None:
        self.live.draw()
        self.overlay.draw()

    @property
    def animating(self) -> bool:
        """Frames only while the demo's board moves (a still picture stays in the window; changes to
        the board's still part invalidate it; "touch to play" asks for its frame when its words change)."""
        return self.board is None or bool(self.board.animating)

    def wake_in(self) -> float | None:
        """While still: the next language, the demo's next timer, the corner hold, at most
        STILL_POLL_S (the demo's computer players answer on its own bus, which wakes nobody)."""
        times = [STILL_POLL_S, CYCLE_S - self.clock % CYCLE_S, self.gesture.wake_in()]
        if self.board is not None:
            times.append(self.board.wake_in())  # the next step of a pulse
        clock = getattr(self.demo, "clock", None)
        if clock is not None:
            due = clock.next_due()
            if due is not None:
                times.append(due - clock.now())
        return max(0.0, min(t for t in times if t is not None))

    @property
    def cycle_language(self) -> str:
        """The language "touch to play" is in now: the cycle starts with the kiosk's own language."""
        start = str(config_value(self.ui, "game", "language", "en"))
        offset = LANGUAGES.index(start) if start in LANGUAGES else 0
        return LANGUAGES[(self.lang_index + offset) % len(LANGUAGES)]

    # ------------------------------------------------------------ fingers
    def press(self, x: float, y: float) -> None:
        self.gesture.press(x, y)
        super().press(x, y)

    def release(self, x: float, y: float) -> None:
        self.gesture.release()
        super().release(x, y)

    def tap(self, x: float, y: float) -> bool:
        if super().tap(x, y):
            return True
        self.ui.goto("setup", opener=(x, y))  # the setup faces this person; they join at their corner
        return True

    # ------------------------------------------------------------ overlay
    def _invite(self, language: str | None = None) -> str:
        return (
            self.ui.translator.t("attract.touch_to_play", language=language or self.cycle_language)
            if hasattr(self.ui, "translator")
            else self.t("attract.touch_to_play")
        )

    def _invite_sizes(self, text: str) -> list[float]:
        """The size of `text` in each band: the whole line box inside the band, between its two gold
        rules (measured once per layout)."""
        sizes = self._fits.get(text)
        if sizes is None:
            sizes = self._fits[text] = [
                fit_box(text, self._invite_size, width, rect.h - 2 * self._rule)
                for width, rect in zip(self._invite_widths, self._invite_boxes)
            ]
        return sizes

    def _set_invite_text(self) -> None:
        text = self._invite()
        for lbl, size in zip(self._invites, self._invite_sizes(text)):
            lbl.begin_update()  # one layout for the new size and words, not one for each
            lbl.font_size = size
            lbl.text = text
            lbl.end_update()

    def _warm_invites(self) -> None:
        """Each language's "touch to play" drawn now, at the size each band sets it, while the screen
        changes: reading a language's texts the first time parses its catalog (~5 ms here), measuring
        and drawing it a few more; in the frame where that language's turn came they kept a touch
        waiting ~50 ms on a Pi."""
        CACHE.warm(
            label_spec(text, size, bold=True)
            for text in (self._invite(language) for language in LANGUAGES)
            for size in self._invite_sizes(text)
        )

    def _build_overlay(self) -> None:
        self.clear_widgets()
        for s in self._shapes:
            s.delete()
        self._shapes, self._invites, self._invite_widths, self._captions = [], [], [], []
        self._fits = {}  # "touch to play" in each language: its size in each band
        self.continue_buttons: list = []
        self.overlay = batch = pyglet.graphics.Batch()
        L = self.layout
        c = Canvas(L)
        back, front = pyglet.graphics.Group(order=30), pyglet.graphics.Group(order=31)
        self._invite_size = c.font(40)
        # a banner along each long side, from the screen's edge to the board (over its row of arrows;
        # the board's cells and start corners stay in sight), facing that side, with "touch to play".
        # Landscape: the name with its emblem big in the columns beside the board (one facing each
        # side of a table), the demo's caption at the banner's left end (as read). Portrait: the
        # name on the banner above "touch to play" (upright: the name's banner at the top)
        ring, board = L.ring, L.board
        landscape = c.W >= c.H
        band_h = board.y if landscape else min(board.y, L.cell * BANNER_CELLS)
        low = Rect(0, board.y - band_h, L.width, band_h)
        high = Rect(0, board.top, L.width, band_h)
        bands = [(0, low), (180, high)] if L.tabletop else [(0, low)] if landscape else [(0, low), (0, high)]
        self._rule = c.px(3)
        self._bands = [rect for _, rect in bands]
        self._invite_boxes = []
        band_frames = []
        for k, (angle, rect) in enumerate(bands):
            self._shapes.append(shapes.Rectangle(*rect, color=BAND, batch=batch, group=back))
            for y in (rect.y, rect.top - c.px(3)):
                self._shapes.append(shapes.Rectangle(rect.x, y, rect.w, c.px(3), color=ACCENT, batch=batch, group=back))
            frame = Frame(rect, angle)
            band_frames.append(frame)
            title_h = 0.0
            if not landscape:
                title_h = rect.h * TITLE_SHARE if L.tabletop or k == 1 else 0.0
                if L.tabletop or k == 1:
                    self._title(c, frame, rect.w, rect.h, title_h if L.tabletop else rect.h, batch)
                if not L.tabletop and k == 1:
                    continue  # upright: the top banner is the name's alone
            invite = Rect(0, 0, rect.w, rect.h - title_h)  # as read: below the name
            self._invite_boxes.append(invite)
            width = board.w + 2 * L.cell - c.px(60) if landscape else rect.w - c.px(140)
            lbl = label("", frame, rect.w / 2, invite.cy, self._invite_size, batch, front, bold=True, color=INK)
            self._invites.append(lbl)
            self._invite_widths.append(width)
            hand = label(
                "\u261d",
                frame,
                board.x - L.cell * 0.5,
                invite.cy,
                self._invite_size * 1.1,
                batch,
                front,
                color=ACCENT,
            )
            self._shapes.append(hand)
        self._set_invite_text()
        self._warm_invites()
        t = self.t
        mark = pyglet.graphics.Group(order=32)
        if landscape:
            from kiosk.ui.art.wordmark import draw_wordmark

            col_w = ring.x / c.s - 16  # design units
            bw = max(60.0, min(190.0, col_w))
            low_top = low.top / c.s
            if L.tabletop:  # the near side's how-to low in the right column, its name in the left one
                rect = Rect(c.W - 8 - bw, low_top + 10, bw, 72)
                left = c.r(8, low_top + 10, col_w, max(40.0, c.H - 2 * low_top - 20 - 72 - 12))
            else:  # one side: the name and the how-to at mid-height above the banner
                rect = Rect(c.W - 8 - bw, (c.H + low_top) / 2 - 36, bw, 72)
                box_h = min(col_w * 1.25, c.H - low_top - 20)
                left = c.r(8, (c.H + low_top - box_h) / 2, col_w, box_h)
            draw_wordmark(self.ui, Frame(left, 0), batch, mark, self._shapes)
            if L.tabletop:  # and turned in the right column for the far side
                right = Rect(L.width - left.right, L.height - left.top, left.w, left.h)
                draw_wordmark(self.ui, Frame(right, 180), batch, mark, self._shapes)
            demo = _DemoLabel(ring.x / c.s / 2, band_h / c.s / 2, "center", "center", ring.x / c.s - 12, "center")
        else:
            rect = Rect(c.W - 190, 10, 180, 54)  # the caption beside it on two lines, not three
            # from the screen's bottom margin up: three lines are taller than the button beside them
            demo = _DemoLabel(12, rect.y, "left", "bottom", rect.x - 24, "left")
        # the how-to button (and the demo's caption) for each side of a table: the guide faces whoever taps it
        for k, edge in enumerate((seating.NEAR, seating.FAR) if L.tabletop else (seating.NEAR,)):
            frame = Frame(L.screen, seating.angle(edge))
            make_button(
                self,
                c,
                frame,
                rect,
                "? " + t("howto.title"),
                batch,
                front,
                size=BODY,
                wrap=True,
                on_tap=partial(self.ui.goto, games.get(games.default()).howto_screen, then="attract", edge=edge),
            )
            caption = label(
                self.caption(),
                band_frames[k] if landscape else frame,
                c.px(demo.x),
                c.px(demo.y),
                c.font(BODY),
                batch,
                front,
                color=INK if landscape else DIM,
                anchor_x=demo.anchor_x,
                anchor_y=demo.anchor_y,
                width=c.px(demo.width),
                multiline=True,
                align=demo.align,
                line_spacing=c.px(BODY * 1.2),  # three lines at most (the banner's end, a portrait screen's foot)
            )
            self._shapes.append(caption)
            self._captions.append(caption)
        self._build_offer(c, batch)

    def _build_offer(self, c: Canvas, batch) -> None:
        """Over the board: "Continue the game of Red and Blue?" and a Continue button, for each
        long side of a table (facing it), with the time left as a shrinking bar."""
        self._time_bars = []
        self._offered = self._offer_key()
        found = self.set_aside()
        if found is None:
            return
        game, _kept = found
        L = self.layout
        text = self.offer_text()
        board = L.board
        back, front = pyglet.graphics.Group(order=40), pyglet.graphics.Group(order=41)
        pw = min(L.ring.w - c.px(8), c.px(440))  # over the arrows too: the showcase board is small
        ph = min(board.h / 2 - c.px(6), c.px(172)) if L.tabletop else min(board.h - c.px(8), c.px(172))
        places = [(0, board.cy - c.px(4) - ph), (180, board.cy + c.px(4))] if L.tabletop else [(0, board.cy - ph / 2)]
        for angle, y in places:
            frame = Frame(Rect(board.cx - pw / 2, y, pw, ph), angle)
            self._shapes += panel(frame, frame.full(), batch, back, radius=c.px(14))
            pad = c.px(12)
            btn_h = c.touch  # a finger wide: the showcase board leaves half its height to each side
            self._shapes.append(
                label(
                    text,
                    frame,
                    pw / 2,
                    ph - pad,
                    c.font(BODY),
                    batch,
                    front,
                    bold=True,
                    anchor_y="top",
                    width=pw - 2 * pad,
                    multiline=True,
                    name="continue offer",
                )
            )
            b = make_button(
                self,
                c,
                frame,
                Rect(pad / c.s, (pad + c.px(8)) / c.s, (pw - 2 * pad) / c.s, btn_h / c.s),
                "\u25b6  " + self.t("menu.continue"),
                batch,
                front,
                size=20,
                color=GO,
                on_tap=partial(self.continue_game, game),
            )
            self.continue_buttons.append(b)
            bar = box(frame, Rect(pad, pad * 0.5, pw - 2 * pad, c.px(5)), ACCENT, batch, front)
            self._shapes.append(bar)
            self._time_bars.append((bar, pw - 2 * pad, frame, pad))
        self._show_time_left()

    def _show_time_left(self) -> None:
        """The offer's bars shrink as its time runs out (from the reader's right)."""
        found = self.set_aside() if self._time_bars else None
        if found is None:
            return
        game, kept = found
        clock = getattr(self.kiosk.sessions.get(game), "clock", None)
        left = 1.0 if clock is None else max(0.0, min(1.0, (kept.until - clock.now()) / max(1e-6, kept.keep_s)))
        for bar, full, frame, pad in self._time_bars:
            bar.width = max(1.0, full * left)
            if frame.angle == 180:  # the reader's left is the screen's right
                bar.x = frame.rect.right - pad - bar.width
