#!/usr/bin/env python3
"""``make image``: a Raspberry Pi 4 SD-card image of the kiosk, from Debian packages only.

    make-image.py build BUNDLE.tar.gz [--out IMAGE] [--no-boot-check]
    make-image.py assemble --boot DIR --root DIR --out IMAGE   (the host-only last step)
    make-image.py inspect IMAGE                                (what a Pi 4 needs, checked)

``build`` (root, with binfmt_misc and qemu-user as for ``make arm64-check``):

1. the arm64 Bookworm root of ``make arm64-check`` (systemd/arm64-root.sh, cached, never changed:
   the image is made on an overlay of it), plus Debian's ``linux-image-arm64`` and
   ``raspi-firmware`` (non-free-firmware), whose kernel hook fills /boot/firmware: the Pi's
   firmware, the kernel, its initramfs, the device trees, config.txt and cmdline.txt;
2. the kiosk installed from the offline bundle by ``install.sh --bundle`` with no network, as
   on a Pi; fstab by the partitions' labels, a host name;
3. the root booted under ``systemd-nspawn --boot`` (on a throw-away overlay): the kiosk's unit
   must reach active (running) under cage on wlroots' headless backend, and a run refused with
   exit status 2 (its state directory held by another process) must stop the unit, not restart
   it;
4. ``assemble``: no loop device and no mount: the boot partition is a FAT32 file filled with
   mtools, the root an ext4 file made by ``mke2fs -d`` from the directory, the partition table
   written by ``sfdisk`` on the image file, each partition put in place by ``dd conv=notrunc``;
5. ``inspect``: the partition table, and the boot partition's files read back with mtools.

What cannot be checked here: that a Pi 4 boots it (its GPU firmware, the SD card controller,
the display, touch, GPIO, sound); docs/install.md says what was and was not verified.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from types import ModuleType

SRC = Path(__file__).resolve().parent.parent
SECTOR = 512
MIB = 1024 * 1024
BOOT_START_MIB = 4  # the first partition's start: 4 MiB, aligned for SD cards' erase blocks
BOOT_SIZE_MIB = 256
ROOT_SPARE_MIB = 512  # free space on the root beyond its files (state, logs, one more release)
# the labels Debian's own Raspberry Pi images use; fstab and cmdline.txt name the partitions by them
BOOT_LABEL = "RASPIFIRM"
ROOT_LABEL = "RASPIROOT"
HOSTNAME = "labyrinth-kiosk"
IMAGE_PACKAGES = ("linux-image-arm64", "raspi-firmware")
# /etc/default/raspi-firmware, read by Debian's kernel hook that writes cmdline.txt and config.txt at
# every kernel update: the root by label (a Pi 4's SD card is mmcblk0 or mmcblk1 depending on the
# kernel); the screen's console only, as the UART on GPIO 14/15 may carry the LED ring; no cma=,
# which the hook leaves out on a Pi 4 only when it runs on one (with it a Pi 4 does not boot)
FIRMWARE_SETTINGS = {"ROOTPART": f"LABEL={ROOT_LABEL}", "CONSOLES": '"tty0"', "CMA": "0"}
# what the Pi 4's boot ROM and firmware read from the FAT partition (its EEPROM holds the first
# stage, so no bootcode.bin): the GPU firmware and its memory split, the board's device tree
PI4_FIRMWARE = ("start4.elf", "fixup4.dat", "bcm2711-rpi-4-b.dtb")
HOST_TOOLS = {
    "sfdisk": "fdisk",
    "mkfs.vfat": "dosfstools",
    "mcopy": "mtools",
    "mke2fs": "e2fsprogs",
    "systemd-nspawn": "systemd-container",
}


def say(text: str) -> None:
    print(f"make-image: {text}", flush=True)


def fail(text: str) -> None:
    print(f"make-image: error: {text}", file=sys.stderr, flush=True)
    sys.exit(1)


def run(*argv: str, **kw: object) -> subprocess.CompletedProcess[str]:
    """argv, failing the build with its own message when it fails."""
    done = subprocess.run(argv, capture_output=True, text=True, **kw)  # type: ignore[call-overload]
    if done.returncode != 0:
        fail(f"{' '.join(argv[:3])} failed ({done.returncode}): {(done.stderr or done.stdout).strip()[-2000:]}")
    return done  # type: ignore[no-any-return]


# ------------------------------------------------------------------ assemble: no loop device
def assemble(boot: Path, root: Path, out: Path, spare_mib: int = ROOT_SPARE_MIB) -> None:
    """The image file from a boot directory and a root directory, as an unprivileged user could."""
    for tool in ("sfdisk", "mkfs.vfat", "mcopy", "mke2fs"):
        if shutil.which(tool) is None:
            fail(f"{tool} not found: install {HOST_TOOLS[tool]}")
    used = int(run("du", "-s", "--block-size=1M", "--apparent-size", str(root)).stdout.split()[0])
    # ext4's own metadata (inode tables, journal) and many small files' last blocks: a third more
    root_mib = used + used // 3 + spare_mib
    boot_start = BOOT_START_MIB * MIB // SECTOR
    boot_sectors = BOOT_SIZE_MIB * MIB // SECTOR
    root_start = boot_start + boot_sectors
    root_sectors = root_mib * MIB // SECTOR
    total_mib = BOOT_START_MIB + BOOT_SIZE_MIB + root_mib
    out.parent.mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp(prefix="make-image-parts-", dir=out.parent))
    tmp = out.with_name(out.name + ".tmp")
    try:
        tmp.unlink(missing_ok=True)
        with tmp.open("wb") as f:
            f.truncate(total_mib * MIB)
        table = (
            "label: dos\nunit: sectors\n\n"
            f"start={boot_start}, size={boot_sectors}, type=c, bootable\n"
            f"start={root_start}, size={root_sectors}, type=83\n"
        )
        run("sfdisk", "--quiet", "--no-reread", "--no-tell-kernel", str(tmp), input=table)

        vfat = work / "boot.vfat"
        run("mkfs.vfat", "-F", "32", "-n", BOOT_LABEL, "-C", str(vfat), str(BOOT_SIZE_MIB * 1024))
        entries = sorted(str(p) for p in boot.iterdir())
        if not entries:
            fail(f"the boot directory {boot} is empty")
        run("mcopy", "-i", str(vfat), "-s", "-p", "-m", "-Q", *entries, "::/")

        ext4 = work / "root.ext4"
        # -d: the directory's files, owners and modes copied in; no mount, no loop device
        run(
            "mke2fs", "-q", "-t", "ext4", "-L", ROOT_LABEL, "-d", str(root), "-E", "lazy_itable_init=0",
            str(ext4), f"{root_mib}M",
        )  # fmt: skip
        for part, start in ((vfat, boot_start), (ext4, root_start)):
            run(
                "dd", f"if={part}", f"of={tmp}", "bs=1M", f"seek={start * SECTOR // MIB}",
                "conv=notrunc,sparse", "status=none",
            )  # fmt: skip
        tmp.rename(out)
    finally:
        tmp.unlink(missing_ok=True)  # only there when a step failed
        shutil.rmtree(work, ignore_errors=True)
    say(f"{out}: {total_mib} MiB (boot {BOOT_SIZE_MIB} MiB FAT32 {BOOT_LABEL}, root {root_mib} MiB ext4 {ROOT_LABEL})")


# ------------------------------------------------------------------ inspect: what a Pi 4 needs
def _boot_files(image: Path, offset: int) -> dict[str, int]:
    """The boot partition's files (path -> size), read with mtools at its byte offset."""
    listing = run("mdir", "-i", f"{image}@@{offset}", "-/", "-b", "::/").stdout
    files: dict[str, int] = {}
    for line in listing.splitlines():
        path = line.strip()
        if not path.startswith("::/") or path.endswith("/"):
            continue
        files[path[3:]] = 0
    return files


def _read_boot_file(image: Path, offset: int, name: str) -> bytes:
    done = subprocess.run(["mtype", "-i", f"{image}@@{offset}", f"::/{name}"], capture_output=True)
    return done.stdout if done.returncode == 0 else b""


def _head_of_boot_file(image: Path, offset: int, name: str, size: int = 64) -> bytes:
    with tempfile.TemporaryDirectory() as d:
        target = Path(d) / "f"
        done = subprocess.run(
            ["mcopy", "-n", "-i", f"{image}@@{offset}", f"::/{name}", str(target)], capture_output=True
        )
        return target.read_bytes()[:size] if done.returncode == 0 and target.exists() else b""


def _ext4_label(image: Path, offset: int, size: int) -> tuple[str, str, str]:
    """The root file system's label, its /etc/fstab and /etc/resolv.conf, read from a sparse copy
    of the partition."""
    with tempfile.TemporaryDirectory(dir=image.parent) as d:
        part = Path(d) / "root.ext4"
        run(
            "dd", f"if={image}", f"of={part}", "bs=1M", f"skip={offset // MIB}", f"count={size // MIB}",
            "conv=sparse", "status=none",
        )  # fmt: skip
        label = run("e2label", str(part)).stdout.strip()
        read = ["debugfs", "-R"]
        fstab = subprocess.run([*read, "cat /etc/fstab", str(part)], capture_output=True, text=True).stdout
        resolv = subprocess.run([*read, "cat /etc/resolv.conf", str(part)], capture_output=True, text=True).stdout
        return label, fstab, resolv


def _inspect_boot(image: Path, offset: int, problems: list[str]) -> str:
    """The boot partition's label, firmware, config.txt and kernel; its cmdline.txt's root= back."""
    label = run("mlabel", "-i", f"{image}@@{offset}", "-s", "::").stdout
    if BOOT_LABEL not in label:
        problems.append(f"the boot partition's label is not {BOOT_LABEL}: {label.strip()}")
    files = {name.lower(): name for name in _boot_files(image, offset)}
    problems.extend(
        f"the boot partition has no {n}" for n in (*PI4_FIRMWARE, "config.txt", "cmdline.txt") if n not in files
    )
    config = _read_boot_file(image, offset, "config.txt").decode(errors="replace")
    settings = [line.split("#")[0].strip() for line in config.splitlines()]
    if "arm_64bit=1" not in settings:
        problems.append("config.txt does not set arm_64bit=1 (the Pi 4 would start the kernel in 32-bit mode)")
    kernel = next((s.partition("=")[2].strip() for s in settings if s.startswith("kernel=")), "")
    initramfs = next((s.split()[1] for s in settings if s.startswith("initramfs ") and len(s.split()) > 1), "")
    if not kernel or kernel.lower() not in files:
        problems.append(f"config.txt names the kernel {kernel or '(none)'}, which is not on the boot partition")
    else:
        head = _head_of_boot_file(image, offset, files[kernel.lower()])
        if head[56:60] != b"ARM\x64" and head[:2] != b"\x1f\x8b":
            problems.append(f"{kernel} is not an arm64 Linux kernel image")
    if not initramfs or initramfs.lower() not in files:
        problems.append(f"config.txt names the initramfs {initramfs or '(none)'}, which is not on the boot partition")
    cmdline = _read_boot_file(image, offset, "cmdline.txt").decode(errors="replace").split()
    if any(a.startswith("cma=") for a in cmdline):
        problems.append("cmdline.txt sets cma= (Debian's hook leaves it out on a Pi 4: it would not boot)")
    if "rootwait" not in cmdline:
        problems.append("cmdline.txt lacks rootwait (the SD card may not be ready when the kernel looks)")
    return next((a[5:] for a in cmdline if a.startswith("root=")), "")


def inspect(image: Path) -> list[str]:
    """What is wrong with the image for a Pi 4 (empty when nothing), each problem said once."""
    problems: list[str] = []
    table = json.loads(run("sfdisk", "--json", str(image)).stdout)["partitiontable"]
    parts = table.get("partitions", [])
    if table.get("label") != "dos" or len(parts) != 2:
        return [f"expected an MBR (dos) table with two partitions, found {table.get('label')} with {len(parts)}"]
    boot, root = parts
    if boot.get("type") not in ("c", "b") or not boot.get("bootable"):
        problems.append(f"the first partition must be FAT32 (type c) and bootable, it is type {boot.get('type')}")
    if root.get("type") != "83":
        problems.append(f"the second partition must be Linux (type 83), it is type {root.get('type')}")
    if boot["start"] * SECTOR % MIB or root["start"] * SECTOR % MIB:
        problems.append("the partitions do not start on a MiB boundary")
    root_arg = _inspect_boot(image, boot["start"] * SECTOR, problems)
    fs_label, fstab, resolv = _ext4_label(image, root["start"] * SECTOR, root["size"] * SECTOR)
    if root_arg != f"LABEL={fs_label}" or fs_label != ROOT_LABEL:
        problems.append(f"cmdline.txt's root={root_arg or '(none)'} does not name the root file system {fs_label!r}")
    fields = (line.split() for line in fstab.splitlines())
    mounts = {f[1]: f[0] for f in fields if len(f) >= 2 and not f[0].startswith("#")}
    if mounts.get("/") != f"LABEL={ROOT_LABEL}" or mounts.get("/boot/firmware") != f"LABEL={BOOT_LABEL}":
        problems.append(f"/etc/fstab does not mount LABEL={ROOT_LABEL} on / and LABEL={BOOT_LABEL} on /boot/firmware")
    servers = [f[1] for f in (line.split() for line in resolv.splitlines()) if len(f) > 1 and f[0] == "nameserver"]
    if servers:
        problems.append(f"/etc/resolv.conf names the building machine's name server {', '.join(servers)}")
    return problems


def report(image: Path) -> int:
    problems = inspect(image)
    for p in problems:
        say(f"FAILED: {p}")
    if problems:
        return 1
    say(
        f"ok: {image.name}: MBR with a bootable FAT32 {BOOT_LABEL} and an ext4 {ROOT_LABEL}; the boot partition has "
        f"{', '.join(PI4_FIRMWARE)}, config.txt (arm_64bit, its kernel and initramfs present), cmdline.txt "
        f"(root=LABEL={ROOT_LABEL} rootwait); fstab mounts both by label"
    )
    return 0


# ------------------------------------------------------------------ build: the root, emulated
def _arm64_check() -> ModuleType:
    """systemd/arm64-check.py, whose emulation checks, root and install step the image shares."""
    spec = importlib.util.spec_from_file_location("arm64_check", SRC / "systemd/arm64-check.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    module.SUITE = "bookworm"  # the image's sources and kernel are bookworm's (see the top)
    return module


def _apt_sources(root: Path) -> None:
    """The root's sources (the mirror mmdebstrap used) with non-free-firmware, where Debian keeps
    the Pi's firmware, and the updates and security suites of this machine's sources."""
    lines = (root / "etc/apt/sources.list").read_text().split()
    mirror = lines[1] if len(lines) > 1 and lines[0] == "deb" else ""
    if not mirror:
        fail("the arm64 root has no 'deb MIRROR bookworm main' in /etc/apt/sources.list")
    host = ""
    for f in [Path("/etc/apt/sources.list"), *sorted(Path("/etc/apt/sources.list.d").glob("*"))]:
        if f.is_file():
            host += f.read_text(errors="replace") + "\n"
    security = next((w for w in host.split() if w.rstrip("/").endswith("/debian-security")), "")
    text = f"deb {mirror} bookworm main non-free-firmware\ndeb {mirror} bookworm-updates main non-free-firmware\n"
    if security:
        text += f"deb {security} bookworm-security main non-free-firmware\n"
    (root / "etc/apt/sources.list").write_text(text)


def _unmount_all(root: Path) -> None:
    subprocess.run(["umount", "-R", "-l", str(root)], capture_output=True)


def _configure(root: Path) -> None:
    """What the first boot needs besides the kiosk: the partitions by label and a name. No network
    is set up: the image has no way in over one (no SSH server, no account with a password)."""
    (root / "etc/fstab").write_text(
        "# the image's partitions, by the labels make-image.py gave them\n"
        f"LABEL={ROOT_LABEL}\t/\text4\trw,noatime\t0\t1\n"
        f"LABEL={BOOT_LABEL}\t/boot/firmware\tvfat\trw,noatime,umask=0022\t0\t2\n"
    )
    (root / "etc/hostname").write_text(HOSTNAME + "\n")
    (root / "etc/hosts").write_text(f"127.0.0.1\tlocalhost\n127.0.1.1\t{HOSTNAME}\n::1\tlocalhost ip6-localhost\n")
    # every Pi gets its own machine id at its first boot
    (root / "etc/machine-id").write_text("")
    (root / "var/lib/dbus/machine-id").unlink(missing_ok=True)


def _kernel_and_firmware(a64: ModuleType, root: Path) -> None:
    t0 = time.monotonic()
    _apt_sources(root)
    # this machine's name server while apt runs; none is left in the image (the root's own
    # resolv.conf is the one mmdebstrap copied from the building machine): an offline kiosk
    resolv = root / "etc/resolv.conf"
    resolv.unlink(missing_ok=True)
    shutil.copy2("/etc/resolv.conf", resolv)
    defaults = root / "etc/default"
    defaults.mkdir(parents=True, exist_ok=True)
    # INITRD=No: the kernel's hook makes no initramfs during the install, where initramfs-tools'
    # trigger would make it a second time; it is made once, below (half an hour under qemu-user)
    env = {"DEBIAN_FRONTEND": "noninteractive", "INITRD": "No"}
    apt = ["apt-get", "-q", "-y", "-o", "Dpkg::Options::=--force-confdef", "-o", "Dpkg::Options::=--force-confold"]
    for argv in (["apt-get", "-q", "update"], [*apt, "install", "--no-install-recommends", *IMAGE_PACKAGES]):
        done = subprocess.run(a64.in_root(root, *argv, env=env), capture_output=True, text=True)
        if done.returncode != 0:
            fail(f"{' '.join(argv)} in the arm64 root failed: {(done.stdout + done.stderr).strip()[-3000:]}")
    kernels = sorted(p.name.removeprefix("vmlinuz-") for p in (root / "boot").glob("vmlinuz-*"))
    if len(kernels) != 1:
        fail(f"expected one kernel in the image's /boot, found {kernels or 'none'}")
    say(f"kernel {kernels[0]} installed ({time.monotonic() - t0:.0f} s); making its initramfs")
    done = subprocess.run(a64.in_root(root, "update-initramfs", "-c", "-k", kernels[0]), capture_output=True, text=True)
    if done.returncode != 0:
        fail(f"update-initramfs failed: {(done.stdout + done.stderr).strip()[-2000:]}")
    env = {"DEBIAN_FRONTEND": "noninteractive"}
    conf = defaults / "raspi-firmware"
    text = conf.read_text() if conf.exists() else ""
    lines = [line for line in text.splitlines() if not line.startswith(tuple(f"{k}=" for k in FIRMWARE_SETTINGS))]
    conf.write_text("\n".join([*lines, *(f"{k}={v}" for k, v in FIRMWARE_SETTINGS.items()), ""]))
    # kept by the hook at every rewrite of cmdline.txt (install.sh's edit of it would not be)
    (defaults / "raspi-extra-cmdline").write_text("consoleblank=0\n")
    # written again with those settings: the same hook runs at every kernel update on the Pi
    done = subprocess.run(
        a64.in_root(root, "dpkg-reconfigure", "raspi-firmware", env=env), capture_output=True, text=True
    )
    if done.returncode != 0:
        fail(f"dpkg-reconfigure raspi-firmware failed: {(done.stdout + done.stderr).strip()[-2000:]}")
    subprocess.run(a64.in_root(root, "apt-get", "clean"), capture_output=True)
    resolv.unlink()
    shutil.rmtree(root / "var/lib/apt/lists", ignore_errors=True)
    (root / "var/lib/apt/lists/partial").mkdir(parents=True)
    say(f"kernel and firmware installed ({time.monotonic() - t0:.0f} s)")


def build(bundle: Path, out: Path, boot_checked: bool) -> int:
    a64 = _arm64_check()
    try:
        a64.emulation()
    except SystemExit:  # it said why in one line; a check may be skipped, an image build fails
        fail("this machine cannot run arm64 programs (see the line above)")
    missing = [pkg for tool, pkg in HOST_TOOLS.items() if shutil.which(tool) is None]
    if missing:
        fail(f"missing host tools: install {' '.join(sorted(set(missing)))} (make image does)")
    t0 = time.monotonic()
    cached = a64.arm64_root()
    work = Path(tempfile.mkdtemp(prefix="make-image-", dir="/var/tmp"))
    try:
        root = a64.working_copy(cached, work)
        if not os.path.ismount(root):
            fail("overlayfs is needed (the cached root must stay as it is)")
        _kernel_and_firmware(a64, root)
        if not a64.install(root, bundle):
            fail("install.sh --bundle failed in the image's root")
        _configure(root)
        boot = work / "boot"
        shutil.copytree(root / "boot/firmware", boot, symlinks=False)
        for entry in (root / "boot/firmware").iterdir():  # the FAT partition is mounted there
            shutil.rmtree(entry) if entry.is_dir() else entry.unlink()
        _unmount_all(root)
        # the image's files: the cached arm64 root under what this build added
        layers = [work / "upper", cached]
        if boot_checked:
            a64.booted_systemd(layers, work)
        view = work / "view"
        view.mkdir()
        run("mount", "-t", "overlay", "overlay", "-o", f"lowerdir={':'.join(map(str, layers))}", str(view))
        try:
            # /boot/firmware is the FAT partition's mount point (it must be empty: the files are the boot partition's)
            for d in ("boot/firmware",):
                if any((view / d).iterdir()):
                    fail(f"/{d} is not empty in the image's root")
            assemble(boot, view, out)
        finally:
            _unmount_all(view)
    finally:
        _unmount_all(work / "root")
        shutil.rmtree(work, ignore_errors=True)
    status = report(out)
    took = time.monotonic() - t0
    if a64.failures or status:
        say(f"{len(a64.failures) + status} check(s) FAILED in {took:.0f} s: {'; '.join(a64.failures)}")
        return 1
    say(f"{out} built and checked in {took:.0f} s")
    return 0


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="make-image.py", description=__doc__.split("\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    b = sub.add_parser("build", help="the whole image (root, emulation)")
    b.add_argument("bundle", type=Path)
    b.add_argument("--out", type=Path)
    b.add_argument("--no-boot-check", action="store_true", help="skip the systemd-nspawn boot")
    a = sub.add_parser("assemble", help="the image file from a boot and a root directory")
    a.add_argument("--boot", type=Path, required=True)
    a.add_argument("--root", type=Path, required=True)
    a.add_argument("--out", type=Path, required=True)
    a.add_argument("--spare-mib", type=int, default=ROOT_SPARE_MIB)
    i = sub.add_parser("inspect", help="check an image's partitions and boot files for a Pi 4")
    i.add_argument("image", type=Path)
    args = parser.parse_args(argv)
    if args.command == "assemble":
        for d in (args.boot, args.root):
            if not d.is_dir():
                fail(f"{d} is not a directory")
        assemble(args.boot, args.root, args.out.resolve(), args.spare_mib)
        return 0
    if args.command == "inspect":
        if not args.image.is_file():
            fail(f"{args.image} is not a file")
        return report(args.image.resolve())
    if not args.bundle.is_file():
        fail(f"{args.bundle} is not a file (make bundle makes it)")
    bundle = args.bundle.resolve()
    out = (args.out or SRC / "dist" / bundle.name.replace(".tar.gz", "-rpi4.img")).resolve()
    if os.environ.get("MAKE_IMAGE_NAMESPACE") != "1":  # every mount goes with a namespace of our own
        os.environ["MAKE_IMAGE_NAMESPACE"] = "1"
        os.environ["ARM64_CHECK_NAMESPACE"] = "1"
        os.execvp("unshare", ["unshare", "-m", "--propagation", "private", sys.executable, __file__, *argv])
    return build(bundle, out, not args.no_boot_check)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
