"""Bad input gets a clear ValueError/TypeError that names the argument and what it accepts."""

from __future__ import annotations

import math

import numpy as np
import pytest

from attention_explained import (
    MultiHeadAttention,
    attention_entropy,
    logit_variance,
    make_dot_product_tensor,
    max_weight,
    saturation_sweep,
    scaled_dot_product_attention,
    softmax_jacobian,
)
from attention_explained.tensors import uniform_pair

ERRORS = (ValueError, TypeError)
NAN, INF = math.nan, math.inf

BAD_COUNTS = [0, -1, 2.5, "10", True, None, NAN]


def _case(call, match, id):
    return pytest.param(call, match, id=id)


def _count_cases():
    cases = []
    for bad in BAD_COUNTS:
        cases += [
            _case(
                lambda b=bad: make_dot_product_tensor(b, 4),
                r"^length must be a positive integer",
                f"mdt-length={bad!r}",
            ),
            _case(
                lambda b=bad: make_dot_product_tensor(5, b),
                r"^dim must be a positive integer",
                f"mdt-dim={bad!r}",
            ),
            _case(
                lambda b=bad: uniform_pair(b, 4),
                r"^length must be a positive integer",
                f"pair-length={bad!r}",
            ),
            _case(
                lambda b=bad: logit_variance(b),
                r"^dim must be a positive integer",
                f"logit_variance-dim={bad!r}",
            ),
        ]
    return cases


def _bounds_cases():
    cases = []
    for low, high in [(1.0, 1.0), (2.0, -2.0), (3, 3)]:
        for name, fn in (("mdt", make_dot_product_tensor), ("pair", uniform_pair)):
            cases.append(
                _case(
                    lambda f=fn, lo=low, hi=high: f(5, 4, minval=lo, maxval=hi),
                    r"^minval must be smaller than maxval",
                    f"{name}-minval={low}-maxval={high}",
                )
            )
        cases.append(
            _case(
                lambda lo=low, hi=high: logit_variance(4, minval=lo, maxval=hi),
                r"^minval must be smaller than maxval",
                f"logit_variance-minval={low}-maxval={high}",
            )
        )
    for which in ("minval", "maxval"):
        for bad in (NAN, INF, -INF, "0", None, True):
            kwargs = {which: bad}
            cases += [
                _case(
                    lambda k=kwargs: make_dot_product_tensor(5, 4, **k),
                    rf"^{which} must be a finite real number",
                    f"mdt-{which}={bad!r}",
                ),
                _case(
                    lambda k=kwargs: logit_variance(4, **k),
                    rf"^{which} must be a finite real number",
                    f"logit_variance-{which}={bad!r}",
                ),
            ]
    return cases


def _seed_cases():
    return [
        _case(
            lambda b=bad: make_dot_product_tensor(5, 4, seed=b),
            r"^seed must be a non-negative integer",
            f"seed={bad!r}",
        )
        for bad in (-1, 1.5, True, "0", None)
    ]


# --- scaled_dot_product_attention -------------------------------------------------------------

rng = np.random.default_rng(0)
Q = rng.standard_normal((3, 4)).astype(np.float32)
K = rng.standard_normal((5, 4)).astype(np.float32)
V = rng.standard_normal((5, 2)).astype(np.float32)


def _with(array, index, bad):
    out = array.copy()
    out[index] = bad
    return out


def _sdpa_cases():
    cases = []
    for name, position in (("query", 0), ("key", 1), ("value", 2)):
        for bad in (NAN, INF, -INF):
            args = [Q, K, V]
            args[position] = _with(args[position], (1, 1), bad)
            cases.append(
                _case(
                    lambda a=tuple(args): scaled_dot_product_attention(*a),
                    rf"^{name} contains NaN or inf; every entry must be finite",
                    f"{name}={bad}",
                )
            )
    cases += [
        _case(
            lambda: scaled_dot_product_attention(Q, K[:, :3], V),
            r"^query and key must have the same width d_k.*\[\.\.\., 4\].*\[\.\.\., 3\]",
            "width-mismatch",
        ),
        _case(
            lambda: scaled_dot_product_attention(Q, K, V[:4]),
            r"^key and value must have the same length Lk",
            "length-mismatch",
        ),
    ]
    for empty_shape, name in (((0, 4), "query"), ((2, 0, 4), "query"), ((3, 0), "query")):
        cases.append(
            _case(
                lambda s=empty_shape: scaled_dot_product_attention(np.zeros(s, np.float32), K, V),
                rf"^{name} must not be empty",
                f"empty-{name}-{empty_shape}",
            )
        )
    cases += [
        _case(
            lambda: scaled_dot_product_attention(
                Q, np.zeros((0, 4), np.float32), np.zeros((0, 2), np.float32)
            ),
            r"^key must not be empty",
            "empty-key",
        ),
        _case(
            lambda: scaled_dot_product_attention(Q, K, np.zeros((5, 0), np.float32)),
            r"^value must not be empty",
            "empty-value",
        ),
        _case(
            lambda: scaled_dot_product_attention(Q[0], K, V),
            r"^query must have rank >= 2",
            "rank-1-query",
        ),
    ]
    scale_msg = r"^scale must be .*'sqrt'.*'none'"
    for bad in ("cube", "", "SQRT", 0, 0.0, -1.0, NAN, INF, True, False, None, [1.0]):
        cases.append(
            _case(
                lambda b=bad: scaled_dot_product_attention(Q, K, V, scale=b),
                scale_msg,
                f"scale={bad!r}",
            )
        )
    for shape in ((4, 5), (3, 4), (6,), (2, 3, 5), (1, 3, 5)):
        cases.append(
            _case(
                lambda s=shape: scaled_dot_product_attention(Q, K, V, mask=np.ones(s, bool)),
                r"^mask of shape .* does not broadcast to the logits' shape .*\[\.\.\., Lq, Lk\]",
                f"mask-shape={shape}",
            )
        )
    for dtype in (np.int32, np.float32, np.uint8):
        cases.append(
            _case(
                lambda d=dtype: scaled_dot_product_attention(Q, K, V, mask=np.ones((3, 5), d)),
                r"^mask must be boolean",
                f"mask-dtype={np.dtype(dtype).name}",
            )
        )
    return cases


# --- probabilities ----------------------------------------------------------------------------


def _prob_cases():
    cases = []
    bad_rows = {
        "sum>1": [0.5, 0.6],
        "sum<1": [0.2, 0.3, 0.1],
        "negative": [1.5, -0.5],
        "batched-one-bad-row": [[0.5, 0.5], [0.7, 0.7]],
        "logits-not-probs": [2.0, -1.0, 0.5],
    }
    for fn, name in (
        (softmax_jacobian, "probs"),
        (attention_entropy, "weights"),
        (max_weight, "weights"),
    ):
        for label, row in bad_rows.items():
            cases.append(
                _case(
                    lambda f=fn, r=row: f(np.asarray(r, np.float32)),
                    rf"^{name} must be probabilities: entries >= 0 and each row summing to 1",
                    f"{fn.__name__}-{label}",
                )
            )
        cases += [
            _case(
                lambda f=fn: f(np.array([0.5, NAN])),
                rf"^{name} contains NaN or inf",
                f"{fn.__name__}-nan",
            ),
            _case(
                lambda f=fn: f(np.zeros((0,))),
                rf"^{name} must not be empty",
                f"{fn.__name__}-empty",
            ),
            _case(
                lambda f=fn: f(np.zeros((3, 0))),
                rf"^{name} must not be empty",
                f"{fn.__name__}-empty-rows",
            ),
            _case(
                lambda f=fn: f(1.0),
                rf"^{name} must have at least one axis",
                f"{fn.__name__}-scalar",
            ),
        ]
    return cases


# --- saturation_sweep and MultiHeadAttention --------------------------------------------------


def _sweep_cases():
    return [
        _case(
            lambda: saturation_sweep([]),
            r"^dims must contain at least one positive integer",
            "dims-empty",
        ),
        _case(
            lambda: saturation_sweep([4, 0]), r"^dims\[\] must be a positive integer", "dims-zero"
        ),
        _case(
            lambda: saturation_sweep([4, 2.5]),
            r"^dims\[\] must be a positive integer",
            "dims-float",
        ),
        # A bare int instead of a list must name the argument too, not "'int' is not iterable".
        _case(lambda: saturation_sweep(1024), r"^dims must be", "dims-scalar"),
        _case(lambda: saturation_sweep([4], seeds=3), r"^seeds must be", "seeds-scalar"),
        _case(
            lambda: saturation_sweep([4], scales=["cube"]),
            r"^scales\[\] must be one of 'none', 'sqrt', 'unit'",
            "scale-unknown",
        ),
        _case(
            lambda: saturation_sweep([4], scales=[]),
            r"^scales must name at least one of",
            "scales-empty",
        ),
        _case(
            lambda: saturation_sweep([4], seeds=[-1]),
            r"^seed must be a non-negative integer",
            "seed-negative",
        ),
        _case(
            lambda: saturation_sweep([4], seeds=[1.5]),
            r"^seed must be a non-negative integer",
            "seed-float",
        ),
        _case(
            lambda: saturation_sweep([4], seeds=[True]),
            r"^seed must be a non-negative integer",
            "seed-bool",
        ),
        _case(
            lambda: saturation_sweep([4], seeds=[]),
            r"^seeds must contain at least one seed",
            "seeds-empty",
        ),
        _case(
            lambda: saturation_sweep([4], length=0),
            r"^length must be a positive integer",
            "length-zero",
        ),
        _case(
            lambda: saturation_sweep([4], minval=1, maxval=0),
            r"^minval must be smaller than maxval",
            "bounds",
        ),
    ]


def _mha_cases():
    return [
        _case(
            lambda: MultiHeadAttention(num_heads=True, key_dim=4),
            r"^num_heads must be a positive integer",
            "num_heads=True",
        ),
        _case(
            lambda: MultiHeadAttention(num_heads=0, key_dim=4),
            r"^num_heads must be a positive integer",
            "num_heads=0",
        ),
        _case(
            lambda: MultiHeadAttention(num_heads=2.5, key_dim=4),
            r"^num_heads must be a positive integer",
            "num_heads=2.5",
        ),
        _case(
            lambda: MultiHeadAttention(num_heads=2, key_dim=-1),
            r"^key_dim must be a positive integer",
            "key_dim=-1",
        ),
        _case(
            lambda: MultiHeadAttention(num_heads=2, key_dim="8"),
            r"^key_dim must be a positive integer",
            "key_dim='8'",
        ),
        _case(
            lambda: MultiHeadAttention(num_heads=2, key_dim=4, value_dim=0),
            r"^value_dim must be a positive integer",
            "value_dim=0",
        ),
        _case(
            lambda: MultiHeadAttention(num_heads=2, key_dim=4, use_bias="yes"),
            r"^use_bias must be True or False",
            "use_bias='yes'",
        ),
        _case(
            lambda: MultiHeadAttention(num_heads=2, key_dim=4, use_bias=1),
            r"^use_bias must be True or False",
            "use_bias=1",
        ),
    ]


ALL_CASES = (
    _count_cases()
    + _bounds_cases()
    + _seed_cases()
    + _sdpa_cases()
    + _prob_cases()
    + _sweep_cases()
    + _mha_cases()
)


@pytest.mark.parametrize(("call", "match"), ALL_CASES)
def test_bad_input_raises_a_clear_error(call, match):
    with pytest.raises(ERRORS, match=match):
        call()


# The checks must not reject good input.


def test_integral_numbers_of_any_integer_type_are_accepted():
    assert tuple(make_dot_product_tensor(np.int64(3), np.int32(2), seed=np.uint8(1)).shape) == (
        3,
        3,
    )
    assert logit_variance(np.int16(4)) == 36


def test_valid_probabilities_are_accepted():
    p = np.array([[0.25, 0.75], [1.0, 0.0]], np.float32)
    assert softmax_jacobian(p).shape == (2, 2, 2)
    assert attention_entropy(p).shape == (2,)
    assert max_weight(p).shape == (2,)
