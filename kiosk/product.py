"""The product's own name, as visitors see it (the wordmark, the window title).

Our own generic name for a sliding-maze game: no trademarked name from the
boxed game. The package and service keep their technical name (labyrinth-kiosk).
"""

PRODUCT_NAME = "Shifting Maze"
