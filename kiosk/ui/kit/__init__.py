"""kiosk.ui.kit."""
