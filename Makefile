# Two commands on a fresh machine: `make serve` and `make test`.
# Each creates .venv and installs the exact versions in constraints.txt when needed.

PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed
HOST   ?= 127.0.0.1:8000

# We pin mkdocs<2 on purpose; Material (9.7 and 9.8) would otherwise print a banner about MkDocs 2.0.
export NO_MKDOCS_2_WARNING := 1

.DEFAULT_GOAL := help
.PHONY: help venv serve build build-properdocs test test-fast test-site lint figures bench pdf lock clean

help:
	@echo "make serve   build the site and serve it at http://$(HOST) (live reload; the asset watcher beside it)"
	@echo "make build   the assets (python -m attention_explained assets build), then a strict build into site/"
	@echo "make build-properdocs  the same build with ProperDocs, into site-properdocs/"
	@echo "make test    lint + the full test suite (unit, fixture site, built site, browser)"
	@echo "make test-fast lint + every test without a site build, browser, venv or full grid (< 1 min)"
	@echo "make test-site the tests that build a site (the real one, the fixture) without a browser, venv or grid"
	@echo "make lint    ruff, then the content linters (python -m attention_explained lint --pages)"
	@echo "make figures render every figure variant into .cache/cli-figures/"
	@echo "make bench   time the build against the study note's script (benchmarks/)"
	@echo "make pdf     print the PDF edition of each language from site/ into site/pdf/"
	@echo "make lock    re-resolve constraints.txt (on Python 3.11, the floor: LOCK_PYTHON)"
	@echo "make clean   remove site/, .cache/ and test artifacts (keeps .venv)"

venv: $(STAMP)

$(VENV)/bin/python:
	@$(PYTHON) -c 'import sys; assert sys.version_info >= (3, 11), "Python >= 3.11 is required, found " + sys.version.split()[0]'
	$(PYTHON) -m venv $(VENV)

# Reinstall only when the pins or the project metadata change. The installer is uv, itself
# installed into .venv from the package index at the version constraints.txt pins (much
# faster than pip: README, set-up); if uv cannot be had, pip installs the same pins.
# INSTALLER=pip forces pip.
INSTALLER ?= uv
PIP := $(PY) -m pip install --quiet --disable-pip-version-check -c constraints.txt
UV  := $(VENV)/bin/uv pip install --quiet --python $(PY) -c constraints.txt
$(STAMP): constraints.txt pyproject.toml | $(VENV)/bin/python
	@$(PY) -m pip --version >/dev/null 2>&1 || $(PY) -m ensurepip --default-pip >/dev/null
	@if [ "$(INSTALLER)" = uv ] && $(PIP) uv; then \
	  echo "installing constraints.txt with uv ($$($(VENV)/bin/uv --version))"; \
	  $(UV) setuptools wheel && $(UV) --no-build-isolation -e '.[test]'; \
	else \
	  echo "installing constraints.txt with pip"; \
	  $(PIP) setuptools wheel && $(PIP) --no-build-isolation -e '.[test]'; \
	fi
	@touch $@

# Bytecode for every installed module, once per install, for the test targets. Python writes
# it lazily on first import, except where PYTHONDONTWRITEBYTECODE is set (many container
# images set it; so does the machine the timings in tests/ were taken on): there every test
# process compiled TensorFlow's sources again, about 9 s of CPU each (importing it: 15 s of
# CPU without bytecode, 6 s with). Compiling all of site-packages takes about 30 s of CPU,
# once. A module that does not compile is Python 2 left in some package: ignored ("-").
BYTECODE := $(VENV)/.bytecode
$(BYTECODE): $(STAMP)
	-$(PY) -m compileall -q -j 0 $(VENV)/lib >/dev/null
	@touch $@

# The asset step first (figures, numbers, claims' verdicts, executed notebooks into .cache/
# with its manifest; no MkDocs), then the build, which only reads what it made. While serving,
# an edit to the package makes the assets stale again: the rebuild runs the same step before
# rendering (sitebuild/_internal/build.py, run_asset_step).
ASSETS := $(PY) -m attention_explained assets build

# serve: the asset watcher (python -m attention_explained assets watch: the asset step again
# after every change to the package or a notebook) runs beside mkdocs serve, whose rebuild on
# the same edit waits for the watcher's run (a lock in the cache); stopping serve stops the
# watcher (and a run of it).
serve: $(STAMP)
	$(ASSETS)
	@$(PY) -m attention_explained assets watch & watcher=$$!; \
	trap 'kill $$watcher 2>/dev/null' EXIT INT TERM; \
	$(PY) -m mkdocs serve --strict -a $(HOST)

build: $(STAMP)
	$(ASSETS)
	$(PY) -m mkdocs build --strict

# The same strict build with ProperDocs, the maintained fork of MkDocs 1.6 (README: the plan).
build-properdocs: $(STAMP)
	$(ASSETS)
	$(PY) -m properdocs build --strict -f mkdocs.yml --site-dir site-properdocs

# The content linters (term sheet, notation, prose) after ruff: about 3 s of CPU, most of it
# Kiwi reading the Korean lines (tests/test_terms.py runs the same command).
lint: $(BYTECODE)
	$(PY) -m ruff check .
	$(PY) -m ruff format --check .
	$(PY) -m attention_explained lint --pages

# On every core (pytest-xdist), a test file to a worker: a file's module fixtures (a browser,
# a server, the PDF editions) are set up once. The real site is built once for the run, by
# whichever worker asks first (conftest.py's built_site). --durations: the slowest tests are
# printed at the end of every run (CI's log too).
test: lint
	$(PY) -m pytest -n auto --dist loadfile --durations=25

# The markers are declared in pyproject.toml; tests/needs.py fails a test that builds a site,
# launches Chromium, creates a venv or runs a full grid without its marker.
FAST := not (site or browser or venv or grid)
test-fast: lint
	$(PY) -m pytest -m "$(FAST)" -n auto --dist loadfile --durations=10

# What CI adds to test-fast on every push (.github/workflows/ci.yml): every site build test
# that needs no browser, no venv and no full grid (tests/needs.py SITE), the real site built
# once. make test runs these too.
SITE := site and not (browser or venv or grid)
test-site: $(BYTECODE)
	$(PY) -m pytest -m "$(SITE)" -n auto --dist loadfile --durations=10

figures: $(STAMP)
	$(PY) -m attention_explained figures --out .cache/cli-figures

bench: $(STAMP)
	$(PY) benchmarks/bench.py $(BENCH_ARGS)

# Needs a built site (make build) and a system Chromium; the fonts come from pinned wheels.
pdf: $(STAMP)
	$(PY) -m attention_explained.edition.pdf --site site

LOCK_PYTHON ?= python3.11
lock:
	rm -rf .cache/lock-venv
	$(LOCK_PYTHON) -m venv .cache/lock-venv
	.cache/lock-venv/bin/pip install --quiet -U pip setuptools
	.cache/lock-venv/bin/pip install --quiet '.[test]' uv  # uv: the Makefile's installer
	rm -rf build  # setuptools' leftover of that non-editable install
	# The project itself never goes in (it would be a file:// URL); tensorflow gets the same pin
	# as tensorflow-cpu, for macOS (pyproject.toml picks one by platform).
	.cache/lock-venv/bin/pip freeze --all --exclude-editable \
	  | grep -vE '^(pip|attention.explained)( *==| @ )' > .cache/lock-freeze.txt
	{ head -n 2 constraints.txt; { cat .cache/lock-freeze.txt; \
	  sed -n 's/^tensorflow_cpu==/tensorflow==/p' .cache/lock-freeze.txt; } | sort -f; } > constraints.txt.new
	mv constraints.txt.new constraints.txt

clean:
	rm -rf site site-properdocs .cache test-artifacts benchmarks/results
