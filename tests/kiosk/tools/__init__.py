"""tests.kiosk.tools."""
