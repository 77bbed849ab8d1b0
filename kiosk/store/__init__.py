"""kiosk.store."""
