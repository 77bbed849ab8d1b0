"""One player's panel at their corner of the screen, turned to face them on a tabletop.

Always: colour, pawn shape, cards left, treasures found (as small icons).
On that player's turn it grows the controls: the prompt, the spare tile (tap
to turn it), the press-and-hold "peek" at the secret target (or, with open
cards, all their cards), the hint button and, in the move phase, "stay".

The panel is rebuilt only when what it shows changes (the play screen compares
a small signature every frame), never redrawn shape by shape per frame.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Callable

import pyglet
from pyglet import shapes

from .art import COLOR_NAMES, SEAT_COLORS
from .layout import MIN_TOUCH, Rect
from .menu import fit_font
from .widgets import ACCENT, DIM, INK, PANEL, PANEL_EDGE, Button, Frame, Widget, box, fit_width, label


@dataclass(frozen=True)
class PanelState:
    """Everything a panel shows; equal states draw the same picture."""

    seat: int
    player: int
    kind: str
    cards_left: int
    found: tuple[str, ...]
    active: bool
    phase: str
    spare: tuple[str, str | None] | None     # (openings, treasure) as shown now
    peek: bool
    cards: tuple[str, ...]                   # what the player may see now (peek / open cards)
    open_cards: bool
    heading_home: bool
    hints: bool
    prompt: str
    toast: str


class PlayerPanel:
    """Draws a PanelState into a batch; ``widgets`` are the tappable parts."""

    def __init__(self, ui: Any, batch, group, frame: Frame, *, on_rotate: Callable[[], None],
                 on_peek: Callable[[bool], None], on_peek_tap: Callable[[], None],
                 on_hint: Callable[[], None], on_stay: Callable[[], None]):
        self.ui = ui
        self.batch = batch
        self.group = group
        self.fg = pyglet.graphics.Group(order=1, parent=group)
        self.top = pyglet.graphics.Group(order=2, parent=group)
        self.frame = frame
        self.callbacks = dict(rotate=on_rotate, peek=on_peek, peek_tap=on_peek_tap, hint=on_hint, stay=on_stay)
        self.items: list = []
        self.widgets: list[Widget] = []
        self.state: PanelState | None = None

    def delete(self) -> None:
        for it in self.items:
            it.delete()
        for w in self.widgets:
            w.delete()
        self.items, self.widgets = [], []

    def show(self, state: PanelState) -> None:
        if state == self.state:
            return
        self.state = state
        self.delete()
        self._build(state)

    # ------------------------------------------------------------------ drawing
    def _sprite(self, region, u: float, v: float, size: float, group=None, turn: bool = True):
        """An atlas drawing at local (u, v); `turn` False keeps it aligned with the board (tiles)."""
        x, y = self.frame.point(u, v)
        s = pyglet.sprite.Sprite(region, x, y, batch=self.batch, group=group or self.fg)
        s.scale = size / self.ui.atlas.px
        s.rotation = self.frame.angle if turn else 0
        self.items.append(s)
        return s

    def _text(self, text, u, v, px, **kw):
        lab = label(text, self.frame, u, v, self.ui.layout.font(px), self.batch, kw.pop("group", self.fg), **kw)
        self.items.append(lab)
        return lab

    def _build(self, st: PanelState) -> None:
        L = self.ui.layout
        f = self.frame
        W, H = f.w, f.h
        atlas = self.ui.atlas
        color = SEAT_COLORS[st.seat]
        pad = L.px(6)
        edge = color if st.active else PANEL_EDGE
        self.items.append(box(f, Rect(0, 0, W, H), edge, self.batch, self.group, radius=L.px(10)))
        t = L.px(4) if st.active else L.px(2)
        self.items.append(box(f, Rect(t, t, W - 2 * t, H - 2 * t), (46, 54, 68) if st.active else PANEL,
                              self.batch, self.group, radius=L.px(8)))
        # header: pawn + colour name
        head = min(H * 0.16, L.px(40))
        self._sprite(atlas.pawn(st.seat), pad + head / 2, H - pad - head / 2, head * 0.9)
        name = self.ui.t(f"colour.{COLOR_NAMES[st.seat]}")
        name_color = color if st.seat != 3 else (120, 170, 255)
        if st.kind != "human":
            self._text(name, pad * 2 + head, H - pad - head * 0.3, 14, anchor_x="left", bold=True, color=name_color)
            self._text(self.ui.t("setup.computer"), pad * 2 + head, H - pad - head * 0.78, 10, anchor_x="left",
                       color=DIM)
        else:
            self._text(name, pad * 2 + head, H - pad - head / 2, 15, anchor_x="left", bold=True, color=name_color)
        # stats, one per line (long words in some languages)
        y = H - pad - head - L.px(10)
        wide = W > H * 1.15          # portrait screens: panels are wide and short, the controls on the right
        room = (W * 0.40 if wide and st.active else W) - 2 * pad
        fit_width(self._text(self.ui.t('play.cards_left', n=st.cards_left), pad, y, 11, anchor_x="left",
                             color=INK), room)
        y -= L.px(15)
        fit_width(self._text(self.ui.t('play.found', n=len(st.found)), pad, y, 11, anchor_x="left", color=INK),
                  room)
        # found treasures, small
        icon = min(L.px(22), (W - 2 * pad) / max(6, min(len(st.found), 12)))
        y -= L.px(10) + icon / 2
        per_row = max(1, int(room // icon))
        for k, treasure in enumerate(st.found[-per_row:]):
            self._sprite(atlas.treasure(treasure), pad + icon / 2 + k * icon, y, icon * 0.95)
        block_top = y - icon / 2 - L.px(4)
        if not st.active:
            if st.toast:
                self._text(st.toast, W / 2, block_top / 2, 11, width=W - 2 * pad, multiline=True, color=ACCENT)
            return
        if wide:
            self._build_active(st, Rect(W * 0.40, 0, W * 0.60, H), H - pad, pad)
        else:
            self._build_active(st, Rect(0, 0, W, H), block_top, pad)

    def _build_active(self, st: PanelState, region: Rect, top: float, pad: float) -> None:
        L = self.ui.layout
        f = self.frame
        W = region.w
        atlas = self.ui.atlas
        # the prompt (or a refusal), at most three lines
        text = st.toast or st.prompt
        if text:
            self._text(text, region.x + W / 2, top - L.px(2), 11, width=W - 2 * pad, multiline=True,
                       color=ACCENT if st.toast else INK, anchor_y="top")
        area_top = top - L.px(44)
        area = Rect(region.x + pad, pad, W - 2 * pad, max(10.0, area_top - pad))
        human = st.kind == "human"
        btn_h = max(L.touch, min(area.h / 2 - L.px(3), L.px(56)))
        # two columns: the spare (or stay) left, the peek over the hint right; where the two do not fit
        # above each other (a short panel on a small screen) spare, peek and hint share one row
        hint = human and st.hints and st.phase == "shift" and not st.peek
        stacked = area.h >= 2 * btn_h + L.px(6)
        least = L.touch
        if hint and not stacked:
            # a finger's width (48 px) each, which the screen's scaled touch size would not leave room for
            least = MIN_TOUCH
            col = max(least, (area.w - 2 * L.px(4)) / 3)
            gap = max(0.0, min(L.px(4), (area.w - 3 * col) / 2))
            ru, peek_w = area.x + col + gap, col
        else:
            col = area.w / 2 - L.px(3)
            gap = L.px(6)
            ru, peek_w = area.x + area.w / 2 + L.px(3), col
        # left: the spare (tap to turn) in the shift phase
        spare_size = max(least, min(col, area.h - L.px(16)))
        if st.spare and st.phase == "shift":
            cu, cv = area.x + col / 2, area.y + area.h - spare_size / 2 - L.px(2)
            openings, treasure = st.spare
            self._sprite(atlas.tile(openings), cu, cv, spare_size, turn=False)
            if treasure:
                self._sprite(atlas.treasure(treasure), cu, cv, spare_size * 0.56)
            if human:
                w = Widget(f.area(Rect(cu - spare_size / 2, cv - spare_size / 2, spare_size, spare_size)),
                           self.callbacks["rotate"])
                self.widgets.append(w)
                # a turning-arrow badge says "tap to turn"
                bu, bv = cu + spare_size / 2 - L.px(9), cv + spare_size / 2 - L.px(9)
                x, y = f.point(bu, bv)
                self.items.append(shapes.Circle(x, y, L.px(11), color=ACCENT, batch=self.batch, group=self.top))
                self._text("↻", bu, bv, 15, group=pyglet.graphics.Group(order=3, parent=self.group),
                           color=(30, 30, 30), bold=True)
                self._text(self.ui.t("play.rotate"), cu, area.y + L.px(6), 11, color=DIM)
        elif st.phase == "move" and human:
            b = Button(f, Rect(area.x, area.y + area.h - btn_h, col, btn_h), self.ui.t("play.stay"),
                       self.batch, self.fg, font_size=L.font(14), on_tap=self.callbacks["stay"], min_size=L.touch)
            self.widgets.append(b)
        if not human:
            return
        # right: peek (hold) / open cards, then the hint (under it, or beside it in one row)
        if st.open_cards and st.cards:
            below = btn_h + L.px(6) if st.hints and stacked else 0
            self._cards(st.cards, Rect(ru, area.y + below, peek_w, area.h - below))
        elif st.peek:
            self._peek(st, Rect(ru, area.y, col, area.h))
        else:
            b = Button(f, Rect(ru, area.y + area.h - btn_h, peek_w, btn_h), "", self.batch, self.fg,
                       on_tap=self.callbacks["peek_tap"], on_hold=self.callbacks["peek"], min_size=least,
                       color=(90, 70, 140))
            self.widgets.append(b)
            # an eye icon: lens + pupil, plus the word where it fits inside the button (else the eye alone)
            word = self.ui.t("play.your_target")
            cu, cv = ru + peek_w / 2, area.y + area.h - btn_h / 2
            lab = label(word, f, cu, cv - btn_h * 0.25, fit_font(word, L.font(10), peek_w - L.px(6)), self.batch,
                        self.top, bold=True, container=b.rect, name="peek")
            if lab.content_width > peek_w - L.px(4):
                lab.delete()
                eye_v = cv
            else:
                self.items.append(lab)
                eye_v = cv + btn_h * 0.12
            x, y = f.point(cu, eye_v)
            eye = min(btn_h, peek_w)
            self.items.append(shapes.Ellipse(x, y, eye * 0.28, eye * 0.15, color=(250, 250, 250),
                                             batch=self.batch, group=self.top))
            self.items.append(shapes.Circle(x, y, eye * 0.1, color=(40, 30, 70), batch=self.batch,
                                            group=self.top))
        if hint:
            self._hint_button(Rect(ru, area.y, col, btn_h) if stacked
                              else Rect(ru + peek_w + gap, area.y + area.h - btn_h, peek_w, btn_h), least)

    def _hint_button(self, rect: Rect, least: float) -> None:
        L = self.ui.layout
        text = self.ui.t("play.hint")
        b = Button(self.frame, rect, text, self.batch, self.fg, font_size=fit_font(text, L.font(13), rect.w - L.px(8)),
                   on_tap=self.callbacks["hint"], min_size=least, color=(40, 130, 120))
        self.widgets.append(b)

    def _peek(self, st: PanelState, r: Rect) -> None:
        L = self.ui.layout
        atlas = self.ui.atlas
        self.items.append(box(self.frame, r, (250, 246, 232), self.batch, self.fg, radius=L.px(8)))
        size = min(r.w, r.h - L.px(18)) * 0.9
        cu, cv = r.x + r.w / 2, r.y + L.px(16) + (r.h - L.px(16)) / 2
        if st.cards:
            self._sprite(atlas.treasure(st.cards[0]), cu, cv, size, group=self.top)
            caption = self.ui.t(f"treasure.{st.cards[0]}")
        else:
            self._sprite(atlas.pawn(st.seat), cu, cv, size * 0.6, group=self.top)
            caption = self.ui.t("play.going_home")
        self._text(caption, cu, r.y + L.px(10), 11, color=(30, 30, 30), bold=True, group=self.top)
        # the whole area keeps the hold (letting go anywhere on it hides the target)
        w = Widget(self.frame.area(r))
        w.press = lambda: self.callbacks["peek"](True)
        w.release = lambda: self.callbacks["peek"](False)
        self.widgets.append(w)

    def _cards(self, cards: tuple[str, ...], r: Rect) -> None:
        atlas = self.ui.atlas
        n = len(cards)
        cols = max(1, math.ceil(math.sqrt(n * r.w / max(1.0, r.h))))
        rows = math.ceil(n / cols)
        size = min(r.w / cols, r.h / rows)
        for k, treasure in enumerate(cards):
            cu = r.x + size / 2 + (k % cols) * size
            cv = r.y + r.h - size / 2 - (k // cols) * size
            self._sprite(atlas.treasure(treasure), cu, cv, size * 0.94)
