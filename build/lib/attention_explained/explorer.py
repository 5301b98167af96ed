"""The in-browser explorer's math, specified so that JavaScript reproduces it exactly.

The explorer cannot run NumPy's PCG64, so both sides draw components from one counter-based
hash (Chris Wellons' "lowbias32"), defined on 32-bit integers, which JavaScript computes
exactly with ``Math.imul`` and ``>>>``. Component ``i`` of a sample with seed ``s`` is::

    x = (s * 0x9E3779B1 + i * 0x85EBCA77 + 0x632BE5AB) mod 2**32
    x ^= x >> 16;  x = (x * 0x7FEB352D) mod 2**32
    x ^= x >> 15;  x = (x * 0x846CA68B) mod 2**32
    x ^= x >> 16
    u = (x + 0.5) / 2**32                 # in (0, 1), never 0 or 1
    value = minval + (maxval - minval) * u

Queries A[r, c] use i = r·d + c and keys B[r, c] use i = n·d + r·d + c (row-major, A first).
Logits are A·Bᵀ times the scale factor (``stats.scale_factor``); the statistics are the
row means of entropy, max weight and ‖J‖_F that the core computes, in float64.
"""

from __future__ import annotations

import numpy as np

from attention_explained import _validate
from attention_explained.settings import EXPLORER_MAX_DIM as MAX_DIM
from attention_explained.settings import EXPLORER_MAX_LENGTH as MAX_LENGTH
from attention_explained.settings import EXPLORER_REFERENCE_INPUTS as REFERENCE_INPUTS
from attention_explained.settings import SCALES, UNIFORM_MAX, UNIFORM_MIN

_MASK = 0xFFFFFFFF


def hash_uniform(seed: int, indices: np.ndarray) -> np.ndarray:
    """``lowbias32`` of each counter, mapped to (0, 1); float64, bit-exact with the JS."""
    x = (
        np.uint64(seed) * np.uint64(0x9E3779B1)
        + indices.astype(np.uint64) * np.uint64(0x85EBCA77)
        + np.uint64(0x632BE5AB)
    ) & np.uint64(_MASK)
    x = x.astype(np.uint32)
    x ^= x >> np.uint32(16)
    x = (x.astype(np.uint64) * np.uint64(0x7FEB352D) & np.uint64(_MASK)).astype(np.uint32)
    x ^= x >> np.uint32(15)
    x = (x.astype(np.uint64) * np.uint64(0x846CA68B) & np.uint64(_MASK)).astype(np.uint32)
    x ^= x >> np.uint32(16)
    return (x.astype(np.float64) + 0.5) / 2.0**32


def sample(
    seed: int, dim: int, length: int, minval: float = UNIFORM_MIN, maxval: float = UNIFORM_MAX
):
    """Queries A and keys B, each ``[length, dim]``, exactly as the explorer draws them."""
    seed = _validate.seed(seed)
    if seed > _MASK:
        raise ValueError(f"seed must be in [0, {_MASK}], got {seed}")
    dim = _validate.positive_int("dim", dim, upper=MAX_DIM)
    length = _validate.positive_int("length", length, upper=MAX_LENGTH)
    low, high = _validate.bounds(minval, maxval)
    u = hash_uniform(seed, np.arange(2 * length * dim))
    values = low + (high - low) * u
    return values[: length * dim].reshape(length, dim), values[length * dim :].reshape(length, dim)


def statistics(
    seed: int,
    dim: int,
    length: int,
    scale: str = "none",
    minval: float = UNIFORM_MIN,
    maxval: float = UNIFORM_MAX,
) -> dict[str, float]:
    """Mean row entropy, max weight and ‖J‖_F of softmax(scale · A·Bᵀ), via the core."""
    from attention_explained._tf import tf
    from attention_explained.stats import (
        attention_entropy,
        max_weight,
        scale_factor,
        softmax_jacobian,
    )

    _validate.choice("scale", scale, SCALES)
    queries, keys = sample(seed, dim, length, minval, maxval)
    logits = (queries @ keys.T) * scale_factor(scale, dim, minval=minval, maxval=maxval)
    weights = tf.nn.softmax(tf.constant(logits, tf.float64), axis=-1)
    jacobian = softmax_jacobian(weights)
    return {
        "entropy": float(np.mean(attention_entropy(weights))),
        "max_weight": float(np.mean(max_weight(weights))),
        "jacobian_fro": float(np.mean(tf.norm(jacobian, ord="fro", axis=(-2, -1)))),
        "logit_std": float(np.std(logits)),
    }


def reference_cases() -> list[dict]:
    """Inputs with the package's answers, shipped to the site so the browser can check itself."""
    return [{"input": case, "expected": statistics(**case)} for case in REFERENCE_INPUTS]
