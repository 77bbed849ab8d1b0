"""kiosk.ui.overlays."""
