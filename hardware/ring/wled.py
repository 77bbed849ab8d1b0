"""WLED over USB serial: its JSON API, one state object per line.

WLED (an open-source firmware for ESP32/ESP8266 LED controllers) accepts the
same JSON state objects over serial as over HTTP (default 115200 baud). Still
pictures are sent once as segments with the Solid effect; the flash, the
celebration and the idle animation use WLED's own effects, so nothing is
streamed. The kiosk takes over segments 0-3 of the strip.
"""

from __future__ import annotations

import json

from hardware.errors import HardwareContractError
from hardware.ring.driver import SerialRingDriver
from hardware.ring.picture import BLACK, CELEBRATE, FLASH, IDLE, OFF, RGB, SEGMENT, RingPicture

# WLED effect numbers (stable since WLED 0.8; see WLED's FX.h).
FX_SOLID = 0
FX_BLINK = 1
FX_RAINBOW = 9  # "Rainbow": the rainbow runs along the strip
FX_THEATER = 13  # "Theater": a running chase

#: Segment ids the driver manages; the rest of WLED's configuration is left alone.
MANAGED_SEGMENTS = 4


def _ranges(picture: RingPicture, n: int) -> list[tuple[int, int, RGB]]:
    """Cut the ring into ``(start, stop, colour)`` runs that WLED segments can show."""
    start, count, colour = picture.start % n, min(picture.count, n), picture.colour
    if count <= 0:
        runs = [(0, n, BLACK)]
    elif count >= n:
        runs = [(0, n, colour)]
    elif start + count <= n:
        runs = [(0, start, BLACK), (start, start + count, colour), (start + count, n, BLACK)]
    else:
        wrap = start + count - n
        runs = [(0, wrap, colour), (wrap, start, BLACK), (start, n, colour)]
    return [r for r in runs if r[1] > r[0]]


def _segment(seg_id: int, start: int, stop: int, fx: int, colour: RGB, **extra: int) -> dict[str, object]:
    seg: dict[str, object] = {
        "id": seg_id,
        "start": start,
        "stop": stop,
        "on": True,
        "frz": False,
        "fx": fx,
        "col": [list(colour), [0, 0, 0], [0, 0, 0]],
        "grp": 1,  # no pattern unless asked: a segment keeps what an earlier picture set
        "spc": 0,
    }
    seg.update(extra)
    return seg


def wled_state(picture: RingPicture, led_count: int) -> dict[str, object]:
    """The WLED JSON state object that shows ``picture`` on ``led_count`` LEDs."""
    if picture.kind == OFF or picture.brightness <= 0:
        return {"on": False, "transition": 0}
    # WLED's grouping and spacing: `lit` LEDs alike, then `dark` LEDs off, repeated along a segment
    pattern = {} if picture.pattern is None else {"grp": picture.pattern[0], "spc": picture.pattern[1]}
    if picture.kind == SEGMENT:
        segs = [
            _segment(i, a, b, FX_SOLID, colour, **(pattern if colour != BLACK else {}))
            for i, (a, b, colour) in enumerate(_ranges(picture, led_count))
        ]
    elif picture.kind == FLASH:
        segs = [_segment(0, 0, led_count, FX_BLINK, picture.colour, sx=240, ix=128)]
    elif picture.kind == CELEBRATE:
        segs = [_segment(0, 0, led_count, FX_THEATER, picture.colour, sx=200, ix=128, **pattern)]
    elif picture.kind == IDLE:
        segs = [_segment(0, 0, led_count, FX_RAINBOW, (255, 160, 0), sx=24, ix=128)]
    else:  # pragma: no cover - RingPicture kinds are closed
        raise HardwareContractError(f"unknown picture kind {picture.kind!r}")
    # stop 0 deletes a segment: clear what an earlier picture may have left.
    segs += [{"id": i, "stop": 0} for i in range(len(segs), MANAGED_SEGMENTS)]
    return {"on": True, "bri": picture.brightness, "transition": 0, "seg": segs}


class WledDriver(SerialRingDriver):
    """A WLED controller on a serial port (JSON API, not streaming)."""

    name = "wled"

    def show(self, picture: RingPicture, now: float) -> float | None:
        if self.due(picture, now):
            text = json.dumps(wled_state(picture, self.led_count), separators=(",", ":"))
            self.write(text.encode("ascii") + b"\n")
            self.mark_sent(picture, now)
        return self.until_keepalive(now)
