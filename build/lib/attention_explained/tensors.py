"""The study note's experiment, made reproducible: logits q·k for random queries and keys."""

from __future__ import annotations

import numpy as np

from attention_explained import _validate
from attention_explained._tf import tf
from attention_explained.settings import UNIFORM_MAX, UNIFORM_MIN

DTYPES = ("float32", "float64")  # the build's and the independent rerun's


def uniform_pair(
    length: int,
    dim: int,
    *,
    minval: float = UNIFORM_MIN,
    maxval: float = UNIFORM_MAX,
    seed: int = 0,
    dtype: str = "float32",
) -> tuple[np.ndarray, np.ndarray]:
    """Independent queries A and keys B, both ``[length, dim]`` ~ uniform[minval, maxval).

    NumPy's ``default_rng`` (PCG64) gives the same draws on every machine and TF version,
    which TF's own stateful RNG does not promise. ``dtype`` is float32 for the build and
    float64 for the independent rerun (``claims --rerun``).
    """
    length = _validate.positive_int("length", length)
    dim = _validate.positive_int("dim", dim)
    minval, maxval = _validate.bounds(minval, maxval)
    dtype = _validate.choice("dtype", dtype, DTYPES)
    rng = np.random.default_rng(_validate.seed(seed))
    queries = rng.uniform(minval, maxval, size=(length, dim)).astype(dtype)
    keys = rng.uniform(minval, maxval, size=(length, dim)).astype(dtype)
    return queries, keys


def make_dot_product_tensor(
    length: int,
    dim: int,
    *,
    minval: float = UNIFORM_MIN,
    maxval: float = UNIFORM_MAX,
    seed: int = 0,
    dtype: str = "float32",
) -> tf.Tensor:
    """Return A·Bᵀ, shape ``[length, length]``, for independent uniform A and B of width ``dim``.

    Entry (i, j) is the unscaled attention logit q_i·k_j, a sum of ``dim`` independent
    products, so its variance grows linearly with ``dim`` (see ``stats.logit_variance``).
    """
    queries, keys = uniform_pair(length, dim, minval=minval, maxval=maxval, seed=seed, dtype=dtype)
    return tf.linalg.matmul(tf.constant(queries), tf.constant(keys), transpose_b=True)
