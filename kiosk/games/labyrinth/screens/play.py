"""The play screen: the board in the middle, a panel per player at their corner.

Input becomes commands, nothing else: a tap on an arrow slot is SelectArrow
(the same arrow again pushes, as with the arcade buttons), a tap on the spare
is RotateSpare, a tap on a cell in the move phase is TapCell (on the own pawn:
stay), the buttons post Stay and RequestHint. The session answers with events;
the board view animates them; a refusal (IllegalInput) shows as a short
message in the active player's panel.

The secret target: the peek button shows it while held (a short tap shows it
for 1.5 s, for children who tap); it is asked from ``Session.visible_cards``
at that moment, never kept in the view. With open cards, the active player's
remaining cards are shown on their turn.

Drawing is split for the frame cache (kiosk/ui/shell/window.py): ``draw_static`` is the
board's still layers and the panels (drawn again only after ``ui.invalidate()``),
``draw_live`` what moves or pulses; ``animating`` says whether a frame is needed.
"""

from __future__ import annotations

import functools
import logging
from dataclasses import replace
from typing import Any, ClassVar

import pyglet
from pyglet.window import key

from engine.labyrinth.parts import GAME_NAME, Phase
from kiosk.core.events import ActionUndone, GameAbandoned, IllegalInput, SeatChanged, Undo, UndoChanged
from kiosk.games import HUMAN
from kiosk.games.labyrinth.events import (
    BOARD_COMMANDS,
    BoardShifted,
    Commands,
    GameOver,
    GameStarted,
    PreviewMoved,
    TurnChanged,
)
from kiosk.games.labyrinth.screens.board import BoardView
from kiosk.games.labyrinth.screens.player_panel import PanelState, PlayerPanel, join_row
from kiosk.games.labyrinth.session import Session
from kiosk.ui.art import COLOR_NAMES, SEAT_COLORS
from kiosk.ui.overlays.edge_note import EdgeNote
from kiosk.ui.overlays.game_menu import corner_spots
from kiosk.games.labyrinth.screens.frame import frame_extent
from kiosk.ui.kit.layout import Layout, Rect
from kiosk.ui.shell.screen import SCREENS, Screen, register, session_for
from kiosk.ui.overlays.turn_cue import TurnCue, TwoTap
from kiosk.ui.kit.widgets import UNDO_KEYS, Frame, Hold
from kiosk.games.labyrinth import geometry
from kiosk.games.labyrinth.geometry import ARROWS

log = logging.getLogger(__name__)

TOAST_S = 2.5
GAMEOVER_DELAY_S = 1.6
#: how much wider than its trays a side's panels are taken to draw, in layout units (rounding only)
SIDE_SLACK_PX = 1


@register("play")
class PlayScreen(Screen):
    """The board game being played (by people, by AI seats, or both)."""

    #: the game whose session it shows, the commands it posts and the screen at its end (a game
    #: that plays on this board, kiosk/games/puzzles, shows it with its own)
    game_name: str = GAME_NAME
    commands: ClassVar[Commands] = BOARD_COMMANDS
    over_screen = "gameover"

    def __init__(self, ui: Any) -> None:
        super().__init__(ui)
        self.live = pyglet.graphics.Batch()
        # the board's still layers in a batch of their own, inside the arrow ring; `batch` keeps the
        # panels (and anything else) around it: a change to one side redraws only its own batch
        self.board_batch = pyglet.graphics.Batch()
        self.board = BoardView(ui, self.board_batch, live=self.live)
        self.board.panel_place = self.panel_place  # a found treasure, the next spare fly to the panel
        # the panels of each side of the board (two seats share one: the columns left and right, or
        # the bands above and below) in a batch of their own, for the same reason
        self.side_batches = (pyglet.graphics.Batch(), pyglet.graphics.Batch())
        self._moving_sides: list[int] = []  # sides whose panels still move to the new turn's places
        self._side_moved_at = -1  # the frame (ui.frames) in which a side's panels last moved
        self._panels_due: int | None = None  # news for the panels came in this frame (ui.frames): see _panels_later
        self._panel_built_at = -1  # the frame (ui.frames) in which a panel was last built
        self._panels_pending = False  # a panel waits for the next frame (_refresh_panels)
        self.panels: dict[int, PlayerPanel] = {}
        self.panel_group = pyglet.graphics.Group(order=20)
        self.peek = Hold(clock=ui.now)
        self.toast = ""
        self.toast_until = 0.0
        self.toast_player: int | None = None
        self._gameover: GameOver | None = None
        self._gameover_at: float | None = 0.0
        self._signature: Any = None
        self.cursor: tuple[int, int] | None = None
        self.overlay = pyglet.graphics.Batch()  # the chosen destination, a refusal at the edge
        self.cue = TurnCue()  # whose "<colour>'s turn" shows: their panel draws it
        self.note = EdgeNote(self.overlay)  # a refusal for the person who tapped, facing them
        self.destination: TwoTap[tuple[int, int]] = TwoTap(
            lambda cell: self.ui.post(self.commands.tap(cell)), self._show_destination
        )
        self._marks: list[Any] = []
        self._panel_active: int | None = None
        self.undo_player: int | None = None  # who may take an action back now (their panel's Undo button)
        self._cue_due = False  # a person's turn began: its cue shows when the board has caught up
        self._cued: tuple[int, int] | None = None  # (player, turn) the cue was last shown for
        self._menu_spots: tuple[Layout, list[tuple[Rect, int]]] | None = None  # (for this layout, the spots)
        self._left: tuple[Any, GameStarted] | None = None  # the game and its moment when the screen was left

    # ------------------------------------------------------------------ lifecycle
    def resize(self, layout: Layout) -> None:
        self.note.hide()
        self.board.resize(layout)
        for p in self.panels.values():
            p.delete()
        self.panels = {}
        self._signature = None
        if self.board.model.started:
            self._build_panels()
            self._warm_panels()

    def enter(self, hints: bool | None = None, **kw: Any) -> None:
        """Show the running game: take the public picture from the session (resume, late entry).

        `hints` (from the setup screen) is used when the game's setup does not say."""
        self._hints_choice = hints
        session = session_for(self.kiosk, self.game_name)
        game = getattr(session, "game", None)
        if game is not None:
            self.load_from_session(session)
            self._warm_panels()

    def leave(self) -> None:
        super().leave()
        self.peek.cancel()
        self.note.hide()
        self._left = self._moment(session_for(self.kiosk, self.game_name))

    @staticmethod
    def _moment(session: Any) -> tuple[Any, GameStarted] | None:
        """Which game and where in it the session is (None: no game)."""
        if getattr(session, "game", None) is None:
            return None
        return getattr(session, "game_id", None), session.public_snapshot()

    def load_from_session(self, session: Any, undone: bool = False) -> None:
        """The session's game as it is now (`undone`: after an undo, the marks step back too; the
        moment the screen was left, shown again on coming back from the rules or a menu: the last
        move's marks stay)."""
        g = session.game
        snap: GameStarted = session.public_snapshot()
        again = not undone and self._left is not None and self._left == (getattr(session, "game_id", None), snap)
        self.board.load(snap, undone=undone, again=again)
        m = self.board.model
        m.reachable = frozenset(g.reachable()) if g.phase == Phase.MOVE else frozenset()
        m.preview = session.preview
        m.rotation = session.rotation
        self.undo_player = session.undo_player
        if session.preview is not None or session.rotation:
            m.spare = session.spare_preview()
        self.board._sync_all()
        self._gameover = None
        self._build_panels()

    def _build_panels(self) -> None:
        for p in self.panels.values():
            p.delete()
        self.panels = {}
        m = self.board.model
        active = m.seats[m.current] if m.phase != Phase.OVER and m.current < len(m.seats) else None
        self._panel_active = active
        self._moving_sides = []
        for idx, seat in enumerate(m.seats):
            frame = self._panel_frame(seat, active)
            self.panels[idx] = PlayerPanel(
                self.ui,
                self.side_batches[self._side_of(seat)],
                self.panel_group,
                frame,
                on_rotate=lambda: self.ui.post(self.commands.rotate(1)),
                on_peek=self._peek_hold,
                on_peek_tap=self.peek.tap,
                on_hint=lambda: self.ui.post(self.commands.hint()),
                on_stay=self._stay_or_confirm,
                on_undo=functools.partial(self._undo_tap, idx),
            )
        self._signature = None
        self._refresh_panels()

    def _warm_panels(self) -> None:
        """Each player's turn as their panel will show it (cued, the push, the walk, a walk chosen) and
        their panel while another plays, built once into a batch that is never drawn, as the game's
        screen opens: the texts of the game's panels (its vocabulary) are then drawn once (the text
        cache), and a turn's frames only place them."""
        m = self.board.model
        if not m.started or not m.seats:
            return
        scratch = pyglet.graphics.Batch()
        seen: set[tuple[float, float, str]] = set()  # (width, height, kind) of the turns built: the same words
        for idx, seat in enumerate(m.seats):
            human = m.kinds[idx] == HUMAN
            base = replace(
                self._panel_state(idx), active=True, peek=False, toast="", hints=self.hints_enabled and human
            )
            push = replace(base, phase=Phase.SHIFT, step="push", prompt=self.t("play.step_push"), cue="")
            turns = [replace(push, cue=self._cue_text(idx)), push]  # (only the colour's words differ)
            if not human:
                turns = [replace(base, phase=Phase.SHIFT, prompt=self.t("play.computer_thinking"), step="", cue="")]
            mine = self._panel_frame(seat, seat)
            if human and (mine.w, mine.h, m.kinds[idx]) not in seen:
                seen.add((mine.w, mine.h, m.kinds[idx]))
                walk = replace(base, phase=Phase.MOVE, step="move", prompt=self.t("play.step_move"), spare=None)
                turns += [replace(walk, undo=True), replace(walk, prompt=self.t("play.step_confirm"), pending=True)]
            other = m.seats[(idx + 1) % len(m.seats)]
            idle = replace(base, active=False, phase="", spare=None, hints=False, prompt="", step="", undo=human)
            for frame, states in ((mine, turns), (self._panel_frame(seat, other), [idle])):
                panel = PlayerPanel(
                    self.ui, scratch, None, frame, on_rotate=_no, on_peek=_no, on_peek_tap=_no, on_hint=_no, on_stay=_no
                )
                for st in states:
                    panel.show(st)
                panel.delete()

    # ------------------------------------------------------------------ panels
    def _peek_hold(self, down: bool) -> None:
        self.peek.set(down)
        self._refresh_panels()

    @property
    def hints_enabled(self) -> bool:
        config = self.kiosk.config
        m = self.board.model
        hints = config.game.hints if config is not None else None
        if getattr(self, "_hints_choice", None) is not None:
            hints = self._hints_choice
        setup = getattr(session_for(self.kiosk, self.game_name), "setup", None)
        hint_override = getattr(setup, "hints", None)
        if hint_override is not None:  # the game's own setup (the setup screen, a resumed save)
            hints = hint_override
        if hints is None:
            return m.open_cards or not m.return_home
        return bool(hints)

    def _prompt(self, m) -> str:
        kind = m.kinds[m.current] if m.kinds else HUMAN
        if kind != HUMAN:
            return self.t("play.computer_thinking") if m.phase == Phase.SHIFT and m.preview is None else ""
        if m.phase == Phase.SHIFT:
            if m.preview is None:
                return self.t("play.step_push")
            return self.t("play.push_again")
        if m.phase == Phase.MOVE:
            if self.destination.pending is not None:
                return self.t("play.step_confirm")
            if m.reachable <= {m.positions[m.current]}:  # walls all round: the pawn's square is the only lit one
                return self.t("play.step_stay")
            return self.t("play.step_move")
        return ""

    def _stay_or_confirm(self) -> None:
        """The panel's stay button; with a destination chosen it is the confirm button."""
        if not self.destination.confirm():
            self.ui.post(self.commands.stay())

    def _show_destination(self) -> None:
        """Mark the chosen cell (a ring and the pawn's ghost) until it is confirmed or changed."""
        for it in self._marks:
            it.delete()
        self._marks = []
        cell = self.destination.pending
        m = self.board.model
        if cell is not None and m.started:
            L = self.layout
            x, y = geometry.cell_center(L, *cell)
            seat = m.seats[m.current]
            color = SEAT_COLORS[seat]
            g = pyglet.graphics.Group(order=40)
            for k, r in enumerate((L.cell * 0.48, L.cell * 0.42)):
                self._marks.append(
                    pyglet.shapes.Arc(
                        x,
                        y,
                        r,
                        thickness=L.px(3),
                        color=color if k == 0 else (255, 255, 255),
                        batch=self.overlay,
                        group=g,
                    )
                )
            ghost = pyglet.sprite.Sprite(
                self.ui.atlas.pawn(seat), x, y, batch=self.overlay, group=pyglet.graphics.Group(order=41)
            )
            ghost.scale = L.cell * 0.6 / self.ui.atlas.px
            ghost.opacity = 170
            self._marks.append(ghost)
        self._signature = None
        self._refresh_panels()
        self.ui.request_frame()

    def _cue_turn(self) -> None:
        """The large "<colour>'s turn" for a person whose turn starts, on their panel, facing them."""
        m = self.board.model
        if not m.started or m.phase != Phase.SHIFT or m.kinds[m.current] != HUMAN:
            return
        if self._cued == (m.current, m.turn):
            return  # this turn was cued already (it began again after an undo: they know)
        self._cued = (m.current, m.turn)
        self.cue.show(m.current)
        self._panels_later()  # (the frame showing the turn's board, or the walk landed, is drawn first)
        self.ui.request_frame()  # the cue stands still until a touch: one frame shows it

    def _cue_text(self, idx: int) -> str:
        """`idx`'s turn cue in the words of the moment (a language change says it again)."""
        colour = self.t(f"colour.{COLOR_NAMES[self.board.model.seats[idx]]}")
        return self.t("play.turn_of", colour=colour)

    def cue_area(self) -> Rect | None:
        """Where the turn cue lies on the screen now (None: not showing)."""
        panel = self.panels.get(self.cue.player) if self.cue.player is not None else None
        return panel.cue_area if panel is not None else None

    def cue_label(self) -> Any:
        """The turn cue's text as drawn now (None: not showing)."""
        panel = self.panels.get(self.cue.player) if self.cue.player is not None else None
        return panel.cue_label if panel is not None else None

    def _panel_state(self, idx: int) -> PanelState:
        m = self.board.model
        active = idx == m.current and m.phase != Phase.OVER
        session = session_for(self.kiosk, self.game_name)
        peek_on = active and self.peek.on and m.kinds[idx] == HUMAN
        cards: tuple[str, ...] = ()
        if active and m.kinds[idx] == HUMAN and (peek_on or m.open_cards) and isinstance(session, Session):
            try:
                cards = tuple(session.visible_cards(idx))
            except Exception:  # no game in the session (view lagging behind): show nothing secret
                cards = ()
        toast = (
            self.toast
            if (
                self.toast
                and self.ui.now() < self.toast_until
                and (self.toast_player is None or self.toast_player == idx)
            )
            else ""
        )
        return PanelState(  # an idle panel shows no phase: it stays the same (and cached) all turn
            seat=m.seats[idx],
            player=idx,
            kind=m.kinds[idx],
            cards_left=m.cards_left[idx],
            found=tuple(m.found[idx]),
            active=active,
            phase=m.phase if active else "",
            # only the push shows the spare: a move phase's panel is the same whichever tile was pushed out
            spare=(m.spare.openings, m.spare.treasure) if active and m.phase == Phase.SHIFT else None,
            peek=peek_on,
            cards=cards,
            open_cards=m.open_cards,
            heading_home=m.cards_left[idx] == 0 and m.return_home,
            hints=active and self.hints_enabled and m.kinds[idx] == HUMAN,
            prompt=self._prompt(m) if active else "",
            toast=toast,
            step=("push" if m.phase == Phase.SHIFT else "move") if active and m.kinds[idx] == HUMAN else "",
            pending=active and self.destination.pending is not None,
            undo=idx == self.undo_player and m.kinds[idx] == "human",
            cue=self._cue_text(idx) if active and m.phase == Phase.SHIFT and self.cue.player == idx else "",
        )

    def audit_floors(self) -> list[tuple[str, Rect | None, float]]:
        """The controls that must show at least how large (the spare, the hint; kiosk/ui/audit/layout.py)."""
        return [floor for p in self.panels.values() for floor in p.floors()]

    def _refresh_panels(self) -> None:
        m = self.board.model
        if not m.started or not self.panels:
            return
        active = self._active_seat()
        if active != self._panel_active:  # the active panel gets the room: new frames
            self._panel_active = active
            first = self._side_of(active) if active is not None else 0
            self._moving_sides = [first, 1 - first]  # the side whose turn it is now first
        if self._moving_sides and self._side_moved_at != self.ui.frames:
            # one side a frame: the turn change's panels are built over two frames, not in one
            # (each side's two panels together: they share the side, and must not overlap)
            self._side_moved_at = self.ui.frames
            self._move_side(self._moving_sides.pop(0))
            self._signature = None
        states = tuple(self._panel_state(i) for i in self.panels)
        if states == self._signature:
            return
        state_of = dict(zip(self.panels, states))
        self._panels_pending = False
        for i in sorted(self.panels, key=lambda i: i != m.current):  # the turn's own panel first
            panel, st = self.panels[i], state_of[i]
            if self._side_of(m.seats[i]) in self._moving_sides or panel.state == st:
                continue  # (a side still to move: where it was, as it was, its turn is next frame)
            if panel.state is not None and self._panel_built_at == self.ui.frames:
                # a panel in its place waits for the next frame if one was built in this one (each is a
                # few ms); moved ones are all built now (the two of a side together, they must not overlap)
                self._panels_pending = True
                continue
            self.ui.invalidate(panel.frame.rect)  # only this panel's part of the cache
            self._panel_built_at = self.ui.frames
            panel.show(st)
        self._signature = None if self._moving_sides or self._panels_pending else states
        widgets = [w for panel in self.panels.values() for w in panel.widgets]
        held = self._held
        self.widgets = widgets
        if held is not None and held not in widgets:
            # the panel was rebuilt under a holding finger: keep the hold on the new peek area (the
            # same place, or the larger one that took it in: all the open cards, held)
            self._held = next((w for w in widgets if w.rect == held.rect), None) or next(
                (w for w in widgets if w.on_hold is not None and w.rect.contains(*held.rect.center)), None
            )

    def _active_seat(self) -> int | None:
        """The seat whose turn the board shows (its panel gets the room), None when the game is over."""
        m = self.board.model
        return m.seats[m.current] if m.phase != Phase.OVER and m.current < len(m.seats) else None

    def _panels_later(self) -> None:
        """The panels show the news of this frame in the next one: the frame that shows it on the
        board (a push that starts, the next turn's arrows) does not also build panels (a few ms each)."""
        self._panels_due = self.ui.frames

    def _panels_behind(self) -> bool:
        """The panels are not yet where the board's turn puts them (they follow within three frames)."""
        return (
            self._panels_due is not None
            or self._panels_pending
            or bool(self._moving_sides)
            or (bool(self.panels) and self.board.model.started and self._active_seat() != self._panel_active)
        )

    def _side_of(self, seat: int) -> int:
        """The side of the board seat `seat`'s panel is on (0: left or top, 1: right or bottom)."""
        place = self.panel_place(seat)[0]
        return (0 if place in (0, 3) else 1) if not self.layout.portrait else (0 if place in (0, 1) else 1)

    def panel_place(self, seat: int) -> tuple[int, int]:
        """The table place (a seat's corner) where `seat`'s panel, turn cue and arrow note lie, and
        the angle they are turned by: the seat's own. A game played on this screen may seat its
        panels elsewhere (a solo puzzle: where the person who started it stands)."""
        return seat, self.layout.facing(seat)

    def _panel_frame(self, seat: int, active: int | None) -> Frame:
        """Seat `seat`'s panel at its place, with seat `active`'s panel (the turn's) given the room."""
        place, angle = self.panel_place(seat)
        return Frame(self.layout.panel(place, None if active is None else self.panel_place(active)[0]), angle)

    def facing(self, player: int) -> int:
        """The angle the overlays (kiosk/ui/overlays/idle.py, seats.py) turn `player`'s texts by: their panel's."""
        m = self.board.model
        if not 0 <= player < len(m.seats):
            return self.layout.facing(None)
        return self.panel_place(m.seats[player])[1]

    def _move_side(self, side: int) -> None:
        """The panels on `side` to their places for the active seat (the active panel gets the room)."""
        m = self.board.model
        for idx, seat in enumerate(m.seats):
            panel = self.panels[idx]
            if self._side_of(seat) != side:
                continue
            frame = self._panel_frame(seat, self._panel_active)
            if panel.state is not None and (frame.rect, frame.angle) == (panel.frame.rect, panel.frame.angle):
                continue  # the same place: rebuilt only if what it shows changed
            panel.delete()
            self.ui.invalidate(panel.frame.rect)  # where it was ...
            panel.frame = frame
            self.ui.invalidate(panel.frame.rect)  # ... and where it is now (only the sides)
            panel.state = None

    # ------------------------------------------------------------------ events
    def on_event(self, ev: Any) -> None:
        if self._undo_event(ev) or self._seat_changed(ev):
            return
        if isinstance(ev, IllegalInput) and ev.code == "not_computer_turn":
            return  # a computer's step that came after its seat was handed back: nobody touched anything
        if isinstance(ev, GameStarted):
            self.undo_player, self._cued = None, None
            self.board.load(ev)
            self._gameover = None
            self.peek.cancel()
            self.destination.clear()
            self._build_panels()
            self._warm_panels()
            self._cue_turn()
            return
        self.board.on_event(ev)
        if not isinstance(ev, TurnChanged):
            self._cue_due = False  # the person acted before the board caught up: they know it is their turn
        if self.cue.showing and not isinstance(ev, TurnChanged):
            self.cue.hide()  # the person acts (an arrow, a push): the cue makes room
            self.ui.request_frame()
        self._note_event(ev)
        if isinstance(ev, TurnChanged):
            self.destination.clear()
        if isinstance(ev, TurnChanged) and ev.phase == Phase.SHIFT:
            self.peek.cancel()
            self._thinking_done()
            self._panels_later()
            self._cue_due = True  # shown once the board has played the walk before it out
        elif isinstance(ev, IllegalInput):
            self._refused(ev)
        elif isinstance(ev, GameOver):
            self._gameover = ev
            self._gameover_at = None
        elif isinstance(ev, GameAbandoned) and not ev.replaced:  # a new game shows itself next
            if "attract" in SCREENS:
                self.ui.goto("attract")

    def _note_event(self, ev: Any) -> None:
        """The arrow note shows at a preview and goes with the push (or the turn)."""
        if isinstance(ev, PreviewMoved):
            self._arrow_note(ev.arrow)
        elif (
            isinstance(ev, (BoardShifted, TurnChanged))
            and self.note.showing
            and self.note.text == self.t("play.tap_arrow_again")
        ):
            self.note.hide()
            self.ui.request_frame()

    def _arrow_note(self, arrow: str | None) -> None:
        """After a person's first tap on an arrow (the spare previews there), "tap this arrow again to
        push" beside that arrow, over the board's edge, facing them: where they look, not only in their
        panel. Not for a computer's preview, nor for the arcade buttons (no recent tap)."""
        m = self.board.model
        text = self.t("play.tap_arrow_again")
        human = m.started and m.kinds and m.kinds[m.current] == HUMAN
        if arrow is None or not human or self.note.tapper_edge(self.layout, self.ui.now()) is None:
            if self.note.showing and self.note.text == text:
                self.note.hide()
                self.ui.request_frame()
            return
        L = self.layout
        a, board = geometry.arrow_rect(L, arrow), L.board
        side = arrow[0]
        angle = self.panel_place(m.seats[m.current])[1] if m.seats else 0
        gap = L.px(4)
        first_half = int(arrow[1]) <= 3

        def place(w: float, h: float) -> tuple[float, float]:
            """On the board's edge by the arrow, beside the row or column it pushes (which stays in view)."""
            if side in "NS":
                x = a.right + gap if first_half else a.x - gap - w
                return x, (a.y - gap - h if side == "N" else a.top + gap)
            y = a.y - gap - h if first_half else a.top + gap  # rows count from the top
            return (a.right + gap if side == "W" else a.x - gap - w), y

        room = min(board.w / 2, L.px(300))
        self.note.show_at(L, text, place, angle, self.ui.now(), room, within=board)
        self.ui.request_frame()

    def _seat_changed(self, ev: Any) -> bool:
        """A computer plays the seat now, or a person again: its panel says so. True if `ev` said it."""
        if not isinstance(ev, SeatChanged):
            return False
        m = self.board.model
        if m.started and 0 <= ev.player < len(m.kinds):
            m.kinds[ev.player] = ev.kind
            self._build_panels()
            self.ui.request_frame()
            if ev.kind == HUMAN and ev.player == m.current:  # handed back in its own turn: the session
                self._cued = None  # says the turn again, and "Red's turn" shows, even if it showed before
        return True

    def _thinking_done(self) -> None:
        """A turn begins: "Computer is thinking..." is no longer true, in the panel nor at the edge of
        the one who tapped (where it lay over their arrows and menu buttons)."""
        thinking = self.t("play.computer_thinking")
        if self.toast == thinking:
            self.toast = ""
        if self.note.showing and self.note.text == thinking:
            self.note.hide()
            self.ui.request_frame()

    def _refused(self, ev: IllegalInput) -> None:
        """A refusal answers the person who tapped: during the computer's turn at the tapper's edge,
        not in the computer's panel (upside down for someone at the other side)."""
        edge = self.note.tapper_edge(self.layout, self.ui.now())
        m = self.board.model
        if edge is not None and m.started and m.kinds[m.current] != HUMAN:
            self.note.show(self.layout, self._reason_text(ev), edge, self.ui.now())
            self.ui.request_frame()
        else:
            self._show_toast(self._reason_text(ev), ev.player)

    def _undo_event(self, ev: Any) -> bool:
        """Undo's events: the Undo button shows or goes, an action was taken back. True if `ev` was one."""
        if isinstance(ev, UndoChanged):
            self.undo_player = ev.player if ev.available else None
            self._panels_later()
            return True
        if isinstance(ev, ActionUndone):
            self._undone()
            return True
        return False

    def _undo_tap(self, player: int) -> None:
        self.ui.post(Undo(player))

    def _undone(self) -> None:
        """A person took an action back: show the session's game again as it is now, with the
        last-move marks from before that action."""
        session = session_for(self.kiosk, self.game_name)
        if getattr(session, "game", None) is None:
            return
        self.peek.cancel()
        self.destination.clear()
        if self.cue.showing:
            self.cue.hide()
        self.board.finish_animations()
        self.load_from_session(session, undone=True)
        self.ui.request_frame()

    def _reason_text(self, ev: IllegalInput) -> str:
        m = self.board.model
        if ev.arrow is not None and ev.arrow == m.forbidden:
            return self.t("play.blocked")
        if m.kinds and m.kinds[m.current] != HUMAN:
            return self.t("play.computer_thinking")
        if ev.command in ("select_arrow", "push_arrow", "rotate_spare", "request_hint") and m.phase == Phase.MOVE:
            return self.t("play.walk")
        if ev.command in ("tap_cell", "stay") and m.phase == Phase.SHIFT:
            return self.t("play.rotate_and_push")
        code = getattr(ev, "code", "")
        has = getattr(self.ui.translator, "has", None)
        if code and has is not None and has(f"refusal.{code}"):
            return self.t(f"refusal.{code}")
        return ev.reason  # no translation for it: the session's English sentence

    def _show_toast(self, text: str, player: int | None) -> None:
        self.toast = text
        self.toast_player = player
        self.toast_until = self.ui.now() + TOAST_S

    # ------------------------------------------------------------------ frame
    def update(self, dt: float) -> None:
        moving = self.board.busy
        self.board.update(dt)
        landed = moving and not self.board.busy
        was = self.cue.showing
        if not self.cue.update(dt) and was:
            self.ui.request_frame()  # the cue went away: one more frame without it
        if self.note.update(self.ui.now()):
            self.ui.request_frame()
        if self._cue_due and not self.board.busy:
            self._cue_due = False
            self._cue_turn()
        # a push or a walk that lands redraws the board, news is shown on it first: the panels follow a frame later
        if not landed and self._panels_due != self.ui.frames:
            self._panels_due = None
            self._refresh_panels()
        if self._gameover is not None and not self.board.busy:
            now = self.ui.now()
            if self._gameover_at is None:
                self._gameover_at = now + GAMEOVER_DELAY_S
            elif now >= self._gameover_at and self.over_screen in SCREENS:
                ev, self._gameover = self._gameover, None
                self.ui.goto(self.over_screen, event=ev)

    @property
    def busy(self) -> bool:
        return self.board.busy or self._panels_behind()

    # ------------------------------------------------------------------ drawing (frame cache)
    def draw_static(self) -> None:
        # in the order of their groups, as if in one batch: the table's planks, the board's (its
        # frame and tiles), the panels', the rest (a caption)
        self.draw_table()
        self.board_batch.draw()
        for batch in self.side_batches:
            batch.draw()
        self.batch.draw()

    def static_parts(self) -> list[tuple[tuple[Rect, ...], Any]]:
        """The still layers and where each lies (kiosk/ui/shell/window.py redraws a changed area
        with only the layers it touches): the board inside its arrow ring, the rest around it."""
        L = self.layout
        ring = L.ring
        left, right = Rect(0, 0, ring.x, L.height), Rect(ring.right, 0, L.width - ring.right, L.height)
        top, bottom = Rect(0, ring.top, L.width, L.height - ring.top), Rect(0, 0, L.width, ring.y)
        return [
            ((L.screen,), self.draw_table),
            ((frame_extent(L),), self.board_batch.draw),  # the frame's shadow too
            (self._side_extent(0), self.side_batches[0].draw),
            (self._side_extent(1), self.side_batches[1].draw),
            ((left, right, top, bottom), self.batch.draw),
        ]

    def _side_extent(self, side: int) -> tuple[Rect, ...]:
        """Where the panels of one side of the board lie (their trays hold all they draw): a pushed
        row's ends reach into the band beside the ring, not into a panel, so its redraw does not draw
        the panels' batches too (each ~0.3 ms here). A little wider, for rounding."""
        m = self.board.model
        rects = [p.frame.rect for i, p in self.panels.items() if i < len(m.seats) and self._side_of(m.seats[i]) == side]
        if not rects:
            return ()
        x0, y0 = min(r.x for r in rects), min(r.y for r in rects)
        x1, y1 = max(r.right for r in rects), max(r.top for r in rects)
        return (Rect(x0, y0, x1 - x0, y1 - y0).grow(self.layout.px(SIDE_SLACK_PX)),)

    def draw_live(self) -> None:
        self.live.draw()
        self.overlay.draw()

    def draw(self) -> None:
        self.draw_static()
        self.live.draw()
        self.overlay.draw()

    @property
    def animating(self) -> bool:
        # the turn cue stands still: it needs no frames of its own; panels still moving to the new
        # turn's places need the next one
        return self.board.animating or self._panels_behind()

    def seat_spot(self, player: int) -> tuple[Rect, int] | None:
        """Where a computer's Join button goes (kiosk/ui/overlays/seats.py): the outer end of its panel,
        at its corner of the table, turned to that side."""
        m = self.board.model
        if not m.started or not 0 <= player < len(m.seats):
            return None
        L = self.layout
        seat = m.seats[player]
        active = m.seats[m.current] if m.phase != Phase.OVER and m.current < len(m.seats) else None
        frame = self._panel_frame(seat, active)
        rect, angle = frame.rect, frame.angle
        pad, h = join_row(L)
        w = min(rect.w - 2 * pad, L.px(150))
        # the end of the panel its texts read towards last: the table's edge in the tabletop layout
        y = rect.top - pad - h if angle == 180 else rect.y + pad
        return Rect(rect.x + (rect.w - w) / 2, y, w, h), angle

    def menu_spots(self) -> list[tuple[Rect, int]]:
        """The in-game menu's buttons (kiosk/ui/overlays/game_menu.py): the arrow ring's four corner squares,
        which hold no arrow, each at a seat's start corner and turned to that seat's edge."""
        L = self.layout
        if self._menu_spots is None or self._menu_spots[0] != L:  # asked every frame: once per layout
            corners = {0: (-1, -1), 1: (-1, 7), 2: (7, 7), 3: (7, -1)}
            spots = {seat: geometry.cell_rect(L, *cell) for seat, cell in corners.items()}
            self._menu_spots = (L, corner_spots(L, spots))
        return list(self._menu_spots[1])

    def wake_in(self) -> float | None:
        """The next moment the still screen changes by itself: a message or a peek runs out, or
        the game-over screen is due."""
        now = self.ui.now()
        times = [t for t in (self.toast_until, self.peek.until) if t > now]
        if self._gameover is not None:
            times.append(now if self._gameover_at is None else self._gameover_at)
        pulse = self.board.wake_in()  # the next step of a pulse
        if pulse is not None:
            times.append(now + pulse)
        return min(times) - now if times else None

    def claims(self, x: float, y: float) -> bool:
        """A finger here plays (a panel control, an arrow, a cell): never the operator gesture."""
        if self.widget_at(x, y) is not None:
            return True
        return self.board.model.started and (
            geometry.arrow_at(self.layout, x, y) is not None or geometry.cell_at(self.layout, x, y) is not None
        )

    # ------------------------------------------------------------------ fingers
    def press(self, x: float, y: float) -> None:
        self.board.wake()
        if self.cue.showing:  # a finger on the screen: the cue makes room at once
            self.cue.hide()
            self.ui.request_frame()
        super().press(x, y)

    def tap(self, x: float, y: float) -> bool:
        self.note.touched(x, y, self.ui.now())
        if super().tap(x, y):
            return True
        m = self.board.model
        if not m.started:
            return False
        L = self.layout
        arrow = geometry.arrow_at(L, x, y)
        if arrow is not None:
            self.ui.post(self.commands.select(arrow))
            return True
        cell = geometry.cell_at(L, x, y)
        if cell is not None:
            self._tap_cell(cell)
            return True
        return False

    def _tap_cell(self, cell: tuple[int, int]) -> None:
        """A person's tap on a cell: in their move phase, a lit cell (or their own pawn) is only
        chosen by the first tap and walked to by the second (kiosk/ui/overlays/turn_cue.py TwoTap); any
        other tap goes to the session, which explains what to do instead."""
        m = self.board.model
        human = m.kinds and m.kinds[m.current] == HUMAN
        if m.phase == Phase.MOVE and human and (cell in m.reachable or cell == m.positions[m.current]):
            self.destination.tap(cell)
            return
        self.ui.post(self.commands.tap(cell))

    # ------------------------------------------------------------------ keys (desktop stand-ins)
    def on_key(self, symbol: int, modifiers: int) -> bool:
        self.board.wake()
        moves = {key.UP: (-1, 0), key.DOWN: (1, 0), key.LEFT: (0, -1), key.RIGHT: (0, 1)}
        if symbol in moves:
            r, c = (
                self.cursor or self.board.model.positions[self.board.model.current]
                if self.board.model.started
                else (3, 3)
            )
            dr, dc = moves[symbol]
            self.cursor = (min(6, max(0, r + dr)), min(6, max(0, c + dc)))
            self.board.set_cursor(self.cursor)
            return True
        if symbol in (key.ENTER, key.RETURN) and self.cursor is not None:
            self._tap_cell(self.cursor)
            return True
        if symbol == key.P:
            self._peek_hold(True)
            return True
        if symbol in UNDO_KEYS:
            self.ui.post(Undo(source="key"))
            return True
        if symbol == key.H and self.hints_enabled:
            self.ui.post(self.commands.hint(source="key"))
            return True
        return False

    def on_key_release(self, symbol: int, modifiers: int) -> None:
        if symbol == key.P:
            self._peek_hold(False)

    def relabel(self) -> None:
        """A new language: only the panels have words (the layout audit's languages)."""
        if self.board.model.started:
            self._build_panels()
        else:
            self.resize(self.layout)

    def audit_targets(self) -> list[tuple[str, str, Rect]]:
        """What the layout audit measures besides the widgets: the board answers to its own taps."""
        if not self.board.model.started:
            return []
        L = self.layout
        arrows = [(f"arrow:{name}", "arrow", geometry.arrow_rect(L, name)) for name in ARROWS]
        cells = [(f"cell:{r},{c}", "cell", geometry.cell_rect(L, r, c)) for r in range(7) for c in range(7)]
        return arrows + cells


def _no(*_args: Any) -> None:
    """A control of a panel built only for its texts (PlayScreen._warm_panels)."""
