"""What real layers start with (attention_explained/initialisation.py), against formulas
written here from the initialisers' definitions, not taken from the module:

- Glorot uniform draws from U(−b, b), b = √(6/(fan_in + fan_out)), variance b²/3.
- Keras ≥ 3.15's EinsumDense gives a (d_model, h, key_dim) kernel fan_in = d_model and fan_out
  = h·key_dim; Keras ≤ 3.14 gave fan_in = d_model·h, fan_out = d_model·key_dim.
- PyTorch's xavier_uniform_ on the (3E, E) in_proj_weight: fan_in = E, fan_out = 3E.
- With unit-variance inputs, Var(q_m) = d_model·Var(W).
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from attention_explained import initialisation


def glorot_variance(fan_in: int, fan_out: int) -> float:
    bound = math.sqrt(6.0 / (fan_in + fan_out))
    return bound**2 / 3


@pytest.mark.parametrize(("d_model", "heads", "key_dim"), [(64, 4, 16), (128, 8, 16), (96, 2, 64)])
def test_keras_layer_follows_the_new_fans(d_model, heads, key_dim):
    expected = d_model * glorot_variance(d_model, heads * key_dim)
    got = initialisation.measure("keras", d_model=d_model, num_heads=heads, key_dim=key_dim)
    assert got["var_q"] == pytest.approx(expected, rel=0.08)
    old = d_model * glorot_variance(d_model * heads, d_model * key_dim)
    if abs(old / expected - 1) > 0.3:  # the two rules differ here: the measurement tells them apart
        assert abs(got["var_q"] / old - 1) > 0.2


def test_old_keras_fans_and_pytorch_follow_their_formulas():
    d_model, heads, key_dim = 128, 8, 16
    old = initialisation.measure("keras314", d_model=d_model, num_heads=heads, key_dim=key_dim)
    assert old["var_q"] == pytest.approx(
        d_model * glorot_variance(d_model * heads, d_model * key_dim), rel=0.08
    )
    torch = initialisation.measure("torch", d_model=d_model, num_heads=heads, key_dim=key_dim)
    expected = d_model * glorot_variance(d_model, 3 * d_model)
    assert torch["var_q"] == pytest.approx(expected, rel=0.08)
    note = initialisation.measure("note", d_model=d_model, num_heads=heads, key_dim=key_dim)
    assert note["var_q"] == pytest.approx(6.0**2 / 12, rel=0.05)  # uniform[−3, 3]


def test_predicted_variances_are_the_formulas():
    for d_model, heads, key_dim in [(512, 8, 64), (512, 8, 16), (256, 4, 64)]:
        args = (d_model, heads, key_dim)
        assert initialisation.predicted_var_q("keras", *args) == pytest.approx(
            d_model * glorot_variance(d_model, heads * key_dim)
        )
        assert initialisation.predicted_var_q("keras314", *args) == pytest.approx(
            d_model * glorot_variance(d_model * heads, d_model * key_dim)
        )
        assert initialisation.predicted_var_q("torch", *args) == pytest.approx(0.5)
    assert initialisation.predicted_var_q("keras314", 512, 8, 64) == pytest.approx(2 / 72)


def test_logit_spread_and_weights_follow_the_variance():
    """std(q·k) = Var(q_m)·√d_k for independent q, k with equal variances; ÷√d_k removes √d_k;
    the layer's own largest weight agrees with the softmax of our logits' scale."""
    got = initialisation.measure("keras", d_model=256, num_heads=4, key_dim=64, batch=8)
    assert got["std_raw"] == pytest.approx(got["var_q"] * 8, rel=0.08)
    assert got["std_sqrt"] == pytest.approx(got["std_raw"] / 8, rel=1e-9)
    n = 30
    assert 1 / n < got["max_sqrt"] < got["max_raw"] < 1


def test_glorot_is_lecun_when_d_model_is_h_times_key_dim():
    assert initialisation.same_as_lecun(num_heads=4, key_dim=16) == 0.0


def test_grid_rows_are_seeds_and_deterministic():
    kwargs = {"key_dims": (8,), "head_counts": (), "across_key_dims": (), "seeds": (0, 1)}
    first, second = initialisation.grid(**kwargs), initialisation.grid(**kwargs)
    assert set(first) == {(s, 64, 8, 8) for s in initialisation.SCHEMES}
    for point, rows in first.items():
        assert rows.shape == (2, len(initialisation.QUANTITIES))
        assert np.array_equal(rows, second[point])
        assert not np.array_equal(rows[0], rows[1])  # the seeds differ


@pytest.mark.parametrize(
    ("kwargs", "error", "match"),
    [
        ({"scheme": "jax"}, ValueError, "scheme must be one of"),
        ({"key_dim": 0}, ValueError, "key_dim must be a positive integer"),
        ({"scheme": "torch", "key_dim": 8}, ValueError, "key_dim must be d_model // num_heads"),
        ({"scheme": "torch", "num_heads": 3}, ValueError, "d_model must be a multiple"),
        ({"dtype": "float16"}, ValueError, "dtype must be one of"),
    ],
)
def test_bad_arguments_name_the_argument(kwargs, error, match):
    args = {"scheme": "keras", "d_model": 64, "num_heads": 4, "key_dim": 16} | kwargs
    scheme = args.pop("scheme")
    with pytest.raises(error, match=match):
        initialisation.measure(scheme, **args)
