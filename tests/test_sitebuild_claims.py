"""sitebuild/claims.py: the verdicts are keyed apart from the experiments.

The proof counts experiment runs: ``content/data.py`` appends a line to
``$ATTENTION_EXPLAINED_EXPERIMENT_LOG`` each time a training grid actually runs.
"""

from __future__ import annotations

import json

import pytest
from site_build import build, make_site

from attention_explained.content.data import EXPERIMENT_LOG
from attention_explained.sitebuild.cache import AssetCache
from attention_explained.sitebuild.keys import ImportGraph

pytestmark = [pytest.mark.site, pytest.mark.grid]  # fixture builds; a number edit reruns both grids

CLAIM = "figures.logit_variance_on_theory"  # what the fixture page's figure's alt text states
CHECK = 'return v["figures.variance_max_rel_dev"] < 0.1'
NUMBER = 'out["figures.variance_max_rel_dev"] = Number(worst, ".3f")'


def test_a_claim_edit_reruns_no_experiment_and_a_number_edit_does(
    tmp_path, ae_cache, package_copy, monkeypatch
):
    log = tmp_path / "experiments.log"
    monkeypatch.setenv(EXPERIMENT_LOG, str(log))

    def runs() -> list[str]:
        return log.read_text(encoding="utf-8").splitlines() if log.exists() else []

    def verdict() -> dict:
        graph = ImportGraph(package_copy / "attention_explained")
        path = AssetCache(ae_cache, graph).claims_path
        return json.loads(path.read_text(encoding="utf-8"))[CLAIM]

    root = make_site(tmp_path / "site", ae_cache)
    first = build(root, pythonpath=package_copy)
    assert first.returncode == 0, first.stderr
    module = package_copy / "attention_explained/content/figures.py"
    source = module.read_text(encoding="utf-8")
    assert source.count(CHECK) == 1 and source.count(NUMBER) == 1
    before = runs()

    # The check now contradicts the numbers: the build stops, naming the claim, having
    # judged it again over the cached numbers without running an experiment.
    module.write_text(source.replace(CHECK, CHECK.replace("< 0.1", "< 0.0")), "utf-8")
    failed = build(root, pythonpath=package_copy)
    assert failed.returncode != 0
    assert f"claim '{CLAIM}' does not hold" in failed.stderr, failed.stderr[-3000:]
    assert runs() == before
    assert verdict()["holds"] is False

    # Edited again (a new check that holds): judged again, it holds, still no experiment.
    module.write_text(source.replace(CHECK, CHECK + " and True"), "utf-8")
    again = build(root, pythonpath=package_copy)
    assert again.returncode == 0, again.stderr
    assert runs() == before
    assert verdict()["holds"] is True

    # A number's code: the numbers are made again, and with them both training grids.
    module.write_text(source.replace(NUMBER, NUMBER + "\n    out['figures.extra'] = '1'"), "utf-8")
    rerun = build(root, pythonpath=package_copy)
    assert rerun.returncode == 0, rerun.stderr
    assert sorted(runs()[len(before) :]) == ["after-training", "training"]
