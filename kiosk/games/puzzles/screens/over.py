"""The puzzle's result: solved in how many turns, the stars (3 for the fewest turns, 2 for one
more, 1 for solving), the fewest turns, the target found; "Play again" gives another puzzle of
the same grade. In the tabletop layout the result is written upside down for the far side too."""

from __future__ import annotations

from typing import Any

import pyglet

from engine.puzzles import NAME, stars
from engine.puzzles.state import STARS_OPTIMAL

from kiosk.games.puzzles.events import PuzzleOver
from kiosk.ui.screens.game_end import GameEndScreen
from kiosk.ui.kit.menu import Canvas, fit_font, picture
from kiosk.ui.shell.screen import register
from kiosk.ui.kit.typeface import BODY
from kiosk.ui.kit.widgets import DIM, INK, Frame, label

STAR_ON = (255, 206, 84)
STAR_OFF = (124, 132, 148)
#: Filled and hollow stars (DejaVu Sans draws both).
STAR, HOLLOW = "\u2605", "\u2606"


@register("puzzle_over")
class PuzzleOverScreen(GameEndScreen):
    """Solved or not, the stars, the fewest turns; play again or back to start."""

    game_name = NAME
    play_screen = "puzzle_play"
    again_key = "puzzles.next"  # another puzzle of the same grade, as the session deals it

    def event_of(self, game: Any, session: Any) -> PuzzleOver:
        p = game.puzzle
        return PuzzleOver(
            game.winners,
            game.turns,
            tuple(tuple(q.found) for q in game.players),
            tuple(session.kinds),
            puzzle=p.name,
            grade=p.grade,
            optimum=p.optimum,
            stars=stars(p.optimum, game.turns, game.solved),
        )

    def headline(self, ev: PuzzleOver) -> str:
        t = self.t
        if not ev.winners:
            return t("puzzles.not_solved")
        if ev.stars >= STARS_OPTIMAL:
            return t("puzzles.solved_best", n=ev.turns)
        return t("puzzles.solved", n=ev.turns)

    def _draw(self, ev: PuzzleOver, L: Any, c: Canvas, frame: Frame) -> None:
        mid, fg = (pyglet.graphics.Group(order=k) for k in (2, 4))
        t = self.t
        m = 12
        btn_h = 58
        head = self.headline(ev)
        top = c.H - m
        if L.tabletop:  # the far side of the table reads the result too
            far = Frame(c.r(m, c.H - m - 54, c.W - 2 * m, 54), 180)
            far_text = f"{STAR * ev.stars}{HOLLOW * (STARS_OPTIMAL - ev.stars)}   {head}"  # the stars too
            size = fit_font(far_text, c.font(24), far.w - c.px(40))
            if size < c.font(BODY):  # a narrow screen: the words alone, at a size people read
                far_text, size = head, fit_font(head, c.font(24), far.w - c.px(40))
            self._shapes.append(label(far_text, far, far.w / 2, far.h / 2, size, self.batch, fg, color=INK, bold=True))
            top -= 66
        # the headline
        size = fit_font(head, c.font(34), L.width - c.px(2 * m + 20))
        self._shapes.append(label(head, frame, L.width / 2, c.px(top - 40), size, self.batch, fg, color=INK, bold=True))
        # the stars, big
        star_y = top - 40 - 92
        text = STAR * ev.stars + HOLLOW * (STARS_OPTIMAL - ev.stars)
        for k, glyph in enumerate(text):
            x = L.width / 2 + c.px((k - 1) * 84)
            on = k < ev.stars
            self._shapes.append(
                label(glyph, frame, x, c.px(star_y), c.font(64), self.batch, fg, color=STAR_ON if on else STAR_OFF)
            )
        # the fewest turns and the target found
        line_y = star_y - 70
        fewest = t("puzzles.fewest", n=ev.optimum)
        words = "  \u00b7  ".join((t(f"puzzles.grade_{ev.grade}"), fewest)) if ev.grade else fewest
        self._shapes.append(
            label(words, frame, L.width / 2, c.px(line_y), c.font(BODY), self.batch, fg, color=DIM, bold=False)
        )
        found = ev.found[0] if ev.found else ()
        if found:
            self._shapes.append(
                picture(self.ui, "treasure", found[0], L.width / 2, c.px(line_y - 52), c.px(56), self.batch, fg)
            )
        self.add_buttons(c, frame, m, btn_h, fg)
