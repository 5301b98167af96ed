"""``python -m attention_explained assets build``: every asset into the cache, with a manifest,
and no MkDocs. Run as a user runs it, in a subprocess, into a cache of this test's own."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from attention_explained.figures import FIGURE_IDS
from attention_explained.settings import LANGS

pytestmark = pytest.mark.grid  # the cold run computes every number and figure (a subprocess)

# Runs the command, then prints which modules of MkDocs (and of the build's other engines)
# the process imported by its end.
PROBE = """\
import json, sys
from attention_explained.cli import main
code = main(sys.argv[1:])
loaded = sorted({m.split(".")[0] for m in sys.modules} & {"mkdocs", "material", "properdocs"})
print("IMPORTED " + json.dumps(loaded))
sys.exit(code)
"""


def assets_build(cache: Path, pythonpath: Path | None = None) -> tuple[list[str], str]:
    env = dict(os.environ)
    if pythonpath is not None:
        env["PYTHONPATH"] = f"{pythonpath}{os.pathsep}{env.get('PYTHONPATH', '')}"
    result = subprocess.run(
        [sys.executable, "-c", PROBE, "assets", "build", "--cache-dir", str(cache)],
        capture_output=True,
        text=True,
        check=False,
        env=env,
        cwd=cache.parent,  # not the repository: `-c` puts the working folder first on sys.path
    )
    assert result.returncode == 0, result.stderr[-4000:]
    imported = next(
        json.loads(line.removeprefix("IMPORTED "))
        for line in result.stdout.splitlines()
        if line.startswith("IMPORTED ")
    )
    return imported, result.stdout


def read_manifest(cache: Path) -> dict:
    return json.loads((cache / "manifest.json").read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def cold(tmp_path_factory):
    cache = tmp_path_factory.mktemp("assets-cache")
    imported, log = assets_build(cache)
    return cache, imported, log, read_manifest(cache)


def test_the_asset_step_imports_no_mkdocs(cold):
    _, imported, _, _ = cold
    assert imported == []


def test_a_cold_run_computes_everything_and_the_manifest_names_what_exists(cold):
    cache, _, _, manifest = cold
    computed = {"figures": list(FIGURE_IDS), "data": True, "claims": True, "notebooks": []}
    assert manifest["computed"] == computed
    paths = [manifest[kind] for kind in ("numbers", "values", "explorer", "claims")]
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
    imported, log = assets_build(cache)
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
    assets_build(cache, pythonpath=package_copy)
    manifest = read_manifest(cache)
    computed = {"figures": ["temperature"], "data": False, "claims": False, "notebooks": []}
    assert manifest["computed"] == computed
    assert manifest["keys"]["figures"]["temperature"] != first["keys"]["figures"]["temperature"]
    for lang in LANGS:
        for path in manifest["languages"][lang]["figures"]["temperature"].values():
            assert (cache / path).is_file()
