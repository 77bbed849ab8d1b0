"""How to play: seven animated steps, one short sentence each, in under a minute.

Reviews of digital editions say rules explained poorly is what hurts most, so
this guide shows rather than tells: a small maze of real tiles from the board's
own drawings, and each step animates one idea — the goal and the secret card
(hold the eye to peek), turn the spare (a tap on it in your own panel, as in the
game: the spare previewed at an arrow is pushed in by a tap, not turned), push it
in (two taps on an arrow),
walk the open paths, stop on your treasure, the no-push-back rule, hurry home.
Each step lasts a few seconds and advances by itself; dots at the bottom show
where you are; a tap anywhere goes to the next step; "Let's play!" at the end
starts the game set up on the setup screen (kiosk/ui/screens/guide.py). Text is one
sentence per step, in the visitor's language, wrapped (never shrunk) under the
title and Skip; the guide faces whoever opened it.
"""

from __future__ import annotations

import math
from typing import Any

import pyglet
from pyglet import shapes

from kiosk.games.labyrinth.screens.player_panel import CARD_BACK, CARD_FACE
from kiosk.ui.kit.menu import picture
from kiosk.ui.screens.guide import GuideScreen, _ease
from kiosk.ui.shell.screen import register
from kiosk.ui.kit.widgets import ACCENT, DANGER, PANEL, PANEL_EDGE, sign

STEPS = ("howto.goal", "howto.rotate", "howto.push", "howto.walk", "howto.collect", "howto.no_push_back", "howto.home")

# A 3 x 5 corner of a maze: openings per cell; one treasure, the pawn's home at the top-left.
GRID = (("ES", "EW", "EW", "ESW", "SW"), ("NS", "ES", "EW", "NS", "NS"), ("NE", "NW", "ES", "NE", "NW"))
TREASURE_CELL = (2, 3)
TREASURE = "crown"
WALK = ((0, 0), (0, 1), (0, 2), (0, 3), (1, 3), (2, 3))
SPARE = "EW"


def _rot(openings: str, turns: int) -> str:
    sides = "NESW"
    return "".join(sorted((sides[(sides.index(ch) + turns) % 4] for ch in openings), key=sides.index))


@register("howto")
class HowToScreen(GuideScreen):
    """The board game's guide: a corner of a maze, the spare, a pawn and a treasure.

    It starts with the goal and the secret target card (a finger holds the eye and
    the card shows its treasure), then the two-tap push: seven steps, 46 s."""

    steps = STEPS
    notes = {"howto.goal": "howto.secret", "howto.push": "howto.push_twice"}

    # ------------------------------------------------------------ the stage
    def _cell_xy(self, r: float, col: float) -> tuple[float, float]:
        """Pixel centre of grid cell (r, col); col -1 and 5 are the spaces beside the grid."""
        S, gx, gy = self._S, self._gx, self._gy
        return (gx + (col + 0.5) * S, gy + (2.5 - r) * S)

    def _build_scene(self) -> None:
        for obj in self._scene.get("all", []):
            obj.delete()
        self.stage = batch = pyglet.graphics.Batch()
        c = self.c
        st = self.stage_rect
        S = min(c.px(st.w) / 7.4, c.px(st.h) / 3.3)
        self._S = S
        self._gx = c.px(st.cx) - 2.5 * S
        self._gy = c.px(st.cy) - 1.5 * S
        g_tiles, g_mark, g_items, g_top = (pyglet.graphics.Group(order=10 + k) for k in range(4))
        scene: dict[str, Any] = {"all": [], "tiles": {}}
        ui = self.ui

        def keep(obj):
            scene["all"].append(obj)
            return obj

        for r, row in enumerate(GRID):
            for col, openings in enumerate(row):
                x, y = self._cell_xy(r, col)
                scene["tiles"][(r, col)] = keep(picture(ui, "tile", openings, x, y, S, batch, g_tiles))
        step = self.steps[self.step]
        # the home corner: a ring in the pawn's colour
        hx, hy = self._cell_xy(0, 0)
        keep(shapes.Arc(hx, hy, S * 0.42, thickness=max(2, S * 0.06), color=(226, 54, 54), batch=batch, group=g_mark))
        # the treasure (collected in step 4, so gone afterwards)
        tx, ty = self._cell_xy(*TREASURE_CELL)
        if step != "howto.home":
            scene["treasure"] = keep(picture(ui, "treasure", TREASURE, tx, ty, S * 0.62, batch, g_items))
        scene["pawn"] = keep(picture(ui, "pawn", 0, hx, hy, S * 0.55, batch, g_top))
        if step == "howto.rotate":
            # as in the game: the spare in the player's own panel turns when tapped (its badge says
            # so); the spare previewed at an arrow is not what turns (a tap there pushes it in)
            sx, sy = self._cell_xy(1, -1.25)
            keep(
                shapes.RoundedRectangle(
                    sx - S * 0.62,
                    sy - S * 0.62,
                    S * 1.24,
                    S * 1.24,
                    S * 0.12,
                    color=PANEL_EDGE,
                    batch=batch,
                    group=g_mark,
                )
            )
            keep(
                shapes.RoundedRectangle(
                    sx - S * 0.58, sy - S * 0.58, S * 1.16, S * 1.16, S * 0.1, color=PANEL, batch=batch, group=g_mark
                )
            )
            scene["spare"] = keep(picture(ui, "tile", "ES", sx, sy, S * 0.9, batch, g_items))
            bx, by = sx + S * 0.42, sy + S * 0.42
            scene["badge"] = keep(shapes.Circle(bx, by, S * 0.17, color=ACCENT, batch=batch, group=g_top))
            keep(sign("↻", bx, by, S * 0.18, (30, 30, 30, 255), batch, g_top))
        if step == "howto.push":
            sx, sy = self._cell_xy(1, -1.25)
            scene["spare"] = keep(picture(ui, "tile", SPARE, sx, sy, S, batch, g_top))
            ax, ay = self._cell_xy(1, -0.5)
            scene["arrow"] = keep(
                shapes.Triangle(
                    ax - S * 0.12,
                    ay - S * 0.2,
                    ax - S * 0.12,
                    ay + S * 0.2,
                    ax + S * 0.12,
                    ay,
                    color=ACCENT,
                    batch=batch,
                    group=g_top,
                )
            )
        if step == "howto.push":
            # the finger taps the arrow twice (the first tap shows the tile there, the second pushes)
            ax, ay = self._cell_xy(1, -0.5)
            scene["arrow_at"] = (ax, ay)
            scene["finger"] = keep(sign("☝", ax, ay - S * 0.55, S * 0.45, (255, 255, 255, 255), batch, g_top))
        if step == "howto.rotate":
            sx, sy = self._cell_xy(1, -1.25)
            scene["ripple"] = keep(
                shapes.Arc(sx, sy, S * 0.3, thickness=max(2, S * 0.05), color=ACCENT, batch=batch, group=g_top)
            )
            scene["finger"] = keep(
                sign("☝", sx + S * 0.25, sy - S * 0.55, S * 0.45, (255, 255, 255, 255), batch, g_top)
            )
        if step == "howto.walk" or step == "howto.collect" or step == "howto.home":
            path = WALK if step != "howto.home" else tuple(reversed(WALK))
            scene["path"] = path
            scene["glow"] = []
            for cell in path:
                x, y = self._cell_xy(*cell)
                glow = keep(
                    shapes.Rectangle(
                        x - S * 0.5, y - S * 0.5, S, S, color=(255, 236, 120, 0), batch=batch, group=g_mark
                    )
                )
                scene["glow"].append(glow)
        if step in ("howto.collect", "howto.home"):
            start = WALK[-3] if step == "howto.collect" else TREASURE_CELL
            scene["pawn"].position = (*self._cell_xy(*start), 0)
        if step == "howto.collect":
            # the card with the target, beside the maze
            cx, cy = self._cell_xy(1, 5.9)
            scene["card"] = keep(
                shapes.RoundedRectangle(
                    cx - S * 0.4,
                    cy - S * 0.55,
                    S * 0.8,
                    S * 1.1,
                    S * 0.1,
                    color=CARD_FACE,
                    batch=batch,
                    group=g_mark,
                )
            )
            scene["card_pic"] = keep(picture(ui, "treasure", TREASURE, cx, cy, S * 0.6, batch, g_items))
            scene["tick"] = keep(sign("✔", cx + S * 0.3, cy - S * 0.45, S * 0.5, (46, 170, 84, 0), batch, g_top))
        if step == "howto.goal":
            # the secret card beside the maze, face down; a finger holds the eye and it shows the crown
            cx, cy = self._cell_xy(0.6, 5.9)
            scene["card"] = keep(
                shapes.RoundedRectangle(
                    cx - S * 0.4,
                    cy - S * 0.55,
                    S * 0.8,
                    S * 1.1,
                    S * 0.1,
                    color=CARD_BACK,
                    batch=batch,
                    group=g_mark,
                )
            )
            scene["card_face"] = keep(
                shapes.RoundedRectangle(
                    cx - S * 0.36,
                    cy - S * 0.51,
                    S * 0.72,
                    S * 1.02,
                    S * 0.08,
                    color=CARD_FACE,
                    batch=batch,
                    group=g_items,
                )
            )
            scene["card_pic"] = keep(picture(ui, "treasure", TREASURE, cx, cy, S * 0.6, batch, g_top))
            ex, ey = self._cell_xy(2.1, 5.9)
            keep(
                shapes.RoundedRectangle(
                    ex - S * 0.45,
                    ey - S * 0.27,
                    S * 0.9,
                    S * 0.54,
                    S * 0.12,
                    color=CARD_BACK,
                    batch=batch,
                    group=g_mark,
                )
            )
            keep(shapes.Ellipse(ex, ey, S * 0.24, S * 0.13, color=(250, 250, 250), batch=batch, group=g_items))
            keep(shapes.Circle(ex, ey, S * 0.08, color=(40, 30, 70), batch=batch, group=g_top))
            scene["finger"] = keep(sign("☝", ex + S * 0.2, ey - S * 0.45, S * 0.45, (255, 255, 255, 255), batch, g_top))
            scene["eye_at"] = (ex, ey)
        if step == "howto.no_push_back":
            # the row was pushed from the left; the tile that fell out waits on the right
            out_x, out_y = self._cell_xy(1, 5.25)
            scene["spare"] = keep(picture(ui, "tile", GRID[1][4], out_x, out_y, S, batch, g_top))
            scene["spare_home"] = (out_x, out_y)
            ax, ay = self._cell_xy(1, 4.5)
            keep(
                shapes.Triangle(
                    ax + S * 0.12,
                    ay - S * 0.2,
                    ax + S * 0.12,
                    ay + S * 0.2,
                    ax - S * 0.12,
                    ay,
                    color=(120, 126, 140),
                    batch=batch,
                    group=g_top,
                )
            )
            cross = [
                keep(
                    shapes.Line(
                        ax - S * 0.25,
                        ay - S * 0.25,
                        ax + S * 0.25,
                        ay + S * 0.25,
                        thickness=max(3, S * 0.09),
                        color=DANGER,
                        batch=batch,
                        group=g_top,
                    )
                ),
                keep(
                    shapes.Line(
                        ax - S * 0.25,
                        ay + S * 0.25,
                        ax + S * 0.25,
                        ay - S * 0.25,
                        thickness=max(3, S * 0.09),
                        color=DANGER,
                        batch=batch,
                        group=g_top,
                    )
                ),
            ]
            scene["cross"] = cross
        if step == "howto.home":
            scene["crown"] = keep(picture(ui, "treasure", "crown", hx, hy + S * 0.55, S * 0.5, batch, g_top))
            scene["crown"].opacity = 0
        self._scene = scene
        self._animate()

    def _animate(self) -> None:
        """Put the scene's moving parts where they are at time ``self.step_t`` of the step."""
        sc, t, S = self._scene, self.step_t, getattr(self, "_S", 1)
        step = self.steps[self.step]
        if step == "howto.goal":
            # every 3 s the finger holds the eye for 1.5 s: the card shows its treasure meanwhile
            held = (t % 3.0) > 1.2 and (t % 3.0) < 2.7
            sc["card_face"].visible = held
            sc["card_pic"].visible = held
            ex, ey = sc["eye_at"]
            sc["finger"].y = ey - S * (0.3 if held else 0.5)
        elif step == "howto.rotate":
            # a tap every 1.4 s turns the spare a quarter, smoothly
            period = 1.4
            k, ph = divmod(t, period)
            turn = k + _ease((ph - 0.2) / 0.35)
            sc["spare"].rotation = 90 * turn
            ripple = sc["ripple"]
            grow = min(1.0, ph / 0.5)
            ripple.radius = S * (0.2 + 0.35 * grow)
            ripple.opacity = int(255 * (1 - grow))
            sc["finger"].y = self._cell_xy(1, -1.25)[1] - S * (0.55 - 0.1 * (1 - grow))
            sc["badge"].radius = S * (0.17 + 0.04 * (1 - grow))
        elif step == "howto.push":
            # wait, slide the middle row right by one cell, the last tile drops out; repeat
            ph = t % 3.25
            k = _ease((ph - 0.8) / 0.9)
            ax, ay = sc["arrow_at"]
            down = (0.15 < ph < 0.3) or (0.5 < ph < 0.65)  # two taps on the arrow, then the push
            sc["finger"].y = ay - S * (0.4 if down else 0.55)
            sx, sy = self._cell_xy(1, -1.25)
            ex, _ = self._cell_xy(1, 0)
            sc["spare"].position = (sx + (ex - sx) * k, sy, 0)
            for col in range(5):
                x, y = self._cell_xy(1, col)
                sc["tiles"][(1, col)].position = (x + S * k * (1.25 if col == 4 else 1.0), y, 0)
            sc["tiles"][(1, 4)].opacity = int(255 * (1 - 0.5 * k))
            sc["arrow"].opacity = int(255 * (0.5 + 0.5 * math.sin(t * 6)))
        elif step in ("howto.walk", "howto.collect", "howto.home"):
            path = sc["path"]
            if step == "howto.collect":
                path = path[-3:]
            steps = len(path) - 1
            walk_t = 0.55
            k = max(0.0, t - 0.8) / walk_t
            i = min(int(k), steps)
            f = _ease(k - i) if i < steps else 0.0
            a = self._cell_xy(*path[i])
            b = self._cell_xy(*path[min(i + 1, steps)])
            sc["pawn"].position = (a[0] + (b[0] - a[0]) * f, a[1] + (b[1] - a[1]) * f, 0)
            lit = int(128 + 60 * math.sin(t * 5))
            for cell, glow in zip(sc["path"], sc["glow"]):
                on = cell in path
                glow.opacity = lit if on and t < 0.8 + walk_t * steps + 0.3 else 0
            arrived = t >= 0.8 + walk_t * steps
            if step == "howto.collect":
                pop = _ease((t - 0.8 - walk_t * steps) / 0.4) if arrived else 0.0
                tr = sc["treasure"]
                tr.scale = (S * 0.62 / self.ui.atlas.px) * (1 + 0.6 * pop)
                tr.opacity = int(255 * (1 - max(0.0, pop - 0.5) * 2))
                sc["tick"].color = (46, 170, 84, int(255 * pop))
            if step == "howto.home":
                sc["crown"].opacity = int(255 * _ease((t - 0.8 - walk_t * steps) / 0.5)) if arrived else 0
        elif step == "howto.no_push_back":
            # the tile tries to go back in, bumps against the crossed arrow, returns; the cross pulses
            x0, y0 = sc["spare_home"]
            ph = t % 2.0
            bump = math.sin(min(1.0, ph / 0.6) * math.pi) * S * 0.35 if ph < 0.6 else 0.0
            shake = math.sin(ph * 40) * S * 0.04 if 0.25 < ph < 0.6 else 0.0
            sc["spare"].position = (x0 - bump + shake, y0, 0)
            for line in sc["cross"]:
                line.opacity = int(255 * (0.6 + 0.4 * math.sin(t * 6)))
