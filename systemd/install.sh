#!/bin/bash
# Install (or update) the Labyrinth kiosk on Raspberry Pi OS (trixie, or bookworm: Legacy; Lite or desktop).
#
#   sudo systemd/install.sh                  install or update from this checkout (needs the network)
#   sudo systemd/install.sh --bundle FILE    install or update from an offline bundle (no network)
#   sudo systemd/install.sh --rollback       go back to the release that ran before
#   systemd/install.sh --dry-run             print every step without changing anything
#
# Every install puts the program in a release folder of its own beside the
# running one (/opt/labyrinth-kiosk/releases/<id>), checks the configuration
# with it, switches the link /opt/labyrinth-kiosk/venv over, restarts the
# kiosk and waits for it to report ready; if it does not within
# --ready-timeout seconds, the previous release is switched back and
# restarted. Safe to run again: existing users, groups, the state directory and
# /etc/labyrinth-kiosk/config.toml are kept. See docs/install.md.
set -euo pipefail

usage() {
    cat <<'USAGE'
Usage: install.sh [--bundle FILE | --rollback] [--dry-run] [--no-start] [--root DIR]
                  [--ready-timeout S] [--keep-serial-console] [--help]

  --bundle FILE        install the release in FILE (made by `make bundle`) with no network
  --rollback           switch back to the previous release and restart it
  --dry-run            print what would be done, change nothing (no root needed)
  --no-start           install and enable, but do not (re)start the kiosk now
  --ready-timeout S    seconds a new release has to report ready before it is
                       rolled back (default 120, the unit's TimeoutStartSec)
  --no-compile         do not byte-compile the Python files (a faster install,
                       a slower first start; for tests)
  --keep-serial-console  leave a serial console on GPIO 14/15 in cmdline.txt
                       (by default it is removed: the LED ring may use that UART)
  --root DIR           install the files (config, units, boot command line) below DIR
                       instead of /, and skip packages, users and systemctl; the
                       releases are below DIR too, and nothing outside DIR is
                       changed; for staging and for testing this script

In a chroot (an image build: no systemd running) the install works as on the
Pi, except that systemd is not reloaded nor the kiosk started (each skipped
step is said); the kiosk starts at the image's first boot.
  --systemctl CMD      with --root: a command standing in for systemctl (tests)
USAGE
}

DRY_RUN=0
START=1
ROOT=""
BUNDLE=""
ROLLBACK=0
READY_TIMEOUT=120
SETTLE_S=5
KEEP_SERIAL_CONSOLE=0
COMPILE=--compile
FAKE_SYSTEMCTL=""
need_arg() { [ "$2" -ge 2 ] || { echo "install.sh: $1 needs a value" >&2; exit 2; }; }
while [ $# -gt 0 ]; do
    case "$1" in
        --dry-run) DRY_RUN=1 ;;
        --no-start) START=0 ;;
        --root) need_arg "$1" $#; ROOT="${2%/}"; shift ;;
        --root=*) ROOT="${1#--root=}"; ROOT="${ROOT%/}" ;;
        --bundle) need_arg "$1" $#; BUNDLE="$2"; shift ;;
        --bundle=*) BUNDLE="${1#--bundle=}" ;;
        --rollback) ROLLBACK=1 ;;
        --ready-timeout) need_arg "$1" $#; READY_TIMEOUT="$2"; shift ;;
        --settle) need_arg "$1" $#; SETTLE_S="$2"; shift ;;
        --keep-serial-console) KEEP_SERIAL_CONSOLE=1 ;;
        --no-compile) COMPILE=--no-compile ;;
        --systemctl) need_arg "$1" $#; FAKE_SYSTEMCTL="$2"; shift ;;
        -h|--help) usage; exit 0 ;;
        *) echo "install.sh: unknown option $1" >&2; usage >&2; exit 2 ;;
    esac
    shift
done
case "$READY_TIMEOUT$SETTLE_S" in *[!0-9]*|"") echo "install.sh: --ready-timeout and --settle take whole seconds" >&2; exit 2 ;; esac
if [ -n "$BUNDLE" ] && [ "$ROLLBACK" = 1 ]; then
    echo "install.sh: --bundle and --rollback exclude each other" >&2; exit 2
fi
if [ -n "$FAKE_SYSTEMCTL" ] && [ -z "$ROOT" ]; then
    echo "install.sh: --systemctl is for staging with --root only" >&2; exit 2
fi

SRC="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
KIOSK_USER=labyrinth
GROUPS_NEEDED="gpio dialout video render audio"
# Not input: cage gets the touchscreen through seatd, and a member of input can
# read every keyboard; installations from before 0.2.0 had it.
GROUPS_REMOVED="input"
PREFIX=/opt/labyrinth-kiosk
VENV="$PREFIX/venv"
# With --root everything is below it, the releases too (never the live system's).
if [ -n "$ROOT" ]; then
    PREFIX="$ROOT$PREFIX"; VENV="$PREFIX/venv"
fi
RELEASES="$PREFIX/releases"
PREVIOUS="$PREFIX/previous"
ETC="$ROOT/etc/labyrinth-kiosk"
UNIT_DIR="$ROOT/etc/systemd/system"
UNIT=labyrinth-kiosk.service
SOUND_UNIT=labyrinth-kiosk-sound.service
SOUND_PIPEWIRE=labyrinth-kiosk-sound-pipewire.conf
PIPEWIRE_CONF=pipewire-labyrinth-kiosk.conf
# plain Debian gives /dev/gpiochip* to root only (Raspberry Pi OS has a rule of its own)
UDEV_RULE=60-labyrinth-kiosk-gpio.rules
# systemd's own test for "booted with systemd" (sd_booted); absent in a chroot
SYSTEMD_RUNNING="${LABYRINTH_SYSTEMD_RUNNING:-/run/systemd/system}"
# Debian packages: the kiosk compositor and its seat daemon, X for pyglet under
# cage (XWayland), OpenGL ES / EGL, Python, a font; python3-lgpio drives the
# pins of a Pi 5 (and a Pi 4) and only exists in the Raspberry Pi archive.
APT_PACKAGES="cage seatd xwayland python3 python3-venv python3-pip libegl1 libgles2 libgl1 libgl1-mesa-dri libglu1-mesa fonts-dejavu-core fonts-sil-andika"
APT_OPTIONAL="python3-lgpio"
# Where there is no python3-lgpio: the Pythons PyPI has arm64 wheels of lgpio for (3.11,
# bookworm's, and 3.12; none for trixie's 3.13), each carried by the bundle (make-bundle.sh reads this).
LGPIO_WHEELS="cp311 cp312"
# a Raspberry Pi says so here ("Raspberry Pi 5 Model B Rev 1.0"); tests name another file
DEVICE_MODEL="${LABYRINTH_DEVICE_MODEL:-/proc/device-tree/model}"
# The sound server (kiosk/sound): PulseAudio, or PipeWire's PulseAudio server where a desktop
# image has it (and no PulseAudio): then the sound unit runs PipeWire (its drop-in SOUND_PIPEWIRE).
APT_SOUND="pulseaudio"
APT_SOUND_PIPEWIRE="pipewire-pulse wireplumber"
# and its dbus-run-session: the kiosk user's wireplumber needs a session bus (trixie's wireplumber
# depends on one; bookworm's does not)
APT_SESSION_BUS="dbus-daemon"

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
booted() { [ -n "$FAKE_SYSTEMCTL" ] || [ -d "$SYSTEMD_RUNNING" ]; }
sysd() {  # systemctl, or the stand-in given with --systemctl when staging
    if [ -n "$FAKE_SYSTEMCTL" ]; then
        run $FAKE_SYSTEMCTL "$@"
    else
        system systemctl "$@"
    fi
}
live() {  # steps that need the running systemd (reload, start, sysctl): skipped in a chroot
    if [ -z "$ROOT" ] && ! booted; then
        printf 'skipped (systemd is not running here: a chroot?):'; printf ' %q' "$@"; printf '\n'
    elif [ "$1" = systemctl ]; then
        shift; sysd "$@"
    else
        system "$@"
    fi
}
can_restart() { [ "$DRY_RUN" = 0 ] && booted && { [ -z "$ROOT" ] || [ -n "$FAKE_SYSTEMCTL" ]; }; }

if [ "$DRY_RUN" = 0 ] && [ -z "$ROOT" ] && [ "$(id -u)" != 0 ]; then
    echo "install.sh: run as root (sudo $0), or try --dry-run first" >&2
    exit 1
fi
[ "$DRY_RUN" = 1 ] && say "dry run: nothing will be changed"

# ------------------------------------------------------------------ releases
current_release() { [ -L "$VENV" ] && basename "$(readlink "$VENV")" || true; }
previous_release() { [ -L "$PREVIOUS" ] && basename "$(readlink "$PREVIOUS")" || true; }
link() {  # link NAME RELEASE-ID: repoint NAME atomically (a new link renamed over the old)
    run ln -sfn "releases/$2" "$1.new"
    run mv -T "$1.new" "$1"
}
switch_to() {  # switch_to NEW PREVIOUS
    link "$VENV" "$1"
    if [ -n "$2" ]; then link "$PREVIOUS" "$2"; else run rm -f "$PREVIOUS"; fi
}
# Restart the kiosk and wait until it reports ready (Type=notify: systemctl
# restart returns when READY=1 arrives, fails when the kiosk exits first), then
# check that it is still running a few seconds later.
restart_and_wait() {
    local rc=0
    run $ARG_TIMEOUT "$READY_TIMEOUT" ${FAKE_SYSTEMCTL:-systemctl} restart "$UNIT" || rc=$?
    if [ "$rc" != 0 ]; then
        [ "$rc" = 124 ] && echo "no READY from the kiosk within ${READY_TIMEOUT}s" \
                        || echo "the kiosk failed to start (systemctl restart: status $rc)"
        return 1
    fi
    [ "$DRY_RUN" = 1 ] || sleep "$SETTLE_S"
    if ! run ${FAKE_SYSTEMCTL:-systemctl} is-active --quiet "$UNIT"; then
        echo "the kiosk reported ready but stopped within ${SETTLE_S}s"
        return 1
    fi
}
ARG_TIMEOUT=timeout
prune_releases() {  # keep the running one, the previous one and the newest other
    [ -d "$RELEASES" ] || return 0
    local cur prev kept=0
    cur="$(current_release)"; prev="$(previous_release)"
    for r in $(ls -1t "$RELEASES"); do
        if [ "$r" = "$cur" ] || [ "$r" = "$prev" ]; then continue; fi
        kept=$((kept + 1))
        [ "$kept" -le 1 ] && continue
        run rm -rf "${RELEASES:?}/$r"
    done
}

# ------------------------------------------------------------------ --rollback
if [ "$ROLLBACK" = 1 ]; then
    say "roll back"
    cur="$(current_release)"; prev="$(previous_release)"
    if [ -z "$prev" ] || [ ! -x "$RELEASES/$prev/bin/labyrinth-kiosk" ]; then
        echo "install.sh: no previous release to go back to (in $RELEASES)" >&2; exit 1
    fi
    echo "running: ${cur:-none}; going back to: $prev"
    if [ "$DRY_RUN" = 0 ] && [ -f "$ROOT/etc/labyrinth-kiosk/config.toml" ] && \
       ! "$RELEASES/$prev/bin/labyrinth-kiosk" --check-config --config "$ROOT/etc/labyrinth-kiosk/config.toml" >/dev/null; then
        echo "install.sh: release $prev refuses /etc/labyrinth-kiosk/config.toml (see above); nothing changed" >&2
        exit 2
    fi
    switch_to "$prev" "$cur"
    if can_restart && [ "$START" = 1 ]; then
        if ! restart_and_wait; then
            echo "install.sh: release $prev did not come up either; see journalctl -u labyrinth-kiosk -b" >&2
            exit 1
        fi
        echo "release $prev runs; roll forward again with: install.sh --rollback"
    fi
    say "done"
    exit 0
fi

# ------------------------------------------------------------------ --bundle: unpack and verify
FILES="$SRC"       # where the unit, the sysctl file and the example config come from
if [ -n "$BUNDLE" ]; then
    say "bundle $BUNDLE"
    [ -f "$BUNDLE" ] || { echo "install.sh: no bundle file $BUNDLE" >&2; exit 2; }
    UNPACK="$(mktemp -d)"
    trap 'rm -rf "$UNPACK"' EXIT
    # one top folder, no absolute paths, nothing that climbs out of it, no links
    if tar -tvzf "$BUNDLE" 2>/dev/null | grep -qvE '^[-d]'; then
        echo "install.sh: $BUNDLE holds links or devices; not a kiosk bundle" >&2; exit 2
    fi
    names="$(tar -tzf "$BUNDLE" 2>/dev/null)" || { echo "install.sh: $BUNDLE is not a .tar.gz archive" >&2; exit 2; }
    tops="$(printf '%s\n' "$names" | cut -d/ -f1 | sort -u)"
    if [ "$(printf '%s\n' "$tops" | wc -l)" != 1 ] || ! printf '%s' "$tops" | grep -qE '^labyrinth-kiosk-[0-9A-Za-z.+_-]+$' \
       || printf '%s\n' "$names" | grep -qE '(^/|(^|/)\.\.(/|$))'; then
        echo "install.sh: $BUNDLE is not laid out as a kiosk bundle (one folder labyrinth-kiosk-VERSION)" >&2; exit 2
    fi
    tar -xzf "$BUNDLE" -C "$UNPACK" --no-same-owner --no-same-permissions
    FILES="$UNPACK/$tops"
    [ -f "$FILES/MANIFEST.sha256" ] || { echo "install.sh: $BUNDLE has no MANIFEST.sha256" >&2; exit 2; }
    if ! ( cd "$FILES" && sha256sum --check --strict --quiet MANIFEST.sha256 ); then
        echo "install.sh: $BUNDLE does not match its manifest (damaged copy?); nothing changed" >&2; exit 2
    fi
    listed="$(cut -c67- "$FILES/MANIFEST.sha256" | LC_ALL=C sort)"
    present="$( cd "$FILES" && find . -type f ! -name MANIFEST.sha256 | sed 's|^\./||' | LC_ALL=C sort)"
    if [ "$listed" != "$present" ]; then
        echo "install.sh: $BUNDLE holds files its manifest does not list; nothing changed" >&2; exit 2
    fi
    VERSION="$(sed -n 's/^version=//p' "$FILES/BUNDLE")"
    RELEASE="$VERSION-$(sha256sum "$BUNDLE" | cut -c1-12)"
    echo "labyrinth-kiosk $VERSION, manifest checked ($(wc -l < "$FILES/MANIFEST.sha256") files)"
else
    VERSION="$(sed -n 's/^__version__ = "\([^"]*\)"$/\1/p' "$SRC/kiosk/version.py")"
    RELEASE="$VERSION-$(date -u +%Y%m%dT%H%M%S)"
fi
[ -f "$FILES/config.example.toml" ] && [ -f "$FILES/systemd/$UNIT" ] || {
    echo "install.sh: cannot find the project next to this script (in $FILES)" >&2; exit 1; }

# The sound server the kiosk gets: pulseaudio where installed, else pipewire where its
# PulseAudio server is (a desktop image), else pulseaudio (to be installed).
installed() { dpkg -s "$1" >/dev/null 2>&1; }
sound_server() {
    if [ -z "$ROOT" ] && ! installed pulseaudio && installed pipewire-pulse; then echo pipewire; else echo pulseaudio; fi
}
sound_packages() { if [ "$(sound_server)" = pipewire ]; then echo "$APT_SOUND_PIPEWIRE $APT_SESSION_BUS"; else echo "$APT_SOUND"; fi; }

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
    for p in $(sound_packages); do
        dpkg -s "$p" >/dev/null 2>&1 || missing="$missing $p"
    done
    if [ -n "$missing" ] && [ -n "$BUNDLE" ]; then
        echo "install.sh: missing Debian packages:$missing" >&2
        echo "  an offline install cannot fetch them; install them first (e.g. from a local apt mirror)" >&2
        [ "$DRY_RUN" = 1 ] || exit 1
    elif [ -n "$missing" ]; then
        run apt-get update
        run env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends $missing
    else
        echo "all present"
    fi
fi

# 1b. lgpio, the buttons' GPIO library (a Pi 5's only one), for this Python: decided before the
#     user and the program are made. Raspberry Pi OS has python3-lgpio, which the release venvs
#     see; plain Debian has none: then an arm64 wheel for this Python (the bundle's, or PyPI's).
say "lgpio for the buttons"
PI_WHEELS=()
PI_EXTRA=""
PYTAG="$(python3 -c 'import sys; print("cp%d%d" % sys.version_info[:2])' 2>/dev/null || echo "(no python3 yet)")"
if [ "$(uname -m)" != aarch64 ]; then
    echo "not an arm64 machine: no lgpio (gpiozero falls back to its other pin libraries)"
elif python3 -c 'import lgpio' 2>/dev/null; then
    echo "lgpio: the system's (python3-lgpio)"
elif [ -n "$BUNDLE" ] && compgen -G "$FILES/wheels-pi/lgpio-*-$PYTAG-*.whl" >/dev/null; then
    echo "lgpio: the bundle's wheel for $PYTAG (no python3-lgpio on this system)"
    PI_WHEELS=(--find-links "$FILES/wheels-pi" -r "$FILES/requirements-pi.txt")
elif [ -z "$BUNDLE" ] && [[ " $LGPIO_WHEELS " == *" $PYTAG "* ]]; then
    echo "lgpio: PyPI's wheel for $PYTAG (no python3-lgpio on this system)"
    PI_EXTRA="[pi]"
else
    NO_LGPIO="no lgpio for Python $PYTAG: no python3-lgpio (Raspberry Pi OS's archive has it) and no arm64 wheel of lgpio for it (there are for $LGPIO_WHEELS)"
    if grep -qa '^Raspberry Pi' "$DEVICE_MODEL" 2>/dev/null; then
        echo "install.sh: $NO_LGPIO; the arcade buttons could not work on this $(tr -d '\0' < "$DEVICE_MODEL"), so nothing was changed" >&2
        [ "$DRY_RUN" = 1 ] || exit 1
    else
        echo "$NO_LGPIO: the buttons will be simulated (this is not a Raspberry Pi)"
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
for g in $GROUPS_REMOVED; do
    if id -nG "$KIOSK_USER" 2>/dev/null | tr ' ' '\n' | grep -qx "$g"; then
        system gpasswd --delete "$KIOSK_USER" "$g"
    fi
done

# 3. The program: a new release folder beside the running one, a venv that
#    also sees the system's python3-lgpio (--system-site-packages).
say "program in $VENV (release $RELEASE)"
REL="$RELEASES/$RELEASE"
OLD="$(current_release)"
PROGRAM=1
if [ -n "$ROOT" ] && [ -z "$BUNDLE" ]; then
    echo "skipped (--root): a release venv in $REL with pip install $SRC"
    PROGRAM=0
elif [ "$OLD" = "$RELEASE" ]; then
    echo "release $RELEASE is already the running one"
    PROGRAM=0
else
    # an installation from before releases: its venv becomes a release of its own
    if [ -d "$VENV" ] && [ ! -L "$VENV" ]; then
        OLD="before-releases"
        run mkdir -p "$RELEASES"
        run mv -T "$VENV" "$RELEASES/$OLD"
        # its scripts start with #!$VENV/bin/python, which is about to mean the new release
        run find "$RELEASES/$OLD/bin" -maxdepth 1 -type f -exec \
            sed -i "1s|^#!$VENV/bin/python|#!$RELEASES/$OLD/bin/python|" {} +
        link "$VENV" "$OLD"
    fi
    run mkdir -p "$RELEASES"
    run rm -rf "$REL"
    run python3 -m venv --without-pip --system-site-packages "$REL"
    # pip from the system (python3-pip) installs into the venv; the bundled one if there is none
    if [ "$DRY_RUN" = 0 ] && ! "$REL/bin/python" -m pip --version >/dev/null 2>&1; then
        run "$REL/bin/python" -m ensurepip --default-pip >/dev/null
    fi
    if [ -n "$BUNDLE" ]; then
        # no index, no configuration, only the bundle's wheels, each checked against its hash
        run env PIP_CONFIG_FILE=/dev/null "$REL/bin/python" -m pip --isolated install --quiet \
            --no-index --find-links "$FILES/wheels" --require-hashes --ignore-installed $COMPILE \
            --no-cache-dir --no-warn-script-location --disable-pip-version-check -r "$FILES/requirements.txt" \
            "${PI_WHEELS[@]}"
    else
        run "$REL/bin/python" -m pip install --quiet --ignore-installed --disable-pip-version-check "$SRC$PI_EXTRA"
    fi
    if [ "$DRY_RUN" = 0 ]; then
        got="$("$REL/bin/labyrinth-kiosk" --version)"
        [ "$got" = "labyrinth-kiosk $VERSION" ] || {
            echo "install.sh: the new release says '$got', expected labyrinth-kiosk $VERSION" >&2; exit 1; }
        echo "installed $got in $REL"
    fi
fi

# 4. Configuration: the example is always refreshed, config.toml never
#    overwritten. A new config.toml gets a random operator PIN, shown once, and
#    is readable by root and the kiosk's group only (it holds the PIN).
say "configuration in $ETC"
run install -d -m 0755 "$ETC"
run install -m 0644 "$FILES/config.example.toml" "$ETC/config.example.toml"
if [ -n "$ROOT" ]; then OWNER=(); else OWNER=(-o root -g "$KIOSK_USER"); fi
if [ -e "$ETC/config.toml" ]; then
    echo "keeping the existing $ETC/config.toml (compare with config.example.toml for new keys)"
    if [ -z "$ROOT" ]; then
        run chown "root:$KIOSK_USER" "$ETC/config.toml"
    fi
    run chmod 0640 "$ETC/config.toml"
elif [ "$DRY_RUN" = 1 ]; then
    echo "+ install -m 0640 ${OWNER[*]} (config.example.toml with a new random operator PIN) $ETC/config.toml"
else
    PIN="$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')"
    PIN="$(printf '%06d' $((PIN % 1000000)))"
    NEW_CONFIG="$(mktemp)"
    sed -E "s/^operator_pin = \"[0-9]+\"/operator_pin = \"$PIN\"/" "$FILES/config.example.toml" > "$NEW_CONFIG"
    grep -q "^operator_pin = \"$PIN\"" "$NEW_CONFIG" || {
        rm -f "$NEW_CONFIG"; echo "install.sh: config.example.toml has no operator_pin line" >&2; exit 1; }
    run install -m 0640 "${OWNER[@]}" "$NEW_CONFIG" "$ETC/config.toml"
    rm -f "$NEW_CONFIG"
    echo
    echo "    The operator PIN of this kiosk is:  $PIN"
    echo "    Write it down now: it is not shown again. It opens the operator menu"
    echo "    (hold the top-left corner 3 s); change it with [kiosk] operator_pin in"
    echo "    $ETC/config.toml."
    echo
fi

# 5. The unit
say "systemd unit $UNIT"
run install -d -m 0755 "$UNIT_DIR"
run install -m 0644 "$FILES/systemd/$UNIT" "$UNIT_DIR/$UNIT"

# 6. Screen blanking off: the console (kernel command line) and, on the desktop
#    image, the compositor's (raspi-config). cage itself never blanks.
#    The serial console on GPIO 14/15 goes too (unless --keep-serial-console):
#    the LED ring may use that UART, and nobody should get a login prompt on
#    the header's pins. ttyS1 is that UART under Debian's own kernel on a Pi 4
#    (its raspi-firmware writes console=ttyS1,115200).
say "screen blanking and serial console off"
CMDLINE=""
for c in "$ROOT/boot/firmware/cmdline.txt" "$ROOT/boot/cmdline.txt"; do
    if [ -f "$c" ]; then CMDLINE="$c"; break; fi
done
if [ -z "$CMDLINE" ]; then
    echo "no cmdline.txt found (not a Raspberry Pi?): console blanking left as it is"
else
    if grep -qE '(^| )consoleblank=0( |$)' "$CMDLINE"; then
        echo "console blanking already off in $CMDLINE"
    else
        # cmdline.txt is one line; drop any other consoleblank= and append ours.
        run sed -i -E -e 's/(^| )consoleblank=[0-9]+//g' -e '1 s/[[:space:]]*$/ consoleblank=0/' "$CMDLINE"
    fi
    SERIAL_CONSOLE='(^| )console=(serial0|serial1|ttyAMA0|ttyS0|ttyS1)(,[0-9a-z]+)?( |$)'
    if [ "$KEEP_SERIAL_CONSOLE" = 1 ]; then
        echo "serial console left as it is (--keep-serial-console)"
    elif grep -qE "$SERIAL_CONSOLE" "$CMDLINE"; then
        run sed -i -E -e 's/(^| )console=(serial0|serial1|ttyAMA0|ttyS0|ttyS1)(,[0-9a-z]+)?( |$)/\1/g' \
            -e 's/^ +//' -e 's/  +/ /g' "$CMDLINE"
        echo "serial console removed from $CMDLINE (takes effect at the next boot)"
    else
        echo "no serial console in $CMDLINE"
    fi
fi
if [ "$KEEP_SERIAL_CONSOLE" = 0 ]; then
    system systemctl mask serial-getty@serial0.service serial-getty@ttyAMA0.service serial-getty@ttyS0.service serial-getty@ttyS1.service
fi
if command -v raspi-config >/dev/null 2>&1; then
    system raspi-config nonint do_blanking 1
fi

# 7. A keyboard plugged in by a visitor must not reboot the kiosk: no
#    Ctrl+Alt+Del, no magic SysRq keys.
say "keyboard reboot keys off"
SYSCTL="$ROOT/etc/sysctl.d/90-labyrinth-kiosk.conf"
if [ -f "$SYSCTL" ] && cmp -s "$FILES/systemd/90-labyrinth-kiosk.conf" "$SYSCTL"; then
    echo "magic SysRq already off ($SYSCTL)"
else
    run install -d -m 0755 "$ROOT/etc/sysctl.d"
    run install -m 0644 "$FILES/systemd/90-labyrinth-kiosk.conf" "$SYSCTL"
    live sysctl -p "$SYSCTL"
fi
system systemctl mask ctrl-alt-del.target

# 7b. Sound (kiosk/sound): PulseAudio, or PipeWire with its PulseAudio server,
#     for the service user (in the audio group, see GROUPS_NEEDED), started at
#     boot by a unit of its own (not inside the kiosk's, where its
#     READY=1/STOPPING=1 would count as the kiosk's) and playing through ALSA
#     to the Pi's HDMI or headphone output. The packages came with step 1.
SERVER="$(sound_server)"
say "sound: $SOUND_UNIT on $SERVER"
run install -m 0644 "$FILES/systemd/$SOUND_UNIT" "$UNIT_DIR/$SOUND_UNIT"
if [ "$SERVER" = pipewire ]; then
    run install -d -m 0755 "$UNIT_DIR/$SOUND_UNIT.d" "$ETC/pipewire/pipewire.conf.d"
    run install -m 0644 "$FILES/systemd/$SOUND_PIPEWIRE" "$UNIT_DIR/$SOUND_UNIT.d/pipewire.conf"
    run install -m 0644 "$FILES/systemd/$PIPEWIRE_CONF" "$ETC/pipewire/pipewire.conf.d/labyrinth-kiosk.conf"
elif [ -e "$UNIT_DIR/$SOUND_UNIT.d/pipewire.conf" ]; then
    run rm -f "$UNIT_DIR/$SOUND_UNIT.d/pipewire.conf" "$ETC/pipewire/pipewire.conf.d/labyrinth-kiosk.conf"
fi

# 7c. The buttons' GPIO chips for the gpio group (plain Debian leaves them to root).
say "GPIO chips for the gpio group"
run install -d -m 0755 "$ROOT/etc/udev/rules.d"
run install -m 0644 "$FILES/systemd/$UDEV_RULE" "$ROOT/etc/udev/rules.d/$UDEV_RULE"
live udevadm trigger --subsystem-match=gpio --action=change

# 8. Check the configuration with the new release, switch over, restart, and
#    go back when the new release does not come up.
say "check the configuration"
CHECKER="$REL/bin/labyrinth-kiosk"
[ "$PROGRAM" = 1 ] || CHECKER="$VENV/bin/labyrinth-kiosk"
if [ "$DRY_RUN" = 1 ] || [ ! -x "$CHECKER" ]; then
    echo "skipped: $CHECKER --check-config --config /etc/labyrinth-kiosk/config.toml"
else
    "$CHECKER" --check-config --config "$ETC/config.toml" || {
        echo "install.sh: fix /etc/labyrinth-kiosk/config.toml, then run this script again" \
             "(the running release was left as it is)" >&2
        exit 2; }
fi

if [ "$PROGRAM" = 1 ]; then
    say "switch to release $RELEASE"
    OLD_PREVIOUS="$(previous_release)"
    switch_to "$RELEASE" "$OLD"
fi

say "enable the kiosk"
live systemctl daemon-reload
sysd enable seatd.service
sysd enable "$SOUND_UNIT"
sysd enable "$UNIT"
if [ "$START" = 1 ] && [ -z "$ROOT" ] && ! booted; then
    echo "not started: systemd is not running here (a chroot?); the kiosk starts at the next boot"
elif [ "$START" = 1 ]; then
    sysd restart seatd.service
    sysd restart "$SOUND_UNIT"
    if can_restart; then
        if ! restart_and_wait; then
            if [ "$PROGRAM" = 1 ] && [ -n "$OLD" ]; then
                say "release $RELEASE did not come up: back to $OLD"
                switch_to "$OLD" "$OLD_PREVIOUS"
                if restart_and_wait; then
                    echo "install.sh: rolled back to $OLD, which runs again; the failed release stays in" \
                         "$REL for a post-mortem (journalctl -u labyrinth-kiosk -b)" >&2
                else
                    echo "install.sh: rolled back to $OLD, but it does not come up either;" \
                         "see journalctl -u labyrinth-kiosk -b" >&2
                fi
            else
                echo "install.sh: the kiosk does not come up; see journalctl -u labyrinth-kiosk -b" >&2
            fi
            exit 1
        fi
        echo "release $(current_release) runs; follow it with: journalctl -u labyrinth-kiosk -f"
    else
        sysd restart "$UNIT"
    fi
else
    echo "not started (--no-start); it starts at the next boot"
fi
prune_releases
say "done"
