"""The board game's screens: the board, the seats' panels, play, game over and the how-to.

They are the game's own (``kiosk/games/labyrinth``); the shell they draw into (screen
base, layout, widgets, menus, art) is game-agnostic and lives in ``kiosk/ui``.
"""
