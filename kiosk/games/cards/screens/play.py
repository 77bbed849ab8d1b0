"""The card game's play screen: the table, the score chips, and the active player's hand.

Where things are: a strip of score chips along each long edge of the screen (score_chips.py:
the first half of the players along the far edge, the rest along the near one; in the tabletop
layout each chip faces its player), the hand of the player whose turn it is beside the table
(hand.py; landscape: a column on the right; portrait: a band above or below), the table with the
open layout in what is left (table.py). Every text is at least the body size of the type scale
(kiosk/ui/kit/typeface.py): a long instruction wraps onto more lines rather than being set smaller.

A view of events, never of the engine: the screen reads a :class:`TableModel` (model.py) that the
card game's events keep up to date, loaded from the session's public picture when the screen
opens and after an undo, as the board game's screen keeps its model. Input becomes commands
(kiosk/games/cards/events.py), nothing else: a tap on a hand card picks it (the picked card again
turns it), the turn button turns it, a tap on a highlighted place lays it; after a placement that
joins treasures the cards that may be taken light up, a tap ticks or unticks one, and the take
button confirms (with none ticked it takes nothing).

Hands are private on a shared screen: only the hand of the human whose turn it is is shown, asked
from the session (``visible_hand``) when the hand panel is built; when a human follows another
human, a "Pass to <colour>" sheet covers the screen until the new player taps (``HandOver``,
handover.py); it shows what the previous player did. Computer hands are shown as backs. In the
tabletop layout the hand panel moves to the edge the active player sits at and faces them (one
person against the computer sits at the near edge), and so does the hand-over sheet.

An accidental touch never costs a turn: the first tap on a place where the picked card fits only
shows it there; a second tap on the same place lays it (any other tap, a turn of the card or
another card moves or drops the preview).
"""

from __future__ import annotations

from typing import Any, Protocol, cast

import pyglet

from engine.cards.deck import OPEN
from engine.cards.parts import GAME_NAME, CardPhase

from kiosk.core.events import ActionUndone, GameAbandoned, IllegalInput, Undo
from kiosk.games import HUMAN
from kiosk.games.cards.art import CardAtlas
from kiosk.games.cards.events import (
    CardDiscarded,
    CardGameOver,
    CardGameStarted,
    CardLaid,
    CardsTaken,
    LayCard,
    ToggleTake,
)
from kiosk.games.cards.screens import handover
from kiosk.games.cards.screens.hand import HandPanel
from kiosk.games.cards.screens.handover import LastTurn, Sheet
from kiosk.games.cards.screens.model import Cell, TableModel
from kiosk.games.cards.screens.parts import Parts
from kiosk.games.cards.screens.score_chips import ScoreChips, sides
from kiosk.games.cards.screens.table import CARD_FILL, ROOM_RIM, Table
from kiosk.ui.kit.text_cache import CACHE
from kiosk.ui.kit import widgets
from kiosk.ui.overlays.edge_note import EdgeNote
from kiosk.ui.kit.layout import Layout, Rect
from kiosk.ui.shell.screen import SCREENS, Screen, register, session_for
from kiosk.ui.kit.widgets import UNDO_KEYS, Widget

__all__ = ["CARD_FILL", "CardsPlayScreen"]

TOAST_S = 3.0
GAMEOVER_DELAY_S = 1.6
#: frames in a row in which the rest of the table waits for a board built again (``_rebuild``)
BEHIND_FRAMES = 6
RISE_PX = 60  # px a second at 800x480: a card taken rises as it fades
#: the counts drawn as the screen opens (``_warm``): the pile's next few, and a few more cards taken than now
#: (each text is a few ms to draw here: a game's every count would make the screen open late)
COUNTS_WARMED = 3


class CardSource(Protocol):
    """What the screen asks of the card session (kiosk/games/cards/session.py)."""

    @property
    def game(self) -> object | None:
        """The game running (None: none)."""

    def public_snapshot(self, resumed: bool = False) -> CardGameStarted:
        """The public picture as it is now (the screen opens, an action was taken back)."""

    def visible_hand(self, player: int) -> tuple[int, ...]:
        """The hand `player` may see now (their own, on their turn, after the hand-over), else ()."""


@register("cards_play")
class CardsPlayScreen(Screen):
    """The travel card game being played (people, computer seats, or both)."""

    controls = True  # the rotate button under the hand (a replay only shows)

    def __init__(self, ui: Any) -> None:
        super().__init__(ui)
        self.model = TableModel()
        self.parts = Parts(self.batch, self.ui.invalidate)
        self.table = Table(self)
        self.chips = ScoreChips(self)
        self.hand = HandPanel(self)
        self.sheet = Sheet(self)
        self.atlas: CardAtlas | None = None  # (the result screen shows the cards taken with it)
        self._atlas_px = 0
        self.board_rect = Rect(0, 0, 1, 1)
        self._stale = True  # what the table shows changed: the parts are built again at the next update
        self._behind = False  # the board (or the chips) was built this frame; the rest follows (_rebuild)
        self._waits = 0  # the frames in a row the rest waited for a board built again (_rebuild)
        self.toast = ""
        self.toast_until = 0.0
        self._over: CardGameOver | None = None
        self._over_at: float | None = None
        self.last_turn: LastTurn | None = None  # what the previous player did (for the hand-over sheet)
        self.notes = pyglet.graphics.Batch()
        self.note = EdgeNote(self.notes)  # a refusal for the person who tapped, facing them
        self.audit_sheet: int | None = None  # the hand-over sheet's group order while it is up (layout audit)
        self._compute_areas()

    # ------------------------------------------------------------------ what the parts ask (parts.Host)
    def facing(self, player: int | None) -> int:
        """Text turned towards `player`'s side of the table (tabletop only): the first half sit far.

        With one person (the others are computers) that person sits at the near edge."""
        m = self.model
        if not self.layout.tabletop or player is None or not m.started:
            return 0
        if sum(1 for k in m.kinds if k == HUMAN) <= 1:
            return 0
        return 180 if player < (m.players + 1) // 2 else 0

    def player_name(self, player: int) -> str:
        return self.t(f"colour.{self.model.colors[player]}")

    def card_atlas(self) -> CardAtlas:
        px = int(min(256, max(96, self.layout.px(150))))
        theme = self.ui.theme
        if self.atlas is None or self._atlas_px != px or self.atlas.theme is not theme:
            self.ui.window.switch_to()
            self.atlas = CardAtlas(px, self.ui.window, theme=theme)
            self._atlas_px = px
        return self.atlas

    def post(self, command: Any) -> None:
        self.ui.post(command)

    def refresh(self) -> None:
        self._stale = True

    # ------------------------------------------------------------------ what tests and scripts look at
    @property
    def view(self) -> Any:
        return self.table.view

    @property
    def room(self) -> Rect:
        return self.table.room

    @property
    def hand_rect(self) -> Rect:
        return self.hand.rect

    @property
    def pending(self) -> Cell | None:
        return self.table.pending

    @property
    def pointers(self) -> dict[str, tuple[int, int, int]]:
        return self.table.pointers

    @property
    def why(self) -> list[tuple[Cell, str]]:
        return self.table.why

    @property
    def hand_widgets(self) -> list[Widget]:
        return self.hand.cards

    @property
    def _items(self) -> list[Any]:
        """Every shape, label and sprite of the current picture (tests and the replay look at them)."""
        return self.parts.all_items()

    # ------------------------------------------------------------------ lifecycle
    def _session(self) -> CardSource | None:
        return cast("CardSource | None", session_for(self.kiosk, GAME_NAME))

    def load(self) -> None:
        """The session's game as it is now (the screen opens, an action was taken back)."""
        s = self._session()
        if s is not None and s.game is not None:
            self.model.load(s.public_snapshot())
        else:
            self.model = TableModel()
        self._stale = True

    def enter(self, **kw: Any) -> None:
        self._over, self._over_at = None, None
        self.table.view.cell = 0.0
        self.load()
        self._warm()
        self._clear()
        self._rebuild()

    def _warm(self) -> None:
        """The game's texts (its vocabulary: the hand panel's, the chips') drawn once as the screen opens
        or a game begins (the text cache), so that a turn's frames only place them."""
        m = self.model
        if not m.started:
            return
        self._compute_areas()  # (the hand panel's width: its texts wrap in it)
        piles = range(max(0, m.pile - COUNTS_WARMED), m.pile + 1)
        taken = range(min(m.scores), max(m.scores) + COUNTS_WARMED)
        CACHE.warm(self.hand.vocabulary(m.players, piles) + self.chips.vocabulary(taken))

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
        self._warm()
        self.table.view.cell = 0.0
        self._stale = True
        self._clear()
        self._rebuild()

    def _compute_areas(self) -> None:
        """The score strips along the two long edges (each chip facing its player), the hand at its
        owner's side (``hand.far``: turned to the far edge) and the table in what is left."""
        L = self.layout
        m = L.px(6)
        far, near = sides(self.model)
        # the strips leave a finger-wide square at the left end of each long edge: the menu buttons'
        # (menu_spots)
        spot = L.touch + m
        row = self.chips.plan(L.width - 2 * m - spot)
        top_h, bottom_h = self.chips.rows(len(far)) * row, self.chips.rows(len(near)) * row
        top = self.chips.top = Rect(m + spot, L.height - m - top_h, L.width - 2 * m - spot, top_h)
        bottom = self.chips.bottom = Rect(m + spot, m, L.width - 2 * m - spot, bottom_h)
        y0, y1 = bottom.top + m, top.y - m
        if L.portrait:
            hand_h = L.px(320)
            if self.hand.far:
                hand = Rect(m, y1 - hand_h, L.width - 2 * m, hand_h)
                self.board_rect = Rect(0, y0, L.width, hand.y - m - y0)
            else:
                hand = Rect(m, y0, L.width - 2 * m, hand_h)
                self.board_rect = Rect(0, hand.top + m, L.width, y1 - hand.top - m)
        else:
            side = L.px(270)
            hand = Rect(L.width - side - m, y0, side, y1 - y0)
            self.board_rect = Rect(0, y0, L.width - side - 2 * m, y1 - y0)
        self.hand.rect = hand
        # the room the cards lie in: the board area inside its oak rim; round it, the room for a pointer
        room = self.table.room = self.board_rect.inset(L.px(ROOM_RIM) + m)
        self.table.gaps = {
            "W": room.x,
            "E": hand.x - room.right,
            "N": top.y - room.top if top.h else L.height - room.top,
            "S": room.y - bottom.top if bottom.h else room.y,
        }

    def menu_spots(self) -> list[tuple[Rect, int]]:
        """The in-game menu's buttons (kiosk/ui/overlays/game_menu.py): at the table's end of each long edge
        (the left, clear of the hand), beside the score chips, turned to the people at that edge
        (one, at the near edge, in the upright layout). None while the hand-over sheet covers the
        table: a tap anywhere on it gives the screen to the next player."""
        if self.model.started and self.model.handover:
            return []
        L = self.layout
        m, side = L.px(6), L.touch
        spots = [(Rect(m, m, side, side), 0)]
        if L.tabletop:
            spots.append((Rect(m, L.height - m - side, side, side), 180))
        return spots

    # ------------------------------------------------------------------ events
    def on_event(self, ev: Any) -> None:
        self.model.apply(ev)
        self._stale = True
        if isinstance(ev, CardGameStarted):
            self._over, self._over_at = None, None
            self.last_turn = None
            self.table.new_game()
            self._warm()
        elif isinstance(ev, CardLaid):
            self.table.laid((ev.cell[0], ev.cell[1]), ev.player)
            self.last_turn = LastTurn(ev.player, ev.card, ev.rotation)
        elif isinstance(ev, CardsTaken):
            self.table.fade_out(ev)
            if self.last_turn is not None and self.last_turn.player == ev.player:
                self.last_turn.taken = tuple(ev.cards)
        elif isinstance(ev, CardDiscarded):
            self.last_turn = LastTurn(ev.player, discarded=ev.card)
        elif isinstance(ev, ActionUndone):
            self.last_turn, self.table.pending = None, None  # the turn is being played again
            self.table.anims.clear()
            self.load()
        elif isinstance(ev, IllegalInput):
            self._answer(self._reason_text(ev))
        elif isinstance(ev, CardGameOver):
            self._over, self._over_at = ev, None
        elif isinstance(ev, GameAbandoned):
            s = self._session()
            if s is None or s.game is None:  # (else a new game was begun: its picture follows)
                self.model = TableModel()
                if "attract" in SCREENS:
                    self.ui.goto("attract")

    def _reason_text(self, ev: IllegalInput) -> str:
        """A refusal in the screen's language: by its code (``refusal.<code>``, kiosk/games/cards/session.py).

        Two refusals say more with the player's name: a computer is playing, or
        the screen must be handed over first.
        """
        m = self.model
        if m.started and not m.over:
            if ev.code == "computer_turn" or (m.kinds[m.current] != HUMAN and not ev.code):
                return self.t("cards.thinking", player=self.player_name(m.current))
            if ev.code == "pass_screen":
                return self.t("cards.pass_to", player=self.player_name(m.current))
        if ev.code and self.ui.translator.has(f"refusal.{ev.code}"):
            return self.t(f"refusal.{ev.code}")
        return ev.reason  # no translation for it: the session's English sentence

    def _show_toast(self, text: str) -> None:
        self.toast = text
        self.toast_until = self.ui.now() + TOAST_S
        self._stale = True

    def _answer(self, text: str) -> None:
        """A refusal: during a computer's turn, to the person who just tapped, at their edge and
        facing them (the hand panel shows the computer's side); otherwise in the hand panel, which
        faces the player whose turn it is."""
        m = self.model
        edge = self.note.tapper_edge(self.layout, self.ui.now())
        if edge is not None and m.started and not m.over and m.kinds[m.current] != HUMAN:
            self.note.show(self.layout, text, edge, self.ui.now())
            return
        self._show_toast(text)

    # ------------------------------------------------------------------ frame
    def update(self, dt: float) -> None:
        moved = self.table.step(dt, self.layout.px(RISE_PX))
        if moved:
            self.ui.request_frame()  # this update moves something: its last step is drawn too
        if self.toast and self.ui.now() >= self.toast_until:
            self.toast = ""
            self._stale = True
        self.note.update(self.ui.now())
        if self._stale or self._behind:
            self._rebuild()
        elif moved:
            self.table.place()
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
        return self._behind or self.table.moving

    # ------------------------------------------------------------------ building the picture
    def _clear(self) -> None:
        """Drop the whole picture: the next build makes every part anew."""
        self.parts.clear()
        self.table.forget()
        self.hand.cards = []
        self._behind, self._waits = False, 0
        self.widgets.clear()
        self._held = None

    def _rebuild(self) -> None:
        """The picture again from the model: each part (the room, each card, the board's marks, the
        pointers, each score chip, the hand panel, the hand-over sheet) only if what it shows changed.
        A frame that builds the board leaves the rest to the next frames (a computer's turn changes
        every part: ~10 ms here), a few frames in a row at most."""
        self._stale = False
        m = self.model
        if not m.started:
            self._clear()
            return
        atlas = self.atlas
        if self.card_atlas() is not atlas:
            self._clear()  # new card pictures (a size or a theme): every sprite anew
        far = self.facing(m.current) == 180
        if far != self.hand.far:
            self.hand.far = far
            self._compute_areas()
            self._clear()  # the hand and the table moved
        s = self._session()
        hand = s.visible_hand(m.current) if s is not None else ()
        picked = self.table.picked(hand)
        self.table.keep_pending(picked)
        human = m.kinds[m.current] == HUMAN and not m.handover
        if self.table.build(picked, human) and widgets.RECORDER is None and self._waits < BEHIND_FRAMES:
            self._behind = True
            self._waits += 1
            self.parts.drop(set(self.parts.built) - self.table.gone())  # (cards taken: gone at once)
            self.table.place_if_moved()
            self._gather_widgets()
            return
        self.table.build_pointers(self.hand.rect)
        self._behind, self._waits = False, 0
        self.table.place_if_moved()
        self._rest(hand, picked)

    def _rest(self, hand: tuple[int, ...], picked: int | None) -> None:
        """The chips, one a frame, then the hand panel and the hand-over sheet."""
        m, L = self.model, self.layout
        chips = self.chips.build()
        words = self._prompt(hand, picked)
        p = m.current
        hand_key: tuple[Any, ...] = (
            L,
            self.hand.rect,
            self.facing(p),
            p,
            m.phase,
            hand,
            m.hand_sizes[p],
            m.selected,
            m.rotation,
        )
        hand_key += (m.handover, tuple(m.kinds), m.pile, self.toast, self.table.pending, m.undo_player)
        hand_key += (tuple(sorted(m.chosen)), m.take_problem, words, self.controls)
        old = self.parts.built.get("hand")
        waiting = self.chips.built and (old is None or old[0] != hand_key)
        if (self.chips.left or waiting) and widgets.RECORDER is None:
            # a chip was built this frame: the next chip, then the hand panel, follow in the next frames
            # (each is a few ms)
            self._behind = True
            self._gather_widgets()
            return
        build = lambda: self.hand.build(hand, words, self.toast, self.controls)  # noqa: E731
        self.parts.part("hand", hand_key, build, self.hand.rect.grow(L.px(2)))
        self.audit_sheet = None
        sheet = m.handover and not m.over
        if sheet:
            last = self.last_turn
            sheet_key = (L, p, m.undo_player, None if last is None else repr(last))
            self.parts.part("handover", sheet_key, lambda: self.sheet.build(last), None)
            self.audit_sheet = handover.ORDER
        laid = {("card", cell) for cell in m.layout}
        self.parts.drop({"room", "board", "pointers", "hand", *laid, *chips, *(["handover"] if sheet else [])})
        self._gather_widgets()

    def _gather_widgets(self) -> None:
        """The widgets of the parts shown: the hand-over sheet's alone while it is up (a tap anywhere
        hands over), else the pointers' and the hand's (the hand's on top)."""
        sheet = self.model.handover and "handover" in self.parts.built
        self.widgets = self.parts.widgets_of(["handover"] if sheet else ["pointers", "hand"])
        self._held = None

    def _prompt(self, hand: tuple[int, ...], picked: int | None) -> tuple[str, str]:
        """The heading and the instruction for the active player."""
        m = self.model
        p = m.current
        name = self.player_name(p)
        if m.over:
            return "", ""
        if m.kinds[p] != HUMAN:
            return name, self.t("cards.thinking", player=name)
        if m.handover:
            return name, self.t("cards.pass_to", player=name)
        head = self.t("cards.your_turn", player=name)
        if m.phase == CardPhase.TAKE:
            return head, self.t("cards.take_choose")
        if m.phase == CardPhase.DISCARD:
            return head, self.t("cards.discard")
        if picked is None:
            return head, self.t("cards.pick_card")
        if self.table.pending is not None:
            return head, self.t("cards.lay_confirm")
        fits = any(OPEN[picked][m.rotation] & mask for mask in m.legal_cells().values())
        return head, self.t("cards.lay_card") if fits else self.t("cards.turn_card")

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
        m, table = self.model, self.table
        if not m.started or m.over or m.handover:
            return False
        cell = table.view.cell_at(table.room, x, y)
        if cell is None:
            return False
        if m.kinds[m.current] != HUMAN:
            self._answer(self.t("cards.thinking", player=self.player_name(m.current)))
            return True
        if m.phase == CardPhase.PLACE and cell not in m.layout:
            self._tap_place(cell)
            return True
        if m.phase == CardPhase.TAKE and cell in m.layout:
            self.ui.post(ToggleTake(m.layout[cell].card))
            return True
        return False

    def _tap_place(self, cell: Cell) -> None:
        """A tap on an empty place: the first shows the picked card there, the second lays it."""
        m, table = self.model, self.table
        legal = m.legal_cells()
        s = self._session()
        picked = table.picked(s.visible_hand(m.current) if s is not None else ())
        if picked is not None and cell in legal and OPEN[picked][m.rotation] & legal[cell]:
            if cell == table.pending:  # the second tap on the preview: lay it
                table.pending = None
                self.ui.post(LayCard(cell))
            else:  # the first: only show it there
                table.pending = cell
                self._stale = True
        elif cell in legal or m.selected is not None:
            table.pending = None
            self._stale = True
            self.ui.post(LayCard(cell))  # the session says why not (costs nothing)
        else:
            self._show_toast(self.t("cards.pick_card"))

    def _under_pointer(self, x: float, y: float) -> bool:
        """Whether (x, y) is on a pointer token lying over a place in view or a card that may be taken:
        that place or card gets the tap (a first tap on a place only shows the card there, and the
        table then follows it), the token the taps on the rest of it."""
        m, table = self.model, self.table
        if not m.started or self.widget_at(x, y) not in table.pointer_widgets:
            return False
        cell = table.view.cell_at(table.room, x, y)
        if cell is None or not table.view.seen(table.room, cell, target=False):
            return False
        if m.phase == CardPhase.PLACE:
            return cell in m.legal_cells()
        return m.phase == CardPhase.TAKE and cell in m.layout and m.layout[cell].card in m.takeable()

    # ------------------------------------------------------------------ tests and scripts
    def pan_towards(self, side: str) -> None:
        self.table.pan_towards(side)

    def bring_into_view(self, cell: Cell) -> None:
        """Pan the table at once (no easing) so that grid cell (x, y) is in view: for tests and scripts,
        which tap cells as a person would after panning."""
        if not self.model.started:
            return
        self._rebuild()
        if self.table.bring_into_view(cell):
            self._rebuild()
        v = self.table.view
        v.cx, v.cy, v.cell = v.target
        self.table.place()

    def cell_center(self, cell: Cell) -> tuple[float, float]:
        """Where grid cell (x, y) is on screen now (window pixels, origin bottom-left)."""
        return self.table.view.centre(self.table.room, cell)

    def hand_card_center(self, slot: int) -> tuple[float, float]:
        """Where hand card `slot` is on screen (only while the hand is shown)."""
        x, y = self.hand.cards[slot].rect.center
        return (float(x), float(y))
