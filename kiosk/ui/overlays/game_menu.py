"""The in-game menu: a way out of a running game from every seat's side, facing whoever opened it.

A game's play screen says where its menu buttons go (``menu_spots()``: one at each
seat's side of the table, each turned to that side); the UI draws them over the
screen and offers each finger to this overlay first, as it does for the idle
watch. A tap on a menu button opens a sheet turned to the edge of that button:
continue, how to play (the game's own guide, which comes back to the same
position), the sound for this visitor (quieter or off, never louder than the
operator's volume), a new game and ending the game. Those two ask for a second
tap first: a stray touch never throws a game away.

A game without a person in it ("watch the computers") shows a stop button
instead, and one touch on it stops the game and returns to the attract screen.

The overlay never changes game state itself: it posts ``AbandonGame`` and ``NewGame``
like any screen, and goes to other screens with ``ui.goto``.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Any, Protocol, cast, runtime_checkable

import pyglet
from pyglet import shapes

from kiosk.games import HUMAN
from kiosk import games
from kiosk.core.events import AbandonGame, NewGame

from kiosk.ui.kit import seating
from kiosk.ui.kit.layout import Rect
from kiosk.ui.kit.menu import GO, TOGGLE_OFF, Canvas, dim, fit_box, make_button, panel
from kiosk.ui.shell.screen import conforms, game_on, session_for
from kiosk.ui.kit.typeface import BODY
from kiosk.ui.kit.widgets import BUTTON, DANGER, DIM, INK, TOKEN_EDGE, Frame, edge_of, label

if TYPE_CHECKING:  # pragma: no cover
    from kiosk.core.session import GameSession

    from kiosk.ui.shell.window import UI

#: A visitor's volume changes by this much per tap (percent).
VISITOR_STEP = 10
#: The sheet's size in design units (kiosk/ui/kit/menu.py Canvas): four rows of buttons and a title.
SHEET_W, SHEET_H = 440, 330
ROW_H = 56


@runtime_checkable
class HasMenuSpots(Protocol):
    """A play screen with places for the menu button: one per seat's side of the table."""

    def menu_spots(self) -> list[tuple[Rect, int]]:
        """(screen rectangle, angle the reader at that spot reads at) for each menu button."""
        ...


class GameMenu:
    """The menu buttons on a game's play screen and the sheet they open (see the module docstring)."""

    name = "game menu"  # as a screen's (the layout audit measures the open sheet like one)

    def __init__(self, ui: "UI"):
        self.ui = ui
        self.open = False
        self.angle = 0  # the sheet faces the person who opened it
        self.opener: tuple[float, float] | None = None
        self.confirming = ""  # "new" or "end": the next tap on that button does it
        self.widgets: list[Any] = []
        self._pressed: Any = None
        self._pressed_spot: tuple[Rect, int] | None = None
        self._spots: list[tuple[Rect, int]] = []
        self._signature: Any = None
        self._spot_batch = pyglet.graphics.Batch()
        self._spot_shapes: list[Any] = []
        self._batch = pyglet.graphics.Batch()
        self._shapes: list[Any] = []

    # ------------------------------------------------------------ what is on screen
    def _game(self) -> str | None:
        screen = self.ui.screen
        return game_on(screen.name) if screen is not None else None

    def session(self) -> "GameSession[Any] | None":
        game = self._game()
        return session_for(self.ui.kiosk, game) if game is not None else None

    @property
    def computers_only(self) -> bool:
        """The running game has no person in it: the menu button is a stop button."""
        session = self.session()
        return session is not None and session.game is not None and HUMAN not in session.kinds

    def spots(self) -> list[tuple[Rect, int]]:
        """Where the menu buttons are now (none without a running game on a play screen)."""
        screen = self.ui.screen
        session = self.session()
        if session is None or session.game is None or session.game.phase == "over":
            return []
        return cast(HasMenuSpots, screen).menu_spots() if conforms(screen, HasMenuSpots) else []

    def spot_at(self, x: float, y: float) -> tuple[Rect, int] | None:
        for spot in self._spots:
            if spot[0].contains(x, y):
                return spot
        return None

    # ------------------------------------------------------------ the hooks the UI calls
    def update(self, dt: float = 0.0) -> None:
        spots = self.spots()
        if self.open and not spots:
            self.close()  # the game ended or another screen shows
        signature = (tuple(spots), self.computers_only, self.ui.layout)
        if signature != self._signature:
            self._signature = signature
            self._spots = spots
            self._build_spots()
            self.ui.request_frame()

    def finger_down(self, x: float, y: float) -> bool:
        """A finger went down: True if the menu takes it (on a menu button, or anywhere while open)."""
        if self.open:
            self._pressed = next((w for w in reversed(self.widgets) if w.hit(x, y)), None)
            if self._pressed is not None and self._pressed.enabled:
                self._pressed.press()  # its pressed colour, in the next frame
                self.ui.request_frame()
            return True
        self._pressed_spot = self.spot_at(x, y)
        return self._pressed_spot is not None

    def finger_up(self, x: float, y: float) -> bool:
        """The finger went up: True if the menu had it (a tap on one of its buttons does its job)."""
        if self.open:
            pressed, self._pressed = self._pressed, None
            if pressed is not None:
                pressed.release()
                self.ui.request_frame()
                if pressed.hit(x, y) and pressed.enabled:
                    pressed.tap()
            elif not self._sheet_rect().contains(x, y):
                self.close()  # a tap beside the sheet: back to the game
            return True
        spot, self._pressed_spot = self._pressed_spot, None
        if spot is None:
            return False
        if self.computers_only:
            self.stop()
        else:
            self.show(spot[0].center, spot[1])
        return True

    def draw(self) -> None:
        if self._spots:
            self._spot_batch.draw()
        if self.open:
            self._batch.draw()

    # ------------------------------------------------------------ states and actions
    def show(self, opener: tuple[float, float], angle: int) -> None:
        self.open = True
        self.opener = opener
        self.angle = angle
        self.confirming = ""
        self._redraw()

    def close(self) -> None:
        if self.open:
            self.ui.request_frame()
        self.open = False
        self.confirming = ""
        self._pressed = None
        self._clear_sheet()

    def stop(self) -> None:
        """One touch on a computers-only game: stop it, back to the attract screen."""
        self.close()
        self.ui.post(AbandonGame("stopped: computers only"))
        self.ui.goto("attract")

    def rules(self) -> None:
        """The game's own how-to; its Back and its last step come back to this game as it stands."""
        game = self._game()
        screen = self.ui.screen
        kind = games.get(game) if game is not None else None
        self.close()
        if kind is None or not kind.howto_screen or screen is None:
            return
        edge = seating.NEAR if self.angle == 0 else seating.FAR
        self.ui.goto(kind.howto_screen, then=screen.name, edge=edge)

    def new_game(self) -> None:
        """First tap: ask again; second: the same seats and rules, a new shuffle."""
        if self.confirming != "new":
            self.confirming = "new"
            self._redraw()
            return
        session = self.session()
        setup = getattr(session, "setup", None)
        self.close()
        if setup is None:
            return
        # the play screen stays: the old game's end says it is replaced, the new game's start shows
        # its board (going to the screen again showed the old board, then the attract screen)
        self.ui.post(NewGame(replace(setup, seed=None)))

    def end_game(self) -> None:
        """First tap: ask again; second: the game is stopped, back to the attract screen."""
        if self.confirming != "end":
            self.confirming = "end"
            self._redraw()
            return
        self.close()
        self.ui.post(AbandonGame("ended from the game menu"))
        self.ui.goto("attract")

    def volume(self, step: int) -> None:
        sound = getattr(self.ui, "sound", None)
        if sound is not None:
            sound.set_visitor_muted(False)
            sound.set_visitor_volume(sound.playing_volume + step)
        self._redraw()

    def mute(self) -> None:
        sound = getattr(self.ui, "sound", None)
        if sound is not None:
            sound.set_visitor_muted(not sound.visitor_muted)
        self._redraw()

    # ------------------------------------------------------------ drawing
    def _build_spots(self) -> None:
        for s in self._spot_shapes:
            s.delete()
        self._spot_shapes = []
        batch = self._spot_batch = pyglet.graphics.Batch()
        back, front = pyglet.graphics.Group(order=50), pyglet.graphics.Group(order=51)
        stop = self.computers_only
        for rect, _angle in self._spots:
            # a painted token like every button (docs/art.md): enamel blue, its darker side below it
            # (the light comes from the top of the screen whichever way the reader sits)
            inner = rect.inset(max(2.0, rect.w * 0.06))
            drop = max(2.0, inner.h * TOKEN_EDGE)
            color = DANGER if stop else BUTTON
            edge = shapes.RoundedRectangle(
                inner.x,
                inner.y - drop,
                inner.w,
                inner.h,
                radius=inner.w * 0.2,
                segments=6,
                color=edge_of(color),
                batch=batch,
            )
            edge.group = back
            fill = shapes.RoundedRectangle(*inner, radius=inner.w * 0.2, segments=6, color=color, batch=batch)
            fill.group = back
            self._spot_shapes += [edge, fill]
            cx, cy = rect.center
            if stop:  # a stop sign everyone knows: a white square
                side = inner.w * 0.42
                self._spot_shapes.append(
                    shapes.Rectangle(cx - side / 2, cy - side / 2, side, side, color=INK, batch=batch, group=front)
                )
                continue
            bar_w, bar_h = inner.w * 0.56, max(2.0, inner.h * 0.09)  # three bars: the sign of a menu
            for k in (-1, 0, 1):
                self._spot_shapes.append(
                    shapes.Rectangle(
                        cx - bar_w / 2,
                        cy - bar_h / 2 + k * inner.h * 0.2,
                        bar_w,
                        bar_h,
                        color=INK,
                        batch=batch,
                        group=front,
                    )
                )

    def _sheet_rect(self) -> Rect:
        c = Canvas(self.ui.layout)
        w, h = min(c.W - 24, SHEET_W), min(c.H - 24, SHEET_H)
        return c.r((c.W - w) / 2, (c.H - h) / 2, w, h)

    def _clear_sheet(self) -> None:
        for w in self.widgets:
            w.delete()
        self.widgets = []
        for s in self._shapes:
            s.delete()
        self._shapes = []
        self._batch = pyglet.graphics.Batch()

    def add(self, widget: Any) -> Any:
        """Register a button of the sheet (kiosk/ui/kit/menu.py make_button calls this)."""
        self.widgets.append(widget)
        return widget

    def _redraw(self) -> None:
        self._clear_sheet()
        self.ui.request_frame()
        if not self.open:
            return
        L = self.ui.layout
        c = Canvas(L)
        batch = self._batch
        back, sheet, front = (pyglet.graphics.Group(order=k) for k in (60, 61, 62))
        self._shapes.append(dim(L, batch, back, alpha=180))
        rect = self._sheet_rect()
        frame = Frame(rect, self.angle)
        self._shapes += panel(frame, frame.full(), batch, sheet, radius=c.px(16))
        t = self.ui.t
        W, H = rect.w / c.s, rect.h / c.s
        pad, gap = 16, 10
        title = t("menu.title")
        self._shapes.append(
            label(
                title,
                frame,
                c.px(W / 2),
                c.px(H - 24),
                fit_box(title, c.font(BODY), c.px(W - 2 * pad), c.px(40)),
                batch,
                front,
                bold=True,
                color=DIM,
                name="menu title",
            )
        )
        y = H - 48 - ROW_H
        full = W - 2 * pad
        make_button(
            self,
            c,
            frame,
            Rect(pad, y, full, ROW_H),
            "\u25b6  " + t("menu.continue"),
            batch,
            front,
            size=20,
            color=GO,
            on_tap=self.close,
        )
        y -= ROW_H + gap
        make_button(
            self, c, frame, Rect(pad, y, full, ROW_H), t("howto.title"), batch, front, size=BODY, on_tap=self.rules
        )
        y -= ROW_H + gap
        self._sound_row(c, frame, batch, front, pad, y, full)
        y -= ROW_H + gap
        half = (full - gap) / 2
        new_confirm, end_confirm = self.confirming == "new", self.confirming == "end"
        make_button(
            self,
            c,
            frame,
            Rect(pad, y, half, ROW_H),
            t("menu.new_game_confirm") if new_confirm else t("menu.new_game"),
            batch,
            front,
            size=BODY,
            wrap=True,
            color=DANGER if new_confirm else TOGGLE_OFF,
            on_tap=self.new_game,
        )
        make_button(
            self,
            c,
            frame,
            Rect(pad + half + gap, y, half, ROW_H),
            t("menu.end_game_confirm") if end_confirm else t("menu.end_game"),
            batch,
            front,
            size=BODY,
            wrap=True,
            color=DANGER if end_confirm else TOGGLE_OFF,
            on_tap=self.end_game,
        )

    def _sound_row(self, c: Canvas, frame: Frame, batch: Any, group: Any, x: float, y: float, w: float) -> None:
        """Sound: the level this visitor hears, quieter, louder (up to the operator's), off/on."""
        t = self.ui.t
        sound = getattr(self.ui, "sound", None)
        if sound is None or not sound.settings.enabled:
            text = t("menu.sound_unavailable")
            self._shapes.append(
                label(
                    text,
                    frame,
                    c.px(x + w / 2),
                    c.px(y + ROW_H / 2),
                    fit_box(text, c.font(BODY), c.px(w), c.px(ROW_H)),
                    batch,
                    group,
                    color=DIM,
                    name="sound",
                )
            )
            return
        bw = 64
        muted = sound.visitor_muted or sound.muted
        level = t("operator.muted") if muted else f"{sound.playing_volume} %"
        text = f"{t('menu.sound')}: {level}"
        room = w - 3 * (bw + 8)
        self._shapes.append(
            label(
                text,
                frame,
                c.px(x),
                c.px(y + ROW_H / 2),
                fit_box(text, c.font(BODY), c.px(room), c.px(ROW_H)),
                batch,
                group,
                anchor_x="left",
                bold=True,
                name="sound",
            )
        )
        right = x + w
        quieter = make_button(
            self,
            c,
            frame,
            Rect(right - 3 * bw - 16, y, bw, ROW_H),
            "\u2212",
            batch,
            group,
            size=24,
            on_tap=lambda: self.volume(-VISITOR_STEP),
        )
        louder = make_button(
            self,
            c,
            frame,
            Rect(right - 2 * bw - 8, y, bw, ROW_H),
            "+",
            batch,
            group,
            size=24,
            on_tap=lambda: self.volume(+VISITOR_STEP),
        )
        quieter.set_enabled(not muted and sound.playing_volume > 0)
        louder.set_enabled(muted or sound.playing_volume < sound.volume)  # never above the operator's
        make_button(
            self,
            c,
            frame,
            Rect(right - bw, y, bw, ROW_H),
            "\u266a " + (t("operator.on") if muted else t("operator.off")),
            batch,
            group,
            size=BODY,
            color=GO if muted else TOGGLE_OFF,
            on_tap=self.mute,
        )


def corner_spots(layout: Any, cells: dict[int, Rect]) -> list[tuple[Rect, int]]:
    """Menu spots at the given seats' rectangles, each turned to its seat's edge of the table."""
    return [(rect, seating.facing(layout, seat)) for seat, rect in cells.items()]


__all__ = ["GameMenu", "HasMenuSpots", "corner_spots"]
