"""tests.kiosk.ui.screens."""
