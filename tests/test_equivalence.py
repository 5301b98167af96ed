"""Our MultiHeadAttention is keras.layers.MultiHeadAttention, weight for weight."""

from __future__ import annotations

import keras
import numpy as np
import pytest

from attention_explained import MultiHeadAttention
from attention_explained.equivalence import compare_with_keras, scaling_equivalence

TOLERANCE = 1e-5
ROLES = ("query", "key", "value", "output")


def _role(path: str) -> str:
    """Which projection a weight belongs to, from its path ('…/query/kernel', '…/output_bias')."""
    leaf = path.replace("attention_output", "output").replace("/", "_")
    matches = [r for r in ROLES if f"_{r}_" in f"_{leaf}_"]
    assert len(matches) == 1, path
    return matches[0]


def _kind(path: str) -> str:
    return "kernel" if "kernel" in path else "bias"


def _pair(*, num_heads, key_dim, value_dim, use_bias, query, value, key, mask, seed):
    """Build both layers, give Keras random non-zero weights (biases included), copy them over."""
    kwargs = {"num_heads": num_heads, "key_dim": key_dim, "value_dim": value_dim}
    theirs = keras.layers.MultiHeadAttention(use_bias=use_bias, **kwargs)
    ours = MultiHeadAttention(use_bias=use_bias, **kwargs)
    theirs(query, value, key=key, attention_mask=mask)
    ours(query, value, key=key, attention_mask=mask)
    rng = np.random.default_rng(seed)
    # Keras initialises biases to 0, which would hide a bias applied in the wrong place.
    theirs.set_weights(
        [w + 0.3 * rng.standard_normal(w.shape).astype(w.dtype) for w in theirs.get_weights()]
    )
    ours.set_weights(theirs.get_weights())
    return ours, theirs


def _mask(batch, lq, lk, rng):
    mask = rng.random((batch, lq, lk)) < 0.5
    mask[np.arange(batch)[:, None], np.arange(lq)[None, :], rng.integers(0, lk, (batch, lq))] = True
    return mask  # every query keeps at least one key


CASES = {
    # name: (batch, Lq, Lk, query width, key width, value width, num_heads, key_dim, value_dim)
    "self": (2, 6, 6, 16, 16, 16, 4, 4, None),
    "cross": (2, 5, 9, 12, 12, 12, 3, 8, None),
    "cross-widths": (2, 5, 7, 12, 6, 10, 3, 4, None),
    "value-dim": (3, 4, 8, 10, 10, 10, 2, 6, 3),
    "cross-widths-value-dim": (2, 5, 7, 12, 6, 10, 3, 4, 5),
}


@pytest.mark.parametrize("use_bias", [True, False])
@pytest.mark.parametrize("masked", [False, True])
@pytest.mark.parametrize("case", list(CASES))
def test_matches_keras(case, masked, use_bias):
    batch, lq, lk, d_q, d_k_in, d_v_in, heads, key_dim, value_dim = CASES[case]
    rng = np.random.default_rng(len(case) + 10 * masked + 100 * use_bias)
    query = rng.standard_normal((batch, lq, d_q)).astype(np.float32)
    if case == "self":
        value = key = query
    else:
        value = rng.standard_normal((batch, lk, d_v_in)).astype(np.float32)
        key = value if d_k_in == d_v_in else rng.standard_normal((batch, lk, d_k_in)).astype("f4")
    mask = _mask(batch, lq, lk, rng) if masked else None
    ours, theirs = _pair(
        num_heads=heads,
        key_dim=key_dim,
        value_dim=value_dim,
        use_bias=use_bias,
        query=query,
        value=value,
        key=key,
        mask=mask,
        seed=1,
    )

    # Same weights, same order, same shapes.
    their_weights, our_weights = theirs.weights, ours.weights
    assert len(our_weights) == len(their_weights) == (8 if use_bias else 4)
    assert [(_role(w.path), _kind(w.path)) for w in our_weights] == [
        (_role(w.path), _kind(w.path)) for w in their_weights
    ]
    assert [tuple(w.shape) for w in our_weights] == [tuple(w.shape) for w in their_weights]

    their_out, their_scores = theirs(
        query, value, key=key, attention_mask=mask, return_attention_scores=True
    )
    our_out, our_scores = ours(
        query, value, key=key, attention_mask=mask, return_attention_scores=True
    )
    assert tuple(our_out.shape) == tuple(their_out.shape) == (batch, lq, d_q)
    assert tuple(our_scores.shape) == tuple(their_scores.shape) == (batch, heads, lq, lk)
    assert np.max(np.abs(np.asarray(our_out) - np.asarray(their_out))) <= TOLERANCE
    assert np.max(np.abs(np.asarray(our_scores) - np.asarray(their_scores))) <= TOLERANCE
    if masked:
        hidden = np.broadcast_to(~mask[:, None], our_scores.shape)
        assert np.all(np.asarray(our_scores)[hidden] == 0)


def test_weight_copy_is_needed_for_agreement():
    """The comparison can fail: with independent initial weights the layers disagree."""
    rng = np.random.default_rng(0)
    x = rng.standard_normal((2, 5, 8)).astype(np.float32)
    keras.utils.set_random_seed(1)
    theirs = keras.layers.MultiHeadAttention(num_heads=2, key_dim=4)
    keras.utils.set_random_seed(2)
    ours = MultiHeadAttention(num_heads=2, key_dim=4)
    diff = np.max(np.abs(np.asarray(theirs(x, x)) - np.asarray(ours(x, x))))
    assert diff > 1e-3


def test_key_dim_is_per_head():
    """key_dim is d_k of each head (as in Keras), not d_model: the query kernel is [d, h, d_k]."""
    layer = MultiHeadAttention(num_heads=4, key_dim=8)
    x = np.zeros((1, 3, 32), np.float32)
    layer(x, x)
    assert tuple(layer.query_kernel.shape) == (32, 4, 8)
    assert tuple(layer.output_kernel.shape) == (4, 8, 32)


def test_get_config_round_trip():
    layer = MultiHeadAttention(num_heads=3, key_dim=5, value_dim=7, use_bias=False)
    config = layer.get_config()
    assert {k: config[k] for k in ("num_heads", "key_dim", "value_dim", "use_bias")} == {
        "num_heads": 3,
        "key_dim": 5,
        "value_dim": 7,
        "use_bias": False,
    }
    clone = MultiHeadAttention.from_config(config)
    assert (clone.num_heads, clone.key_dim, clone.value_dim, clone.use_bias) == (3, 5, 7, False)


@pytest.mark.parametrize("masked", [True, False])
def test_compare_with_keras_reports_small_diffs(masked):
    diffs = compare_with_keras(masked=masked)
    assert set(diffs) == {"output", "scores"}
    for name, value in diffs.items():
        assert np.isfinite(value) and 0 <= value <= TOLERANCE, (name, value)


# -- dropping ÷√d_k = a change of initialisation and learning rate ------------------------------


@pytest.mark.parametrize("optimizer", ["sgd", "adam"])
def test_the_right_learning_rate_factor_gives_the_same_run(optimizer):
    """SGD: weights × d_k^¼, rate × √d_k; Adam: both × d_k^¼ (ε too). The logits agree to
    float64 rounding at every step; with the other optimiser's factor they part."""
    same = scaling_equivalence(optimizer, d_k=64, steps=6, match_epsilon=True)
    assert same["worst"] < 1e-10
    assert same["relative"].shape == (6,)
    wrong = {"sgd": 0.25, "adam": 0.5}[optimizer]
    apart = scaling_equivalence(optimizer, d_k=64, steps=6, lr_power=wrong, match_epsilon=True)
    assert apart["worst"] > 0.01


def test_adam_epsilon_is_what_breaks_the_identity():
    kept = scaling_equivalence("adam", d_k=64, steps=6, match_epsilon=False)["worst"]
    matched = scaling_equivalence("adam", d_k=64, steps=6, match_epsilon=True)["worst"]
    assert matched < 1e-10 < kept


def test_equivalence_bad_arguments_name_the_argument():
    with pytest.raises(ValueError, match="optimizer must be one of"):
        scaling_equivalence("rmsprop")
    with pytest.raises(ValueError, match="d_k must be a positive integer"):
        scaling_equivalence("adam", d_k=0)
