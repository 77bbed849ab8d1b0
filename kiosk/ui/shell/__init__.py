"""kiosk.ui.shell."""
