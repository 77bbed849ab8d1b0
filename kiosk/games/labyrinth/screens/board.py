"""The board view: tiles, treasures, pawns, the 12 arrows and the spare preview, with animations.

A view of events, never of the engine: it keeps the public picture (49 tiles,
the spare, pawn cells, whose turn, phase, forbidden arrow, reachable cells)
and changes it only as BoardShifted / PawnMoved / ... events say. Animations
play one after the other from a queue, so a fast sequence of events (an AI
turn in --fast mode, a push followed at once by the move phase) is still shown
in order: the row slides in (0.3 s) carrying its pawns, then the pawn walks.

Everything is sprites from the art atlas with ordered groups; moving a row is
moving 8 tile sprites and their treasure sprites. Two batches: ``batch`` holds
what stands still (board, tiles, treasures, home rings), which the play screen
draws once into the frame cache; ``live`` holds what moves or pulses (pawns,
arrows, the spare's preview, hint, fx) and the dimmed cells of the move phase
(drawn over the cache, so the phase changing never redraws the whole board).
During a slide the row's tiles move to ``live`` and come back when it lands;
every change to the still part calls ``ui.invalidate()``. Without a ``live``
batch everything is in one batch (the attract screen's demo has one too, and no panels).
Used by the play screen and (for the demo game behind it) the attract screen.
"""

from __future__ import annotations

import math
from collections import deque
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable

import pyglet
from pyglet import shapes

from engine.labyrinth.parts import Phase
from kiosk.games import HUMAN
from kiosk.games.labyrinth.cues import FOUND_S, SLIDE_S, WALK_STEP_S  # the sound's timeline follows them
from kiosk.games.labyrinth.events import (
    BoardShifted,
    GameOver,
    GameStarted,
    HintReady,
    PawnMoved,
    PreviewMoved,
    SpareRotated,
    TileInfo,
    TreasureFound,
    TurnChanged,
)
from kiosk.ui.kit import seating
from kiosk.ui.art import SEAT_COLORS
from kiosk.ui.kit.typeface import SPARE_TREASURE_OF_TILE, TREASURE_OF_CELL
from kiosk.games.labyrinth.geometry import ARROWS
from kiosk.ui.kit.layout import Layout, Rect
from kiosk.ui.kit.motion import Effects, ease_out_back
from kiosk.games.labyrinth.screens.frame import arrow_points, board_frame
from kiosk.games.labyrinth import geometry
from kiosk.ui.shell.contract import UIView

TURN_S = 0.15  # the spare turning a quarter
FLY_S = 0.45  # the pushed-out tile flying to the next player's spare
FINALE_S = 1.8  # confetti for the winner
HINT_RGB = (90, 220, 255)  # the hint's ring: the arrow to push at, then the square to walk to
PULSE_S = 8.0  # the active ring, the preview frame and the hint pulse this long after a change,
# then hold still (a kiosk waiting for a thinking child draws no frames)

PULSE_HZ = 15  # a pulse changes this often (one frame each), not every frame: a still board costs little
PAWN_OF_CELL = 0.7  # a pawn alone on its cell, standing taller than it is wide
PAWN_SHARED_OF_CELL = 0.5  # pawns sharing a cell, each in its own quarter
ARROW_ON = (255, 196, 64)
LIFT_OF_CELL = 0.1  # how far the spare at an arrow is lifted: its shadow's offset to the right (x 1.3 down)
ARROW_OFF = (128, 104, 80)  # an arrow that cannot be pressed now: a dull wooden one in its hole
FORBIDDEN = (230, 60, 60)
REACH = (255, 236, 120)
TRAIL_OF_CELL = 0.16  # the walk's trail: a line this part of a cell wide along the cells walked through
TRAIL_ALPHA = (70, 210)  # the trail fades from its start to the pawn
OUT_ALPHA = 150  # the tile that went out, drawn faintly at the arrow where it fell off
MARKS_KEPT = 8  # last-move marks remembered for undos
MARK_MARGIN = 2  # px around a last-move mark's box that the cache draws again with it (beside the UI's own)


def is_fixed(i: int) -> bool:
    """Cell i (row * 7 + col) holds a fixed tile: even row and even column (RULES.md), drawn as stone."""
    return (i // 7) % 2 == 0 and (i % 7) % 2 == 0


def rotate_openings(openings: str, turns: int) -> str:
    sides = "NESW"
    return "".join(sorted((sides[(sides.index(ch) + turns) % 4] for ch in openings), key=sides.index))


def _cell(cell: Iterable[int]) -> tuple[int, int]:
    """A cell as a (row, col) tuple: events replayed from a record may carry lists."""
    r, c = cell
    return r, c


def _ease(t: float) -> float:
    t = min(1.0, max(0.0, t))
    return t * t * (3 - 2 * t)


@dataclass
class Model:
    """The public picture of the game as the events tell it."""

    tiles: list[TileInfo] = field(default_factory=lambda: [TileInfo("NS")] * 49)
    spare: TileInfo = TileInfo("NS")
    positions: list[tuple[int, int]] = field(default_factory=list)  # per player
    seats: list[int] = field(default_factory=list)
    kinds: list[str] = field(default_factory=list)
    cards_left: list[int] = field(default_factory=list)
    found: list[list[str]] = field(default_factory=list)
    current: int = 0
    phase: str = Phase.SHIFT
    forbidden: str | None = None
    reachable: frozenset = frozenset()
    preview: str | None = None
    rotation: int = 0  # of the spare as shown (quarter turns since the turn began)
    turn: int = 0
    open_cards: bool = False
    return_home: bool = True
    hint: HintReady | None = None
    started: bool = False

    def tile(self, r: int, c: int) -> TileInfo:
        return self.tiles[r * 7 + c]


def _look_as(rider: pyglet.sprite.Sprite, still: pyglet.sprite.Sprite) -> None:
    """Give `rider` the picture, turn, size and place of `still` (each property set only when it
    differs: each set writes the sprite's vertices again)."""
    if rider.image is not still.image:
        rider.image = still.image
    if (rider.rotation, rider.scale) != (still.rotation, still.scale):
        rider.update(rotation=still.rotation, scale=still.scale)
    rider.position = still.position


class BoardView:
    """Draws a Model into `batch`; ``on_event`` feeds it; ``update(dt)`` runs animations."""

    def __init__(
        self,
        ui: UIView,
        batch: pyglet.graphics.Batch,
        base_order: int = 0,
        live: pyglet.graphics.Batch | None = None,
        panels_shown: bool | None = None,
    ):
        self.ui = ui
        self.batch = batch
        self.live = live if live is not None else batch
        # the play screen (panels at the corners), not the attract demo (which has a live batch too)
        self.panels_shown = live is not None if panels_shown is None else panels_shown
        #: where a seat's panel lies and which way it faces (the play screen's ``panel_place``)
        self.panel_place: Callable[[int], tuple[int, int]] = lambda seat: (seat, self._laid_out().facing(seat))
        self.effects = Effects()  # motions beside the queue (kiosk/ui/kit/motion.py)
        g = [pyglet.graphics.Group(order=base_order + k) for k in range(8)]
        self.g_frame = pyglet.graphics.Group(order=base_order - 1)  # the oak frame, under the out tile's mark
        self.g_bg, self.g_tiles, self.g_treasure, self.g_dim, self.g_pawns, self.g_arrows, self.g_top, self.g_fx = g
        self.model = Model()
        self.queue: deque[Any] = deque()
        self.anim: Callable[[float], bool] | None = None  # returns True while running
        self.t = 0.0
        self.calm_at = PULSE_S  # self.t when the pulses stop (set again by every change)
        self._calm = False
        self.cursor: tuple[int, int] | None = None
        self.on_found: Callable[[TreasureFound], None] | None = None
        self._shapes: list = []
        self._tile_sprites: list[pyglet.sprite.Sprite] = []
        self._treasure_sprites: list[pyglet.sprite.Sprite | None] = []
        self._pawns: list[pyglet.sprite.Sprite] = []
        #: the sliding row's sprites (tile, treasure) in the live batch, hidden while no row slides: a push
        #: shows them in its row's place and hides the row's still ones, instead of moving those between
        #: batches (~0.1 ms a sprite here, twice a push)
        self._riders: list[tuple[pyglet.sprite.Sprite, pyglet.sprite.Sprite]] = []
        self._riding: list[int] = []  # the board cells whose still sprites the riders stand in for
        self._dims: list = []
        self._rings: list = []
        self._arrows: dict[str, Any] = {}
        self._crosses: list = []
        self._crossed: str | None = None  # the arrow the crosses are drawn at
        self._preview_tile: pyglet.sprite.Sprite | None = None  # these five: made by resize()
        self._preview_treasure: pyglet.sprite.Sprite | None = None
        self._preview_frame: shapes.Box | None = None
        self._preview_shadow: pyglet.sprite.Sprite | None = None  # the spare lifted above the board casts it
        self._hint_marks: list = []
        self._cursor_box: shapes.Box | None = None
        self._fx: list = []
        self._homes: list = []
        self._active_ring: pyglet.sprite.Sprite | None = None
        self.layout: Layout | None = None
        # the last move, shown until the next push: {"push": (seat, line, exit arrow, tile out), "walk": (seat, path)}
        self.last_move: dict[str, Any] = {}
        self._last_moves: list[dict[str, Any]] = []  # the marks before each later action (an undo steps back)
        self._move_marks: list = []  # the walk's trail
        self._push_marks: list[Any] = []  # the pushed row's two rims and the tile out (see _mark_push)
        self._marks_drawn: Any = None  # what the marks show: (push, walk) as _sync_marks drew them
        self._marks_areas: list[Rect] = []  # where they lie on the screen

    # ------------------------------------------------------------------ building
    def resize(self, layout: Layout) -> None:
        self.layout = layout
        self.queue.clear()
        self.anim = None
        self._build()

    def _laid_out(self) -> Layout:
        """The layout of the last resize(): the screens resize the board before it draws anything."""
        assert self.layout is not None, "BoardView.resize() must come before drawing"
        return self.layout

    def _changed(self, rect: Rect | None = None) -> None:
        """The still part changed (inside `rect`; default the board and its arrow ring): the frame
        cache must be drawn again there."""
        if self.layout is not None:
            self.ui.invalidate(rect or self.layout.ring)

    def _to(self, batch, *objs) -> None:
        for obj in objs:
            if obj is not None and obj.batch is not batch:
                obj.batch = batch

    @property
    def animating(self) -> bool:
        """Something on the board moves (a frame must be drawn every frame). A pulse is not: it
        changes PULSE_HZ times a second and asks for a frame each time (``update``; ``wake_in``)."""
        return bool(self.busy or self._fx or self.effects.active)

    def _pulsing(self) -> bool:
        return self.t < self.calm_at and bool(
            self._hint_marks
            or (self._preview_frame is not None and self._preview_frame.visible)
            or (self._active_ring is not None and self._active_ring.visible)
        )

    def wake_in(self) -> float | None:
        """Seconds until a pulse's next step (None: nothing pulses), for a loop that sleeps."""
        if not self._pulsing():
            return None
        return (math.floor(self.t * PULSE_HZ) + 1) / PULSE_HZ - self.t

    def wake(self) -> None:
        """Something happened: pulse again for a while."""
        self.calm_at = self.t + PULSE_S

    def _clear(self) -> None:
        self.effects.finish()
        for obj in (
            self._shapes
            + self._tile_sprites
            + [s for s in self._treasure_sprites if s]
            + self._pawns
            + [spr for pair in self._riders for spr in pair]
            + self._dims
            + self._rings
            + list(self._arrows.values())
            + self._crosses
            + self._hint_marks
            + self._fx
            + self._homes
            + self._move_marks
            + self._push_marks
        ):
            obj.delete()
        for obj in (
            self._preview_tile,
            self._preview_treasure,
            self._preview_frame,
            self._preview_shadow,
            self._cursor_box,
            self._active_ring,
        ):
            if obj is not None:
                obj.delete()
        self._shapes, self._tile_sprites, self._treasure_sprites, self._pawns = [], [], [], []
        self._riders, self._riding = [], []
        self._crossed = None  # (its lines are gone)
        self._dims, self._rings, self._arrows, self._crosses, self._hint_marks, self._fx = [], [], {}, [], [], []
        self._homes, self._move_marks, self._push_marks = [], [], []
        self._marks_drawn, self._marks_areas = None, []
        self._preview_tile = self._preview_treasure = self._preview_frame = self._cursor_box = None
        self._preview_shadow = None
        self._active_ring = None

    def _build(self) -> None:
        self._clear()
        L = self._laid_out()
        atlas = self.ui.atlas
        self.scale = L.cell / atlas.px
        self._shapes += board_frame(L, self.batch, self.g_frame, self.ui.high_contrast)
        for i in range(49):
            r, c = divmod(i, 7)
            x, y = geometry.cell_center(L, r, c)
            s = pyglet.sprite.Sprite(atlas.tile("NS"), x, y, batch=self.batch, group=self.g_tiles)
            s.scale = self.scale
            self._tile_sprites.append(s)
            self._treasure_sprites.append(None)
            d = shapes.Rectangle(*geometry.cell_rect(L, r, c), color=(0, 0, 0, 150), batch=self.live, group=self.g_dim)
            d.visible = False
            self._dims.append(d)
        if self.live is not self.batch:
            for _ in range(7):  # a row is 7 tiles (the inserted one slides in as the spare's sprite)
                tile = pyglet.sprite.Sprite(atlas.tile("NS"), 0, 0, batch=self.live, group=self.g_tiles)
                icon = pyglet.sprite.Sprite(atlas.treasure("owl"), 0, 0, batch=self.live, group=self.g_treasure)
                tile.visible = icon.visible = False
                self._riders.append((tile, icon))
        for name in ARROWS:
            self._arrows[name] = self._arrow_shape(name)
        # the spare at an arrow is lifted above the board: its square's shadow falls down-right (docs/art.md)
        self._preview_shadow = shadow = pyglet.sprite.Sprite(
            atlas.tile_face("NESW"), 0, 0, batch=self.live, group=self.g_arrows
        )
        shadow.scale = self.scale  # the tile's face: its square as the preview shows it
        shadow.color, shadow.opacity = (0, 0, 0), 140
        shadow.visible = False
        self._preview_tile = tile = pyglet.sprite.Sprite(atlas.tile("NS"), 0, 0, batch=self.live, group=self.g_arrows)
        tile.scale = self.scale  # as large as the board's tiles, its frame round it (not over its paths)
        tile.visible = False
        self._preview_treasure = treasure = pyglet.sprite.Sprite(
            atlas.treasure("owl"), 0, 0, batch=self.live, group=self.g_top
        )
        treasure.scale = self.scale * SPARE_TREASURE_OF_TILE
        treasure.visible = False
        edge = max(2, L.px(3))
        self._preview_frame = frame = shapes.Box(
            0,
            0,
            L.cell + 2 * edge,
            L.cell + 2 * edge,
            thickness=edge,
            color=ARROW_ON,
            batch=self.live,
            group=self.g_top,
        )
        frame.visible = False
        self._cursor_box = box = shapes.Box(
            0, 0, L.cell, L.cell, thickness=max(2, L.px(3)), color=(80, 200, 255), batch=self.live, group=self.g_top
        )
        box.visible = False
        self._active_ring = ring = pyglet.sprite.Sprite(atlas.glow, 0, 0, batch=self.live, group=self.g_dim)
        ring.visible = False
        self._sync_all()

    def _arrow_shape(self, name: str) -> shapes.Triangle:
        pts = arrow_points(self._laid_out(), name)
        return shapes.Triangle(*pts[0], *pts[1], *pts[2], color=ARROW_ON, batch=self.live, group=self.g_arrows)

    # ------------------------------------------------------------------ model -> sprites
    def _set_tile(self, i: int, tile: TileInfo) -> None:
        atlas = self.ui.atlas
        spr = self._tile_sprites[i]
        region = atlas.tile(tile.openings, fixed=is_fixed(i))
        if spr.image is not region:  # (each set writes the sprite again: a landing sets 7 tiles)
            spr.image = region
        if spr.rotation != 0:
            spr.rotation = 0
        old = self._treasure_sprites[i]
        if tile.treasure:
            if old is None:
                old = pyglet.sprite.Sprite(
                    atlas.treasure(tile.treasure), spr.x, spr.y, batch=self.batch, group=self.g_treasure
                )
                old.scale = self.scale * TREASURE_OF_CELL
                self._treasure_sprites[i] = old
            else:
                picture = atlas.treasure(tile.treasure)
                if old.image is not picture:
                    old.image = picture
                if old.scale != self.scale * TREASURE_OF_CELL:
                    old.scale = self.scale * TREASURE_OF_CELL
        elif old is not None:
            old.delete()
            self._treasure_sprites[i] = None

    def _place_tile(self, i: int, x: float, y: float) -> None:
        self._tile_sprites[i].position = (x, y, 0)
        t = self._treasure_sprites[i]
        if t is not None:
            t.position = (x, y, 0)

    def _ride(self, idx: list[int]) -> list[tuple[Any, Any]]:
        """The sprites that slide for the board cells `idx` (a row): the live riders made to look as
        the cells' still sprites do, which are hidden; with no riders (one batch) those sprites themselves."""
        if len(self._riders) < len(idx):
            out = [(self._tile_sprites[i], self._treasure_sprites[i]) for i in idx]
            for ts, tr in out:
                self._to(self.live, ts, tr)
            return out
        out = []
        for (tile, icon), i in zip(self._riders, idx):
            still, treasure = self._tile_sprites[i], self._treasure_sprites[i]
            _look_as(tile, still)
            tile.visible, still.visible = True, False
            if treasure is not None:
                _look_as(icon, treasure)
                icon.visible, treasure.visible = True, False
            out.append((tile, icon if treasure is not None else None))
        self._riding = list(idx)
        return out

    def _land_riders(self) -> None:
        """The row has stopped: its still sprites show again and the riders hide."""
        for i in self._riding:
            self._tile_sprites[i].visible = True
            treasure = self._treasure_sprites[i]
            if treasure is not None:
                treasure.visible = True
        for tile, icon in self._riders[: len(self._riding)]:
            tile.visible = icon.visible = False
        self._riding = []

    def _sync_all(self) -> None:
        if self.layout is None:
            return
        self._changed()
        m = self.model
        self._land_riders()  # a slide cut short leaves its row riding
        for i in range(len(self._tile_sprites)):
            self._to(self.batch, self._tile_sprites[i], self._treasure_sprites[i])
        for i, tile in enumerate(m.tiles):
            self._set_tile(i, tile)
            self._place_tile(i, *geometry.cell_center(self.layout, *divmod(i, 7)))
        self._sync_homes()
        self._sync_pawns()
        self._sync_arrows()
        self._sync_preview()
        self._sync_reach()
        self._sync_hint()
        self._sync_marks()

    def _mark_move(self, **parts: Any) -> None:
        """Note a part of the move being made (a push clears the last move's marks)."""
        self._last_moves = [*self._last_moves[-(MARKS_KEPT - 1) :], dict(self.last_move)]
        if "push" in parts:
            self.last_move = {}
        self.last_move.update(parts)
        self._sync_marks(again=False)

    def _sync_marks(self, again: bool = True) -> None:
        """The last move, in the mover's colour, in the still layer (a few shapes): the pushed row
        outlined, the tile that went out faint at its arrow, the walk as a trail along the paths
        fading towards where it began. Only the box of the old marks and the new is drawn again in
        the cache (the whole board cost a frame ~1.5 ms more here); `again` False: not made again when
        they show what they show already (a stay's walk of one cell draws no trail)."""
        push, walk = self.last_move.get("push"), self.last_move.get("walk")
        shown = (push, walk if walk is not None and len(walk[1]) > 1 else None)
        drawn = bool(self._move_marks) or any(obj.visible for obj in self._push_marks)
        if not again and drawn and shown == self._marks_drawn:
            return
        for obj in self._move_marks:
            obj.delete()
        self._move_marks = []
        if push is None or self.layout is None or not self.model.started:
            for obj in self._push_marks:  # (else moved to the new push, shown all along)
                if obj.visible:
                    obj.visible = False
        old, self._marks_areas, self._marks_drawn = self._marks_areas, [], None
        if self.layout is None or not self.model.started:
            self._changed_in(old)
            return
        self._marks_drawn = shown
        L = self.layout
        if push is not None:
            self._mark_push(*push)
        if walk is not None and len(walk[1]) > 1:
            seat, path = walk
            n = len(path) - 1
            lo, hi = TRAIL_ALPHA
            under = pyglet.graphics.Group(order=1, parent=self.g_tiles)  # on the paths, under the treasures
            # the trail's box, its thickness on every side (that covers a segment at any angle): one area,
            # not one a segment (each area is a pass over the still layers)
            half = L.cell * TRAIL_OF_CELL / 2
            xs, ys = zip(*(geometry.cell_center(L, *cell) for cell in path))
            self._marks_areas.append(
                Rect(min(xs) - half, min(ys) - half, max(xs) - min(xs) + 2 * half, max(ys) - min(ys) + 2 * half)
            )
            for k in range(n):
                (ax, ay), (bx, by) = geometry.cell_center(L, *path[k]), geometry.cell_center(L, *path[k + 1])
                seg = shapes.Line(
                    ax,
                    ay,
                    bx,
                    by,
                    thickness=L.cell * TRAIL_OF_CELL,
                    color=SEAT_COLORS[seat],
                    batch=self.batch,
                    group=under,
                )
                seg.opacity = int(lo + (hi - lo) * k / max(1, n - 1))
                self._move_marks.append(seg)
        self._marks_areas = [area.grow(MARK_MARGIN) for area in self._marks_areas]
        self._changed_in(old + self._marks_areas)

    def _mark_push(self, seat: int, line: list[tuple[int, int]], exit_arrow: str, tile: TileInfo) -> None:
        """The pushed row outlined in a light rim and the pusher's colour, the tile that went out faint
        at its arrow: three pieces made once and moved to each push (made again each push, they cost
        its first frame ~0.3 ms here)."""
        L = self._laid_out()
        a, b = geometry.cell_rect(L, *line[0]), geometry.cell_rect(L, *line[-1])
        x0, y0 = min(a.x, b.x), min(a.y, b.y)
        w, h = max(a.right, b.right) - x0, max(a.top, b.top) - y0
        edge = max(2, L.px(3))
        self._marks_areas.append(Rect(x0, y0, w, h))
        slot = geometry.arrow_rect(L, exit_arrow)
        self._marks_areas.append(slot)  # (the faint tile: 0.9 of the slot, centred)
        rims = ((235, 235, 235), SEAT_COLORS[seat])  # a light rim: dark colours show too
        region = self.ui.atlas.tile(tile.openings)
        if not self._push_marks:
            self._push_marks = [
                shapes.Box(0, 0, 1, 1, thickness=edge, color=color, batch=self.batch, group=self.g_fx) for color in rims
            ]
            self._push_marks.append(pyglet.sprite.Sprite(region, 0, 0, batch=self.batch, group=self.g_bg))
        *boxes, out = self._push_marks
        for k, (box, color) in enumerate(zip(boxes, rims)):
            inset = k * edge
            box.position = (x0 + inset, y0 + inset)
            if (box.width, box.height, box.thickness) != (w - 2 * inset, h - 2 * inset, edge):
                box.width, box.height, box.thickness = w - 2 * inset, h - 2 * inset, edge  # (each a write)
            if tuple(box.color[:3]) != color:
                box.color = color
            if not box.visible:
                box.visible = True
        if out.image is not region:
            out.image = region
        scale = min(slot.w, slot.h) * 0.9 / self.ui.atlas.px
        if out.scale != scale:
            out.scale = scale
        out.position = (*slot.center, 0)
        out.opacity = OUT_ALPHA
        if not out.visible:
            out.visible = True

    def _changed_in(self, areas: list[Rect]) -> None:
        """The still part changed inside `areas`: drawn again in their bounding box, one area (a screen
        without ``static_parts``, the attract screen, draws all its still layers for each area)."""
        if areas:
            x0, y0 = min(a.x for a in areas), min(a.y for a in areas)
            self._changed(Rect(x0, y0, max(a.right for a in areas) - x0, max(a.top for a in areas) - y0))

    def _sync_homes(self) -> None:
        """Each player's start corner: a ring in their colour, so everyone knows where home is."""
        for h in self._homes:
            h.delete()
        self._homes = []
        L = self._laid_out()
        for seat in self.model.seats if self.model.started else []:
            r, c = ((0, 0), (0, 6), (6, 6), (6, 0))[seat]
            x, y = geometry.cell_center(L, r, c)
            self._homes.append(
                shapes.Arc(
                    x,
                    y,
                    L.cell * 0.3,
                    thickness=max(3, L.cell * 0.09),
                    color=SEAT_COLORS[seat],
                    batch=self.batch,
                    group=self.g_treasure,
                )
            )

    def _sync_pawns(self) -> None:
        m = self.model
        atlas = self.ui.atlas
        while len(self._pawns) > len(m.positions):
            self._pawns.pop().delete()
        while len(self._pawns) < len(m.positions):
            s = pyglet.sprite.Sprite(atlas.pawn(m.seats[len(self._pawns)]), 0, 0, batch=self.live, group=self.g_pawns)
            self._pawns.append(s)
        for k, spr in enumerate(self._pawns):
            spr.image = atlas.pawn(m.seats[k])
            x, y, size = self._pawn_spot(k, m.positions[k])
            spr.scale = size / atlas.px
            spr.position = (x, y, 0)
            spr.rotation = seating.facing(self._laid_out(), m.seats[k])  # stands upright for its owner
        self._sync_active_ring()

    def _pawn_spot(self, k: int, cell: tuple[int, int]) -> tuple[float, float, float]:
        """Where pawn k stands on `cell`: alone in the middle, several share the cell's quarters."""
        m = self.model
        L = self._laid_out()
        here = [j for j, p in enumerate(m.positions) if tuple(p) == tuple(cell)]
        x, y = geometry.cell_center(L, *cell)
        if len(here) <= 1:
            return x, y, L.cell * PAWN_OF_CELL
        idx = here.index(k) if k in here else 0
        dx, dy = ((-1, 1), (1, 1), (1, -1), (-1, -1))[m.seats[k] % 4] if len(here) > 2 else ((-1, 1), (1, -1))[idx % 2]
        off = L.cell * 0.24
        return x + dx * off, y + dy * off, L.cell * PAWN_SHARED_OF_CELL

    def _sync_active_ring(self) -> None:
        m = self.model
        ring = self._active_ring
        if ring is None:
            return
        if not m.started or not self._pawns or m.phase == Phase.OVER:
            ring.visible = False
            return
        spr = self._pawns[m.current]
        ring.visible = True
        ring.color = SEAT_COLORS[m.seats[m.current]]
        ring.scale = self._laid_out().cell * 0.95 / self.ui.atlas.px
        ring.position = (spr.x, spr.y, 0)

    def _sync_arrows(self) -> None:
        m = self.model
        crossed = m.forbidden if m.started else None
        if crossed != self._crossed:
            self._cross(crossed)
        self._crossed = crossed
        human = m.started and m.kinds and m.kinds[m.current] == HUMAN
        for name, tri in self._arrows.items():
            live = m.started and m.phase == Phase.SHIFT and name != m.forbidden
            color = ARROW_ON if (live and (human or not m.kinds)) else ARROW_OFF
            if tuple(tri.color[:3]) != color:  # (each change writes the shape's vertices again)
                tri.color = color
            visible = name != m.preview
            if tri.visible != visible:
                tri.visible = visible

    def _cross(self, arrow: str | None) -> None:
        """The cross over the arrow nobody may push at (`arrow`; None: no cross). Its two lines are
        made once and then moved from arrow to arrow: made again at every push's landing, they cost
        that frame a vertex domain of their own (~0.5 ms here)."""
        if arrow is None:
            for c in self._crosses:
                c.visible = False
            return
        L = self._laid_out()
        cx, cy = geometry.arrow_rect(L, arrow).center
        s = L.cell * 0.3
        w = max(3, L.px(5))
        ends = (((cx - s, cy - s), (cx + s, cy + s)), ((cx - s, cy + s), (cx + s, cy - s)))
        if not self._crosses:
            self._crosses = [
                shapes.Line(*a, *b, thickness=w, color=FORBIDDEN, batch=self.live, group=self.g_top) for a, b in ends
            ]
            return
        for line, (a, b) in zip(self._crosses, ends):
            line.position = a
            line.x2, line.y2 = b
            line.visible = True

    def _sync_preview(self) -> None:
        m = self.model
        tile, treasure, frame = self._preview_tile, self._preview_treasure, self._preview_frame
        shadow = self._preview_shadow
        assert tile is not None and treasure is not None and frame is not None, "made by resize()"
        assert shadow is not None, "made by resize()"
        show = m.started and m.phase == Phase.SHIFT and m.preview is not None
        tile.visible = frame.visible = shadow.visible = show
        treasure.visible = show and bool(m.spare.treasure)
        if not show or m.preview is None:  # (show says it is not None; this tells mypy)
            return
        atlas = self.ui.atlas
        r = geometry.arrow_rect(self._laid_out(), m.preview)
        cx, cy = r.center
        openings = rotate_openings(m.spare.openings, 0)
        tile.image = atlas.tile(openings)
        tile.rotation = 0
        tile.position = (cx, cy, 0)
        if m.spare.treasure:
            treasure.image = atlas.treasure(m.spare.treasure)
            treasure.position = (cx, cy, 0)
        edge = (frame.width - r.w) / 2  # (made a frame's width wider than the cell)
        frame.position = (r.x - edge, r.y - edge)
        lift = self._laid_out().cell * LIFT_OF_CELL
        shadow.position = (cx + lift, cy - lift * 1.3, 0)

    def _sync_reach(self) -> None:
        m = self.model
        on = m.started and m.phase == Phase.MOVE and bool(m.reachable)
        changed = False
        for i, d in enumerate(self._dims):
            visible = on and divmod(i, 7) not in m.reachable
            if d.visible != visible:
                d.visible = visible
                changed = True
        if changed:
            self.ui.request_frame()

    def _sync_hint(self) -> None:
        for h in self._hint_marks:
            h.delete()
        self._hint_marks = []
        m = self.model
        hint = m.hint
        if hint is None or not m.started or hint.player != m.current:
            return
        L = self._laid_out()
        if m.phase == Phase.SHIFT:  # the arrow to push at (the spare waits there, turned as suggested)
            where = geometry.arrow_rect(L, hint.insertion)
        elif m.phase == Phase.MOVE and tuple(hint.cell) in m.reachable:  # then the square to walk to
            where = geometry.cell_rect(L, *hint.cell)
        else:
            return
        self._hint_marks.append(
            shapes.Arc(
                *where.center,
                L.cell * 0.55,
                thickness=max(3, L.px(5)),
                color=HINT_RGB,
                batch=self.live,
                group=self.g_fx,
            )
        )

    def set_cursor(self, cell: tuple[int, int] | None) -> None:
        self.cursor = cell
        box = self._cursor_box
        if box is None:
            return
        box.visible = cell is not None
        if cell is not None:
            r = geometry.cell_rect(self._laid_out(), *cell)
            box.position = (r.x, r.y)

    # ------------------------------------------------------------------ events
    def load(self, ev: GameStarted, undone: bool = False, again: bool = False) -> None:
        """Show `ev`'s game; `undone`: it is the game before an undone action (its marks step back);
        `again`: the same moment shown again (back from the rules or a menu: its marks stay)."""
        if undone:
            self.last_move = self._last_moves.pop() if self._last_moves else {}
        elif not again:
            self.last_move, self._last_moves = {}, []
        m = Model()
        m.tiles = list(ev.board)
        m.spare = ev.spare
        m.positions = [_cell(p.position) for p in ev.players]
        m.seats = [p.seat for p in ev.players]
        m.kinds = [p.kind for p in ev.players]
        m.cards_left = [p.cards_left for p in ev.players]
        m.found = [list(p.found) for p in ev.players]
        m.current, m.phase, m.forbidden, m.turn = ev.current, ev.phase, ev.forbidden, ev.turns
        m.open_cards, m.return_home = ev.open_cards, ev.return_home
        m.started = True
        self.model = m
        self.wake()
        self.queue.clear()
        self.anim = None
        self.effects.finish()
        self._sync_all()

    def on_event(self, ev: Any) -> None:
        if isinstance(ev, GameStarted):
            self.load(ev)
            return
        if isinstance(
            ev, (BoardShifted, PawnMoved, TreasureFound, TurnChanged, PreviewMoved, SpareRotated, HintReady, GameOver)
        ):
            self.queue.append(ev)
            self._next()

    @property
    def busy(self) -> bool:
        return self.anim is not None or bool(self.queue)

    def _next(self) -> None:
        while self.anim is None and self.queue:
            ev = self.queue.popleft()
            self._apply(ev)

    def _apply(self, ev: Any) -> None:
        m = self.model
        self.wake()
        if isinstance(ev, TurnChanged):
            if ev.player != m.current or ev.phase == Phase.SHIFT:
                m.hint = None
            m.current, m.phase, m.forbidden, m.turn = ev.player, ev.phase, ev.forbidden, ev.turn
            m.reachable = frozenset(tuple(c) for c in ev.reachable)
            if ev.phase == Phase.SHIFT:
                m.preview, m.rotation = None, 0
            self._sync_arrows()
            self._sync_preview()
            self._sync_reach()
            self._sync_hint()
            self._sync_active_ring()
        elif isinstance(ev, PreviewMoved):
            m.preview, m.rotation = ev.arrow, ev.rotation
            self._spare_shown(ev.spare)
            self._sync_arrows()
            self._sync_preview()
        elif isinstance(ev, SpareRotated):
            m.rotation = ev.rotation
            self._spare_shown(ev.spare)
            self._start_turn_anim()
        elif isinstance(ev, HintReady):
            m.hint = ev
            self._sync_hint()
        elif isinstance(ev, BoardShifted):
            self._start_slide(ev)
        elif isinstance(ev, PawnMoved):
            self._start_walk(ev)
        elif isinstance(ev, TreasureFound):
            self._start_found(ev)
        elif isinstance(ev, GameOver):
            self._start_finale(ev)

    def _spare_shown(self, spare: TileInfo) -> None:
        self.model.spare = spare

    # ------------------------------------------------------------------ animations
    def update(self, dt: float) -> None:
        self.t += dt
        if self.anim is not None:
            if not self.anim(dt):
                self.anim = None
                self._next()
        self.effects.update(dt)
        calm = self.t >= self.calm_at  # pulses hold still at full strength
        changed = calm != self._calm  # then one more frame shows them still
        self._calm = calm
        t = math.floor(self.t * PULSE_HZ) / PULSE_HZ  # the pulse's step (see PULSE_HZ)
        pulses: list[tuple[Any, int]] = []
        if self._preview_frame is not None and self._preview_frame.visible:
            pulses.append((self._preview_frame, 255 if calm else 150 + int(105 * (0.5 + 0.5 * math.sin(t * 6)))))
        for h in self._hint_marks:
            pulses.append((h, 255 if calm else 120 + int(135 * (0.5 + 0.5 * math.sin(t * 5)))))
        if self._active_ring is not None and self._active_ring.visible:
            pulses.append((self._active_ring, 250 if calm else 150 + int(100 * (0.5 + 0.5 * math.sin(t * 4)))))
        for obj, opacity in pulses:
            if obj.opacity != opacity:
                obj.opacity = opacity
                changed = True
        if changed:
            self.ui.request_frame()

    def _timed(self, duration: float, step: Callable[[float], None], done: Callable[[], None]):
        state = {"t": 0.0}

        def run(dt: float) -> bool:
            state["t"] += dt
            k = min(1.0, state["t"] / duration) if duration > 0 else 1.0
            step(k)
            if k >= 1.0:
                done()
                return False
            return True

        return run

    def _start_turn_anim(self) -> None:
        m = self.model
        spr = self._preview_tile
        assert spr is not None, "made by resize()"
        if not (m.preview and spr.visible):
            self._sync_preview()
            return
        atlas = self.ui.atlas
        # the preview shows the new orientation, turning in from a quarter back
        spr.image = atlas.tile(m.spare.openings)

        def step(k):
            spr.rotation = -90 * (1 - _ease(k))

        def done():
            spr.rotation = 0
            self._sync_preview()

        self.anim = self._timed(TURN_S, step, done)

    def _drop_hint_unless_followed(self, ev: BoardShifted) -> None:
        """A push as the hint said keeps the hint (its square to walk to is marked next); another drops it."""
        hint = self.model.hint
        if hint is not None and (hint.insertion, hint.rotation % 4) != (ev.insertion, ev.rotation % 4):
            self.model.hint = None

    def _start_slide(self, ev: BoardShifted) -> None:
        m = self.model
        L = self._laid_out()
        line = [_cell(c) for c in ev.line]
        seat = m.seats[ev.player] if ev.player < len(m.seats) else 0
        self._mark_move(push=(seat, line, ev.forbidden, ev.pushed_out))
        entry = geometry.arrow_cell(ev.insertion)
        exit_cell = (2 * line[-1][0] - line[-2][0], 2 * line[-1][1] - line[-2][1])
        starts = [entry] + line
        ends = line + [exit_cell]
        idx = [r * 7 + c for r, c in line]
        # the inserted tile uses the preview sprite
        atlas = self.ui.atlas
        pv, pt, frame, shadow = self._preview_tile, self._preview_treasure, self._preview_frame, self._preview_shadow
        assert pv is not None and pt is not None and frame is not None and shadow is not None, "made by resize()"
        frame.visible = shadow.visible = False  # the spare is laid down: it slides on the board
        pv.visible = True
        pv.image = atlas.tile(ev.inserted.openings)
        pv.rotation = 0
        pv.scale = self.scale
        pt.visible = bool(ev.inserted.treasure)
        if ev.inserted.treasure:
            pt.image = atlas.treasure(ev.inserted.treasure)
            pt.scale = self.scale * 0.56
        carried = {c.player: c for c in ev.pawns}
        pawn_from = {k: geometry.cell_center(L, *m.positions[k]) for k in carried}
        sprites = [(pv, pt), *self._ride(idx)]  # the row slides: drawn every frame, not in the cache
        a, b = geometry.cell_rect(L, *entry), geometry.cell_rect(L, *exit_cell)
        strip = Rect(
            min(a.x, b.x), min(a.y, b.y), max(a.right, b.right) - min(a.x, b.x), max(a.top, b.top) - min(a.y, b.y)
        )
        self._changed(strip)
        pos_a = [geometry.cell_center(L, *c) for c in starts]
        pos_b = [geometry.cell_center(L, *c) for c in ends]

        def step(k):
            e = _ease(k)
            for (ts, tr), (ax, ay), (bx, by) in zip(sprites, pos_a, pos_b):
                x, y = ax + (bx - ax) * e, ay + (by - ay) * e
                ts.position = (x, y, 0)
                if tr is not None:
                    tr.position = (x, y, 0)
            for pl, carry in carried.items():
                ax, ay = pawn_from[pl]
                bx, by = geometry.cell_center(L, *(exit_cell if carry.wrapped else carry.end))
                self._pawns[pl].position = (ax + (bx - ax) * e, ay + (by - ay) * e, 0)

        def done():
            self._changed(strip)
            if self._riding:
                self._land_riders()
            else:
                for ts, tr in sprites[1:]:
                    self._to(self.batch, ts, tr)
            tiles = list(m.tiles)
            for k in range(len(line) - 1, 0, -1):
                tiles[idx[k]] = tiles[idx[k - 1]]
            tiles[idx[0]] = ev.inserted
            m.tiles = tiles
            m.spare = ev.pushed_out
            for c in ev.pawns:
                m.positions[c.player] = _cell(c.end)
            m.forbidden = ev.forbidden
            m.preview, m.rotation = None, 0
            self._drop_hint_unless_followed(ev)
            pv.scale = self.scale
            pt.scale = self.scale * SPARE_TREASURE_OF_TILE
            for i in idx:
                self._set_tile(i, tiles[i])
                self._place_tile(i, *geometry.cell_center(L, *divmod(i, 7)))
            self._sync_pawns()
            self._sync_arrows()
            self._sync_preview()
            self._sync_hint()
            self._fly_out(ev.pushed_out, exit_cell)

        step(0.0)
        self.anim = self._timed(SLIDE_S, step, done)

    def _fly_out(self, tile: TileInfo, cell: tuple[int, int]) -> None:
        """The tile pushed off the board flies to the panel of the player who gets it as the spare
        (in the attract demo, which has no panels, it shrinks away where it fell)."""
        m = self.model
        L = self._laid_out()
        atlas = self.ui.atlas
        x0, y0 = geometry.cell_center(L, *cell)
        spr = pyglet.sprite.Sprite(atlas.tile(tile.openings), x0, y0, batch=self.live, group=self.g_fx)
        if self.panels_shown and m.seats:
            seat = m.seats[(m.current + 1) % len(m.seats)]
            end = L.panel(self.panel_place(seat)[0]).center
            scale = (self.scale, self.scale * 0.8)
        else:
            end, scale = (x0, y0), (self.scale, self.scale * 0.2)
        self.effects.fly(spr, (x0, y0), end, FLY_S, scale, arc=L.cell * 0.6, spin=90 if self.panels_shown else 0)
        if tile.treasure:  # its treasure rides along
            icon = pyglet.sprite.Sprite(
                atlas.treasure(tile.treasure),
                x0,
                y0,
                batch=self.live,
                group=pyglet.graphics.Group(order=1, parent=self.g_fx),
            )
            self.effects.fly(
                icon,
                (x0, y0),
                end,
                FLY_S,
                (scale[0] * 0.56, scale[1] * 0.56),
                arc=L.cell * 0.6,
                spin=90 if self.panels_shown else 0,
            )

    def _start_walk(self, ev: PawnMoved) -> None:
        m = self.model
        path = [_cell(c) for c in ev.path]
        self._mark_move(walk=(m.seats[ev.player] if ev.player < len(m.seats) else 0, path))
        spr = self._pawns[ev.player]
        m.reachable = frozenset()
        self._sync_reach()
        if len(path) <= 1:
            m.positions[ev.player] = path[-1] if path else m.positions[ev.player]
            self._sync_pawns()
            return
        L = self._laid_out()
        pts = [geometry.cell_center(L, *c) for c in path]
        start = (spr.x, spr.y)
        pts[0] = start
        n = len(pts) - 1
        size = L.cell * PAWN_OF_CELL
        spr.scale = size / self.ui.atlas.px

        def step(k):
            f = k * n
            j = min(int(f), n - 1)
            e = f - j
            (ax, ay), (bx, by) = pts[j], pts[j + 1]
            hop = math.sin(e * math.pi) * L.cell * 0.08
            spr.position = (ax + (bx - ax) * e, ay + (by - ay) * e + hop, 0)
            if self._active_ring is not None:
                self._active_ring.position = (spr.x, spr.y - hop, 0)

        def done():
            m.positions[ev.player] = path[-1]
            self._sync_pawns()

        self.anim = self._timed(WALK_STEP_S * n, step, done)

    def _start_found(self, ev: TreasureFound) -> None:
        m = self.model
        atlas = self.ui.atlas
        if 0 <= ev.player < len(m.found):
            m.found[ev.player].append(ev.treasure)
            m.cards_left[ev.player] = ev.cards_left
        cell = m.positions[ev.player] if ev.player < len(m.positions) else (3, 3)
        L = self._laid_out()
        x0, y0 = geometry.cell_center(L, *cell)
        seat = m.seats[ev.player] if ev.player < len(m.seats) else 0
        place, face = self.panel_place(seat)
        px, py = L.panel(place).center
        glow = pyglet.sprite.Sprite(atlas.glow, x0, y0, batch=self.live, group=self.g_fx)
        glow.color = (255, 230, 120)
        icon = pyglet.sprite.Sprite(atlas.treasure(ev.treasure), x0, y0, batch=self.live, group=self.g_fx)
        self._fx += [glow, icon]
        if self.on_found:
            self.on_found(ev)

        face = face if self.panels_shown else 0
        size = L.cell * 1.4
        if self.panels_shown:
            self.effects.card_turn(
                self.live, self.g_fx, atlas, ev.treasure, px, py, size, rotation=face, duration=0.5, delay=0.8
            )
        self.effects.sparkles(
            self.live,
            self.g_fx,
            px if self.panels_shown else x0,
            py if self.panels_shown else y0,
            L.cell * 1.3,
            (255, 220, 90),
            delay=1.05,
        )

        def step(k):
            t = k * FOUND_S
            if t < 0.35:  # it pops out of the tile
                s = ease_out_back(t / 0.35) * 1.6
                x, y = x0, y0
            elif t < 0.8 and self.panels_shown:  # and flies to the player's panel
                e = _ease((t - 0.35) / 0.45)
                s = 1.6 - 0.6 * e
                x, y = x0 + (px - x0) * e, y0 + (py - y0) * e
            elif self.panels_shown:  # where the card turns face up
                s, (x, y) = 0.0, (px, py)
            else:
                s = 1.6 + 0.1 * math.sin((t - 0.35) * 12)
                x, y = x0, y0
            icon.visible = s > 0.01
            icon.scale = max(0.01, L.cell * s / atlas.px)
            icon.position = (x, y, 0)
            glow.scale = max(0.01, L.cell * max(s, 1.0) * 1.6 / atlas.px)
            glow.position = (x, y, 0)
            glow.opacity = int(255 * (1 - max(0.0, (t - 0.8) / 0.5)))

        def done():
            for s in (glow, icon):
                s.delete()
                if s in self._fx:
                    self._fx.remove(s)

        step(0.0)
        self.anim = self._timed(FOUND_S, step, done)

    def _start_finale(self, ev: GameOver) -> None:
        """The winners' moment: confetti in the players' colours over the board, each winner's pawn
        bouncing in a glow. Runs beside the queue: the game-over screen comes when it always did."""
        m = self.model
        m.phase, m.reachable = Phase.OVER, frozenset()  # the panels stop asking anyone to play
        self._sync_arrows()
        self._sync_reach()
        self._sync_active_ring()
        self._sync_hint()
        colors = [SEAT_COLORS[s] for s in m.seats] or list(SEAT_COLORS.values())
        colors += [(255, 226, 120), (255, 255, 255)]
        self.effects.confetti(self.live, self.g_fx, self._laid_out().ring, colors, duration=FINALE_S)
        for winner in ev.winners:  # a shared win: each winner's pawn
            if 0 <= winner < len(self._pawns):
                self._celebrate(winner)

    def _celebrate(self, winner: int) -> None:
        """The winner's pawn bounces in a gold glow with a burst of sparkles."""
        pawn = self._pawns[winner]
        base = pawn.scale
        x, y = pawn.x, pawn.y
        glow = pyglet.sprite.Sprite(self.ui.atlas.glow, x, y, batch=self.live, group=self.g_dim)
        glow.color = (255, 220, 90)  # gold: visible on every tile and seat colour
        L = self._laid_out()
        self.effects.sparkles(self.live, self.g_fx, x, y, L.cell * 1.2, (255, 236, 140), duration=0.8)

        def step(t: float) -> bool:
            k = min(1.0, t / FINALE_S)
            bounce = abs(math.sin(t * 7)) * (1 - k)
            pawn.scale = base * (1 + 0.35 * bounce)
            pawn.position = (x, y + L.cell * 0.15 * bounce, 0)
            glow.scale = L.cell * (1.4 + 0.6 * bounce) / self.ui.atlas.px
            glow.opacity = int(230 * (1 - k * 0.5))
            if k >= 1.0:
                pawn.scale, pawn.position = base, (x, y, 0)
            return k < 1.0

        self.effects.add(step, [glow])

    def finish_animations(self) -> None:
        """Run every queued animation to its end at once (tests, screenshots on demand)."""
        self.effects.finish()
        for _ in range(10_000):
            if not self.busy:
                break
            if self.anim is not None and not self.anim(1e9):
                self.anim = None
            self._next()
        self.effects.finish()
