"""The slow needs of a test, the marker each one carries, and the checks that it does.

``make test-fast`` deselects ``site``, ``browser``, ``venv`` and ``grid``; it stays fast only
if every test that builds a site, launches Chromium, creates a virtual environment or runs a
full experiment grid says so. So the helpers and fixtures that do those things call
:func:`require`, which fails the test that asked without its marker: ``site_build`` (every
build), conftest's ``browser`` fixture, and :func:`install`'s guards on ``venv`` and on the
grid functions. A grid or a build run in a subprocess is not seen: mark those by hand.
"""

from __future__ import annotations

import functools
import importlib.abc
import importlib.machinery
import inspect
import sys
import venv

import pytest

MARKERS = {
    "site": "builds a site with MkDocs (the real one or tests/fixture_site)",
    "browser": "launches Chromium",
    "venv": "creates a fresh virtual environment",
    "grid": "runs a full experiment grid (the numbers the site quotes)",
}
FAST = "not (" + " or ".join(MARKERS) + ")"  # the Makefile's test-fast selection
# the Makefile's test-site selection: the site builds without the other slow needs
SITE = "site and not (" + " or ".join(m for m in MARKERS if m != "site") + ")"

GRIDS = {  # module → (its grid function, the arguments that size the grid)
    "attention_explained.training": ("run_grid", ("dks", "seeds", "steps")),
    "attention_explained.after_training": (
        "run",
        ("sweep_dks", "spread_dks", "learning_rates", "seeds", "steps"),
    ),
}

running: list[pytest.Item] = []  # the test being set up, run or torn down (conftest.py)


def require(marker: str) -> None:
    """Fail the running test unless it is marked ``marker`` (outside a test: nothing)."""
    if running and running[-1].get_closest_marker(marker) is None:
        pytest.fail(
            f"{running[-1].nodeid} {MARKERS[marker]}: mark it @pytest.mark.{marker} "
            f"(or `pytestmark = pytest.mark.{marker}`) so that `make test-fast` leaves it out",
            pytrace=False,
        )


def guard_grid(function, sizes: tuple[str, ...]):
    """``function``, requiring the ``grid`` marker once it has run, unless one of the
    arguments ``sizes`` made the grid smaller than its default (fewer widths, seeds or
    steps): a call that costs what the site's numbers cost is a grid test, whatever its
    seeds. (Checked after the run, so that a call refused for its arguments passes.)"""
    signature = inspect.signature(function)
    defaults = {name: signature.parameters[name].default for name in sizes}

    def size(value) -> float:
        return len(tuple(value)) if isinstance(value, (tuple, list, range)) else value

    @functools.wraps(function)
    def guarded(*args, **kwargs):
        result = function(*args, **kwargs)  # bad arguments raise first: no grid has run
        given = signature.bind_partial(*args, **kwargs).arguments
        if not any(n in given and size(given[n]) < size(defaults[n]) for n in sizes):
            require("grid")
        return result

    return guarded


class GuardGrids(importlib.abc.MetaPathFinder):
    """Wraps each grid function as its module is imported (importing the modules up front
    would load TensorFlow into every test session, fast or not)."""

    def __init__(self, grids: dict[str, tuple[str, tuple[str, ...]]]):
        self.grids = grids

    def find_spec(self, name, path, target=None):
        if name not in self.grids:
            return None
        spec = importlib.machinery.PathFinder.find_spec(name, path)
        if spec is None or spec.loader is None:
            return spec
        execute = spec.loader.exec_module
        function, sizes = self.grids[name]

        def exec_module(module):
            execute(module)
            setattr(module, function, guard_grid(getattr(module, function), sizes))

        spec.loader.exec_module = exec_module
        return spec


def install() -> None:
    """Guard the grid functions and venv creation for this test session (conftest.py)."""
    loaded = sorted(set(GRIDS) & set(sys.modules))
    assert not loaded, f"{loaded} imported before the grid guard was installed"
    sys.meta_path.insert(0, GuardGrids(GRIDS))
    create = venv.EnvBuilder.create

    @functools.wraps(create)
    def guarded_create(self, env_dir):
        require("venv")
        return create(self, env_dir)

    venv.EnvBuilder.create = guarded_create
