"""kiosk.tools.sim."""
