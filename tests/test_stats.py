"""Softmax Jacobian, entropy, max weight, logit variance and the saturation sweep vs theory."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest
import tensorflow as tf

from attention_explained import (
    attention_entropy,
    logit_variance,
    max_weight,
    saturation_sweep,
    softmax_jacobian,
)
from attention_explained.stats import SWEEP_METRICS, SWEEP_SCALES
from attention_explained.tensors import uniform_pair


def _softmax(z: np.ndarray) -> np.ndarray:
    e = np.exp(z - z.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


def _random_probs(shape, seed: int, spread: float = 2.0) -> np.ndarray:
    z = np.random.default_rng(seed).standard_normal(shape) * spread
    return _softmax(z)


PROB_CASES = [
    pytest.param(_random_probs((7,), 0), id="random-n7"),
    pytest.param(_random_probs((30,), 1, spread=5.0), id="peaked-n30"),
    pytest.param(np.full(5, 0.2), id="uniform-n5"),
    pytest.param(np.array([0.5, 0.5]), id="half-half"),
    pytest.param(np.array([1.0, 0.0, 0.0, 0.0]), id="one-hot"),
    pytest.param(np.array([1.0]), id="n1"),
]


# --- softmax_jacobian -------------------------------------------------------------------------


@pytest.mark.parametrize("p", PROB_CASES)
def test_jacobian_structure(p):
    jac = softmax_jacobian(tf.constant(p, tf.float64)).numpy()
    n = p.shape[-1]
    assert jac.shape == (n, n)
    np.testing.assert_allclose(jac.sum(axis=-1), 0.0, atol=1e-12)  # rows sum to 0
    np.testing.assert_allclose(jac, jac.T, atol=0)  # symmetric
    eig = np.linalg.eigvalsh(jac)
    assert eig.min() >= -1e-7  # positive semidefinite
    assert eig.max() <= 0.5 + 1e-12  # largest eigenvalue ≤ 1/2
    assert np.trace(jac) == pytest.approx(1 - np.sum(p**2), abs=1e-12)
    # Independent formula: J_ij = p_i(δ_ij − p_j).
    np.testing.assert_allclose(jac, p[:, None] * (np.eye(n) - p[None, :]), atol=1e-15)


def test_jacobian_vanishes_for_one_hot_and_shrinks_towards_it():
    assert np.all(softmax_jacobian(tf.constant([0.0, 1.0, 0.0], tf.float64)).numpy() == 0)
    z = np.random.default_rng(5).standard_normal(10)
    norms = [
        np.linalg.norm(softmax_jacobian(tf.constant(_softmax(s * z))).numpy())
        for s in (1, 4, 16, 64, 256)
    ]
    assert all(b < a for a, b in itertools.pairwise(norms[1:])), norms
    assert norms[-1] < 1e-6


@pytest.mark.parametrize("shape", [(4,), (3, 4), (2, 3, 4), (2, 1, 3, 5)])
def test_jacobian_batched_shapes(shape):
    p = _random_probs(shape, 2)
    jac = softmax_jacobian(tf.constant(p)).numpy()
    assert jac.shape == (*shape, shape[-1])
    n = shape[-1]
    expected = p[..., :, None] * (np.eye(n) - p[..., None, :])
    np.testing.assert_allclose(jac, expected, atol=1e-15)


def test_jacobian_equals_autodiff_and_finite_differences():
    z = tf.constant(np.random.default_rng(3).standard_normal((4, 6)) * 1.5, tf.float64)
    with tf.GradientTape() as tape:
        tape.watch(z)
        p = tf.nn.softmax(z, axis=-1)
    autodiff = tape.batch_jacobian(p, z).numpy()  # [4, 6 outputs, 6 inputs]
    ours = softmax_jacobian(p).numpy()
    np.testing.assert_allclose(ours, autodiff, atol=1e-12)

    # Central differences in float64: error O(h²) ≈ 1e-10.
    h = 1e-5
    zn = z.numpy()
    fd = np.empty_like(ours)
    for j in range(zn.shape[-1]):
        step = np.zeros_like(zn)
        step[:, j] = h
        fd[:, :, j] = (_softmax(zn + step) - _softmax(zn - step)) / (2 * h)
    np.testing.assert_allclose(ours, fd, atol=1e-8)


# --- attention_entropy and max_weight ---------------------------------------------------------


@pytest.mark.parametrize("p", PROB_CASES)
def test_entropy_bounds_and_independent_formula(p):
    h = attention_entropy(tf.constant(p, tf.float64)).numpy()
    n = p.shape[-1]
    assert 0.0 - 1e-12 <= h <= math.log(n) + 1e-12
    nz = p[p > 0]
    assert h == pytest.approx(-np.sum(nz * np.log(nz)), abs=1e-12)


@pytest.mark.parametrize("n", [1, 2, 30, 1000])
def test_entropy_uniform_is_log_n_and_one_hot_is_zero(n):
    uniform = np.full((3, n), 1.0 / n)
    np.testing.assert_allclose(attention_entropy(uniform).numpy(), math.log(n), atol=1e-6)
    one_hot = np.eye(n)[: min(n, 3)]
    h = attention_entropy(one_hot).numpy()
    assert np.all(np.isfinite(h))  # 0·log 0 must count as 0, not NaN
    np.testing.assert_array_equal(h, 0.0)


def test_entropy_falls_as_logit_scale_grows():
    """dH/ds = −s·Var_p(z) < 0 for softmax(s·z) with non-constant z: strictly decreasing."""
    z = np.random.default_rng(4).standard_normal((20, 30))
    scales = [0.01, 0.1, 0.3, 1.0, 3.0, 10.0, 30.0]
    entropies = np.stack([attention_entropy(tf.constant(_softmax(s * z))).numpy() for s in scales])
    assert np.all(np.diff(entropies, axis=0) < 0)
    assert np.all(entropies[0] > math.log(30) - 1e-3)  # near uniform at tiny scale
    assert np.all(entropies <= math.log(30) + 1e-9)


@pytest.mark.parametrize("p", PROB_CASES)
def test_max_weight_in_range_and_is_the_largest_weight(p):
    m = max_weight(tf.constant(p, tf.float64)).numpy()
    n = p.shape[-1]
    assert 1.0 / n - 1e-12 <= m <= 1.0 + 1e-12
    assert m == p.max()


def test_max_weight_batched_bounds():
    p = _random_probs((5, 7, 11), 6, spread=3.0)
    m = max_weight(p).numpy()
    assert m.shape == (5, 7)
    assert np.all(m >= 1 / 11 - 1e-7) and np.all(m <= 1 + 1e-7)
    np.testing.assert_allclose(m, p.max(axis=-1), rtol=1e-6)
    np.testing.assert_allclose(max_weight(np.full((2, 11), 1 / 11)).numpy(), 1 / 11, rtol=1e-6)


# --- logit_variance ---------------------------------------------------------------------------


@pytest.mark.parametrize(("minval", "maxval"), [(-3.0, 3.0), (0.0, 2.0), (1.0, 5.0), (-4.0, 0.5)])
@pytest.mark.parametrize("dim", [1, 10, 1024])
def test_logit_variance_formula(dim, minval, maxval):
    mu, var = (minval + maxval) / 2, (maxval - minval) ** 2 / 12
    # Var(XY) = σ_X²σ_Y² + μ_X²σ_Y² + μ_Y²σ_X² for independent X, Y; d independent terms add.
    expected = dim * (var * var + mu * mu * var + mu * mu * var)
    assert logit_variance(dim, minval=minval, maxval=maxval) == pytest.approx(expected, rel=1e-12)


def test_logit_variance_default_is_nine_d():
    for dim in (1, 10, 1024, 4096):
        assert logit_variance(dim) == pytest.approx(9 * dim)
    assert math.sqrt(logit_variance(1024)) == pytest.approx(96.0)


@pytest.mark.parametrize(("minval", "maxval"), [(0.0, 2.0), (1.0, 5.0)])
def test_logit_variance_monte_carlo_non_zero_mean(minval, maxval):
    """NumPy Monte-Carlo of iid dot products; tolerance = 5 standard errors of the variance.

    For N iid samples with kurtosis κ, the sample variance has relative std √((κ − 1)/N).
    """
    dim, n = 8, 200_000
    rng = np.random.default_rng(123)
    q = rng.uniform(minval, maxval, (n, dim))
    k = rng.uniform(minval, maxval, (n, dim))
    dots = np.einsum("nd,nd->n", q, k)
    v_hat = dots.var()
    kurt = np.mean((dots - dots.mean()) ** 4) / v_hat**2
    se = v_hat * math.sqrt((kurt - 1) / n)
    assert abs(v_hat - logit_variance(dim, minval=minval, maxval=maxval)) < 5 * se


# --- saturation_sweep -------------------------------------------------------------------------

SWEEP_DIMS = (4, 64, 1024)
SWEEP_SEEDS = (0, 1, 2, 3)
LENGTH = 30


@pytest.fixture(scope="module")
def sweep():
    return saturation_sweep(SWEEP_DIMS, length=LENGTH, seeds=SWEEP_SEEDS)


def _series(table, scale, metric):
    rows = table["scale"] == scale
    return np.asarray(table["dim"][rows]), np.asarray(table[f"{metric}_mean"][rows], float)


def test_sweep_table_structure(sweep):
    expected_columns = {"dim", "scale"} | {
        f"{m}_{stat}" for m in SWEEP_METRICS for stat in ("mean", "std")
    }
    assert set(sweep) == expected_columns
    rows = len(SWEEP_DIMS) * len(SWEEP_SCALES)
    assert {len(column) for column in sweep.values()} == {rows}
    pairs = list(zip(sweep["dim"].tolist(), sweep["scale"].tolist(), strict=True))
    assert sorted(pairs) == sorted(itertools.product(SWEEP_DIMS, SWEEP_SCALES))
    for metric in SWEEP_METRICS:
        assert np.all(np.isfinite(sweep[f"{metric}_mean"].astype(float)))
        assert np.all(sweep[f"{metric}_std"].astype(float) >= 0)


def test_sweep_unscaled_saturates_as_dim_grows(sweep):
    dims, mw = _series(sweep, "none", "max_weight")
    assert list(dims) == list(SWEEP_DIMS)
    assert np.all(np.diff(mw) > 0), mw
    assert mw[-1] > 0.95
    _, entropy = _series(sweep, "none", "entropy")
    assert np.all(np.diff(entropy) < 0), entropy
    assert np.all((entropy >= 0) & (entropy <= math.log(LENGTH)))


@pytest.mark.parametrize("scale", ["sqrt", "unit"])
def test_sweep_scaled_stays_flat(sweep, scale):
    _, mw = _series(sweep, scale, "max_weight")
    assert mw.max() - mw.min() < 0.1, mw
    # Entropy is flat too, up to the non-Gaussian logits at d = 4 (a sum of only 4 products);
    # unscaled, it falls by ≈ 0.8 nats over the same dims.
    _, entropy = _series(sweep, scale, "entropy")
    assert entropy.max() - entropy.min() < 0.4, entropy


@pytest.mark.parametrize(("scale", "target"), [("unit", 1.0), ("sqrt", 3.0)])
def test_sweep_logit_std(sweep, scale, target):
    """std of the scaled logits: 1 for ÷std(q·k), σ_qσ_k = 3 for ÷√d.

    Tolerance 5 standard errors of the pooled std (4 matrices of 30×30 entries), with the
    row/column dependence of A·Bᵀ entries counted (see tests/test_tensors.py): the relative
    variance of the variance is [2 + (κ² − 3)/d + 2(L−1)(κ−1)/d]/N with κ = 9/5, and the std's
    relative error is half the variance's.
    """
    dims, std = _series(sweep, scale, "logit_std")
    for dim, value in zip(dims, std, strict=True):
        n = len(SWEEP_SEEDS) * LENGTH * LENGTH
        kurt = 9 / 5  # kurtosis of uniform components
        rel_var = (2 + (kurt**2 - 3) / dim + 2 * (LENGTH - 1) * (kurt - 1) / dim) / n
        assert abs(value / target - 1) < 5 * math.sqrt(rel_var) / 2, (dim, value)


def test_sweep_gradient_collapses_without_scaling(sweep):
    for metric in ("jacobian_fro", "grad_norm"):
        dims, none = _series(sweep, "none", metric)
        _, sqrt = _series(sweep, "sqrt", metric)
        big = list(dims).index(1024)
        assert none[big] < 0.1 * sqrt[big], (metric, none[big], sqrt[big])
        assert np.all(np.diff(none) < 0), (metric, none)


def test_sweep_matches_numpy_recomputation(sweep):
    """logit std, entropy, max weight and ‖J‖_F recomputed from uniform_pair in plain NumPy."""
    for i, (dim, scale) in enumerate(zip(sweep["dim"], sweep["scale"], strict=True)):
        factor = {"none": 1.0, "sqrt": 1 / math.sqrt(dim), "unit": 1 / math.sqrt(9 * dim)}[scale]
        per_seed = {m: [] for m in ("logit_std", "entropy", "max_weight", "jacobian_fro")}
        for s in SWEEP_SEEDS:
            q, k = uniform_pair(LENGTH, int(dim), seed=s)
            z = (q.astype(np.float64) @ k.astype(np.float64).T) * factor
            p = _softmax(z)
            jac = p[..., :, None] * (np.eye(LENGTH) - p[..., None, :])
            per_seed["logit_std"].append(z.std())
            with np.errstate(divide="ignore", invalid="ignore"):
                plogp = np.where(p > 0, p * np.log(p), 0.0)
            per_seed["entropy"].append(-plogp.sum(-1).mean())
            per_seed["max_weight"].append(p.max(-1).mean())
            per_seed["jacobian_fro"].append(np.linalg.norm(jac, axis=(-2, -1)).mean())
        for metric, values in per_seed.items():
            got = float(sweep[f"{metric}_mean"][i])
            assert got == pytest.approx(np.mean(values), rel=1e-3, abs=1e-4), (dim, scale, metric)
            got_std = float(sweep[f"{metric}_std"][i])
            assert got_std == pytest.approx(np.std(values), rel=2e-2, abs=1e-4), (
                dim,
                scale,
                metric,
            )
