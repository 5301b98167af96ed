"""The independent rerun: every claim holds on it, and every printed number survives it.

``python -m attention_explained claims --rerun`` recomputes every experiment with seeds
disjoint from the build's and in float64 instead of float32 (attention_explained/runs.py).
A sentence about a measured result must hold there too, and a number a page prints must not
claim more precision than the experiment has. The rule, for every number a page or notebook
prints through ``{{ae:…}}`` (prose, tables, captions, alt texts written in the Markdown,
exercises' answers; a figure module's own alt text prints no number, its words are checked
by its ``ALT_CLAIMS``): rounded to the digits it is printed with, the build's number and the
rerun's share a value (``registry.agrees_at_printed_digits``). A single number must print the
same on the rerun. A range over seeds (smallest to largest single-seed value) must overlap
the rerun's range over its seeds: a rerun that lies wholly outside the printed range shows
that the range, at its digits, states a precision its seeds do not have. Where it does, the
page prints fewer digits, a range over more seeds, or a sentence that says less; never only
a looser threshold. Slow (every experiment twice): marked ``grid``, so ``make test`` runs it
and ``make test-fast`` leaves it out.
"""

from __future__ import annotations

import re

import pytest
from site_build import DOCS

from attention_explained import runs, settings
from attention_explained.content import data, pages, registry

pytestmark = pytest.mark.grid  # every experiment, twice: the build and the rerun

PLACEHOLDER = re.compile(r"\{\{ae:([^}]+)\}\}")


@pytest.fixture(scope="module")
def build() -> dict:
    with runs.using(runs.BUILD):
        return {"text": pages.measure(), "values": pages.values()}


@pytest.fixture(scope="module")
def rerun() -> dict:
    with runs.using(runs.RERUN):
        return {
            "text": pages.measure(),
            "values": pages.values(),
            "training": data.training(),
            "after": data.after_training(),
            "sweep_seeds": runs.RERUN.seeds(settings.SWEEP_SEEDS),
        }


def printed_names() -> set[str]:
    """Every number a page or notebook prints."""
    pages = [*DOCS.glob("*.md"), *DOCS.glob("notebooks/*.md")]
    return {name for page in pages for name in PLACEHOLDER.findall(page.read_text("utf-8"))}


def test_the_rerun_shares_no_seed_with_the_build_and_runs_in_float64(rerun):
    build_seeds = {*settings.TRAINING_SEEDS, *settings.AFTER_SEEDS, *settings.SWEEP_SEEDS}
    for grid in rerun["training"].values():
        assert not set(grid["seed"].tolist()) & build_seeds
        assert str(grid["dtype"]) == "float64"
    assert not set(rerun["after"]["seed"].tolist()) & build_seeds
    assert str(rerun["after"]["dtype"]) == "float64"
    assert not set(rerun["sweep_seeds"]) & build_seeds


def test_every_claim_holds_on_the_rerun(rerun):
    failing = {
        name: pages.evaluate(name, rerun["values"]).explain()
        for name in pages.registered()
        if not pages.evaluate(name, rerun["values"]).holds
    }
    assert not failing, failing


def test_every_printed_number_agrees_with_the_rerun_at_its_printed_digits(build, rerun):
    moved = []
    for name in sorted(printed_names()):
        old, new = build["text"].get(name), rerun["text"].get(name)
        assert old is not None and new is not None, f"{name} is printed but not computed"
        if not registry.agrees_at_printed_digits(old, new):
            moved.append(f"{name}: build {old}, rerun {new}")
    assert not moved, "printed digits the rerun contradicts: " + "; ".join(moved)


def test_the_claims_command_fails_when_a_claim_fails_on_the_rerun(rerun, monkeypatch, capsys):
    from attention_explained import cli

    name = "training.unscaled_still_falling"
    broken = {**rerun["values"], **pages.registered()[name].counterexample}
    monkeypatch.setattr(pages, "values", lambda: broken)
    assert cli.main(["claims", "--rerun"]) == 1
    out = capsys.readouterr().out
    assert "# run: rerun (seeds shifted by 1000, float64)" in out
    assert f"{name}  FAILS" in out and f"failing: {name}" in out
