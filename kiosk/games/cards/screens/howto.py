"""How to play the travel card game: four animated steps, one short sentence each.

The same guide as the board game's (howto.GuideScreen: caption, step dots,
auto-advance, tap for next), with real cards from the card atlas: a small
layout of five cards and a hand of two. Each step shows one idea — pick a card
and turn it, lay it so an opening meets an opening, a path joins the same
treasure (the bell) on another card so you take that card, most cards wins.

The example is a legal position of the real deck (tests/games/cards/test_howto.py
checks it with the engine): the hand card 46 laid turned twice at (2, 1) joins
its bell to the bell of card 3 at (2, 0), and taking card 3 leaves no card alone.
"""

from __future__ import annotations

import math
from typing import Any

import pyglet
from pyglet import shapes

from kiosk.games.cards.art import CardAtlas, face_layout
from kiosk.ui.screens.guide import GuideScreen, _ease
from kiosk.ui.kit.menu import picture
from kiosk.ui.shell.screen import register
from kiosk.ui.kit.widgets import ACCENT, INK, sign

STEP_S = 6.0
STEPS = ("howto.cards.turn", "howto.cards.lay", "howto.cards.take", "howto.cards.win")

#: the layout: cell (x, y), y down as in the engine -> (card id, rotation)
LAYOUT = {(0, 0): (0, 0), (1, 0): (6, 1), (0, 1): (20, 0), (1, 1): (35, 0), (2, 0): (3, 2)}
HAND = (46, 17)  # the card to lay first
LAY_CELL, LAY_ROT = (2, 1), 2
TAKEN_CELL = (2, 0)  # its bell meets the laid card's bell
TREASURE = "bell"
SCORES = (5, 3)  # step 4: your pile and another player's


@register("cards_howto")
class CardsHowToScreen(GuideScreen):
    """The card game's guide; Back leads to where it was opened from, "Let's play!" to setup."""

    steps = STEPS
    step_s = STEP_S
    title_key = "howto.cards.title"
    notes = {"howto.cards.take": "howto.cards.not_alone"}

    def __init__(self, ui):
        super().__init__(ui)
        self.atlas: CardAtlas | None = None

    def _card_atlas(self, size: float) -> CardAtlas:
        px = int(min(256, max(96, size)))
        theme = self.ui.theme
        if self.atlas is None or self.atlas.px != px or self.atlas.theme is not theme:
            self.ui.window.switch_to()
            self.atlas = CardAtlas(px, self.ui.window, theme=theme)
        return self.atlas

    @property
    def _px(self) -> int:
        """The size of the card pictures the scene was built with (by ``_card_atlas``)."""
        assert self.atlas is not None, "the scene is built before it moves"
        return self.atlas.px

    # ------------------------------------------------------------ geometry
    def _place(self) -> None:
        """Card size and where the layout and the hand go: side by side, or the hand below when tall."""
        c, st = self.c, self.stage_rect
        w, h = c.px(st.w), c.px(st.h)
        self._portrait = h > w
        if self._portrait:
            S = min(w / 3.6, h / 4.6)
            self._gx = c.px(st.cx) - 1.5 * S  # left edge of the 3 x 2 layout
            self._gy = c.px(st.top) - 0.3 * S  # top edge
            hy = self._gy - 2 * S - 1.3 * S
            self._hand = [(c.px(st.cx) - 0.62 * S, hy), (c.px(st.cx) + 0.62 * S, hy)]
            self._pile = (c.px(st.cx) + 1.1 * S, hy - 1.25 * S)
        else:
            S = min(w / 6.4, h / 2.35)
            left = c.px(st.cx) - 3.1 * S
            self._gx = left
            self._gy = c.px(st.cy) + S
            hx = left + 3 * S + 1.0 * S
            self._hand = [(hx + 0.5 * S, c.px(st.cy) + 0.05 * S), (hx + 1.7 * S, c.px(st.cy) + 0.05 * S)]
            self._pile = (hx + 1.1 * S, c.px(st.cy) - 0.55 * S)
        self._S = S

    def _cell_xy(self, cell) -> tuple[float, float]:
        x, y = cell
        return self._gx + (x + 0.5) * self._S, self._gy - (y + 0.5) * self._S

    def _sprite(self, region, x, y, size, rotation, batch, group):
        s = pyglet.sprite.Sprite(region, x, y, batch=batch, group=group)
        s.scale = size / self._px
        s.rotation = 90 * rotation
        return s

    # ------------------------------------------------------------ the stage
    def _build_scene(self) -> None:
        for obj in self._scene.get("all", []):
            obj.delete()
        self.stage = batch = pyglet.graphics.Batch()
        self._place()
        S = self._S
        atlas = self._card_atlas(S)
        g_marks, g_cards, g_over, g_top = (pyglet.graphics.Group(order=10 + k) for k in range(4))
        scene: dict = {"all": [], "cards": {}}
        step = self.steps[self.step]

        def keep(obj):
            scene["all"].append(obj)
            return obj

        layout = dict(LAYOUT)
        if step == "howto.cards.win":
            layout.pop(TAKEN_CELL)
        for cell, (card, rot) in layout.items():
            x, y = self._cell_xy(cell)
            scene["cards"][cell] = keep(self._sprite(atlas.face(card), x, y, S * 0.97, rot, batch, g_cards))
        lx, ly = self._cell_xy(LAY_CELL)
        if step == "howto.cards.turn":
            self._turn_scene(scene, keep, atlas, batch, (g_marks, g_cards, g_top))
        elif step == "howto.cards.lay":
            # the empty place glows; the turned card slides there from the hand
            scene["spot"] = keep(
                shapes.Rectangle(lx - S * 0.5, ly - S * 0.5, S, S, color=(255, 236, 120), batch=batch, group=g_marks)
            )
            hx, hy = self._hand[1]
            keep(self._sprite(atlas.face(HAND[1]), hx, hy, S, 0, batch, g_cards))
            scene["moving"] = keep(self._sprite(atlas.face(HAND[0]), *self._hand[0], S * 0.97, LAY_ROT, batch, g_over))
            # where the two openings meet: a pulsing ring on the shared side
            scene["meet"] = keep(
                shapes.Arc(
                    lx, ly + S * 0.5, S * 0.2, thickness=max(3, S * 0.06), color=ACCENT, batch=batch, group=g_top
                )
            )
        elif step == "howto.cards.take":
            scene["cards"][LAY_CELL] = keep(
                self._sprite(atlas.face(HAND[0]), lx, ly, S * 0.97, LAY_ROT, batch, g_cards)
            )
            hx, hy = self._hand[1]
            keep(self._sprite(atlas.face(HAND[1]), hx, hy, S, 0, batch, g_cards))
            # the joined path across the shared side, then rings round both bells
            taken_card, taken_rot = LAYOUT[TAKEN_CELL]
            (ax, ay), (bx, by) = self._bell(HAND[0], LAY_CELL, LAY_ROT), self._bell(taken_card, TAKEN_CELL, taken_rot)
            r = S * 0.19
            scene["path"] = keep(
                shapes.Line(
                    ax, ay + r, bx, by - r, thickness=max(4, S * 0.2), color=(255, 214, 60), batch=batch, group=g_top
                )
            )
            scene["rings"] = [
                keep(
                    shapes.Arc(
                        x, y, S * 0.25, thickness=max(3, S * 0.07), color=(255, 140, 0), batch=batch, group=g_top
                    )
                )
                for x, y in ((ax, ay), (bx, by))
            ]
            scene["taken"] = scene["cards"][TAKEN_CELL]
            scene["fly"] = pyglet.graphics.Group(order=20)  # above everything once it flies
            scene["mine"] = keep(self._sprite(atlas.back, *self._pile, S * 0.8, 0, batch, g_cards))
            scene["mine"].opacity = 0
        elif step == "howto.cards.win":
            scene["cards"][LAY_CELL] = keep(
                self._sprite(atlas.face(HAND[0]), lx, ly, S * 0.97, LAY_ROT, batch, g_cards)
            )
            self._build_piles(scene, keep, batch, atlas, g_cards, g_top)
        self._scene = scene
        self._animate()

    def _turn_scene(self, scene: dict, keep: Any, atlas: CardAtlas, batch: Any, groups: tuple[Any, Any, Any]) -> None:
        """The step "turn": the hand, the chosen card lifted with a glow; a finger taps it."""
        S = self._S
        g_marks, g_cards, g_top = groups
        for k, card in enumerate(HAND):
            hx, hy = self._hand[k]
            if k == 0:
                keep(
                    shapes.Rectangle(
                        hx - S * 0.56,
                        hy - S * 0.56 + S * 0.12,
                        S * 1.12,
                        S * 1.12,
                        color=ACCENT,
                        batch=batch,
                        group=g_marks,
                    )
                )
                hy += S * 0.12
            scene.setdefault("hand", []).append(keep(self._sprite(atlas.face(card), hx, hy, S, 0, batch, g_cards)))
        hx, hy = self._hand[0]
        scene["ripple"] = keep(
            shapes.Arc(
                hx,
                hy + S * 0.12,
                S * 0.3,
                thickness=max(2, S * 0.05),
                color=(255, 255, 255),
                batch=batch,
                group=g_top,
            )
        )
        scene["finger"] = keep(sign("☝", hx + S * 0.3, hy - S * 0.45, S * 0.4, (255, 255, 255, 255), batch, g_top))

    def _bell(self, card: int, cell, rotation: int) -> tuple[float, float]:
        """Pixel centre of the bell on `card` laid at `cell` turned `rotation` quarter turns clockwise."""
        bx, by = next((x, y) for name, x, y in face_layout(card)[1] if name == TREASURE)
        for _ in range(rotation):
            bx, by = by, -bx
        x, y = self._cell_xy(cell)
        half = self._S * 0.97 / 2 * 0.97
        return x + bx * half, y + by * half

    def _build_piles(self, scene, keep, batch, atlas, g_cards, g_top) -> None:
        """Two piles of taken cards in the players' colours, the bigger one crowned."""
        S = self._S
        scene["piles"] = []
        if self._portrait:
            spots = [(x, y - 0.15 * S) for x, y in self._hand]
        else:
            hx = self._hand[0][0]
            spots = [(hx, self._hand[0][1] - 0.2 * S), (hx + 1.25 * S, self._hand[0][1] - 0.2 * S)]
        colours = ((226, 54, 54), (60, 120, 220))
        for n, (x, y), rgb in zip(SCORES, spots, colours):
            cards = []
            for i in range(n):
                s = keep(self._sprite(atlas.back, x, y + i * S * 0.1, S * 0.8, 0, batch, g_cards))
                s.rotation = (i * 7) % 11 - 5
                cards.append(s)
            keep(shapes.Circle(x, y - S * 0.62, S * 0.2, color=rgb, batch=batch, group=g_top))
            keep(sign(str(n), x, y - S * 0.62, S * 0.2, (*INK, 255), batch, g_top, bold=True))
            scene["piles"].append(cards)
        best = max(range(len(SCORES)), key=SCORES.__getitem__)
        x, y = spots[best]
        scene["crown"] = keep(
            picture(self.ui, "treasure", "crown", x, y + S * (0.1 * SCORES[best] + 0.55), S * 0.6, batch, g_top)
        )
        scene["crown_y"] = scene["crown"].y

    def _animate(self) -> None:
        """Put the moving parts where they are at time ``self.step_t`` of the step."""
        sc, t, S = self._scene, self.step_t, getattr(self, "_S", 1)
        if not sc:
            return
        step = self.steps[self.step]
        if step == "howto.cards.turn":
            period = 1.4
            k, ph = divmod(t, period)
            turn = k + _ease((ph - 0.2) / 0.35)
            sc["hand"][0].rotation = 90 * turn
            grow = min(1.0, ph / 0.5)
            sc["ripple"].radius = S * (0.2 + 0.35 * grow)
            sc["ripple"].opacity = int(255 * (1 - grow))
            sc["finger"].y = self._hand[0][1] - S * (0.45 - 0.1 * (1 - grow))
        elif step == "howto.cards.lay":
            # wait, slide into place, the meeting openings pulse; repeat
            ph = t % 3.0
            k = _ease((ph - 0.5) / 1.0)
            (sx, sy), (ex, ey) = self._hand[0], self._cell_xy(LAY_CELL)
            sc["moving"].position = (sx + (ex - sx) * k, sy + (ey - sy) * k, 0)
            sc["spot"].opacity = int(200 * (1 - k) * (0.6 + 0.4 * math.sin(t * 6)))
            landed = ph > 1.5
            sc["meet"].opacity = int(255 * (0.5 + 0.5 * math.sin(t * 8))) if landed else 0
            sc["meet"].radius = S * (0.16 + 0.06 * math.sin(t * 8))
        elif step == "howto.cards.take":
            # the path lights up and both bells ring, then the other card flies to your pile
            joined = t < 3.0
            sc["path"].opacity = int(230 * min(1.0, t / 0.6)) if joined else 0
            for ring in sc["rings"]:
                ring.opacity = int(255 * (0.85 + 0.15 * math.sin(t * 7))) if joined else 0
                ring.radius = S * (0.25 + 0.03 * math.sin(t * 7))
            k = _ease((t - 3.0) / 1.2)
            (sx, sy), (ex, ey) = self._cell_xy(TAKEN_CELL), self._pile
            taken = sc["taken"]
            if k > 0 and taken.group is not sc["fly"]:
                taken.group = sc["fly"]
            taken.position = (sx + (ex - sx) * k, sy + (ey - sy) * k, 0)
            taken.scale = S * (0.97 - 0.17 * k) / self._px
            taken.opacity = int(255 * (1 - max(0.0, k - 0.8) * 5))
            sc["mine"].opacity = 255 if k >= 1 else 0
        elif step == "howto.cards.win":
            pop = _ease((t - 0.6) / 0.6)
            crown = sc["crown"]
            crown.opacity = int(255 * pop)
            crown.y = sc["crown_y"] + S * 0.06 * math.sin(t * 4) * pop
