"""Each ring driver over a real serial link: pyserial's loop:// and a
pseudo-terminal with a fake device on the far end (unplug and replug too).

The fake devices decode the bytes with their own small parsers, written from
the protocol descriptions, not with the drivers' encoders.
"""

from __future__ import annotations

import json
import logging
import os
import select
import threading
import time
import tty
from pathlib import Path

import pytest

from hardware.ring import Ring
from hardware.ring.adalight import AdalightDriver
from hardware.ring.line import LineDriver
from hardware.ring.wled import WledDriver

from tests.support.waiting import wait_for

LEDS = 24
BLACK, BLUE, GREEN, RED = (0, 0, 0), (0, 0, 255), (0, 200, 0), (255, 0, 0)


def seat_leds(ring, seat, colour):
    leds = [BLACK] * LEDS
    for i in ring.layout.leds_of(seat):
        leds[i] = colour
    return leds


# --- the far end: what a device would make of the bytes -------------------


class LineModel:
    """A device speaking docs/ring-protocol.md."""

    def __init__(self, leds=LEDS):
        self.n = leds
        self.leds = [BLACK] * leds
        self.brightness = 255
        self.mode = "off"
        self.commands: list[str] = []
        self._buf = b""

    def feed(self, data: bytes) -> bytes:
        self._buf += data
        replies = b""
        while b"\n" in self._buf:
            line, self._buf = self._buf.split(b"\n", 1)
            replies += self.command(line.decode("ascii").strip())
        return replies

    def command(self, line: str) -> bytes:
        self.commands.append(line)
        word, *args = line.split()
        nums = [int(a) for a in args] if all(a.isdigit() for a in args) else None
        if word == "HELLO":
            return f"RING 1 {self.n}\n".encode()
        if word == "OFF":
            self.leds, self.mode = [BLACK] * self.n, "off"
        elif word == "BRI" and nums and len(nums) == 1:
            self.brightness = nums[0]
        elif word == "SEG" and nums and len(nums) == 5:
            start, count, *rgb = nums
            self.leds = [BLACK] * self.n
            for i in range(count):
                self.leds[(start + i) % self.n] = tuple(rgb)
            self.mode = "seg"
        elif word in ("FLASH", "CELEBRATE") and nums and len(nums) in (3, 4):
            self.mode = word.lower()
        elif word == "IDLE" and not args:
            self.mode = "idle"
        else:
            return f"ERR bad line: {line}\n".encode()
        return b""


class AdalightModel:
    """An Adalight receiver: finds frames by their header and checks the checksum."""

    def __init__(self, leds=LEDS):
        self.leds = [BLACK] * leds
        self.frames: list[list[tuple]] = []
        self.bad = 0
        self._buf = b""

    def feed(self, data: bytes) -> bytes:
        self._buf += data
        while True:
            at = self._buf.find(b"Ada")
            if at < 0 or len(self._buf) < at + 6:
                self._buf = self._buf[max(at, 0) :] if at >= 0 else self._buf[-2:]
                return b""
            hi, lo, check = self._buf[at + 3 : at + 6]
            if hi ^ lo ^ 0x55 != check:
                self.bad += 1
                self._buf = self._buf[at + 3 :]
                continue
            size = (hi * 256 + lo + 1) * 3
            if len(self._buf) < at + 6 + size:
                self._buf = self._buf[at:]
                return b""
            body = self._buf[at + 6 : at + 6 + size]
            self._buf = self._buf[at + 6 + size :]
            frame = [tuple(body[i : i + 3]) for i in range(0, size, 3)]
            self.frames.append(frame)
            self.leds = frame


class WledModel:
    """WLED's JSON state handling, as far as the ring uses it."""

    def __init__(self, leds=LEDS):
        self.n = leds
        self.on, self.bri = True, 128
        self.segments: dict[int, dict] = {0: {"start": 0, "stop": leds, "fx": 0, "col": [[255, 160, 0]]}}
        self.states: list[dict] = []
        self._buf = b""

    def feed(self, data: bytes) -> bytes:
        self._buf += data
        while b"\n" in self._buf:
            line, self._buf = self._buf.split(b"\n", 1)
            state = json.loads(line)
            self.states.append(state)
            self.on = state.get("on", self.on)
            self.bri = state.get("bri", self.bri)
            for seg in state.get("seg", []):
                sid = seg["id"]
                if seg.get("stop", 1) <= seg.get("start", 0):
                    self.segments.pop(sid, None)
                    continue
                self.segments.setdefault(sid, {}).update(seg)
        return b""

    @property
    def leds(self):
        leds = [BLACK] * self.n
        if not self.on:
            return leds
        for seg in self.segments.values():
            for i in range(seg["start"], seg["stop"]):
                leds[i] = tuple(seg["col"][0][:3]) if seg["fx"] == 0 else ("fx", seg["fx"])
        return leds


def decode(model_cls, data: bytes):
    """What a fresh device would show after receiving ``data``."""
    model = model_cls()
    model.feed(data)
    return model


DRIVERS = {
    "wled": (WledDriver, WledModel),
    "adalight": (AdalightDriver, AdalightModel),
    "line": (LineDriver, LineModel),
}


class FakeDevice:
    """A pseudo-terminal whose far end parses what the kiosk sends.

    ``link`` is a symlink standing in for /dev/serial/by-id/...; unplugging
    closes the pty and removes the link, as the kernel does with a USB device.
    """

    def __init__(self, link: Path, model) -> None:
        self.model = model
        self.link = link
        self.master, self._slave = os.openpty()
        tty.setraw(self._slave)  # no echo, no line editing
        if link.is_symlink():
            link.unlink()
        link.symlink_to(os.ttyname(self._slave))
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._serve, daemon=True)
        self._thread.start()

    def _serve(self) -> None:
        while not self._stop.is_set():
            ready, _, _ = select.select([self.master], [], [], 0.02)
            if not ready:
                continue
            try:
                data = os.read(self.master, 4096)
            except OSError:
                continue  # no one has the port open right now
            with self._lock:
                reply = self.model.feed(data)
            if reply:
                os.write(self.master, reply)

    def send(self, data: bytes) -> None:
        os.write(self.master, data)

    def read(self, attribute):
        with self._lock:
            return getattr(self.model, attribute)

    def unplug(self) -> None:
        self._stop.set()
        self._thread.join()
        os.close(self.master)
        os.close(self._slave)
        self.link.unlink()


@pytest.fixture
def devices():
    made = []

    def make(link, model):
        d = FakeDevice(link, model)
        made.append(d)
        return d

    yield make
    for d in made:
        if not d._stop.is_set():
            d.unplug()


def make_ring_for(kind, port):
    driver_cls, _ = DRIVERS[kind]
    return Ring(driver_cls(str(port), LEDS), brightness=255)


# --- loop:// ---------------------------------------------------------------


@pytest.mark.parametrize("kind", sorted(DRIVERS))
def test_each_driver_over_loop_url(kind):
    _, model_cls = DRIVERS[kind]
    ring = make_ring_for(kind, "loop://")
    try:
        ring.show_seat(1, BLUE)
        assert ring.sync()
        assert wait_for(lambda: decode(model_cls, ring.driver.received_bytes()).leds == seat_leds(ring, 1, BLUE))
    finally:
        ring.close()


def test_wled_effects_and_segment_cleanup_over_loop_url():
    ring = make_ring_for("wled", "loop://")
    try:
        ring.show_seat(3, GREEN)  # three segments: dark, green, dark
        assert ring.sync()
        ring.flash(seconds=0.3)
        ring.celebrate(BLUE)
        assert wait_for(
            lambda: ring.picture.kind == "celebrate" and ring.sync(0.05) and b'"fx":13' in ring.driver.received_bytes()
        )
        ring.idle()
        assert ring.sync()
        model = decode(WledModel, ring.driver.received_bytes())
        effects = [s["seg"][0]["fx"] for s in model.states if "seg" in s]
        assert effects[0] == 0 and 1 in effects and 13 in effects and effects[-1] == 9
        assert model.on and model.bri == 255
        assert set(model.segments) == {0}  # the seat's extra segments were deleted
        ring.off()
        assert ring.sync()
        assert decode(WledModel, ring.driver.received_bytes()).on is False
    finally:
        ring.close()


def test_wled_segment_that_wraps_past_led_zero():
    from hardware.ring.layout import RingLayout

    driver = WledDriver("loop://", LEDS)
    ring = Ring(driver, RingLayout(LEDS, offset=21), brightness=255)
    try:
        ring.show_seat(0, RED)
        assert ring.sync()
        assert wait_for(lambda: decode(WledModel, driver.received_bytes()).leds == seat_leds(ring, 0, RED))
        assert ring.layout.leds_of(0) == [21, 22, 23, 0, 1, 2]
    finally:
        ring.close()


def test_adalight_animates_idle_with_many_frames():
    ring = make_ring_for("adalight", "loop://")
    try:
        ring.idle()
        assert wait_for(
            lambda: len({tuple(f) for f in decode(AdalightModel, ring.driver.received_bytes()).frames}) >= 4
        )
        assert decode(AdalightModel, ring.driver.received_bytes()).bad == 0
    finally:
        ring.close()


def test_adalight_frame_rate_fits_the_link():
    assert AdalightDriver("loop://", 24, baud=115200).frame_interval == pytest.approx(1 / 30)
    slow = AdalightDriver("loop://", 300, baud=115200)
    assert slow.frame_interval * 0.8 >= (6 + 900) * 10 / 115200


# --- pseudo-terminal with a fake device -----------------------------------


@pytest.mark.parametrize("kind", sorted(DRIVERS))
def test_unplug_and_replug_restores_the_current_state(kind, tmp_path, devices, caplog):
    """The ring shows the game's current picture again after a replug, with one line each way.

    How soon is the back-off's cap (1.5 s, checked exactly in test_ring.py), not a stopwatch here.
    """
    _, model_cls = DRIVERS[kind]
    link = tmp_path / f"usb-Fake_{kind}_ring-if00-port0"
    device = devices(link, model_cls())
    ring = make_ring_for(kind, link)
    try:
        ring.show_seat(1, BLUE)
        assert wait_for(lambda: device.read("leds") == seat_leds(ring, 1, BLUE))
        # the first connection's "connected" is logged before the picture counts as applied: on a
        # loaded machine it came after the LEDs were read, inside the counting below
        assert ring.sync(timeout=30)

        with caplog.at_level(logging.INFO, logger="hardware.ring"):
            device.unplug()
            assert wait_for(lambda: not ring.connected)
            ring.show_seat(2, GREEN)  # the game goes on while the ring is away
            ring.flash()
            time.sleep(1.0)  # long enough for the back-off to grow
            replugged = devices(link, model_cls())
            assert wait_for(lambda: replugged.read("leds") == seat_leds(ring, 2, GREEN)), (
                "current state not restored after the replug"
            )

            def count(prefix):
                return sum(r.getMessage().startswith(prefix) for r in caplog.records)

            # The worker logs "connected" just after the picture is written: wait for it.
            assert wait_for(lambda: count("LED ring connected") >= 1)
        assert count("LED ring lost") == 1
        assert count("LED ring connected") == 1
    finally:
        ring.close()


@pytest.mark.parametrize("kind", sorted(DRIVERS))
def test_a_ring_absent_at_start_gets_the_state_when_it_appears(kind, tmp_path, devices):
    _, model_cls = DRIVERS[kind]
    link = tmp_path / "usb-ring"
    ring = make_ring_for(kind, link)
    try:
        ring.show_seat(3, RED)
        assert not ring.sync(timeout=0.3)
        device = devices(link, model_cls())
        assert wait_for(lambda: device.read("leds") == seat_leds(ring, 3, RED))
    finally:
        ring.close()


def test_line_handshake_greeting_and_animations(tmp_path, devices, caplog):
    link = tmp_path / "usb-line-ring"
    device = devices(link, LineModel())
    ring = make_ring_for("line", link)
    try:
        with caplog.at_level(logging.INFO, logger="hardware.ring"):
            ring.show_seat(0, GREEN)
            assert wait_for(lambda: ring.driver.device_info == (1, LEDS))
        assert "speaks protocol 1 with 24 LEDs" in caplog.text
        assert device.read("commands")[0] == "HELLO"

        ring.flash(seconds=0.3)
        # the device's flash mode lasts 0.3 s: read what it was sent, not the passing mode
        assert wait_for(lambda: any(c == "FLASH 255 0 0 300" for c in device.read("commands")))
        assert wait_for(lambda: device.read("mode") == "seg")  # back after the flash
        ring.celebrate(BLUE)
        assert wait_for(lambda: device.read("commands")[-1] == "CELEBRATE 0 0 255")
        ring.idle()
        assert wait_for(lambda: device.read("mode") == "idle")
        assert not any(c.startswith("ERR") for c in device.read("commands"))
    finally:
        ring.close()


def test_line_device_that_reboots_gets_the_picture_again(tmp_path, devices, caplog):
    link = tmp_path / "usb-line-ring"
    device = devices(link, LineModel())
    ring = make_ring_for("line", link)
    try:
        ring.show_seat(2, BLUE)
        assert wait_for(lambda: device.read("leds") == seat_leds(ring, 2, BLUE))
        with device._lock:
            device.model.leds = [BLACK] * LEDS  # it lost power and restarted...
        device.send(b"RING 1 24\n")  # ...and says so
        assert wait_for(lambda: device.read("leds") == seat_leds(ring, 2, BLUE))
        with caplog.at_level(logging.WARNING, logger="hardware.ring"):
            device.send(b"ERR unknown command: DANCE\n")
            assert wait_for(lambda: "refused a command: unknown command: DANCE" in caplog.text)
    finally:
        ring.close()
