"""Shared fixtures. Builds use a temporary cache shared by the session, never the repo's .cache/."""

from __future__ import annotations

from pathlib import Path

import pytest
from site_build import BuiltSite, copy_package, strict_build


@pytest.fixture(scope="session")
def ae_cache(tmp_path_factory) -> Path:
    """One asset cache for the session: the real site and the fixture site share figures."""
    return tmp_path_factory.mktemp("ae-cache")


@pytest.fixture(scope="session")
def built_site(tmp_path_factory, ae_cache) -> BuiltSite:
    return strict_build(tmp_path_factory.mktemp("built") / "site", ae_cache)


@pytest.fixture
def package_copy(tmp_path) -> Path:
    """A copy of the package that a build imports first (PYTHONPATH), for editing safely."""
    return copy_package(tmp_path / "pkg")
