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
not a tap). No hover, no double-tap.
"""

from __future__ import annotations

import logging
import os
import time
from pathlib import Path
from typing import Any, Callable

import pyglet

from .layout import Layout
from .screen import SCREENS, Screen

log = logging.getLogger(__name__)

# The arcade buttons on a keyboard: a ring of keys around the left-hand block,
# as the arrows sit around the board (docs/keys.md).
#       2  3  4            N1 N3 N5
#    Q  .  .  .  T      W1          E1
#    A  .  .  .  G      W3          E3
#    Z  X  C  V  B      W5 S1 S3 S5 E5
KEY_BUTTONS = {
    "_2": "N1", "_3": "N3", "_4": "N5",
    "T": "E1", "G": "E3", "B": "E5",
    "X": "S1", "C": "S3", "V": "S5",
    "Q": "W1", "A": "W3", "Z": "W5",
    "R": "rotate", "SPACE": "stay",
}


def _key_table() -> dict[int, str]:
    from pyglet.window import key
    return {getattr(key, name): button for name, button in KEY_BUTTONS.items()}


def make_window(display: str, size: tuple[int, int] | None, gl_api: str = "auto",
                caption: str = "Labyrinth") -> pyglet.window.Window:
    """Create the window for `display` ("window", "fullscreen", "offscreen").

    ``pyglet.options`` must already say headless for offscreen (see ``prepare_pyglet``).
    `gl_api` "gles" asks for an OpenGL ES 3 context, "gl" for desktop OpenGL 3.3,
    "auto" tries desktop GL first and falls back to GLES.
    """
    from pyglet import gl

    apis = {"gl": ["gl"], "gles": ["gles"], "auto": ["gl", "gles"]}[gl_api]
    last_error: Exception | None = None
    for api in apis:
        # No multisampling: the drawings come antialiased from the atlas, and MSAA costs a
        # software renderer (and a Pi's GPU) several times the fill rate.
        configs = [gl.Config(opengl_api=api, major_version=3, minor_version=0 if api == "gles" else 3,
                             double_buffer=True)]
        for config in configs:
            try:
                if display == "fullscreen":
                    window = pyglet.window.Window(fullscreen=True, config=config, caption=caption)
                    window.set_mouse_visible(False)
                else:
                    w, h = size or (1280, 800)
                    window = pyglet.window.Window(w, h, config=config, caption=caption,
                                                  visible=display != "offscreen", resizable=display == "window")
                window.gl_api = api
                return window
            except (pyglet.window.NoSuchConfigException, pyglet.gl.ContextException) as exc:
                last_error = exc
    raise RuntimeError(f"cannot open an OpenGL{' ES' if gl_api == 'gles' else ''} window for "
                       f"display {display!r}: {last_error}. On a desktop without a screen try "
                       f"--display offscreen; offscreen needs libegl1 and libgles2 (Mesa).")


def prepare_pyglet(display: str, gl_api: str = "auto") -> None:
    """Set pyglet's global options; must run before any window is made."""
    if display == "offscreen":
        pyglet.options["headless"] = True
    if gl_api == "gles":
        pyglet.options["opengl_api"] = "gles"
    pyglet.options["debug_gl"] = False
    pyglet.options["shadow_window"] = False


class UI:
    """The screens, the window and the loop. Screens use ``ui.kiosk``, ``ui.layout``, ``ui.t``,
    ``ui.goto``, ``ui.post``, ``ui.atlas``, ``ui.now()``.
    """

    def __init__(self, kiosk: Any, window: pyglet.window.Window, *, layout: str = "tabletop",
                 language: str = "en", translator: Any = None, first: str | None = None,
                 clock: Callable[[], float] = time.monotonic):
        self.kiosk = kiosk
        self.window = window
        self.layout_mode = layout
        self.layout = Layout(window.width, window.height, layout)
        self.now = clock
        self._translator = translator if translator is not None else _make_translator(language)
        self._screens: dict[str, Screen] = {}
        self.screen: Screen | None = None
        self.frames = 0
        self.last_input = clock()
        self._atlas = None
        self._atlas_px = 0
        self._down: tuple[float, float] | None = None
        self._keys = _key_table()
        self._cursor: tuple[int, int] | None = None
        bus = getattr(kiosk, "bus", None)
        self._unsubscribe = bus.subscribe_all(self._on_event) if bus is not None else None
        window.push_handlers(self)
        _import_screens()
        self.goto(first or ("attract" if "attract" in SCREENS else "play"))

    # ---------------------------------------------------------------- services for screens
    def t(self, key: str, **fields: Any) -> str:
        return self._translator.t(key, **fields)

    @property
    def translator(self) -> Any:
        return self._translator

    def post(self, command: Any) -> None:
        self.kiosk.bus.post(command)

    @property
    def atlas(self):
        """The drawings at the current cell size (rebuilt when the layout's cell size changes)."""
        from .art import Atlas
        px = int(self.layout.cell * 2 + 0.5)
        if self._atlas is None or self._atlas_px != px:
            self.window.switch_to()
            self._atlas = Atlas(px, self.window)
            self._atlas_px = px
        return self._atlas

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
        screen = self.screen_named(name)
        if self.screen is not None and self.screen is not screen:
            self.screen.leave()
        self.screen = screen
        self._down = None
        screen.enter(**kw)
        return screen

    def set_language(self, language: str) -> None:
        setter = getattr(self._translator, "set_language", None)
        if setter:
            setter(language)
        for screen in self._screens.values():
            screen.resize(self.layout)

    def set_layout_mode(self, mode: str) -> None:
        self.layout_mode = mode
        self._relayout(self.window.width, self.window.height)

    # ---------------------------------------------------------------- the loop
    def step(self, dt: float) -> None:
        """One frame: run the kiosk (timers, bus), advance animations, draw."""
        tick = getattr(self.kiosk, "tick", None)
        if tick is not None:
            tick()
        if self.screen is not None:
            self.screen.update(dt)
        self.draw()

    def draw(self) -> None:
        self.window.switch_to()
        bg = self.screen.background if self.screen is not None else (0, 0, 0)
        pyglet.gl.glClearColor(bg[0] / 255, bg[1] / 255, bg[2] / 255, 1.0)
        self.window.clear()
        if self.screen is not None:
            self.screen.draw()
        self.frames += 1

    def on_draw(self) -> None:       # pyglet window event (window/fullscreen modes)
        self.draw()

    def screenshot(self, path: str | os.PathLike) -> Path:
        """Save what the last frame showed as a PNG."""
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        self.window.switch_to()
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

    # ---------------------------------------------------------------- events from the bus
    def _on_event(self, event: Any) -> None:
        from ..events import GameStarted
        if (isinstance(event, GameStarted) and any(p.kind == "human" for p in event.players)
                and "play" in SCREENS and (self.screen is None or self.screen.name not in ("play", "operator"))):
            # a game with people in it (setup, --players, a resumed save): show the board.
            # All-computer games are the attract screen's demo and stay behind it.
            self.goto("play")
        from ..card_events import CardGameStarted
        if (isinstance(event, CardGameStarted) and any(p.kind == "human" for p in event.players)
                and "cards_play" in SCREENS and (self.screen is None
                                                 or self.screen.name not in ("cards_play", "operator"))):
            self.goto("cards_play")     # the same for the card game
        if self.screen is not None:
            self.screen.on_event(event)
        for name, screen in self._screens.items():     # background listeners (e.g. play keeps its model)
            if screen is not self.screen and getattr(screen, "listens_in_background", False):
                screen.on_event(event)

    # ---------------------------------------------------------------- fingers (pyglet window events)
    def finger_down(self, x: float, y: float) -> None:
        self.last_input = self.now()
        self._down = (x, y)
        if self.screen is not None:
            self.screen.press(x, y)

    def finger_up(self, x: float, y: float) -> None:
        self.last_input = self.now()
        down, self._down = self._down, None
        screen = self.screen
        if screen is None:
            return
        screen.release(x, y)
        if down is not None and abs(x - down[0]) + abs(y - down[1]) <= self.layout.touch and screen is self.screen:
            screen.tap(*down)

    def tap(self, x: float, y: float) -> None:
        """A whole tap at window coordinates (origin bottom-left)."""
        self.finger_down(x, y)
        self.finger_up(x, y)

    def tap_px(self, x: float, y: float) -> None:
        """A tap at screenshot pixel (x, y): origin top-left, as image viewers count."""
        self.tap(x, self.window.height - 1 - y)

    def on_mouse_press(self, x, y, button, modifiers):
        self.finger_down(x, y)

    def on_mouse_release(self, x, y, button, modifiers):
        self.finger_up(x, y)

    def on_resize(self, width, height):
        self._relayout(width, height)

    def _relayout(self, width: int, height: int) -> None:
        if width < 320 or height < 320:
            return
        self.layout = Layout(width, height, self.layout_mode)
        for screen in self._screens.values():
            screen.resize(self.layout)

    # ---------------------------------------------------------------- keys stand in for buttons
    def on_key_press(self, symbol, modifiers):
        from pyglet.window import key
        self.last_input = self.now()
        if symbol == key.Q and modifiers & key.MOD_CTRL:
            self.request_quit()
            return True
        if self.screen is not None and self.screen.on_key(symbol, modifiers):
            return True
        button = self._keys.get(symbol)
        if button is not None:
            self.press_button(button)
            return True
        if symbol == key.ESCAPE:
            return True          # a kiosk never closes on Escape
        return None

    def on_key_release(self, symbol, modifiers):
        if self.screen is not None and hasattr(self.screen, "on_key_release"):
            self.screen.on_key_release(symbol, modifiers)

    def press_button(self, button: str) -> None:
        """A key standing in for an arcade button: the same command the debounced button sends."""
        from ..events import ButtonPressed
        self.post(ButtonPressed(button))

    def request_quit(self) -> None:
        from ..events import Quit
        self.post(Quit("keyboard"))

    def on_close(self):
        self.request_quit()
        return True


def _make_translator(language: str):
    try:
        from .i18n import Translator
        return Translator(language)
    except Exception as exc:      # catalogs missing or broken: keep running with the keys
        log.error("translations unavailable (%s); showing text keys", exc)

        class _Keys:
            language = "en"

            def t(self, key, **fields):
                return key

        return _Keys()


_SCREEN_MODULES = ("play", "attract", "setup", "howto", "gameover", "idle", "operator", "cards_play")


def _import_screens() -> None:
    """Import every screen module that exists, so their @register runs."""
    import importlib
    for mod in _SCREEN_MODULES:
        try:
            importlib.import_module(f"{__package__}.{mod}")
        except ModuleNotFoundError as exc:
            if exc.name != f"{__package__}.{mod}":
                log.error("screen %r cannot be loaded: %s", mod, exc)
        except Exception as exc:       # one broken screen must not stop the others (logged loudly)
            log.exception("screen %r cannot be loaded: %s", mod, exc)
