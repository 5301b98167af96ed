"""content/index.py: the pencil example is what a reader gets by hand; the worked example is one
real softmax row, raw and ÷√d."""

from __future__ import annotations

import math

import numpy as np
import pytest

from attention_explained.content.registry import MINUS
from attention_explained.settings import PENCIL_KEYS, PENCIL_QUERY


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


@pytest.mark.grid
def test_pencil_example_is_small_and_redone_by_hand(content_numbers):
    """The home page's first example: small integers, and every printed number is what a
    reader gets by hand (NumPy here, not the package's attention)."""
    query = np.array(PENCIL_QUERY, dtype=float)
    keys = np.array(PENCIL_KEYS, dtype=float)
    d_k = query.size
    assert d_k <= 4 and len(keys) <= 4, "a pencil-sized example has few, short vectors"
    assert all(float(c).is_integer() and abs(c) <= 3 for c in (*query, *keys.ravel()))
    assert content_numbers["index.pencil.dk"] == str(d_k)
    printed_q = [_value(content_numbers, f"index.pencil.q.c{i}") for i in range(1, d_k + 1)]
    assert printed_q == list(query)
    for scale, divisor in (("none", 1.0), ("sqrt", math.sqrt(d_k))):
        logits = keys @ query / divisor
        exps = np.exp(logits)
        weights = exps / exps.sum()
        assert _value(content_numbers, f"index.pencil.exp_sum.{scale}") == pytest.approx(
            exps.sum(), abs=0.05
        )
        for j in range(len(keys)):
            name = f"k{j + 1}.{scale}"
            assert _value(content_numbers, f"index.pencil.logit.{name}") == pytest.approx(
                logits[j], abs=0.05
            )
            assert _value(content_numbers, f"index.pencil.exp.{name}") == pytest.approx(
                exps[j], abs=0.05
            )
            for what, exact in (("weight", weights[j]), ("slope", weights[j] * (1 - weights[j]))):
                printed = _value(content_numbers, f"index.pencil.{what}.{name}")
                assert printed == pytest.approx(exact, rel=0.05, abs=5e-4), (what, name)
