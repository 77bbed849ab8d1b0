"""tests.kiosk.ui.art."""
