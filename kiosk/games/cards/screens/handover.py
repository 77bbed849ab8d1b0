"""The card screen's "pass to" sheet: between two people it covers the table until the next one taps.

Hands are private on a shared screen: when a person follows another person, this sheet faces the
next one and tells them what the previous person did (the card laid, as laid, and the cards taken,
or the card discarded), which they did not watch. A tap anywhere hands over (``HandOver``); the
Undo of the person who just played lies on the sheet's edge nearest them. The sheet is one part
(``Parts``) over the whole screen.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pyglet
from pyglet import shapes

from kiosk.games.cards.events import HandOver
from kiosk.games.cards.screens.hand import undo
from kiosk.games.cards.screens.parts import Host
from kiosk.games.cards.screens.seats import player_rgb
from kiosk.ui.kit.contrast import text_shade
from kiosk.ui.kit import typeface
from kiosk.ui.kit.layout import Rect
from kiosk.ui.kit.menu import GO
from kiosk.ui.kit.widgets import DIM, INK, PANEL, Button, Frame, Widget, box, label

ORDER = 40  # the sheet's drawing groups start here (above everything of the table)
SHADE = (8, 10, 14, 205)  # over the table while the sheet is up


@dataclass
class LastTurn:
    """What the previous player did: the card laid (as laid) and the cards taken, or the card discarded."""

    player: int
    card: int | None = None
    rotation: int = 0
    taken: tuple[int, ...] = ()
    discarded: int | None = None


class Sheet:
    """The sheet for the current player (``build``)."""

    def __init__(self, host: Host) -> None:
        self.host = host

    def build(self, last: LastTurn | None) -> None:
        m, L, batch, parts = self.host.model, self.host.layout, self.host.batch, self.host.parts
        p = m.current
        top, over = pyglet.graphics.Group(order=ORDER), pyglet.graphics.Group(order=ORDER + 1)
        parts.add(shapes.Rectangle(0, 0, L.width, L.height, color=SHADE, batch=batch, group=top))
        w = min(L.width - L.px(40), L.px(580))
        who = m.undo_player
        undo_h = max(L.touch, L.px(50)) if who is not None and who != p else 0
        # the Undo of who just played, on the sheet's edge nearest them: its top row when they sit across
        # from the next person, beside the ready button when they sit on the same side
        beside = bool(undo_h) and who is not None and self.host.facing(who) == self.host.facing(p)
        undo_row = undo_h + L.px(10) if undo_h and not beside else 0
        room = undo_h + L.px(10) if undo_h else 0  # (with the last turn shown, its picture gives the room)
        h = min(L.height - L.px(20), L.px(380) if last else L.px(240) + room)
        frame = Frame(Rect((L.width - w) / 2, (L.height - h) / 2, w, h), self.host.facing(p))
        rgb = player_rgb(p)
        parts.add(box(frame, frame.full().grow(L.px(3)), rgb, batch, top, radius=L.px(16)))
        parts.add(box(frame, frame.full(), PANEL, batch, over, radius=L.px(14)))
        fg = pyglet.graphics.Group(order=42)
        pad = L.px(16)
        head = label(
            self.host.t("cards.pass_to", player=self.host.player_name(p)),
            frame,
            w / 2,
            h - L.px(12) - undo_row,
            L.font(typeface.HEADLINE),
            batch,
            fg,
            color=text_shade(rgb),
            bold=True,
            role="headline",
            name="pass_to",
            anchor_y="top",
            width=w - 2 * pad,
            multiline=True,
        )
        parts.add(head)
        bw = min(w - 2 * pad, L.px(220)) if not beside else w - 2 * pad - L.px(260) - L.px(12)
        left = self.host.facing(p) == 0  # the sheet's own left is the screen's left (away from the hand column)
        ready_x = w - pad - L.px(260) if left else pad
        btn_h = L.px(56)
        ready = Rect(w / 2 - L.px(130) if not beside else ready_x, L.px(12), L.px(260), btn_h)
        floor = self._ready(frame, ready, fg)
        if last is not None:
            ceiling = h - L.px(12) - undo_row - head.content_height - L.px(8)
            self._last_turn(frame, last, Rect(pad, floor, w - 2 * pad, ceiling - floor), fg)
        # the whole screen answers while the sheet is up (a tap anywhere hands over); on top of it, the
        # Undo of the person who just played, in the sheet's top row, turned to them
        parts.touch(Widget(L.screen, on_tap=lambda: self.host.post(HandOver())))
        if undo_h and who is not None:
            ux = pad if left else w - pad - bw  # the screen's left half: away from the hand column
            uy = h - L.px(10) - undo_h if not beside else L.px(12) + (L.px(56) - undo_h) / 2
            undo(self.host, frame.area(Rect(ux, uy, bw, undo_h)), who, pyglet.graphics.Group(order=43), quiet=True)

    def _ready(self, frame: Frame, rect: Rect, fg: Any) -> float:
        """The ready button at `rect` of the sheet and the hint above it; returns where the hint ends."""
        L, batch, parts = self.host.layout, self.host.batch, self.host.parts
        b = Button(
            frame,
            rect,
            self.host.t("cards.ready"),
            batch,
            fg,
            font_size=L.font(typeface.LABEL + 2),
            min_size=L.touch,
            color=GO,
            on_tap=lambda: self.host.post(HandOver()),
        )
        parts.add(b)
        pad = L.px(16)
        hint = label(
            self.host.t("cards.hidden"),
            frame,
            frame.w / 2,
            rect.top + L.px(8),
            L.font(typeface.BODY),
            batch,
            fg,
            color=DIM,
            anchor_y="bottom",
            width=frame.w - 2 * pad,
            multiline=True,
            name="hidden",
        )
        parts.add(hint)
        return float(rect.top + L.px(8) + hint.content_height + L.px(8))

    def _last_turn(self, frame: Frame, last: LastTurn, area: Rect, group: Any) -> None:
        """What the previous player did, in `area` of the sheet: the card laid (as laid), the cards taken."""
        L = self.host.layout
        if area.h < L.px(24):
            return
        who = self.host.player_name(last.player)
        size = min(area.h, L.px(100))
        if last.card is not None:
            line1 = self.host.t("cards.last_laid", player=who)
            picture = (last.card, last.rotation)
            taken = last.taken
            line2 = self.host.t("cards.last_took", n=len(taken)) if taken else self.host.t("cards.last_took_none")
        else:
            line1 = self.host.t("cards.last_discarded", player=who)
            picture = (last.discarded if last.discarded is not None else 0, 0)
            taken, line2 = (), ""
        tu = area.x + size + L.px(12)
        text_w = area.right - tu
        v = area.top
        for k, line in enumerate((line1, line2)):
            if not line:
                continue
            lab = label(
                line,
                frame,
                tu,
                v,
                L.font(typeface.BODY),
                self.host.batch,
                group,
                color=INK,
                anchor_x="left",
                anchor_y="top",
                width=text_w,
                multiline=True,
                align="left",
                bold=k == 0,
                container=frame.area(area),
                name="last_turn",
            )
            self.host.parts.add(lab)
            v -= lab.content_height + L.px(4)
        self._card(frame, picture[0], picture[1], area.x + size / 2, area.top - size / 2, size, group)
        small = min(L.px(56), v - area.y, text_w / max(1, min(len(taken), 5)) - L.px(4)) if taken else 0
        if small <= 0:
            return
        for k, card in enumerate(taken[:5]):
            self._card(frame, card, 0, tu + small / 2 + k * (small + L.px(4)), v - small / 2, small, group)

    def _card(self, frame: Frame, card: int, turns: int, u: float, v: float, px: float, group: Any) -> None:
        """Card `card` turned `turns` quarters, `px` wide, centred at (u, v) of the sheet."""
        atlas = self.host.card_atlas()
        x, y = frame.point(u, v)
        sprite = pyglet.sprite.Sprite(atlas.face(card), x, y, batch=self.host.batch, group=group)
        sprite.scale = px / atlas.px
        sprite.rotation = 90 * turns + frame.angle
        self.host.parts.add(sprite)
