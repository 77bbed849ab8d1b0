"""A puzzle on the board game's play screen: the same board, arrows, spare and panel, posting the
puzzles' commands; the panel shows the target from the start, and a line above the board says
which puzzle it is and how many turns the fewest are (kiosk/games/labyrinth/screens/play.py)."""

from __future__ import annotations

from typing import Any, ClassVar

import pyglet

from engine.puzzles import NAME

from kiosk.games.labyrinth.events import Commands, TurnChanged
from kiosk.games.labyrinth.screens.play import PlayScreen
from kiosk.games.puzzles.events import PUZZLE_COMMANDS, PuzzleStarted
from kiosk.ui.shell.screen import register, session_for
from kiosk.ui.kit.typeface import BODY
from kiosk.ui.kit.menu import Canvas, panel
from kiosk.ui.kit.widgets import DIM, INK, Frame, label


#: the near corner below each far one (same column in landscape, same half of the band in portrait)
NEAR_PLACE = {0: 3, 1: 2}
#: the other corner on the same edge of the table: where the puzzle's info panel goes
BESIDE = {0: 1, 1: 0, 2: 3, 3: 2}


@register("puzzle_play")
class PuzzlePlayScreen(PlayScreen):
    """A puzzle being played: the board game's screen with the puzzle's line."""

    game_name = NAME
    commands: ClassVar[Commands] = PUZZLE_COMMANDS
    over_screen = "puzzle_over"

    def __init__(self, ui: Any) -> None:
        super().__init__(ui)
        self.started: PuzzleStarted | None = None
        self.turn = 0
        self._line: list[Any] = []
        self._line_group = pyglet.graphics.Group(order=21)

    @property
    def hints_enabled(self) -> bool:
        """Off unless the setup asks: a hint is the next turn of a shortest solution."""
        setup = getattr(session_for(self.kiosk, self.game_name), "setup", None)
        return bool(getattr(setup, "hints", None))

    def load_from_session(self, session: Any, undone: bool = False) -> None:
        super().load_from_session(session, undone)
        snap = session.public_snapshot()
        if isinstance(snap, PuzzleStarted):
            self.started, self.turn = snap, snap.turns
            self._show_line()

    def resize(self, layout: Any) -> None:
        super().resize(layout)
        self._show_line()

    def on_event(self, ev: Any) -> None:
        super().on_event(ev)
        if isinstance(ev, PuzzleStarted):
            self.started, self.turn = ev, ev.turns
            self._show_line()
        elif isinstance(ev, TurnChanged) and ev.turn != self.turn:
            self.turn = ev.turn
            self._show_line()

    def info_lines(self) -> list[str]:
        """The goal in words (the treasure and the fewest turns that reach it), which puzzle and its
        grade, and the turn being played."""
        s = self.started
        if s is None:
            return []
        t = self.t
        name = t("puzzles.daily") if s.daily else t("puzzles.number", n=s.puzzle.rpartition("-")[2])
        treasure = t(f"treasure.{s.target}")
        goal = (
            t("puzzles.goal_one", treasure=treasure)
            if s.optimum == 1
            else t("puzzles.goal", treasure=treasure, n=s.optimum)
        )
        return [goal, f"{name} \u00b7 {t(f'puzzles.grade_{s.grade}')}", t("puzzles.turn", n=self.turn + 1)]

    def _cue_text(self, idx: int) -> str:
        """One player, no colour to tell apart: "Your turn"."""
        return self.t("puzzles.your_turn")

    def panel_place(self, seat: int) -> tuple[int, int]:
        """The one player's panel faces the person who pressed Start at the near edge (where the setup
        screen faces): a far seat's panel goes to the near place below it; the pawn keeps its corner."""
        L = self.layout
        if L.facing(seat) == 0:
            return seat, 0
        near = NEAR_PLACE[seat]
        return near, L.facing(near)

    def info_frame(self) -> Frame | None:
        """The other place on the player's side of the table, turned the same way as the player's panel.
        In portrait the two share a band (the player's panel keeps the room); in landscape each has
        a column of its own."""
        m = self.board.model
        if not m.started or not m.seats or self.layout is None:
            return None
        L = self.layout
        place, angle = self.panel_place(m.seats[0])
        beside = BESIDE[place]
        return Frame(L.panel(beside, place if L.portrait else beside), angle)

    def _info_label(self, c: Canvas, frame: Frame, text: str, v: float, goal: bool, width: float) -> Any:
        """One line of the info panel, its top at `v`."""
        return label(
            text,
            frame,
            frame.w / 2,
            v,
            c.font(BODY),
            self.batch,
            self._line_group,
            color=INK if goal else DIM,
            anchor_y="top",
            bold=goal,
            width=width,
            multiline=True,
        )

    def _show_line(self) -> None:
        for item in self._line:
            item.delete()
        self._line = []
        lines = self.info_lines()
        frame = self.info_frame()
        if not lines or frame is None:
            return
        self.ui.invalidate(frame.rect)  # the panel lies in the frame cache: draw its part again
        c = Canvas(self.layout)
        self._line += panel(frame, frame.full(), self.batch, pyglet.graphics.Group(order=20), radius=c.px(10))
        pad = c.px(10)
        width = frame.w - 2 * pad
        shown = list(lines)
        while True:  # the lines stacked from the top, each as tall as its wrapped words; where they do
            # not all fit (a short band in portrait), the puzzle's name goes first, then the turn
            items, v = [], frame.h - pad
            for k, text in enumerate(shown):
                items.append(self._info_label(c, frame, text, v, k == 0, width))
                v -= items[-1].content_height + pad
            if v >= 0 or len(shown) == 1:
                break
            for it in items:
                it.delete()
            shown.pop(1)
        self._line += items
