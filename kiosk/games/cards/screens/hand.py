"""The card screen's hand panel: the tray of the player whose turn it is, beside the table.

It faces its player (landscape: a column on the right; portrait: a band above or below): their
name and what to do, the draw pile, the two hand cards (faces for the person whose turn it is,
after the hand-over; backs for a computer), and the buttons along its bottom (rotate; in the take
phase the take button; the Undo of whoever may take their action back). The hand panel is one
part (``Parts``) that knows its rectangle (``rect``) and marks it when it is built again.
"""

from __future__ import annotations

from functools import partial
from typing import Any, Callable, Sequence

import pyglet

from engine.cards.parts import CardPhase

from kiosk.core.events import Undo
from kiosk.games import HUMAN
from kiosk.games.cards.art import MEDAL_R
from kiosk.games.cards.events import ConfirmTake, DiscardCard, RotateHandCard, SelectHandCard
from kiosk.games.cards.screens.parts import Host
from kiosk.games.cards.screens.seats import ACTIVE_TRAY, player_rgb
from kiosk.ui.kit.contrast import text_shade
from kiosk.ui.kit import typeface
from kiosk.ui.kit.layout import Rect
from kiosk.ui.kit.text_cache import Spec
from kiosk.ui.kit.menu import GO, measure, undo_button
from kiosk.ui.kit.widgets import (
    ACCENT,
    BUTTON,
    DIM,
    DISABLED,
    INK,
    PANEL_EDGE,
    Button,
    Frame,
    Widget,
    box,
    label_spec,
    note_picture,
)

TOAST_RED = (255, 140, 120)  # a refusal said in the hand panel
#: the instructions of a person's turn (``cards.<key>``), as the screen words them
PROMPTS = ("take_choose", "discard", "pick_card", "lay_confirm", "lay_card", "turn_card")


def undo(host: Host, rect: Rect, player: int, group: Any, icon_only: bool = False, quiet: bool = False) -> None:
    """The Undo button at screen `rect`, turned to `player` (whose action it takes back), a part of the
    part being built; `quiet`: not the active player's own (the hand-over sheet, a computer's wait), so
    drawn as the board game draws the previous player's Undo: dark, edged in `player`'s colour."""
    b, under = undo_button(
        host.layout,
        Frame(rect, host.facing(player)),
        Rect(0, 0, rect.w, rect.h),
        host.t("play.undo"),
        host.batch,
        group,
        on_tap=partial(host.post, Undo(player)),
        icon_only=icon_only,
        quiet=text_shade(player_rgb(player)) if quiet else None,
    )
    host.parts.add(*under, b)
    host.parts.touch(b)


class HandPanel:
    """The hand panel at ``rect`` (set by the screen)."""

    def __init__(self, host: Host) -> None:
        self.host = host
        self.rect = Rect(0, 0, 1, 1)
        self.far = False  # at the far edge (its owner sits there)
        self.cards: list[Widget] = []  # the hand cards' touch areas, slot order

    def build(self, hand: Sequence[int], words: tuple[str, str], toast: str, controls: bool) -> None:
        """The panel for the current player: `words` (heading, instruction; a `toast` instead of the
        instruction), the hand cards (`hand`: the faces shown, () for backs), the buttons (`controls`:
        the rotate button too)."""
        m, L, batch, parts = self.host.model, self.host.layout, self.host.batch, self.host.parts
        self.cards = []  # (this part's: built again, its touch areas anew)
        r = self.rect
        p = m.current
        frame = Frame(r, self.host.facing(p))
        bg, mid, fg = (pyglet.graphics.Group(order=k) for k in (10, 11, 12))
        # the tray of the player whose turn it is: lighter wood, rimmed in wood (docs/art.md)
        parts.add(box(frame, frame.full().grow(L.px(2)), PANEL_EDGE, batch, bg, radius=L.px(12)))
        parts.add(box(frame, frame.full(), ACTIVE_TRAY, batch, bg, radius=L.px(10)))
        if not m.over:
            parts.add(box(frame, Rect(0, r.h - L.px(6), r.w, L.px(6)), player_rgb(p), batch, mid, radius=L.px(3)))
        y = self._words(frame, words, toast, fg)
        pad, btn_h = L.px(10), L.px(50)
        take = m.phase == CardPhase.TAKE and m.kinds[p] == HUMAN and not m.handover
        text_b, color_b = None, GO
        if take:
            chosen = m.chosen
            text_b = self.host.t("cards.take_n", n=len(chosen)) if chosen else self.host.t("cards.take_none")
            color_b = GO if not (chosen and m.take_problem) else DISABLED
        self._button_row(frame, p, text_b, color_b, fg)
        # the hand: two cards (faces for the player whose turn it is, else backs), under the words
        bottom = pad + btn_h + pad
        top = y - L.px(6)
        if top - bottom < L.px(typeface.PICTURE) / MEDAL_R:  # a long prompt: closer to it and to the buttons,
            bottom, top = pad + btn_h + L.px(4), y - L.px(1)  # so the symbols keep their size if they can
        self._cards(frame, hand, bottom, top, (mid, fg))
        if hand and m.phase == CardPhase.PLACE and controls:
            self._rotate_button(frame, BUTTON if m.selected is not None else DISABLED, fg)

    def vocabulary(self, players: int, piles: range) -> list[Spec]:
        """The texts this panel shows in a game of `players` (the draw pile's counts `piles`), as ``_words``
        and the buttons lay them out: drawn once as the screen opens (the text cache)."""
        host, L = self.host, self.host.layout
        width = self.rect.w - 2 * L.px(10)
        title, body = L.font(typeface.TITLE), L.font(typeface.BODY)
        out = [label_spec(host.t(f"cards.{key}"), body, False, width, True, anchor_y="top") for key in PROMPTS]
        for p in range(players):
            name = host.player_name(p)
            heads = (name, host.t("cards.your_turn", player=name))
            out += [label_spec(head, title, True, width, True, anchor_y="top") for head in heads]
            said = (host.t("cards.thinking", player=name), host.t("cards.pass_to", player=name))
            out += [label_spec(text, body, False, width, True, anchor_y="top") for text in said]
        out += [label_spec(host.t("cards.pile", n=n), body, anchor_y="top") for n in piles]
        row, square = width - 8, width - L.px(50) - L.px(10) - 8  # a button's text: the row, or beside the Undo
        words = [host.t("cards.take_none"), *(host.t("cards.take_n", n=n) for n in (1, 2, 3))]
        out += [label_spec(text, L.font(typeface.LABEL), True, w) for text in words for w in (row, square)]
        out.append(label_spec("\u27f3  " + host.t("cards.rotate"), L.font(typeface.LABEL), True, row))
        return out

    def _words(self, frame: Frame, words: tuple[str, str], toast: str, fg: Any) -> float:
        """The heading, the instruction (or the `toast`) and the pile, from the top; returns where they end."""
        m, L, batch, parts = self.host.model, self.host.layout, self.host.batch, self.host.parts
        r, pad = self.rect, L.px(10)
        head, text = words
        y = r.h - L.px(10)

        def line(text: str, size: float, color: Any, **kw: Any) -> Any:
            return parts.text(text, frame, r.w / 2, y, size, batch, fg, color=color, anchor_y="top", **kw)

        wrap: dict[str, Any] = dict(width=r.w - 2 * pad, multiline=True)
        shade = text_shade(player_rgb(m.current))
        title = line(head, L.font(typeface.TITLE), shade, bold=True, name="head", **wrap)
        y -= title.content_height + L.px(4)
        said = line(toast or text, L.font(typeface.BODY), TOAST_RED if toast else INK, name="prompt", **wrap)
        y -= said.content_height + L.px(4)
        count = self.host.t("cards.pile", n=m.pile)
        below = y - measure(count, L.font(typeface.BODY), bold=False)[1] - L.px(1)
        if below - (pad + L.px(50) + L.px(4)) < L.px(typeface.PICTURE) / MEDAL_R:
            return float(y)  # the pile's count gives way to the cards' symbols (a long prompt, tall score chips)
        pile = line(count, L.font(typeface.BODY), DIM, name="pile")
        return float(y - pile.content_height)

    def _cards(self, frame: Frame, hand: Sequence[int], bottom: float, top: float, groups: tuple[Any, Any]) -> None:
        """The hand cards between `bottom` and `top`, side by side; the picked one edged and turned."""
        m, L, batch, parts = self.host.model, self.host.layout, self.host.batch, self.host.parts
        mid, fg = groups
        r, pad = self.rect, L.px(10)
        p = m.current
        size = min((r.w - 3 * pad) / 2, top - bottom)
        shown = bool(hand)
        n = len(hand) if shown else m.hand_sizes[p]  # (the hand shown is the session's now: news of it may follow)
        total = n * size + (n - 1) * pad
        x = (r.w - total) / 2
        cy = bottom + (top - bottom) / 2
        atlas = self.host.card_atlas()
        for k in range(n):
            cx = x + k * (size + pad) + size / 2
            sx, sy = frame.point(cx, cy)
            selected = shown and k == m.selected
            if selected:
                edge = Rect(cx - size / 2 - L.px(5), cy - size / 2 - L.px(5), size + L.px(10), size + L.px(10))
                parts.add(box(frame, edge, ACCENT, batch, mid, radius=L.px(6)))
            region = atlas.face(hand[k]) if shown else atlas.back
            sprite = pyglet.sprite.Sprite(region, sx, sy, batch=batch, group=fg)
            sprite.scale = size / atlas.px
            sprite.rotation = (90 * m.rotation if selected else 0) + frame.angle
            parts.add(sprite)
            if shown:
                note_picture(sprite, "card_symbol", "hand card", size * MEDAL_R)
            if shown and m.kinds[p] == HUMAN:
                command = DiscardCard(k) if m.phase == CardPhase.DISCARD else SelectHandCard(k)
                w = Widget(
                    frame.area(Rect(cx - size / 2, cy - size / 2, size, size)), on_tap=partial(self.host.post, command)
                )
                self.cards.append(parts.touch(w))

    def _button_row(self, frame: Frame, p: int, take: str | None, color: Any, fg: Any) -> None:
        """The panel's row of buttons at its bottom (turned as `frame`, player `p`'s turn): the Undo of
        whoever may take their turn back, and the take button saying `take` (None: none)."""
        m, L = self.host.model, self.host.layout
        pad = L.px(10)
        row = Rect(pad, pad, frame.w - 2 * pad, L.px(50))
        who = m.undo_player
        if who is not None and (who == p or m.kinds[p] != HUMAN):
            # the player who just laid (or, before a computer's first step, whose turn just ended) may take
            # it back: Undo in the button row, facing them
            undo_w = row.w if who != p else row.h  # beside the take button: a square, its icon only
            spot = frame.area(Rect(row.right - undo_w, row.y, undo_w, row.h))
            undo(self.host, spot, who, fg, icon_only=who == p, quiet=who != p)
            row = Rect(row.x, row.y, row.w - undo_w - pad, row.h)
        if take is not None:
            self._button(frame, row, take, color, fg, lambda: self.host.post(ConfirmTake()))

    def _rotate_button(self, frame: Frame, color: Any, fg: Any) -> None:
        """The rotate button under the hand cards (where the take button is in the take phase)."""
        L = self.host.layout
        pad = L.px(10)
        row = Rect(pad, pad, frame.w - 2 * pad, L.px(50))
        text = "\u27f3  " + self.host.t("cards.rotate")
        self._button(frame, row, text, color, fg, lambda: self.host.post(RotateHandCard()))

    def _button(self, frame: Frame, rect: Rect, text: str, color: Any, fg: Any, on_tap: Callable[[], None]) -> None:
        """A button of the panel's row (take, rotate)."""
        L = self.host.layout
        b = Button(
            frame,
            rect,
            text,
            self.host.batch,
            fg,
            font_size=L.font(typeface.LABEL),
            min_size=L.touch,
            color=color,
            on_tap=on_tap,
        )
        self.host.parts.add(b)
        self.host.parts.touch(b)
