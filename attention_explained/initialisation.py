"""What real attention layers start with: the q and k components' variance at initialisation.

The √d_k argument (footnote 4 of Vaswani et al. 2017) assumes unit-variance components. This
module measures what real layers give on inputs of unit variance (as after LayerNorm):

- ``keras``: ``keras.layers.MultiHeadAttention`` built with its defaults (``glorot_uniform``
  on the (d_model, h, key_dim) query and key kernels). Since Keras 3.15.0 (keras-team/keras
  PR 22789) ``EinsumDense`` tells the initialiser which kernel axes are inputs, so fan_in =
  d_model and fan_out = h·key_dim: Var(W) = 2/(d_model + h·key_dim) and
  Var(q_m) = 2·d_model/(d_model + h·key_dim), which is 1 when d_model = h·key_dim.
- ``keras314``: the same layer with the fans Keras computed before 3.15 (the product of all
  but the last two axes as a convolution's receptive field: fan_in = d_model·h, fan_out =
  d_model·key_dim), passed to the same initialiser as explicit axes: Var(q_m) = 2/(h + key_dim).
- ``torch``: PyTorch's ``nn.MultiheadAttention`` default, ``xavier_uniform_`` on the
  3E × E ``in_proj_weight`` (torch/nn/modules/activation.py, ``_reset_parameters``;
  fan_in = E, fan_out = 3E in torch/nn/init.py), drawn here in NumPy: Var(q_m) = 1/2.
- ``note``: the study note's components, uniform[−3, 3] (variance 3), no layer.

Each measurement returns Var(q_m), the logits' standard deviation raw and ÷√key_dim, and the
mean largest attention weight of a row, unscaled and ÷√key_dim (for ``keras`` and
``keras314`` the latter straight from the layer's own attention scores).

Core layer: imports neither matplotlib nor MkDocs; Keras is imported inside the functions.
"""

from __future__ import annotations

import math
from collections.abc import Iterable

import numpy as np

from attention_explained import _validate, settings

SCHEMES = settings.INIT_SCHEMES
DTYPES = ("float32", "float64")  # the build's and the independent rerun's
QUANTITIES = ("var_q", "std_raw", "std_sqrt", "max_raw", "max_sqrt")


def predicted_var_q(scheme: str, d_model: int, num_heads: int, key_dim: int) -> float:
    """Var(q_m) the initialiser's documented variance predicts for unit-variance inputs."""
    scheme = _validate.choice("scheme", scheme, SCHEMES)
    d_model = _validate.positive_int("d_model", d_model)
    num_heads = _validate.positive_int("num_heads", num_heads)
    key_dim = _validate.positive_int("key_dim", key_dim)
    if scheme == "keras":
        return 2.0 * d_model / (d_model + num_heads * key_dim)
    if scheme == "keras314":
        return 2.0 / (num_heads + key_dim)
    if scheme == "torch":
        return d_model * 2.0 / (d_model + 3 * d_model)
    lo, hi = settings.UNIFORM_MIN, settings.UNIFORM_MAX
    return (hi - lo) ** 2 / 12


def _softmax_max(logits: np.ndarray) -> float:
    """Mean over rows of the largest softmax weight of ``logits [..., n]``."""
    z = logits - logits.max(axis=-1, keepdims=True)
    weights = np.exp(z)
    weights /= weights.sum(axis=-1, keepdims=True)
    return float(weights.max(axis=-1).mean())


def _keras_layer(scheme: str, num_heads: int, key_dim: int, seed: int, dtype: str):
    """The Keras layer for ``scheme`` (its default initialiser, or the pre-3.15 fans)."""
    import keras

    keras.utils.set_random_seed(seed)
    initializer = "glorot_uniform"  # the layer's default, written out
    if scheme == "keras314":
        # fan_in over axes (d_model, h), fan_out over (d_model, key_dim): the old heuristic
        initializer = keras.initializers.GlorotUniform(input_axes=[0, 1], output_axes=[0, 2])
    # value_dim=1: the value and output kernels, which the logits never see, stay tiny (half
    # the drawing time); the query and key kernels are the default layer's
    return keras.layers.MultiHeadAttention(
        num_heads=num_heads,
        key_dim=key_dim,
        value_dim=1,
        kernel_initializer=initializer,
        dtype=dtype,
    )


def _kernels(layer) -> tuple[np.ndarray, np.ndarray]:
    """The query and key kernels ``[d_model, h, key_dim]`` of a built Keras layer."""
    by_path = {"/".join(w.path.split("/")[-2:]): w.numpy() for w in layer.weights}
    return np.asarray(by_path["query/kernel"]), np.asarray(by_path["key/kernel"])


def measure(
    scheme: str,
    *,
    d_model: int,
    num_heads: int,
    key_dim: int,
    seed: int = 0,
    length: int = settings.LENGTH,
    batch: int = settings.INIT_BATCH,
    dtype: str = "float32",
) -> dict[str, float]:
    """One initialisation's Var(q_m), logit std (raw, ÷√key_dim) and mean max weight.

    Self-attention on ``batch`` sequences of ``length`` tokens x ~ N(0, 1)^d_model; q and k
    are the layer's projections (biases start at zero in both libraries).
    """
    scheme = _validate.choice("scheme", scheme, SCHEMES)
    d_model = _validate.positive_int("d_model", d_model)
    num_heads = _validate.positive_int("num_heads", num_heads)
    key_dim = _validate.positive_int("key_dim", key_dim)
    seed = _validate.seed(seed)
    length = _validate.positive_int("length", length)
    batch = _validate.positive_int("batch", batch)
    dtype = _validate.choice("dtype", dtype, DTYPES)
    rng = np.random.default_rng([seed, d_model, num_heads, key_dim])
    x = rng.standard_normal((batch, length, d_model)).astype(dtype)
    layer_max = None
    if scheme == "note":
        lo, hi = settings.UNIFORM_MIN, settings.UNIFORM_MAX
        shape = (batch, num_heads, length, key_dim)
        q, k = rng.uniform(lo, hi, size=shape), rng.uniform(lo, hi, size=shape)
    elif scheme == "torch":
        # xavier_uniform_ on the (3E, E) in_proj_weight: bound √(6/(E + 3E)); its first two
        # thirds are W_Q and W_K (the last third, W_V, never reaches the logits: not drawn)
        bound = math.sqrt(6.0 / (d_model + 3 * d_model))
        in_proj = rng.uniform(-bound, bound, size=(2 * d_model, d_model))
        if d_model % num_heads:
            raise ValueError(
                f"d_model must be a multiple of num_heads for PyTorch's layer, got "
                f"d_model={d_model}, num_heads={num_heads}"
            )
        if key_dim != d_model // num_heads:
            raise ValueError(
                f"key_dim must be d_model // num_heads = {d_model // num_heads} for PyTorch's "
                f"layer, got {key_dim}"
            )
        heads = lambda w: (x.astype(np.float64) @ w.T).reshape(batch, length, num_heads, key_dim)  # noqa: E731
        q = heads(in_proj[:d_model]).transpose(0, 2, 1, 3)
        k = heads(in_proj[d_model : 2 * d_model]).transpose(0, 2, 1, 3)
    else:
        layer = _keras_layer(scheme, num_heads, key_dim, seed, dtype)
        _, scores = layer(x, x, return_attention_scores=True)  # [batch, h, length, length]
        layer_max = float(np.asarray(scores).max(axis=-1).mean())
        w_q, w_k = _kernels(layer)
        q = np.einsum("btd,dhk->bhtk", x.astype(np.float64), w_q.astype(np.float64))
        k = np.einsum("btd,dhk->bhtk", x.astype(np.float64), w_k.astype(np.float64))
    q, k = np.asarray(q, np.float64), np.asarray(k, np.float64)
    raw = q @ np.swapaxes(k, -1, -2)  # [batch, h, length, length]
    scaled = raw / math.sqrt(key_dim)
    return {
        "var_q": float(q.var()),
        "std_raw": float(raw.std()),
        "std_sqrt": float(scaled.std()),
        "max_raw": _softmax_max(raw),
        "max_sqrt": layer_max if layer_max is not None else _softmax_max(scaled),
    }


def grid(
    *,
    key_dims: Iterable[int] = settings.INIT_KEY_DIMS,
    num_heads: int = settings.INIT_HEADS,
    head_counts: Iterable[int] = settings.INIT_HEAD_COUNTS,
    across_d_model: int = settings.INIT_ACROSS_D_MODEL,
    across_key_dims: Iterable[int] = settings.INIT_ACROSS_KEY_DIMS,
    seeds: Iterable[int] = settings.INIT_SEEDS,
    dtype: str = "float32",
) -> dict[tuple[str, int, int, int], np.ndarray]:
    """Every measurement the page and the figure use, ``(scheme, d_model, h, key_dim)`` →
    ``[seed, quantity]`` (quantities in :data:`QUANTITIES` order):

    - every scheme at d_model = h·key_dim for each of ``key_dims`` (the figure);
    - ``keras`` and ``keras314`` for each of ``head_counts`` at key_dim = 64, d_model = h·64;
    - ``keras`` at d_model = ``across_d_model`` for each of ``across_key_dims``.
    """
    seeds = [_validate.seed(s) for s in _validate.sequence("seeds", seeds, "seeds (ints >= 0)")]
    if not seeds:
        raise ValueError("seeds must name at least one seed (a non-negative integer)")
    num_heads = _validate.positive_int("num_heads", num_heads)
    points: list[tuple[str, int, int, int]] = []
    for key_dim in key_dims:
        key_dim = _validate.positive_int("key_dims[]", key_dim)
        points += [(s, num_heads * key_dim, num_heads, key_dim) for s in SCHEMES]
    for heads in head_counts:
        heads = _validate.positive_int("head_counts[]", heads)
        points += [(s, heads * 64, heads, 64) for s in ("keras", "keras314")]
    across_d_model = _validate.positive_int("across_d_model", across_d_model)
    for key_dim in across_key_dims:
        key_dim = _validate.positive_int("across_key_dims[]", key_dim)
        points.append(("keras", across_d_model, num_heads, key_dim))
    out = {}
    for point in dict.fromkeys(points):
        scheme, d_model, heads, key_dim = point
        rows = [
            measure(scheme, d_model=d_model, num_heads=heads, key_dim=key_dim, seed=s, dtype=dtype)
            for s in seeds
        ]
        out[point] = np.array([[r[q] for q in QUANTITIES] for r in rows])
    return out


def same_as_lecun(*, num_heads: int = 8, key_dim: int = 64, seed: int = 0) -> float:
    """max |W_glorot − W_lecun| of the query kernels of two Keras layers with one seed, at
    d_model = h·key_dim: 0 when ``glorot_uniform`` draws exactly what ``lecun_uniform`` does."""
    import keras

    d_model = num_heads * key_dim
    x = np.zeros((1, 2, d_model), "float32")
    kernels = []
    for initializer in ("glorot_uniform", "lecun_uniform"):
        keras.utils.set_random_seed(_validate.seed(seed))
        layer = keras.layers.MultiHeadAttention(
            num_heads=num_heads, key_dim=key_dim, kernel_initializer=initializer
        )
        layer(x, x)
        kernels.append(_kernels(layer)[0])
    return float(np.max(np.abs(kernels[0] - kernels[1])))
