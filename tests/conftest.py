"""Shared fixtures: the one strict build of the real site that the site and browser tests read."""

from __future__ import annotations

import pytest
from site_build import BuiltSite, strict_build


@pytest.fixture(scope="session")
def built_site(tmp_path_factory) -> BuiltSite:
    return strict_build(tmp_path_factory.mktemp("built") / "site")


@pytest.fixture(scope="session")
def quantity_values() -> dict[str, float]:
    """The build's numbers, unrounded (≈ 20 s once per session): what the claims read."""
    from attention_explained import quantities

    return quantities.values()
