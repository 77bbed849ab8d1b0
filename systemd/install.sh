#!/bin/bash
# Install (or update) the Labyrinth kiosk on Raspberry Pi OS Bookworm (Lite or desktop).
#
#   sudo systemd/install.sh            install or update, then (re)start the kiosk
#   systemd/install.sh --dry-run       print every step without changing anything
#
# Safe to run again: existing users, groups, the venv and /etc/labyrinth-kiosk/config.toml
# are kept; the program, the unit file and the example config are updated.
# See docs/install.md.
set -euo pipefail

usage() {
    cat <<'USAGE'
Usage: install.sh [--dry-run] [--no-start] [--root DIR] [--help]

  --dry-run   print what would be done, change nothing (no root needed)
  --no-start  install and enable, but do not (re)start the kiosk now
  --root DIR  install the files (config, unit, boot command line) below DIR
              instead of /, and skip packages, users, the venv and systemctl;
              for staging and for testing this script
USAGE
}

DRY_RUN=0
START=1
ROOT=""
while [ $# -gt 0 ]; do
    case "$1" in
        --dry-run) DRY_RUN=1 ;;
        --no-start) START=0 ;;
        --root) [ $# -ge 2 ] || { echo "install.sh: --root needs a directory" >&2; exit 2; }
                ROOT="${2%/}"; shift ;;
        --root=*) ROOT="${1#--root=}"; ROOT="${ROOT%/}" ;;
        -h|--help) usage; exit 0 ;;
        *) echo "install.sh: unknown option $1" >&2; usage >&2; exit 2 ;;
    esac
    shift
done

SRC="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
KIOSK_USER=labyrinth
GROUPS_NEEDED="gpio dialout video input render"
PREFIX=/opt/labyrinth-kiosk
VENV="$PREFIX/venv"
ETC="$ROOT/etc/labyrinth-kiosk"
UNIT_DIR="$ROOT/etc/systemd/system"
UNIT=labyrinth-kiosk.service
# Debian packages: the kiosk compositor and its seat daemon, X for pyglet under
# cage (XWayland), OpenGL ES / EGL, Python, a font; python3-lgpio drives the
# pins of a Pi 5 (and a Pi 4) and only exists in the Raspberry Pi archive.
APT_PACKAGES="cage seatd xwayland python3 python3-venv python3-pip libegl1 libgles2 libgl1 libgl1-mesa-dri libglu1-mesa fonts-dejavu-core"
APT_OPTIONAL="python3-lgpio"

say() { printf '==> %s\n' "$*"; }
run() {
    if [ "$DRY_RUN" = 1 ]; then
        printf '+'; printf ' %q' "$@"; printf '\n'
    else
        "$@"
    fi
}
system() {  # steps that change the running system: skipped with --root
    if [ -n "$ROOT" ]; then
        printf 'skipped (--root):'; printf ' %q' "$@"; printf '\n'
    else
        run "$@"
    fi
}

if [ "$DRY_RUN" = 0 ] && [ -z "$ROOT" ] && [ "$(id -u)" != 0 ]; then
    echo "install.sh: run as root (sudo $0), or try --dry-run first" >&2
    exit 1
fi
[ -f "$SRC/pyproject.toml" ] && [ -f "$SRC/config.example.toml" ] || {
    echo "install.sh: cannot find the project next to this script (in $SRC)" >&2; exit 1; }
[ "$DRY_RUN" = 1 ] && say "dry run: nothing will be changed"

# 1. System packages
say "system packages"
if [ -n "$ROOT" ]; then
    echo "skipped (--root): apt-get install $APT_PACKAGES"
else
    missing=""
    for p in $APT_PACKAGES; do
        dpkg -s "$p" >/dev/null 2>&1 || missing="$missing $p"
    done
    for p in $APT_OPTIONAL; do
        if ! dpkg -s "$p" >/dev/null 2>&1 && apt-cache show "$p" >/dev/null 2>&1; then
            missing="$missing $p"
        fi
    done
    if [ -n "$missing" ]; then
        run apt-get update
        run env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends $missing
    else
        echo "all present"
    fi
fi

# 2. Groups and the service user (no login, no home of its own)
say "user $KIOSK_USER in groups: $GROUPS_NEEDED"
for g in $GROUPS_NEEDED; do
    if ! getent group "$g" >/dev/null; then
        system groupadd --system "$g"
    fi
done
if ! id "$KIOSK_USER" >/dev/null 2>&1; then
    system useradd --system --user-group --home-dir /var/lib/labyrinth-kiosk --no-create-home \
        --shell /usr/sbin/nologin --comment "Labyrinth kiosk" "$KIOSK_USER"
fi
system usermod --append --groups "$(echo $GROUPS_NEEDED | tr ' ' ,)" "$KIOSK_USER"

# 3. The program in its own venv; --system-site-packages lets it use python3-lgpio.
say "program in $VENV"
if [ ! -x "$VENV/bin/python" ]; then
    system python3 -m venv --system-site-packages "$VENV"
fi
system "$VENV/bin/pip" install --quiet --upgrade pip
system "$VENV/bin/pip" install --quiet --upgrade "$SRC"

# 4. Configuration: the example is always refreshed, config.toml never overwritten.
say "configuration in $ETC"
run install -d -m 0755 "$ETC"
run install -m 0644 "$SRC/config.example.toml" "$ETC/config.example.toml"
if [ -e "$ETC/config.toml" ]; then
    echo "keeping the existing $ETC/config.toml (compare with config.example.toml for new keys)"
else
    run install -m 0644 "$SRC/config.example.toml" "$ETC/config.toml"
fi

# 5. The unit
say "systemd unit $UNIT"
run install -d -m 0755 "$UNIT_DIR"
run install -m 0644 "$SRC/systemd/$UNIT" "$UNIT_DIR/$UNIT"

# 6. Screen blanking off: the console (kernel command line) and, on the desktop
#    image, the compositor's (raspi-config). cage itself never blanks.
say "screen blanking off"
CMDLINE=""
for c in "$ROOT/boot/firmware/cmdline.txt" "$ROOT/boot/cmdline.txt"; do
    if [ -f "$c" ]; then CMDLINE="$c"; break; fi
done
if [ -z "$CMDLINE" ]; then
    echo "no cmdline.txt found (not a Raspberry Pi?): console blanking left as it is"
elif grep -qE '(^| )consoleblank=0( |$)' "$CMDLINE"; then
    echo "console blanking already off in $CMDLINE"
else
    # cmdline.txt is one line; drop any other consoleblank= and append ours.
    run sed -i -E -e 's/(^| )consoleblank=[0-9]+//g' -e '1 s/[[:space:]]*$/ consoleblank=0/' "$CMDLINE"
fi
if command -v raspi-config >/dev/null 2>&1; then
    system raspi-config nonint do_blanking 1
fi

# 7. A keyboard plugged in by a visitor must not reboot the kiosk: no
#    Ctrl+Alt+Del, no magic SysRq keys.
say "keyboard reboot keys off"
SYSCTL="$ROOT/etc/sysctl.d/90-labyrinth-kiosk.conf"
if [ -f "$SYSCTL" ] && cmp -s "$SRC/systemd/90-labyrinth-kiosk.conf" "$SYSCTL"; then
    echo "magic SysRq already off ($SYSCTL)"
else
    run install -d -m 0755 "$ROOT/etc/sysctl.d"
    run install -m 0644 "$SRC/systemd/90-labyrinth-kiosk.conf" "$SYSCTL"
    system sysctl -p "$SYSCTL"
fi
system systemctl mask ctrl-alt-del.target

# 7b. Sound (kiosk/sound): PulseAudio for the service user, started on demand by
#     libpulse inside the unit's runtime directory, playing to the Pi's HDMI or
#     headphone output through ALSA; the user needs the audio group for /dev/snd.
#     A Pi with a desktop session and PipeWire works too (pipewire-pulse).
say "sound: PulseAudio for $KIOSK_USER"
if dpkg -s pulseaudio >/dev/null 2>&1 || dpkg -s pipewire-pulse >/dev/null 2>&1; then
    echo "a PulseAudio server is installed"
else
    system env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends pulseaudio
fi
getent group audio >/dev/null || system groupadd --system audio
system usermod --append --groups audio "$KIOSK_USER"

# 8. Check the configuration, enable and (re)start
say "check the configuration"
if [ -n "$ROOT" ] || { [ "$DRY_RUN" = 1 ] && [ ! -x "$VENV/bin/labyrinth-kiosk" ]; }; then
    echo "skipped: $VENV/bin/labyrinth-kiosk --check-config --config /etc/labyrinth-kiosk/config.toml"
else
    run "$VENV/bin/labyrinth-kiosk" --check-config --config /etc/labyrinth-kiosk/config.toml || {
        echo "install.sh: fix /etc/labyrinth-kiosk/config.toml, then run this script again" >&2
        exit 2; }
fi

say "enable the kiosk"
system systemctl daemon-reload
system systemctl enable seatd.service
system systemctl enable "$UNIT"
if [ "$START" = 1 ]; then
    system systemctl restart seatd.service
    system systemctl restart "$UNIT"
    if [ -z "$ROOT" ] && [ "$DRY_RUN" = 0 ]; then
        echo "started; follow it with: journalctl -u labyrinth-kiosk -f"
    fi
else
    echo "not started (--no-start); it starts at the next boot"
fi
say "done"
