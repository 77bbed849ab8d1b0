"""``make image``'s last steps without emulation: a small SD-card image assembled from stub boot
and root directories (no loop device, no root needed), its partition table, and the check of what
a Raspberry Pi 4 needs on its boot partition, which must refuse an image that lacks any of it."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
MAKE_IMAGE = ROOT / "systemd" / "make-image.py"
TOOLS = ("sfdisk", "mkfs.vfat", "mcopy", "mdir", "mke2fs", "debugfs")
KERNEL = "vmlinuz-6.1.0-99-arm64"
INITRD = "initrd.img-6.1.0-99-arm64"

pytestmark = pytest.mark.skipif(
    any(shutil.which(t) is None for t in TOOLS),
    reason="needs fdisk, dosfstools, mtools and e2fsprogs (make system-packages)",
)


def stub_tree(base: Path) -> tuple[Path, Path]:
    """What Debian's raspi-firmware kernel hook leaves in /boot/firmware, with stand-in contents,
    and a root with the fstab make-image.py writes."""
    boot, root = base / "boot", base / "root"
    (boot / "overlays").mkdir(parents=True)
    for name in ("start4.elf", "fixup4.dat", "bcm2711-rpi-4-b.dtb", "overlays/vc4-kms-v3d.dtbo", INITRD):
        (boot / name).write_bytes(b"stand-in " + name.encode())
    # an arm64 Linux Image's header: its magic "ARM\x64" at byte 56
    (boot / KERNEL).write_bytes(b"MZ" + bytes(54) + b"ARM\x64" + bytes(200))
    (boot / "config.txt").write_text(
        f"arm_64bit=1\nenable_uart=1\n[pi4]\nkernel={KERNEL}\ninitramfs {INITRD} followkernel\n"
    )
    (boot / "cmdline.txt").write_text("console=tty0 root=LABEL=RASPIROOT rw fsck.repair=yes rootwait\n")
    (root / "etc").mkdir(parents=True)
    (root / "boot/firmware").mkdir(parents=True)
    (root / "etc/fstab").write_text(
        "LABEL=RASPIROOT\t/\text4\trw,noatime\t0\t1\nLABEL=RASPIFIRM\t/boot/firmware\tvfat\trw\t0\t2\n"
    )
    (root / "opt/labyrinth-kiosk").mkdir(parents=True)
    (root / "opt/labyrinth-kiosk/marker").write_text("the kiosk's files\n")
    return boot, root


def make_image(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, str(MAKE_IMAGE), *args], capture_output=True, text=True, timeout=120)


def assemble(tmp_path: Path, boot: Path, root: Path) -> Path:
    image = tmp_path / "out" / "kiosk.img"
    done = make_image("assemble", "--boot", str(boot), "--root", str(root), "--out", str(image), "--spare-mib", "4")
    assert done.returncode == 0, done.stderr
    return image


def test_the_partition_table_and_the_files_of_both_partitions(tmp_path: Path) -> None:
    boot, root = stub_tree(tmp_path)
    image = assemble(tmp_path, boot, root)
    table = json.loads(subprocess.run(["sfdisk", "--json", str(image)], capture_output=True, text=True).stdout)
    first, second = table["partitiontable"]["partitions"]
    assert table["partitiontable"]["label"] == "dos"
    assert (first["start"], first["size"], first["type"], first.get("bootable")) == (8192, 256 * 2048, "c", True)
    assert (second["start"], second["type"]) == (8192 + 256 * 2048, "83")
    assert image.stat().st_size == (second["start"] + second["size"]) * 512
    listing = subprocess.run(
        ["mdir", "-i", f"{image}@@{4 * 1024 * 1024}", "-/", "-b", "::/"], capture_output=True, text=True
    ).stdout.split()
    assert {"::/start4.elf", f"::/{KERNEL}", "::/config.txt", "::/overlays/vc4-kms-v3d.dtbo"} <= set(listing)
    # the root partition, read back from the image with debugfs: the directory's files went in
    part = tmp_path / "root.ext4"
    subprocess.run(
        ["dd", f"if={image}", f"of={part}", "bs=512", f"skip={second['start']}", f"count={second['size']}"],
        check=True,
        capture_output=True,
    )
    marker = subprocess.run(["debugfs", "-R", "cat /opt/labyrinth-kiosk/marker", str(part)], capture_output=True)
    assert marker.stdout == b"the kiosk's files\n"
    assert subprocess.run(["e2label", str(part)], capture_output=True, text=True).stdout.strip() == "RASPIROOT"

    done = make_image("inspect", str(image))
    assert done.returncode == 0, done.stdout + done.stderr
    assert "ok:" in done.stdout


@pytest.mark.parametrize(
    ("spoil", "said"),
    [
        (lambda boot, root: (boot / "start4.elf").unlink(), "no start4.elf"),
        (lambda boot, root: (boot / "bcm2711-rpi-4-b.dtb").unlink(), "no bcm2711-rpi-4-b.dtb"),
        (lambda boot, root: (boot / KERNEL).unlink(), f"names the kernel {KERNEL}, which is not"),
        (lambda boot, root: (boot / KERNEL).write_bytes(bytes(300)), "is not an arm64 Linux kernel"),
        (lambda boot, root: (boot / INITRD).unlink(), f"names the initramfs {INITRD}"),
        (
            lambda boot, root: (boot / "config.txt").write_text(f"kernel={KERNEL}\ninitramfs {INITRD}\n"),
            "arm_64bit=1",
        ),
        (
            lambda boot, root: (boot / "cmdline.txt").write_text("root=/dev/mmcblk0p2 rw rootwait\n"),
            "does not name the root file system",
        ),
        (lambda boot, root: (boot / "cmdline.txt").write_text("root=LABEL=RASPIROOT rw\n"), "lacks rootwait"),
        (
            lambda boot, root: (boot / "cmdline.txt").write_text("root=LABEL=RASPIROOT cma=64M rootwait\n"),
            "sets cma=",
        ),
        (lambda boot, root: (root / "etc/fstab").write_text("/dev/mmcblk0p2 / ext4 rw 0 1\n"), "/etc/fstab"),
        (
            lambda boot, root: (root / "etc/resolv.conf").write_text("nameserver 10.0.0.53\n"),
            "name server 10.0.0.53",
        ),
    ],
)
def test_an_image_a_pi_4_could_not_boot_is_refused(tmp_path: Path, spoil, said: str) -> None:
    boot, root = stub_tree(tmp_path)
    spoil(boot, root)
    done = make_image("inspect", str(assemble(tmp_path, boot, root)))
    assert done.returncode == 1
    assert said in done.stdout, done.stdout


def test_bad_input_is_one_line(tmp_path: Path) -> None:
    done = make_image("assemble", "--boot", str(tmp_path / "none"), "--root", str(tmp_path), "--out", "x.img")
    assert done.returncode == 1
    assert done.stderr.strip().splitlines() == [f"make-image: error: {tmp_path / 'none'} is not a directory"]
    empty = tmp_path / "empty"
    empty.mkdir()
    done = make_image("assemble", "--boot", str(empty), "--root", str(tmp_path), "--out", str(tmp_path / "x.img"))
    assert done.returncode == 1 and "is empty" in done.stderr
    assert not (tmp_path / "x.img").exists()
