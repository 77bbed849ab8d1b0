"""The window, the frame loop and the screen stack.

One ``UI`` per kiosk. It makes the pyglet window (full screen on the Pi with the
cursor hidden, a window on a desktop, or an offscreen EGL surface for tests and
screenshots; desktop OpenGL or OpenGL ES), runs the frame loop that calls the
kiosk's ``tick()`` (clock timers + bus dispatch), forwards bus events and
finger input to the visible screen, maps keys to the arcade buttons, and saves
screenshots.

Finger input: a mouse press is a finger down (``Screen.press``), the release
is a finger up (``Screen.release``) followed by ``Screen.tap`` at the place the
finger went down — unless it slid more than a finger's width away (a swipe is
not a tap) or rested longer than ``TAP_MAX_S`` (a palm or a sleeve is not a tap). No hover, no double-tap.

Frames (see kiosk/ui/kit/frame_cache.py): a screen that says what moves (it has
``draw_static``/``draw_live`` and an ``animating`` flag) gets its still layers
drawn once into a cache; each frame is then one blit plus what moves. The cache
is redrawn only after ``invalidate(rect)`` -- called by the screen when a still
layer changes (the board after a push, a panel whose content changed), by
fingers on a widget, and in full on a screen change, layout or language -- and
only inside the union of the rectangles given. When nothing changed and nothing
moves, no frame is drawn at all: the window keeps the last one (``step``
returns False and nothing is flipped); ``request_frame()`` asks for one frame
without touching the cache (an overlay went away).

Rotation (``[display] rotation``, degrees clockwise): the screens lay out for the
turned size, the picture is turned with the window's view matrix, and touches
are turned back (``to_logical``), so a panel mounted the other way works in any
compositor (and the same way in all of them; see docs/install.md).

Kiosk mode (full screen): no key and no window-close request leaves the app;
only the operator menu (behind the PIN) quits. In a desktop window, closing the
window and Ctrl+Q quit (docs/keys.md).
"""

from __future__ import annotations

import gc
import logging
import os
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, cast

import pyglet

from engine.outcome import GAME_OVER
from kiosk.games import HUMAN
from kiosk import games
from kiosk.core.events import GameBegan

from kiosk.ui.kit.frame_cache import FrameCache, joined
from kiosk.ui.kit.i18n import Texts
from kiosk.ui.kit.layout import Layout, Rect
from kiosk.ui.shell.screen import SCREENS, Layered, Screen, is_layered, session_for

if TYPE_CHECKING:  # pragma: no cover
    from kiosk.sound import Sound
    from kiosk.ui.art import Atlas
    from kiosk.ui.shell.contract import KioskView

log = logging.getLogger(__name__)

# More changed rectangles than this redraw the whole cache (a pass over every still layer); fewer
# are merged into a few areas (frame_cache.merge_areas). A turn change moves up to every panel:
# where it was and where it is now, 8 rectangles with 4 players, in 4 corners.
MAX_DIRTY_RECTS = 12
GLYPH_TEXTURE_PX = 256  # the smallest glyph texture of a font size (see prepare_pyglet)
TAP_MAX_S = 0.8  # a finger resting longer than this (a palm, a sleeve) is not a tap; holds are press/release

# The arcade buttons on a keyboard: a ring of keys around the left-hand block,
# as the arrows sit around the board (docs/keys.md).
#       2  3  4            N1 N3 N5
#    Q  .  .  .  T      W1          E1
#    A  .  .  .  G      W3          E3
#    Z  X  C  V  B      W5 S1 S3 S5 E5
KEY_BUTTONS = {
    "_2": "N1",
    "_3": "N3",
    "_4": "N5",
    "T": "E1",
    "G": "E3",
    "B": "E5",
    "X": "S1",
    "C": "S3",
    "V": "S5",
    "Q": "W1",
    "A": "W3",
    "Z": "W5",
    "R": "rotate",
    "SPACE": "stay",
}


def _key_table() -> dict[int, str]:
    from pyglet.window import key

    return {getattr(key, name): button for name, button in KEY_BUTTONS.items()}


def make_window(
    display: str, size: tuple[int, int] | None, gl_api: str = "auto", caption: str | None = None
) -> pyglet.window.Window:
    """Create the window for `display` ("window", "fullscreen", "offscreen").

    ``pyglet.options`` must already say headless for offscreen (see ``prepare_pyglet``).
    `gl_api` "gles" asks for an OpenGL ES 3 context, "gl" for desktop OpenGL 3.3,
    "auto" tries desktop GL first and falls back to GLES.
    """
    from pyglet import gl

    from kiosk.product import PRODUCT_NAME

    # (here, not in prepare_pyglet: importing pyglet.font imports pyglet.gl, which reads the options)
    # Each font size gets its own glyph texture, at least this big (pyglet grows it until ~100 glyphs
    # fit, and adds another when it is full). pyglet's 512 is 1 MB of RGBA per size, and the screens
    # use some twenty sizes; a software renderer (and a Pi's GPU) keep them in the system's memory.
    pyglet.font.base.Font.texture_width = pyglet.font.base.Font.texture_height = GLYPH_TEXTURE_PX
    _fast_glyph_pixels()
    caption = caption or PRODUCT_NAME
    apis = {"gl": ["gl"], "gles": ["gles"], "auto": ["gl", "gles"]}[gl_api]
    last_error: Exception | None = None
    for api in apis:
        # No multisampling: the drawings come antialiased from the atlas, and MSAA costs a
        # software renderer (and a Pi's GPU) several times the fill rate.
        # (pyglet declares gl.Config as its abstract base, with opengl_api a float: it is the
        # platform's concrete class at run time, and opengl_api is "gl" or "gles".)
        configs = [
            gl.Config(  # type: ignore[abstract]
                opengl_api=api,  # type: ignore[arg-type]
                major_version=3,
                minor_version=0 if api == "gles" else 3,
                double_buffer=True,
            )
        ]
        for config in configs:
            try:
                if display == "fullscreen":
                    window = pyglet.window.Window(fullscreen=True, config=config, caption=caption)
                    window.set_mouse_visible(False)
                else:
                    w, h = size or (1280, 800)
                    window = pyglet.window.Window(
                        w,
                        h,
                        config=config,
                        caption=caption,
                        visible=display != "offscreen",
                        resizable=display == "window",
                    )
                window.gl_api = api
                return window
            except (pyglet.window.NoSuchConfigException, pyglet.gl.ContextException) as exc:
                last_error = exc
    raise RuntimeError(
        f"cannot open an OpenGL{' ES' if gl_api == 'gles' else ''} window for "
        f"display {display!r}: {last_error}. On a desktop without a screen try "
        f"--display offscreen; offscreen needs libegl1 and libgles2 (Mesa)."
    )


ROTATIONS = (0, 90, 180, 270)


def rotation_view(rotation: int, width: int, height: int) -> Any:
    """The view matrix that turns a picture laid out for the turned size by `rotation` degrees
    clockwise onto a `width` x `height` framebuffer (x' = a*x + b*y + tx, y' = c*x + d*y + ty)."""
    from pyglet.math import Mat4

    a, b, c, d, tx, ty = {
        0: (1, 0, 0, 1, 0, 0),
        90: (0, 1, -1, 0, 0, height),
        180: (-1, 0, 0, -1, width, height),
        270: (0, -1, 1, 0, width, 0),
    }[rotation]
    return Mat4(a, c, 0, 0, b, d, 0, 0, 0, 0, 1, 0, tx, ty, 0, 1)


def prepare_pyglet(display: str, gl_api: str = "auto") -> None:
    """Set pyglet's global options; must run before any window is made."""
    if display == "offscreen":
        pyglet.options["headless"] = True
    # The OpenGL ES choice is made per window (gl.Config(opengl_api=...) in make_window):
    # pyglet 2.x has no global "opengl_api" option.
    pyglet.options["debug_gl"] = False
    pyglet.options["shadow_window"] = False


def _fast_glyph_pixels() -> None:
    """pyglet's FreeType glyphs (Linux, the Pi) turn a glyph's grey levels into white pixels with
    that alpha one byte at a time in Python: at start-up, with every size's first letters, that
    was a tenth of a second here. The same bytes by slicing."""
    try:
        from pyglet.font.freetype import FreeTypeGlyphRenderer
    except ImportError:  # another platform's font renderer
        return
    slow = FreeTypeGlyphRenderer._expand_to_rgba
    if getattr(slow, "fast", False):
        return

    def expand(self: Any, data: Any, src_format: str, dst_format: str) -> bytes:
        if (src_format, dst_format) != ("R", "BGRA"):
            return slow(self, data, src_format, dst_format)
        alpha = bytes(data)
        out = bytearray(b"\xff" * (4 * len(alpha)))
        out[3::4] = alpha
        return bytes(out)

    expand.fast = True  # type: ignore[attr-defined]
    FreeTypeGlyphRenderer._expand_to_rgba = expand  # type: ignore[method-assign]


class UI:
    """The screens, the window and the loop. Screens use ``ui.kiosk``, ``ui.layout``, ``ui.t``,
    ``ui.goto``, ``ui.post``, ``ui.atlas``, ``ui.now()``.
    """

    def __init__(
        self,
        kiosk: KioskView,
        window: pyglet.window.Window,
        *,
        layout: str = "tabletop",
        language: str = "en",
        translator: Texts | None = None,
        first: str | None = None,
        clock: Callable[[], float] = time.monotonic,
        rotation: int = 0,
        display: str = "window",
    ):
        if rotation not in ROTATIONS:
            raise ValueError(f"display rotation {rotation!r}: use one of {', '.join(map(str, ROTATIONS))}")
        self.kiosk = kiosk
        self.window = window
        self.display = display  # "fullscreen" is kiosk mode: nothing but the operator menu quits
        self.rotation = rotation
        self.layout_mode = layout
        self.layout = Layout(*self._logical_size(window.width, window.height), layout)
        self.now = clock
        self.cache = FrameCache()
        self._dirty = True  # the cached still layers must be redrawn...
        self._dirty_rects: list[Rect] | None = None  # ...only there (screen coordinates), None: all
        self._cache_of: Screen | None = None  # the screen whose picture the cache holds
        self._frame_due = True
        self.skipped = 0  # frames not drawn because nothing changed
        self._translator = translator if translator is not None else _make_translator(language)
        from kiosk.ui.screens.operator_settings import choices

        # kiosk/themes: the treasures' pictures and names; the operator's lasting pick before the config's
        self.theme = _configured_theme(kiosk, choices(self).get("theme"))
        self._translator = _themed(self._translator, self.theme)
        self._screens: dict[str, Screen] = {}
        self._stale: set[str] = set()  # screens built in an old look (palette, theme): built again when shown
        self.screen: Screen | None = None
        self.frames = 0
        self.last_input = clock()
        self._atlas: Atlas | None = None
        self._atlas_px = 0
        self._down: tuple[float, float] | None = None
        self._down_at = 0.0
        self._keys = _key_table()
        self._cursor: tuple[int, int] | None = None
        self.screen_listeners: list[Callable[[str], None]] = []  # told each screen shown (the sound)
        self.sound: Sound | None = None  # the sound cues (kiosk/ui/shell/runner.py opens them with the window)
        self.startup_s = 0.0  # how long opening the display took (the log, the bench)
        self._high_contrast: bool | None = None  # the operator menu's choice; None: the config's
        self._unsubscribe: Callable[[], None] | None = kiosk.bus.subscribe_all(self._on_event)
        window.push_handlers(self)
        self._apply_view()
        _import_screens()
        from kiosk.ui.overlays.idle import IdleWatch
        from kiosk.ui.screens.operator import CornerHold

        from kiosk.ui.overlays.game_menu import GameMenu

        from kiosk.ui.overlays.seats import SeatWatch

        self.seats = SeatWatch(self)  # before the idle watch, which leaves to it whom it looks after
        self._apply_preset(choices(self).get("preset"))
        self.idle = IdleWatch(self)
        self.menu = GameMenu(self)  # the in-game menu's buttons and sheet, over a game's play screen
        self.gesture = CornerHold(self)
        self.goto(first or self._first_screen())

    def _first_screen(self) -> str:
        """A game's play screen when the kiosk already runs it with a person in it (resumed save,
        --players); the attract screen otherwise."""
        for kind in games.all_games():
            session = session_for(self.kiosk, kind.name)
            game = session.game if session is not None else None
            if session is not None and game is not None and game.phase != GAME_OVER and HUMAN in session.kinds:
                return kind.play_screen
        options = self.kiosk.options  # --players: the game is posted, not started yet
        setup = options.setup if options is not None else None
        if options is not None and options.start_game and setup is not None and HUMAN in setup.kinds:
            return games.get(setup.game).play_screen
        return "attract"

    # ---------------------------------------------------------------- rotation
    def _logical_size(self, width: int, height: int) -> tuple[int, int]:
        return (height, width) if self.rotation in (90, 270) else (width, height)

    def _apply_view(self) -> None:
        w, h = self.window.width, self.window.height
        self.window.view = rotation_view(self.rotation, w, h)

    def to_logical(self, x: float, y: float) -> tuple[float, float]:
        """A window position (origin bottom-left, as pyglet reports it) -> the screens' coordinates."""
        w, h = self.window.width, self.window.height
        if self.rotation == 90:
            return (h - y, x)
        if self.rotation == 180:
            return (w - x, h - y)
        if self.rotation == 270:
            return (y, w - x)
        return (x, y)

    @property
    def locked(self) -> bool:
        """Kiosk mode: the visitor cannot close, minimise or quit the app."""
        return self.display == "fullscreen"

    def invalidate(self, rect: Rect | None = None) -> None:
        """The still picture changed (inside `rect`, screen coordinates; None: anywhere): redraw
        that part of the cache before the next frame."""
        if rect is None:
            self._dirty, self._dirty_rects = True, None
        elif not self._dirty:
            self._dirty, self._dirty_rects = True, [Rect(*rect)]
        elif self._dirty_rects is not None:
            rect = Rect(*rect)
            for k, a in enumerate(self._dirty_rects):  # one with a rectangle it (nearly) covers
                box = joined(a, rect)  # (not a row and a column that cross: their box is the whole board)
                if box is not None:
                    self._dirty_rects[k] = Rect(*box)
                    return
            if len(self._dirty_rects) >= MAX_DIRTY_RECTS:
                self._dirty_rects = None  # so many: redraw it all
            else:
                self._dirty_rects.append(rect)

    def request_frame(self) -> None:
        """Draw the next frame even if nothing in the cache changed (e.g. an overlay went away)."""
        self._frame_due = True

    def _device_area(self, rect: Rect, size: tuple[int, int]) -> tuple[int, int, int, int]:
        """A screen rectangle -> the framebuffer pixels it covers (turned, scaled, 2 px margin, clipped)."""
        w, h = self.window.width, self.window.height
        x0, y0, x1, y1 = rect.x - 2, rect.y - 2, rect.right + 2, rect.top + 2
        if self.rotation == 90:
            x0, y0, x1, y1 = y0, h - x1, y1, h - x0
        elif self.rotation == 180:
            x0, y0, x1, y1 = w - x1, h - y1, w - x0, h - y0
        elif self.rotation == 270:
            x0, y0, x1, y1 = w - y1, x0, w - y0, x1
        sx, sy = size[0] / w, size[1] / h
        ix0, iy0 = max(0, int(x0 * sx)), max(0, int(y0 * sy))
        ix1, iy1 = min(size[0], int(x1 * sx + 1)), min(size[1], int(y1 * sy + 1))
        return (ix0, iy0, max(0, ix1 - ix0), max(0, iy1 - iy0))

    # ---------------------------------------------------------------- services for screens
    def t(self, key: str, **fields: Any) -> str:
        return self._translator.t(key, **fields)

    @property
    def translator(self) -> Texts:
        return self._translator

    def post(self, command: Any) -> None:
        self.kiosk.bus.post(command)

    @property
    def atlas(self) -> Any:
        """The drawings at the current cell size (rebuilt when the layout's cell size changes)."""
        from kiosk.ui.art import Atlas

        px = int(self.layout.cell * 2 + 0.5)
        contrast = self.high_contrast
        if (
            self._atlas is None
            or self._atlas_px != px
            or self._atlas.high_contrast != contrast
            or self._atlas.theme is not self.theme
        ):
            self.window.switch_to()
            self._atlas = Atlas(px, self.window, high_contrast=contrast, theme=self.theme)
            self._atlas_px = px
        return self._atlas

    @property
    def high_contrast(self) -> bool:
        """The low-vision palette: the operator menu's choice (kept across restarts), else
        ``[display] high_contrast``."""
        chosen = getattr(self, "_high_contrast", None)
        if chosen is None:
            from kiosk.ui.screens.operator_settings import choices

            chosen = self._high_contrast = choices(self).get("high_contrast")
        if chosen is not None:
            return bool(chosen)
        config = self.kiosk.config
        return config is not None and config.display.high_contrast

    def _apply_preset(self, name: str | None) -> bool:
        """The operator's preset (home or public) with its idle and continue times in the kiosk's config;
        None or an unknown name (an old settings file) leaves the config's. True if applied."""
        from kiosk.core.config import PRESETS, switch_preset

        kiosk: Any = self.kiosk  # a real Kiosk, whose config is an attribute (KioskView only reads it)
        if name is None or name not in PRESETS or kiosk.config is None:
            return False
        kiosk.config = switch_preset(kiosk.config, name)
        return True

    def set_preset(self, name: str) -> None:
        """Switch to preset `name` now (the operator menu): the idle watch counts with its times at once."""
        if self._apply_preset(name):
            self.idle.reload()

    def set_high_contrast(self, on: bool) -> None:
        """Switch the palette now (the operator menu): the screen on show is built again now, the art
        baked again and the other screens built again as they are next shown (all of them at once made
        the operator's tap answer late)."""
        self._high_contrast = bool(on)
        self._stale = set(self._screens)
        if self.screen is not None:
            self._stale.discard(self.screen.name)
            self.screen.resize(self.layout)
        self.invalidate()

    def set_theme(self, theme_id: str) -> None:
        """Show theme `theme_id` now (the operator menu): its pictures are baked and every screen rebuilt;
        one that cannot be used gives the built-in theme (kiosk/themes.load says why in the log)."""
        from kiosk.themes import load

        self.theme = load(_state_dir(self.kiosk), theme_id)
        self._translator = _themed(getattr(self._translator, "inner", self._translator), self.theme)
        self._relayout(self.window.width, self.window.height)

    def screen_named(self, name: str) -> Screen:
        screen = self._screens.get(name)
        if screen is None:
            try:
                cls = SCREENS[name]
            except KeyError:
                raise KeyError(f"no screen called {name!r}; known: {', '.join(sorted(SCREENS))}") from None
            screen = self._screens[name] = cls(self)
            screen.resize(self.layout)
        return screen

    def goto(self, name: str, **kw: Any) -> Screen:
        """Show screen `name` (created on first use); `kw` goes to its ``enter``."""
        self.window.switch_to()  # the screen builds its shapes in this window's context
        screen = self.screen_named(name)
        previous = self.screen
        if previous is not None and previous is not screen:
            previous.leave()
            self.menu.close()  # the in-game menu belongs to the screen it was opened on
        self.screen = screen
        self._down = None
        self._frame_due = True
        self.gesture.release()
        if name == "operator" and previous is not None and previous.name != "operator":
            kw.setdefault("back", previous.name)
        if name in self._stale:  # built in the look before the last switch
            self._stale.discard(name)
            screen.resize(self.layout)
        screen.enter(**kw)
        # the menu's buttons follow the screen now, not at the next loop turn: a screenshot or a
        # measurement taken right after goto showed the last play screen's buttons over this one
        self.menu.update()
        for listener in self.screen_listeners:
            listener(name)
        settle_garbage()
        return screen

    def set_language(self, language: str) -> None:
        self._translator.set_language(language)
        for screen in self._screens.values():
            screen.resize(self.layout)
        self.invalidate()

    def set_layout_mode(self, mode: str) -> None:
        self.layout_mode = mode
        self._relayout(self.window.width, self.window.height)

    # ---------------------------------------------------------------- the loop
    def step(self, dt: float, waited: float = 0.0) -> bool:
        """One frame: run the kiosk (timers, bus), advance animations, the idle watch and the
        operator gesture, then draw if anything changed. True if a frame was drawn.

        `waited`: seconds the loop slept before this frame with nothing moving (kiosk/ui/shell/runner.py).
        The screen's clocks get them before the kiosk's news, so an animation that news starts
        gets `dt`, one frame's time, instead of jumping to its end."""
        self.window.switch_to()  # what events and animations create belongs to this window's context
        if waited > 0 and self.screen is not None:
            self.screen.update(waited)
        self.kiosk.tick()
        if self.screen is not None:
            self.screen.update(dt)
        self.seats.update(dt)
        self.idle.update(dt)
        self.menu.update(dt)
        self.gesture.update()
        return self.render()

    def render(self, force: bool = False) -> bool:
        """Draw a frame unless nothing changed and nothing moves (then the last frame stays)."""
        if not (force or self.needs_frame()):
            self.skipped += 1
            return False
        self.draw()
        return True

    def needs_frame(self) -> bool:
        """A frame must be drawn now: something changed, or the screen moves (a screen that does
        not say when it is still, ``Screen.animating``, is drawn every frame)."""
        return self._changed() or self.screen is None or self.screen.animating

    def _changed(self) -> bool:
        """Something changed or an overlay is open: the next frame is due at once, whatever the screen's pace."""
        return bool(
            self._dirty
            or self._frame_due
            or self.screen is None
            or self.idle.showing
            or self.menu.open
            or self.seats.showing
        )

    def frame_interval(self, fastest_s: float) -> float:
        """Seconds between the frames of what moves now: `fastest_s` (the loop's own frame) after a
        change or while an overlay is open, else the screen's own pace (``Screen.motion_hz``)."""
        screen = self.screen
        if screen is None or self._changed():
            return fastest_s
        return max(fastest_s, 1.0 / screen.motion_hz)

    def wake_in(self) -> float | None:
        """Seconds until the screen, the idle watch or the operator gesture has something to do
        without any input or event (None: nothing until then), for a loop that sleeps."""
        times = [self.idle.wake_in(), self.gesture.wake_in(), self.seats.wake_in()]
        if self.screen is not None:
            times.append(self.screen.wake_in())
        due = [t for t in times if t is not None]
        return max(0.0, min(due)) if due else None

    def draw(self) -> None:
        """Draw the whole frame now: the cached still layers (redrawn first if invalid) and what moves;
        screens that do not split their drawing are drawn in full."""
        self.window.switch_to()
        # this window's matrices: several windows in one process (the tests) share the binding point
        # of their matrix block, and an atlas loaded from disk (no bake) would not have bound it again
        self.window.view = self.window.view
        screen = self.screen
        if screen is not None and screen.lay_table(self.layout):
            self.invalidate()
        bg = screen.background if screen is not None else (0, 0, 0)
        size = tuple(self.window.get_framebuffer_size())
        if screen is not None and is_layered(screen) and self._cache_ready(screen, size, bg):
            self.cache.blit()
            cast(Layered, screen).draw_live()
        else:
            pyglet.gl.glClearColor(bg[0] / 255, bg[1] / 255, bg[2] / 255, 1.0)
            self.window.clear()
            if screen is not None:
                screen.draw()
            if screen is not self._cache_of:
                self._cache_of = None  # changes to the cached screen meanwhile were not recorded
        self._dirty, self._dirty_rects, self._frame_due = False, None, False
        self.draw_overlays()
        self.frames += 1

    def draw_overlays(self) -> None:
        """What the UI draws over every screen: the seats' Join buttons and call, the in-game menu's
        sheet and the idle question."""
        self.seats.draw()
        self.menu.draw()
        self.idle.draw()

    def _cache_ready(self, screen: Screen, size: tuple[int, int], bg: tuple[int, int, int]) -> bool:
        """Bring the cache up to date for `screen` (in part if only a rectangle changed); False if
        there is no usable cache, or `screen` does not draw in layers."""
        if not is_layered(screen) or self.cache.broken:
            return False  # (a cache found broken after it was made is not shown again either)
        whole = self._cache_of is not screen or not self.cache.valid or self.cache.size != size
        if not (whole or self._dirty):
            return True
        areas = None
        if not whole and self._dirty_rects is not None:
            areas = [a for a in (self._device_area(r, size) for r in self._dirty_rects) if a[2] > 0 and a[3] > 0]
            if not areas:
                return True
        if not self.cache.render(
            size, bg, cast(Layered, screen).draw_static, areas, window=self.window, draw_in=self._draw_in(screen, size)
        ):
            return False
        self._cache_of = screen
        return True

    def _draw_in(self, screen: Screen, size: tuple[int, int]) -> Callable[[tuple[int, int, int, int]], None] | None:
        """For a screen that says where its still layers lie (``static_parts()``: (screen rectangles,
        draw) each, in drawing order): draw only the layers that touch one framebuffer area."""
        parts_of = getattr(screen, "static_parts", None)
        if parts_of is None:
            return None
        parts = [([self._device_area(r, size) for r in rects], draw) for rects, draw in parts_of()]

        def draw_in(area: tuple[int, int, int, int]) -> None:
            x, y, w, h = area
            for areas, draw in parts:
                if any(ax < x + w and x < ax + aw and ay < y + h and y < ay + ah for ax, ay, aw, ah in areas):
                    draw()

        return draw_in

    def on_draw(self) -> None:  # pyglet window event (e.g. Window.draw): a whole frame
        self.draw()

    def on_expose(self) -> None:  # the window was uncovered: the next frame must be drawn
        self.invalidate()

    def screenshot(self, path: str | os.PathLike[str]) -> Path:
        """Save what the last frame showed as a PNG."""
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        self.window.switch_to()
        if self._dirty:
            self.draw()  # the last frame is behind what the screens now hold
        pyglet.image.get_buffer_manager().get_color_buffer().save(str(path))
        return path

    def busy(self) -> bool:
        """True while the visible screen animates (scripted runs wait for it)."""
        return bool(self.screen is not None and self.screen.busy)

    def close(self) -> None:
        if self._unsubscribe:
            self._unsubscribe()
            self._unsubscribe = None
        for screen in self._screens.values():
            screen.leave() if screen is self.screen else None
        self.window.remove_handlers(self)
        self.window.switch_to()
        self.cache.delete()

    # ---------------------------------------------------------------- events from the bus
    def _on_event(self, event: Any) -> None:
        if isinstance(event, GameBegan) and any(s.kind == HUMAN for s in event.seating()):
            # a game with people in it (setup, --players, a resumed save): show its play screen.
            # All-computer games are the attract screen's demo and stay behind it.
            play = games.of_event(event).play_screen
            if self.screen is None or self.screen.name not in (play, "operator"):
                self.goto(play)
        self.seats.on_event(event)
        if self.screen is not None:
            self.screen.on_event(event)
            self._frame_due = True  # news may change the picture: one frame, even on a still screen
        for screen in self._screens.values():  # background listeners (e.g. play keeps its model)
            if screen is not self.screen and screen.listens_in_background:
                screen.on_event(event)
        if isinstance(event, GameBegan):
            settle_garbage()  # the new game's views are built: set them aside

    # ---------------------------------------------------------------- fingers (pyglet window events)
    def _touch_widget(self, x: float, y: float) -> None:
        """A finger on a widget may change how it looks (pressed colour): redraw it."""
        w = self.screen.widget_at(x, y) if self.screen is not None else None
        if w is None and self.screen is not None:
            w = self.screen._held
        if w is not None:
            self.invalidate(Rect(*w.rect))

    def finger_down(self, x: float, y: float) -> None:
        self.window.switch_to()  # a touch may build shapes: they belong to this window's context
        self._frame_due = True  # a touch may change the picture (a still screen draws one frame)
        self._touch_widget(x, y)
        if self.idle.finger_down(x, y):  # the touch that dismisses "are you still there?"
            return
        self.last_input = self.now()
        if self.menu.finger_down(x, y):  # a menu button, or anywhere while the game menu is open
            self._down = None
            return
        if self.seats.finger_down(x, y):  # "I'm here", or Join at a computer's corner
            self._down = None
            return
        self._down = (x, y)
        self._down_at = self.now()
        if self.screen is not None:
            if self.screen.name != "operator" and not self.screen.claims(x, y):
                self.gesture.press(x, y)  # the operator's hidden corner, on any screen
            self.screen.press(x, y)

    def finger_up(self, x: float, y: float) -> None:
        self.window.switch_to()
        self._frame_due = True
        self._touch_widget(x, y)
        self.gesture.release()
        if self.menu.finger_up(x, y):
            self.last_input = self.now()
            return
        down, self._down = self._down, None
        screen = self.screen
        if screen is None or down is None:  # no finger went down here (e.g. it woke the idle overlay)
            return
        self.last_input = self.now()
        screen.release(x, y)
        rested = self.now() - self._down_at > TAP_MAX_S
        if abs(x - down[0]) + abs(y - down[1]) <= self.layout.touch and not rested and screen is self.screen:
            screen.tap(*down)

    def tap(self, x: float, y: float) -> None:
        """A whole tap at window coordinates (origin bottom-left)."""
        self.finger_down(x, y)
        self.finger_up(x, y)

    def tap_px(self, x: float, y: float) -> None:
        """A tap at screenshot pixel (x, y): origin top-left, as image viewers count (the panel's own
        pixels: with a rotation, the screenshot shows the turned picture and the tap is turned back)."""
        self.tap(*self.to_logical(x, self.window.height - 1 - y))

    def on_mouse_press(self, x: Any, y: Any, button: Any, modifiers: Any) -> None:
        self.finger_down(*self.to_logical(x, y))

    def on_mouse_release(self, x: Any, y: Any, button: Any, modifiers: Any) -> None:
        self.finger_up(*self.to_logical(x, y))

    def on_resize(self, width: Any, height: Any) -> None:
        self._relayout(width, height)

    def _relayout(self, width: int, height: int) -> None:
        if width < 320 or height < 320:
            return
        self._apply_view()
        self.layout = Layout(*self._logical_size(width, height), self.layout_mode)
        self._stale = set()
        for screen in self._screens.values():
            screen.resize(self.layout)
        self.invalidate()

    # ---------------------------------------------------------------- keys stand in for buttons
    def on_key_press(self, symbol: Any, modifiers: Any) -> bool | None:
        from pyglet.window import key

        self.last_input = self.now()
        self._frame_due = True  # a key may change the picture (a cursor, a peek)
        if symbol in (key.Q, key.W) and modifiers & key.MOD_CTRL or symbol == key.F4 and modifiers & key.MOD_ALT:
            if self.locked:
                log.info("kiosk mode: %s ignored (only the operator menu quits)", key.symbol_string(symbol))
            else:
                self.request_quit()  # a developer's window
            return True
        if self.screen is not None and self.screen.on_key(symbol, modifiers):
            return True
        button = self._keys.get(symbol)
        if button is not None:
            self.press_button(button)
            return True
        # Every other key stops here, Escape included: pyglet's default closes the window on Escape.
        return True

    def on_key_release(self, symbol: Any, modifiers: Any) -> bool | None:
        if self.screen is not None and hasattr(self.screen, "on_key_release"):
            self.screen.on_key_release(symbol, modifiers)
        return True

    def press_button(self, button: str) -> None:
        """A key standing in for an arcade button: the same command the debounced button sends."""
        from kiosk.core.events import ButtonPressed

        self.post(ButtonPressed(button))

    def request_quit(self) -> None:
        from kiosk.core.events import Quit

        self.post(Quit("keyboard"))

    def on_close(self) -> bool:
        """The window manager asks to close (Alt+F4, the close button): only a desktop window quits."""
        if self.locked:
            log.info("kiosk mode: a request to close the window was ignored (only the operator menu quits)")
        else:
            self.request_quit()
        return True

    def on_hide(self) -> bool | None:
        """Minimised (or hidden) by the compositor: in kiosk mode, come straight back."""
        if self.locked:
            log.info("kiosk mode: the window was hidden; showing it again")
            self.window.set_visible(True)
            self.window.activate()
        return True


class _Keys:
    """The texts when no catalog can be read: every text shows its key, and the kiosk keeps running."""

    language = "en"

    def t(self, key: str, language: str | None = None, **fields: Any) -> str:
        return key

    def set_language(self, language: str) -> None:
        self.language = language

    def has(self, key: str) -> bool:
        return False


def _make_translator(language: str) -> Texts:
    try:
        from kiosk.ui.kit.i18n import Translator

        return Translator(language)
    except Exception as exc:  # catalogs missing or broken: keep running with the keys
        log.error("translations unavailable (%s); showing text keys", exc)
        return _Keys()


def settle_garbage() -> None:
    """Collect garbage now, at a moment that is slow anyway (a screen change, a new game), and set
    every object alive aside from later automatic collections (``gc.freeze``).

    Measured: Python's full collection walks every object (~50,000 with a game on screen) and took
    ~40 ms of CPU here; left to itself it falls in whatever frame allocates at that moment, e.g.
    one of a push's animation frames (over the 33 ms budget on its own). Set aside, the
    automatic collections only walk what was made since. The set-aside objects are looked at
    again the next time (``gc.unfreeze``), so cycles that died meanwhile are still freed."""
    gc.unfreeze()
    gc.collect()
    gc.freeze()


def _state_dir(kiosk: KioskView) -> Path | None:
    """Where the installed themes are: the configured state directory ([paths] state_dir, --state-dir)."""
    config = kiosk.config
    return Path(config.paths.state_dir) if config is not None else None


def _configured_theme(kiosk: KioskView, chosen: str | None = None) -> Any:
    """The theme the operator `chosen` in the menu, else the one ``[display] theme`` names (the
    built-in one when it cannot be used, said in the log)."""
    from kiosk.themes import BUILTIN, load

    config = kiosk.config
    theme_id = chosen if chosen is not None else config.display.theme if config is not None else None
    if not isinstance(theme_id, str):
        return BUILTIN
    return load(_state_dir(kiosk), theme_id)


def _themed(translator: Any, theme: Any) -> Any:
    """`translator` with the theme's treasure names in front (as it is for the built-in theme)."""
    from kiosk.themes import ThemedTranslator

    return translator if theme.builtin else ThemedTranslator(translator, theme)


def _import_screens() -> None:
    """Load every screen: the kiosk's own, then each registered game's ``GameType.screens``.

    A screen that cannot be imported is an error: the kiosk would otherwise
    start without a screen a visitor needs.
    """
    from kiosk.ui.screens.attract import AttractScreen
    from kiosk.ui.screens.operator import OperatorScreen
    from kiosk.ui.screens.setup import SetupScreen

    SCREENS.update({"attract": AttractScreen, "setup": SetupScreen, "operator": OperatorScreen})
    for game in games.all_games():
        if game.screens is not None:
            SCREENS.update(game.screens())
