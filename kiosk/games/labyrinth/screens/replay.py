"""The board game's replay screen: a record's positions on the play screen's board and panels, read-only.

``labyrinth-replay --display offscreen|window FILE`` (kiosk/ui/screens/playback.py) shows
it. Each position is installed in the replay's private session and loaded the
way the play screen loads a resumed game; the panels say who really played
(the record's levels) and offer no controls; taps and keys only step.
"""

from __future__ import annotations

import dataclasses

from kiosk.ui.screens.playback import ReplaySteps
from kiosk.ui.shell.screen import register, session_for

from kiosk.games.labyrinth.screens.play import PlayScreen
from kiosk.games.labyrinth.screens.player_panel import PanelState


@register("labyrinth_replay")
class BoardReplayScreen(ReplaySteps, PlayScreen):
    """One position of a board-game record at a time."""

    def shown(self) -> None:
        self.load_from_session(session_for(self.kiosk, "labyrinth"))

    def _cue_turn(self) -> None:
        """No "your turn" cue: nobody is to act in a replay."""

    def _panel_state(self, idx: int) -> PanelState:
        state = super()._panel_state(idx)
        levels = self.playback.levels if self.playback is not None else []
        return dataclasses.replace(
            state,
            kind=levels[idx] if idx < len(levels) else state.kind,
            hints=False,
            prompt="",
            step="",
            peek=False,
            cards=(),
            pending=False,
            toast="",
        )

    def update(self, dt: float) -> None:
        super().update(dt)
        self.replay_tick(dt)
