"""Every page's claims: each holds on the real numbers, fails on its counterexample, is marked
on a page in both languages; and the page-marker check that stops a false sentence."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from site_build import LANGS, sources

from attention_explained.content import pages as claims
from attention_explained.content.registry import HIGH, LOW
from attention_explained.figures.strings import all_alt_claims
from attention_explained.sitebuild._internal.claims import CLAIM_MARKER, ClaimError, check_claims

ALT_CLAIMS = all_alt_claims()


def test_marker_of_a_false_claim_names_claim_and_page():
    verdicts = {"a.b": {"holds": False, "statement": "A beats B", "numbers": {"x": 1.0}}}
    with pytest.raises(ClaimError, match=r"page\.md: claim 'a\.b' does not hold: A beats B"):
        check_claims("It does. <!-- claim: a.b -->", verdicts, "page.md")


def test_unknown_marker_fails_and_true_marker_is_removed():
    verdicts = {"a.b": {"holds": True, "statement": "s", "numbers": {}}}
    with pytest.raises(ClaimError, match="unknown claim 'c'"):
        check_claims("<!-- claim: c -->", verdicts, "p.md")
    assert check_claims("It does.<!-- claim: a.b -->", verdicts, "p.md") == "It does."


# -- every registered claim, on the real numbers and the pages ------------------------------

DOCS = Path(__file__).resolve().parents[1] / "docs"
NAMES = sorted(claims.registered())


def _markers(page: Path) -> list[str]:
    return CLAIM_MARKER.findall(page.read_text(encoding="utf-8"))


def _pages(lang: str) -> list[Path]:
    return sources(lang)


@pytest.mark.grid
@pytest.mark.parametrize("name", NAMES)
def test_claim_holds_on_the_real_numbers(name, content_values):
    verdict = claims.evaluate(name, content_values)
    assert verdict.holds, verdict.explain()


@pytest.mark.grid
@pytest.mark.parametrize("name", NAMES)
def test_claim_fails_on_its_counterexample(name, content_values):
    spec = claims.registered()[name]
    named = {k.removesuffix(LOW).removesuffix(HIGH) for k in spec.counterexample}
    unknown = named - set(content_values)
    assert not unknown, f"{name}: counterexample names unknown numbers {sorted(unknown)}"
    verdict = claims.evaluate(name, {**content_values, **spec.counterexample})
    assert not verdict.holds, f"{name} still holds on its counterexample: {verdict.explain()}"


FIGURE = re.compile(r"!\[[^\]]*\]\(figures/([a-z0-9-]+)\.svg\)")


def _figure_claims(page: Path) -> set[str]:
    """Claims a page states through the alt text of the figures it shows (ALT_CLAIMS)."""
    shown = FIGURE.findall(page.read_text(encoding="utf-8"))
    return {name for figure in shown for name in ALT_CLAIMS.get(figure, ())}


@pytest.mark.parametrize("lang", LANGS)
def test_every_claim_is_marked_on_a_page_in_each_language(lang):
    marked = {name for page in _pages(lang) for name in _markers(page)}
    marked |= {name for page in _pages(lang) for name in _figure_claims(page)}
    missing = sorted(set(NAMES) - marked)
    assert not missing, f"claims no {lang} page marks: {missing}"
    unknown = sorted(marked - set(NAMES))
    assert not unknown, f"{lang} pages mark unregistered claims: {unknown}"


def test_each_page_carries_the_same_claims_in_both_languages():
    problems = []
    for en in _pages("en"):
        ko = en.with_name(en.name.removesuffix(".en.md") + ".md")
        if not ko.exists():
            continue
        ko_marks, en_marks = _markers(ko), _markers(en)
        if sorted(ko_marks) != sorted(en_marks):
            only_ko = sorted(set(ko_marks) - set(en_marks))
            only_en = sorted(set(en_marks) - set(ko_marks))
            problems.append(
                f"{ko.relative_to(DOCS)}: {len(ko_marks)} markers, {en.relative_to(DOCS)}: "
                f"{len(en_marks)}; only ko {only_ko}, only en {only_en}"
            )
    assert not problems, "\n".join(problems)


@pytest.mark.grid
def test_every_claim_holds_on_the_build_numbers_and_its_counterexample_breaks_it(content_values):
    for name, spec in claims.registered().items():
        verdict = claims.evaluate(name, content_values)
        assert verdict.holds, verdict.explain()
        assert not claims.evaluate(name, {**content_values, **spec.counterexample}).holds, name


@pytest.mark.grid
@pytest.mark.parametrize("name", NAMES)
def test_no_claim_compares_a_seed_median_with_a_bound(name, content_values):
    """A number measured on several seeds is printed as its range, which a reader takes as
    "on every seed": its claim reads the per-seed extremes (``registry.lo``/``hi``), not the
    median or mean, unless it says why (``median_because``: a sentence about the median)."""
    reads = claims.median_reads(name, content_values)
    assert not reads, (
        f"{name} reads the median/mean of the seed ranges {reads}: compare their per-seed "
        "extremes (registry.lo / registry.hi) with the bound, or say in median_because why "
        "the sentence is about the median"
    )


def test_every_median_exemption_gives_its_reason():
    for name, spec in claims.registered().items():
        if spec.median_because:
            assert len(spec.median_because.split()) >= 5, f"{name}: say why, in a sentence"
