"""tests.systemd."""
