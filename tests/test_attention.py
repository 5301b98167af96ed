"""scaled_dot_product_attention against an independent NumPy reference, masks and scale."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest
import tensorflow as tf

from attention_explained import scaled_dot_product_attention


def reference_attention(q, k, v, mask=None, scale="sqrt"):
    """softmax(factor · QKᵀ) V in float64 NumPy; rows with nothing to attend to get zeros."""
    q, k, v = (np.asarray(x, np.float64) for x in (q, k, v))
    factor = {"sqrt": 1 / math.sqrt(q.shape[-1]), "none": 1.0}.get(scale, scale)
    logits = np.matmul(q, np.swapaxes(k, -1, -2)) * factor
    if mask is None:
        mask = np.ones(logits.shape, bool)
    mask = np.broadcast_to(np.asarray(mask, bool), logits.shape)
    masked = np.where(mask, logits, -np.inf)
    row_max = masked.max(axis=-1, keepdims=True)
    row_max = np.where(np.isfinite(row_max), row_max, 0.0)  # fully masked row
    e = np.where(mask, np.exp(masked - row_max), 0.0)
    denom = e.sum(axis=-1, keepdims=True)
    weights = np.divide(e, denom, out=np.zeros_like(e), where=denom > 0)
    return np.matmul(weights, v), weights


def _inputs(q_shape, k_shape, v_shape, seed=0, dtype=np.float32):
    rng = np.random.default_rng(seed)
    return tuple(rng.standard_normal(s).astype(dtype) for s in (q_shape, k_shape, v_shape))


def _random_mask(shape, seed=1):
    """Random boolean mask with at least one True in every row (last axis)."""
    rng = np.random.default_rng(seed)
    mask = rng.random(shape) < 0.5
    rows = mask.reshape(-1, shape[-1])
    keep = rng.integers(0, shape[-1], size=rows.shape[0])
    rows[np.arange(rows.shape[0]), keep] = True
    return rows.reshape(shape)


SHAPES = {
    "2d": ((5, 8), (7, 8), (7, 3)),
    "2d-self": ((6, 4), (6, 4), (6, 4)),
    "3d": ((2, 5, 8), (2, 6, 8), (2, 6, 8)),
    "3d-dv": ((3, 4, 16), (3, 9, 16), (3, 9, 5)),
    "4d": ((2, 3, 4, 16), (2, 3, 9, 16), (2, 3, 9, 5)),
}


def _mask_for(kind, q_shape, k_shape):
    lq, lk = q_shape[-2], k_shape[-2]
    logits_shape = (*q_shape[:-2], lq, lk)
    if kind == "none":
        return None
    if kind == "full":
        return _random_mask(logits_shape)
    if kind == "keys":  # [Lk]: the same keys hidden for every query
        mask = np.random.default_rng(2).random(lk) < 0.5
        mask[0] = True
        return mask
    if kind == "rows":  # [1, Lq, Lk] (or [Lq, Lk] for 2-D inputs)
        return _random_mask((1, lq, lk) if len(q_shape) > 2 else (lq, lk))
    raise AssertionError(kind)


@pytest.mark.parametrize("scale", ["sqrt", "none", 0.37])
@pytest.mark.parametrize("mask_kind", ["none", "full", "keys", "rows"])
@pytest.mark.parametrize("case", list(SHAPES))
def test_matches_numpy_reference(case, mask_kind, scale):
    q_shape, k_shape, v_shape = SHAPES[case]
    q, k, v = _inputs(q_shape, k_shape, v_shape)
    mask = _mask_for(mask_kind, q_shape, k_shape)
    out, weights = scaled_dot_product_attention(q, k, v, mask=mask, scale=scale)
    ref_out, ref_weights = reference_attention(q, k, v, mask=mask, scale=scale)
    assert tuple(out.shape) == (*q_shape[:-1], v_shape[-1])
    assert tuple(weights.shape) == (*q_shape[:-1], k_shape[-2])
    np.testing.assert_allclose(weights.numpy(), ref_weights, rtol=1e-5, atol=2e-6)
    np.testing.assert_allclose(out.numpy(), ref_out, rtol=1e-5, atol=1e-5)
    # Weights are a distribution over the allowed keys; masked keys get exactly 0.
    np.testing.assert_allclose(weights.numpy().sum(-1), 1.0, atol=1e-5)
    if mask is not None:
        hidden = ~np.broadcast_to(mask, weights.shape)
        assert np.all(weights.numpy()[hidden] == 0)


@pytest.mark.parametrize("scale", ["sqrt", "none", 0.37])
def test_float64_inputs_match_reference_tightly(scale):
    """float64 in, float64 throughout: the scale factor must not be rounded to float32 either
    (that alone gives relative errors ≈ 3e-8, far above float64's ≈ 1e-15)."""
    q, k, v = _inputs((2, 5, 8), (2, 7, 8), (2, 7, 3), dtype=np.float64)
    mask = _random_mask((2, 5, 7))
    out, weights = scaled_dot_product_attention(q, k, v, mask=mask, scale=scale)
    assert out.dtype == tf.float64
    ref_out, ref_weights = reference_attention(q, k, v, mask=mask, scale=scale)
    np.testing.assert_allclose(weights.numpy(), ref_weights, rtol=1e-12, atol=1e-14)
    np.testing.assert_allclose(out.numpy(), ref_out, rtol=1e-12, atol=1e-13)


def test_scale_factor_is_applied_as_documented():
    """'sqrt' is softmax(QKᵀ/√d_k), 'none' is softmax(QKᵀ), a float c is softmax(c·QKᵀ)."""
    q, k, v = _inputs((4, 16), (6, 16), (6, 2), dtype=np.float64)
    _, w_sqrt = scaled_dot_product_attention(q, k, v, scale="sqrt")
    _, w_const = scaled_dot_product_attention(q, k, v, scale=1 / math.sqrt(16))
    _, w_none = scaled_dot_product_attention(q, k, v, scale="none")
    _, w_one = scaled_dot_product_attention(q, k, v, scale=1.0)
    np.testing.assert_allclose(w_sqrt.numpy(), w_const.numpy(), rtol=1e-12)
    np.testing.assert_allclose(w_none.numpy(), w_one.numpy(), rtol=1e-12)
    assert not np.allclose(w_sqrt.numpy(), w_none.numpy())


@pytest.mark.parametrize("case", ["2d", "3d", "4d"])
def test_fully_masked_row_gives_zeros_and_leaves_other_rows_alone(case):
    q_shape, k_shape, v_shape = SHAPES[case]
    q, k, v = _inputs(q_shape, k_shape, v_shape)
    logits_shape = (*q_shape[:-2], q_shape[-2], k_shape[-2])
    mask = _random_mask(logits_shape)
    blocked = mask.copy()
    blocked[..., 1, :] = False  # query 1 may attend to nothing
    out, weights = scaled_dot_product_attention(q, k, v, mask=blocked)
    out, weights = out.numpy(), weights.numpy()
    assert np.all(np.isfinite(out)) and np.all(np.isfinite(weights))
    assert np.all(weights[..., 1, :] == 0)
    assert np.all(out[..., 1, :] == 0)
    # The other rows are exactly what the original mask gives.
    ref_out, ref_weights = scaled_dot_product_attention(q, k, v, mask=mask)
    others = [i for i in range(q_shape[-2]) if i != 1]
    np.testing.assert_array_equal(weights[..., others, :], ref_weights.numpy()[..., others, :])
    np.testing.assert_array_equal(out[..., others, :], ref_out.numpy()[..., others, :])


def test_mask_hiding_every_key_gives_zero_output():
    q, k, v = _inputs((3, 4), (5, 4), (5, 2))
    out, weights = scaled_dot_product_attention(q, k, v, mask=np.zeros(5, bool))
    assert np.all(out.numpy() == 0) and np.all(weights.numpy() == 0)


def test_output_is_a_convex_combination_of_values():
    q, k, v = _inputs((2, 6, 8), (2, 10, 8), (2, 10, 4), seed=9)
    out = scaled_dot_product_attention(q, k, v, scale="none")[0].numpy()
    low = v.min(axis=-2, keepdims=True) - 1e-5
    high = v.max(axis=-2, keepdims=True) + 1e-5
    assert np.all((out >= low) & (out <= high))


@pytest.mark.parametrize("scale", ["none", "sqrt", 1e-3, 0.05, 0.37, 1.0, 7.5, 100.0])
def test_argmax_is_unchanged_by_any_positive_scale(scale):
    """softmax is monotone in its input, so multiplying logits by c > 0 keeps the argmax."""
    q, k, v = _inputs((3, 12, 16), (3, 20, 16), (3, 20, 4), seed=4, dtype=np.float64)
    raw_argmax = np.argmax(np.matmul(q, np.swapaxes(k, -1, -2)), axis=-1)
    _, weights = scaled_dot_product_attention(q, k, v, scale=scale)
    np.testing.assert_array_equal(np.argmax(weights.numpy(), axis=-1), raw_argmax)


def test_larger_scale_sharpens_the_weights():
    q, k, v = _inputs((12, 16), (20, 16), (20, 4), seed=5, dtype=np.float64)
    peaks = [
        scaled_dot_product_attention(q, k, v, scale=c)[1].numpy().max(-1)
        for c in (0.01, 0.1, 1.0, 10.0)
    ]
    assert all(np.all(b > a) for a, b in itertools.pairwise(peaks))


def test_integer_inputs_are_accepted_as_float():
    q = np.arange(6).reshape(2, 3) % 3
    k = (np.arange(12).reshape(4, 3) * 7) % 5
    v = np.arange(8).reshape(4, 2)
    out, weights = scaled_dot_product_attention(q, k, v)
    assert out.dtype.is_floating
    ref_out, ref_weights = reference_attention(q, k, v)
    np.testing.assert_allclose(weights.numpy(), ref_weights, rtol=1e-5, atol=1e-7)
    np.testing.assert_allclose(out.numpy(), ref_out, rtol=1e-5, atol=1e-5)


def test_works_inside_tf_function():
    q, k, v = _inputs((2, 5, 8), (2, 7, 8), (2, 7, 3))
    mask = _random_mask((2, 5, 7))
    traced = tf.function(lambda a, b, c, m: scaled_dot_product_attention(a, b, c, mask=m))
    out, weights = traced(tf.constant(q), tf.constant(k), tf.constant(v), tf.constant(mask))
    ref_out, ref_weights = reference_attention(q, k, v, mask=mask)
    np.testing.assert_allclose(weights.numpy(), ref_weights, rtol=1e-5, atol=2e-6)
    np.testing.assert_allclose(out.numpy(), ref_out, rtol=1e-5, atol=1e-5)
