"""The LED-ring drivers are found by name in the entry-point group ``labyrinth_kiosk.ring_drivers``
(hardware/ring/drivers.py), the kiosk's own as well as one installed by a package of its own."""

from __future__ import annotations

import sys
import textwrap

import pytest

from hardware.errors import HardwareSettingError
from hardware.ring import drivers, make_ring
from hardware.ring.adalight import AdalightDriver
from hardware.ring.virtual import VirtualRing
from kiosk.core import config as cfg


def test_the_kiosks_own_drivers_are_entry_points_found_by_name():
    assert drivers.names() == ("none", "adalight", "line", "virtual", "wled")
    assert drivers.driver_class("virtual") is VirtualRing
    assert drivers.driver_class("adalight") is AdalightDriver
    assert drivers.needs_port("wled") and not drivers.needs_port("virtual") and not drivers.needs_port("none")
    ring = make_ring("virtual", led_count=8)
    try:
        assert isinstance(ring.driver, VirtualRing)
    finally:
        ring.close()


def test_an_unknown_driver_is_one_line_naming_the_known_ones():
    with pytest.raises(HardwareSettingError) as e:
        make_ring("neon")
    assert str(e.value) == "unknown ring driver 'neon': use one of none, adalight, line, virtual, wled"
    with pytest.raises(HardwareSettingError, match="needs a serial port"):
        make_ring("wled", None)


@pytest.fixture
def installed(tmp_path, monkeypatch):
    """A package of its own on sys.path announcing a driver `neon` (as `pip install` would)."""
    (tmp_path / "neon_ring.py").write_text(
        textwrap.dedent(
            """
            from hardware.ring.virtual import VirtualRing

            class NeonDriver(VirtualRing):
                name = "neon"

            class NotADriver:
                pass
            """
        )
    )
    info = tmp_path / "neon_ring-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: neon-ring\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text(
        "[labyrinth_kiosk.ring_drivers]\nneon = neon_ring:NeonDriver\nbroken = neon_ring:NotADriver\n"
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    drivers.forget()
    yield
    sys.modules.pop("neon_ring", None)
    monkeypatch.undo()
    drivers.forget()


def test_a_driver_of_its_own_registers_through_the_group(installed, tmp_path):
    assert drivers.names() == ("none", "adalight", "broken", "line", "neon", "virtual", "wled")
    ring = make_ring("neon", led_count=12)
    try:
        assert type(ring.driver).__name__ == "NeonDriver" and ring.driver.led_count == 12
    finally:
        ring.close()
    with pytest.raises(
        HardwareSettingError, match=r"^ring driver 'broken' \(neon_ring:NotADriver\) is not a RingDriver"
    ):
        make_ring("broken")
    # the config accepts it as [ring] driver, and it needs no port
    path = tmp_path / "kiosk.toml"
    path.write_text('[ring]\ndriver = "neon"\n')
    assert cfg.load(path).ring.driver == "neon"


def test_without_it_the_config_names_the_drivers_there_are(tmp_path):
    path = tmp_path / "kiosk.toml"
    path.write_text('[ring]\ndriver = "neon"\n')
    with pytest.raises(cfg.ConfigError, match="none, adalight, line, virtual, wled"):
        cfg.load(path)
