"""Claims: the registry, verdicts, and the page-marker check that stops a false sentence."""

from __future__ import annotations

import pytest

from attention_explained import claims
from attention_explained.sitebuild.claims import ClaimError, check_claims


def test_verdict_records_the_numbers_a_check_read():
    spec = claims.registered()["training.qknorm_lowest_final_loss"]
    values = {
        f"training.final_loss.d{dk}.{s}": 1.0 for dk in (16, 128, 1024) for s in ("none", "sqrt")
    }
    values |= {f"training.final_loss.d{dk}.qknorm": 0.5 for dk in (16, 128, 1024)}
    verdict = claims.evaluate(spec.name, values)
    assert verdict.holds
    assert set(verdict.numbers) == set(values)
    assert not claims.evaluate(spec.name, {**values, **spec.counterexample}).holds


def test_unknown_number_is_named():
    with pytest.raises(KeyError, match=r"training\.final_loss"):
        claims.evaluate("training.qknorm_lowest_final_loss", {})


def test_marker_of_a_false_claim_names_claim_and_page():
    verdicts = {"a.b": {"holds": False, "statement": "A beats B", "numbers": {"x": 1.0}}}
    with pytest.raises(ClaimError, match=r"page\.md: claim 'a\.b' does not hold: A beats B"):
        check_claims("It does. <!-- claim: a.b -->", verdicts, "page.md")


def test_unknown_marker_fails_and_true_marker_is_removed():
    verdicts = {"a.b": {"holds": True, "statement": "s", "numbers": {}}}
    with pytest.raises(ClaimError, match="unknown claim 'c'"):
        check_claims("<!-- claim: c -->", verdicts, "p.md")
    assert check_claims("It does.<!-- claim: a.b -->", verdicts, "p.md") == "It does."


def test_registering_without_counterexample_is_refused():
    with pytest.raises(ValueError, match="counterexample"):
        claims.claim("x.y", statement="s", counterexample={})(lambda v: True)
