"""tests.kiosk.ui.shell."""
