"""tests.kiosk.ui.overlays."""
