"""tests.kiosk.ui."""
