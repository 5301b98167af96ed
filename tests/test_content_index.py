"""content/index.py: the home page's worked example is one real softmax row, raw and ÷√d."""

from __future__ import annotations

import math

import pytest

from attention_explained.content.registry import MINUS


def _value(numbers: dict[str, str], name: str) -> float:
    return float(numbers[name].replace(MINUS, "-"))


@pytest.mark.grid
def test_worked_example_is_one_softmax_row_raw_and_scaled(content_numbers):
    """The home page's four logits: ranked, ÷32 after scaling, p(1 − p) from p, a real row."""
    ranks = (1, 2, 3, 15)
    for scale in ("none", "sqrt"):
        logits = [_value(content_numbers, f"example.logit.r{r}.{scale}") for r in ranks]
        weights = [_value(content_numbers, f"example.weight.r{r}.{scale}") for r in ranks]
        assert logits == sorted(logits, reverse=True)
        assert weights == sorted(weights, reverse=True)
        assert sum(weights) <= 1 + 2e-3
        for r, w in zip(ranks, weights, strict=True):
            slope = _value(content_numbers, f"example.slope.r{r}.{scale}")
            if w < 0.999:  # p(1 − p) ≈ p for small p, printed to three digits or two figures
                assert slope == pytest.approx(w * (1 - w), rel=0.05, abs=2e-3)
    for r in ranks:  # the scaled logits are the raw ones divided by √1024 = 32
        raw = _value(content_numbers, f"example.logit.r{r}.none")
        assert _value(content_numbers, f"example.logit.r{r}.sqrt") == pytest.approx(
            raw / 32, abs=0.01
        )
    # The top weight of a row is 1/(1 + Σ e^{z_j − z_1}) ≤ 1/(1 + e^{−gap}).
    gap = _value(content_numbers, "example.gap12.sqrt")
    assert _value(content_numbers, "example.weight.r1.sqrt") <= 1 / (1 + math.exp(-gap)) + 1e-3
    # ‖J‖_F ≥ any entry, e.g. p₁(1 − p₁); ≤ √(n − 1)/2 (n − 1 nonzero eigenvalues, each ≤ ½).
    for scale in ("none", "sqrt"):
        jac = _value(content_numbers, f"example.jacobian_fro.{scale}")
        assert jac >= _value(content_numbers, f"example.slope.r1.{scale}") * 0.95
        assert jac <= math.sqrt(29) / 2
