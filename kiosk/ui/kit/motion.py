"""Short motions that run beside the board's queue: a tile flying to the spare, a card turning face
up, sparkles, confetti for the winner.

The board view (kiosk/games/labyrinth/screens/board.py) plays what changes the game's picture one
after the other (a row slides, then the pawn walks). These effects only
decorate: they run in parallel, never hold the queue, and never hold input
(the session takes the next command at once). Each is a few sprites or
shapes in the board's ``live`` batch, moved every frame and deleted at the end,
so the frame cache of the still board is untouched.
"""

from __future__ import annotations

import math
import random
from typing import Any, Callable

import pyglet
from pyglet import shapes


def ease(t: float) -> float:
    """Smoothstep: slow out, slow in."""
    t = min(1.0, max(0.0, t))
    return t * t * (3 - 2 * t)


def ease_out_back(t: float) -> float:
    """Overshoots a little and settles: for things that pop."""
    t = min(1.0, max(0.0, t)) - 1
    return 1 + t * t * (2.7 * t + 1.7)


class Effects:
    """The running effects; ``update(dt)`` moves them, ``active`` says whether frames are needed."""

    def __init__(self) -> None:
        self._running: list[tuple[Callable[[float], bool], list[Any]]] = []

    @property
    def active(self) -> bool:
        return bool(self._running)

    def add(self, step: Callable[[float], bool], objects: list[Any]) -> None:
        """`step(t)` is called with the seconds since the start and returns False when done;
        `objects` are deleted then."""
        state = {"t": 0.0}

        def run(dt: float) -> bool:
            state["t"] += dt
            return step(state["t"])

        self._running.append((run, objects))

    def update(self, dt: float) -> None:
        keep = []
        for run, objects in self._running:
            if run(dt):
                keep.append((run, objects))
            else:
                _delete(objects)
        self._running = keep

    def finish(self) -> None:
        """End every effect now (a new game, a new layout, a screenshot on demand)."""
        for run, objects in self._running:
            run(1e9)  # the last picture (a bounced pawn back in place)
            _delete(objects)
        self._running = []

    # ------------------------------------------------------------------ the effects
    def fly(
        self,
        sprite: Any,
        start: tuple[float, float],
        end: tuple[float, float],
        duration: float,
        scale: tuple[float, float],
        *,
        arc: float = 0.0,
        spin: float = 0.0,
        fade: bool = True,
    ) -> None:
        """`sprite` travels from `start` to `end` on an arc `arc` px high, scaling and (at the end)
        fading; it is deleted when it arrives."""
        (x0, y0), (x1, y1) = start, end
        s0, s1 = scale

        def step(t: float) -> bool:
            k = min(1.0, t / duration)
            e = ease(k)
            sprite.position = (x0 + (x1 - x0) * e, y0 + (y1 - y0) * e + math.sin(math.pi * e) * arc, 0)
            sprite.scale = max(0.01, s0 + (s1 - s0) * e)
            sprite.rotation = spin * e
            if fade:
                sprite.opacity = int(255 * min(1.0, (1 - k) / 0.25))
            return k < 1.0

        step(0.0)
        self.add(step, [sprite])

    def sparkles(
        self,
        batch: Any,
        group: Any,
        x: float,
        y: float,
        radius: float,
        color: Any,
        duration: float = 0.7,
        count: int = 12,
        delay: float = 0.0,
    ) -> None:
        """Little stars flying out of (x, y) and fading: a short celebration."""
        dots = []
        for k in range(count):
            d = shapes.Star(x, y, radius * 0.12, radius * 0.05, 5, color=color, batch=batch, group=group)
            d.visible = False
            dots.append((d, 2 * math.pi * k / count + 0.3 * (k % 2)))

        def step(t: float) -> bool:
            k = (t - delay) / duration
            if k < 0:
                return True
            e = 1 - (1 - min(1.0, k)) ** 2
            for d, a in dots:
                d.visible = True
                d.position = (x + math.cos(a) * radius * e, y + math.sin(a) * radius * e)
                d.rotation = 180 * e
                d.opacity = int(255 * (1 - min(1.0, k)))
            return k < 1.0

        self.add(step, [d for d, _ in dots])

    def card_turn(
        self,
        batch: Any,
        group: Any,
        atlas: Any,
        treasure: str,
        x: float,
        y: float,
        size: float,
        rotation: float = 0.0,
        duration: float = 0.55,
        delay: float = 0.0,
    ) -> None:
        """A card, back up, turns face up (narrowing, then widening with the treasure on it), rests
        and fades: the found card shown at the player's panel."""
        w, h = size * 0.72, size
        edge = max(2.0, size * 0.04)
        rim = shapes.Rectangle(x, y, w + 2 * edge, h + 2 * edge, color=(24, 22, 28), batch=batch, group=group)
        back = shapes.Rectangle(x, y, w, h, color=(60, 74, 140), batch=batch, group=group)
        back.anchor_position = (w / 2, h / 2)
        inner = shapes.Rectangle(x, y, w * 0.8, h * 0.84, color=(92, 110, 190), batch=batch, group=group)
        inner.anchor_position = (w * 0.4, h * 0.42)
        face = shapes.Rectangle(x, y, w, h, color=(255, 250, 236), batch=batch, group=group)
        face.anchor_position = (w / 2, h / 2)
        icon = pyglet.sprite.Sprite(
            atlas.treasure(treasure), x, y, batch=batch, group=pyglet.graphics.Group(order=1, parent=group)
        )
        base = size * 0.62 / atlas.px
        objs: list[Any] = [rim, back, inner, face, icon]  # shapes and a sprite: rotation, visible, opacity
        for o in objs:
            o.rotation = rotation
            o.visible = False

        def step(t: float) -> bool:
            k = (t - delay) / duration
            if k < 0:
                return True
            half = k < 0.5
            squeeze = abs(math.cos(math.pi * min(1.0, k)))  # 1 -> 0 -> 1: the turn
            back.visible = inner.visible = half
            face.visible = icon.visible = not half
            _set_width(rim, (w + 2 * edge) * squeeze, h + 2 * edge)
            rim.visible = True
            _set_width(back, w * squeeze, h)
            _set_width(inner, w * 0.8 * squeeze, h * 0.84)
            _set_width(face, w * squeeze, h)
            icon.update(scale_x=max(0.01, base * squeeze), scale_y=base)
            fade = 1.0 if k < 1.6 else max(0.0, 1 - (k - 1.6) / 0.4)
            for o in objs:
                o.opacity = int(255 * fade)
            return k < 2.0

        self.add(step, objs)

    def confetti(
        self, batch: Any, group: Any, area: Any, colors: Any, duration: float = 1.8, count: int = 70, seed: int = 7
    ) -> None:
        """Paper bits in the players' colours falling over `area` (x, y, w, h) and fading."""
        rnd = random.Random(seed)
        bits = []
        x, y, w, h = area
        for _ in range(count):
            size = max(3.0, min(w, h) * rnd.uniform(0.012, 0.022))
            b = shapes.Rectangle(0, 0, size, size * 0.55, color=rnd.choice(colors), batch=batch, group=group)
            b.anchor_position = (size / 2, size * 0.275)
            bits.append(
                (
                    b,
                    x + rnd.uniform(0, w),
                    y + h * rnd.uniform(0.85, 1.25),
                    rnd.uniform(0.45, 0.9) * h,
                    rnd.uniform(-0.08, 0.08) * w,
                    rnd.uniform(-540, 540),
                    rnd.uniform(0, 0.35),
                )
            )

        def step(t: float) -> bool:
            k = t / duration
            for b, bx, by, fall, drift, spin, late in bits:
                q = max(0.0, (t - late) / duration)
                b.position = (bx + drift * q + math.sin(q * 9 + bx) * w * 0.01, by - fall * q)
                b.rotation = spin * q
                b.opacity = int(255 * max(0.0, min(1.0, (1.0 - k) / 0.3)))
            return k < 1.0

        step(0.0)
        self.add(step, [b for b, *_ in bits])


def _set_width(rect: Any, w: float, h: float) -> None:
    """Resize a centred rectangle in place (its anchor stays in the middle)."""
    rect.width = max(0.5, w)
    rect.height = h
    rect.anchor_position = (rect.width / 2, h / 2)


def _delete(objects: list[Any]) -> None:
    for o in objects:
        try:
            o.delete()
        except Exception:  # already gone with its batch
            pass
