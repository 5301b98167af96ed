"""What √d_k does not fix, and where the scale goes: each measurement against a reference."""

from __future__ import annotations

import math

import numpy as np
import pytest
import tensorflow as tf

from attention_explained import in_practice, settings
from attention_explained.stats import entropy_ratio


def test_entropy_ratio_divides_each_row_by_its_own_number_of_keys():
    # a causal 3×3 row set, each row uniform over the keys it may see
    mask = np.tril(np.ones((3, 3), dtype=bool))
    p = mask / mask.sum(axis=-1, keepdims=True)
    ratio = entropy_ratio(tf.constant(p), mask=mask).numpy()
    assert math.isnan(ratio[0])  # one key: no spread to measure
    np.testing.assert_allclose(ratio[1:], 1.0, atol=1e-12)
    # without the mask the same rows read below 1: log 2 / log 3 for the second
    plain = entropy_ratio(tf.constant(p)).numpy()
    np.testing.assert_allclose(plain[1], math.log(2) / math.log(3), atol=1e-12)


def test_entropy_ratio_refuses_weight_on_a_masked_key_and_a_wrong_mask():
    mask = np.tril(np.ones((2, 2), dtype=bool))
    with pytest.raises(ValueError, match="masked key"):
        entropy_ratio(tf.constant(np.full((2, 2), 0.5)), mask=mask)
    with pytest.raises(ValueError, match="boolean array"):
        entropy_ratio(tf.constant(np.full((2, 2), 0.5)), mask=np.ones((2, 3), dtype=bool))


def test_many_keys_logits_have_the_components_spread_and_the_largest_grows():
    out = in_practice.many_keys((16, 1024), seeds=(0, 1), queries=16)
    assert out["max_weight"].shape == (2, 2)
    np.testing.assert_allclose(out["logit_std"], 1.0, atol=0.15)  # unit-variance components
    assert np.all(out["max_logit"][:, 1] > out["max_logit"][:, 0])
    assert np.all(out["max_logit"] <= out["logit_std"] * np.sqrt(2 * np.log([16, 1024])))
    with pytest.raises(ValueError, match="half_width"):
        in_practice.many_keys((4,), half_width=0.0)


def test_the_overflow_search_finds_the_first_overflowing_size():
    sizes = settings.FP16_SIZES
    # an analytic predicate: overflow from 10 on; the search returns the first grid size ≥ 10
    found = in_practice.first_overflow(lambda s: s >= 10)
    assert found == min(s for s in sizes if s >= 10)
    with pytest.raises(ValueError, match="between component sizes"):
        in_practice.first_overflow(lambda s: True)


def test_float16_overflow_of_equal_queries_and_keys_is_where_d_k_s_squared_meets_65504():
    # the measured size overflows, the grid step below does not, and it sits near √(65504/d_k)
    size = in_practice.fp16_overflow_size(seed=0)
    below = settings.FP16_SIZES[settings.FP16_SIZES.index(size) - 1]
    kwargs = {"d_k": 128, "length": 30, "seed": 0, "aligned": True, "prescale": False}
    assert in_practice.fp16_product_overflows(size, **kwargs)
    assert not in_practice.fp16_product_overflows(below, **kwargs)
    assert 0.8 * math.sqrt(65504 / 128) < size <= math.sqrt(65504 / 128)


def test_double_scaling_through_keras_matches_the_numpy_reference():
    out = in_practice.double_scaled_weights(seed=0)
    for name in ("once", "twice"):
        np.testing.assert_allclose(out[name], out[f"{name}.reference"], atol=1e-6)
    # twice is the same as dividing the logits by d_k: compare with that softmax
    assert out["twice"].max(axis=-1).mean() < out["once"].max(axis=-1).mean()
