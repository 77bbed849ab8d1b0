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
from kiosk.ui.shell.typeface import BODY
from kiosk.ui.shell.widgets import DIM, Frame, label


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

    def line_text(self) -> str:
        """ "Puzzle of the day · medium · turn 2 · fewest: 2 turns" """
        s = self.started
        if s is None:
            return ""
        t = self.t
        name = t("puzzles.daily") if s.daily else t("puzzles.number", n=s.puzzle.rpartition("-")[2])
        return "  \u00b7  ".join(
            (name, t(f"puzzles.grade_{s.grade}"), t("puzzles.turn", n=self.turn + 1), t("puzzles.fewest", n=s.optimum))
        )

    def _show_line(self) -> None:
        for item in self._line:
            item.delete()
        self._line = []
        text = self.line_text()
        if not text or self.layout is None:
            return
        L = self.layout
        board = L.board
        s = L.scale
        # under the board's bottom arrows, facing the player's side of the table
        y = max(board.y - 4 * s, 10 * s)
        self._line.append(
            label(text, Frame(L.screen, 0), board.x + board.w / 2, y, BODY * s, self.batch, self._line_group, color=DIM)
        )
