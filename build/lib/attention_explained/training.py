"""Does ÷√d_k matter in training? A small key-retrieval task, trained with and without it.

Each example has ``n_items`` items with random keys x_j ∈ R^d_model; the query is a noisy copy
of one of them, x_t + noise. One attention head with learned W_Q, W_K (d_model → d_k) scores
every key, z_j = s·(W_Q q)·(W_K x_j), and p = softmax(z). Item j's value is its own one-hot
label e_j, so the attention output is p itself; a fixed readout multiplies it by ``readout``
and an output softmax with cross-entropy against t gives the loss:

    L = −log softmax(readout · p)_t

The attention softmax therefore sits *inside* the network: ∂L/∂z = J(p)·∂L/∂p with the softmax
Jacobian J = diag(p) − ppᵀ, which vanishes when p saturates. (Had we used −log p_t directly,
the output-layer identity ∂L/∂z = p − e_t would hold and nothing could vanish.)

Scalings: ``none`` (s = 1), ``sqrt`` (s = 1/√d_k), and ``qknorm`` (Henry et al. 2020,
arXiv 2010.04245): q and k normalised to unit length and multiplied by a learned scalar g,
initialised to √d_k so that the initial logit std matches ÷√d_k.

All scalings × seeds for one d_k are one vectorised model (K scalings × S seeds, weights
``[K, S, d_k, 2·d_model]``) trained by one ``tf.function`` loop, so the whole grid takes
seconds on a CPU. Data and initial
weights come from ``numpy.random.default_rng`` and are shared by the scalings of a seed, so the
scalings are compared on identical examples from identical starting weights.

``dtype`` runs the whole model in float32 (the build) or float64 (the independent rerun of
``python -m attention_explained claims --rerun``): the unstable unscaled runs move with the
rounding, so a number the page prints must survive the change of precision and of seeds.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Iterable

import numpy as np

from attention_explained import _validate
from attention_explained._tf import tf
from attention_explained.settings import (
    ADAM_BETAS,
    ADAM_EPSILON,
    TRAINING_BATCH,
    TRAINING_D_MODEL,
    TRAINING_DKS,
    TRAINING_N_ITEMS,
    TRAINING_NOISE,
    TRAINING_READOUT,
    TRAINING_SEEDS,
    TRAINING_STEPS,
)
from attention_explained.settings import TRAINING_LEARNING_RATES as LEARNING_RATES
from attention_explained.settings import TRAINING_POOL as POOL
from attention_explained.settings import TRAINING_SCALINGS as SCALINGS
from attention_explained.settings import TRAINING_STARVED_BELOW as STARVED_BELOW

OPTIMIZERS = ("sgd", "adam")
METRICS = (
    "loss",
    "entropy",
    "grad_norm",
    "grad_q",
    "grad_k",
    "logit_grad",
    "starved",
    "stuck",
    "accuracy",
)
DTYPES = ("float32", "float64")  # the build runs float32; the rerun float64
TRAINING_STREAM, HELD_OUT_STREAM = 1, 4  # default_rng([seed, stream]): pool vs held-out data


def make_task(
    seed: int,
    *,
    n_items: int = TRAINING_N_ITEMS,
    d_model: int = TRAINING_D_MODEL,
    noise: float = TRAINING_NOISE,
    pool: int = POOL,
    held_out: bool = False,
    dtype: str = "float32",
) -> dict[str, np.ndarray]:
    """``pool`` retrieval examples: keys ``[pool, n, d_model]``, queries, target indices.

    ``held_out=True`` draws them from another random stream than the training pool, so an
    evaluation set built from it shares no example with any training batch.
    """
    seed = _validate.seed(seed)
    n_items = _validate.positive_int("n_items", n_items)
    d_model = _validate.positive_int("d_model", d_model)
    pool = _validate.positive_int("pool", pool)
    dtype = _validate.choice("dtype", dtype, DTYPES)
    rng = np.random.default_rng([seed, HELD_OUT_STREAM if held_out else TRAINING_STREAM])
    keys = rng.standard_normal((pool, n_items, d_model))
    targets = rng.integers(0, n_items, pool)
    queries = keys[np.arange(pool), targets] + noise * rng.standard_normal((pool, d_model))
    return {
        "keys": keys.astype(dtype),
        "queries": queries.astype(dtype),
        "targets": targets.astype(np.int32),
    }


def init_weights(
    seed: int, d_model: int, d_k: int, *, dtype: str = "float32"
) -> tuple[np.ndarray, np.ndarray]:
    """W_Q, W_K ``[d_model, d_k]`` with std 1/√d_model: unit-variance q and k components."""
    d_model = _validate.positive_int("d_model", d_model)
    d_k = _validate.positive_int("d_k", d_k)
    dtype = _validate.choice("dtype", dtype, DTYPES)
    rng = np.random.default_rng([_validate.seed(seed), 0, d_k])
    scale = 1.0 / math.sqrt(d_model)
    w_q = rng.standard_normal((d_model, d_k)) * scale
    w_k = rng.standard_normal((d_model, d_k)) * scale
    return w_q.astype(dtype), w_k.astype(dtype)


def _logits(w, gain, queries, keys, masks):
    """z for every model ``[K, S, B, n]`` from ``w = [W_Qᵀ, W_Kᵀ]``: ``[K, S, d_k, 2·d_model]``.

    (W_Q q)·(W_K x) = qᵀ (W_Qᵀ W_K) x and ‖W_Q q‖² = qᵀ (W_Qᵀ W_Q) q (W as d_k × d_model maps),
    so one product wᵀw per step holds every d_model × d_model matrix we need: d_k enters once
    per step, not once per example. (This layout is also the faster one for TF's matmul.)
    """
    none, sqrt, qknorm = masks[0], masks[1], masks[2]
    d_model = tf.shape(queries)[-1]
    d_k = tf.cast(tf.shape(w)[2], w.dtype)
    gram = tf.linalg.matmul(w, w, transpose_a=True)  # [K, S, 2·d_model, 2·d_model]
    cross = gram[:, :, :d_model, d_model:]  # W_Qᵀ W_K
    gram_q = gram[:, :, :d_model, :d_model]
    gram_k = gram[:, :, d_model:, d_model:]
    projected = tf.linalg.matmul(queries[None], cross)  # qᵀ W_Qᵀ W_K: [K, S, B, d_model]
    raw = tf.reduce_sum(projected[:, :, :, None, :] * keys[None], axis=-1)  # [K, S, B, n]
    norm_q = tf.sqrt(tf.reduce_sum(tf.linalg.matmul(queries[None], gram_q) * queries, -1))
    norm_k = tf.sqrt(
        tf.reduce_sum(tf.linalg.matmul(keys[None], gram_k[:, :, None]) * keys, axis=-1)
    )
    qk_scale = gain[:, :, None, None] / (norm_q[..., None] * norm_k)
    return raw * (none + sqrt / tf.sqrt(d_k) + qknorm * qk_scale)


def _train_steps(w, gain, pool_keys, pool_queries, pool_targets, batches, masks, hyper, adam):
    """Run every step; return the metrics ``[steps, len(METRICS), K, S]``.

    Metrics are measured on each step's batch before its update.
    """
    real = w.dtype
    learning_rate, readout = hyper[0], hyper[1]
    beta1, beta2 = ADAM_BETAS
    d_model = tf.shape(pool_queries)[-1]
    n_items = tf.shape(pool_keys)[2]
    steps = tf.shape(batches)[0]

    def step_fn(step, params, first, second, history):
        index = batches[step]
        keys = tf.gather(pool_keys, index, batch_dims=1)
        queries = tf.gather(pool_queries, index, batch_dims=1)
        targets = tf.gather(pool_targets, index, batch_dims=1)
        with tf.GradientTape() as tape:
            tape.watch(params)
            z = _logits(*params, queries, keys, masks)
            tape.watch(z)
            p = tf.nn.softmax(z, axis=-1)
            labels = tf.broadcast_to(tf.one_hot(targets, n_items, dtype=real)[None], tf.shape(p))
            per_example = tf.nn.softmax_cross_entropy_with_logits(labels, readout * p)
            loss = tf.reduce_mean(per_example, axis=-1)  # [K, S]
            total = tf.reduce_sum(loss)  # independent models: ∂total/∂w_m = ∂loss_m/∂w_m
        g_w, g_gain, g_z = tape.gradient(total, [*params, z])
        squares = tf.square(g_w)
        norm_q = tf.sqrt(tf.reduce_sum(squares[..., :d_model], axis=[2, 3]))  # ‖∂L/∂W_Q‖_F
        norm_k = tf.sqrt(tf.reduce_sum(squares[..., d_model:], axis=[2, 3]))
        # ‖∂ℓ_i/∂z_i‖ of each example's own loss ℓ_i (the batch loss is their mean).
        example_grad = tf.norm(g_z * tf.cast(tf.shape(z)[2], real), axis=-1)
        starved = example_grad < STARVED_BELOW
        hits = tf.equal(tf.argmax(p, axis=-1, output_type=tf.int32), targets[None])
        metrics = [
            loss,
            tf.reduce_mean(-tf.reduce_sum(tf.math.xlogy(p, p), axis=-1), axis=-1),
            tf.sqrt(norm_q**2 + norm_k**2),
            norm_q,
            norm_k,
            tf.reduce_mean(example_grad, axis=-1),
            tf.reduce_mean(tf.cast(starved, real), axis=-1),
            tf.reduce_mean(tf.cast(starved & ~hits, real), axis=-1),
            tf.reduce_mean(tf.cast(hits, real), axis=-1),
        ]
        history = history.write(step, tf.stack(metrics))
        grads = (g_w, g_gain)

        def adam_update():
            t = tf.cast(step + 1, real)
            rate = learning_rate * tf.sqrt(1 - beta2**t) / (1 - beta1**t)
            m = tuple(beta1 * m + (1 - beta1) * g for m, g in zip(first, grads, strict=True))
            v = tuple(
                beta2 * v + (1 - beta2) * tf.square(g) for v, g in zip(second, grads, strict=True)
            )
            new = tuple(
                x - rate * m_ / (tf.sqrt(v_) + ADAM_EPSILON)
                for x, m_, v_ in zip(params, m, v, strict=True)
            )
            return new, m, v

        def sgd_update():
            new = tuple(x - learning_rate * g for x, g in zip(params, grads, strict=True))
            return new, first, second

        params, first, second = tf.cond(adam, adam_update, sgd_update)
        return step + 1, params, first, second, history

    params = (w, gain)
    zeros = tuple(tf.zeros_like(v) for v in params)
    history = tf.TensorArray(real, size=steps)
    *_, history = tf.while_loop(
        lambda step, *_: step < steps,
        step_fn,
        (tf.constant(0), params, zeros, zeros, history),
    )
    return history.stack()


def trace_steps(train_steps, real, *more: tf.TensorSpec):
    """``train_steps`` as one traced function, for both grids (this one and after_training's).

    Its first inputs are the same in both: the weights and QK-norm gain of every model, the
    task pool and the batches drawn from it (K models, S seeds, P pool items, B per batch;
    ``real`` is the float dtype); ``more`` are the grid's own.
    """
    return tf.function(
        train_steps,
        input_signature=[
            tf.TensorSpec([None, None, None, None], real),  # [W_Qᵀ, W_Kᵀ]: [K, S, d_k, 2·d_model]
            tf.TensorSpec([None, None], real),  # QK-norm gain g: [K, S]
            tf.TensorSpec([None, None, None, None], real),  # pool keys: [S, P, n, d_model]
            tf.TensorSpec([None, None, None], real),  # pool queries: [S, P, d_model]
            tf.TensorSpec([None, None], tf.int32),  # pool targets: [S, P]
            tf.TensorSpec([None, None, None], tf.int32),  # batch indices: [steps, S, B]
            *more,
        ],
        autograph=False,  # an explicit tf.while_loop: AutoGraph's rewrite cost ~1 s per trace
    )


@functools.cache
def _trainer(dtype: str):
    """``_train_steps`` traced once per dtype (float32 for the build, float64 for the rerun)."""
    real = tf.as_dtype(dtype)
    return trace_steps(
        _train_steps,
        real,
        tf.TensorSpec([3, None, 1, 1, 1], real),  # which models use none / sqrt / qknorm
        tf.TensorSpec([2], real),  # learning rate, readout
        tf.TensorSpec([], tf.bool),  # Adam (True) or plain SGD (False)
    )


def _int_list(name: str, values: object) -> list[int]:
    items = [
        _validate.positive_int(f"{name}[]", v)
        for v in _validate.sequence(name, values, "positive integers")
    ]
    if not items:
        raise ValueError(f"{name} must contain at least one positive integer")
    return items


def check_task(n_items: int, d_model: int, noise: float, readout: float):
    """The task's settings, validated: (n_items, d_model, noise, readout)."""
    n_items = _validate.positive_int("n_items", n_items)
    if n_items < 2:
        raise ValueError(
            f"n_items must be an integer >= 2 (a choice needs two items), got {n_items}"
        )
    d_model = _validate.positive_int("d_model", d_model)
    noise = _validate.finite_float("noise", noise)
    if noise < 0:
        raise ValueError(f"noise must be a non-negative number, got {noise}")
    readout = _validate.finite_float("readout", readout)
    if readout <= 0:
        raise ValueError(f"readout must be a positive number, got {readout}")
    return n_items, d_model, noise, readout


def task_pool(
    seeds: list[int],
    steps: int,
    batch: int,
    *,
    n_items: int,
    d_model: int,
    noise: float,
    dtype: str = "float32",
):
    """Each seed's example pool as tensors ``[seed, pool, …]`` and its mini-batch indices
    ``[step, seed, batch]``, drawn from ``default_rng([seed, 2])``: the same for every model
    trained on that seed, whatever the experiment."""
    tasks = [
        make_task(s, n_items=n_items, d_model=d_model, noise=noise, dtype=dtype) for s in seeds
    ]
    pool_keys = tf.constant(np.stack([t["keys"] for t in tasks]))
    pool_queries = tf.constant(np.stack([t["queries"] for t in tasks]))
    pool_targets = tf.constant(np.stack([t["targets"] for t in tasks]))
    batches = tf.constant(
        np.stack(
            [np.random.default_rng([s, 2]).integers(0, POOL, (steps, batch)) for s in seeds],
            axis=1,
        ).astype(np.int32)
    )
    return pool_keys, pool_queries, pool_targets, batches


def run_grid(
    dks: Iterable[int] = TRAINING_DKS,
    scalings: Iterable[str] = SCALINGS,
    seeds: Iterable[int] = TRAINING_SEEDS,
    *,
    steps: int = TRAINING_STEPS,
    optimizer: str = "sgd",
    learning_rate: float | None = None,
    batch: int = TRAINING_BATCH,
    n_items: int = TRAINING_N_ITEMS,
    d_model: int = TRAINING_D_MODEL,
    noise: float = TRAINING_NOISE,
    readout: float = TRAINING_READOUT,
    dtype: str = "float32",
) -> dict[str, np.ndarray]:
    """Train every (d_k, scaling, seed) on the retrieval task; return its learning curves.

    Returns the axes ``d_k``, ``scaling``, ``seed``, ``step`` and, for each name in
    ``METRICS``, an array ``[d_k, scaling, seed, step]`` (float64):

    - ``loss``: mean cross-entropy of the batch; ``accuracy``: share of examples whose largest
      attention weight is on the right item (chance 1/n_items);
    - ``entropy``: mean row entropy of the attention weights in nats (at most log n_items);
    - ``grad_q``, ``grad_k``: Frobenius norms of ∂L/∂W_Q and ∂L/∂W_K; ``grad_norm``: both
      together, √(grad_q² + grad_k²);
    - ``logit_grad``: mean per-example ‖∂ℓ/∂z‖, the gradient the softmax lets through;
      ``starved``: share of examples with ‖∂ℓ/∂z‖ < ``STARVED_BELOW``, which teach nothing;
      ``stuck``: share that are starved *and* wrong, errors their own gradient barely moves.

    Every metric is measured on a step's batch before that step's update. ``learning_rate``
    defaults to ``LEARNING_RATES[optimizer]``; all scalings share it. ``dtype`` is the
    precision of the whole model. The result also holds the settings (``optimizer``,
    ``learning_rate``, ``batch``, ``n_items``, ``d_model``, ``noise``, ``readout``,
    ``dtype``) as 0-d arrays.
    """
    dks = _int_list("dks", dks)
    scalings = [
        _validate.choice("scalings[]", s, SCALINGS)
        for s in _validate.sequence("scalings", scalings, f"names from {SCALINGS}")
    ]
    if not scalings or len(set(scalings)) != len(scalings):
        raise ValueError(f"scalings must name distinct entries of {SCALINGS}, got {scalings!r}")
    seeds = [_validate.seed(s) for s in _validate.sequence("seeds", seeds, "seeds (ints >= 0)")]
    if not seeds or len(set(seeds)) != len(seeds):
        raise ValueError(f"seeds must be distinct non-negative integers, got {seeds!r}")
    steps = _validate.positive_int("steps", steps)
    optimizer = _validate.choice("optimizer", optimizer, OPTIMIZERS)
    if learning_rate is None:
        learning_rate = LEARNING_RATES[optimizer]
    learning_rate = _validate.finite_float("learning_rate", learning_rate)
    if learning_rate <= 0:
        raise ValueError(f"learning_rate must be a positive number, got {learning_rate}")
    batch = _validate.positive_int("batch", batch, upper=POOL)
    n_items, d_model, noise, readout = check_task(n_items, d_model, noise, readout)
    dtype = _validate.choice("dtype", dtype, DTYPES)
    pool_keys, pool_queries, pool_targets, batches = task_pool(
        seeds, steps, batch, n_items=n_items, d_model=d_model, noise=noise, dtype=dtype
    )
    masks = tf.constant(
        [[[[[float(s == name)]]] for s in scalings] for name in SCALINGS], dtype
    )  # [3, K, 1, 1, 1]: which models use which formula
    hyper = tf.constant([learning_rate, readout], dtype)
    adam = tf.constant(optimizer == "adam")

    shape = (len(scalings), len(seeds))
    curves = []
    for d_k in dks:
        w = [np.concatenate(init_weights(s, d_model, d_k, dtype=dtype)).T for s in seeds]
        w = tf.constant(np.broadcast_to(np.stack(w), (*shape, d_k, 2 * d_model)))  # per seed
        gain = tf.fill(shape, tf.constant(math.sqrt(d_k), dtype))
        history = _trainer(dtype)(
            w, gain, pool_keys, pool_queries, pool_targets, batches, masks, hyper, adam
        )
        curves.append(np.transpose(history.numpy().astype(np.float64), (1, 2, 3, 0)))
    curves = np.stack(curves)  # [d_k, metric, scaling, seed, step]

    result: dict[str, np.ndarray] = {
        "d_k": np.asarray(dks),
        "scaling": np.asarray(scalings, dtype=object),
        "seed": np.asarray(seeds),
        "step": np.arange(steps),
    }
    for i, name in enumerate(METRICS):
        result[name] = curves[:, i]
    for name, value in (
        ("optimizer", optimizer),
        ("learning_rate", learning_rate),
        ("batch", batch),
        ("n_items", n_items),
        ("d_model", d_model),
        ("noise", noise),
        ("readout", readout),
        ("dtype", dtype),
    ):
        result[name] = np.asarray(value)
    return result
