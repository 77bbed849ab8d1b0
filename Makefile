# The two commands a newcomer needs: `make run` and `make test`.
VENV     ?= .venv
PYTHON   ?= python3
PY       := $(VENV)/bin/python
# The SD-card image's file-system tools (sfdisk, mkfs.vfat, mtools, mke2fs): files, no loop device.
IMAGE_FS_TOOLS := fdisk dosfstools mtools e2fsprogs
# What the test suite needs from Debian: offscreen OpenGL (EGL + GLES + Mesa),
# Xvfb as a fallback display, socat for pseudo-terminal serial tests; pip for
# the release venvs of the offline-update test (install.sh uses the system's
# pip, as on the Pi), systemd-analyze and libseccomp for the unit's checks; Andika, the
# literacy typeface the screens use; a
# PulseAudio server, parec and sox for the sound tests (a null sink: no sound card); the image's
# file-system tools for its assembly test; Noto Color Emoji and rsvg-convert, the sources of the
# built-in pictures, for the test that they match a fresh rendering (kiosk/ui/art/make_pictures.py).
APT_PACKAGES := xvfb xauth libegl1 libgles2 libgl1-mesa-dri libglu1-mesa socat fonts-dejavu-core fonts-sil-andika \
                python3-pip systemd libseccomp2 pulseaudio pulseaudio-utils sox $(IMAGE_FS_TOOLS) \
                fonts-noto-color-emoji librsvg2-bin
# What `make image` needs: those file-system tools, mmdebstrap and qemu-user for the arm64 root
# (as arm64-check, which installs them itself), systemd-nspawn for the booted check of its root.
IMAGE_PACKAGES := $(IMAGE_FS_TOOLS) mmdebstrap arch-test qemu-user-static binfmt-support systemd-container

# Type-checked with mypy: the whole tree (a new file is checked too).
TYPED   := engine hardware bench kiosk
# Type-checked with mypy --strict, with no error allowed.
STRICT  := engine hardware kiosk/core kiosk/store kiosk/tools kiosk/ui/kit kiosk/ui/shell kiosk/ui/overlays
# The errors `mypy --strict` finds in kiosk/: a ratchet that may only fall. lint fails when
# there are more, and when there are fewer until this count is lowered to what was found.
KIOSK_STRICT_ERRORS := 654

.PHONY: run test lint bench bundle arm64-check image venv system-packages clean

# kiosk/version.py: the installed metadata carries the version (--version reads it), so a new
# version reinstalls the package.
$(VENV)/.installed: pyproject.toml kiosk/version.py
	@$(PYTHON) -m venv $(VENV) 2>/dev/null || { \
	  echo "python3-venv missing: installing it"; \
	  apt-get update -qq && apt-get install -y -qq python3-venv && $(PYTHON) -m venv $(VENV); }
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q -e '.[test]'
	@touch $@

venv: $(VENV)/.installed

# Installs the Debian packages the suite needs when they are missing (CI runs as
# root on a fresh machine); as a normal user it only says what is missing.
# `make system-packages APT_PACKAGES="..."` does the same for another list (make image).
system-packages:
	@missing=""; for p in $(APT_PACKAGES); do \
	  dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
	  if [ "$$(id -u)" = 0 ]; then \
	    echo "installing:$$missing"; \
	    DEBIAN_FRONTEND=noninteractive apt-get update -qq && \
	    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $$missing >/dev/null; \
	  else echo "missing Debian packages (install them as root):$$missing"; fi; fi

# ruff (pyproject.toml [tool.ruff]) on the whole tree, its formatter's check, mypy on $(TYPED),
# mypy --strict on $(STRICT), and the kiosk's count of --strict errors against its ratchet.
lint: venv
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/mypy --follow-imports=silent $(TYPED)
	$(VENV)/bin/mypy --strict --follow-imports=silent $(STRICT)
	@out=$$($(VENV)/bin/mypy --strict --follow-imports=silent kiosk | tail -n 1); \
	case "$$out" in \
	  Success:*) found=0 ;; \
	  Found*) found=$$(echo "$$out" | cut -d' ' -f2) ;; \
	  *) echo "mypy --strict kiosk gave no count: $$out"; exit 1 ;; \
	esac; \
	if [ "$$found" -gt $(KIOSK_STRICT_ERRORS) ]; then \
	  echo "mypy --strict kiosk: $$found errors, more than the $(KIOSK_STRICT_ERRORS) recorded (KIOSK_STRICT_ERRORS in the Makefile); run it to see them"; exit 1; \
	elif [ "$$found" -lt $(KIOSK_STRICT_ERRORS) ]; then \
	  echo "mypy --strict kiosk: $$found errors, fewer than the $(KIOSK_STRICT_ERRORS) recorded: lower KIOSK_STRICT_ERRORS in the Makefile to $$found"; exit 1; \
	else echo "mypy --strict kiosk: $$found errors, as recorded (the count may only fall)"; fi

# lint first, then the tests (the engine's usage examples run as doctests: pyproject.toml testpaths),
# one worker per core, at most 8 (pytest-xdist; TEST_WORKERS=0 runs them all in this one process).
# Each module runs whole on one worker, so its module- and session-scoped fixtures (the bundles,
# the PulseAudio server, the layout audit's walk) are made once; tests/conftest.py starts the longest.
# A worker that crashes (a segfault in a driver) ends the run with its test named: restarted, its
# module's other tests were never handed out again and the run waited for them until CI's limit.
TEST_WORKERS ?= auto
test: venv system-packages lint
	$(PY) -m pytest -q -n $(TEST_WORKERS) --maxprocesses 8 --dist loadfile --no-loadscope-reorder --max-worker-restart 0

# Starts the kiosk with simulated hardware: a window where there is a display,
# otherwise the headless mode.
run: venv
	$(VENV)/bin/labyrinth-kiosk --simulate

bench: venv
	$(PY) -m bench

# The offline install bundle: dist/labyrinth-kiosk-<version>.tar.gz with every
# wheel and a manifest of hashes (docs/install.md, "Offline install").
bundle: venv
	PYTHON=$(PY) bash systemd/make-bundle.sh

# The kiosk on Debian arm64 under qemu-user, installed from that bundle with no network as on a
# Pi (systemd/arm64-check.py says what it checks): `make arm64-check SUITE=bookworm` for Raspberry
# Pi OS's Legacy base, trixie (today's) by default. Needs root and binfmt_misc, else it says in one
# line that it was skipped; the arm64 root file systems are cached in /var/cache/labyrinth-kiosk.
VERSION := $(shell sed -n 's/^__version__ = "\(.*\)"$$/\1/p' kiosk/version.py)
SUITE ?= trixie
arm64-check: bundle
	SUITE=$(SUITE) $(PY) systemd/arm64-check.py dist/labyrinth-kiosk-$(VERSION).tar.gz

# A Raspberry Pi 4 SD-card image, dist/labyrinth-kiosk-<version>-rpi4.img, from Debian packages
# only: the arm64 root of arm64-check (cached), Debian's kernel and Pi firmware, the kiosk installed
# from the bundle with no network; its root booted under systemd-nspawn to the kiosk running, then
# the partitions made as files and placed with dd (no loop device). Root, binfmt_misc, ~40 min
# (docs/install.md, "An SD-card image"); not part of CI.
image: bundle
	@$(MAKE) --no-print-directory system-packages APT_PACKAGES="$(IMAGE_PACKAGES)"
	$(PY) systemd/make-image.py build dist/labyrinth-kiosk-$(VERSION).tar.gz

clean:
	rm -rf $(VENV) build dist *.egg-info .pytest_cache
