#!/bin/bash
# Build the offline bundle of the Labyrinth kiosk: one archive with the
# kiosk's wheel, every Python dependency as a wheel, the installer, the unit
# and the example configuration, and a manifest of SHA-256 hashes.
#
#   make bundle                               -> dist/labyrinth-kiosk-<version>.tar.gz
#   systemd/make-bundle.sh --out DIR          write the archive to DIR
#   systemd/make-bundle.sh --wheels-from DIR  take the dependency wheels from DIR
#                                             (e.g. an unpacked earlier bundle) instead of the index
#
# Needs the network (or pip's cache) once, here; the Pi that installs the
# bundle needs none (install.sh --bundle FILE, see docs/install.md).
#
# All dependencies are pure Python (pyglet, gpiozero, colorzero, pyserial):
# their wheels are "py3-none-any" and work on the Pi's arm64 as on the
# machine that builds the bundle; the download insists on that (--platform
# any), so a dependency that ever needs a compiled wheel stops the build
# instead of giving a bundle the Pi cannot use. lgpio is compiled: on
# Raspberry Pi OS it comes from the apt package python3-lgpio (the release
# venvs see it through --system-site-packages); for plain Debian the bundle
# carries its arm64 wheels (for the Pythons install.sh's LGPIO_WHEELS names:
# 3.11, bookworm's, and 3.12; PyPI has none for trixie's 3.13) apart, in wheels-pi/
# (the version of pyproject.toml's "pi" extra), which install.sh installs only
# where python3-lgpio is missing.
set -euo pipefail

usage() { sed -n '2,13p' "$0" | sed 's/^# \{0,1\}//'; }

SRC="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
OUT="$SRC/dist"
WHEELS_FROM=""
PY="${PYTHON:-python3}"
while [ $# -gt 0 ]; do
    case "$1" in
        --out) [ $# -ge 2 ] || { echo "make-bundle.sh: --out needs a directory" >&2; exit 2; }; OUT="$2"; shift ;;
        --wheels-from) [ $# -ge 2 ] || { echo "make-bundle.sh: --wheels-from needs a directory" >&2; exit 2; }
                       WHEELS_FROM="$2"; shift ;;
        --python) [ $# -ge 2 ] || { echo "make-bundle.sh: --python needs a program" >&2; exit 2; }; PY="$2"; shift ;;
        -h|--help) usage; exit 0 ;;
        *) echo "make-bundle.sh: unknown option $1" >&2; usage >&2; exit 2 ;;
    esac
    shift
done

VERSION="$(sed -n 's/^__version__ = "\([^"]*\)"$/\1/p' "$SRC/kiosk/version.py")"
[ -n "$VERSION" ] || { echo "make-bundle.sh: no __version__ in $SRC/kiosk/version.py" >&2; exit 1; }
NAME="labyrinth-kiosk-$VERSION"
WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT
B="$WORK/$NAME"
mkdir -p "$B/wheels" "$B/systemd" "$OUT"

# 1. The kiosk's wheel, built from a clean copy of the source (a stale build/
#    folder in the checkout must not leak old files into the wheel).
echo "==> wheel of labyrinth-kiosk $VERSION"
mkdir "$WORK/src"
tar -C "$SRC" --exclude=./.venv --exclude=./.git --exclude=./build --exclude=./dist \
    --exclude='*.egg-info' --exclude=__pycache__ --exclude=.pytest_cache --exclude=.hypothesis \
    -cf - . | tar -C "$WORK/src" -xf -
# No build isolation when the builder has setuptools and wheel (fast, offline);
# otherwise pip fetches them into an isolated build environment.
ISOLATION="--no-build-isolation"
"$PY" -c 'import setuptools, wheel, sys; sys.exit(int(setuptools.__version__.split(".")[0]) < 77)' \
    2>/dev/null || ISOLATION=""
"$PY" -m pip wheel --quiet --no-deps $ISOLATION --wheel-dir "$B/wheels" "$WORK/src"
KIOSK_WHEEL="$(ls "$B/wheels"/labyrinth_kiosk-*.whl)"

# 2. The dependencies, pure-Python wheels only.
echo "==> dependency wheels"
if [ -n "$WHEELS_FROM" ]; then
    find "$WHEELS_FROM" -maxdepth 2 -name '*.whl' ! -name 'labyrinth_kiosk-*' ! -name 'lgpio-*' -exec cp {} "$B/wheels/" \;
    "$PY" -m pip download --quiet --no-index --find-links "$B/wheels" --only-binary=:all: \
        --platform any --implementation py --abi none --python-version 3.11 \
        --dest "$WORK/check" "$KIOSK_WHEEL" >/dev/null \
        || { echo "make-bundle.sh: the wheels in $WHEELS_FROM do not satisfy the kiosk's dependencies" >&2; exit 1; }
else
    "$PY" -m pip download --quiet --only-binary=:all: --platform any --implementation py --abi none \
        --python-version 3.11 --dest "$B/wheels" "$KIOSK_WHEEL"
fi

# 2b. lgpio for plain Debian arm64 (see the top): the compiled wheel for each Python that
#     install.sh's LGPIO_WHEELS names, never the empty "lgpio 0.0.0.2" (pyproject.toml's bound
#     excludes it).
echo "==> lgpio for arm64 (plain Debian)"
mkdir -p "$B/wheels-pi"
LGPIO="$("$PY" -c 'import sys, tomllib; print(*tomllib.load(open(sys.argv[1], "rb"))["project"]["optional-dependencies"]["pi"])' \
    "$SRC/pyproject.toml")"
LGPIO_WHEELS="$(sed -n 's/^LGPIO_WHEELS="\(.*\)"$/\1/p' "$SRC/systemd/install.sh")"
[ -n "$LGPIO_WHEELS" ] || { echo "make-bundle.sh: no LGPIO_WHEELS in install.sh" >&2; exit 1; }
if [ -n "$WHEELS_FROM" ]; then
    # an unpacked bundle, or its wheels/ folder with wheels-pi/ beside it
    find "$WHEELS_FROM" "$WHEELS_FROM/../wheels-pi" -maxdepth 2 -name 'lgpio-*.whl' -exec cp {} "$B/wheels-pi/" \; 2>/dev/null || true
fi
for tag in $LGPIO_WHEELS; do
    PI_PLATFORM=(--only-binary=:all: --platform manylinux_2_34_aarch64 --implementation cp --abi "$tag"
                 --python-version "${tag:2:1}.${tag:3}")
    if [ -n "$WHEELS_FROM" ]; then
        "$PY" -m pip download --quiet --no-index --find-links "$B/wheels-pi" --no-deps "${PI_PLATFORM[@]}" \
            --dest "$WORK/check-pi" "$LGPIO" >/dev/null \
            || { echo "make-bundle.sh: no arm64 wheel of $LGPIO for $tag in $WHEELS_FROM" >&2; exit 1; }
    else
        "$PY" -m pip download --quiet --no-deps "${PI_PLATFORM[@]}" --dest "$B/wheels-pi" "$LGPIO"
    fi
done

# 3. What the installer needs besides the wheels.
cp "$SRC/systemd/install.sh" "$SRC/systemd/make-bundle.sh" "$SRC/systemd/labyrinth-kiosk.service" \
   "$SRC/systemd/labyrinth-kiosk-sound.service" "$SRC/systemd/labyrinth-kiosk-sound-pipewire.conf" \
   "$SRC/systemd/pipewire-labyrinth-kiosk.conf" "$SRC/systemd/60-labyrinth-kiosk-gpio.rules" \
   "$SRC/systemd/90-labyrinth-kiosk.conf" "$SRC/systemd/labwc-autostart" "$B/systemd/"
cp "$SRC/config.example.toml" "$SRC/CHANGELOG.md" "$SRC/pyproject.toml" "$B/"

# 4. Pinned requirements with hashes (pip --require-hashes checks every wheel),
#    and the manifest of every file.
pinned() {  # pinned DIR: NAME==VERSION --hash=... for each wheel in DIR (one line, every hash)
    ( cd "$1"
      for w in *.whl; do
          dist="${w%%-*}"; rest="${w#*-}"; ver="${rest%%-*}"
          printf '%s==%s --hash=sha256:%s\n' "$dist" "$ver" "$(sha256sum "$w" | cut -d' ' -f1)"
      done ) | awk '{ if ($1 in h) h[$1] = h[$1] " " $2; else { n[++k] = $1; h[$1] = $2 } }
                    END { for (i = 1; i <= k; i++) print n[i], h[n[i]] }'
}
pinned "$B/wheels" > "$B/requirements.txt"
pinned "$B/wheels-pi" > "$B/requirements-pi.txt"
printf 'name=labyrinth-kiosk\nversion=%s\nbuilt=%s\n' "$VERSION" "$(date -u +%Y-%m-%dT%H:%M:%SZ)" > "$B/BUNDLE"
( cd "$B" && find . -type f ! -name MANIFEST.sha256 | sed 's|^\./||' | LC_ALL=C sort \
  | xargs -d '\n' sha256sum > MANIFEST.sha256 )

ARCHIVE="$OUT/$NAME.tar.gz"
tar -C "$WORK" --sort=name --owner=0 --group=0 --numeric-owner -czf "$ARCHIVE.tmp" "$NAME"
mv "$ARCHIVE.tmp" "$ARCHIVE"
echo "==> $ARCHIVE"
sed 's/ --hash=.*//' "$B/requirements.txt" | sed 's/^/    /'
