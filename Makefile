# NoiseTagging engine: set-up, build, test and demo on Debian.
#   make demo   installs what is missing, builds, runs the demo
#   make test   installs what is missing, runs every test (Swift and Python interop)
SHELL := /bin/bash
.DEFAULT_GOAL := demo

APT_PACKAGES := libzmq3-dev libfftw3-dev libopenblas-dev pkg-config tmux python3 python3-pip
PYTHON ?= python3
SUDO := $(shell [ "$$(id -u)" -eq 0 ] || echo sudo)
SWIFT ?= swift

.PHONY: demo test build release system-deps python-deps bench clean

# Debian packages, installed only when one is missing; Java (MindAffect's hub, in the
# interop tests), iproute2 (its loopback-only network namespace) and a headless browser
# (the session report is opened in one) only when their commands are.
system-deps:
	@missing=""; for p in $(APT_PACKAGES); do \
	  dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q "install ok installed" || missing="$$missing $$p"; \
	done; \
	command -v java >/dev/null || missing="$$missing default-jre-headless"; \
	command -v ip >/dev/null || missing="$$missing iproute2"; \
	command -v chromium >/dev/null || missing="$$missing chromium"; \
	if [ -n "$$missing" ]; then \
	  echo "installing Debian packages:$$missing"; \
	  $(SUDO) apt-get update && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y $$missing; \
	fi

# Python peers for the interop tests and the comparison benchmarks.
python-deps: system-deps
	@$(PYTHON) -c "import mindaffectBCI.utopiaclient" 2>/dev/null || $(PYTHON) -m pip install --no-deps mindaffectBCI==0.9.24
	@$(PYTHON) -c "import zmq" 2>/dev/null || $(PYTHON) -m pip install pyzmq
	@$(PYTHON) -c "import numpy, scipy" 2>/dev/null || $(PYTHON) -m pip install numpy scipy
	@$(PYTHON) -c "import pyntbci; assert pyntbci.__version__ == '1.9.0'" 2>/dev/null || $(PYTHON) -m pip install pyntbci==1.9.0
	@$(PYTHON) -c "import pytest" 2>/dev/null || $(PYTHON) -m pip install pytest
	@$(PYTHON) -c "import xdist" 2>/dev/null || $(PYTHON) -m pip install pytest-xdist
	@$(PYTHON) -c "import brainflow" 2>/dev/null || $(PYTHON) -m pip install brainflow
	@$(PYTHON) -c "import pylsl" 2>/dev/null || $(PYTHON) -m pip install pylsl
	@$(PYTHON) -c "import pyxdf" 2>/dev/null || $(PYTHON) -m pip install pyxdf
	@$(PYTHON) -c "import mne" 2>/dev/null || $(PYTHON) -m pip install mne
	@$(PYTHON) -c "import mne_bids" 2>/dev/null || $(PYTHON) -m pip install mne-bids
	@$(PYTHON) -c "import jsonschema" 2>/dev/null || $(PYTHON) -m pip install jsonschema

build: system-deps
	$(SWIFT) build

release: system-deps
	$(SWIFT) build -c release

# The full-screen demo in a terminal; without one (stdin or stdout not a tty) the headless walk-through.
demo: release
	@bin="$$($(SWIFT) build -c release --show-bin-path)/noisetag"; \
	if [ -t 0 ] && [ -t 1 ]; then "$$bin" demo; \
	else echo "make demo: no terminal here (standard input or output is not a tty): running noisetag demo --headless instead"; \
	  "$$bin" demo --headless; fi

# One optimised build for both suites: the Swift tests (decoding is heavy, and its
# tests run 8 times faster optimised) and the release noisetag the interop tests run.
# NOISETAG_TESTS=all adds the Swift tests tagged sockets, processes, realTime and heavy
# (Tests/TestSupport) to the pure suite that a plain `swift test` runs.
TESTING = -c release -Xswiftc -enable-testing
# The interop tests mostly wait on real-time runs (their processes use three
# quarters of one core), so three workers run them side by side, even on two
# cores: one file per group, and the three files that share the demo-session
# fixture in one group (Tests/Interop/conftest.py). 6 min instead of 8 with two.
INTEROP_WORKERS = -n 3 --dist loadgroup

test: system-deps python-deps
	$(SWIFT) build $(TESTING) --build-tests
	NOISETAG_TESTS=all $(SWIFT) test $(TESTING) --skip-build
	@if ls Tests/Interop/test_*.py >/dev/null 2>&1; then \
	  NOISETAG_BIN="$$($(SWIFT) build $(TESTING) --show-bin-path)/noisetag" $(PYTHON) -m pytest -q $(INTEROP_WORKERS) Tests/Interop; \
	fi

clean:
	rm -rf .build
