"""The sample microcontroller sketch (docs/ring-sketch/) speaks the line protocol.

The sketch is compiled for the PC against a small stand-in for the Arduino core
and the NeoPixel library (tests/support/ring_sketch_host/), then fed the very lines
the kiosk's line driver sends. Skipped where no C++ compiler is installed.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from hardware.ring.line import PROTOCOL_VERSION, line_commands
from hardware.ring.picture import CELEBRATE, FLASH, IDLE, OFF, SEGMENT, RingPicture

HOST = Path(__file__).resolve().parents[2] / "support" / "ring_sketch_host"
CXX = shutil.which("g++") or shutil.which("clang++")


@pytest.fixture(scope="module")
def sketch(tmp_path_factory):
    if not CXX:
        pytest.skip("no C++ compiler to build the sketch for the PC")
    exe = tmp_path_factory.mktemp("sketch") / "ring"
    subprocess.run(
        [
            CXX,
            "-std=c++17",
            "-Wall",
            "-Werror",
            "-I",
            str(HOST),
            "-x",
            "c++",
            str(HOST / "harness.cpp"),
            "-o",
            str(exe),
        ],
        check=True,
        cwd=HOST,
    )

    def run(*steps: str) -> list[dict]:
        """Run a script; one dict (said, brightness, leds) per '?' step.

        The first report is the state right after boot (its greeting)."""
        steps = ("?",) + steps
        out = subprocess.run(
            [str(exe)], input="\n".join(steps) + "\n", text=True, capture_output=True, check=True, timeout=10
        ).stdout
        lines = out.splitlines()
        reports = []
        for said, bri, leds in zip(lines[0::3], lines[1::3], lines[2::3]):
            reports.append(
                {
                    "said": [s.strip() for s in said[5:].split("|") if s.strip()],
                    "brightness": int(bri.split()[1]),
                    "leds": [int(v, 16) for v in leds.split()[1:]],
                }
            )
        return reports

    return run


def send(picture: RingPicture) -> list[str]:
    return [f"> {line}" for line in line_commands(picture)]


def rgb(r, g, b):
    return (r << 16) | (g << 8) | b


def test_greets_on_boot_and_on_hello(sketch):
    boot, hello = sketch("> HELLO", "+ 5", "?")
    assert boot["said"] == [f"RING {PROTOCOL_VERSION} 24"]
    assert hello["said"] == [f"RING {PROTOCOL_VERSION} 24"]
    assert boot["leds"] == [0] * 24


def test_segment_wrapping_and_brightness(sketch):
    _, report = sketch(*send(RingPicture(SEGMENT, (255, 10, 0), 22, 4, brightness=90)), "+ 30", "?")
    assert report["brightness"] == 90 and report["said"] == []
    lit = {i for i, c in enumerate(report["leds"]) if c}
    assert lit == {22, 23, 0, 1}
    assert report["leds"][0] == rgb(255, 10, 0)


def test_flash_blinks_then_returns_to_the_segment(sketch):
    seg = RingPicture(SEGMENT, (0, 0, 255), 6, 6)
    _, on, off, after = sketch(
        *send(seg), "+ 30", *send(RingPicture(FLASH, (255, 0, 0), seconds=0.4)), "+ 30", "?", "+ 100", "?", "+ 400", "?"
    )
    assert on["leds"] == [rgb(255, 0, 0)] * 24
    assert off["leds"] == [0] * 24
    assert [i for i, c in enumerate(after["leds"]) if c] == list(range(6, 12))


def test_celebrate_and_idle_animate_and_off_clears(sketch):
    _, c1, c2, i1, i2, dark = sketch(
        *send(RingPicture(CELEBRATE, (0, 200, 0))),
        "+ 30",
        "?",
        "+ 100",
        "?",
        *send(RingPicture(IDLE)),
        "+ 30",
        "?",
        "+ 1000",
        "?",
        *send(RingPicture(OFF)),
        "+ 30",
        "?",
    )
    assert c1["leds"] != c2["leds"]
    assert sum(1 for c in c1["leds"] if c == rgb(0, 200, 0)) == 8
    assert i1["leds"] != i2["leds"] and all(i1["leds"])
    assert dark["leds"] == [0] * 24


def test_refuses_bad_lines_and_keeps_the_picture(sketch):
    good = RingPicture(SEGMENT, (1, 2, 3), 0, 3)
    _, report = sketch(
        *send(good), "> DANCE", "> SEG 99 1 1 1 1", "> SEG 1 2 3", "> BRI 300", "> " + "X" * 80, "+ 30", "?"
    )
    assert len(report["said"]) == 5 and all(s.startswith("ERR") for s in report["said"])
    assert report["leds"][:4] == [rgb(1, 2, 3)] * 3 + [0]


def test_version_2_shows_the_seats_pattern_and_still_takes_version_1_lines(sketch):
    dashes = RingPicture(SEGMENT, (0, 0, 255), 22, 6, pattern=(2, 1))
    won = RingPicture(CELEBRATE, (0, 200, 0), pattern=(3, 1))
    _, seg, plain, chase, refused = sketch(
        *send(dashes),
        "+ 30",
        "?",
        "> SEG 22 6 0 0 255",  # a version 1 line: solid
        "+ 30",
        "?",
        *send(won),
        "+ 30",
        "?",
        "> SEG 0 6 1 1 1 0 2",  # no LED lit: refused, the picture stays
        "> SEG 0 6 1 1 1 5 4",  # a repeat longer than 8
        "> SEG 0 6 1 1 1 1",  # half a pattern
        "+ 30",
        "?",
    )
    assert {i for i, c in enumerate(seg["leds"]) if c} == {22, 23, 1, 2}
    assert {i for i, c in enumerate(plain["leds"]) if c} == {22, 23, 0, 1, 2, 3}
    assert sum(1 for c in chase["leds"] if c == rgb(0, 200, 0)) == 18
    assert len(refused["said"]) == 3 and all(s.startswith("ERR") for s in refused["said"])
    assert sum(1 for c in refused["leds"] if c) == 18
