"""An animated guide: captions shown one after another over a stage that a game draws.

Both games' how-tos are guides; the caption, the step dots with their time bar,
Back / Next / "Let's play!", auto-advance and tap-for-next live here, the stage
in each game's own how-to screen. On a table the guide faces the edge of the
person who opened it (the stage is drawn turned with it), like the setup.
"""

from __future__ import annotations

import pyglet
from pyglet import shapes

from kiosk.ui.kit import seating
from kiosk.ui.kit.layout import Rect
from kiosk.ui.kit.menu import GO, TOGGLE_OFF, Canvas, clear_drawing, make_button
from kiosk.ui.shell.screen import PASSERS_BY_HZ, Screen, game_on
from kiosk.ui.kit.typeface import BODY
from kiosk.ui.kit.widgets import ACCENT, DIM, INK, Frame, label

STEP_S = 6.5
CAPTION = 24  # px at 800x480: the step's sentence (wrapped, never shrunk)
NOTE = 20  # its second line


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

    steps: tuple[str, ...] = ()
    step_s = STEP_S
    title_key = "howto.title"
    notes: dict[str, str] = {}  # step key -> a smaller second line under its caption
    motion_hz = PASSERS_BY_HZ  # a how-to's stage

    def __init__(self, ui):
        super().__init__(ui)
        self.step = 0
        self.step_t = 0.0
        self.then = "attract"
        self.edge = seating.NEAR  # the edge of the person who opened the guide (it faces them)
        self.quiet = 0.0
        self._shapes: list = []
        self._scene: dict = {}
        self.stage = pyglet.graphics.Batch()

    # ------------------------------------------------------------ lifecycle
    def enter(
        self, then: str = "attract", opener: tuple[float, float] | None = None, edge: str | None = None, **kw
    ) -> None:
        """`then`: where Back leads; `opener` (a touch) or `edge`: the person who opened the guide, whom it
        faces (the setup passes its own edge)."""
        # a game's play screen (the in-game menu's "How to play"): Back, Skip and the last step go
        # back to that game, which the session kept as it stood
        self.then = then if then in ("attract", "setup") or game_on(then) is not None else "attract"
        self.edge = seating.NEAR
        if self.layout.tabletop:
            if edge in seating.ANGLES:
                self.edge = edge
            elif opener is not None:
                self.edge = seating.edge_at(self.layout, *opener)
        self.quiet = 0.0
        self.show_step(0)

    def resize(self, layout) -> None:
        self.show_step(self.step)

    def update(self, dt: float) -> None:
        self.step_t += dt
        self.quiet += dt
        if self.step_t >= self.step_s:
            if self.step + 1 < len(self.steps):
                self.show_step(self.step + 1)
            elif self.quiet > self.step_s * 2:  # nobody is watching: back where we came from
                self.ui.goto(self.then)
                return
            else:
                self.step_t = 0.0  # replay the last step until someone taps
        self._animate()
        self._progress()

    def draw(self) -> None:
        self.draw_table()
        self.batch.draw()
        if seating.angle(self.edge) == 180:
            # the stage is laid out for a reader at the near edge: turn its drawing for the far one
            from kiosk.ui.shell.window import rotation_view

            window = self.ui.window
            view = window.view
            window.view = view @ rotation_view(180, self.layout.width, self.layout.height)
            self.stage.draw()
            window.view = view
        else:
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
        """ "Let's play!": from the setup, the game starts with the seats that were set there; from a
        running game, back to it; from the attract screen, to the setup (nobody has joined yet)."""
        from kiosk.ui.screens.setup import SetupScreen

        setup = self.ui.screen_named("setup") if self.then == "setup" else None
        if isinstance(setup, SetupScreen):
            setup.start()
        elif game_on(self.then) is not None:
            self.ui.goto(self.then)
        else:
            self.ui.goto("setup")

    def skip(self) -> None:
        """Skip the guide: to the setup (its choices kept), or back to the running game."""
        if game_on(self.then) is not None:
            self.ui.goto(self.then)
        else:
            self.ui.goto("setup", keep=self.then == "setup")

    def back(self) -> None:
        self.ui.goto(self.then, **({"keep": True} if self.then == "setup" else {}))

    def show_step(self, step: int) -> None:
        self.step = step
        self.step_t = 0.0
        self._build()

    # ------------------------------------------------------------ chrome: caption, dots, buttons
    def _build(self) -> None:
        clear_drawing(self)
        L = self.layout
        c = self.c = Canvas(L)
        frame = Frame(L.screen, seating.angle(self.edge))
        bg, fg = pyglet.graphics.Group(order=0), pyglet.graphics.Group(order=2)
        t = self.ui.t
        m = 12
        portrait = c.H > c.W
        # the top row: the title left, Skip right (skippable: straight to the game at any step)
        skip_w = 200
        row_y = c.H - m - 48
        self._shapes.append(
            label(
                t(self.title_key),
                frame,
                c.px(m + 4),
                c.px(row_y + 24),
                c.font(BODY),
                self.batch,
                fg,
                color=DIM,
                anchor_x="left",
                bold=True,
                multiline=True,
                width=c.px(c.W - 2 * m - skip_w - 16),
                align="left",
            )
        )
        make_button(
            self,
            c,
            frame,
            Rect(c.W - m - skip_w, row_y, skip_w, 48),
            t("howto.skip") + " \u203a",
            self.batch,
            bg,
            size=BODY,
            color=TOGGLE_OFF,
            on_tap=self.skip,
        )
        # the caption under the top row, wrapped (never shrunk), and its note under it
        caption = t(self.steps[self.step])
        top = row_y - 10
        self.caption = label(
            caption,
            frame,
            c.px(c.W / 2),
            c.px(top),
            c.font(CAPTION),
            self.batch,
            fg,
            bold=True,
            color=INK,
            anchor_y="top",
            width=c.px(c.W - 2 * m - 16),
            multiline=True,
        )
        self._shapes.append(self.caption)
        top -= self.caption.content_height / c.s + 4
        note_key = self.notes.get(self.steps[self.step])
        if note_key:
            note = label(
                t(note_key),
                frame,
                c.px(c.W / 2),
                c.px(top),
                c.font(NOTE),
                self.batch,
                fg,
                color=ACCENT,
                bold=True,
                anchor_y="top",
                width=c.px(c.W - 2 * m - 16),
                multiline=True,
            )
            self._shapes.append(note)
            top -= note.content_height / c.s + 4
        # step dots and the time bar under the current one
        self._dots = []
        n = len(self.steps)
        gap = 30
        x0 = c.W / 2 - gap * (n - 1) / 2
        dot_y = 84 if not portrait else 96
        for i in range(n):
            on = i == self.step
            dot = shapes.Circle(
                *frame.point(c.px(x0 + i * gap), c.px(dot_y)),
                c.px(9 if on else 6),
                color=ACCENT if i <= self.step else (80, 88, 100),
                batch=self.batch,
                group=fg,
            )
            self._dots.append(dot)
            self._shapes.append(dot)
        self._bar_w = c.px(gap * (n - 1) + 16)
        bar = frame.area(Rect(c.px(x0 - 8), c.px(dot_y - 20), self._bar_w, c.px(4)))
        self._bar_at = (bar.x, bar.right) if frame.angle == 0 else (bar.right, bar.x)
        self._bar = shapes.Rectangle(bar.x, bar.y, 0, bar.h, color=ACCENT, batch=self.batch, group=fg)
        self._shapes.append(self._bar)
        bh = 56
        make_button(
            self,
            c,
            frame,
            Rect(m, m, 150, bh),
            "\u2039 " + t("common.back"),
            self.batch,
            bg,
            size=BODY,
            color=TOGGLE_OFF,
            on_tap=self.back,
        )
        last = self.step == n - 1
        make_button(
            self,
            c,
            frame,
            Rect(c.W - m - 230, m, 230, bh),
            (t("howto.play") + "  \u25b6") if last else (t("howto.next") + "  \u203a"),
            self.batch,
            bg,
            size=20,
            color=GO if last else (64, 110, 170),
            on_tap=self.play if last else self.next,
        )
        # the stage between caption and dots (drawn turned with the frame: see draw)
        top -= 6
        bottom = dot_y + 24
        self.stage_rect = Rect(m, bottom, c.W - 2 * m, top - bottom)
        self._build_scene()

    def _progress(self) -> None:
        frac = min(1.0, self.step_t / self.step_s)
        w = self._bar_w * (self.step + frac) / len(self.steps)
        start, end = self._bar_at
        self._bar.x = start if end > start else start - w  # it grows from the reader's left
        self._bar.width = w

    # ------------------------------------------------------------ the stage: a subclass's own
    def _build_scene(self) -> None:
        raise NotImplementedError

    def _animate(self) -> None:
        raise NotImplementedError
