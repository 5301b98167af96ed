"""Statistics of attention logits and softmax weights: what the site's figures and prose quote."""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence

import numpy as np

from attention_explained import _validate, settings
from attention_explained._tf import tf
from attention_explained.tensors import uniform_pair

SWEEP_SCALES = settings.SCALES
SWEEP_METRICS = ("logit_std", "entropy", "max_weight", "jacobian_fro", "grad_norm")


def uniform_moments(
    minval: float = settings.UNIFORM_MIN, maxval: float = settings.UNIFORM_MAX
) -> tuple[float, float]:
    """Mean and variance of uniform[minval, maxval]: (a+b)/2 and (b−a)²/12."""
    low, high = _validate.bounds(minval, maxval)
    return (low + high) / 2, (high - low) ** 2 / 12


def logit_variance(
    dim: int, *, minval: float = settings.UNIFORM_MIN, maxval: float = settings.UNIFORM_MAX
) -> float:
    """Theoretical Var(q·k) for independent uniform components: dim·(σ⁴ + 2μ²σ²).

    Each product q_i k_i of independent X, Y has Var = σ_X²σ_Y² + μ_X²σ_Y² + μ_Y²σ_X²,
    and the ``dim`` products are independent, so their variances add. Only independence
    is needed, not Gaussianity. For uniform[-3, 3] (μ = 0, σ² = 3) this is 9·dim.
    """
    dim = _validate.positive_int("dim", dim)
    mean, var = uniform_moments(minval, maxval)
    return dim * (var * var + 2 * mean * mean * var)


def scale_factor(
    scale: str,
    dim: int,
    *,
    minval: float = settings.UNIFORM_MIN,
    maxval: float = settings.UNIFORM_MAX,
) -> float:
    """Multiplier for the logits: 1 (none), 1/√d (sqrt), or 1/std(q·k) (unit variance)."""
    _validate.choice("scale", scale, SWEEP_SCALES)
    std = math.sqrt(logit_variance(dim, minval=minval, maxval=maxval)) if scale == "unit" else None
    return settings.scale_factor(scale, dim, logit_std=std)


def _probabilities(name: str, probs) -> tf.Tensor:
    probs = tf.convert_to_tensor(probs)
    if not probs.dtype.is_floating:
        probs = tf.cast(probs, tf.float32)
    array = probs.numpy()
    _validate.finite_array(name, array)
    if array.ndim < 1:
        raise ValueError(f"{name} must have at least one axis (the distribution), got a scalar")
    tolerance = 1e-3 if probs.dtype in (tf.float16, tf.bfloat16) else 1e-4
    if np.any(array < 0) or not np.allclose(array.sum(axis=-1), 1.0, atol=tolerance):
        raise ValueError(f"{name} must be probabilities: entries >= 0 and each row summing to 1")
    return probs


def softmax_jacobian(probs) -> tf.Tensor:
    """diag(p) − ppᵀ for every row p of ``probs`` (shape ``[..., n]`` → ``[..., n, n]``).

    This is ∂softmax(z)/∂z. It vanishes as p becomes one-hot, which is how a saturated
    softmax stops passing gradient back to the logits.
    """
    p = _probabilities("probs", probs)
    return tf.linalg.diag(p) - p[..., :, None] * p[..., None, :]


def attention_entropy(weights) -> tf.Tensor:
    """Entropy −Σ p log p of each row, in nats: 0 for one-hot, log n for uniform."""
    p = _probabilities("weights", weights)
    return -tf.reduce_sum(tf.math.xlogy(p, p), axis=-1)


def entropy_ratio(weights, mask=None) -> tf.Tensor:
    """Each row's entropy over the log of its own number of keys: 1 for a row uniform over
    the keys it may see, 0 for one-hot. The saturation diagnostic, comparable across rows.

    ``mask`` (boolean, the shape of ``weights``; True = the key is visible) gives each row's
    number of keys; without it every row has ``n``. Under a causal mask row i has i keys, so
    its ceiling is log i, not log n. A row with fewer than two keys has no spread to measure:
    its ratio is NaN.
    """
    p = _probabilities("weights", weights)
    if mask is None:
        keys = tf.fill(tf.shape(p)[:-1], tf.cast(tf.shape(p)[-1], p.dtype))
    else:
        mask = np.asarray(mask)
        if mask.dtype != bool or mask.shape != tuple(p.shape):
            raise ValueError(
                f"mask must be a boolean array of the weights' shape {tuple(p.shape)}, "
                f"got {mask.dtype} of shape {mask.shape}"
            )
        if np.any(np.abs(np.where(mask, 0.0, p.numpy())) > 1e-6):
            raise ValueError("weights must be 0 where mask is False (a masked key gets no weight)")
        keys = tf.reduce_sum(tf.cast(mask, p.dtype), axis=-1)
    entropy = -tf.reduce_sum(tf.math.xlogy(p, p), axis=-1)
    nan = tf.fill(tf.shape(entropy), tf.constant(float("nan"), p.dtype))
    return tf.where(keys >= 2, entropy / tf.math.log(tf.maximum(keys, 2)), nan)


def max_weight(weights) -> tf.Tensor:
    """The largest weight of each row: near 1 means the row attends to a single key."""
    return tf.reduce_max(_probabilities("weights", weights), axis=-1)


def _row_metrics(logits: tf.Tensor, upstream: tf.Tensor) -> dict[str, np.ndarray]:
    """Per-sample means over rows for a batch of logit matrices ``[S, L, L]``."""
    with tf.GradientTape() as tape:
        tape.watch(logits)
        probs = tf.nn.softmax(logits, axis=-1)
        # A fixed random upstream gradient g stands in for "the rest of the network":
        # dL/dz = J g per row, so this is the gradient the softmax lets through.
        loss = tf.reduce_sum(probs * upstream)
    grad = tape.gradient(loss, logits)
    jac = tf.linalg.diag(probs) - probs[..., :, None] * probs[..., None, :]
    flat = tf.reshape(logits, [tf.shape(logits)[0], -1])
    return {
        "logit_std": tf.math.reduce_std(flat, axis=-1).numpy(),
        "entropy": tf.reduce_mean(-tf.reduce_sum(tf.math.xlogy(probs, probs), -1), -1).numpy(),
        "max_weight": tf.reduce_mean(tf.reduce_max(probs, -1), -1).numpy(),
        "jacobian_fro": tf.reduce_mean(tf.norm(jac, ord="fro", axis=(-2, -1)), -1).numpy(),
        "grad_norm": tf.reduce_mean(tf.norm(grad, axis=-1), -1).numpy(),
    }


def saturation_sweep(
    dims: Iterable[int],
    *,
    length: int = settings.LENGTH,
    seeds: Iterable[int] = settings.SWEEP_SEEDS,
    scales: Sequence[str] = SWEEP_SCALES,
    minval: float = settings.UNIFORM_MIN,
    maxval: float = settings.UNIFORM_MAX,
    dtype: str = "float32",
) -> dict[str, np.ndarray]:
    """How saturated softmax(logits) gets as the width grows, for each scaling rule.

    Returns columns of equal length, one row per (dim, scale): ``dim``, ``scale``, and for
    each metric in ``SWEEP_METRICS`` its mean and standard deviation over the seeds
    (``<metric>_mean``, ``<metric>_std``). Metrics are averaged over the rows of each
    ``[length, length]`` matrix: logit std after scaling, row entropy (nats), max weight,
    ‖J‖_F of the softmax Jacobian, and ‖∂L/∂z‖ for L = Σ p·g with a fixed Gaussian g.
    ``dtype`` is float32 for the build and float64 for the independent rerun.
    """
    dims = [
        _validate.positive_int("dims[]", d)
        for d in _validate.sequence("dims", dims, "positive integers")
    ]
    seeds = [_validate.seed(s) for s in _validate.sequence("seeds", seeds, "seeds (ints >= 0)")]
    if not dims:
        raise ValueError("dims must contain at least one positive integer")
    if not seeds:
        raise ValueError("seeds must contain at least one seed")
    scales = [
        _validate.choice("scales[]", s, SWEEP_SCALES)
        for s in _validate.sequence("scales", scales, f"names from {SWEEP_SCALES}")
    ]
    if not scales:
        raise ValueError(f"scales must name at least one of {SWEEP_SCALES}")
    length = _validate.positive_int("length", length)
    minval, maxval = _validate.bounds(minval, maxval)
    dtype = _validate.choice("dtype", dtype, ("float32", "float64"))

    upstream = tf.constant(
        np.stack(
            [np.random.default_rng([s, 1]).standard_normal((length, length)) for s in seeds]
        ).astype(dtype)
    )
    columns: dict[str, list] = {"dim": [], "scale": []}
    for dim in dims:
        raw = []
        for s in seeds:
            queries, keys = uniform_pair(
                length, dim, minval=minval, maxval=maxval, seed=s, dtype=dtype
            )
            raw.append(tf.linalg.matmul(queries, keys, transpose_b=True))
        raw = tf.stack(raw)
        for scale in scales:
            factor = scale_factor(scale, dim, minval=minval, maxval=maxval)
            metrics = _row_metrics(raw * factor, upstream)
            columns["dim"].append(dim)
            columns["scale"].append(scale)
            for name, values in metrics.items():
                columns.setdefault(f"{name}_mean", []).append(float(np.mean(values)))
                columns.setdefault(f"{name}_std", []).append(float(np.std(values)))
    return {
        name: np.asarray(values, dtype=object if name == "scale" else None)
        for name, values in columns.items()
    }
