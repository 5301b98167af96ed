"""The test tiers: `make test-fast` leaves out exactly the declared slow needs, every marker
is used, and a test that does something slow without its marker fails (tests/needs.py)."""

from __future__ import annotations

import re
import sys
import venv
from pathlib import Path

import needs
import pytest
from site_build import REPO, build, make_site, shared_build, strict_build

TESTS = Path(__file__).resolve().parent
unmarked = pytest.raises(pytest.fail.Exception, match=r"mark it @pytest\.mark\.")


def test_the_declared_markers_are_the_slow_needs():
    pyproject = (REPO / "pyproject.toml").read_text("utf-8")  # tomllib needs Python 3.11
    block = re.search(r"^markers = \[\n(.*?)^\]", pyproject, re.M | re.S).group(1)
    declared = re.findall(r'^\s*"(\w+):', block, re.M)
    assert sorted(declared) == sorted(needs.MARKERS)
    assert re.search(r'^addopts = ".*--strict-markers', pyproject, re.M)


def test_make_test_fast_deselects_every_slow_need_and_make_test_nothing():
    makefile = (REPO / "Makefile").read_text("utf-8")
    assert re.search(r"^FAST := (.+)$", makefile, re.M).group(1) == needs.FAST
    fast = re.search(r"^test-fast:.*\n((?:\t.*\n)+)", makefile, re.M).group(1)
    assert '-m pytest -m "$(FAST)"' in fast
    assert re.search(r"^SITE := (.+)$", makefile, re.M).group(1) == needs.SITE
    site = re.search(r"^test-site:.*\n((?:\t.*\n)+)", makefile, re.M).group(1)
    assert '-m pytest -m "$(SITE)"' in site
    full = re.search(r"^test:.*\n((?:\t.*\n)+)", makefile, re.M).group(1)
    # everything, as CI runs it, on every core (the 25 slowest tests printed at the end)
    assert full.strip() == "$(PY) -m pytest -n auto --dist loadfile --durations=25"


@pytest.mark.parametrize("marker", sorted(needs.MARKERS))
def test_every_marker_is_used(marker):
    sources = [p for p in TESTS.glob("test_*.py") if p.name != Path(__file__).name]
    users = [p.name for p in sources if f"pytest.mark.{marker}" in p.read_text("utf-8")]
    assert users, f"no test is marked {marker}"


def test_an_unmarked_test_that_builds_a_site_fails(tmp_path):
    for builds in (
        lambda: make_site(tmp_path / "a", tmp_path / "cache"),
        lambda: build(tmp_path),
        lambda: strict_build(tmp_path / "site", tmp_path / "cache"),
        lambda: shared_build(tmp_path / "run"),
    ):
        with unmarked:
            builds()
    assert not (tmp_path / "a").exists()  # refused before doing anything
    assert not (tmp_path / "run").exists()


def test_an_unmarked_test_that_reads_the_shared_build_fails(tmp_path):
    """conftest's built_site, where another worker of the run has built it already."""
    (tmp_path / "built" / "site").mkdir(parents=True)
    (tmp_path / "built" / "build.log").write_text("built by another worker", "utf-8")
    with unmarked:
        shared_build(tmp_path)


def test_an_unmarked_test_that_creates_a_venv_fails(tmp_path):
    with unmarked:
        venv.create(tmp_path / "venv")
    assert not (tmp_path / "venv").exists()


def test_an_unmarked_test_that_asks_for_a_browser_fails(request):
    with unmarked:
        request.getfixturevalue("browser")


@pytest.mark.site
def test_a_marked_test_may_do_what_its_marker_says():
    needs.require("site")  # no failure
    with unmarked:
        needs.require("grid")


def test_a_full_grid_needs_its_marker_and_a_reduced_one_does_not(tmp_path, monkeypatch):
    """The guard wraps a grid function as its module is imported, as it does for training
    and after_training (importing those here would load TensorFlow)."""
    (tmp_path / "fake_grid.py").write_text(
        "def run(dks=(16, 128, 1024), seeds=(0, 1, 2), *, steps=300):\n    return 'ran'\n",
        "utf-8",
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setattr(
        sys,
        "meta_path",
        [needs.GuardGrids({"fake_grid": ("run", ("dks", "seeds", "steps"))}), *sys.meta_path],
    )
    monkeypatch.delitem(sys.modules, "fake_grid", raising=False)
    import fake_grid

    assert fake_grid.run(dks=(16,)) == fake_grid.run((16, 128, 1024), steps=30) == "ran"
    with pytest.raises(TypeError):  # refused for its arguments: no grid ran, no marker needed
        fake_grid.run(width=3)
    for full in ({}, {"seeds": (7, 8, 9)}, {"dks": [1, 2, 3], "steps": 300}):
        with unmarked:
            fake_grid.run(**full)


def test_the_real_grid_functions_are_the_ones_guarded():
    """GRIDS names functions and size arguments that exist (read from the source, without
    importing TensorFlow)."""
    for module, (function, sizes) in needs.GRIDS.items():
        source = (REPO / (module.replace(".", "/") + ".py")).read_text("utf-8")
        head = re.search(rf"^def {function}\((.*?)\)\s*->", source, re.M | re.S)
        assert head, f"{module}.{function} not found"
        for size in sizes:
            assert re.search(rf"\b{size}\s*:", head.group(1)), f"{module}.{function}({size})"
    assert isinstance(sys.meta_path[0], needs.GuardGrids)
