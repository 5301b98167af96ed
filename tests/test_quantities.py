"""quantities.compute(): the numbers the prose quotes, checked against independent recomputation."""

from __future__ import annotations

import itertools
import math

import pytest

from attention_explained import quantities

pytestmark = pytest.mark.grid  # quantities.compute(): every number, the training grids too

MINUS = "\u2212"


@pytest.fixture(scope="module")
def numbers() -> dict[str, str]:
    return quantities.compute()  # ≈ 6 s: heatmaps, sweep, variance, Keras comparison


def _value(numbers: dict[str, str], name: str) -> float:
    return float(numbers[name].replace(MINUS, "-"))


def test_every_value_is_a_string_with_a_typographic_minus(numbers):
    assert numbers
    for name, value in numbers.items():
        assert isinstance(name, str) and isinstance(value, str), name
        assert "-" not in value, (name, value)  # negative numbers use U+2212
        float(value.replace(MINUS, "-"))  # and every value is a number
    assert numbers["heatmap.min.d1024.none"].startswith(MINUS)


def test_expected_names_are_present(numbers):
    for dim, scale in itertools.product(quantities.DIMS, quantities.SCALES):
        for metric in ("logit_std", "entropy", "max_weight", "jacobian_fro", "grad_norm"):
            assert f"sweep.{metric}.d{dim}.{scale}" in numbers
        for what in ("max_weight", "entropy", "min", "max"):
            assert f"heatmap.{what}.d{dim}.{scale}" in numbers
    for dim in quantities.DIMS:
        for what in ("variance.measured", "variance.measured_sqrt", "std.measured", "std.theory"):
            assert f"{what}.d{dim}" in numbers


def test_theory_values(numbers):
    assert numbers["n"] == "30"
    assert numbers["seeds"] == str(len(quantities.SEEDS))
    assert numbers["theory.log_n"] == format(math.log(30), ".2f")
    # ‖J‖_F at uniform p: √(n·(1/n − 1/n²)² + n(n−1)/n⁴) = √(n − 1)/n.
    assert numbers["theory.jacobian_fro_uniform"] == format(math.sqrt(29) / 30, ".3f")
    # Var(q·k) = d·σ⁴ with σ² = 6²/12 = 3, so std = √(9d): 96.0 at d = 1024, 9.5 at d = 10.
    assert numbers["std.theory.d1024"] == "96.0"
    assert numbers["std.theory.d10"] == format(math.sqrt(90), ".1f")


def test_measured_variance_is_consistent_with_theory(numbers):
    seeds = len(quantities.SEEDS)
    n = quantities.LENGTH
    for dim in quantities.DIMS:
        variance = _value(numbers, f"variance.measured.d{dim}")
        # std and variance are printed from the same entries: std = √variance up to rounding.
        std = _value(numbers, f"std.measured.d{dim}")
        # Rounding: ≤ 0.05 on std (.1f), ≤ 0.5 on variance (.0f) → ≤ 0.25/√variance on its root.
        assert abs(std - math.sqrt(variance)) <= 0.05 + 0.25 / math.sqrt(variance) + 1e-9
        # Within 5 standard errors of 9d (the formula is derived in tests/test_tensors.py);
        # κ = 9/5 is the kurtosis of uniform components.
        kurt = 9 / 5
        per_entry = 2 + (kurt**2 - 3) / dim + 2 * (n - 1) * (kurt - 1) / dim
        rel_se = math.sqrt(per_entry / (seeds * n * n))
        assert abs(variance / (9 * dim) - 1) < 5 * rel_se + 0.5 / (9 * dim)
        scaled = _value(numbers, f"variance.measured_sqrt.d{dim}")
        assert abs(scaled / 9 - 1) < 5 * rel_se + 0.005 / 9


def test_self_attention_diagonal_dominates(numbers):
    """X·Xᵀ/√d: diagonal ‖x‖²/√d has mean 3√d = 96 at d = 1024 and std √7.2 per entry."""
    assert abs(_value(numbers, "self.diag_scaled.d1024") - 96.0) < 5 * math.sqrt(7.2 / 30)
    # 435 distinct off-diagonal pairs: relative SE of the std ≈ ½·√(2/435) ≈ 0.034; 5 SE.
    assert _value(numbers, "self.offdiag_std_scaled.d1024") == pytest.approx(3.0, rel=0.17)
    assert _value(numbers, "self.diag_weight.d1024") > 0.99


def test_sweep_and_keras_numbers(numbers):
    assert _value(numbers, "sweep.max_weight.d1024.none") > 0.95
    # 8 seeds × 900 entries: relative SE of the std ≈ ½·√(2.05/7200) ≈ 0.0084; 5 SE < 0.05.
    assert _value(numbers, "sweep.logit_std.d1024.sqrt") == pytest.approx(3.0, rel=0.05)
    assert _value(numbers, "sweep.logit_std.d1024.unit") == pytest.approx(1.0, rel=0.05)
    for name in ("keras.max_abs_diff.output", "keras.max_abs_diff.scores"):
        assert 0 <= _value(numbers, name) <= 1e-5


def test_worked_example_is_one_softmax_row_raw_and_scaled(numbers):
    """The home page's four logits: ranked, ÷32 after scaling, p(1 − p) from p, a real row."""
    ranks = (1, 2, 3, 15)
    for scale in ("none", "sqrt"):
        logits = [_value(numbers, f"example.logit.r{r}.{scale}") for r in ranks]
        weights = [_value(numbers, f"example.weight.r{r}.{scale}") for r in ranks]
        assert logits == sorted(logits, reverse=True)
        assert weights == sorted(weights, reverse=True)
        assert sum(weights) <= 1 + 2e-3
        for r, w in zip(ranks, weights, strict=True):
            slope = _value(numbers, f"example.slope.r{r}.{scale}")
            if w < 0.999:  # p(1 − p) ≈ p for small p, printed to three digits or two figures
                assert slope == pytest.approx(w * (1 - w), rel=0.05, abs=2e-3)
    for r in ranks:  # the scaled logits are the raw ones divided by √1024 = 32
        raw = _value(numbers, f"example.logit.r{r}.none")
        assert _value(numbers, f"example.logit.r{r}.sqrt") == pytest.approx(raw / 32, abs=0.01)
    # The top weight of a row is 1/(1 + Σ e^{z_j − z_1}) ≤ 1/(1 + e^{−gap}).
    gap = _value(numbers, "example.gap12.sqrt")
    assert _value(numbers, "example.weight.r1.sqrt") <= 1 / (1 + math.exp(-gap)) + 1e-3
    # ‖J‖_F ≥ any entry, e.g. p₁(1 − p₁); ≤ √(n − 1)/2 (n − 1 nonzero eigenvalues, each ≤ ½).
    for scale in ("none", "sqrt"):
        jac = _value(numbers, f"example.jacobian_fro.{scale}")
        assert jac >= _value(numbers, f"example.slope.r1.{scale}") * 0.95
        assert jac <= math.sqrt(29) / 2


# -- the shape of the training curves (training page) ---------------------------------------


def test_training_curve_shape_numbers_match_a_plain_recomputation(numbers):
    """tail_drop, first_below, gradnorm_shrink and the W-gradient ratio, recomputed with loops."""
    import numpy as np

    from attention_explained.figures import _data

    sgd = _data.training()["sgd"]
    tail, smooth_len = 100, 10
    for i, dk in enumerate(sgd["d_k"]):
        for k, scaling in enumerate(sgd["scaling"]):
            key = f"d{dk}.{scaling}"
            loss = sgd["loss"][i, k]
            drops = [seed[-2 * tail : -tail].mean() - seed[-tail:].mean() for seed in loss]
            assert _value(numbers, f"training.tail_drop.{key}") == pytest.approx(
                float(np.median(drops)), abs=0.005
            )
            smoothed = np.array(
                [
                    [seed[max(0, s - smooth_len + 1) : s + 1].mean() for s in range(len(seed))]
                    for seed in loss
                ]
            )
            median = np.median(smoothed, axis=0)
            first = next((s for s, x in enumerate(median) if x < 1.0), len(median))
            assert numbers[f"training.first_below.{key}"] == str(first)
            grad = sgd["grad_norm"][i, k]
            end = np.median([np.median(seed[-30:]) for seed in grad])
            shrink = np.median(grad[:, 0]) / end
            assert _value(numbers, f"training.gradnorm_shrink.{key}") == pytest.approx(
                shrink, abs=0.5
            )
    ratio = _value(numbers, "training.init_gradnorm_ratio.d1024")
    printed = _value(numbers, "training.init_gradnorm.d1024.none") / _value(
        numbers, "training.init_gradnorm.d1024.sqrt"
    )
    assert ratio == pytest.approx(printed, rel=0.05)  # the two printed norms are rounded


def test_every_claim_holds_on_the_build_numbers_and_its_counterexample_breaks_it(numbers):
    from attention_explained import claims

    values = quantities.values()
    for name, spec in claims.registered().items():
        assert claims.evaluate(name, values).holds, claims.evaluate(name, values).explain()
        assert not claims.evaluate(name, {**values, **spec.counterexample}).holds, name
