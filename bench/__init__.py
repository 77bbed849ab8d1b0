"""Speed and memory figures, printed by `make bench` (never asserted in unit tests)."""
