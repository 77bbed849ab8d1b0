"""tests.kiosk."""
