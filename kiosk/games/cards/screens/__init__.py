"""The card game's screens: play (hands, the open card, the table), game over and the how-to.

They are the game's own (``kiosk/games/cards``); the shell they draw into lives in ``kiosk/ui``.
"""
