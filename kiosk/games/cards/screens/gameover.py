"""The card game's game-over screen: who took the most cards (ties share the win), and what each took.

The players stand on the shared podium (kiosk/ui/screens/podium.py, as the board game's result):
a wooden block each, the best in the middle, the winners' the tallest and rimmed in gold, and
players who took as many cards share a step. On each block lie the cards that player took
(fanned, the same pictures as on the table); on its front the colour's name, who played it (the
computer and its strength in stars, as on the setup screen and the table) and the number of cards
taken, crowned for every winner (the crown of the game's how-to: a star here would read as a
computer's strength); above the podium the rule that orders it ("the most cards taken wins"). Where the
names do not fit side by side (many players on a narrow screen) each player gets a row instead.
The headline names every winner of a shared win and is also written for the far side of the
table. "Play again" starts the same seats with a new shuffle; "Back to start" returns to the
attract screen, as does a while without a touch.
"""

from __future__ import annotations

from typing import Any

import pyglet

from engine.cards.parts import CardPhase
from kiosk.games import HUMAN
from kiosk.games.cards.screens.seats import player_rgb, seat_token, strength_stars
from kiosk.games.cards.art import CardAtlas
from kiosk.games.cards.events import CardGameOver
from kiosk.games.cards.screens.play import CardsPlayScreen

from kiosk.ui.kit.contrast import text_shade
from kiosk.ui.kit.i18n import names_list
from kiosk.ui.screens.game_end import GameEndScreen
from kiosk.ui.screens import podium
from kiosk.ui.kit.layout import Rect
from kiosk.ui.kit.menu import Canvas, fit_font, measure, panel, picture
from kiosk.ui.kit.text_cache import Text
from kiosk.ui.shell.screen import register
from kiosk.ui.kit.typeface import BODY, HEADLINE, RESULT
from kiosk.ui.kit.widgets import ACCENT, DIM, INK, Frame, label

COLORS = ("red", "yellow", "green", "blue", "purple", "turquoise")
WINNER_MARK = "crown"  # the treasure picture before a winner's number (the how-to crowns its winner too)
CARDS_ON_BLOCK = 44  # design units: the cards a player took, fanned on their block, at most this tall
FRONT_LINE = 24  # a line of body text on a block's front
COUNT_H = 40  # the number of cards taken on a block's front
CROWN = 32  # design units: a winner's crown before their number on a block (at most, in a row)
COUNT_SIZE = HEADLINE + 8  # the number of cards taken on a block's front


@register("cards_gameover")
class CardsGameOverScreen(GameEndScreen):
    """Winners and cards taken; play again or back to start."""

    game_name = "cards"

    blocks: list[Rect] = []  # each player's block on the podium (design units), while it is shown
    taken: list[list[int]] | None = None  # the cards each player took, when the finished game is at hand

    def event_of(self, game: Any, session: Any) -> CardGameOver:
        return CardGameOver(tuple(game.winners), tuple(game.scores), game.turns, tuple(session.kinds))

    def prepare(self, game: Any, event: Any) -> None:
        """The cards each player took (pictures), when the finished game is at hand."""
        over = game is not None and game.phase == CardPhase.OVER
        taken = [list(t) for t in game.taken] if over else None
        # only that game's cards: the result shown may be another's (a record played back, a
        # result given to the screen), and a fan must never sit on a block that counts otherwise
        scores = list(event.scores) if isinstance(event, CardGameOver) else []
        self.taken = taken if taken is not None and [len(t) for t in taken] == scores else None

    def _atlas(self) -> CardAtlas | None:
        """The play screen's card pictures, to draw the cards taken with (None: none are shown)."""
        play = self.ui.screen_named("cards_play")
        return play.card_atlas() if self.taken is not None and isinstance(play, CardsPlayScreen) else None

    def _draw(self, ev: CardGameOver, L: Any, c: Canvas, frame: Frame) -> None:
        bg, mid, fg = (pyglet.graphics.Group(order=k) for k in (0, 1, 2))
        t = self.t
        names = [t(f"colour.{COLORS[i]}") for i in range(len(ev.scores))]
        if len(ev.winners) == 1:
            headline = t("gameover.winner", player=names[ev.winners[0]])
        elif ev.winners:
            headline = t("cards.shared_win", players=names_list(t, [names[w] for w in ev.winners]))
        else:
            headline = t("cards.no_winner")
        rgb = player_rgb(ev.winners[0]) if len(ev.winners) == 1 else INK
        m = 12
        top = c.H - m
        if L.tabletop:  # the far side of the table reads it too
            far = Frame(c.r(m, top - 48, c.W - 2 * m, 48), 180)
            self._shapes.append(_headline(headline, far, far.w / 2, far.h / 2, HEADLINE, c, self.batch, fg, rgb))
            top -= 56
        self._shapes.append(_headline(headline, frame, L.width / 2, c.px(top - 40), RESULT, c, self.batch, fg, rgb))
        self._shapes.append(
            label(
                t("gameover.turns", n=ev.turns),
                frame,
                L.width / 2,
                c.px(top - 80),
                c.font(BODY),
                self.batch,
                fg,
                color=DIM,
            )
        )
        self._shapes.append(
            label(
                t("cards.most_wins"),
                frame,
                L.width / 2,
                c.px(top - 106),
                c.font(BODY),
                self.batch,
                fg,
                color=INK,
                name="why",
            )
        )
        btn_h = 58
        area = Rect(m, m + btn_h + 14, c.W - 2 * m, top - 126 - (m + btn_h + 14))
        self.blocks = []
        if self._podium_fits(ev, c, area):
            self._podium(ev, c, frame, area, names, mid, fg)
        else:
            self._rows(ev, c, frame, area, names, bg, fg)
        self.add_buttons(c, frame, m, btn_h, fg)

    # ------------------------------------------------------------ the podium
    def _who(self, ev: CardGameOver, i: int) -> str:
        """Who played seat `i`: "Computer" and its strength for a computer, "" for a person."""
        kind = ev.kinds[i] if i < len(ev.kinds) else HUMAN
        return "" if kind == HUMAN else self.t("setup.computer") + " " + strength_stars(kind)

    def _podium_fits(self, ev: CardGameOver, c: Canvas, area: Rect) -> bool:
        """Blocks side by side leave each name (and a computer's line, or at least its stars) its room at
        the body size, in this language (the names are measured, not guessed)."""
        n = len(ev.scores)
        inner = podium.block_width(area, n) - 12
        pts = c.font(BODY)
        for i in range(n):
            name = self.t(f"colour.{COLORS[i]}")
            if c.px(inner) < measure(name, pts, bold=True)[0]:
                return False
            stars = strength_stars(ev.kinds[i]) if i < len(ev.kinds) else ""
            if stars and c.px(inner) < measure(stars, pts)[0]:
                return False
            crown = c.px(CROWN + 4) if i in ev.winners else 0.0
            if c.px(inner) < crown + measure(str(ev.scores[i]), c.font(COUNT_SIZE), bold=True)[0]:
                return False
        return True

    def _crown(self, c: Canvas, frame: Frame, cx: float, cy: float, size: float, group: Any) -> None:
        """A winner's crown centred at (`cx`, `cy`), `size` across (design units)."""
        x, y = frame.point(c.px(cx), c.px(cy))
        self._shapes.append(picture(self.ui, "treasure", WINNER_MARK, x, y, c.px(size), self.batch, group))

    def _podium(
        self, ev: CardGameOver, c: Canvas, frame: Frame, area: Rect, names: list[str], mid: Any, fg: Any
    ) -> None:
        """Each player on a block: the cards taken fanned on top, the name, who played and the number on
        the front (a crown before every winner's)."""
        n = len(ev.scores)
        steps = podium.places([(i not in ev.winners, -score) for i, score in enumerate(ev.scores)])
        computers = any(self._who(ev, i) for i in range(n))
        front = 10 + FRONT_LINE * (2 if computers else 1) + COUNT_H
        cards = min(CARDS_ON_BLOCK, area.h * 0.22)
        shortest = min(front + 8, area.h - cards - 40)
        taken, atlas = self.taken, self._atlas()
        pts = c.font(BODY)
        self.blocks = podium.blocks(area, steps, cards + 8, shortest)
        over = pyglet.graphics.Group(order=1, parent=fg)  # the seat's token on its block's corner, over the cards
        for i, block in enumerate(self.blocks):
            winner = i in ev.winners
            self._shapes += podium.draw_block(c, frame, block, winner, self.batch, mid)
            self._shapes += seat_token(frame, c.px(block.x + 15), c.px(block.top + 1), c.px(10), i, self.batch, over)
            prgb = player_rgb(i)
            cx = block.x + block.w / 2
            inner = block.w - 12
            v = block.top - 10 - FRONT_LINE / 2
            self._shapes.append(
                label(
                    names[i],
                    frame,
                    c.px(cx),
                    c.px(v),
                    pts,
                    self.batch,
                    fg,
                    color=text_shade(prgb),
                    bold=True,
                    container=c.r(*block),
                    name="player",
                )
            )
            who = self._who(ev, i)
            if who:
                if measure(who, pts)[0] > c.px(inner):
                    who = strength_stars(ev.kinds[i])  # "Computer" does not fit: its strength alone
                v -= FRONT_LINE
                self._shapes.append(
                    label(who, frame, c.px(cx), c.px(v), pts, self.batch, fg, color=DIM, container=c.r(*block))
                )
            elif computers:
                v -= FRONT_LINE  # the numbers stay on one line across the podium
            count, cy = str(ev.scores[i]), v - FRONT_LINE / 2 - COUNT_H / 2 + 4
            wide = measure(count, c.font(COUNT_SIZE), bold=True)[0] / c.px(1)  # design units
            nx = cx
            if winner:  # the crown and the number, centred together
                self._crown(c, frame, cx - wide / 2 - 2, cy, CROWN, fg)
                nx += CROWN / 2 + 2
            self._shapes.append(
                label(
                    count,
                    frame,
                    c.px(nx),
                    c.px(cy),
                    c.font(COUNT_SIZE),
                    self.batch,
                    fg,
                    color=ACCENT if winner else INK,
                    bold=True,
                    role="headline",
                    container=c.r(*block),
                    name="score",
                )
            )
            if taken is not None and atlas is not None:
                self._fan(taken[i] if i < len(taken) else [], atlas, c, cx, block.top + 4 + cards / 2, cards, inner, fg)

    def _fan(
        self, cards: list[int], atlas: Any, c: Canvas, cx: float, cy: float, size: float, room: float, group: Any
    ) -> None:
        """The cards a player took, lying on their block side by side, overlapping when they are many,
        each turned a little as a hand lays them down (the same every time)."""
        k = len(cards)
        if not k:
            return
        step = min(size + 3, (room - size) / max(1, k - 1))
        x0 = cx - (size + step * (k - 1)) / 2 + size / 2
        for j, card in enumerate(cards):
            sprite = pyglet.sprite.Sprite(
                atlas.face(card), c.px(x0 + j * step), c.px(cy), batch=self.batch, group=group
            )
            sprite.scale = c.px(size) / atlas.px
            sprite.rotation = ((card * 7) % 9 - 4) * 1.5  # -6..6 degrees
            self._shapes.append(sprite)

    def _rows(self, ev: CardGameOver, c: Canvas, frame: Frame, room: Rect, names: list[str], bg: Any, fg: Any) -> None:
        """A row per player in one tray (where blocks side by side would leave a name too little room):
        the colour (a computer's strength after it, as on the table), the cards taken and their number,
        crowned for every winner."""
        t = self.t
        n = len(ev.scores)
        row_h = min(52.0, (room.h - 44) / n)
        area_h = 44 + n * row_h
        area = Rect(max(room.x, c.W / 2 - 300), room.top - area_h, min(room.w, 600), area_h)
        self._shapes += panel(frame, c.r(*area), self.batch, bg, radius=c.px(12))
        self._shapes.append(
            label(
                t("cards.taken"),
                frame,
                c.px(area.right - 16),
                c.px(area.top - 20),
                c.font(BODY),
                self.batch,
                fg,
                color=DIM,
                anchor_x="right",
                bold=True,
            )
        )
        taken, atlas = self.taken, self._atlas()
        for i, score in enumerate(ev.scores):
            cy = area.top - 40 - (i + 0.5) * row_h
            prgb = player_rgb(i)
            self._shapes += seat_token(
                Frame(c.r(0, 0, c.W, c.H), 0),
                c.px(area.x + 28),
                c.px(cy),
                c.px(min(13, row_h * 0.3)),
                i,
                self.batch,
                fg,
            )
            kind = ev.kinds[i] if i < len(ev.kinds) else HUMAN
            who = names[i] + ("  " + strength_stars(kind) if kind != HUMAN else "")  # as on the table's chips
            name_w = 200 if taken is not None else 330
            self._shapes.append(
                label(
                    who,
                    frame,
                    c.px(area.x + 50),
                    c.px(cy),
                    fit_font(who, c.font(18), c.px(name_w)),
                    self.batch,
                    fg,
                    color=text_shade(prgb),
                    anchor_x="left",
                    bold=True,
                    container=c.r(area.x + 46, cy - row_h / 2, name_w + 8, row_h),
                    name="player",
                )
            )
            if taken is not None and atlas is not None:
                # the cards taken, as on the table (overlapping when there are many)
                x0, x1 = area.x + 50 + name_w + 8, area.right - 56
                size = min(row_h - 4, 40)
                self._fan(taken[i] if i < len(taken) else [], atlas, c, (x0 + x1) / 2, cy, size, x1 - x0, fg)
            if i in ev.winners:
                wide = measure(str(score), c.font(22), bold=True)[0] / c.px(1)
                crown = min(CROWN, row_h * 0.6)
                self._crown(c, frame, area.right - 16 - wide - 4 - crown / 2, cy, crown, fg)
            self._shapes.append(
                label(
                    str(score),
                    frame,
                    c.px(area.right - 16),
                    c.px(cy),
                    c.font(22),
                    self.batch,
                    fg,
                    color=ACCENT if i in ev.winners else INK,
                    anchor_x="right",
                    bold=True,
                )
            )


def _headline(
    text: str,
    frame: Frame,
    u: float,
    v: float,
    size: float,
    c: Canvas,
    batch: pyglet.graphics.Batch,
    group: pyglet.graphics.Group,
    rgb: tuple[int, int, int],
) -> Text:
    """The result's headline at `size` units, narrowed to the screen's width if it must; a long one (three
    winners' names) goes onto two lines at the body size rather than below it."""
    width = c.px(c.W - 40)
    pts = fit_font(text, c.font(size), width)
    wrap = pts < c.font(BODY)
    return label(
        text,
        frame,
        u,
        v,
        c.font(BODY) if wrap else pts,
        batch,
        group,
        color=text_shade(rgb),
        bold=True,
        width=width if wrap else None,
        multiline=wrap,
    )
