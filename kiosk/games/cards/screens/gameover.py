"""The card game's game-over screen: who took the most cards (ties share the win), every score.

The card game's kiosk/games/labyrinth/screens/gameover.py: up to six players, several winners
possible. Each player's row shows their colour, who played it (a person, or
the computer and its stars, as on the setup screen), the cards they took as
the same pictures as on the table, and the number; the winners wear a crown
(the star means a computer's strength everywhere else). The headline is also
written for the far side of the table. "Play again" starts the same seats
with a new shuffle; "Back to start" returns to the attract screen, as does a
while without a touch.
"""

from __future__ import annotations

import pyglet
from pyglet import shapes

from engine.cards.parts import CardPhase
from kiosk.games import HUMAN
from kiosk.games.cards.screens.seats import player_rgb, strength_stars
from kiosk.games.cards.events import CardGameOver

from kiosk.ui.audit.contrast import text_shade
from kiosk.ui.shell.i18n import names_list
from kiosk.ui.shell.game_end import GameEndScreen
from kiosk.ui.shell.layout import Rect
from kiosk.ui.shell.menu import Canvas, fit_font, panel
from kiosk.ui.shell.screen import register
from kiosk.ui.shell.typeface import BODY
from kiosk.ui.shell.widgets import DIM, INK, Frame, label

COLORS = ("red", "yellow", "green", "blue", "purple", "turquoise")


@register("cards_gameover")
class CardsGameOverScreen(GameEndScreen):
    """Winners and cards taken; play again or back to start."""

    game_name = "cards"
    play_screen = "cards_play"

    def event_of(self, game, session) -> CardGameOver:
        return CardGameOver(tuple(game.winners), tuple(game.scores), game.turns, tuple(session.kinds))

    def prepare(self, game, event) -> None:
        """The cards each player took (pictures), when the finished game is at hand."""
        over = game is not None and getattr(game, "phase", "") == CardPhase.OVER
        self.taken = [list(t) for t in game.taken] if over else None

    def _draw(self, ev, L, c: Canvas, frame: Frame) -> None:
        bg, fg = pyglet.graphics.Group(order=0), pyglet.graphics.Group(order=2)
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
            self._shapes.append(_headline(headline, far, far.w / 2, far.h / 2, 22, c, self.batch, fg, rgb))
            top -= 56
        self._shapes.append(_headline(headline, frame, L.width / 2, c.px(top - 40), 32, c, self.batch, fg, rgb))
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
        btn_h = 58
        area_top = top - 100
        n = len(ev.scores)
        row_h = min(52.0, (area_top - (m + btn_h + 20) - 44) / n)
        area_h = 44 + n * row_h
        area = Rect(max(m, c.W / 2 - 300), area_top - area_h, min(c.W - 2 * m, 600), area_h)
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
        best = max(ev.scores) if ev.scores else 0
        taken = getattr(self, "taken", None)
        atlas = getattr(self.ui.screen_named("cards_play"), "atlas", None) if taken is not None else None
        for i, score in enumerate(ev.scores):
            cy = area.top - 40 - (i + 0.5) * row_h
            prgb = player_rgb(i)
            self._shapes.append(
                shapes.Circle(
                    c.px(area.x + 28), c.px(cy), c.px(min(13, row_h * 0.3)), color=prgb, batch=self.batch, group=fg
                )
            )
            kind = ev.kinds[i] if i < len(ev.kinds) else HUMAN
            who = ("\u265b " if i in ev.winners else "") + names[i]
            if kind != HUMAN:
                who += "  " + t("setup.computer") + " " + strength_stars(kind)
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
                cards = taken[i] if i < len(taken) else []
                size = min(row_h - 4, 40)
                x0, x1 = area.x + 50 + name_w + 8, area.right - 56
                step = min(size + 2, (x1 - x0 - size) / max(1, len(cards) - 1)) if len(cards) > 1 else 0
                for k, card in enumerate(cards):
                    sprite = pyglet.sprite.Sprite(
                        atlas.face(card), c.px(x0 + size / 2 + k * step), c.px(cy), batch=self.batch, group=fg
                    )
                    sprite.scale = c.px(size) / atlas.px
                    self._shapes.append(sprite)
            else:
                # a bar as long as the score
                bar_w = 120 * score / best if best else 0
                if bar_w:
                    self._shapes.append(
                        shapes.Rectangle(
                            c.px(area.right - 60 - bar_w),
                            c.px(cy - 6),
                            c.px(bar_w),
                            c.px(12),
                            color=text_shade(prgb),
                            batch=self.batch,
                            group=fg,
                        )
                    )
            self._shapes.append(
                label(
                    str(score),
                    frame,
                    c.px(area.right - 16),
                    c.px(cy),
                    c.font(22),
                    self.batch,
                    fg,
                    color=INK,
                    anchor_x="right",
                    bold=True,
                )
            )
        self.add_buttons(c, frame, m, btn_h, fg)


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
) -> pyglet.text.Label:
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
