"""The card game's replay screen: a record's positions on the play screen's table, read-only.

``labyrinth-replay --display offscreen|window FILE`` (kiosk/ui/screens/playback.py) shows
it. Each position is installed in the replay's private session; the table, the
scores and the hand of the player to act (a replay has no secrets) are drawn
by the play screen from that session's public picture; taps and keys only step.
"""

from __future__ import annotations

from typing import cast

from engine.cards.parts import GAME_NAME

from kiosk.games.cards.session import CardSession
from kiosk.ui.screens.playback import ReplaySteps
from kiosk.ui.kit.widgets import AnchorY
from kiosk.ui.shell.screen import register

from kiosk.games.cards.screens.play import CardsPlayScreen


@register("cards_replay")
class CardsReplayScreen(ReplaySteps, CardsPlayScreen):
    """One position of a card-game record at a time."""

    controls = False  # no rotate button: a replay's taps only step

    def shown(self) -> None:
        session = cast(CardSession, self.kiosk.sessions[GAME_NAME])
        session.handover = False  # no "pass to" sheet between positions: the hand is shown
        self.load()  # the position's picture, drawn at the next frame
        self.view.cell = 0.0

    def _prompt(self, hand: tuple[int, ...], picked: int | None) -> tuple[str, str]:
        """The player to act and who they were (a person, a computer level): no instruction to anyone."""
        m = self.model
        if not m.started or m.over:
            return "", ""
        return self.player_name(m.current), self.seat_words(m.current)

    def caption_place(self) -> tuple[float, float, float, AnchorY]:
        """The top-left corner of the table (the view keeps the cards clear of the edges)."""
        r, L = self.board_rect, self.layout
        return r.x + L.px(10), r.top - L.px(8), r.w / 2, "top"

    def update(self, dt: float) -> None:
        super().update(dt)
        self.replay_tick(dt)
