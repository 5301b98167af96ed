# Two commands on a fresh machine: `make serve` and `make test`.
# Each creates .venv and installs the exact versions in constraints.txt when needed.

PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed
HOST   ?= 127.0.0.1:8000

# We pin mkdocs<2 on purpose; Material 9.7 would otherwise print a banner about MkDocs 2.0.
export NO_MKDOCS_2_WARNING := 1

.DEFAULT_GOAL := help
.PHONY: help venv serve build test test-fast lint figures bench pdf lock clean

help:
	@echo "make serve   build the site and serve it at http://$(HOST) (live reload)"
	@echo "make build   strict build into site/"
	@echo "make test    lint + the full test suite (unit, fixture site, built site, browser)"
	@echo "make test-fast lint + every test without a site build, browser, venv or full grid (< 1 min)"
	@echo "make lint    ruff only"
	@echo "make figures render every figure variant into .cache/cli-figures/"
	@echo "make bench   time the build against the study note's script (benchmarks/)"
	@echo "make pdf     print the PDF edition of each language from site/ into site/pdf/"
	@echo "make lock    re-resolve constraints.txt (needs Python 3.10 as LOCK_PYTHON)"
	@echo "make clean   remove site/, .cache/ and test artifacts (keeps .venv)"

venv: $(STAMP)

$(VENV)/bin/python:
	@$(PYTHON) -c 'import sys; assert sys.version_info >= (3, 10), "Python >= 3.10 is required, found " + sys.version.split()[0]'
	$(PYTHON) -m venv $(VENV)

# Reinstall only when the pins or the project metadata change.
$(STAMP): constraints.txt pyproject.toml | $(VENV)/bin/python
	$(PY) -m pip install --quiet --disable-pip-version-check -c constraints.txt setuptools wheel
	$(PY) -m pip install --quiet --disable-pip-version-check -c constraints.txt --no-build-isolation -e '.[test]'
	@touch $@

serve: $(STAMP)
	$(PY) -m mkdocs serve --strict -a $(HOST)

build: $(STAMP)
	$(PY) -m mkdocs build --strict

lint: $(STAMP)
	$(PY) -m ruff check .
	$(PY) -m ruff format --check .

test: lint
	$(PY) -m pytest

# The markers are declared in pyproject.toml; tests/needs.py fails a test that builds a site,
# launches Chromium, creates a venv or runs a full grid without its marker.
FAST := not (site or browser or venv or grid)
test-fast: lint
	$(PY) -m pytest -m "$(FAST)"

figures: $(STAMP)
	$(PY) -m attention_explained figures --out .cache/cli-figures

bench: $(STAMP)
	$(PY) benchmarks/bench.py $(BENCH_ARGS)

# Needs a built site (make build) and a system Chromium; the fonts come from pinned wheels.
pdf: $(STAMP)
	$(PY) -m attention_explained.sitebuild.pdf --site site

LOCK_PYTHON ?= python3.10
lock:
	rm -rf .cache/lock-venv
	$(LOCK_PYTHON) -m venv .cache/lock-venv
	.cache/lock-venv/bin/pip install --quiet -U pip setuptools
	.cache/lock-venv/bin/pip install --quiet '.[test]'
	{ head -n 2 constraints.txt; .cache/lock-venv/bin/pip freeze --all --exclude-editable \
	  | grep -vE '^(pip|attention.explained)==' | sort -f; } > constraints.txt.new
	mv constraints.txt.new constraints.txt

clean:
	rm -rf site .cache test-artifacts benchmarks/results
