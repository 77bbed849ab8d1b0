"""One player's panel at their corner of the screen, turned to face them on a tabletop.

Always: colour, pawn shape, cards left, treasures found (as small icons).
On that player's turn it grows the controls: the prompt, the spare tile (tap
to turn it), the press-and-hold "peek" at the secret target (or, with open
cards, all their cards), the hint button and, in the move phase, "stay".

The panel is rebuilt only when what it shows changes (the play screen compares
a small signature every frame), never redrawn shape by shape per frame. Its texts
are drawn once (kiosk/ui/kit/text_cache.py): a rebuild places sprites of texts
drawn before instead of laying them out again.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Callable

import pyglet
from pyglet import shapes

from engine.labyrinth.parts import Phase
from kiosk.games import HUMAN
from kiosk.ui.kit.contrast import text_shade
from kiosk.ui.art import COLOR_NAMES, SEAT_COLORS
from kiosk.ui.art.seat_symbols import seat_token
from kiosk.ui.kit import typeface
from kiosk.ui.kit.layout import MIN_TOUCH, Layout, Rect
from kiosk.ui.kit.menu import GO, measure, undo_button
from kiosk.ui.overlays.turn_cue import draw_band
from kiosk.ui.kit.widgets import (
    ACCENT,
    DIM,
    INK,
    PANEL,
    PANEL_EDGE,
    BUTTON_TEXT_MARGIN,
    Button,
    Frame,
    Widget,
    box,
    edge_of,
    label,
    note_picture,
)


CARD_BACK = (90, 70, 140)  # a treasure card face down (the secret target, the cards left): violet
CARD_FACE = (250, 246, 232)  # and face up: ivory
ACTIVE_TRAY = (84, 62, 46)  # the tray of the player whose turn it is: lighter wood (docs/art.md)
HELD_SHADOW = 0.06  # a held tile's or card's shadow falls this part of its side away from it


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
    spare: tuple[str, str | None] | None  # (openings, treasure) as shown now
    peek: bool
    cards: tuple[str, ...]  # what the player may see now (peek / open cards)
    open_cards: bool
    heading_home: bool
    hints: bool
    prompt: str
    toast: str
    step: str = ""  # "push" / "move": the instruction's icon
    pending: bool = False  # a destination is chosen: the stay button confirms it
    undo: bool = False  # this player can take their push or walk back: the Undo button shows
    cue: str = ""  # "<colour>'s turn" over the header until the first touch (kiosk/ui/overlays/turn_cue.py)


#: the icon before each step's instruction: two arrows (tap an arrow twice), a pointing finger
STEP_ICONS = {"push": "\u25b6\u25b6", "move": "\u261d"}
#: the eye button's words on two lines (a long translation): line distance in text heights
EYE_LINES = 1.2
#: the spare's side the instruction makes room for, where the panel is that wide (design units): its
#: paths read from the seat (the least, ``typeface.SPARE``, is what no text may push it under)
SPARE_READS = 88
#: design units: a computer's Join button (kiosk/ui/overlays/seats.py) at its panel's outer end, this far
#: from the edge and this tall at least (a finger at least): its panel's spare stays clear of it
JOIN_PAD, JOIN_H = 8, 44
INDENT_NBSP = 7  # no-break spaces that keep the icon's place on the instruction's first line
#: design units the panel's texts keep from its edge beyond the controls' padding: a wrapped line
#: does not touch the tray's rim
TEXT_INSET = 4


class PlayerPanel:
    """Draws a PanelState into a batch; ``widgets`` are the tappable parts."""

    def __init__(
        self,
        ui: Any,
        batch,
        group,
        frame: Frame,
        *,
        on_rotate: Callable[[], None],
        on_peek: Callable[[bool], None],
        on_peek_tap: Callable[[], None],
        on_hint: Callable[[], None],
        on_stay: Callable[[], None],
        on_undo: Callable[[], None] = lambda: None,
    ):
        self.ui = ui
        self.batch = batch
        self.group = group
        self.under = pyglet.graphics.Group(order=0, parent=group)  # on the tray, under what lies in it
        self.fg = pyglet.graphics.Group(order=1, parent=group)
        self.top = pyglet.graphics.Group(order=2, parent=group)
        self.frame = frame
        self.callbacks: dict[str, Callable[..., None]] = dict(
            rotate=on_rotate, peek=on_peek, peek_tap=on_peek_tap, hint=on_hint, stay=on_stay, undo=on_undo
        )
        self.items: list = []
        self.texts: list[Any] = []  # sprites of texts drawn once (kiosk/ui/kit/text_cache.py)
        self.widgets: list[Widget] = []
        self.state: PanelState | None = None
        self.cue_area: Rect | None = None  # where the turn cue lies on the screen, while it does
        self.cue_label: Any = None
        #: the spare's and the hint's screen boxes as last built (None: not shown), for the layout audit
        self.spare_box: Rect | None = None
        self.hint_box: Rect | None = None

    def delete(self) -> None:
        for it in self.items + self.texts:
            it.delete()
        for w in self.widgets:
            w.delete()
        self.items, self.texts, self.widgets = [], [], []
        self.cue_area = self.cue_label = None
        self.spare_box = self.hint_box = None

    def show(self, state: PanelState) -> None:
        if state == self.state:
            return
        self.state = state
        self.delete()
        self._build(state)

    # ------------------------------------------------------------------ drawing
    def _sprite(self, region, u: float, v: float, size: float, group=None, turn: bool = True, picture: tuple = ()):
        """An atlas drawing at local (u, v); `turn` False keeps it aligned with the board (tiles);
        `picture` (kind, treasure): a treasure picture the layout audit measures."""
        x, y = self.frame.point(u, v)
        s = pyglet.sprite.Sprite(region, x, y, batch=self.batch, group=group or self.fg)
        s.scale = size / self.ui.atlas.px
        s.rotation = self.frame.angle if turn else 0
        self.items.append(s)
        if picture:
            note_picture(s, picture[0], picture[1], size)
        return s

    def _shadow(self, local: Rect, radius: float) -> None:
        """The shadow a tile or card held in the tray casts on it: down and right on the screen whichever
        way the panel faces (the light of docs/art.md comes from the screen's top-left)."""
        r = self.frame.area(local)
        d = max(2.0, min(r.w, r.h) * HELD_SHADOW)
        self.items.append(
            box(
                Frame(Rect(r.x + d * 0.7, r.y - d, r.w, r.h)),
                Rect(0, 0, r.w, r.h),
                (0, 0, 0, 120),
                self.batch,
                self.under,
                radius,
            )
        )

    def _text(self, text, u, v, px, fit: float | None = None, **kw):
        """A text `px` tall (the type scale, kiosk/ui/kit/typeface.py); `fit`: narrowed to that width if it
        must, measured as laid out, never below the body size (a title may give up its extra size)."""
        L = self.ui.layout
        lab = label(text, self.frame, u, v, L.font(px), self.batch, kw.pop("group", self.fg), **kw)
        if fit is not None and lab.content_width > fit:
            lab.font_size = max(L.font(min(px, typeface.BODY)), lab.font_size * fit / lab.content_width)
        self.texts.append(lab)
        return lab

    def _build(self, st: PanelState) -> None:
        """Lay `st` out."""
        L = self.ui.layout
        f = self.frame
        W, H = f.w, f.h
        atlas = self.ui.atlas
        color = SEAT_COLORS[st.seat]
        pad = L.px(6)
        edge = color if st.active else PANEL_EDGE
        self.items.append(box(f, Rect(0, 0, W, H), edge, self.batch, self.group, radius=L.px(10)))
        t = L.px(4) if st.active else L.px(2)
        self.items.append(
            box(
                f,
                Rect(t, t, W - 2 * t, H - 2 * t),
                ACTIVE_TRAY if st.active else PANEL,
                self.batch,
                self.group,
                radius=L.px(8),
            )
        )
        on_top = pyglet.graphics.Group(order=1, parent=self.top)  # over the turn cue
        self.items += seat_token(f, W - L.px(12), H - L.px(12), L.px(9), st.seat, self.batch, on_top, outline=True)
        # header: pawn + colour name (+ "computer"); under the turn cue, only its room
        head = L.px(typeface.TITLE + 12)
        cued = bool(st.cue)
        if not cued:
            self._sprite(atlas.pawn(st.seat), pad + head / 2, H - pad - head / 2, head * 0.9)
            name = self.ui.t(f"colour.{COLOR_NAMES[st.seat]}")
            self._text(
                name,
                pad * 2 + head,
                H - pad - head / 2,
                typeface.TITLE,
                anchor_x="left",
                bold=True,
                color=text_shade(color),
                fit=W - 3 * pad - head - L.px(TEXT_INSET),
            )
        y = H - pad - head - L.px(16)
        if st.kind != HUMAN:  # a computer's panel says so under its name
            inset = pad + L.px(TEXT_INSET)
            self._text(
                self.ui.t("setup.computer"), inset, y, typeface.BODY, anchor_x="left", color=DIM, fit=W - 2 * inset
            )
            y -= L.px(typeface.BODY * 1.4)
        # cards left (a card with its number) and the treasures found, one row, no words
        cw, ch = L.px(15), L.px(21)
        icon = L.px(typeface.PICTURE)  # the treasures found: the latest that fit, "+n" for the others
        if not cued:
            self._counts(st, y, cw, ch, icon, pad)
        block_top = y - max(ch, icon if st.found else ch) / 2 - L.px(6)
        wide = W > H * 1.15  # portrait screens: panels are wide and short
        if cued:  # "<colour>'s turn" over the head of the panel, until the first touch
            local = Rect(t, block_top + L.px(2), (W * 0.40 if wide else W) - 2 * t, H - t - block_top - L.px(2))
            shapes_, self.cue_label = draw_band(L, f, local, st.cue, color, self.batch, self.top)
            self.items.extend(shapes_)
            self.texts.append(self.cue_label)
            self.cue_area = f.area(local)
        if not st.active:
            if st.undo and block_top - pad >= L.touch:  # the walk just made can still be taken back
                # quiet: it is the next player's turn, whose own buttons are the loud ones; the
                # edge in this seat's colour says whose move it takes back
                self._undo_button(Rect(pad, pad, W - 2 * pad, L.touch), quiet=text_shade(color))
                block_top = pad + L.touch
            if st.toast:
                self._text(
                    st.toast,
                    W / 2,
                    block_top / 2,
                    typeface.BODY,
                    width=W - 2 * (pad + L.px(TEXT_INSET)),
                    multiline=True,
                    color=ACCENT,
                )
            return
        if wide:  # the stay button under the header, where the left column is free
            stay = Rect(pad, pad, W * 0.40 - 2 * pad, L.touch)
            self._build_active(
                st,
                Rect(W * 0.40, 0, W * 0.60, H),
                H - pad,
                pad,
                stay_at=stay if block_top - pad >= stay.top else None,
                aside_h=block_top - 2 * pad,
            )
        else:
            self._build_active(st, Rect(0, 0, W, H), block_top, pad)

    def _counts(self, st: PanelState, y: float, cw: float, ch: float, icon: float, pad: float) -> None:
        """The cards left (a card with its number) and the treasures found, in one row at `y`, no words."""
        L = self.ui.layout
        f, W, atlas = self.frame, self.frame.w, self.ui.atlas
        # a little pile of cards face down, as the target card's (an ivory border round the violet
        # back, a gold emblem): a plain ivory rectangle read as a missing letter; the card behind
        # shows only while more than one is left
        dx = L.px(3) if st.cards_left > 1 else 0
        front = Rect(pad, y - ch / 2, cw, ch)
        if dx:
            behind = Rect(front.x + dx, front.y + dx, cw, ch)
            self.items.append(box(f, behind, edge_of(CARD_FACE), self.batch, self.fg, radius=L.px(3)))
        self.items.append(box(f, front, CARD_FACE, self.batch, self.fg, radius=L.px(3)))
        self.items.append(box(f, front.inset(L.px(2)), CARD_BACK, self.batch, self.fg, radius=L.px(2)))
        dot = cw * 0.36
        emblem = Rect(front.cx - dot / 2, front.cy - dot / 2, dot, dot)
        self.items.append(box(f, emblem, ACCENT, self.batch, self.fg, radius=dot / 2))
        self._text(str(st.cards_left), pad + cw + dx + L.px(4), y, typeface.BODY, anchor_x="left", bold=True)
        x0 = pad + cw + L.px(30)
        per_row = max(1, int((W - x0 - pad) // icon))
        shown = st.found[-per_row:]
        if len(st.found) > per_row and per_row > 1:
            shown = st.found[-(per_row - 1) :]
            self._text(f"+{len(st.found) - len(shown)}", x0 + icon / 2, y, typeface.BODY, bold=True, color=DIM)
            x0 += icon
        for k, treasure in enumerate(shown):
            self._sprite(atlas.treasure(treasure), x0 + icon / 2 + k * icon, y, icon, picture=("found", treasure))

    def _instruction(self, st: PanelState, u: float, top: float, w: float, room: float | None = None) -> float:
        """The step's one-line instruction with its icon (or a refusal); returns the y below it.

        `room`: the most height it may take (a long refusal in a short panel is set smaller rather
        than pushed onto the buttons under it)."""
        L = self.ui.layout
        text = st.toast or st.prompt
        if not text:
            return top
        icon = STEP_ICONS.get(st.step, "") if not st.toast else "!"
        if icon:
            text = "\u00a0" * INDENT_NBSP + text
        # the prompt larger where the panel has the room for it (read from across the table), else the body size
        size = typeface.PROMPT if room is not None else typeface.BODY
        lab = self._prompt_text(st, text, u, top, w, size, room)
        too_big = lab.content_height > room - L.px(4) or lab.content_width > w + 0.5 if room is not None else False
        if size != typeface.BODY and too_big:  # (too wide: a first word longer than the line)
            self.texts.remove(lab)
            lab.delete()
            size = typeface.BODY
            lab = self._prompt_text(st, text, u, top, w, size, room)
        if icon:  # the icon sits where the first line starts; the text wraps under it at full width
            self._text(icon, u + L.px(size * 0.7), top - L.px(size * 0.75), size, color=ACCENT, bold=True)
        for _ in range(3):
            if room is None or lab.content_height <= room - L.px(4):
                break
            least = L.font(typeface.BODY)  # never under the body size: past it, a shorter translation
            if lab.font_size <= least + 0.01:
                break
            shrink = max(0.7, (room - L.px(4)) / lab.content_height, least / lab.font_size)
            lab.begin_update()
            lab.font_size *= shrink
            lab.set_style("line_spacing", lab.get_style("line_spacing") * shrink)
            lab.end_update()
        return top - max(lab.content_height, L.px(size * 1.3)) - L.px(4)

    def _prompt_text(
        self, st: PanelState, text: str, u: float, top: float, w: float, size: float, room: float | None
    ) -> Any:
        """The instruction (or refusal) `size` px tall, wrapped to `w`, from `top` down."""
        L = self.ui.layout
        return self._text(
            text,
            u,
            top,
            size,
            width=w,
            multiline=True,
            align="left",
            anchor_x="left",
            color=ACCENT if st.toast else INK,
            anchor_y="top",
            line_spacing=L.px(size * 1.3),
        )

    def _build_active(
        self, st: PanelState, region: Rect, top: float, pad: float, stay_at: Rect | None = None, aside_h: float = 0
    ) -> None:
        """The controls of the person whose turn it is in `region`; `stay_at`: the stay button's place
        when it is not under the others (a wide panel's left column, `aside_h` tall), where the eye goes
        in the shift phase when it fits: the spare keeps the room under the instruction."""
        L = self.ui.layout
        f = self.frame
        W = region.w
        human = st.kind == HUMAN
        gap = L.px(4)
        btn_h = L.touch
        least = self.spare_least(st)
        hint_below, (eye_at, eye_w, eye_h) = self._hint_and_eye(st, region, pad, stay_at if least else None, aside_h)
        undo_row, rows_below = self._rows(st, stay_at.w if stay_at is not None else W - 2 * pad, stay_at is None)
        floor = pad if human else sum(join_row(L)) + gap  # a computer's outer end is its Join's
        if eye_at is not None:  # the eye's row is beside, not under
            rows_below -= 1
        under = eye_h - btn_h if (human and eye_at is None) else 0  # the eye's extra height under the spare
        beside = btn_h + gap if self.hint_shown(st) and not hint_below else 0
        want = max(least, min(L.px(SPARE_READS), W - 2 * pad - beside)) if least else 0
        needed = rows_below * (btn_h + gap) + under + (want + gap if want else 0) + floor - pad
        if not (st.open_cards and st.peek):  # (all the open cards held: they take the instruction's room too)
            inset = L.px(TEXT_INSET)
            top = self._instruction(st, region.x + pad + inset, top, W - 2 * (pad + inset), room=top - pad - needed)
        area = Rect(region.x + pad, floor, W - 2 * pad, max(10.0, top - floor))
        spare_room = area.h - rows_below * (btn_h + gap) - under
        if spare_room < least:  # a long refusal: the eye makes way for the spare, the hint goes beside it
            hint_below = False
        # the spare (tap to turn) in the shift phase, with the hint beside it or under it: never under its
        # least size, a long instruction or refusal is set smaller (down to the body size) to leave it that room
        if least and st.spare:  # (least: there is a spare to show)
            self._spare(
                st,
                area,
                min(spare_room, area.w),
                least,
                Rect(area.right - btn_h, area.y, btn_h, eye_h) if hint_below else None,
            )
        if not human:
            return
        if hint_below:  # the eye's row: its room left of the hint
            area = Rect(area.x, area.y, area.w - btn_h - gap, area.h)
        v = area.y
        if st.phase == Phase.MOVE:
            v = self._move_rows(st, area, stay_at, undo_row)
        # the secret target: hold the eye (open cards: all of them; those that do not fit under the
        # spare while the row is held, where the spare was)
        if st.open_cards and st.cards:
            whole = st.phase == Phase.MOVE or st.peek
            self._cards(st.cards, Rect(area.x, v, area.w, area.top - v if whole else btn_h), held=st.peek)
            return
        if st.peek:
            self._peek(st, Rect(area.x, v, area.w, max(btn_h, area.top - v)))
            return
        if st.toast and eye_at is None and least and st.spare and spare_room < least:
            return  # a long refusal leaves no room for both: the spare stays, the eye is back when it goes
        eye = Rect(area.x, v, area.w, eye_h) if eye_at is None else Rect(eye_at.x, eye_at.y, eye_at.w, eye_h)
        b = Button(
            f,
            eye,
            "",
            self.batch,
            self.fg,
            on_tap=self.callbacks["peek_tap"],
            on_hold=self.callbacks["peek"],
            min_size=L.touch,
            color=CARD_BACK,
        )
        self.widgets.append(b)
        eu, ev = eye.x + btn_h * 0.4, eye.y + eye_h / 2  # an eye: lens + pupil, then the words
        x, y = f.point(eu, ev)
        self.items.append(
            shapes.Ellipse(x, y, btn_h * 0.3, btn_h * 0.17, color=(250, 250, 250), batch=self.batch, group=self.top)
        )
        self.items.append(shapes.Circle(x, y, btn_h * 0.11, color=(40, 30, 70), batch=self.batch, group=self.top))
        self._text(
            self.ui.t("play.your_target"),
            eu + btn_h * 0.4,
            ev,
            typeface.LABEL,
            group=self.top,
            bold=True,
            anchor_x="left",
            width=eye_w,
            multiline=True,
            align="left",
            name="peek",
            container=f.area(eye),
            line_spacing=L.px(typeface.LABEL * EYE_LINES),
        )

    def _spare(self, st: PanelState, area: Rect, room: float, least: float, hint_at: Rect | None) -> None:
        """The spare `room` px at most (never under `least`) at the top of `area`, tap to turn, and the
        hint button beside it at the top right, or at `hint_at` (the end of the eye's row)."""
        assert st.spare is not None
        L = self.ui.layout
        f = self.frame
        atlas = self.ui.atlas
        btn_h, gap = L.touch, L.px(4)
        hint_w = btn_h if self.hint_shown(st) and hint_at is None else 0
        spare_size = max(least, min(area.w - hint_w - gap, room))
        cu, cv = (area.cx if not hint_w else area.x + spare_size / 2), area.top - spare_size / 2
        tile = Rect(cu - spare_size / 2, cv - spare_size / 2, spare_size, spare_size)
        openings, treasure = st.spare
        self._shadow(tile, spare_size * 0.04)
        self._sprite(atlas.tile_face(openings), cu, cv, spare_size, turn=False)  # no path past its edge
        self.spare_box = f.area(tile)
        if treasure:
            self._sprite(atlas.treasure(treasure), cu, cv, spare_size * typeface.SPARE_TREASURE_OF_TILE)
        if st.kind == HUMAN:
            self.widgets.append(Widget(f.area(tile), self.callbacks["rotate"]))
            # a turning-arrow badge says "tap to turn"
            r = L.px(13)
            bu, bv = cu + spare_size / 2 - r, cv + spare_size / 2 - r
            x, y = f.point(bu, bv)
            self.items.append(shapes.Circle(x, y, r, color=ACCENT, batch=self.batch, group=self.top))
            self._text(
                "\u21bb",
                bu,
                bv,
                typeface.BODY,
                group=pyglet.graphics.Group(order=3, parent=self.group),
                color=(30, 30, 30),
                bold=True,
            )
        if not self.hint_shown(st):
            return
        b = Button(
            f,
            hint_at or Rect(area.right - hint_w, area.top - btn_h, hint_w, btn_h),
            "",  # a picture, not "?": "?" is "How to play" everywhere else
            self.batch,
            self.fg,
            font_size=L.font(typeface.HEADLINE),
            on_tap=self.callbacks["hint"],
            min_size=L.touch,
            color=(40, 130, 120),
        )
        self.widgets.append(b)
        self.hint_box = b.rect
        self.items += hint_bulb(f, b.local, self.batch, pyglet.graphics.Group(order=3, parent=self.group))

    def spare_least(self, st: PanelState) -> float:
        """The least side of the spare tile this panel shows (0: it shows none): ``typeface.SPARE``
        scaled, at least a finger."""
        if not (st.active and st.spare and st.phase == Phase.SHIFT and not st.peek):
            return 0
        L = self.ui.layout
        return float(max(L.touch, L.px(typeface.SPARE)))

    def hint_shown(self, st: PanelState) -> bool:
        """The hint button shows beside the spare (a person's turn, hints on)."""
        return bool(self.spare_least(st)) and st.kind == HUMAN and st.hints

    def floors(self) -> list[tuple[str, Rect | None, float]]:
        """What must show at least how large (screen box, None when missing) for the layout audit:
        the spare and the hint button, while they belong in this panel."""
        st = self.state
        if st is None or not self.spare_least(st):
            return []
        out = [("spare", self.spare_box, self.spare_least(st))]
        if self.hint_shown(st):
            out.append(("hint", self.hint_box, float(self.ui.layout.touch)))
        return out

    def _eye_place(
        self, st: PanelState, row_w: float, aside: Rect | None, aside_h: float
    ) -> tuple[Rect | None, float, float]:
        """Where the eye goes: `aside` (a wide panel's free left column, `aside_h` tall, in the shift phase)
        when its words fit there, else None (the bottom row `row_w` wide); with the words' width and the
        button's height (two lines of words in a taller button: a long translation)."""
        L = self.ui.layout
        btn_h = L.touch
        words = self.ui.t("play.your_target")
        font = L.font(typeface.LABEL)

        def height(w: float) -> float:
            if st.kind != HUMAN or st.open_cards or measure(words, font)[0] <= w:
                return float(btn_h)
            return float(max(btn_h, round(L.px(typeface.LABEL * EYE_LINES) * 2 + L.px(12))))

        if aside is not None and st.kind == HUMAN and not st.open_cards:
            w = aside.w - btn_h * 0.8 - L.px(6)
            if self._eye_words_fit(w) and height(w) <= aside_h:
                return aside, w, height(w)
        w = row_w - btn_h * 0.8 - L.px(6)
        return None, w, height(w)

    def _hint_and_eye(
        self, st: PanelState, region: Rect, pad: float, aside: Rect | None, aside_h: float
    ) -> tuple[bool, tuple[Rect | None, float, float]]:
        """Whether the hint goes under the spare, and the eye's place (``_eye_place``). A tall panel's hint
        sits at the end of the eye's row, not beside the spare: the spare takes the panel's whole width
        (where each of the eye's words still fits beside it; the open cards keep their whole row: the
        public deal's three in it)."""
        L = self.ui.layout
        row_w = region.w - 2 * pad
        eye = self._eye_place(st, row_w, aside, aside_h)
        if self.hint_shown(st) and eye[0] is None and region.h > region.w and not st.open_cards:
            narrow = self._eye_place(st, row_w - L.touch - L.px(4), None, aside_h)
            if self._eye_words_fit(narrow[1]):
                return True, narrow
        return False, eye

    def _eye_words_fit(self, w: float) -> bool:
        """Each word of the eye's caption fits `w` wide (two lines at most then)."""
        font = self.ui.layout.font(typeface.LABEL)
        return max((measure(part, font)[0] for part in self.ui.t("play.your_target").split()), default=0.0) <= w

    def _rows(self, st: PanelState, stay_w: float, stay_below: bool) -> tuple[bool, int]:
        """Whether the Undo gets a row of its own, and how many rows of buttons go under the instruction.

        While the push can be taken back the Undo sits at the stay row's end as a square, or, when
        the stay word would not fit beside it at full size, in a row of its own (with its word)."""
        human = st.kind == HUMAN
        moving = st.phase == Phase.MOVE and human
        undo_row = moving and st.undo and self._undo_beside(st, stay_w) < MIN_TOUCH
        return undo_row, (1 if human else 0) + (1 if moving and stay_below else 0) + (1 if undo_row else 0)

    def _undo_beside(self, st: PanelState, row_w: float) -> float:
        """How wide the Undo square at the end of a stay row `row_w` wide can be with the stay word still at
        full size (at most a square; under MIN_TOUCH: it does not fit there)."""
        L: Layout = self.ui.layout
        word = measure(self._stay_word(st), L.font(typeface.LABEL))[0] + BUTTON_TEXT_MARGIN
        return min(float(L.touch), row_w - L.px(4) - max(word, float(L.touch)))

    def _move_rows(self, st: PanelState, area: Rect, stay_at: Rect | None, undo_row: bool) -> float:
        """The move phase's stay button (at `stay_at`, else the bottom row of `area`) and the Undo in a row
        of its own above it when `undo_row`; returns the y above them."""
        L: Layout = self.ui.layout
        btn_h, gap, v = L.touch, L.px(4), area.y
        self._stay_row(st, stay_at or Rect(area.x, v, area.w, btn_h), gap, undo=st.undo and not undo_row)
        if stay_at is None:
            v += btn_h + gap
        if undo_row:
            self._undo_button(Rect(area.x, v, area.w, btn_h))
            v += btn_h + gap
        return v

    def _stay_word(self, st: PanelState) -> str:
        return str(self.ui.t("play.confirm_move") if st.pending else self.ui.t("play.stay"))

    def _stay_row(self, st: PanelState, row: Rect, gap: float, undo: bool = False) -> None:
        """The move phase's stay (or confirm) button at `row`; with `undo` (the push can still be taken
        back and the stay word fits beside it), a square Undo, its icon only, at its end."""
        L = self.ui.layout
        if undo:
            side = self._undo_beside(st, row.w)
            self._undo_button(Rect(row.right - side, row.y, side, row.h), icon_only=True)
            row = Rect(row.x, row.y, row.w - side - gap, row.h)
        b = Button(
            self.frame,
            row,
            self._stay_word(st),
            self.batch,
            self.fg,
            font_size=L.font(typeface.LABEL),
            on_tap=self.callbacks["stay"],
            min_size=L.touch,
            color=GO if st.pending else (64, 110, 170),
        )
        self.widgets.append(b)

    def _undo_button(self, r: Rect, icon_only: bool = False, quiet: tuple[int, int, int] | None = None) -> None:
        """The Undo button at `r` (panel coordinates), facing the panel's reader (the shared piece,
        kiosk/ui/kit/menu.py undo_button); `quiet`: the previous player's, edged in their colour."""
        b, under = undo_button(
            self.ui.layout,
            self.frame,
            r,
            self.ui.t("play.undo"),
            self.batch,
            self.fg,
            on_tap=self.callbacks["undo"],
            icon_only=icon_only,
            quiet=quiet,
            over=self.top,
        )
        self.items.extend(under)
        self.widgets.append(b)

    def _peek(self, st: PanelState, r: Rect) -> None:
        L = self.ui.layout
        atlas = self.ui.atlas
        self._shadow(r, L.px(8))
        self.items.append(box(self.frame, r, CARD_FACE, self.batch, self.fg, radius=L.px(8)))
        size = min(r.w, r.h - L.px(24)) * 0.9
        cu, cv = r.x + r.w / 2, r.y + L.px(24) + (r.h - L.px(24)) / 2
        if st.cards:
            self._sprite(atlas.treasure(st.cards[0]), cu, cv, size, group=self.top, picture=("target", st.cards[0]))
            caption = self.ui.t(f"treasure.{st.cards[0]}")
        else:
            self._sprite(atlas.pawn(st.seat), cu, cv, size * 0.6, group=self.top)
            caption = self.ui.t("play.going_home")
        self._text(
            caption,
            cu,
            r.y + L.px(1),
            typeface.BODY,
            color=(30, 30, 30),
            bold=True,
            group=self.top,
            fit=r.w - L.px(8),
            anchor_y="bottom",
        )  # its whole line inside the peek area
        # the whole area keeps the hold (letting go anywhere on it hides the target)
        w = Widget(self.frame.area(r), on_hold=self.callbacks["peek"])
        self.widgets.append(w)

    def _cards(self, cards: tuple[str, ...], r: Rect, held: bool = False) -> None:
        """The open cards in `r`, as large as they fit, never under ``typeface.PICTURE``: when they do not
        all fit at that size the first ones show and "+n" says how many more; a hold on them shows all
        (`held`: they are held, in the whole room: "see all your treasures" is true of every deal)."""
        L = self.ui.layout
        atlas = self.ui.atlas
        least = L.px(typeface.PICTURE) / 0.94
        n = len(cards)
        cols = max(1, math.ceil(math.sqrt(n * r.w / max(1.0, r.h))))
        rows = math.ceil(n / cols)
        size = min(r.w / cols, r.h / rows)
        if size < least:
            size = least
            cols, rows = max(1, int(r.w // size)), max(1, int(r.h // size))
        shown = list(cards) if len(cards) <= cols * rows else list(cards[: cols * rows - 1])
        for k, treasure in enumerate(shown):
            cu = r.x + size / 2 + (k % cols) * size
            cv = r.y + r.h - size / 2 - (k // cols) * size
            self._sprite(atlas.treasure(treasure), cu, cv, size * 0.94, picture=("open_card", treasure))
        if len(shown) < n:  # "+n" on a card's back: hold to see them all
            k = len(shown)
            cu, cv = r.x + size / 2 + (k % cols) * size, r.y + r.h - size / 2 - (k // cols) * size
            chip = Rect(cu - size * 0.47, cv - size * 0.47, size * 0.94, size * 0.94)
            self.items.append(box(self.frame, chip, CARD_BACK, self.batch, self.fg, radius=L.px(6)))
            self._text(f"+{n - k}", cu, cv, typeface.BODY, bold=True, color=CARD_FACE, group=self.top)
        if len(shown) < n or held:  # the whole row keeps the hold (letting go anywhere on it hides them)
            tap = None if held else self.callbacks["peek_tap"]
            self.widgets.append(Widget(self.frame.area(r), tap, on_hold=self.callbacks["peek"]))


def join_row(L: Layout) -> tuple[float, float]:
    """Where a computer's Join goes from its panel's outer end (as the panel reads it): its distance
    from the edge and its height."""
    return L.px(JOIN_PAD), max(float(L.touch), L.px(JOIN_H))


def hint_bulb(frame: Frame, local: Rect, batch, group) -> list:
    """The hint button's picture: a lit bulb (an idea), drawn in `local` of `frame` (turned with it)."""
    u, v, w, h = local
    r = min(w, h) * 0.22
    cu, cv = u + w / 2, v + h / 2 + r * 0.35
    out: list = []
    for k in range(8):  # its rays
        a = math.radians(k * 45 + 22.5)
        x0, y0 = frame.point(cu + math.cos(a) * r * 1.35, cv + math.sin(a) * r * 1.35)
        x1, y1 = frame.point(cu + math.cos(a) * r * 1.75, cv + math.sin(a) * r * 1.75)
        if math.sin(a) > -0.5:  # none under the bulb, where its base is
            out.append(
                shapes.Line(x0, y0, x1, y1, thickness=max(1.5, r * 0.16), color=ACCENT, batch=batch, group=group)
            )
    x, y = frame.point(cu, cv)
    out.append(shapes.Circle(x, y, r, color=ACCENT, batch=batch, group=group))
    base = frame.area(Rect(cu - r * 0.5, cv - r * 1.55, r, r * 0.7))
    out.append(shapes.Rectangle(*base, color=(220, 224, 230), batch=batch, group=group))
    neck = frame.area(Rect(cu - r * 0.62, cv - r * 0.95, r * 1.24, r * 0.3))
    out.append(shapes.Rectangle(*neck, color=ACCENT, batch=batch, group=group))
    return out
