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

The reader's own vectors (``vector_statistics``, ``logit_statistics``) are one row: a query
and a few keys, or the keys' logits q·k directly. "Scale up" repeats every vector ``repeat``
times end to end (``np.tile``), so d_k = repeat · width and each logit q·k grows ``repeat``-fold:
the copies are perfectly correlated, the opposite of the independent components for which
÷√d_k holds the spread. The row is scaled by 1, 1/√d_k and 1/d_k (``ROW_SCALES``).
"""

from __future__ import annotations

import numpy as np

from attention_explained import _validate
from attention_explained.settings import EXPLORER_MAX_ABS as MAX_ABS
from attention_explained.settings import EXPLORER_MAX_DIM as MAX_DIM
from attention_explained.settings import EXPLORER_MAX_KEYS as MAX_KEYS
from attention_explained.settings import EXPLORER_MAX_LENGTH as MAX_LENGTH
from attention_explained.settings import EXPLORER_MAX_WIDTH as MAX_WIDTH
from attention_explained.settings import EXPLORER_REFERENCE_INPUTS as REFERENCE_INPUTS
from attention_explained.settings import EXPLORER_REPEATS as REPEATS
from attention_explained.settings import EXPLORER_ROW_SCALES as ROW_SCALES
from attention_explained.settings import EXPLORER_VECTOR_INPUTS as VECTOR_INPUTS
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


def _row(name: str, values, *, upper: int) -> np.ndarray:
    """A 1-D float64 array of 1…``upper`` finite numbers, each |x| ≤ MAX_ABS, or an error."""
    array = np.asarray(_validate.sequence(name, values, "numbers"), dtype=np.float64)
    if array.ndim != 1 or not 1 <= array.size <= upper:
        raise ValueError(f"{name} must hold 1 to {upper} numbers, got shape {array.shape}")
    _validate.finite_array(name, array)
    if np.any(np.abs(array) > MAX_ABS):
        raise ValueError(f"{name}: every number must lie in [-{MAX_ABS:g}, {MAX_ABS:g}]")
    return array


def _repeat(repeat: object) -> int:
    repeat = _validate.positive_int("repeat", repeat, upper=max(REPEATS))
    if repeat not in REPEATS:
        raise ValueError(f"repeat must be one of {', '.join(map(str, REPEATS))}, got {repeat}")
    return repeat


def row_statistics(logits: np.ndarray, dim: int) -> dict[str, dict]:
    """One row of raw logits q·k at width ``dim``, scaled by each of ``ROW_SCALES``.

    For each scaling: the logits, the weights p, p(1−p), the entropy (nats) and ‖J‖_F of
    J = diag(p) − ppᵀ (entry by entry, as the page computes it)."""
    factors = {"none": 1.0, "sqrt": 1.0 / np.sqrt(dim), "dk": 1.0 / dim}
    out = {}
    for scale in ROW_SCALES:
        z = logits * factors[scale]
        e = np.exp(z - z.max())
        p = e / e.sum()
        logp = np.log(np.where(p > 0, p, 1.0))
        jacobian = np.diag(p) - np.outer(p, p)
        out[scale] = {
            "logits": z.tolist(),
            "weights": p.tolist(),
            "p1p": (p * (1 - p)).tolist(),
            "entropy": float(-(p * logp).sum()) + 0.0,  # never -0.0
            "jacobian_fro": float(np.sqrt((jacobian**2).sum())),
        }
    return out


def vector_statistics(query, keys, repeat: int = 1) -> dict:
    """The one-row view of a reader's query and keys, each repeated ``repeat`` times.

    Returns ``dim`` (d_k = repeat · width), ``raw`` (q·k of the repeated vectors) and, per
    scaling of ``ROW_SCALES``, what ``row_statistics`` gives."""
    query = _row("query", query, upper=MAX_WIDTH)
    keys = [_row(f"key {j + 1}", k, upper=MAX_WIDTH) for j, k in enumerate(keys)]
    if not 1 <= len(keys) <= MAX_KEYS:
        raise ValueError(f"keys must hold 1 to {MAX_KEYS} vectors, got {len(keys)}")
    for j, k in enumerate(keys):
        if k.size != query.size:
            raise ValueError(f"key {j + 1} has {k.size} numbers; the query has {query.size}")
    repeat = _repeat(repeat)
    wide_query = np.tile(query, repeat)
    wide_keys = np.tile(np.stack(keys), (1, repeat))
    raw = wide_keys @ wide_query
    dim = int(wide_query.size)
    return {"dim": dim, "raw": raw.tolist(), **row_statistics(raw, dim)}


def logit_statistics(logits, dim: int, repeat: int = 1) -> dict:
    """The one-row view of bare logits q·k at width ``dim``, as if the vectors were repeated:
    repeating q and k ``repeat`` times multiplies each q·k and d_k by ``repeat``."""
    logits = _row("logits", logits, upper=MAX_KEYS)
    dim = _validate.positive_int("dim", dim, upper=MAX_DIM)
    repeat = _repeat(repeat)
    raw = logits * repeat
    return {"dim": dim * repeat, "raw": raw.tolist(), **row_statistics(raw, dim * repeat)}


def vector_cases() -> list[dict]:
    """The one-row inputs the browser test checks the page against, with the package's answers."""
    cases = []
    for case in VECTOR_INPUTS:
        if "logits" in case:
            expected = logit_statistics(case["logits"], case["dim"], case["repeat"])
        else:
            expected = vector_statistics(case["query"], case["keys"], case["repeat"])
        cases.append({"input": case, "expected": expected})
    return cases
