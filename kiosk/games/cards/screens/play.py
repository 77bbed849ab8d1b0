"""The card game's play screen: the open layout, the scores, and the active player's hand.

Where things are: a strip of score chips along each long edge of the screen
(the first half of the players along the far edge, the rest along the near
one; in the tabletop layout each chip faces its player), the hand of the
player whose turn it is beside the table (landscape: a column on the right;
portrait: a band above or below), the open layout in what is left. Every text
is at least the body size of the type scale (kiosk/ui/shell/typeface.py): a long
instruction wraps onto more lines rather than being set smaller.

Input becomes commands (kiosk/card_events.py), nothing else: a tap on a hand
card picks it (the picked card again turns it), the turn button turns it, a
tap on a highlighted place lays it; after a placement that joins treasures the
cards that may be taken light up, a tap ticks or unticks one, and the take
button confirms (with none ticked it takes nothing). The session answers with
events; the screen then redraws from the session's public state, so what is
shown is always what the session holds.

The layout lies on an unbounded grid: the view pans and zooms (smoothly) to
fit every card and every place a card could go into the board area.

Hands are private on a shared screen: only the hand of the human whose turn
it is is shown, asked from ``CardSession.visible_hand`` at drawing time; when
a human follows another human, a "Pass to <colour>" sheet covers the screen
until the new player taps (``HandOver``); it shows what the previous player
did (the card laid, the cards taken), which the new player did not watch.
Computer hands are shown as backs. In the tabletop layout the hand panel moves
to the edge the active player sits at and faces them (one person against the
computer sits at the near edge), and so does the hand-over sheet.

An accidental touch never costs a turn: the first tap on a place where the
picked card fits only shows it there; a second tap on the same place lays it
(any other tap, a turn of the card or another card moves or drops the preview).
"""

from __future__ import annotations

import math
from functools import partial
from typing import Any, Sequence

import pyglet
from pyglet import gl, shapes

from engine.cards.parts import CardPhase
from engine.cards.deck import OPEN

from kiosk.games import HUMAN
from kiosk.games.cards.screens.seats import ACTIVE_TRAY, player_rgb, seat_token, strength_stars
from kiosk.games.cards.events import (
    CardDiscarded,
    CardGameOver,
    CardGameStarted,
    CardLaid,
    CardsTaken,
    ConfirmTake,
    DiscardCard,
    HandOver,
    LayCard,
    RotateHandCard,
    SelectHandCard,
    ToggleTake,
)
from kiosk.core.events import ActionUndone, GameAbandoned, IllegalInput, Undo
from kiosk.games.cards.art import MEDAL_R, CardAtlas
from kiosk.ui.audit.contrast import text_shade
from kiosk.ui.shell import typeface, widgets
from kiosk.ui.shell.edge_note import EdgeNote
from kiosk.ui.shell.label_pool import LabelPool
from kiosk.ui.shell.layout import Layout, Rect
from kiosk.ui.shell.menu import GO, measure, undo_button
from kiosk.ui.shell.screen import SCREENS, Screen, register, session_for
from kiosk.ui.shell.table import FRAME, FRAME_LIGHT, FRAME_SHADE, RECESS
from kiosk.ui.shell.widgets import (
    ACCENT,
    BUTTON,
    DIM,
    DISABLED,
    INK,
    PANEL,
    PANEL_EDGE,
    UNDO_KEYS,
    Button,
    Frame,
    Widget,
    box,
    label,
    note_picture,
    shared,
)

TOAST_S = 3.0
HANDOVER_ORDER = 40  # the hand-over sheet's drawing groups start here (above everything of the table)
GAMEOVER_DELAY_S = 1.6
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
POINTER_RANK = (FIT_GREEN, TAKE_AMBER, ACCENT)  # a side with several kinds of place shows the first
CHIP_EMPTY = (52, 40, 32)  # a score chip's place for the cards taken while there are none: a dark hollow
PILE_EDGE = (120, 108, 92)  # the edge of the little card that stands for the cards taken on a score chip
POINTER_OF_TOUCH = 0.8  # a pointer's hole in the rim, as a part of the touch size (it covered a card's edge)
SCORE_ROW = 40  # px at 800x480: a score chip's row, a line of body text and its margins
# the board's squares, as parts of a cell (c): their lower-left corner left of and below the cell's
# centre, and their side; a laid card's shadow strips are rectangles of the cell too (``_square_at``)
SQUARES = {
    "fill": (0.47, 0.47, 0.94),
    "box": (0.48, 0.48, 0.96),
    "path": (0.44, 0.44, 0.88),  # inside a takeable card's thicker box, so both show
}
SHADOW_STRIPS = ("shadow_r", "shadow_b")  # a laid card's shadow: beside the card only, no layer under it all


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


Cell = tuple[int, int]  # a place on the card game's unbounded grid (x, y), y growing south


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


#: the segments of a round mark: as many as pyglet gives a circle or an arc made at radius 1 (the marks
#: were made so and sized afterwards; made at their size now, they keep that outline)
ROUND_SEGMENTS = 14


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


#: frames in a row in which the rest of the table waits for a board built again (CardsPlayScreen._rebuild)
BEHIND_FRAMES = 6


def _set(shape: Any, **values: Any) -> None:
    """Set those of a shape's properties (in the order given) that differ from `values`."""
    for name, value in values.items():
        if getattr(shape, name) != value:
            setattr(shape, name, value)


@register("cards_play")
class CardsPlayScreen(Screen):
    """The travel card game being played (people, computer seats, or both)."""

    controls = True  # the rotate button under the hand (a replay only shows)

    def __init__(self, ui: Any) -> None:
        super().__init__(ui)
        self.view = View()
        self.atlas: CardAtlas | None = None
        self._atlas_px = 0
        # the picture in parts, each built again only when what it shows changes (``_part``): part name ->
        # (its key, its shapes, labels and sprites, its widgets)
        self._parts: dict[Any, tuple[Any, list[Any], list[Any]]] = {}
        self._part_items: list[Any] = []  # the items of the part being built
        # the chips' and the hand panel's texts, given back when their part is built again: a name, a
        # count or a prompt that comes back (every turn) is moved, not laid out again (~0.4 ms a text here)
        self.labels = LabelPool()
        self._pooled: set[int] = set()  # the ids of the items taken from it
        self._placed_view: tuple[float, float, float] | None = None  # the view the board was placed for
        self._marks_of_board: list[tuple[Any, Cell, Any]] = []  # the board part's marks (not the cards' shadows)
        self._behind = False  # the board (or the chips) was built this frame; the rest follows (_rebuild)
        self._waits = 0  # the frames in a row the rest waited for a board built again (_rebuild)
        self._chips_built = False  # the last _build_scores built a chip
        self._chips_left = False  # and left another chip for the next frame
        self._board_sprites: dict[Cell, tuple[Any, int]] = {}  # cell -> (sprite, rotation) for the view animation
        self._board_marks: list[tuple[Any, Cell, Any]] = []  # (shape, cell, kind) highlights that follow the view
        self.why: list[
            tuple[Cell, str]
        ] = []  # (cell, treasure): the matching treasures ringed while cards may be taken
        self._signature: Any = None
        self._anims: dict[Cell, float] = {}  # cell -> seconds left of the "just laid" pop
        self._ghosts: list[list[Any]] = []  # fading sprites of taken cards
        self.toast = ""
        self._chip_words_fit = False  # the score chips say their counters in words (_build_scores)
        self.toast_until = 0.0
        self._over: CardGameOver | None = None
        self._over_at: float | None = None
        self.hand_widgets: list[Widget] = []  # the hand cards' touch areas, slot order
        self.pending: tuple[int, int] | None = None  # the place the picked card is previewed at (1st tap)
        self._pending_key: Any = None
        self.last_turn: dict[str, Any] | None = None  # what the previous player did (for the hand-over sheet)
        self._hand_far = False  # the hand panel at the far edge (its owner sits there)
        self.notes = pyglet.graphics.Batch()
        self.note = EdgeNote(self.notes)  # a refusal for the person who tapped, facing them
        self.audit_sheet: int | None = None  # the hand-over sheet's group order while it is up (layout audit)
        self.pan: tuple[float, float] = (0, 0)  # cells the view was slid from the play (``pan_towards``)
        self._pan_turn: Any = None  # the turn and phase the slide belongs to
        self._last_cell: tuple[int, int] | None = None  # where the last card was laid (the view follows it)
        self.pointers: dict[str, tuple[int, int, int]] = {}  # side of the room -> colour of its pointer
        self._base: tuple[float, float] = (0.5, 0.5)  # the grid point the play is at (``_rebuild``)
        self._compute_areas()

    # ------------------------------------------------------------------ state
    @property
    def session(self) -> Any:
        return session_for(self.kiosk, "cards")

    @property
    def game(self) -> Any:
        s = self.session
        return getattr(s, "game", None)

    def facing(self, player: int | None) -> int:
        """Text turned towards `player`'s side of the table (tabletop only): the first half sit far.

        With one person (the others are computers) that person sits at the near edge."""
        g, s = self.game, self.session
        if not self.layout.tabletop or player is None or g is None:
            return 0
        if sum(1 for k in s.kinds if k == HUMAN) <= 1:
            return 0
        return 180 if player < (g.players + 1) // 2 else 0

    def player_name(self, player: int) -> str:
        return self.t(f"colour.{self.session.color_of(player)}")

    # ------------------------------------------------------------------ lifecycle
    def enter(self, **kw: Any) -> None:
        self._over, self._over_at = None, None
        self.view.cell = 0.0
        self._signature = None
        self._clear()
        self._rebuild()

    def leave(self) -> None:
        super().leave()
        self.note.hide()

    def draw(self) -> None:
        self.draw_table()
        self.batch.draw()
        self.notes.draw()

    def resize(self, layout: Layout) -> None:
        self.note.hide()
        self._compute_areas()
        self.view.cell = 0.0
        self._signature = None
        self._clear()
        self._rebuild()

    def _sides(self) -> tuple[list[int], list[int]]:
        """The players whose score chips run along the far (top) edge and along the near edge: the
        first half far, as they sit in the tabletop layout (``facing``); one person against the
        computer has their chip at the near edge, where they sit."""
        g = self.game
        n = g.players if g is not None else 4
        order = list(range(n))
        s = self.session
        people = [i for i in order if g is not None and s.kinds[i] == HUMAN]
        if len(people) == 1:  # one person (near edge, as ``facing``): their chip along their edge
            order = [i for i in order if i != people[0]] + people
        half = (n + 1) // 2
        return order[:half], order[half:]

    def _strip_rows(self, count: int) -> int:
        return math.ceil(count / (2 if self.layout.portrait else 3)) if count else 0

    def _compute_areas(self) -> None:
        """The score strips along the two long edges (each chip facing its player), the hand at its
        owner's side (``_hand_far``: turned to the far edge) and the table in what is left."""
        L = self.layout
        m = L.px(6)
        row = L.px(SCORE_ROW)
        far, near = self._sides()
        top_h, bottom_h = self._strip_rows(len(far)) * row, self._strip_rows(len(near)) * row
        # the strips leave a finger-wide square at the left end of each long edge: the menu buttons'
        # (menu_spots)
        spot = L.touch + m
        self.top_strip = Rect(m + spot, L.height - m - top_h, L.width - 2 * m - spot, top_h)
        self.bottom_strip = Rect(m + spot, m, L.width - 2 * m - spot, bottom_h)
        y0, y1 = self.bottom_strip.top + m, self.top_strip.y - m
        if L.portrait:
            hand_h = L.px(320)
            if self._hand_far:
                self.hand_rect = Rect(m, y1 - hand_h, L.width - 2 * m, hand_h)
                self.board_rect = Rect(0, y0, L.width, self.hand_rect.y - m - y0)
            else:
                self.hand_rect = Rect(m, y0, L.width - 2 * m, hand_h)
                self.board_rect = Rect(0, self.hand_rect.top + m, L.width, y1 - self.hand_rect.top - m)
        else:
            side = L.px(270)
            self.hand_rect = Rect(L.width - side - m, y0, side, y1 - y0)
            self.board_rect = Rect(0, y0, L.width - side - 2 * m, y1 - y0)
        # the room the cards lie in: the board area inside its oak rim
        self.room = self.board_rect.inset(L.px(ROOM_RIM) + m)

    def menu_spots(self) -> list[tuple[Rect, int]]:
        """The in-game menu's buttons (kiosk/ui/shell/game_menu.py): at the table's end of each long edge
        (the left, clear of the hand), beside the score chips, turned to the people at that edge
        (one, at the near edge, in the upright layout). None while the hand-over sheet covers the
        table: a tap anywhere on it gives the screen to the next player."""
        s = self.session
        if s is not None and s.handover:
            return []
        L = self.layout
        m, side = L.px(6), L.touch
        spots = [(Rect(m, m, side, side), 0)]
        if L.tabletop:
            spots.append((Rect(m, L.height - m - side, side, side), 180))
        return spots

    def _atlas(self) -> CardAtlas:
        px = int(min(256, max(96, self.layout.px(150))))
        theme = getattr(self.ui, "theme", None)
        if self.atlas is None or self._atlas_px != px or self.atlas.theme is not theme:
            self.ui.window.switch_to()
            self.atlas = CardAtlas(px, self.ui.window, theme=theme)
            self._atlas_px = px
        return self.atlas

    # ------------------------------------------------------------------ events
    def on_event(self, ev: Any) -> None:
        if isinstance(ev, CardGameStarted):
            self._over, self._over_at = None, None
            self.last_turn, self.pending = None, None
            self._anims.clear()
            self.view.cell = 0.0
        elif isinstance(ev, CardLaid):
            self._anims[(ev.cell[0], ev.cell[1])] = 0.35
            self._last_cell = (ev.cell[0], ev.cell[1])
            self.last_turn = dict(player=ev.player, card=ev.card, rotation=ev.rotation, taken=(), discarded=None)
            self.pending = None
        elif isinstance(ev, CardsTaken):
            self._fade_out(ev)
            if self.last_turn is not None and self.last_turn["player"] == ev.player:
                self.last_turn["taken"] = tuple(ev.cards)
        elif isinstance(ev, CardDiscarded):
            self.last_turn = dict(player=ev.player, card=None, rotation=0, taken=(), discarded=ev.card)
        elif isinstance(ev, ActionUndone):
            self.last_turn, self.pending = None, None  # the turn is being played again
            self._anims.clear()
        elif isinstance(ev, IllegalInput):
            self._answer(self._reason_text(ev))
        elif isinstance(ev, CardGameOver):
            self._over, self._over_at = ev, None
        elif isinstance(ev, GameAbandoned):
            if self.game is None and "attract" in SCREENS:
                self.ui.goto("attract")
                return
        self._signature = None

    def _reason_text(self, ev: IllegalInput) -> str:
        """A refusal in the screen's language: by its code (``refusal.<code>``, kiosk/card_session.py).

        Two refusals say more with the player's name: a computer is playing, or
        the screen must be handed over first.
        """
        s, g = self.session, self.game
        if g is not None and g.phase != CardPhase.OVER:
            if ev.code == "computer_turn" or (s.kinds[g.current] != HUMAN and not ev.code):
                return self.t("cards.thinking", player=self.player_name(g.current))
            if ev.code == "pass_screen":
                return self.t("cards.pass_to", player=self.player_name(g.current))
        has = getattr(self.ui.translator, "has", None)
        if ev.code and has is not None and has(f"refusal.{ev.code}"):
            return self.t(f"refusal.{ev.code}")
        return ev.reason  # no translation for it: the session's English sentence

    def _show_toast(self, text: str) -> None:
        self.toast = text
        self.toast_until = self.ui.now() + TOAST_S

    def _answer(self, text: str) -> None:
        """A refusal: during a computer's turn, to the person who just tapped, at their edge and
        facing them (the hand panel shows the computer's side); otherwise in the hand panel, which
        faces the player whose turn it is."""
        s, g = self.session, self.game
        edge = self.note.tapper_edge(self.layout, self.ui.now())
        if edge is not None and g is not None and g.phase != "over" and s.kinds[g.current] != HUMAN:
            self.note.show(self.layout, text, edge, self.ui.now())
            return
        self._show_toast(text)

    def _fade_out(self, ev: CardsTaken) -> None:
        atlas = self.atlas
        if atlas is None or self.view.cell <= 0:
            return
        for cell, card in zip(ev.cells, ev.cards):
            entry = self._board_sprites.get((cell[0], cell[1]))
            if entry is None:
                continue
            sprite, rot = entry
            ghost = pyglet.sprite.Sprite(
                atlas.face(card), sprite.x, sprite.y, batch=self.batch, group=pyglet.graphics.Group(order=30)
            )
            ghost.scale, ghost.rotation = sprite.scale, sprite.rotation
            self._ghosts.append([ghost, 0.5])

    # ------------------------------------------------------------------ frame
    def update(self, dt: float) -> None:
        moving = self.view.step(dt)
        if moving or self._anims or self._ghosts:
            self.ui.request_frame()  # this update moves something: its last step is drawn too
        for cell in list(self._anims):
            self._anims[cell] -= dt
            if self._anims[cell] <= 0:
                del self._anims[cell]
        for ghost in list(self._ghosts):
            ghost[1] -= dt
            if ghost[1] <= 0:
                ghost[0].delete()
                self._ghosts.remove(ghost)
            else:
                ghost[0].opacity = int(255 * ghost[1] / 0.5)
                ghost[0].y += dt * self.layout.px(60)
        if self.toast and self.ui.now() >= self.toast_until:
            self.toast = ""
            self._signature = None
        self.note.update(self.ui.now())
        sig = self._state_signature()
        if sig != self._signature or self._behind:
            self._rebuild()
        elif moving or self._anims:
            self._place_board()
        if self._over is not None and not self.busy:
            # counted in frame time, so offscreen runs with a virtual clock see the same pause
            self._over_at = (GAMEOVER_DELAY_S if self._over_at is None else self._over_at) - dt
            if self._over_at <= 0 and "cards_gameover" in SCREENS:
                ev, self._over = self._over, None
                self.ui.goto("cards_gameover", event=ev)

    @property
    def animating(self) -> bool:
        """Frames while cards move, pop or fade and during the game-over pause; a still table is
        drawn again only when it changes (``_rebuild``), after an input or an event."""
        return self.busy or self._over is not None

    def wake_in(self) -> float | None:
        """A message on the table runs out then (update takes it away)."""
        return max(0.0, self.toast_until - self.ui.now()) if self.toast else None

    @property
    def busy(self) -> bool:
        tx, ty, tc = self.view.target
        return bool(
            self._anims
            or self._behind
            or self._ghosts
            or abs(tc - self.view.cell) > 0.5
            or abs(tx - self.view.cx) + abs(ty - self.view.cy) > 0.01
        )

    def _state_signature(self) -> Any:
        s, g = self.session, self.game
        if g is None:
            return None
        hand = s.visible_hand(g.current)
        return (
            tuple(sorted(g.layout.items())),
            g.phase,
            g.current,
            tuple(g.scores),
            s.hand_sizes(),
            hand,
            s.selected,
            s.rotation,
            tuple(sorted(s.chosen)),
            s.handover,
            len(g.draw_pile),
            self.toast,
            self.layout,
            self.pending,
            s.undo_player,
            s.kinds,  # a seat changed hands: its chip says who plays it now
        )

    # ------------------------------------------------------------------ building the picture
    @property
    def _items(self) -> list[Any]:
        """Every shape, label and sprite of the current picture (tests and the replay look at them)."""
        return [item for _key, items, _widgets in self._parts.values() for item in items]

    def _clear(self) -> None:
        """Drop the whole picture: the next build makes every part anew."""
        for _key, items, _widgets in self._parts.values():
            self._delete(items)
        self._parts = {}
        self.labels.clear()  # (a new size or language: those texts will not come back)
        self._board_sprites = {}
        self._board_marks = []
        self.why = []
        self._pending_sprite: pyglet.sprite.Sprite | None = None
        self.hand_widgets = []
        self._placed_view = None
        self._behind, self._waits = False, 0
        self.widgets.clear()
        self._held = None

    def _part(self, name: Any, key: Any, build: Any) -> bool:
        """Part `name` of the picture, built by `build()` again only when its `key` (what it shows)
        changed: a tap on a hand card or a score that changes redraws that part, not the whole table
        (laying out a dozen texts and a hundred shapes took ~13 ms here, ~65 ms on a Pi 4).
        The layout audit sees every part built (its recorder notes texts as they are made). True if built."""
        old = self._parts.get(name)
        if old is not None and old[0] == key and widgets.RECORDER is None:
            return False
        if old is not None:
            self._delete(old[1])
        kept = self.widgets
        self._part_items, self.widgets = [], []
        try:
            build()
            self._parts[name] = (key, self._part_items, self.widgets)
        finally:
            self.widgets, self._part_items = kept, []
        return True

    def _drop_parts(self, keep: set[Any]) -> None:
        """Delete the parts not in `keep` (a hand-over sheet taken away, the chips of a smaller table)."""
        for name in [n for n in self._parts if n not in keep]:
            self._delete(self._parts.pop(name)[1])

    def _delete(self, items: list[Any]) -> None:
        """Delete a part's items; its texts from the pool go back to it."""
        for item in items:
            if id(item) in self._pooled:
                self._pooled.discard(id(item))
                self.labels.give_back(item)
            else:
                item.delete()

    def _tick(self, clip: Any) -> pyglet.text.Label:
        """The tick on a card chosen to be taken, over the board's marks in `clip`."""
        return pyglet.text.Label(
            "\u2714",
            font_name="DejaVu Sans",
            font_size=10,
            weight="bold",
            color=(30, 30, 30, 255),
            anchor_x="center",
            anchor_y="center",
            batch=self.batch,
            group=shared(pyglet.graphics.Group(order=5, parent=clip)),
        )

    def _text(self, *args: Any, **kw: Any) -> pyglet.text.Label:
        """A text as :func:`label` makes it, from the pool (given back when its part is built again)."""
        lab = self.labels.take(*args, **kw)
        self._pooled.add(id(lab))
        return lab

    def _rebuild(self) -> None:
        """The picture again from the session's state: each part (the board, each score chip, the
        hand panel, the hand-over sheet) only if what it shows changed (``_part``)."""
        self._signature = self._state_signature()
        self.ui.request_frame()  # the table changed: draw it (a still table is not drawn again)
        s, g = self.session, self.game
        if g is None:
            self._clear()
            return
        atlas = self.atlas
        if self._atlas() is not atlas:
            self._clear()  # new card pictures (a size or a theme): every sprite anew
        L = self.layout
        far = self.facing(g.current) == 180
        if far != self._hand_far:
            self._hand_far = far
            self._compute_areas()
            self._clear()  # the hand and the table moved
        hand = s.visible_hand(g.current)
        picked = hand[s.selected] if hand and s.selected is not None and s.selected < len(hand) else None
        cells = g.legal_cells() if g.phase == CardPhase.PLACE else {}
        key = (g.current, g.turns, g.phase, s.selected, s.rotation, s.handover)
        if self.pending is not None and (key != self._pending_key or picked is None or self.pending not in cells):
            self.pending = None
        self._pending_key = key
        self._aim(g, cells, picked)
        room = self.room
        # the table's room: its oak rim, built again only for a new size or side of the hand
        self._part("room", (L, room), partial(self._room, room))
        human = s.kinds[g.current] == HUMAN and not s.handover
        layout = tuple(sorted(g.layout.items()))
        board_key = (
            L,
            room,
            layout,
            g.phase,
            g.placed,
            picked,
            s.rotation,
            human,
            self.pending,
            tuple(sorted(s.chosen)),
        )
        built = False
        for cell, placed in g.layout.items():
            card_key = (L, room, placed.card, placed.rotation)
            built |= self._part(("card", cell), card_key, partial(self._build_card, cell, placed))
        board = self._part("board", board_key, partial(self._build_board, cells, picked, human))
        # the pointers in the rim to places out of view: with the board, as the view is aimed (a pan moves them)
        self.pointers = self._pointer_sides(g, cells, picked, human)
        pointers_key = (L, room, self.hand_rect, tuple(sorted(self.pointers.items())))
        if board or built:
            cards = [(cell, placed.rotation, self._parts[("card", cell)][1]) for cell, placed in g.layout.items()]
            self._board_sprites = {cell: (items[2], rot) for cell, rot, items in cards}
            self._board_marks = [
                (items[k], cell, side) for cell, _rot, items in cards for k, side in enumerate(SHADOW_STRIPS)
            ] + self._marks_of_board
            self._placed_view = None
            if self._parts and widgets.RECORDER is None and self._waits < BEHIND_FRAMES:
                # the board changed: the pointers and the chips follow in the next frame and the hand panel
                # in the one after, so that no frame builds the whole table (a computer's turn changes every
                # part: ~10 ms here); so too when the board changes again in that next frame (a computer
                # ticking the cards it takes), a few frames in a row at most
                self._behind = True
                self._waits += 1
                gone = {("card", cell) for cell in self._board_gone(g)}  # (cards taken: gone at once)
                self._drop_parts(set(self._parts) - gone)
                if self._placed_view != (self.view.cx, self.view.cy, self.view.cell):
                    self._place_board()
                self._gather_widgets(sheet=s.handover and "handover" in self._parts)
                return
        self._part("pointers", pointers_key, self._build_pointers)
        self._behind, self._waits = False, 0
        if self._placed_view != (self.view.cx, self.view.cy, self.view.cell):
            self._place_board()
        chips = self._build_scores()
        chips_built = self._chips_built
        p = g.current
        hand_key = (
            L,
            p,
            g.phase,
            hand,
            len(g.hands[p]),
            s.selected,
            s.rotation,
            s.handover,
            s.kinds,
            len(g.draw_pile),
            self.toast,
            self.pending,
            s.undo_player,
            tuple(sorted(s.chosen)),
            layout if g.phase == CardPhase.TAKE else None,  # whether the cards chosen may be taken
            self._prompt(hand, picked),
        )
        hand_old = self._parts.get("hand")
        if (
            self._chips_left or (chips_built and (hand_old is None or hand_old[0] != hand_key))
        ) and widgets.RECORDER is None:
            # a chip was built this frame: the next chip, then the hand panel, follow in the next frames
            # (each is a few ms)
            self._behind = True
            self._gather_widgets(sheet=s.handover and "handover" in self._parts)
            return
        self._part("hand", hand_key, partial(self._build_hand, hand, picked))
        self.audit_sheet = None
        sheet = s.handover and g.phase != CardPhase.OVER
        if sheet:
            last = self.last_turn
            sheet_key = (L, p, s.undo_player, None if last is None else tuple(sorted(last.items())))
            self._part("handover", sheet_key, self._build_handover)
            self.audit_sheet = HANDOVER_ORDER
        laid = {("card", cell) for cell in g.layout}
        self._drop_parts({"room", "board", "pointers", "hand", *laid, *chips, *(["handover"] if sheet else [])})
        self._gather_widgets(sheet)

    def _gather_widgets(self, sheet: bool) -> None:
        """The widgets of the parts shown: the hand-over sheet's alone while it is up (a tap anywhere
        hands over), else the pointers' and the hand's (the hand's on top)."""
        parts = ["handover"] if sheet else ["pointers", "hand"]
        self.widgets = [w for name in parts if name in self._parts for w in self._parts[name][2]]
        self._held = None

    def _board_gone(self, g: Any) -> list[Any]:
        """The cells of card parts whose card is no longer on the table."""
        return [
            name[1] for name in self._parts if isinstance(name, tuple) and name[0] == "card" and name[1] not in g.layout
        ]

    def _build_board(self, cells: dict[Any, int], picked: int | None, human: bool) -> None:
        """The board's marks: places a card could go, the card previewed, what may be taken (the cards
        laid are parts of their own, ``_build_card``)."""
        s, g, atlas = self.session, self.game, self._atlas()
        self._board_marks = []
        self.why = []
        self._pending_sprite = None
        # all of it clipped to the room, so the places and marks beyond the part in view slide under its rim
        clip = Clip(self.room, order=1)
        g_marks, g_cards, g_over = (pyglet.graphics.Group(order=k, parent=clip) for k in (2, 3, 4))
        for cell, mask in cells.items():
            fits = picked is not None and human and bool(OPEN[picked][s.rotation] & mask)
            self._mark(cell, "fit" if fits else "open", g_marks)
        if self.pending is not None and picked is not None:
            sprite = pyglet.sprite.Sprite(atlas.face(picked), 0, 0, batch=self.batch, group=g_cards)
            sprite.rotation = 90 * s.rotation
            sprite.opacity = 190
            self._part_items.append(sprite)
            self._pending_sprite = sprite
            self._mark(self.pending, "laid", g_over)
        if g.phase == CardPhase.TAKE:
            self._mark(g.placed, "laid", g_over)
            self._why_takeable(g, pyglet.graphics.Group(order=5, parent=clip))
            for card in g.takeable():
                cell = g.cell_of(card)
                self._mark(cell, "chosen" if card in s.chosen else "takeable", g_over)
        self._marks_of_board = self._board_marks

    def _build_card(self, cell: Cell, placed: Any) -> None:
        """A card laid on the table, with its shadow: a part of its own, kept while it lies there
        (a card laid or taken makes one card's sprite, not every card's again). Clipped to the room
        like the rest of the board, so a card beyond the part in view slides under its rim."""
        clip = Clip(self.room, order=1)
        g_shadows = pyglet.graphics.Group(order=1, parent=clip)
        for side in SHADOW_STRIPS:
            shadow = shapes.Rectangle(*self._square(cell, side), color=CARD_SHADOW, batch=self.batch, group=g_shadows)
            self._part_items.append(shadow)
        sprite = pyglet.sprite.Sprite(
            self._atlas().face(placed.card), 0, 0, batch=self.batch, group=pyglet.graphics.Group(order=3, parent=clip)
        )
        sprite.rotation = 90 * placed.rotation
        self._part_items.append(sprite)

    # ------------------------------------------------------------------ the room and following the play
    @property
    def min_cell(self) -> float:
        """The smallest card on the table: the one whose treasure symbols are the picture size of the
        type scale (typeface.PICTURE, 40 px at 800x480), as the layout audit asks."""
        return math.ceil(self.layout.px(typeface.PICTURE) / (CARD_FILL * MEDAL_R))

    def _aim(self, g: Any, cells: dict[Cell, int], picked: int | None) -> None:
        """Aim the view: every card and place when they fit the room at the smallest card size, else
        the play (``_focus``), or the place nearest it that the picked card fits when none is in view,
        slid by the person's own panning (``pan_towards``) until the turn moves on."""
        L, s = self.layout, self.session
        turn = (g.current, g.turns, g.phase)
        if turn != self._pan_turn:  # a new turn or phase: the view follows the play again
            self._pan_turn, self.pan = turn, (0, 0)
        room = self.room
        fresh = self.view.cell <= 0  # a new screen or size: the view jumps to where it is aimed at last
        spread = list(g.layout) + list(cells)
        focus = self._focus(g, cells)
        self.view.aim(spread, room, L.px(CARD_MAX), self.min_cell, focus)
        fits = [c for c, mask in cells.items() if picked is not None and OPEN[picked][s.rotation] & mask]
        if fits and not any(self.view.seen(room, c) for c in fits):
            # none of the places the picked card fits is in view: the one nearest the play comes into view
            fx, fy = focus if focus is not None else self.view.target[:2]
            focus = min(fits, key=lambda c: ((c[0] - fx) ** 2 + (c[1] - fy) ** 2, c))
        base = focus if focus is not None else self.view.target[:2]
        if base != self._base:  # the play moved (a card shown at a place, another card picked): follow it
            self._base, self.pan = base, (0, 0)
        if self.pan != (0, 0):
            focus = (self._base[0] + self.pan[0], self._base[1] + self.pan[1])
        self.view.aim(spread, room, L.px(CARD_MAX), self.min_cell, focus)
        if fresh:
            self.view.cx, self.view.cy, self.view.cell = self.view.target

    def _focus(self, g: Any, cells: dict[Cell, int]) -> tuple[float, float] | None:
        """Where the play is, for a layout larger than the room (``View.aim``): the cards that may be taken
        with the card just laid, else the place a card is shown at, else the card laid last."""
        if g.phase == CardPhase.TAKE and g.placed is not None:
            spots = [g.placed] + [g.cell_of(card) for card in g.takeable()]
        elif self.pending is not None:
            spots = [self.pending]
        elif self._last_cell is not None and self._last_cell in g.layout:
            spots = [self._last_cell]
        else:
            return None
        xs, ys = [c[0] for c in spots], [c[1] for c in spots]
        return ((min(xs) + max(xs)) / 2, (min(ys) + max(ys)) / 2)

    def _room(self, room: Rect) -> None:
        """The table's room, drawn once per change: an oak rim round it (light from the top-left, a shadow
        on the walnut to the bottom right), the walnut showing inside, as the board game's frame."""
        L = self.layout
        t = L.px(ROOM_RIM)
        outer = room.grow(t)
        g_shadow, g_rim, g_edge = (pyglet.graphics.Group(order=k) for k in (0, 1, 2))
        off = max(2, L.px(4))
        parts: list[Any] = [  # the shadow: a strip right of the rim and one below it
            shapes.Rectangle(
                outer.right, outer.y - off, off, outer.h, color=ROOM_SHADOW, batch=self.batch, group=g_shadow
            ),
            shapes.Rectangle(
                outer.x + off, outer.y - off, outer.w, off, color=ROOM_SHADOW, batch=self.batch, group=g_shadow
            ),
        ]
        for x, y, w, h in (  # the oak: four bands
            (outer.x, outer.y, outer.w, t),
            (outer.x, room.top, outer.w, t),
            (outer.x, room.y, t, room.h),
            (room.right, room.y, t, room.h),
        ):
            parts.append(shapes.Rectangle(x, y, w, h, color=FRAME, batch=self.batch, group=g_rim))
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
            parts.append(shapes.Line(x0, y0, x1, y1, thickness=edge, color=rgb, batch=self.batch, group=g_edge))
        self._part_items += parts

    def _pointer_sides(
        self, g: Any, cells: dict[Cell, int], picked: int | None, human: bool
    ) -> dict[str, tuple[int, int, int]]:
        """For each side of the room beyond which lie places a card could go (or, after a placement, cards
        that may be taken) out of view: the colour of the pointer on that side (``_build_pointers``).
        Green when the picked card fits a place that way (as the places themselves), amber for cards to take."""
        pointers: dict[str, tuple[int, int, int]] = {}
        if not human or self.view.cell <= 0:
            return pointers
        s = self.session
        if g.phase == CardPhase.TAKE:
            wanted = {g.cell_of(card): TAKE_AMBER for card in g.takeable()}
        elif g.phase == CardPhase.PLACE:
            wanted = {
                cell: FIT_GREEN if picked is not None and OPEN[picked][s.rotation] & mask else ACCENT
                for cell, mask in cells.items()
            }
        else:
            return pointers
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
        room = self.room
        L = self.layout
        d = L.touch
        r = d / 2
        rv = r * POINTER_OF_TOUCH  # the hole as drawn; a finger's whole touch size still answers
        # set into the room's oak rim like the board's arrows into its frame: a hole with an arrow in it,
        # as far out as the room's surroundings allow (the screen's edge, the strips, the hand)
        gap = {"W": self.room.x, "E": self.hand_rect.x - self.room.right}
        gap["N"] = self.top_strip.y - self.room.top if self.top_strip.h else L.height - self.room.top
        gap["S"] = self.room.y - self.bottom_strip.top if self.bottom_strip.h else self.room.y
        g_edge, g_face = pyglet.graphics.Group(order=6), pyglet.graphics.Group(order=7)
        for side, rgb in self.pointers.items():
            ux, uy = {"E": (1, 0), "W": (-1, 0), "N": (0, 1), "S": (0, -1)}[side]
            inward = max(0.0, r - gap[side] + 1)  # the touch area: inside the room's surroundings
            tx, ty = room.cx + ux * (room.w / 2 - inward), room.cy + uy * (room.h / 2 - inward)
            out = r - rv  # the hole drawn that much further out, in the rim, over less of the cards
            x, y = tx + ux * out, ty + uy * out
            self._part_items.append(shapes.Circle(x, y, rv, color=FRAME_LIGHT, batch=self.batch, group=g_edge))
            self._part_items.append(
                shapes.Circle(x + rv * 0.05, y - rv * 0.05, rv * 0.86, color=RECESS, batch=self.batch, group=g_face)
            )
            tip, back, wide = rv * 0.6, rv * 0.3, rv * 0.5  # the arrowhead, pointing out of the room
            px_, py_ = -uy, ux
            self._part_items.append(
                shapes.Triangle(
                    x + ux * tip,
                    y + uy * tip,
                    x - ux * back + px_ * wide,
                    y - uy * back + py_ * wide,
                    x - ux * back - px_ * wide,
                    y - uy * back - py_ * wide,
                    color=rgb,
                    batch=self.batch,
                    group=pyglet.graphics.Group(order=8),
                )
            )
            self.add(Widget(Rect(tx - r, ty - r, d, d), on_tap=partial(self.pan_towards, side)))

    def pan_towards(self, side: str) -> None:
        """Slide the table to show what lies beyond `side` (N, E, S, W of the room) of the part in view:
        nearly a roomful of cells that way (until the next turn, when it follows the play again)."""
        g = self.game
        if g is None or self.view.cell <= 0:
            return
        room, (cx, cy, c) = self.room, self.view.target
        ux, uy = {"E": (1, 0), "W": (-1, 0), "N": (0, -1), "S": (0, 1)}[side]  # grid y grows south
        step = max(1.0, math.floor((room.w if ux else room.h) / c) - 1.0)
        # from where the view is now (a focus past the layout's edge is clamped there, not accumulated)
        self.pan = (cx + ux * step - self._base[0], cy + uy * step - self._base[1])
        self._signature = None

    def bring_into_view(self, cell: Cell) -> None:
        """Pan the table at once (no easing) so that grid cell (x, y) is in view: for tests and scripts,
        which tap cells as a person would after panning."""
        g = self.game
        if g is None:
            return
        self._rebuild()
        if not self.view.seen(self.room, cell):
            self.pan = (cell[0] - self._base[0], cell[1] - self._base[1])
            self._rebuild()
        self.view.cx, self.view.cy, self.view.cell = self.view.target
        self._place_board()

    def _why_takeable(self, g: Any, group: Any) -> None:
        """Why cards may be taken: the joined path lit over its cards, and a ring round the matching
        treasure at each end (on the card just laid and on every card it joins)."""
        from kiosk.games.cards.art import MEDAL_R, face_layout

        joined = g.joined()
        self.why = []  # (cell, treasure) rings shown, for tests and scripts
        for name, cells in g.joined_paths().items():
            for cell in cells:  # an amber outline: the cards stay as bright as they are
                edge = shapes.Box(
                    *self._square(cell, "path"), thickness=2, color=(*TAKE_AMBER, 200), batch=self.batch, group=group
                )
                self._board_marks.append((edge, cell, "path"))
                self._part_items.append(edge)
            ends = [g.placed] + [g.cell_of(card) for card in sorted(joined.get(name, ()))]
            for cell in ends:
                placed = g.layout[cell]
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
                        batch=self.batch,
                        group=group,
                    )
                    self._board_marks.append((ring, cell, kind))
                    self._part_items.append(ring)
                    self.why.append((cell, name))

    def _mark(self, cell: Cell, kind: str, group: Any) -> None:
        if kind == "fit":  # the picked card fits: the chalked outline in green, a printed card's rim inside
            shape = shapes.Rectangle(
                *self._square(cell, "fill"), color=(*FIT_GREEN, 110), batch=self.batch, group=group
            )
            edge = shapes.Box(
                *self._square(cell, "box"), thickness=3, color=(*FIT_GREEN, 255), batch=self.batch, group=group
            )
            rim = shapes.Box(*self._square(cell, "path"), thickness=2, color=OPEN_EDGE, batch=self.batch, group=group)
            # and in its middle a green token, lit from the top-left like the pieces: "lay it here"
            discs = []
            for rgb, spot in (
                (FIT_SHADE, ("dot", 0.015, -0.025, 0.12)),
                (FIT_GREEN, ("dot", 0, 0, 0.11)),
                (FIT_GLINT, ("dot", -0.035, 0.035, 0.035)),
            ):
                discs.append((self._disc(cell, spot, rgb, group), cell, spot))
            under, dot, glint = (disc for disc, _cell, _kind in discs)
            self._board_marks += [(shape, cell, "fill"), (edge, cell, "box"), (rim, cell, "path"), *discs]
            self._part_items += [shape, edge, rim, under, dot, glint]
        elif kind == "open":  # an empty place: a card's outline chalked on the walnut (no fill: no blending)
            edge = shapes.Box(*self._square(cell, "box"), thickness=2, color=OPEN_EDGE, batch=self.batch, group=group)
            self._board_marks.append((edge, cell, "box"))
            self._part_items.append(edge)
        elif kind == "laid":
            edge = shapes.Box(
                *self._square(cell, "box"), thickness=3, color=(255, 255, 255, 230), batch=self.batch, group=group
            )
            self._board_marks.append((edge, cell, "box"))
            self._part_items.append(edge)
        elif kind in ("takeable", "chosen"):
            if kind == "chosen":
                fill = shapes.Rectangle(
                    *self._square(cell, "fill"), color=(*TAKE_AMBER, 110), batch=self.batch, group=group
                )
                tick = self._disc(cell, "tick", (*TAKE_AMBER, 255), group)
                mark = self._tick(group.parent)
                self._board_marks += [(fill, cell, "fill"), (tick, cell, "tick"), (mark, cell, "tick_label")]
                self._part_items += [fill, tick, mark]
            edge = shapes.Box(
                *self._square(cell, "box"), thickness=4, color=(*TAKE_AMBER, 255), batch=self.batch, group=group
            )
            self._board_marks.append((edge, cell, "box"))
            self._part_items.append(edge)

    def _square(self, cell: Cell, kind: str) -> tuple[float, float, float, float]:
        """Where rectangle `kind` (``_square_at``) of grid `cell` is with the view as it is now: x, y,
        width, height (a mark made there is not moved again by ``_place_board`` until the view moves)."""
        v, c = self.view, self.view.cell
        if c <= 0:
            return (0, 0, 1, 1)
        return _square_at(kind, *v.centre(self.room, cell), c)

    def _place_board(self) -> None:
        """Put the board sprites and marks where the (moving) view says."""
        atlas, v, r = self.atlas, self.view, self.room
        if atlas is None or v.cell <= 0:
            return
        c = v.cell
        self._placed_view = (v.cx, v.cy, c)
        for cell, (sprite, _rot) in self._board_sprites.items():
            x, y = v.centre(r, cell)
            pop = self._anims.get(cell, 0.0)
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
        pending = getattr(self, "_pending_sprite", None)
        if pending is not None and self.pending is not None:
            x, y = v.centre(r, self.pending)
            pending.update(x=x, y=y, scale=c * CARD_FILL / atlas.px)
        for shape, cell, kind in self._board_marks:
            self._place_mark(shape, kind, *v.centre(r, cell), c)

    def _round_mark(
        self, cell: Cell, kind: Any, radius: float, thickness: float = 0.0
    ) -> tuple[float, float, float, float]:
        """Where a round mark (a disc, a ring, the tick's disc) of grid `cell` is with the view as it is now:
        x, y, radius, thickness (``_round_at``); made there, it is not made again by ``_place_board`` until
        the view moves. Before there is a view: at the origin, `radius` and `thickness` wide."""
        v, c = self.view, self.view.cell
        if c <= 0:
            return (0.0, 0.0, radius, thickness)
        x, y, r, t = _round_at(kind, *v.centre(self.room, cell), c)
        return (x, y, r, thickness if t is None else t)

    def _disc(self, cell: Cell, kind: Any, rgb: Any, group: Any) -> shapes.Circle:
        """A disc of grid `cell` (a ("dot", ...) of the green token, the "tick"), made where it goes."""
        x, y, radius, _thickness = self._round_mark(cell, kind, 1)
        return shapes.Circle(x, y, radius, segments=ROUND_SEGMENTS, color=rgb, batch=self.batch, group=group)

    @staticmethod
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

    def _build_scores(self) -> list[tuple[str, int]]:
        """A chip per player in the strip along their edge, facing them: colour, name (a computer's
        strength), the cards in hand as little backs, and the cards taken (the score) by a card.
        Each chip is a part of its own, built again only when what it says changes (a turn change
        redraws the two chips whose player starts or ends a turn), one a frame: ``_chips_left`` says
        whether another is left for the next. Returns the chips' part names; ``_chips_built`` says
        whether one was built now."""
        far, near = self._sides()
        cols = 2 if self.layout.portrait else 3
        chips = [
            (i, strip, *divmod(k, cols), min(cols, len(players) - (k // cols) * cols))
            for players, strip in ((far, self.top_strip), (near, self.bottom_strip))
            for k, i in enumerate(players)
        ]
        # the counters in words on every chip, or on none (chips that differ would read as different things)
        self._chip_words_fit = all(self._words_fit(i, self._chip_width(strip, n)) for i, strip, _r, _c, n in chips)
        g, s = self.game, self.session
        names = []
        self._chips_built = self._chips_left = False
        for i, strip, r, c, in_row in chips:
            active = i == g.current and g.phase != CardPhase.OVER
            key = (self.layout, strip, r, c, in_row, self.facing(i), active, g.scores[i], len(g.hands[i]), s.kinds[i])
            words = (self._chip_words(i), self._chip_words_fit)
            old = self._parts.get(("chip", i))
            if self._chips_built and old is not None and old[0] != (key, words) and widgets.RECORDER is None:
                self._chips_left = True  # one chip a frame (~1 ms each here): this one in the next
            else:
                build = partial(self._score_chip, i, strip, r, c, in_row)
                self._chips_built |= self._part(("chip", i), (key, words), build)
            names.append(("chip", i))
        return names

    def _chip_width(self, strip: Rect, in_row: int) -> float:
        """A score chip's width in a row of `in_row` chips: fewer in a row, wider (room for the words)."""
        return strip.w / max(in_row, 2) - 2 * self.layout.px(3)

    def _words_fit(self, i: int, chip_w: float) -> bool:
        """Whether player `i`'s chip, `chip_w` wide, has room for its counters in words at the body size."""
        L = self.layout
        pts = L.font(typeface.BODY)
        need = sum(measure(text, pts, bold=k != 1)[0] for k, text in enumerate(self._chip_words(i)))
        return need + 2 * L.px(10) <= chip_w - self._chip_text_x() - L.px(6)

    def _chip_text_x(self) -> float:
        """Where a chip's name starts: after its padding and its colour dot."""
        L = self.layout
        return L.px(6) * 2 + (L.px(SCORE_ROW) - L.px(3)) * 0.44

    def _score_chip(self, i: int, strip: Rect, r: int, c: int, in_row: int) -> None:
        g = self.game
        L = self.layout
        rh = L.px(SCORE_ROW)
        gap = L.px(3)
        cw = self._chip_width(strip, in_row) + 2 * gap
        # the row's chips centred on the strip; the frame turns the chip to its player's edge, and the
        # chips run left to right as the people at that edge read them
        angle = self.facing(i)
        if angle == 180:
            c = in_row - 1 - c
        x = strip.x + (strip.w - in_row * cw) / 2 + c * cw
        y = strip.top - (r + 1) * rh if angle == 0 else strip.y + r * rh
        frame = Frame(Rect(x + gap, y + gap / 2, cw - 2 * gap, rh - gap), angle)
        w, h = frame.w, frame.h
        bg, mid, fg, top = (pyglet.graphics.Group(order=k) for k in (10, 11, 12, 13))
        rgb = player_rgb(i)
        active = i == g.current and g.phase != CardPhase.OVER
        # a tray on the table (docs/art.md): a wooden rim, the player's colour round the one whose turn it is
        rim = L.px(3) if active else L.px(2)
        self._part_items.append(box(frame, frame.full(), rgb if active else PANEL_EDGE, self.batch, bg, radius=L.px(7)))
        inner = Rect(rim, rim, w - 2 * rim, h - 2 * rim)
        self._part_items.append(box(frame, inner, ACTIVE_TRAY if active else PANEL, self.batch, mid, radius=L.px(5)))
        cy = h / 2
        dot = h * 0.22
        pad = L.px(6)
        self._part_items += seat_token(frame, pad + dot, cy, dot, rgb, self.batch, fg)
        tx = self._chip_text_x()
        if self._chip_words_fit:
            self._chip_in_words(i, tx, frame, cy, fg, active)
            return
        # no room for the words: right to left, the score beside a card, the hand as little backs, then the
        # name in what is left
        score = self._text(
            str(g.scores[i]),
            frame,
            w - pad,
            cy,
            L.font(typeface.BODY),
            self.batch,
            fg,
            color=INK,
            anchor_x="right",
            bold=True,
            name="score",
        )
        self._part_items.append(score)
        # the cards taken: the last one taken, a little card face up (edged), beside the number; none yet:
        # its place, chalked (a plain ivory square read as a missing letter)
        card = L.px(12)
        right = w - pad - score.content_width - L.px(4)
        spot = Rect(right - card, cy - card / 2, card, card)
        atlas = self._atlas()
        self._part_items.append(box(frame, spot.grow(1), PILE_EDGE, self.batch, fg))
        if g.taken[i]:
            x, y = frame.point(spot.cx, spot.cy)
            face = pyglet.sprite.Sprite(atlas.face(g.taken[i][-1]), x, y, batch=self.batch, group=top)
            face.scale, face.rotation = card / atlas.px, frame.angle
            self._part_items.append(face)
        else:
            self._part_items.append(box(frame, spot, CHIP_EMPTY, self.batch, top))
        right -= card + L.px(8)
        # the cards in hand: as many little card backs, overlapping, the same back as on the table
        backs = len(g.hands[i])
        step = card * 0.4
        for k in range(backs):
            x, y = frame.point(right - card / 2 - k * step, cy)
            sprite = pyglet.sprite.Sprite(atlas.back, x, y, batch=self.batch, group=top)
            sprite.scale, sprite.rotation = card / atlas.px, frame.angle
            self._part_items.append(sprite)
        if backs:
            right -= card + (backs - 1) * step + L.px(6)
        self._chip_name(i, frame, tx, right, cy, fg, active)

    def _chip_words(self, i: int) -> tuple[str, str, str]:
        """A score chip's texts: the name (with a computer's strength in stars), the cards in hand, the cards taken."""
        stars = strength_stars(self.session.kinds[i])
        name = self.player_name(i) + (f" {stars}" if stars else "")
        g = self.game
        return name, self.t("cards.chip_hand", n=len(g.hands[i])), self.t("cards.chip_taken", n=g.scores[i])

    def _chip_in_words(self, i: int, tx: float, frame: Frame, cy: float, group: Any, active: bool) -> None:
        """The chip's counters said in words ("2 in hand", "3 taken") after the name (from `tx`)."""
        L = self.layout
        name, hand, taken = self._chip_words(i)
        pts, gap = L.font(typeface.BODY), L.px(10)
        widths = [measure(text, pts, bold=k != 1)[0] for k, text in enumerate((name, hand, taken))]
        x = frame.w - L.px(6)
        for k, text in ((2, taken), (1, hand)):  # right to left, the score at the chip's end
            self._part_items.append(
                self._text(
                    text,
                    frame,
                    x,
                    cy,
                    pts,
                    self.batch,
                    group,
                    color=INK if k == 2 else DIM if not active else INK,
                    anchor_x="right",
                    bold=k == 2,
                    name="score" if k == 2 else "hand",
                )
            )
            x -= widths[k] + gap
        self._chip_name(i, frame, tx, x + gap, cy, group, active)

    def _chip_name(self, i: int, frame: Frame, tx: float, right: float, cy: float, group: Any, active: bool) -> None:
        """The chip's name (a computer's strength in stars after it) between `tx` and `right`."""
        s = self.session
        L = self.layout
        rgb = player_rgb(i)
        h = frame.h
        fg = group
        room = frame.area(Rect(tx, 0, max(1.0, right - tx), h))
        lab = self._text(
            self.player_name(i),
            frame,
            tx,
            cy,
            L.font(typeface.BODY),
            self.batch,
            fg,
            color=INK if active else text_shade(rgb),
            anchor_x="left",
            bold=active,
            container=room,
            name="player",
        )
        self._part_items.append(lab)
        stars = strength_stars(s.kinds[i])  # a computer's strength after its name (in the pictogram font)
        if stars:
            self._part_items.append(
                self._text(
                    stars,
                    frame,
                    tx + lab.content_width + L.px(6),
                    cy,
                    L.font(typeface.BODY),
                    self.batch,
                    fg,
                    color=INK if active else text_shade(rgb),
                    anchor_x="left",
                    container=room,
                    name="stars",
                )
            )

    def _prompt(self, hand: Any, picked: int | None) -> tuple[str, str]:
        """The heading and the instruction for the active player."""
        s, g = self.session, self.game
        p = g.current
        name = self.player_name(p)
        if g.phase == CardPhase.OVER:
            return "", ""
        if s.kinds[p] != HUMAN:
            return name, self.t("cards.thinking", player=name)
        if s.handover:
            return name, self.t("cards.pass_to", player=name)
        head = self.t("cards.your_turn", player=name)
        if g.phase == CardPhase.TAKE:
            return head, self.t("cards.take_choose")
        if g.phase == CardPhase.DISCARD:
            return head, self.t("cards.discard")
        if picked is None:
            return head, self.t("cards.pick_card")
        if self.pending is not None:
            return head, self.t("cards.lay_confirm")
        fits = any(OPEN[picked][s.rotation] & m for m in g.legal_cells().values())
        return head, self.t("cards.lay_card") if fits else self.t("cards.turn_card")

    def _build_hand(self, hand: Any, picked: int | None) -> None:
        s, g = self.session, self.game
        self.hand_widgets = []  # (this part's: built again, its touch areas anew)
        L = self.layout
        r = self.hand_rect
        p = g.current
        frame = Frame(r, self.facing(p))
        bg, mid, fg = (pyglet.graphics.Group(order=k) for k in (10, 11, 12))
        # the tray of the player whose turn it is: lighter wood, rimmed in wood (docs/art.md)
        self._part_items.append(box(frame, frame.full().grow(L.px(2)), PANEL_EDGE, self.batch, bg, radius=L.px(12)))
        self._part_items.append(box(frame, frame.full(), ACTIVE_TRAY, self.batch, bg, radius=L.px(10)))
        if g.phase != CardPhase.OVER:
            self._part_items.append(
                box(frame, Rect(0, r.h - L.px(6), r.w, L.px(6)), player_rgb(p), self.batch, mid, radius=L.px(3))
            )
        head, text = self._prompt(hand, picked)
        pad = L.px(10)
        y = r.h - L.px(10)
        title = self._text(
            head,
            frame,
            r.w / 2,
            y,
            L.font(typeface.TITLE),
            self.batch,
            fg,
            color=text_shade(player_rgb(p)),
            bold=True,
            anchor_y="top",
            width=r.w - 2 * pad,
            multiline=True,
            name="head",
        )
        self._part_items.append(title)
        y -= title.content_height + L.px(4)
        toast = self.toast
        body = toast or text
        said = self._text(
            body,
            frame,
            r.w / 2,
            y,
            L.font(typeface.BODY),
            self.batch,
            fg,
            color=(255, 140, 120) if toast else INK,
            anchor_y="top",
            width=r.w - 2 * pad,
            multiline=True,
            name="prompt",
        )
        self._part_items.append(said)
        y -= said.content_height + L.px(4)
        pile = self._text(
            self.t("cards.pile", n=len(g.draw_pile)),
            frame,
            r.w / 2,
            y,
            L.font(typeface.BODY),
            self.batch,
            fg,
            color=DIM,
            anchor_y="top",
            name="pile",
        )
        self._part_items.append(pile)
        y -= pile.content_height
        # the buttons along the bottom
        btn_h = L.px(50)
        by = pad
        take = g.phase == CardPhase.TAKE and s.kinds[p] == HUMAN and not s.handover
        text_b, color_b = None, GO
        if take:
            chosen = tuple(sorted(s.chosen))
            problem = g.take_problem(chosen) if chosen else None
            text_b = self.t("cards.take_n", n=len(chosen)) if chosen else self.t("cards.take_none")
            color_b = GO if not problem else DISABLED
        self._button_row(frame, p, s.undo_player, text_b, color_b, fg)
        # the hand: two cards (faces for the player whose turn it is, else backs), under the words
        bottom = by + btn_h + pad
        top = y - L.px(6)
        if top - bottom < L.px(typeface.PICTURE) / MEDAL_R:  # a long prompt: closer to it and to the buttons,
            bottom, top = by + btn_h + L.px(4), y - L.px(1)  # so the symbols keep their size if they can
        size = min((r.w - 3 * pad) / 2, top - bottom)
        n = len(g.hands[p])
        shown = bool(hand)
        total = n * size + (n - 1) * pad
        x = (r.w - total) / 2
        cy = bottom + (top - bottom) / 2
        atlas = self._atlas()
        for k in range(n):
            cx = x + k * (size + pad) + size / 2
            sx, sy = frame.point(cx, cy)
            selected = shown and k == s.selected
            if selected:
                self._part_items.append(
                    box(
                        frame,
                        Rect(cx - size / 2 - L.px(5), cy - size / 2 - L.px(5), size + L.px(10), size + L.px(10)),
                        ACCENT,
                        self.batch,
                        mid,
                        radius=L.px(6),
                    )
                )
            region = atlas.face(hand[k]) if shown else atlas.back
            sprite = pyglet.sprite.Sprite(region, sx, sy, batch=self.batch, group=fg)
            sprite.scale = size / atlas.px
            sprite.rotation = (90 * s.rotation if selected else 0) + frame.angle
            self._part_items.append(sprite)
            if shown:
                note_picture(sprite, "card_symbol", "hand card", size * MEDAL_R)
            if shown and s.kinds[p] == HUMAN:
                rect = frame.area(Rect(cx - size / 2, cy - size / 2, size, size))
                if g.phase == CardPhase.DISCARD:
                    w = Widget(rect, on_tap=partial(self.ui.post, DiscardCard(k)))
                else:
                    w = Widget(rect, on_tap=partial(self.ui.post, SelectHandCard(k)))
                self.add(w)
                self.hand_widgets.append(w)
        if shown and g.phase == CardPhase.PLACE and self.controls:
            self._rotate_button(frame, BUTTON if s.selected is not None else DISABLED, fg)

    def _button_row(self, frame: Frame, p: int, undo: int | None, take: str | None, color: Any, fg: Any) -> None:
        """The hand panel's row of buttons at its bottom (turned as `frame`, player `p`'s turn): the Undo of
        player `undo` if they may take their turn back, and the take button saying `take` (None: none)."""
        s, L = self.session, self.layout
        pad = L.px(10)
        row = Rect(pad, pad, frame.w - 2 * pad, L.px(50))
        if undo is not None and (undo == p or s.kinds[p] != HUMAN):
            # the player who just laid (or, before a computer's first step, whose turn just ended) may take
            # it back: Undo in the button row, facing them
            undo_w = row.w if undo != p else row.h  # beside the take button: a square, its icon only
            spot = frame.area(Rect(row.right - undo_w, row.y, undo_w, row.h))
            self._undo_button(spot, undo, fg, icon_only=undo == p, quiet=undo != p)
            row = Rect(row.x, row.y, row.w - undo_w - pad, row.h)
        if take is not None:
            self._hand_button(frame, row, take, color, fg, lambda: self.ui.post(ConfirmTake()))

    def _rotate_button(self, frame: Frame, color: Any, fg: Any) -> None:
        """The rotate button under the hand cards (where the take button is in the take phase)."""
        L = self.layout
        pad = L.px(10)
        row = Rect(pad, pad, frame.w - 2 * pad, L.px(50))
        self._hand_button(
            frame, row, "\u27f3  " + self.t("cards.rotate"), color, fg, lambda: self.ui.post(RotateHandCard())
        )

    def _hand_button(self, frame: Frame, rect: Rect, text: str, color: Any, fg: Any, on_tap: Any) -> None:
        """A button of the hand panel's row (take, rotate), a part of the hand."""
        L = self.layout
        b = Button(
            frame,
            rect,
            text,
            self.batch,
            fg,
            font_size=L.font(typeface.LABEL),
            min_size=L.touch,
            labels=self.labels,
            color=color,
            on_tap=on_tap,
        )
        self._part_items.append(b)
        self.add(b)

    def _undo_button(self, rect: Rect, player: int, group: Any, icon_only: bool = False, quiet: bool = False) -> None:
        """The Undo button at screen `rect`, turned to `player` (whose action it takes back); `quiet`:
        not the active player's own (the hand-over sheet, a computer's wait), so drawn as the board
        game draws the previous player's Undo: dark, edged in `player`'s colour (one shared piece)."""
        b, under = undo_button(
            self.layout,
            Frame(rect, self.facing(player)),
            Rect(0, 0, rect.w, rect.h),
            self.t("play.undo"),
            self.batch,
            group,
            labels=self.labels,
            on_tap=partial(self.ui.post, Undo(player)),
            icon_only=icon_only,
            quiet=text_shade(player_rgb(player)) if quiet else None,
        )
        self._part_items.extend(under)
        self._part_items.append(b)
        self.add(b)

    def _build_handover(self) -> None:
        """The "pass to" sheet, facing the next person; it tells what the previous person did."""
        g = self.game
        L = self.layout
        p = g.current
        top, over = pyglet.graphics.Group(order=HANDOVER_ORDER), pyglet.graphics.Group(order=HANDOVER_ORDER + 1)
        self._part_items.append(
            shapes.Rectangle(0, 0, L.width, L.height, color=(8, 10, 14, 205), batch=self.batch, group=top)
        )
        last = self.last_turn
        w = min(L.width - L.px(40), L.px(580))
        undo = self.session.undo_player
        undo_h = max(L.touch, L.px(50)) if undo is not None and undo != p else 0
        # the Undo of who just played, on the sheet's edge nearest them: its top row when they sit across
        # from the next person, beside the ready button when they sit on the same side
        beside = bool(undo_h) and undo is not None and self.facing(undo) == self.facing(p)
        undo_row = undo_h + L.px(10) if undo_h and not beside else 0
        room = undo_h + L.px(10) if undo_h else 0  # (with the last turn shown, its picture gives the room)
        h = min(L.height - L.px(20), L.px(380) if last else L.px(240) + room)
        frame = Frame(Rect((L.width - w) / 2, (L.height - h) / 2, w, h), self.facing(p))
        rgb = player_rgb(p)
        self._part_items.append(box(frame, frame.full().grow(L.px(3)), rgb, self.batch, top, radius=L.px(16)))
        self._part_items.append(box(frame, frame.full(), PANEL, self.batch, over, radius=L.px(14)))
        text = self.t("cards.pass_to", player=self.player_name(p))
        fg = pyglet.graphics.Group(order=42)
        pad = L.px(16)
        head = label(
            text,
            frame,
            w / 2,
            h - L.px(12) - undo_row,
            L.font(typeface.HEADLINE),
            self.batch,
            fg,
            color=text_shade(rgb),
            bold=True,
            role="headline",
            name="pass_to",
            anchor_y="top",
            width=w - 2 * pad,
            multiline=True,
        )
        self._part_items.append(head)
        ready = self.t("cards.ready")
        bw = min(w - 2 * pad, L.px(220)) if not beside else w - 2 * pad - L.px(260) - L.px(12)
        left = self.facing(p) == 0  # the sheet's own left is the screen's left (away from the hand column)
        ready_x = w - pad - L.px(260) if left else pad
        btn_h = L.px(56)
        b = Button(
            frame,
            Rect(w / 2 - L.px(130) if not beside else ready_x, L.px(12), L.px(260), btn_h),
            ready,
            self.batch,
            fg,
            font_size=L.font(typeface.LABEL + 2),
            min_size=L.touch,
            color=GO,
            on_tap=lambda: self.ui.post(HandOver()),
        )
        self._part_items.append(b)
        hint = label(
            self.t("cards.hidden"),
            frame,
            w / 2,
            L.px(12) + btn_h + L.px(8),
            L.font(typeface.BODY),
            self.batch,
            fg,
            color=DIM,
            anchor_y="bottom",
            width=w - 2 * pad,
            multiline=True,
            name="hidden",
        )
        self._part_items.append(hint)
        if last is not None:
            floor = L.px(12) + btn_h + L.px(8) + hint.content_height + L.px(8)
            ceiling = h - L.px(12) - undo_row - head.content_height - L.px(8)
            self._last_turn(frame, last, Rect(pad, floor, w - 2 * pad, ceiling - floor), fg)
        # the whole screen answers while the sheet is up (a tap anywhere hands over); on top of it, the
        # Undo of the person who just played, in the sheet's top row, turned to them
        self.clear_widgets()
        self.add(Widget(L.screen, on_tap=lambda: self.ui.post(HandOver())))
        if undo_h and undo is not None:
            ux = pad if left else w - pad - bw  # the screen's left half: away from the hand column
            uy = h - L.px(10) - undo_h if not beside else L.px(12) + (L.px(56) - undo_h) / 2
            spot = frame.area(Rect(ux, uy, bw, undo_h))
            self._undo_button(spot, undo, pyglet.graphics.Group(order=43), quiet=True)

    def _last_turn(self, frame: Frame, last: dict[str, Any], area: Rect, group: Any) -> None:
        """What the previous player did, in `area` of the sheet: the card laid (as laid), the cards taken."""
        L = self.layout
        atlas = self.atlas
        if atlas is None or area.h < L.px(24):
            return
        who = self.player_name(last["player"])
        size = min(area.h, L.px(100))
        cv = area.top - size / 2
        u = area.x
        pictures: list[tuple[int, int, float]] = []  # (card, quarter turns, size)
        if last["card"] is not None:
            line1 = self.t("cards.last_laid", player=who)
            pictures.append((last["card"], last["rotation"], size))
            taken = last["taken"]
            line2 = self.t("cards.last_took", n=len(taken)) if taken else self.t("cards.last_took_none")
        else:
            line1 = self.t("cards.last_discarded", player=who)
            pictures.append((last["discarded"], 0, size))
            taken, line2 = (), ""
        tu = u + size + L.px(12)
        text_w = area.right - tu
        v = area.top
        for k, line in enumerate((line1, line2)):
            if not line:
                continue
            lab = label(
                line,
                frame,
                tu,
                v,
                L.font(typeface.BODY),
                self.batch,
                group,
                color=INK,
                anchor_x="left",
                anchor_y="top",
                width=text_w,
                multiline=True,
                align="left",
                bold=k == 0,
                container=frame.area(area),
                name="last_turn",
            )
            self._part_items.append(lab)
            v -= lab.content_height + L.px(4)
        small = min(L.px(56), v - area.y, text_w / max(1, min(len(taken), 5)) - L.px(4)) if taken else 0
        for card, rot, px in pictures:
            x, y = frame.point(u + px / 2, cv)
            sprite = pyglet.sprite.Sprite(atlas.face(card), x, y, batch=self.batch, group=group)
            sprite.scale = px / atlas.px
            sprite.rotation = 90 * rot + frame.angle
            self._part_items.append(sprite)
        if small <= 0:
            return
        for k, card in enumerate(taken[:5]):
            x, y = frame.point(tu + small / 2 + k * (small + L.px(4)), v - small / 2)
            sprite = pyglet.sprite.Sprite(atlas.face(card), x, y, batch=self.batch, group=group)
            sprite.scale = small / atlas.px
            sprite.rotation = frame.angle
            self._part_items.append(sprite)

    # ------------------------------------------------------------------ fingers
    def on_key(self, symbol: int, modifiers: int) -> bool:
        """Desktop stand-ins: the undo keys (docs/keys.md)."""
        if symbol in UNDO_KEYS:
            self.ui.post(Undo(source="key"))
            return True
        return False

    def tap(self, x: float, y: float) -> bool:
        self.note.touched(x, y, self.ui.now())
        if not self._under_pointer(x, y) and super().tap(x, y):
            return True
        s, g = self.session, self.game
        if g is None or g.phase == CardPhase.OVER or s.handover:
            return False
        cell = self.view.cell_at(self.room, x, y)
        if cell is None:
            return False
        if s.kinds[g.current] != HUMAN:
            self._answer(self.t("cards.thinking", player=self.player_name(g.current)))
            return True
        if g.phase == CardPhase.PLACE and cell not in g.layout:
            legal = g.legal_cells()
            hand = s.visible_hand(g.current)
            picked = hand[s.selected] if hand and s.selected is not None and s.selected < len(hand) else None
            if picked is not None and cell in legal and OPEN[picked][s.rotation] & legal[cell]:
                if cell == self.pending:  # the second tap on the preview: lay it
                    self.pending = None
                    self.ui.post(LayCard(cell))
                else:  # the first: only show it there
                    self.pending = cell
                    self._signature = None
            elif cell in legal or s.selected is not None:
                self.pending = None
                self._signature = None
                self.ui.post(LayCard(cell))  # the session says why not (costs nothing)
            else:
                self._show_toast(self.t("cards.pick_card"))
            return True
        if g.phase == CardPhase.TAKE and cell in g.layout:
            self.ui.post(ToggleTake(g.layout[cell].card))
            return True
        return False

    def _under_pointer(self, x: float, y: float) -> bool:
        """Whether (x, y) is on a pointer token lying over a place in view or a card that may be taken:
        that place or card gets the tap (a first tap on a place only shows the card there, and the
        table then follows it), the token the taps on the rest of it."""
        w = self.widget_at(x, y)
        g = self.game
        if w is None or g is None or w.on_tap is None or getattr(w.on_tap, "func", None) != self.pan_towards:
            return False
        cell = self.view.cell_at(self.room, x, y)
        if cell is None or not self.view.seen(self.room, cell, target=False):
            return False
        if g.phase == CardPhase.PLACE:
            return cell in g.legal_cells()
        return g.phase == CardPhase.TAKE and cell in g.layout and g.layout[cell].card in g.takeable()

    # ------------------------------------------------------------------ tests and scripts
    def cell_center(self, cell: Cell) -> tuple[float, float]:
        """Where grid cell (x, y) is on screen now (window pixels, origin bottom-left)."""
        return self.view.centre(self.room, cell)

    def hand_card_center(self, slot: int) -> tuple[float, float]:
        """Where hand card `slot` is on screen (only while the hand is shown)."""
        x, y = self.hand_widgets[slot].rect.center
        return (float(x), float(y))
