"""tests.kiosk.ui.kit."""
