"""tests.kiosk.core."""
