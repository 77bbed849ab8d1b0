"""The shell names no game's screens or computers: they come from each game's declaration
(kiosk.games.GameType), so a game registered by a test is played, ended and left like the built-in ones."""

from __future__ import annotations

from dataclasses import replace

import pytest

from kiosk import games
from kiosk.ui.audit import states  # imported before any test renames the board game: its STATES are built at import


@pytest.fixture
def renamed_board_game():
    """The board game declared again under other screen names and with another default computer."""
    board = games.get("labyrinth")
    games.unregister_game("labyrinth")
    renamed = replace(board, default_seats=("human", "hard"), play_screen="maze_play")
    games.register_game(renamed)
    yield renamed
    games.unregister_game("labyrinth")
    games.register_game(board)


def test_a_games_default_computer_is_the_first_in_its_default_seats():
    assert games.get("labyrinth").default_ai == "medium"
    assert games.get("cards").default_ai == "easy"
    assert games.get("puzzles").default_ai == games.get("puzzles").ai_levels[0]  # no computer seated


def test_the_config_fills_seats_with_the_declared_computer(renamed_board_game, tmp_path):
    from kiosk.core import config as cfg

    path = tmp_path / "config.toml"
    path.write_text('[game]\ngame = "labyrinth"\nplayers = 3\n', encoding="utf-8")
    assert cfg.load(path).game.seats == ("human", "hard", "hard")


def test_the_audit_plays_the_default_games_screen_and_computer(renamed_board_game):
    call = next(s for s in states._states() if s.name == "seat_call")
    assert call.screen == renamed_board_game.play_screen
    assert states._default().default_ai == "hard"
