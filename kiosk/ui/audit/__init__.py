"""kiosk.ui.audit."""
