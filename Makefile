# The two commands a newcomer needs: `make run` and `make test`.
VENV     ?= .venv
PYTHON   ?= python3
PY       := $(VENV)/bin/python
# What the test suite needs from Debian: offscreen OpenGL (EGL + GLES + Mesa),
# Xvfb as a fallback display, socat for pseudo-terminal serial tests, a PulseAudio
# server, parec and sox for the sound tests (a null sink: no sound card needed).
APT_PACKAGES := xvfb xauth libegl1 libgles2 libgl1-mesa-dri libglu1-mesa socat fonts-dejavu-core pulseaudio pulseaudio-utils sox

.PHONY: run test bench venv system-packages clean

$(VENV)/.installed: pyproject.toml
	@$(PYTHON) -m venv $(VENV) 2>/dev/null || { \
	  echo "python3-venv missing: installing it"; \
	  apt-get update -qq && apt-get install -y -qq python3-venv && $(PYTHON) -m venv $(VENV); }
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q -e '.[test]'
	@touch $@

venv: $(VENV)/.installed

# Installs the Debian packages the suite needs when they are missing (CI runs as
# root on a fresh machine); as a normal user it only says what is missing.
system-packages:
	@missing=""; for p in $(APT_PACKAGES); do \
	  dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
	  if [ "$$(id -u)" = 0 ]; then \
	    echo "installing:$$missing"; \
	    DEBIAN_FRONTEND=noninteractive apt-get update -qq && \
	    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $$missing >/dev/null; \
	  else echo "missing Debian packages (install them as root):$$missing"; fi; fi

test: venv system-packages
	$(PY) -m pytest -q

# Starts the kiosk with simulated hardware: a window where there is a display,
# otherwise the headless mode.
run: venv
	$(VENV)/bin/labyrinth-kiosk --simulate

bench: venv
	$(PY) -m bench

clean:
	rm -rf $(VENV) build *.egg-info .pytest_cache
