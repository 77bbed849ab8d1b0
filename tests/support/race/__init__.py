"""A third game for the tests: a trivial dice race, declared in this folder alone.

Each turn the player to act rolls a die (from the game's seed) and moves on;
the first past square 12 wins; with a turn limit, the furthest ahead wins,
ties share. It has what every game brings (shared/ARCHITECTURE.md): a pure
engine state (engine.py), its record notation (record.py), its messages,
session and declaration to the kiosk (kiosk.py). It reaches the kiosk through
the ``labyrinth_kiosk.games`` entry-point group, as a separately installed game
would, and nothing outside this folder names it but the tests that prove so.
"""
