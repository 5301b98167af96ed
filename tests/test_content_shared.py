"""content/shared.py: the numbers several pages quote, checked against independent recomputation."""

from __future__ import annotations

import itertools
import math

import pytest

from attention_explained.content.registry import MINUS
from attention_explained.settings import LENGTH, PROSE_DIMS, PROSE_SEEDS, SCALES


@pytest.mark.grid
def test_every_value_is_a_string_with_a_typographic_minus(content_numbers):
    assert content_numbers
    for name, value in content_numbers.items():
        assert isinstance(name, str) and isinstance(value, str), name
        assert "-" not in value, (name, value)  # negative numbers use U+2212
        for part in value.replace(" – ", "–").split("–"):  # a number, or a range low–high
            float(part.replace(MINUS, "-"))
    assert content_numbers["heatmap.min.d1024.none"].startswith(MINUS)


@pytest.mark.grid
def test_expected_names_are_present(content_numbers):
    for dim, scale in itertools.product(PROSE_DIMS, SCALES):
        for metric in ("logit_std", "entropy", "max_weight", "jacobian_fro", "grad_norm"):
            assert f"sweep.{metric}.d{dim}.{scale}" in content_numbers
        for what in ("max_weight", "entropy", "min", "max"):
            assert f"heatmap.{what}.d{dim}.{scale}" in content_numbers
    for dim in PROSE_DIMS:
        for what in ("variance.measured", "variance.measured_sqrt", "std.measured", "std.theory"):
            assert f"{what}.d{dim}" in content_numbers


@pytest.mark.grid
def test_theory_values(content_numbers):
    assert content_numbers["n"] == "30"
    assert content_numbers["seeds"] == str(len(PROSE_SEEDS))
    assert content_numbers["theory.log_n"] == format(math.log(30), ".2f")
    # ‖J‖_F at uniform p: √(n·(1/n − 1/n²)² + n(n−1)/n⁴) = √(n − 1)/n.
    assert content_numbers["theory.jacobian_fro_uniform"] == format(math.sqrt(29) / 30, ".3f")
    # Var(q·k) = d·σ⁴ with σ² = 6²/12 = 3, so std = √(9d): 96.0 at d = 1024, 9.5 at d = 10.
    assert content_numbers["std.theory.d1024"] == "96.0"
    assert content_numbers["std.theory.d10"] == format(math.sqrt(90), ".1f")


@pytest.mark.grid
def test_measured_variance_is_consistent_with_theory(printed_value):
    seeds = len(PROSE_SEEDS)
    n = LENGTH
    for dim in PROSE_DIMS:
        variance = printed_value(f"variance.measured.d{dim}")
        # std and variance are printed from the same entries: std = √variance up to rounding.
        std = printed_value(f"std.measured.d{dim}")
        # Rounding: ≤ 0.05 on std (.1f), ≤ 0.5 on variance (.0f) → ≤ 0.25/√variance on its root.
        assert abs(std - math.sqrt(variance)) <= 0.05 + 0.25 / math.sqrt(variance) + 1e-9
        # Within 5 standard errors of 9d (the formula is derived in tests/test_tensors.py);
        # κ = 9/5 is the kurtosis of uniform components.
        kurt = 9 / 5
        per_entry = 2 + (kurt**2 - 3) / dim + 2 * (n - 1) * (kurt - 1) / dim
        rel_se = math.sqrt(per_entry / (seeds * n * n))
        assert abs(variance / (9 * dim) - 1) < 5 * rel_se + 0.5 / (9 * dim)
        scaled = printed_value(f"variance.measured_sqrt.d{dim}")
        assert abs(scaled / 9 - 1) < 5 * rel_se + 0.005 / 9


@pytest.mark.grid
def test_sweep_numbers(printed_value):
    assert printed_value("sweep.max_weight.d1024.none") > 0.95
    # 8 seeds × 900 entries: relative SE of the std ≈ ½·√(2.05/7200) ≈ 0.0084; 5 SE < 0.05.
    assert printed_value("sweep.logit_std.d1024.sqrt") == pytest.approx(3.0, rel=0.05)
    assert printed_value("sweep.logit_std.d1024.unit") == pytest.approx(1.0, rel=0.05)
