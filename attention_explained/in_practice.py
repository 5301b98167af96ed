"""What √d_k does not fix, and where the scale goes in practice (the beyond and multi-head pages).

- :func:`many_keys`: one query against n keys at a fixed d_k. ÷√d_k holds the logits' spread
  constant in d_k, not in n: the largest of n logits grows (like σ√(2 ln n) at most).
- :func:`causal_entropy`: under a causal mask row i sees i keys, so its entropy ceiling is
  log i; the diagnostic divides by each row's own ceiling (:func:`stats.entropy_ratio`).
- :func:`fp16_overflow_size` and :func:`keras_fp16_overflow_size`: in float16 the unscaled
  QKᵀ overflows (largest finite value 65504) at a component size where q/√d_k · k does not.
- :func:`double_scaled_weights`: q pre-scaled by 1/√d_k *and* a kernel's default 1/√d_k kept.
- :func:`value_dim_scales`: Keras scales by the query-key width, not the value width.

Core layer: NumPy, TensorFlow and Keras; neither matplotlib nor MkDocs.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Iterable

import numpy as np

from attention_explained import _validate, settings
from attention_explained._tf import tf


def _uniform(rng: np.random.Generator, half_width: float, shape) -> np.ndarray:
    return rng.uniform(-half_width, half_width, size=shape)


def many_keys(
    lengths: Iterable[int] = settings.MANY_KEYS_LENGTHS,
    *,
    d_k: int = settings.MANY_KEYS_D_K,
    half_width: float = settings.MANY_KEYS_HALF_WIDTHS["unit"],
    seeds: Iterable[int] = settings.MANY_KEYS_SEEDS,
    queries: int = settings.MANY_KEYS_QUERIES,
) -> dict[str, np.ndarray]:
    """Rows of softmax(q·k/√d_k) over n keys, for each n in ``lengths`` and each seed.

    Components are uniform[−half_width, half_width] (variance half_width²/3), queries and keys
    independent; each seed draws ``queries`` queries and max(lengths) keys, and a row of n keys
    uses the first n. Returns ``length`` and, per metric, an array ``[seed, length]`` of means
    over the queries: ``max_weight``, ``max_logit`` (the row's largest ÷√d_k logit),
    ``logit_std`` (the ÷√d_k logits' standard deviation) and ``entropy`` (nats). Float64.
    """
    lengths = [
        _validate.positive_int("lengths[]", n)
        for n in _validate.sequence("lengths", lengths, "positive integers")
    ]
    seeds = [_validate.seed(s) for s in _validate.sequence("seeds", seeds, "seeds (ints >= 0)")]
    if not lengths or not seeds:
        raise ValueError("lengths and seeds must each contain at least one value")
    d_k = _validate.positive_int("d_k", d_k)
    queries = _validate.positive_int("queries", queries)
    half_width = _validate.finite_float("half_width", half_width)
    if half_width <= 0:
        raise ValueError(f"half_width must be > 0, got {half_width}")
    out = {m: np.zeros((len(seeds), len(lengths))) for m in ("max_weight", "max_logit")}
    out |= {m: np.zeros((len(seeds), len(lengths))) for m in ("logit_std", "entropy")}
    for i, seed in enumerate(seeds):
        rng = np.random.default_rng([seed, d_k])
        q = _uniform(rng, half_width, (queries, d_k))
        k = _uniform(rng, half_width, (max(lengths), d_k))
        z_all = q @ k.T / math.sqrt(d_k)
        for j, n in enumerate(lengths):
            z = z_all[:, :n]
            p = np.exp(z - z.max(axis=-1, keepdims=True))
            p /= p.sum(axis=-1, keepdims=True)
            out["max_weight"][i, j] = p.max(axis=-1).mean()
            out["max_logit"][i, j] = z.max(axis=-1).mean()
            out["logit_std"][i, j] = z.std()
            out["entropy"][i, j] = (-np.sum(p * np.log(np.maximum(p, 1e-300)), -1)).mean()
    out["length"] = np.asarray(lengths)
    return out


def causal_entropy(
    *,
    length: int = settings.CAUSAL_LENGTH,
    d_k: int = settings.CAUSAL_D_K,
    half_width: float = settings.MANY_KEYS_HALF_WIDTHS["unit"],
    seed: int = 0,
) -> dict[str, float]:
    """Mean row entropy of one [length, length] self-attention, full and under a causal mask,
    as the naive ratio to log n and as :func:`stats.entropy_ratio` (each row to log of its own
    number of keys). Rows with a single key (the causal mask's first) have no ratio and are
    left out of the per-row means."""
    from attention_explained.stats import attention_entropy, entropy_ratio

    length = _validate.positive_int("length", length)
    if length < 2:
        raise ValueError(f"length must be >= 2 (a row needs two keys to spread), got {length}")
    rng = np.random.default_rng([_validate.seed(seed), length, d_k])
    q = _uniform(rng, half_width, (length, d_k))
    k = _uniform(rng, half_width, (length, d_k))
    z = q @ k.T / math.sqrt(d_k)
    causal = np.tril(np.ones((length, length), dtype=bool))
    out = {}
    for name, mask in (("full", None), ("causal", causal)):
        masked = z if mask is None else np.where(mask, z, -np.inf)
        p = np.exp(masked - masked.max(axis=-1, keepdims=True))
        p /= p.sum(axis=-1, keepdims=True)
        entropy = attention_entropy(tf.constant(p)).numpy()
        ratio = entropy_ratio(tf.constant(p), mask=mask).numpy()
        out[f"{name}.naive"] = float(np.mean(entropy) / math.log(length))
        out[f"{name}.per_row"] = float(np.nanmean(ratio))
    return out


# -- float16 -----------------------------------------------------------------------------------


def _sizes() -> tuple[float, ...]:
    return settings.FP16_SIZES


def first_overflow(overflows) -> float:
    """The smallest size in FP16_SIZES where ``overflows(size)`` holds, by bisection: the
    sizes grow geometrically and the products with them, so the predicate is monotone."""
    sizes = _sizes()
    if overflows(sizes[0]) or not overflows(sizes[-1]):
        raise ValueError(
            f"the float16 overflow must lie between component sizes {sizes[0]} and {sizes[-1]}"
        )
    low, high = 0, len(sizes) - 1  # overflows(sizes[low]) is False, at sizes[high] True
    while high - low > 1:
        mid = (low + high) // 2
        low, high = (low, mid) if overflows(sizes[mid]) else (mid, high)
    return sizes[high]


def _unit_rows(seed: int, length: int, d_k: int) -> tuple[np.ndarray, np.ndarray]:
    """Queries and keys with unit-variance components (standard normal), float64."""
    rng = np.random.default_rng([_validate.seed(seed), length, d_k, 16])
    return rng.standard_normal((length, d_k)), rng.standard_normal((length, d_k))


def fp16_product_overflows(
    size: float, *, d_k: int, length: int, seed: int, aligned: bool, prescale: bool
) -> bool:
    """Whether QKᵀ computed by TensorFlow in float16 has an infinite entry, for queries and
    keys of components with standard deviation ``size``. ``aligned``: keys equal to queries
    (self-attention without projections, the worst case); ``prescale``: q multiplied by
    1/√d_k (in float16) before the product, as Keras' explicit path does."""
    x, y = _unit_rows(seed, length, d_k)
    q = tf.constant((size * x).astype(np.float16))
    k = q if aligned else tf.constant((size * y).astype(np.float16))
    if prescale:
        q = q * tf.constant(1 / math.sqrt(d_k), tf.float16)
    return bool(np.isinf(tf.linalg.matmul(q, k, transpose_b=True).numpy()).any())


def fp16_overflow_size(
    *,
    d_k: int = settings.FP16_D_K,
    length: int = settings.FP16_LENGTH,
    seed: int = 0,
    aligned: bool = True,
    prescale: bool = False,
) -> float:
    """The smallest component size (on the grid ``settings.FP16_SIZES``) at which QKᵀ in
    float16 overflows; see :func:`fp16_product_overflows`."""
    d_k = _validate.positive_int("d_k", d_k)
    length = _validate.positive_int("length", length)
    return first_overflow(
        lambda size: fp16_product_overflows(
            size, d_k=d_k, length=length, seed=seed, aligned=aligned, prescale=prescale
        )
    )


@functools.cache
def _identity_layer(d_k: int):
    """A float16 ``keras.layers.MultiHeadAttention`` (one head of width d_k) whose projections
    are the identity, so its query and key are its inputs."""
    import keras

    layer = keras.layers.MultiHeadAttention(num_heads=1, key_dim=d_k, dtype="float16")
    x = np.zeros((1, 2, d_k), dtype=np.float16)
    layer(x, x)
    eye = np.eye(d_k, dtype=np.float16)
    zeros = np.zeros((1, d_k), dtype=np.float16)
    projection = [eye.reshape(d_k, 1, d_k), zeros]
    layer.set_weights(projection * 3 + [eye.reshape(1, d_k, d_k), np.zeros(d_k, dtype=np.float16)])
    return layer


def keras_fp16_overflow_size(
    *,
    d_k: int = settings.FP16_D_K,
    length: int = settings.FP16_LENGTH,
    seed: int = 0,
    explicit: bool = False,
) -> float:
    """The smallest component size at which Keras' float16 ``MultiHeadAttention`` (identity
    projections, self-attention, so q = k) returns a non-finite output.

    ``explicit=False`` is its default call, which hands ``scale=1/√key_dim`` to
    ``keras.ops.dot_product_attention`` (on the TensorFlow backend that multiplies the logits
    after the float16 product); ``explicit=True`` asks for the attention scores, which takes
    the path that multiplies the query by 1/√key_dim before the product.
    """
    d_k = _validate.positive_int("d_k", d_k)
    layer = _identity_layer(d_k)
    x, _ = _unit_rows(seed, _validate.positive_int("length", length), d_k)

    def overflows(size: float) -> bool:
        inputs = (size * x[None]).astype(np.float16)
        if explicit:
            output, _ = layer(inputs, inputs, return_attention_scores=True)
        else:
            output = layer(inputs, inputs)
        return not bool(np.isfinite(np.asarray(output, dtype=np.float32)).all())

    return first_overflow(overflows)


# -- where the scale goes ----------------------------------------------------------------------


def double_scaled_weights(
    *, d_k: int = settings.DOUBLE_SCALE_D_K, length: int = settings.LENGTH, seed: int = 0
) -> dict[str, np.ndarray]:
    """Attention weights from ``keras.ops.dot_product_attention`` with its default scale
    (None: 1/√d_k), for q as given (``once``) and for q already multiplied by 1/√d_k
    (``twice``: the double-scaling bug), with our NumPy reference beside each.

    Unit-variance components; the values are the identity, so the output rows are the
    weights. Float64 throughout.
    """
    import keras

    d_k = _validate.positive_int("d_k", d_k)
    length = _validate.positive_int("length", length)
    rng = np.random.default_rng([_validate.seed(seed), length, d_k, 2])
    q = _uniform(rng, math.sqrt(3.0), (length, d_k))
    k = _uniform(rng, math.sqrt(3.0), (length, d_k))
    eye = np.eye(length)
    out = {}
    for name, query in (("once", q), ("twice", q / math.sqrt(d_k))):
        batched = (a[None, :, None] for a in (query, k, eye))  # [B, T, N, H]
        weights = keras.ops.dot_product_attention(*batched)  # scale=None: 1/√d_k
        out[name] = np.asarray(weights, dtype=np.float64)[0, :, 0]
        z = query @ k.T / math.sqrt(d_k)
        ref = np.exp(z - z.max(axis=-1, keepdims=True))
        out[f"{name}.reference"] = ref / ref.sum(axis=-1, keepdims=True)
    return out


def value_dim_scales(seed: int = 0) -> dict[str, float]:
    """Keras ``MultiHeadAttention`` with ``value_dim`` ≠ ``key_dim``: the max |difference|
    between its attention scores and softmax(q·k·c) for c = 1/√key_dim and c = 1/√value_dim,
    where q and k are its own projections (computed here in NumPy from its weights)."""
    import keras

    case = settings.VALUE_DIM_CASE
    heads, key_dim, value_dim = case["num_heads"], case["key_dim"], case["value_dim"]
    rng = np.random.default_rng([_validate.seed(seed), 3])
    x = settings.VALUE_DIM_INPUT_STD * rng.standard_normal((1, case["length"], case["d_model"]))
    keras.utils.set_random_seed(_validate.seed(seed))
    layer = keras.layers.MultiHeadAttention(heads, key_dim, value_dim=value_dim, dtype="float64")
    _, scores = layer(x, x, return_attention_scores=True)
    scores = np.asarray(scores, dtype=np.float64)[0]  # [heads, L, L]
    wq, bq, wk, bk = (np.asarray(w, dtype=np.float64) for w in layer.get_weights()[:4])
    q = np.einsum("ld,dhk->hlk", x[0], wq) + bq[:, None, :]
    k = np.einsum("ld,dhk->hlk", x[0], wk) + bk[:, None, :]
    out = {}
    for name, width in (("key_dim", key_dim), ("value_dim", value_dim)):
        z = q @ np.swapaxes(k, -1, -2) / math.sqrt(width)
        p = np.exp(z - z.max(axis=-1, keepdims=True))
        p /= p.sum(axis=-1, keepdims=True)
        out[name] = float(np.abs(p - scores).max())
    out["value_width"] = float(layer.get_weights()[4].shape[-1])
    return out
