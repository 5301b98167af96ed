"""The fixture site also builds with ProperDocs, the maintained fork of MkDocs 1.6 (README).

ProperDocs installs beside mkdocs in the same venv: its package is ``properdocs``, and it
points ``mkdocs.*`` imports at itself only inside its own process, so Material,
mkdocs-static-i18n and this plugin load unchanged. Both languages must come out as the
MkDocs build makes them: figures, numbers, no warning.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest
from site_build import make_site

from attention_explained.sitebuild._internal.cache import AssetCache

pytestmark = pytest.mark.site


@pytest.fixture(scope="module")
def properdocs_site(tmp_path_factory, ae_cache):
    root = make_site(tmp_path_factory.mktemp("properdocs"), ae_cache)
    result = subprocess.run(
        [sys.executable, "-m", "properdocs", "build", "--strict", "-f", "mkdocs.yml"],
        cwd=root,
        capture_output=True,
        text=True,
        check=False,
        env=dict(os.environ, NO_MKDOCS_2_WARNING="1"),
    )
    assert result.returncode == 0, result.stderr[-4000:]
    return root / "site", result.stderr


def test_properdocs_is_what_built_it(properdocs_site):
    """Material's generator tag names the MkDocs it ran under: ProperDocs says so."""
    from importlib.metadata import version

    site, _ = properdocs_site
    html = (site / "index.html").read_text(encoding="utf-8")
    assert f'content="mkdocs-ProperDocs {version("properdocs")}, mkdocs-material' in html


def test_both_languages_are_built_with_figures_and_numbers(properdocs_site, ae_cache):
    site, log = properdocs_site
    assert "WARNING" not in log, log
    numbers = json.loads(AssetCache(ae_cache).numbers_path.read_text(encoding="utf-8"))
    for page, lang in (("index.html", "ko"), ("en/index.html", "en")):
        html = (site / page).read_text(encoding="utf-8")
        assert f'<html lang="{lang}"' in html
        assert "{{" not in html and numbers["std.measured.d1024"] in html
        figure = (site / page).parent / "figures" / "logit-variance.svg"
        cached = AssetCache(ae_cache).figure_path("logit-variance", lang, "light")
        assert figure.read_bytes() == cached.read_bytes()
    assert (site / "search" / "search_index.json").is_file()
