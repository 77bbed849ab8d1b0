"""kiosk.core."""
