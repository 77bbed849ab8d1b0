"""An animated guide: captions shown one after another over a stage that a game draws.

Both games' how-tos are guides; the caption, the step dots with their time bar,
Back / Next / "Let's play!", auto-advance and tap-for-next live here, the stage
in each game's own how-to screen.
"""

from __future__ import annotations

import pyglet
from pyglet import shapes

from .layout import Rect
from .menu import GO, TOGGLE_OFF, Canvas, clear_drawing, fit_font, make_button
from .screen import Screen
from .widgets import ACCENT, DIM, INK, Frame, label

STEP_S = 6.5


def _ease(t: float) -> float:
    t = min(1.0, max(0.0, t))
    return t * t * (3 - 2 * t)



class GuideScreen(Screen):
    """An animated guide: ``steps`` caption keys shown one after another, ``step_s`` seconds each.

    Shared by the board game's and the card game's how-to: the caption, the step
    dots with their time bar, Back / Next / "Let's play!", auto-advance and
    tap-for-next live here; a subclass draws the stage (``_build_scene``) and
    moves it (``_animate``). ``enter(then="setup"|"attract")`` says where Back leads.
    """

    background = (24, 30, 40)
    steps: tuple[str, ...] = ()
    step_s = STEP_S
    title_key = "howto.title"
    notes: dict[str, str] = {}       # step key -> a smaller second line under its caption

    def __init__(self, ui):
        super().__init__(ui)
        self.step = 0
        self.t = 0.0
        self.then = "attract"
        self.quiet = 0.0
        self._shapes: list = []
        self._scene: dict = {}
        self.stage = pyglet.graphics.Batch()

    # ------------------------------------------------------------ lifecycle
    def enter(self, then: str = "attract", **kw) -> None:
        self.then = then if then in ("attract", "setup") else "attract"
        self.quiet = 0.0
        self.show_step(0)

    def resize(self, layout) -> None:
        self.show_step(self.step)

    def update(self, dt: float) -> None:
        self.t += dt
        self.quiet += dt
        if self.t >= self.step_s:
            if self.step + 1 < len(self.steps):
                self.show_step(self.step + 1)
            elif self.quiet > self.step_s * 2:     # nobody is watching: back where we came from
                self.ui.goto(self.then)
                return
            else:
                self.t = 0.0                        # replay the last step until someone taps
        self._animate()
        self._progress()

    def draw(self) -> None:
        self.batch.draw()
        self.stage.draw()

    def tap(self, x: float, y: float) -> bool:
        self.quiet = 0.0
        if super().tap(x, y):
            return True
        self.next()
        return True

    # ------------------------------------------------------------ navigation
    def next(self) -> None:
        if self.step + 1 < len(self.steps):
            self.show_step(self.step + 1)
        else:
            self.play()

    def play(self) -> None:
        self.ui.goto("setup", keep=self.then == "setup")

    def back(self) -> None:
        self.ui.goto(self.then, **({"keep": True} if self.then == "setup" else {}))

    def show_step(self, step: int) -> None:
        self.step = step
        self.t = 0.0
        self._build()

    # ------------------------------------------------------------ chrome: caption, dots, buttons
    def _build(self) -> None:
        clear_drawing(self)
        L = self.layout
        c = self.c = Canvas(L)
        frame = Frame(L.screen, 0)
        bg, fg = pyglet.graphics.Group(order=0), pyglet.graphics.Group(order=2)
        t = self.ui.t
        m = 12
        self._shapes.append(label(t(self.title_key), frame, c.px(m + 4), c.px(c.H - 24), c.font(18), self.batch,
                                  fg, color=DIM, anchor_x="left", bold=True))
        caption = t(self.steps[self.step])
        portrait = c.H > c.W
        cap_y = c.H - (96 if portrait else 72)
        # skippable: straight to the game at any step
        make_button(self, c, frame, Rect(c.W - m - 150, c.H - m - 44, 150, 44), t("howto.skip") + " \u203a",
                    self.batch, bg, size=18, color=TOGGLE_OFF, on_tap=self.play)
        self.caption = label(caption, frame, c.px(c.W / 2), c.px(cap_y), fit_font(caption, c.font(28), c.px(c.W - 40)),
                             self.batch, fg, bold=True, color=INK)
        self._shapes.append(self.caption)
        note_key = self.notes.get(self.steps[self.step])
        if note_key:
            note = t(note_key)
            self._shapes.append(label(note, frame, c.px(c.W / 2), c.px(cap_y - 34),
                                      fit_font(note, c.font(19), c.px(c.W - 40)), self.batch, fg, color=ACCENT,
                                      bold=True))
            cap_y -= 30
        # step dots and the time bar under the current one
        self._dots = []
        n = len(self.steps)
        gap = 30
        x0 = c.W / 2 - gap * (n - 1) / 2
        dot_y = 84 if not portrait else 96
        for i in range(n):
            on = i == self.step
            dot = shapes.Circle(c.px(x0 + i * gap), c.px(dot_y), c.px(9 if on else 6),
                                color=ACCENT if i <= self.step else (80, 88, 100), batch=self.batch, group=fg)
            self._dots.append(dot)
            self._shapes.append(dot)
        self._bar = shapes.Rectangle(c.px(x0 - 8), c.px(dot_y - 20), 0, c.px(4), color=ACCENT, batch=self.batch,
                                     group=fg)
        self._bar_w = c.px(gap * (n - 1) + 16)
        self._shapes.append(self._bar)
        bh = 56
        make_button(self, c, frame, Rect(m, m, 130, bh), "\u2039 " + t("common.back"), self.batch, bg, size=17,
                    color=TOGGLE_OFF, on_tap=self.back)
        last = self.step == n - 1
        make_button(self, c, frame, Rect(c.W - m - 210, m, 210, bh),
                    (t("howto.play") + "  \u25b6") if last else (t("howto.next") + "  \u203a"),
                    self.batch, bg, size=19, color=GO if last else (64, 110, 170),
                    on_tap=self.play if last else self.next)
        # the stage between caption and dots
        top = cap_y - 30
        bottom = dot_y + 24
        self.stage_rect = Rect(m, bottom, c.W - 2 * m, top - bottom)
        self._build_scene()

    def _progress(self) -> None:
        frac = min(1.0, self.t / self.step_s)
        self._bar.width = self._bar_w * (self.step + frac) / len(self.steps)

    # ------------------------------------------------------------ the stage: a subclass's own
    def _build_scene(self) -> None:
        raise NotImplementedError

    def _animate(self) -> None:
        raise NotImplementedError
