"""The operator's presets Home and Public, switched on the operator menu's "Sound & display" page.

A tap switches the idle and continue times at once (the idle watch counts with them) and the
choice is kept across a restart, winning over the config file's preset.
"""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from kiosk.core import testing
from kiosk.core.config import PRESETS, Config, KioskConfig, switch_preset
from kiosk.store.operator_choices import STATE_NAME
from kiosk.ui.shell.window import UI

from tests.kiosk.ui.screens.test_screens import Now, tap_widget, window_of

pytestmark = pytest.mark.display


def _preset_button(u):
    (b,) = [w for w in u.screen.widgets if getattr(w, "text", "").startswith("Place:")]
    return b


def _says(u, text):
    return any(getattr(s, "text", "") == text for s in u.screen._shapes)


def test_switch_preset_sets_both_times_and_refuses_an_unknown_name():
    home = switch_preset(Config(), "home")
    assert home.kiosk.preset == "home"
    assert (home.kiosk.idle_timeout_s, home.kiosk.continue_s) == (600, 7200)
    # the operator's pick wins over times the file wrote
    written = Config(kiosk=KioskConfig(idle_timeout_s=30, continue_s=0))
    assert switch_preset(written, "public").kiosk.idle_timeout_s == PRESETS["public"]["idle_timeout_s"]
    with pytest.raises(ValueError, match="use one of public, home"):
        switch_preset(Config(), "museum")


def test_the_operator_switches_home_and_public_and_it_outlasts_a_restart(tmp_path):
    made = []

    def start_kiosk(config=None):
        kiosk = testing.MiniKiosk(config=config or Config())
        kiosk.history = SimpleNamespace(path=tmp_path / "history.jsonl")
        u = UI(kiosk, window_of((800, 480)), layout="upright", first="attract", clock=Now())
        made.append(u)
        return u

    try:
        u = start_kiosk()
        assert (u.idle.timeout, u.idle.keep) == (90, 120)
        u.goto("operator")
        u.screen.open_page("settings")
        assert _preset_button(u).text == "Place: public"
        assert _says(u, "A game left alone ends after 90 s, then can be continued for 2 min")
        tap_widget(u, _preset_button(u))
        assert u.kiosk.config.kiosk.preset == "home"
        assert (u.idle.timeout, u.idle.keep) == (600, 7200)  # at once, not after a restart
        assert _preset_button(u).text == "Place: home"
        assert _says(u, "A game left alone ends after 10 min, then can be continued for 2 h")

        again = start_kiosk(Config(kiosk=KioskConfig(preset="public", idle_timeout_s=45)))
        assert (again.idle.timeout, again.idle.keep) == (600, 7200)  # the operator's choice holds
        assert '"preset": "home"' in (tmp_path / STATE_NAME).read_text()
        again.goto("operator")
        again.screen.open_page("settings")
        tap_widget(again, _preset_button(again))
        assert (again.idle.timeout, again.idle.keep) == (90, 120)

        (tmp_path / STATE_NAME).write_text('{"preset": "museum"}')  # an old or edited file: the config holds
        third = start_kiosk(Config(kiosk=KioskConfig(idle_timeout_s=45)))
        assert third.idle.timeout == 45
    finally:
        for x in made:
            x.close()
