"""kiosk.tools."""
