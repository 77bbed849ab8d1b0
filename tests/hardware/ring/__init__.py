"""tests.hardware.ring."""
