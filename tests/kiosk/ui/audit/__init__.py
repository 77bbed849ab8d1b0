"""tests.kiosk.ui.audit."""
