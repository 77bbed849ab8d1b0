"""The card screen's table: the open layout in its room, the places a card could go, what may be taken.

The layout lies on an unbounded grid: the view pans and zooms (smoothly) to fit every card and
every place a card could go into the room, never smaller than the symbols' reading size; a
layout larger than that is panned, following the play, and pointers set into the room's rim
show where places and cards out of view lie (a tap on one slides the table that way). Cards that
lie beyond the part in view slide under the rim (everything of the table is clipped to the room).
The card each other player laid last is rimmed in their colour while one plays: the people round
the table see what the others did since their own turn.

The table knows its rectangle (``room``) and builds its parts (the room's rim, each card laid,
the board's marks, the pointers) through the screen's :class:`Parts`, each marking its area.
"""

from __future__ import annotations

import math
from functools import partial
from typing import Any, Sequence

import pyglet
from pyglet import gl, shapes

from engine.cards.deck import OPEN
from engine.cards.parts import CardPhase
from engine.cards.paths import Placed

from kiosk.games.cards.art import MEDAL_R, face_layout
from kiosk.games.cards.events import CardsTaken
from kiosk.games.cards.screens.model import Cell, TableModel
from kiosk.games.cards.screens.parts import Host
from kiosk.games.cards.screens.seats import player_rgb
from kiosk.ui.kit import typeface
from kiosk.ui.kit.layout import Rect
from kiosk.ui.kit.table import FRAME, FRAME_LIGHT, FRAME_SHADE, RECESS
from kiosk.ui.kit.text_cache import Spec, Text
from kiosk.ui.kit.widgets import ACCENT, Widget, note_picture

FIT_GREEN = (60, 210, 110)
FIT_SHADE = (24, 96, 48)  # the green token's side away from the light
FIT_GLINT = (190, 244, 206)  # and its glint towards it
TAKE_AMBER = (255, 196, 64)
CARD_SHADOW = (0, 0, 0, 110)  # under a card laid on the table
OPEN_EDGE = (236, 226, 200, 130)  # an empty place a card could go: a card's outline chalked in ivory
CARD_FILL = 0.97  # a card on the table fills this part of its cell (the table shows between two cards)
CARD_MAX = 120  # px at 800x480: the largest card on the table (few cards: they do not grow past it)
ROOM_RIM = 6  # px at 800x480: the oak rim round the table's room
ROOM_SHADOW = (0, 0, 0, 90)  # the rim's shadow on the walnut (light from the top-left)
MORE_CARDS = (236, 226, 200)  # a pointer to cards laid beyond the part in view (the ivory of the places' outline)
POINTER_RANK = (FIT_GREEN, TAKE_AMBER, ACCENT, MORE_CARDS)  # a side with several kinds of place shows the first
LAST_RIM = 4  # px at 800x480: the rim in a player's colour round the card they laid last
POINTER_OF_TOUCH = 0.8  # a pointer's hole in the rim, as a part of the touch size (it covered a card's edge)
POP_S = 0.35  # a card just laid pops in this long
FADE_S = 0.5  # a card taken fades away this long
# the board's squares, as parts of a cell (c): their lower-left corner left of and below the cell's
# centre, and their side; a laid card's shadow strips are rectangles of the cell too (``_square_at``)
SQUARES = {
    "fill": (0.47, 0.47, 0.94),
    "box": (0.48, 0.48, 0.96),
    "path": (0.44, 0.44, 0.88),  # inside a takeable card's thicker box, so both show
}
SHADOW_STRIPS = ("shadow_r", "shadow_b")  # a laid card's shadow: beside the card only, no layer under it all
#: the segments of a round mark: as many as pyglet gives a circle or an arc made at radius 1 (the marks
#: were made so and sized afterwards; made at their size now, they keep that outline)
ROUND_SEGMENTS = 14
TICK = Spec("\u2714", "DejaVu Sans", 10.0, bold=True)  # on a card chosen to be taken
SIDES = {"E": (1, 0), "W": (-1, 0), "N": (0, 1), "S": (0, -1)}  # a side of the room: its way on the screen


class Clip(pyglet.graphics.Group):
    """Draws its children only inside a screen rectangle (the table's room): cards that lie beyond the
    part of the table in view slide under its edge instead of over the hand and the score chips. The
    scissor state around it is put back as it was (the frame cache uses it for partial redraws)."""

    def __init__(self, rect: Rect, order: int = 0):
        super().__init__(order=order)
        self.rect = rect
        self._saved: tuple[bool, Any] = (False, None)

    def set_state(self) -> None:
        was = bool(gl.glIsEnabled(gl.GL_SCISSOR_TEST))
        box = (gl.GLint * 4)()
        if was:
            gl.glGetIntegerv(gl.GL_SCISSOR_BOX, box)
        self._saved = (was, tuple(box))
        r = self.rect
        gl.glEnable(gl.GL_SCISSOR_TEST)
        gl.glScissor(int(r.x), int(r.y), max(0, int(r.w)), max(0, int(r.h)))

    def unset_state(self) -> None:
        was, box = self._saved
        if was:
            gl.glScissor(*box)
        else:
            gl.glDisable(gl.GL_SCISSOR_TEST)

    def __eq__(self, other: object) -> bool:
        """Two clips of one rectangle are one group to a batch: each rebuild of the table makes a new one,
        and the batch keeps drawing into the same vertex domains instead of making new ones."""
        return isinstance(other, Clip) and (self.rect, self.order, self.parent) == (
            other.rect,
            other.order,
            other.parent,
        )

    def __hash__(self) -> int:
        return hash((Clip, tuple(self.rect), self.order))


def _square_at(kind: str, x: float, y: float, c: float) -> tuple[float, float, float, float]:
    """Where rectangle `kind` of the cell centred at (x, y), `c` px wide, lies: x, y, width, height.
    A square of SQUARES, or a laid card's shadow, light from the top-left (docs/art.md): a strip right
    of the card ("shadow_r") and one below it ("shadow_b"), no layer under it all."""
    if kind in SHADOW_STRIPS:
        edge = c * CARD_FILL / 2
        if kind == "shadow_r":
            return (x + edge, y - c * 0.52, c * 0.52 - edge, c * 0.98)
        return (x - c * 0.46, y - c * 0.52, c * 0.46 + edge, c * 0.52 - edge)
    fx, fy, fs = SQUARES[kind]
    return (x - c * fx, y - c * fy, c * fs, c * fs)


def _round_at(kind: Any, x: float, y: float, c: float) -> tuple[float, float, float, float | None]:
    """Where round mark `kind` of the cell centred at (x, y), `c` px wide, lies: x, y, radius and a ring's
    thickness (None: a disc). ("dot", dx, dy, r): a disc, in cells from the centre; ("ring", dx, dy, r): a
    ring round a treasure, in the card's unit box; "tick": the disc of a card chosen to be taken."""
    if kind == "tick":
        return (x + c * 0.3, y + c * 0.3, c * 0.14, None)
    name, dx, dy, rad = kind
    if name == "dot":
        return (x + dx * c, y + dy * c, rad * c, None)
    half = c * CARD_FILL / 2
    return (x + dx * half, y + dy * half, rad * half, max(2.0, c * 0.04))


class Ring(shapes.Arc):
    """A ring round a treasure (an arc all round): its radius and thickness set together, its outline made
    once for both (each set alone makes it anew: ~0.05 ms a ring here, in every frame the view moves)."""

    def resize(self, radius: float, thickness: float) -> None:
        if (self._radius, self._thickness) != (radius, thickness):
            self._radius, self._thickness = radius, thickness
            self._update_vertices()


class View:
    """Which part of the unbounded grid the board area shows: centre cell (cx, cy), cell size in px.

    The cards are never drawn smaller than ``min_cell`` (their symbols then stay readable): a layout
    larger than the room at that size is not zoomed out further but panned, following the play
    (``focus``), and never beyond the layout's own edges."""

    def __init__(self) -> None:
        self.cx = self.cy = 0.5
        self.cell = 0.0
        self.target = (0.5, 0.5, 0.0)

    def aim(
        self,
        cells: Sequence[Cell],
        rect: Rect,
        max_cell: float,
        min_cell: float = 0.0,
        focus: tuple[float, float] | None = None,
    ) -> None:
        xs = [c[0] for c in cells] or [0, 1]
        ys = [c[1] for c in cells] or [0, 1]
        cols, rows = max(xs) - min(xs) + 1, max(ys) - min(ys) + 1
        fit = min(rect.w / (cols + 0.4), rect.h / (rows + 0.4), max_cell)
        cell = max(fit, min(min_cell, max_cell))
        fx, fy = focus if focus is not None else ((min(xs) + max(xs)) / 2, (min(ys) + max(ys)) / 2)
        self.target = (
            _follow(fx, min(xs), max(xs), rect.w / cell),
            _follow(fy, min(ys), max(ys), rect.h / cell),
            cell,
        )
        if self.cell <= 0:
            self.cx, self.cy, self.cell = self.target

    def seen(self, rect: Rect, cell: Cell, target: bool = True) -> bool:
        """Whether grid cell (x, y) lies wholly inside the room (in the view aimed at, or the one shown)."""
        cx, cy, c = self.target if target else (self.cx, self.cy, self.cell)
        if c <= 0:
            return False
        half_w, half_h = rect.w / c / 2, rect.h / c / 2
        slack = 0.02
        return bool(abs(cell[0] - cx) + 0.5 <= half_w + slack and abs(cell[1] - cy) + 0.5 <= half_h + slack)

    def step(self, dt: float) -> bool:
        """Ease towards the target; True while still moving."""
        tx, ty, tc = self.target
        k = min(1.0, dt * 7.0)
        moving = abs(tx - self.cx) + abs(ty - self.cy) > 0.01 or abs(tc - self.cell) > 0.5
        if not moving:
            self.cx, self.cy, self.cell = self.target
            return False
        self.cx += (tx - self.cx) * k
        self.cy += (ty - self.cy) * k
        self.cell += (tc - self.cell) * k
        return True

    def centre(self, rect: Rect, cell: Cell) -> tuple[float, float]:
        """Screen centre of grid cell (x, y); the grid's y grows south, the screen's y up."""
        return (rect.cx + (cell[0] - self.cx) * self.cell, rect.cy - (cell[1] - self.cy) * self.cell)

    def cell_at(self, rect: Rect, x: float, y: float) -> tuple[int, int] | None:
        if not rect.contains(x, y) or self.cell <= 0:
            return None
        return (
            math.floor((x - rect.cx) / self.cell + self.cx + 0.5),
            math.floor(-(y - rect.cy) / self.cell + self.cy + 0.5),
        )


def _follow(focus: float, lo: int, hi: int, span: float) -> float:
    """The view's centre on one axis: the middle of cells lo..hi when they fit in `span` cells, else
    `focus` kept so far inside that the view does not run past the outermost cells (a margin of
    0.2 cell)."""
    if hi - lo + 1.4 <= span:
        return (lo + hi) / 2
    least, most = lo - 0.7 + span / 2, hi + 0.7 - span / 2
    return min(most, max(least, focus))


def _set(shape: Any, **values: Any) -> None:
    """Set those of a shape's properties (in the order given) that differ from `values`."""
    for name, value in values.items():
        if getattr(shape, name) != value:
            setattr(shape, name, value)


class Table:
    """The room the cards lie in, and what lies in it; the view of the grid it shows."""

    def __init__(self, host: Host) -> None:
        self.host = host
        self.view = View()
        self.room = Rect(0, 0, 1, 1)  # the screen rectangle the cards lie in (inside the oak rim)
        self.gaps: dict[str, float] = {}  # per side of the room, the room around it for a pointer
        self.pending: Cell | None = None  # the place the picked card is previewed at (1st tap)
        self._pending_key: Any = None  # the turn the preview belongs to
        self._pending_sprite: pyglet.sprite.Sprite | None = None
        self.why: list[tuple[Cell, str]] = []  # (cell, treasure): the treasures ringed while cards may be taken
        self.pointers: dict[str, tuple[int, int, int]] = {}  # side of the room -> colour of its pointer
        self.pointer_widgets: list[Widget] = []
        self.pan: tuple[float, float] = (0, 0)  # cells the view was slid from the play (``pan_towards``)
        self._pan_turn: Any = None  # the turn and phase the slide belongs to
        self._base: tuple[float, float] = (0.5, 0.5)  # the grid point the play is at (``aim``)
        self.last_cell: Cell | None = None  # where the last card was laid (the view follows it)
        self.last_laid: dict[int, Cell] = {}  # per player, where they laid their last card
        self.anims: dict[Cell, float] = {}  # cell -> seconds left of the "just laid" pop
        self._ghosts: list[list[Any]] = []  # fading sprites of taken cards
        self.sprites: dict[Cell, Any] = {}  # cell -> the sprite of the card laid there
        self.marks: list[tuple[Any, Cell, Any]] = []  # (shape, cell, kind): what follows the view
        self._marks_of_board: list[tuple[Any, Cell, Any]] = []  # the board part's marks (not the cards' shadows)
        self._placed_view: tuple[float, float, float] | None = None  # the view the board was placed for

    @property
    def model(self) -> TableModel:
        return self.host.model

    def forget(self) -> None:
        """The parts were all dropped (``Parts.clear``): nothing of the board is left to place."""
        self.sprites, self.marks, self._marks_of_board = {}, [], []
        self.why, self._pending_sprite, self._placed_view = [], None, None

    def new_game(self) -> None:
        self.pending, self.last_cell = None, None
        self.last_laid.clear()
        self.anims.clear()
        self.view.cell = 0.0

    @property
    def moving(self) -> bool:
        """Cards move, pop or fade."""
        tx, ty, tc = self.view.target
        v = self.view
        return bool(self.anims or self._ghosts or abs(tc - v.cell) > 0.5 or abs(tx - v.cx) + abs(ty - v.cy) > 0.01)

    # ------------------------------------------------------------------ what the play shows
    def picked(self, hand: Sequence[int]) -> int | None:
        """The hand card picked, if the hand is shown."""
        s = self.model.selected
        return hand[s] if hand and s is not None and s < len(hand) else None

    def cells(self) -> dict[Cell, int]:
        """The places a card could go (phase place)."""
        return self.model.legal_cells() if self.model.phase == CardPhase.PLACE else {}

    def keep_pending(self, picked: int | None) -> None:
        """The preview stays while the turn, the card picked and its turn stay (and the place is legal)."""
        m = self.model
        key = (m.current, m.turn, m.phase, m.selected, m.rotation, m.handover)
        if self.pending is not None and (
            key != self._pending_key or picked is None or self.pending not in self.cells()
        ):
            self.pending = None
        self._pending_key = key

    def build(self, picked: int | None, human: bool) -> bool:
        """The room, each card laid and the board's marks, each built again only if it changed (``Parts``);
        True if a card or the marks were built."""
        m, parts, L, room = self.model, self.host.parts, self.host.layout, self.room
        cells = self.cells()
        self.aim(cells, picked)
        parts.part("room", (L, room), partial(self._room, room), room.grow(L.px(ROOM_RIM) + max(2, L.px(4))))
        board_key: tuple[Any, ...] = (
            L,
            room,
            tuple(sorted(m.layout.items())),
            m.phase,
            m.placed,
            picked,
            m.rotation,
            human,
        )
        board_key += (self.pending, tuple(sorted(m.chosen)), tuple(self.laid_by_others()))
        built = False
        for cell, placed in m.layout.items():
            card_key = (L, room, placed.card, placed.rotation)
            built |= parts.part(("card", cell), card_key, partial(self._build_card, cell, placed), room)
        board = parts.part("board", board_key, partial(self._build_board, cells, picked, human), room)
        # the pointers in the rim to places out of view: with the board, as the view is aimed (a pan moves them)
        self.pointers = self._pointer_sides(cells, picked, human)
        if board or built:
            cards = [(cell, parts.items_of(("card", cell))) for cell in m.layout]
            self.sprites = {cell: items[2] for cell, items in cards}
            self.marks = [
                (items[k], cell, side) for cell, items in cards for k, side in enumerate(SHADOW_STRIPS)
            ] + self._marks_of_board
            self._placed_view = None
        return board or built

    def build_pointers(self, hand_rect: Rect) -> None:
        L = self.host.layout
        key = (L, self.room, hand_rect, tuple(sorted(self.pointers.items())))
        self.host.parts.part("pointers", key, self._build_pointers, self.room.grow(L.touch))

    def gone(self) -> set[Any]:
        """The parts of cards no longer on the table (taken)."""
        return {
            n
            for n in self.host.parts.built
            if isinstance(n, tuple) and n[0] == "card" and n[1] not in self.model.layout
        }

    def place_if_moved(self) -> None:
        v = self.view
        if self._placed_view != (v.cx, v.cy, v.cell):
            self.place()

    # ------------------------------------------------------------------ following the play
    @property
    def min_cell(self) -> float:
        """The smallest card on the table: the one whose treasure symbols are the picture size of the
        type scale (typeface.PICTURE, 40 px at 800x480), as the layout audit asks."""
        return math.ceil(self.host.layout.px(typeface.PICTURE) / (CARD_FILL * MEDAL_R))

    def aim(self, cells: dict[Cell, int], picked: int | None) -> None:
        """Aim the view: every card and place when they fit the room at the smallest card size, else
        the play (``_focus``), or the place nearest it that the picked card fits when none is in view,
        slid by the person's own panning (``pan_towards``) until the turn moves on."""
        m, L = self.model, self.host.layout
        turn = (m.current, m.turn, m.phase)
        if turn != self._pan_turn:  # a new turn or phase: the view follows the play again
            self._pan_turn, self.pan = turn, (0, 0)
        room = self.room
        fresh = self.view.cell <= 0  # a new screen or size: the view jumps to where it is aimed at last
        spread = list(m.layout) + list(cells)
        focus = self._focus()
        self.view.aim(spread, room, L.px(CARD_MAX), self.min_cell, focus)
        fits = [c for c, mask in cells.items() if picked is not None and OPEN[picked][m.rotation] & mask]
        if fits and not any(self.view.seen(room, c) for c in fits):
            # none of the places the picked card fits is in view: the one nearest the play comes into view
            fx, fy = focus if focus is not None else self.view.target[:2]
            focus = min(fits, key=lambda c: ((c[0] - fx) ** 2 + (c[1] - fy) ** 2, c))
        base = focus if focus is not None else self.view.target[:2]
        if base != self._base:  # the play moved (a card shown at a place, another card picked): follow it
            self._base, self.pan = (base[0], base[1]), (0, 0)
        if self.pan != (0, 0):
            focus = (self._base[0] + self.pan[0], self._base[1] + self.pan[1])
        self.view.aim(spread, room, L.px(CARD_MAX), self.min_cell, focus)
        if fresh:
            self.view.cx, self.view.cy, self.view.cell = self.view.target

    def _focus(self) -> tuple[float, float] | None:
        """Where the play is, for a layout larger than the room (``View.aim``): the cards that may be taken
        with the card just laid, else the place a card is shown at, else the card laid last; where that
        card is in view already, the view as it is (the table slid to every computer's card in turn)."""
        m = self.model
        spots: list[Cell]
        if m.phase == CardPhase.TAKE and m.placed is not None:
            spots = [m.placed] + [m.cell_of(card) for card in m.takeable()]
        elif self.pending is not None:
            spots = [self.pending]
        elif self.last_cell is not None and self.last_cell in m.layout:
            if self.view.seen(self.room, self.last_cell):
                return self.view.target[0], self.view.target[1]
            spots = [self.last_cell]
        else:
            return None
        xs, ys = [c[0] for c in spots], [c[1] for c in spots]
        return ((min(xs) + max(xs)) / 2, (min(ys) + max(ys)) / 2)

    def pan_towards(self, side: str) -> None:
        """Slide the table to show what lies beyond `side` (N, E, S, W of the room) of the part in view:
        nearly a roomful of cells that way (until the next turn, when it follows the play again)."""
        if not self.model.started or self.view.cell <= 0:
            return
        room, (cx, cy, c) = self.room, self.view.target
        ux, uy = SIDES[side]
        uy = -uy  # (the grid's y grows south)
        step = max(1.0, math.floor((room.w if ux else room.h) / c) - 1.0)
        # from where the view is now (a focus past the layout's edge is clamped there, not accumulated)
        self.pan = (cx + ux * step - self._base[0], cy + uy * step - self._base[1])
        self.host.refresh()

    def bring_into_view(self, cell: Cell) -> bool:
        """Pan so that grid cell (x, y) is in view once aimed again; True if it was not."""
        if self.view.seen(self.room, cell):
            return False
        self.pan = (cell[0] - self._base[0], cell[1] - self._base[1])
        return True

    # ------------------------------------------------------------------ motion
    def step(self, dt: float, rise: float) -> bool:
        """The view eases, a card laid pops, the cards taken fade away rising `rise` px a second;
        True if something moved."""
        moving = self.view.step(dt)
        busy = moving or bool(self.anims) or bool(self._ghosts)
        for cell in list(self.anims):
            self.anims[cell] -= dt
            if self.anims[cell] <= 0:
                del self.anims[cell]
        for ghost in list(self._ghosts):
            ghost[1] -= dt
            if ghost[1] <= 0:
                ghost[0].delete()
                self._ghosts.remove(ghost)
            else:
                ghost[0].opacity = int(255 * ghost[1] / FADE_S)
                ghost[0].y += dt * rise
        return busy

    def laid(self, cell: Cell, player: int | None = None) -> None:
        self.anims[cell] = POP_S
        self.last_cell = cell
        if player is not None:
            self.last_laid[player] = cell
        self.pending = None

    def laid_by_others(self) -> list[tuple[Cell, int]]:
        """While a player places a card: the card each other player laid last (since that player's own
        last turn: everyone lays once a round) and still on the table, and who laid it."""
        m = self.model
        if m.phase != CardPhase.PLACE:
            return []
        return sorted((cell, p) for p, cell in self.last_laid.items() if p != m.current and cell in m.layout)

    def fade_out(self, ev: CardsTaken) -> None:
        """The cards taken leave the table: each a fading copy of its sprite, rising."""
        atlas = self.host.card_atlas()
        if self.view.cell <= 0:
            return
        for cell, card in zip(ev.cells, ev.cards):
            sprite = self.sprites.get((cell[0], cell[1]))
            if sprite is None:
                continue
            ghost = pyglet.sprite.Sprite(
                atlas.face(card), sprite.x, sprite.y, batch=self.host.batch, group=pyglet.graphics.Group(order=30)
            )
            ghost.scale, ghost.rotation = sprite.scale, sprite.rotation
            self._ghosts.append([ghost, FADE_S])

    # ------------------------------------------------------------------ the parts
    def _room(self, room: Rect) -> None:
        """The table's room, drawn once per change: an oak rim round it (light from the top-left, a shadow
        on the walnut to the bottom right), the walnut showing inside, as the board game's frame."""
        L, batch = self.host.layout, self.host.batch
        t = L.px(ROOM_RIM)
        outer = room.grow(t)
        g_shadow, g_rim, g_edge = (pyglet.graphics.Group(order=k) for k in (0, 1, 2))
        off = max(2, L.px(4))
        parts: list[Any] = [  # the shadow: a strip right of the rim and one below it
            shapes.Rectangle(outer.right, outer.y - off, off, outer.h, color=ROOM_SHADOW, batch=batch, group=g_shadow),
            shapes.Rectangle(
                outer.x + off, outer.y - off, outer.w, off, color=ROOM_SHADOW, batch=batch, group=g_shadow
            ),
        ]
        for x, y, w, h in (  # the oak: four bands
            (outer.x, outer.y, outer.w, t),
            (outer.x, room.top, outer.w, t),
            (outer.x, room.y, t, room.h),
            (room.right, room.y, t, room.h),
        ):
            parts.append(shapes.Rectangle(x, y, w, h, color=FRAME, batch=batch, group=g_rim))
        edge = max(1.0, L.px(2))
        for (x0, y0, x1, y1), rgb in (
            ((outer.x, outer.top - edge / 2, outer.right, outer.top - edge / 2), FRAME_LIGHT),  # lit: top, left
            ((outer.x + edge / 2, outer.y, outer.x + edge / 2, outer.top), FRAME_LIGHT),
            ((outer.x, outer.y + edge / 2, outer.right, outer.y + edge / 2), FRAME_SHADE),  # away from the light
            ((outer.right - edge / 2, outer.y, outer.right - edge / 2, outer.top), FRAME_SHADE),
            ((room.x, room.top + edge / 2, room.right, room.top + edge / 2), FRAME_SHADE),  # the inner lip
            ((room.x - edge / 2, room.y, room.x - edge / 2, room.top), FRAME_SHADE),
            ((room.x, room.y - edge / 2, room.right, room.y - edge / 2), FRAME_LIGHT),
            ((room.right + edge / 2, room.y, room.right + edge / 2, room.top), FRAME_LIGHT),
        ):
            parts.append(shapes.Line(x0, y0, x1, y1, thickness=edge, color=rgb, batch=batch, group=g_edge))
        self.host.parts.add(*parts)

    def _build_card(self, cell: Cell, placed: Placed) -> None:
        """A card laid on the table, with its shadow: a part of its own, kept while it lies there
        (a card laid or taken makes one card's sprite, not every card's again). Clipped to the room
        like the rest of the board, so a card beyond the part in view slides under its rim."""
        batch, parts = self.host.batch, self.host.parts
        clip = Clip(self.room, order=1)
        g_shadows = pyglet.graphics.Group(order=1, parent=clip)
        for side in SHADOW_STRIPS:
            parts.add(shapes.Rectangle(*self._square(cell, side), color=CARD_SHADOW, batch=batch, group=g_shadows))
        sprite = pyglet.sprite.Sprite(
            self.host.card_atlas().face(placed.card),
            0,
            0,
            batch=batch,
            group=pyglet.graphics.Group(order=3, parent=clip),
        )
        sprite.rotation = 90 * placed.rotation
        parts.add(sprite)

    def _build_board(self, cells: dict[Cell, int], picked: int | None, human: bool) -> None:
        """The board's marks: places a card could go, the card previewed, what may be taken (the cards
        laid are parts of their own, ``_build_card``)."""
        m, atlas = self.model, self.host.card_atlas()
        self.marks = []
        self.why = []
        self._pending_sprite = None
        # all of it clipped to the room, so the places and marks beyond the part in view slide under its rim
        clip = Clip(self.room, order=1)
        g_marks, g_cards, g_over = (pyglet.graphics.Group(order=k, parent=clip) for k in (2, 3, 4))
        for cell, mask in cells.items():
            fits = picked is not None and human and bool(OPEN[picked][m.rotation] & mask)
            self._mark(cell, "fit" if fits else "open", g_marks)
        if self.pending is not None and picked is not None:
            sprite = pyglet.sprite.Sprite(atlas.face(picked), 0, 0, batch=self.host.batch, group=g_cards)
            sprite.rotation = 90 * m.rotation
            sprite.opacity = 190
            self.host.parts.add(sprite)
            self._pending_sprite = sprite
            self._mark(self.pending, "laid", g_over)
        for cell, player in self.laid_by_others():  # what the others laid, each rimmed in their colour
            edge = shapes.Box(
                *self._square(cell, "box"),
                thickness=max(2.0, self.host.layout.px(LAST_RIM)),
                color=(*player_rgb(player), 255),
                batch=self.host.batch,
                group=g_over,
            )
            self.marks.append((edge, cell, "box"))
            self.host.parts.add(edge)
        if m.phase == CardPhase.TAKE and m.placed is not None:
            self._mark(m.placed, "laid", g_over)
            self._why_takeable(pyglet.graphics.Group(order=5, parent=clip))
            for card in m.takeable():
                self._mark(m.cell_of(card), "chosen" if card in m.chosen else "takeable", g_over)
        self._marks_of_board = self.marks

    def _why_takeable(self, group: Any) -> None:
        """Why cards may be taken: the joined path lit over its cards, and a ring round the matching
        treasure at each end (on the card just laid and on every card it joins)."""
        m, batch = self.model, self.host.batch
        assert m.placed is not None
        joined = m.joined()
        self.why = []  # (cell, treasure) rings shown, for tests and scripts
        for name, cells in m.joined_paths().items():
            for cell in cells:  # an amber outline: the cards stay as bright as they are
                edge = shapes.Box(
                    *self._square(cell, "path"), thickness=2, color=(*TAKE_AMBER, 200), batch=batch, group=group
                )
                self.marks.append((edge, cell, "path"))
                self.host.parts.add(edge)
            ends = [m.placed] + [m.cell_of(card) for card in sorted(joined.get(name, ()))]
            for cell in ends:
                self._rings(cell, name, group)

    def _rings(self, cell: Cell, name: str, group: Any) -> None:
        """A ring round each treasure `name` on the card at `cell` (turned with the card)."""
        placed = self.model.layout[cell]
        for treasure, x, y in face_layout(placed.card)[1]:
            if treasure != name:
                continue
            for _ in range(placed.rotation % 4):  # turned clockwise with the card
                x, y = y, -x
            kind = ("ring", x, y, MEDAL_R * 1.25)
            x0, y0, radius, thickness = self._round_mark(cell, kind, 1, 3)
            ring = Ring(
                x0,
                y0,
                radius,
                segments=ROUND_SEGMENTS,
                thickness=thickness,
                color=(*TAKE_AMBER, 255),
                batch=self.host.batch,
                group=group,
            )
            self.marks.append((ring, cell, kind))
            self.host.parts.add(ring)
            self.why.append((cell, name))

    def _mark(self, cell: Cell, kind: str, group: Any) -> None:
        batch, parts = self.host.batch, self.host.parts
        if kind == "fit":  # the picked card fits: the chalked outline in green, a printed card's rim inside
            shape = shapes.Rectangle(*self._square(cell, "fill"), color=(*FIT_GREEN, 110), batch=batch, group=group)
            edge = shapes.Box(
                *self._square(cell, "box"), thickness=3, color=(*FIT_GREEN, 255), batch=batch, group=group
            )
            rim = shapes.Box(*self._square(cell, "path"), thickness=2, color=OPEN_EDGE, batch=batch, group=group)
            # and in its middle a green token, lit from the top-left like the pieces: "lay it here"
            discs = []
            for rgb, spot in (
                (FIT_SHADE, ("dot", 0.015, -0.025, 0.12)),
                (FIT_GREEN, ("dot", 0, 0, 0.11)),
                (FIT_GLINT, ("dot", -0.035, 0.035, 0.035)),
            ):
                discs.append((self._disc(cell, spot, rgb, group), cell, spot))
            self.marks += [(shape, cell, "fill"), (edge, cell, "box"), (rim, cell, "path"), *discs]
            parts.add(shape, edge, rim, *(disc for disc, _cell, _kind in discs))
        elif kind == "open":  # an empty place: a card's outline chalked on the walnut (no fill: no blending)
            edge = shapes.Box(*self._square(cell, "box"), thickness=2, color=OPEN_EDGE, batch=batch, group=group)
            self.marks.append((edge, cell, "box"))
            parts.add(edge)
        elif kind == "laid":
            edge = shapes.Box(
                *self._square(cell, "box"), thickness=3, color=(255, 255, 255, 230), batch=batch, group=group
            )
            self.marks.append((edge, cell, "box"))
            parts.add(edge)
        elif kind in ("takeable", "chosen"):
            if kind == "chosen":
                fill = shapes.Rectangle(*self._square(cell, "fill"), color=(*TAKE_AMBER, 110), batch=batch, group=group)
                tick = self._disc(cell, "tick", (*TAKE_AMBER, 255), group)
                mark = self._tick(group.parent)
                self.marks += [(fill, cell, "fill"), (tick, cell, "tick"), (mark, cell, "tick_label")]
                parts.add(fill, tick, mark)
            edge = shapes.Box(
                *self._square(cell, "box"), thickness=4, color=(*TAKE_AMBER, 255), batch=batch, group=group
            )
            self.marks.append((edge, cell, "box"))
            parts.add(edge)

    def _tick(self, clip: Any) -> Text:
        """The tick on a card chosen to be taken, over the board's marks in `clip` (sized by ``place``)."""
        group = pyglet.graphics.Group(order=5, parent=clip)
        return Text(TICK, 0, 0, 0, (30, 30, 30, 255), self.host.batch, group)

    def _pointer_sides(
        self, cells: dict[Cell, int], picked: int | None, human: bool
    ) -> dict[str, tuple[int, int, int]]:
        """For each side of the room beyond which lie places a card could go (or, after a placement, cards
        that may be taken) out of view: the colour of the pointer on that side (``_build_pointers``).
        Green when the picked card fits a place that way (as the places themselves), amber for cards to take,
        ivory where only cards laid lie beyond the rim (cut off by it, they had no pointer)."""
        pointers: dict[str, tuple[int, int, int]] = {}
        m = self.model
        if not human or self.view.cell <= 0:
            return pointers
        if m.phase == CardPhase.TAKE:
            wanted = {m.cell_of(card): TAKE_AMBER for card in m.takeable()}
        elif m.phase == CardPhase.PLACE:
            wanted = {
                cell: FIT_GREEN if picked is not None and OPEN[picked][m.rotation] & mask else ACCENT
                for cell, mask in cells.items()
            }
        else:
            return pointers
        wanted = {cell: MORE_CARDS for cell in m.layout} | wanted
        room, (cx, cy, c) = self.room, self.view.target
        half_w, half_h = room.w / c / 2, room.h / c / 2
        for cell, rgb in wanted.items():
            if self.view.seen(room, cell):
                continue
            dx, dy = cell[0] - cx, cell[1] - cy
            side = ("E" if dx > 0 else "W") if abs(dx) - half_w >= abs(dy) - half_h else ("S" if dy > 0 else "N")
            best = pointers.get(side)
            if best is None or POINTER_RANK.index(rgb) < POINTER_RANK.index(best):
                pointers[side] = rgb
        return pointers

    def _build_pointers(self) -> None:
        """The pointers (``pointers``): a token on each such side pointing there; a tap pans the table that way."""
        room, L, batch = self.room, self.host.layout, self.host.batch
        d = L.touch
        r = d / 2
        rv = r * POINTER_OF_TOUCH  # the hole as drawn; a finger's whole touch size still answers
        # set into the room's oak rim like the board's arrows into its frame: a hole with an arrow in it,
        # as far out as the room's surroundings allow (the screen's edge, the strips, the hand)
        g_edge, g_face = pyglet.graphics.Group(order=6), pyglet.graphics.Group(order=7)
        self.pointer_widgets = []
        for side, rgb in self.pointers.items():
            ux, uy = SIDES[side]
            inward = max(0.0, r - self.gaps[side] + 1)  # the touch area: inside the room's surroundings
            tx, ty = room.cx + ux * (room.w / 2 - inward), room.cy + uy * (room.h / 2 - inward)
            out = r - rv  # the hole drawn that much further out, in the rim, over less of the cards
            x, y = tx + ux * out, ty + uy * out
            self.host.parts.add(
                shapes.Circle(x, y, rv, color=FRAME_LIGHT, batch=batch, group=g_edge),
                shapes.Circle(x + rv * 0.05, y - rv * 0.05, rv * 0.86, color=RECESS, batch=batch, group=g_face),
            )
            tip, back, wide = rv * 0.6, rv * 0.3, rv * 0.5  # the arrowhead, pointing out of the room
            px_, py_ = -uy, ux
            self.host.parts.add(
                shapes.Triangle(
                    x + ux * tip,
                    y + uy * tip,
                    x - ux * back + px_ * wide,
                    y - uy * back + py_ * wide,
                    x - ux * back - px_ * wide,
                    y - uy * back - py_ * wide,
                    color=rgb,
                    batch=batch,
                    group=pyglet.graphics.Group(order=8),
                )
            )
            w = Widget(Rect(tx - r, ty - r, d, d), on_tap=partial(self.pan_towards, side))
            self.pointer_widgets.append(self.host.parts.touch(w))

    # ------------------------------------------------------------------ where things are
    def _square(self, cell: Cell, kind: str) -> tuple[float, float, float, float]:
        """Where rectangle `kind` (``_square_at``) of grid `cell` is with the view as it is now: x, y,
        width, height (a mark made there is not moved again by ``place`` until the view moves)."""
        v, c = self.view, self.view.cell
        if c <= 0:
            return (0, 0, 1, 1)
        return _square_at(kind, *v.centre(self.room, cell), c)

    def _round_mark(
        self, cell: Cell, kind: Any, radius: float, thickness: float = 0.0
    ) -> tuple[float, float, float, float]:
        """Where a round mark (a disc, a ring, the tick's disc) of grid `cell` is with the view as it is now:
        x, y, radius, thickness (``_round_at``); made there, it is not made again by ``place`` until
        the view moves. Before there is a view: at the origin, `radius` and `thickness` wide."""
        v, c = self.view, self.view.cell
        if c <= 0:
            return (0.0, 0.0, radius, thickness)
        x, y, r, t = _round_at(kind, *v.centre(self.room, cell), c)
        return (x, y, r, thickness if t is None else t)

    def _disc(self, cell: Cell, kind: Any, rgb: Any, group: Any) -> shapes.Circle:
        """A disc of grid `cell` (a ("dot", ...) of the green token, the "tick"), made where it goes."""
        x, y, radius, _thickness = self._round_mark(cell, kind, 1)
        return shapes.Circle(x, y, radius, segments=ROUND_SEGMENTS, color=rgb, batch=self.host.batch, group=group)

    def place(self) -> None:
        """Put the board sprites and marks where the (moving) view says."""
        v, r = self.view, self.room
        if v.cell <= 0 or not self.model.started:
            return
        atlas = self.host.card_atlas()
        c = v.cell
        self._placed_view = (v.cx, v.cy, c)
        for cell, sprite in self.sprites.items():
            x, y = v.centre(r, cell)
            pop = self.anims.get(cell, 0.0)
            scale = c * CARD_FILL / atlas.px * (1 + pop * 0.6)
            if (sprite.x, sprite.y, sprite.scale) != (x, y, scale):  # (a card kept in place is not moved)
                sprite.update(x=x, y=y, scale=scale)
            opacity = int(255 * (1 - pop * 1.5)) if pop else 255
            if sprite.opacity != opacity:
                sprite.opacity = opacity
            # a card wholly beyond the room is not drawn at all (the room's clip hides the rest)
            visible = abs(x - r.cx) < r.w / 2 + c / 2 and abs(y - r.cy) < r.h / 2 + c / 2
            if sprite.visible != visible:
                sprite.visible = visible
            note_picture(sprite, "card_symbol", "table card", c * CARD_FILL * MEDAL_R)
        if self._pending_sprite is not None and self.pending is not None:
            x, y = v.centre(r, self.pending)
            self._pending_sprite.update(x=x, y=y, scale=c * CARD_FILL / atlas.px)
        for shape, cell, kind in self.marks:
            _place_mark(shape, kind, *v.centre(r, cell), c)
        self.host.parts.mark(r)


def _place_mark(shape: Any, kind: Any, x: float, y: float, c: float) -> None:
    """Put one mark of a cell centred at (x, y), `c` px wide, where its kind says; what is where
    it should be is not set again (a shape's size, set, makes its vertices anew)."""
    if isinstance(kind, tuple) or kind == "tick":  # a disc, a ring round a treasure, the tick's disc
        px, py, radius, thickness = _round_at(kind, x, y, c)
        _set(shape, position=(px, py))
        if thickness is None:
            _set(shape, radius=radius)
        else:
            shape.resize(radius, thickness)
    elif kind in SQUARES or kind in SHADOW_STRIPS:  # moved and sized only if the view moved
        px, py, w, h = _square_at(kind, x, y, c)
        if shape.position != (px, py):
            shape.position = (px, py)
        if shape.width != w or shape.height != h:
            shape.width, shape.height = w, h
    else:  # the tick's text: laid out again only for a new size
        _set(shape, position=(x + c * 0.3, y + c * 0.3, 0), font_size=max(6, c * 0.14))
