"""kiosk.ui.screens."""
