"""``python -m attention_explained assets build``: every asset into the cache, with a manifest,
and no MkDocs. Run as a user runs it, in a subprocess: the cold run is the one the run's shared
build made (``built_site``), the later runs go into a copy of its cache."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from site_build import DOCS, asset_step

from attention_explained.figures import FIGURE_IDS
from attention_explained.settings import LANGS

# The cold run is the run's shared build's asset step (site_build.shared_build, as `make build`
# runs it): every number, figure and notebook, in a subprocess.
pytestmark = [pytest.mark.grid, pytest.mark.site]
NOTEBOOKS = sorted(p.relative_to(DOCS).as_posix() for p in DOCS.glob("notebooks/*.md"))


def assets_build(cache: Path, *options: str, pythonpath: Path | None = None):
    return asset_step(cache, *options, pythonpath=pythonpath)


def read_manifest(cache: Path) -> dict:
    return json.loads((cache / "manifest.json").read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def cold(built_site, tmp_path_factory):
    """The shared build's cold asset step: what it imported and printed, and a copy of its
    cache (the later runs here write into the copy, never into the shared build's)."""
    cache = tmp_path_factory.mktemp("assets") / "cache"
    shutil.copytree(built_site.cache, cache)
    record = built_site.asset_step()
    return cache, record["imported"], record["log"], read_manifest(cache)


def test_the_asset_step_imports_no_mkdocs(cold):
    _, imported, _, _ = cold
    assert imported == []


def test_a_cold_run_computes_everything_and_the_manifest_names_what_exists(cold):
    cache, _, _, manifest = cold
    computed = manifest["computed"]
    assert {k: v for k, v in computed.items() if k != "notebooks"} == {
        "figures": list(FIGURE_IDS),
        "data": True,
        "claims": True,
    }
    # the notebooks were executed (a page whose code another has run is not run again)
    assert computed["notebooks"] and set(computed["notebooks"]) <= set(NOTEBOOKS)
    assert sorted(manifest["notebooks"]) == NOTEBOOKS
    paths = [manifest[kind] for kind in ("numbers", "values", "explorer", "claims")]
    paths += manifest["notebooks"].values()
    assert sorted(manifest["languages"]) == sorted(LANGS)
    for lang, entry in manifest["languages"].items():
        paths.append(entry["numbers"])
        assert sorted(entry["figures"]) == sorted(FIGURE_IDS), lang
        for figure_id, files in entry["figures"].items():
            assert {"light", "dark", "card"} <= set(files), figure_id
            paths.extend(files.values())
    missing = [p for p in paths if not (cache / p).is_file()]
    assert missing == []
    numbers = json.loads((cache / manifest["numbers"]).read_text(encoding="utf-8"))
    assert numbers["after.d_model"] == "16"  # settings.py's after-training width, printed
    verdicts = json.loads((cache / manifest["claims"]).read_text(encoding="utf-8"))
    assert verdicts and all("holds" in v for v in verdicts.values())


def test_a_second_run_with_nothing_changed_computes_nothing(cold):
    cache, _, _, first = cold
    imported, log = assets_build(cache, "--docs", str(DOCS))
    second = read_manifest(cache)
    assert second["computed"] == {"figures": [], "data": False, "claims": False, "notebooks": []}
    assert "0 of" in log and "numbers cached, claims cached" in log
    assert {k: v for k, v in second.items() if k != "computed"} == {
        k: v for k, v in first.items() if k != "computed"
    }
    assert imported == []


def test_an_edited_figure_is_the_only_thing_computed_again(cold, tmp_path, package_copy):
    cache, _, _, first = cold
    module = package_copy / "attention_explained/figures/temperature.py"
    module.write_text(module.read_text(encoding="utf-8") + "\n# touched\n", encoding="utf-8")
    assets_build(cache, "--no-notebooks", pythonpath=package_copy)
    manifest = read_manifest(cache)
    computed = {"figures": ["temperature"], "data": False, "claims": False, "notebooks": []}
    assert manifest["computed"] == computed
    assert manifest["keys"]["figures"]["temperature"] != first["keys"]["figures"]["temperature"]
    for lang in LANGS:
        for path in manifest["languages"][lang]["figures"]["temperature"].values():
            assert (cache / path).is_file()
