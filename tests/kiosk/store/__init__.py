"""tests.kiosk.store."""
