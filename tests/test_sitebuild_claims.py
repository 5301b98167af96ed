"""sitebuild/_internal/claims.py: the verdicts are keyed apart from the experiments, and a check
that
raises stops the build naming its claim.

The proof counts experiment runs: ``content/data.py`` appends a line to
``$ATTENTION_EXPLAINED_EXPERIMENT_LOG`` each time a training grid actually runs.
"""

from __future__ import annotations

import json

import pytest
from site_build import build, make_site

from attention_explained.content import pages, registry
from attention_explained.content.data import EXPERIMENT_LOG
from attention_explained.sitebuild._internal import claims
from attention_explained.sitebuild._internal.cache import AssetCache
from attention_explained.sitebuild.keys import ImportGraph

CLAIM = "figures.logit_variance_on_theory"  # what the fixture page's figure's alt text states
CHECK = 'return v["figures.variance_max_rel_dev"] < 0.1'
NUMBER = 'out["figures.variance_max_rel_dev"] = Number(worst, ".3f")'


@pytest.mark.site
@pytest.mark.grid
def test_a_claim_or_number_edit_reruns_no_experiment_and_an_experiment_edit_reruns_it(
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

    def numbers() -> dict:
        return AssetCache(
            ae_cache, ImportGraph(package_copy / "attention_explained")
        ).load_numbers()

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

    # A number's code: the numbers are made again, but no grid experiment: each is kept in
    # the cache under its own code (sitebuild/_internal/experiments.py).
    module.write_text(source.replace(NUMBER, NUMBER + "\n    out['figures.extra'] = '1'"), "utf-8")
    rerun = build(root, pythonpath=package_copy)
    assert rerun.returncode == 0, rerun.stderr
    assert numbers()["figures.extra"] == "1"  # the numbers were made again
    assert runs() == before

    # The code of one experiment: that one runs again, and only it (initialisation.py is
    # imported by no other experiment).
    init = package_copy / "attention_explained/initialisation.py"
    init.write_text(init.read_text(encoding="utf-8") + "\n_EDITED_BY_TEST = 1\n", "utf-8")
    edited = build(root, pythonpath=package_copy)
    assert edited.returncode == 0, edited.stderr
    assert runs()[len(before) :] == ["initialisation"]


def _ratio_beats_one(v):
    return v["x.a"] / v["x.b"] > 1


def test_the_judge_names_a_check_that_raises_in_one_line(tmp_path, monkeypatch, capsys):
    """The build's judge (``python -m attention_explained.sitebuild._internal.claims``)
    in-process."""
    spec = registry.Claim("x.ratio", "a beats b", _ratio_beats_one, {"x.a": 0.0})
    monkeypatch.setattr(pages, "registered", lambda: {spec.name: spec})
    values = tmp_path / "values.json"
    values.write_text(json.dumps({"x.a": 1.0, "x.b": 0.0}), encoding="utf-8")
    assert claims.main([str(values)]) == claims.JUDGING_FAILED
    captured = capsys.readouterr()
    assert captured.out == ""  # no verdicts: nothing for the build to cache
    assert captured.err.startswith(
        f"claim 'x.ratio': its check {__name__}._ratio_beats_one raised ZeroDivisionError at line"
    )
    assert len(captured.err.splitlines()) == 1


@pytest.mark.site
@pytest.mark.grid  # the first build makes the numbers (warm after the test above it)
def test_a_check_that_raises_fails_the_build_naming_the_claim_and_its_module(
    tmp_path, ae_cache, package_copy, monkeypatch
):
    log = tmp_path / "experiments.log"
    monkeypatch.setenv(EXPERIMENT_LOG, str(log))
    root = make_site(tmp_path / "site", ae_cache)
    first = build(root, pythonpath=package_copy)
    assert first.returncode == 0, first.stderr
    module = package_copy / "attention_explained/content/figures.py"
    source = module.read_text(encoding="utf-8")
    before = log.read_text(encoding="utf-8") if log.exists() else ""
    raising = CHECK.replace("< 0.1", "/ 0 < 0.1")  # ZeroDivisionError
    module.write_text(source.replace(CHECK, raising), "utf-8")
    line = source[: source.index(CHECK)].count("\n") + 1

    failed = build(root, pythonpath=package_copy)
    assert failed.returncode != 0
    # the asset step judges the claims now; the plugin reports its error under its own name
    assert "attention-explained: the asset step failed:" in failed.stderr, failed.stderr[-3000:]
    assert (
        f"judging the claims failed: claim '{CLAIM}': its check "
        f"attention_explained.content.figures."
    ) in failed.stderr, failed.stderr[-3000:]
    assert f"raised ZeroDivisionError at line {line} of attention_explained.content.figures: " in (
        failed.stderr
    )
    assert "Traceback" not in failed.stdout + failed.stderr, failed.stderr[-3000:]
    assert "Aborted with a BuildError" in failed.stdout  # MkDocs' own stop, not a crash
    assert (log.read_text(encoding="utf-8") if log.exists() else "") == before
