#!/bin/bash
# Build (or reuse) a Debian arm64 root file system for `make arm64-check`, of
# trixie (Raspberry Pi OS's base today, the default) or bookworm (its Legacy):
# the packages install.sh needs on a Pi, made with mmdebstrap (the host's apt
# resolves and downloads, in parallel; one dpkg run configures all) whose
# arm64 programs run under qemu-user through binfmt_misc. Prints the root's
# path on its last line.
#
#   systemd/arm64-root.sh [--suite trixie|bookworm] [--cache DIR] [--mirror URL]
#
# The root is cached outside the checkout, keyed by its package list and
# suite, so a second run reuses it (a half-built root is never reused: it is
# built in DIR/KEY.tmp and renamed when complete). The mirror is the one this
# machine's apt uses (/etc/apt/sources.list*), unless --mirror names one.
set -euo pipefail

CACHE="${ARM64_CACHE:-/var/cache/labyrinth-kiosk/arm64-root}"
MIRROR="${ARM64_MIRROR:-}"
SUITE="${SUITE:-trixie}"
while [ $# -gt 0 ]; do
    case "$1" in
        --cache) [ $# -ge 2 ] || { echo "arm64-root.sh: --cache needs a directory" >&2; exit 2; }; CACHE="$2"; shift ;;
        --suite) [ $# -ge 2 ] || { echo "arm64-root.sh: --suite needs a name" >&2; exit 2; }; SUITE="$2"; shift ;;
        --mirror) [ $# -ge 2 ] || { echo "arm64-root.sh: --mirror needs a URL" >&2; exit 2; }; MIRROR="$2"; shift ;;
        -h|--help) sed -n '2,12p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        *) echo "arm64-root.sh: unknown option $1" >&2; exit 2 ;;
    esac
    shift
done

case "$SUITE" in trixie|bookworm) ;; *) echo "arm64-root.sh: suite $SUITE: trixie or bookworm" >&2; exit 2 ;; esac

SRC="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
# What install.sh checks for (its APT_PACKAGES and the sound server), read from
# it so the two cannot drift, plus what the check itself runs: systemctl for
# `enable` in the root, pactl for the sound check, udev for the gpiochip rule.
INSTALL_PACKAGES="$(sed -n 's/^APT_PACKAGES="\(.*\)"$/\1/p' "$SRC/systemd/install.sh")"
SOUND_PACKAGES="$(sed -n 's/^APT_SOUND="\(.*\)"$/\1/p' "$SRC/systemd/install.sh")"
[ -n "$INSTALL_PACKAGES" ] && [ -n "$SOUND_PACKAGES" ] || {
    echo "arm64-root.sh: cannot read APT_PACKAGES/APT_SOUND from install.sh" >&2; exit 1; }
# The trixie root has PipeWire's PulseAudio server instead, as Raspberry Pi OS's desktop image
# does: the installer must then set the sound unit up for PipeWire (both servers are checked).
[ "$SUITE" = trixie ] && SOUND_PACKAGES="$(sed -n 's/^APT_SOUND_PIPEWIRE="\(.*\)"$/\1/p' "$SRC/systemd/install.sh")"
CHECK_PACKAGES="systemd udev pulseaudio-utils"
PACKAGES="$(printf '%s\n' $INSTALL_PACKAGES $SOUND_PACKAGES $CHECK_PACKAGES | LC_ALL=C sort -u | tr '\n' ' ')"
# the builder is part of the key: a root made another way is not taken for this one
BUILDER=mmdebstrap
KEY="$(printf '%s %s %s %s\n' "$SUITE" arm64 "$BUILDER" "$PACKAGES" | sha256sum | cut -c1-16)"
ROOTFS="$CACHE/$SUITE-arm64-$KEY"

# one build of a root at a time: a second run (CI beside a developer's) waits for the first and
# reuses its root, instead of deleting the half-built one under it
mkdir -p "$CACHE"
exec 9>"$CACHE/$KEY.lock"
flock 9
if [ -f "$ROOTFS/.complete" ]; then
    echo "reusing $ROOTFS"
    echo "$ROOTFS"
    exit 0
fi

if [ -z "$MIRROR" ]; then
    # deb822 (URIs: ...) or one-line (deb URL bookworm main) sources; the first Debian archive
    MIRROR="$( { cat /etc/apt/sources.list /etc/apt/sources.list.d/*.sources /etc/apt/sources.list.d/*.list 2>/dev/null || true; } \
        | sed -n -e 's/^URIs:[[:space:]]*\([^[:space:]]*\/debian\/\{0,1\}\)[[:space:]]*$/\1/p' \
                 -e 's/^deb[[:space:]]\{1,\}\(\[[^]]*\][[:space:]]\{1,\}\)\{0,1\}\([^[:space:]]*\/debian\/\{0,1\}\)[[:space:]].*/\2/p' \
        | head -n1)"
fi
[ -n "$MIRROR" ] || { echo "arm64-root.sh: no Debian mirror in /etc/apt/sources.list*; give one with --mirror" >&2; exit 1; }

mkdir -p "$CACHE"
TMP="$ROOTFS.tmp"
# a build cut short (killed) may have left mmdebstrap's mounts (proc, sys, dev/pts) in its folder
awk -v t="$TMP/" 'index($2, t) == 1 { print $2 }' /proc/self/mounts | sort -r | xargs -r -n1 umount -l
rm -rf --one-file-system "$TMP"
echo "==> mmdebstrap $SUITE arm64 into $TMP ($(echo $PACKAGES | wc -w) packages asked for)" >&2
# minbase (as debootstrap's) + the list, no Recommends; apt on the host resolves and
# downloads, dpkg in the root (under qemu-aarch64) installs the essential set, then
# apt in the root the rest in one run, each trigger once. force-unsafe-io: no fsync
# per file while building (a half-built root is never used); the setting is
# removed afterwards, so it never reaches a Pi's dpkg.
mmdebstrap --mode=root --architectures=arm64 --variant=minbase \
    --include="$(echo $PACKAGES | tr ' ' ,)" \
    --dpkgopt=force-unsafe-io \
    --customize-hook='rm -f "$1/etc/dpkg/dpkg.cfg.d/99mmdebstrap"' \
    "$SUITE" "$TMP" "$MIRROR" 2>&1 | while IFS= read -r line; do printf '%s %s\n' "$(date +%T)" "$line"; done > "$CACHE/$KEY.log" \
    || { tail -n 20 "$CACHE/$KEY.log" >&2; echo "arm64-root.sh: mmdebstrap failed; log in $CACHE/$KEY.log" >&2; exit 1; }
printf '%s\n' $PACKAGES > "$TMP/.packages"
touch "$TMP/.complete"
mv -T "$TMP" "$ROOTFS"
echo "$ROOTFS"
