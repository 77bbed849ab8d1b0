"""tests.hardware."""
