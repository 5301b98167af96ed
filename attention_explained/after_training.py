"""After training, is ÷√d_k still enough? Learning-rate sensitivity and the logit spread.

The √d_k argument is about initialisation, where q and k are independent. This module trains
the key-retrieval head of :mod:`attention_explained.training` (same task, same initial
weights) with AdamW and asks two questions:

1. **Learning-rate sensitivity** (after Wortsman et al. 2023, arXiv 2309.14322): for each
   learning rate, scaling (none, ÷√d_k, QK-norm) and seed, the final loss, the largest
   attention logit seen during training and the attention entropy over training.
2. **The spread after training**: for d_k from 16 to 1024, the std and the max of the
   logits before and after training, for ÷√d_k and for μP's ÷d_k (Yang et al. 2022,
   arXiv 2203.03466), and how well each query has come to point at its key (the cosine
   of W_Q q and W_K x_t for the target t).

Why Adam matters here: Adam moves every weight by about the learning rate per step whatever
the size of its gradient. If those moves line up, q·k changes by a sum of d_k aligned terms,
∝ d_k, so ÷√d_k logits change ∝ √d_k and ÷d_k logits by O(1); that is μP's argument.

One vectorised model per d_k holds every (scaling, learning rate) pair × every seed,
weights ``[M, S, d_k, 2·d_model]``, trained by one ``tf.function`` (traced once; d_k is
a dynamic dimension). Seeds share data and initial weights across the models of a seed.
The probes' evaluation examples come from a random stream the training pool never uses
(``training.make_task(held_out=True)``), so no probe example was ever trained on.
``dtype`` is float32 for the build and float64 for the independent rerun.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Iterable

import numpy as np

from attention_explained import _validate, settings
from attention_explained._tf import tf
from attention_explained.fits import divisor, log_slope
from attention_explained.training import (
    DTYPES,
    POOL,
    check_task,
    init_weights,
    make_task,
    task_pool,
    trace_steps,
)

SCALINGS = ("none", "sqrt", "qknorm", "mup")  # mup: ÷d_k, μP's attention scaling
# recorded at every step, before its update; "weight" is ‖W_Q‖_F·‖W_K‖_F
CURVES = ("loss", "entropy", "max_logit", "weight")
# of the raw q·k on a fixed evaluation set, start and end; "length" is the mean ‖W_Q q‖·‖W_K x‖
# over every (query, key) pair, "weight" ‖W_Q‖_F·‖W_K‖_F: what the logits' growth could come from
PROBES = ("std", "max", "cosine", "length", "weight")


def _parts(w, queries, keys):
    """Raw q·k ``[M, S, B, n]``, ‖W_Q q‖ ``[M, S, B]``, ‖W_K x‖ ``[M, S, B, n]``.

    Same trick as training._logits: one wᵀw per step carries every d_model × d_model matrix.
    """
    d_model = tf.shape(queries)[-1]
    gram = tf.linalg.matmul(w, w, transpose_a=True)  # [M, S, 2·d_model, 2·d_model]
    cross = gram[:, :, :d_model, d_model:]
    projected = tf.linalg.matmul(queries[None], cross)  # [M, S, B, d_model]
    raw = tf.reduce_sum(projected[:, :, :, None, :] * keys[None], axis=-1)
    gram_q = gram[:, :, :d_model, :d_model]
    gram_k = gram[:, :, d_model:, d_model:]
    norm_q = tf.sqrt(tf.reduce_sum(tf.linalg.matmul(queries[None], gram_q) * queries, -1))
    norm_k = tf.sqrt(
        tf.reduce_sum(tf.linalg.matmul(keys[None], gram_k[:, :, None]) * keys, axis=-1)
    )
    return raw, norm_q, norm_k


def _scale(gain, norm_q, norm_k, masks, d_k):
    """s per logit: 1, 1/√d_k, g/(‖q‖‖k‖) or 1/d_k, chosen per model by ``masks``."""
    none, sqrt, qknorm, mup = masks[0], masks[1], masks[2], masks[3]
    qk = gain[:, :, None, None] / (norm_q[..., None] * norm_k)
    return none + sqrt / tf.sqrt(d_k) + qknorm * qk + mup / d_k


def _probe(w, gain, queries, keys, targets, masks):
    """std and max of the raw q·k, the mean cosine of (W_Q q, W_K x_t), the mean ‖W_Q q‖·‖W_K x‖
    and ‖W_Q‖_F·‖W_K‖_F: ``[5, M, S]``."""
    raw, norm_q, norm_k = _parts(w, queries, keys)
    d_model = tf.shape(queries)[-1]
    frobenius_q = tf.sqrt(tf.reduce_sum(tf.square(w[..., :d_model]), axis=[2, 3]))
    frobenius_k = tf.sqrt(tf.reduce_sum(tf.square(w[..., d_model:]), axis=[2, 3]))
    length = tf.reduce_mean(norm_q[..., None] * norm_k, axis=[2, 3])
    mean = tf.reduce_mean(raw, axis=[2, 3], keepdims=True)
    std = tf.sqrt(tf.reduce_mean(tf.square(raw - mean), axis=[2, 3]))
    target = tf.one_hot(targets, tf.shape(raw)[-1], dtype=raw.dtype)[None]  # [1, S, B, n]
    matched = tf.reduce_sum(raw * target, axis=-1)  # [M, S, B]
    norm_t = tf.reduce_sum(norm_k * target, axis=-1)
    cosine = tf.reduce_mean(matched / (norm_q * norm_t), axis=-1)
    top = tf.reduce_max(raw, axis=[2, 3])
    return tf.stack([std, top, cosine, length, frobenius_q * frobenius_k])


def _train_steps(
    w, gain, pool_keys, pool_queries, pool_targets, batches, eval_keys, eval_queries,
    eval_targets, masks, lrs, hyper,
):  # fmt: skip
    """AdamW on every model; return curves ``[steps, 3, M, S]`` and probes ``[2, 5, M, S]``."""
    real = w.dtype
    readout, decay = hyper[0], hyper[1]
    d_k = tf.cast(tf.shape(w)[2], real)
    n_items = tf.shape(pool_keys)[2]
    steps = tf.shape(batches)[0]
    rate_w = lrs[:, None, None, None]
    rate_g = lrs[:, None]
    start = _probe(w, gain, eval_queries, eval_keys, eval_targets, masks)
    beta1, beta2 = settings.AFTER_ADAM_BETAS
    eps = settings.AFTER_ADAM_EPSILON

    def step_fn(step, w, gain, m_w, v_w, m_g, v_g, history):
        index = batches[step]
        keys = tf.gather(pool_keys, index, batch_dims=1)
        queries = tf.gather(pool_queries, index, batch_dims=1)
        targets = tf.gather(pool_targets, index, batch_dims=1)
        with tf.GradientTape() as tape:
            tape.watch([w, gain])
            raw, norm_q, norm_k = _parts(w, queries, keys)
            z = raw * _scale(gain, norm_q, norm_k, masks, d_k)
            p = tf.nn.softmax(z, axis=-1)
            labels = tf.broadcast_to(tf.one_hot(targets, n_items, dtype=real)[None], tf.shape(p))
            per_example = tf.nn.softmax_cross_entropy_with_logits(labels, readout * p)
            loss = tf.reduce_mean(per_example, axis=-1)  # [M, S]
            total = tf.reduce_sum(loss)  # independent models
        g_w, g_g = tape.gradient(total, [w, gain])
        entropy = tf.reduce_mean(-tf.reduce_sum(tf.math.xlogy(p, p), axis=-1), axis=-1)
        d_model = tf.shape(queries)[-1]
        norms = tf.sqrt(tf.reduce_sum(tf.square(w[..., :d_model]), axis=[2, 3])) * tf.sqrt(
            tf.reduce_sum(tf.square(w[..., d_model:]), axis=[2, 3])
        )
        top = tf.reduce_max(z, axis=[2, 3])
        history = history.write(step, tf.stack([loss, entropy, top, norms]))
        t = tf.cast(step + 1, real)
        correction = tf.sqrt(1 - beta2**t) / (1 - beta1**t)
        m_w = beta1 * m_w + (1 - beta1) * g_w
        v_w = beta2 * v_w + (1 - beta2) * tf.square(g_w)
        m_g = beta1 * m_g + (1 - beta1) * g_g
        v_g = beta2 * v_g + (1 - beta2) * tf.square(g_g)
        # AdamW: decoupled weight decay on W_Q, W_K (not on the QK-norm gain).
        w = w - rate_w * (correction * m_w / (tf.sqrt(v_w) + eps) + decay * w)
        gain = gain - rate_g * correction * m_g / (tf.sqrt(v_g) + eps)
        return step + 1, w, gain, m_w, v_w, m_g, v_g, history

    state = (tf.constant(0), w, gain, tf.zeros_like(w), tf.zeros_like(w))
    state += (tf.zeros_like(gain), tf.zeros_like(gain), tf.TensorArray(real, size=steps))
    _, w, gain, *_, history = tf.while_loop(lambda step, *_: step < steps, step_fn, state)
    end = _probe(w, gain, eval_queries, eval_keys, eval_targets, masks)
    return history.stack(), tf.stack([start, end])


@functools.cache
def _trainer(dtype: str):
    """``_train_steps`` traced once per dtype (float32 for the build, float64 for the rerun)."""
    real = tf.as_dtype(dtype)
    return trace_steps(  # M models for K
        _train_steps,
        real,
        tf.TensorSpec([None, None, None, None], real),  # held-out keys: [S, E, n, d_model]
        tf.TensorSpec([None, None, None], real),  # held-out queries: [S, E, d_model]
        tf.TensorSpec([None, None], tf.int32),  # held-out targets: [S, E]
        tf.TensorSpec([4, None, 1, 1, 1], real),  # which models use none/sqrt/qknorm/mup
        tf.TensorSpec([None], real),  # learning rate per model: [M]
        tf.TensorSpec([2], real),  # readout, weight decay
    )


def _positive_floats(name: str, values: object) -> list[float]:
    items = [
        _validate.finite_float(f"{name}[]", v)
        for v in _validate.sequence(name, values, "positive numbers")
    ]
    if not items or any(v <= 0 for v in items) or len(set(items)) != len(items):
        raise ValueError(f"{name} must be distinct positive numbers, got {items!r}")
    return items


def _int_list(name: str, values: object) -> list[int]:
    items = [
        _validate.positive_int(f"{name}[]", v)
        for v in _validate.sequence(name, values, "positive integers")
    ]
    if not items or len(set(items)) != len(items):
        raise ValueError(f"{name} must be distinct positive integers, got {items!r}")
    return items


def _scaling_list(name: str, values: object) -> list[str]:
    items = [
        _validate.choice(f"{name}[]", s, SCALINGS)
        for s in _validate.sequence(name, values, f"names from {SCALINGS}")
    ]
    if not items or len(set(items)) != len(items):
        raise ValueError(f"{name} must name distinct entries of {SCALINGS}, got {items!r}")
    return items


def run(
    *,
    sweep_dks: Iterable[int] = settings.AFTER_SWEEP_DKS,
    sweep_scalings: Iterable[str] = settings.AFTER_SWEEP_SCALINGS,
    learning_rates: Iterable[float] = settings.AFTER_LEARNING_RATES,
    spread_dks: Iterable[int] = settings.AFTER_SPREAD_DKS,
    spread_scalings: Iterable[str] = settings.AFTER_SPREAD_SCALINGS,
    spread_lr: float = settings.AFTER_SPREAD_LR,
    seeds: Iterable[int] = settings.AFTER_SEEDS,
    steps: int = settings.AFTER_STEPS,
    batch: int = settings.AFTER_BATCH,
    evaluation: int = settings.AFTER_EVAL,
    weight_decay: float = settings.AFTER_WEIGHT_DECAY,
    n_items: int = settings.AFTER_N_ITEMS,
    d_model: int = settings.AFTER_D_MODEL,
    noise: float = settings.AFTER_NOISE,
    readout: float = settings.AFTER_READOUT,
    dtype: str = "float32",
) -> dict[str, np.ndarray]:
    """Both experiments; one vectorised AdamW model per d_k.

    Returns (float64 unless said otherwise):

    - the sweep: axes ``sweep_d_k``, ``sweep_scaling``, ``learning_rate``, ``seed``, ``step``;
      ``loss``, ``entropy`` (nats), ``weight`` (‖W_Q‖_F·‖W_K‖_F) and ``max_logit`` (largest
      logit of the step's batch,
      after the model's own scaling), each ``[d_k, scaling, lr, seed, step]``, measured on a
      step's batch before its update;
    - the spread: axes ``spread_d_k``, ``spread_scaling``; for ``when`` in (init, final) and
      each probe, ``spread_<probe>_<when>`` ``[d_k, scaling, seed]``: ``std`` and ``max`` of
      the raw q·k (before any scaling) over a fixed set of ``evaluation`` held-out
      examples per seed (drawn apart from the training pool, never trained on), and
      ``cosine``, the mean cosine of W_Q q and W_K x_t (query and its target key), ``length``,
      the mean ‖W_Q q‖·‖W_K x‖ over every (query, key) pair, and ``weight``, ‖W_Q‖_F·‖W_K‖_F;
    - the settings as 0-d arrays.
    """
    sweep_dks = _int_list("sweep_dks", sweep_dks)
    sweep_scalings = _scaling_list("sweep_scalings", sweep_scalings)
    learning_rates = _positive_floats("learning_rates", learning_rates)
    spread_dks = _int_list("spread_dks", spread_dks)
    spread_scalings = _scaling_list("spread_scalings", spread_scalings)
    spread_lr = _positive_floats("spread_lr", [spread_lr])[0]
    seeds = [_validate.seed(s) for s in _validate.sequence("seeds", seeds, "seeds (ints >= 0)")]
    if not seeds or len(set(seeds)) != len(seeds):
        raise ValueError(f"seeds must be distinct non-negative integers, got {seeds!r}")
    steps = _validate.positive_int("steps", steps)
    batch = _validate.positive_int("batch", batch, upper=POOL)
    evaluation = _validate.positive_int("evaluation", evaluation, upper=POOL)
    weight_decay = _validate.finite_float("weight_decay", weight_decay)
    if weight_decay < 0:
        raise ValueError(f"weight_decay must be a non-negative number, got {weight_decay}")
    n_items, d_model, noise, readout = check_task(n_items, d_model, noise, readout)
    dtype = _validate.choice("dtype", dtype, DTYPES)
    pool_keys, pool_queries, pool_targets, batches = task_pool(
        seeds, steps, batch, n_items=n_items, d_model=d_model, noise=noise, dtype=dtype
    )
    held = [
        make_task(s, n_items=n_items, d_model=d_model, noise=noise, pool=evaluation,
                  held_out=True, dtype=dtype)
        for s in seeds
    ]  # fmt: skip
    held = [tf.constant(np.stack([h[part] for h in held])) for part in ("keys", "queries")] + [
        tf.constant(np.stack([h["targets"] for h in held]))
    ]
    hyper = tf.constant([readout, weight_decay], dtype)

    n_s, n_lr = len(seeds), len(learning_rates)
    curves = np.full((len(sweep_dks), len(sweep_scalings), n_lr, n_s, len(CURVES), steps), np.nan)
    probes = np.full((len(spread_dks), len(spread_scalings), n_s, 2, len(PROBES)), np.nan)
    for d_k in sorted(set(sweep_dks) | set(spread_dks)):
        models: list[tuple[str, float]] = []  # (scaling, learning rate), each trained once
        if d_k in sweep_dks:
            models += [(s, lr) for s in sweep_scalings for lr in learning_rates]
        if d_k in spread_dks:
            models += [(s, spread_lr) for s in spread_scalings if (s, spread_lr) not in models]
        masks = tf.constant(
            [[[[[float(s == name)]]] for s, _ in models] for name in SCALINGS], dtype
        )
        lrs = tf.constant([lr for _, lr in models], dtype)
        w = [np.concatenate(init_weights(s, d_model, d_k, dtype=dtype)).T for s in seeds]
        w = tf.constant(np.broadcast_to(np.stack(w), (len(models), n_s, d_k, 2 * d_model)))
        gain = tf.fill((len(models), n_s), tf.constant(math.sqrt(d_k), dtype))
        history, probe = _trainer(dtype)(
            w, gain, pool_keys, pool_queries, pool_targets, batches, *held, masks, lrs, hyper
        )
        history = np.transpose(history.numpy().astype(np.float64), (2, 3, 1, 0))  # M, S, c, t
        probe = np.transpose(probe.numpy().astype(np.float64), (2, 3, 0, 1))  # M, S, when, p
        if d_k in sweep_dks:
            i = sweep_dks.index(d_k)
            for k, scaling in enumerate(sweep_scalings):
                for j, lr in enumerate(learning_rates):
                    curves[i, k, j] = history[models.index((scaling, lr))]
        if d_k in spread_dks:
            i = spread_dks.index(d_k)
            for k, scaling in enumerate(spread_scalings):
                probes[i, k] = probe[models.index((scaling, spread_lr))]

    result: dict[str, np.ndarray] = {
        "sweep_d_k": np.asarray(sweep_dks),
        "sweep_scaling": np.asarray(sweep_scalings, dtype=object),
        "learning_rate": np.asarray(learning_rates),
        "seed": np.asarray(seeds),
        "step": np.arange(steps),
        "spread_d_k": np.asarray(spread_dks),
        "spread_scaling": np.asarray(spread_scalings, dtype=object),
    }
    for c, name in enumerate(CURVES):
        result[name] = curves[..., c, :]
    for w_i, when in enumerate(("init", "final")):
        for p_i, name in enumerate(PROBES):
            result[f"spread_{name}_{when}"] = probes[..., w_i, p_i]
    for name, value in (
        ("spread_lr", spread_lr),
        ("batch", batch),
        ("evaluation", evaluation),
        ("weight_decay", weight_decay),
        ("n_items", n_items),
        ("d_model", d_model),
        ("noise", noise),
        ("readout", readout),
        ("dtype", dtype),
    ):
        result[name] = np.asarray(value)
    return result


def final_loss(result: dict[str, np.ndarray]) -> np.ndarray:
    """``[d_k, scaling, lr]``: each seed's mean loss over its last steps, median over seeds."""
    last = result["loss"][..., -settings.AFTER_FINAL :].mean(-1)
    return np.median(np.where(np.isfinite(last), last, np.inf), axis=-1)


def sensitivity(losses: np.ndarray, start: np.ndarray) -> np.ndarray:
    """Wortsman et al.'s LR sensitivity: mean over the rates of min(loss, start) − best loss.

    ``losses`` ``[..., lr]``; ``start`` ``[...]`` is the loss before training, so a run that
    diverges counts as no worse than not training at all.
    """
    capped = np.minimum(losses, start[..., None])
    return capped.mean(-1) - capped.min(-1)


def summary(result: dict[str, np.ndarray]) -> dict[str, float]:
    """The numbers the page quotes, by ``{{ae:after.*}}`` name, unrounded."""
    out: dict[str, float] = {}
    for name in ("batch", "evaluation", "weight_decay", "spread_lr", "n_items", "d_model"):
        out[f"after.{name}"] = float(result[name])
    out["after.steps"] = float(len(result["step"]))
    out["after.seeds"] = float(len(result["seed"]))
    rates = result["learning_rate"]
    out["after.n_lr"] = float(len(rates))
    out["after.lr_min"], out["after.lr_max"] = float(rates.min()), float(rates.max())
    out["after.log_n"] = math.log(float(result["n_items"]))
    losses = final_loss(result)
    start = np.median(result["loss"][..., 0], axis=-1)  # [d_k, scaling, lr], same for every lr
    sens = sensitivity(losses, start[..., 0])
    top_seed = result["max_logit"].max(-1)  # largest logit over training: [d_k, scaling, lr, seed]
    top = np.median(top_seed, axis=-1)
    entropy = np.median(result["entropy"][..., -settings.AFTER_FINAL :].mean(-1), axis=-1)
    for i, dk in enumerate(result["sweep_d_k"]):
        for k, scaling in enumerate(result["sweep_scaling"]):
            key = f"d{dk}.{scaling}"
            out[f"after.init_loss.{key}"] = float(start[i, k, 0])
            out[f"after.sensitivity.{key}"] = float(sens[i, k])
            best = int(np.argmin(losses[i, k]))
            out[f"after.best_loss.{key}"] = float(losses[i, k, best])
            out[f"after.best_lr.{key}"] = float(rates[best])
            for j, lr in enumerate(rates):
                at = f"{key}.lr{lr:g}"
                out[f"after.final_loss.{at}"] = float(losses[i, k, j])
                out[f"after.max_logit.{at}"] = float(top[i, k, j])
                # how much ‖W_Q‖·‖W_K‖ and the largest logit grew: at the end over step 0
                weights = result["weight"][i, k, j]  # [seed, step]
                out[f"after.weight_growth.{at}"] = float(np.median(weights[:, -1] / weights[:, 0]))
                first = np.abs(result["max_logit"][i, k, j][:, 0])
                out[f"after.logit_growth.{at}"] = float(np.median(top_seed[i, k, j] / first))
                out[f"after.final_entropy.{at}"] = float(entropy[i, k, j])
    dks = result["spread_d_k"]
    for k, scaling in enumerate(result["spread_scaling"]):
        scale = np.array([divisor(scaling, int(d)) for d in dks])
        for when in ("init", "final"):
            std = np.median(result[f"spread_std_{when}"][:, k], axis=-1) / scale
            top_z = np.median(result[f"spread_max_{when}"][:, k], axis=-1) / scale
            cos = np.median(result[f"spread_cosine_{when}"][:, k], axis=-1)
            out[f"after.slope.{scaling}.{when}"] = log_slope(dks, std)
            out[f"after.slope_max.{scaling}.{when}"] = log_slope(dks, top_z)
            for i, dk in enumerate(dks):
                out[f"after.std_{when}.d{dk}.{scaling}"] = float(std[i])
                out[f"after.max_{when}.d{dk}.{scaling}"] = float(top_z[i])
                out[f"after.cos_{when}.d{dk}.{scaling}"] = float(cos[i])
        # where the growth comes from: the lengths ‖W_Q q‖·‖W_K x‖ (÷ the model's divisor, as
        # the logits) and the weights' norms, before and after; the growth factors final/init
        length = {
            w: np.median(result[f"spread_length_{w}"][:, k], axis=-1) / scale
            for w in ("init", "final")
        }
        weight = {
            w: np.median(result[f"spread_weight_{w}"][:, k], axis=-1) for w in ("init", "final")
        }
        std = {
            w: np.median(result[f"spread_std_{w}"][:, k], axis=-1) / scale
            for w in ("init", "final")
        }
        for when in ("init", "final"):
            out[f"after.slope_len.{scaling}.{when}"] = log_slope(dks, length[when])
        for i, dk in enumerate(dks):
            out[f"after.len_final.d{dk}.{scaling}"] = float(length["final"][i])
            out[f"after.grow_std.d{dk}.{scaling}"] = float(std["final"][i] / std["init"][i])
            out[f"after.grow_len.d{dk}.{scaling}"] = float(length["final"][i] / length["init"][i])
            out[f"after.grow_weight.d{dk}.{scaling}"] = float(
                weight["final"][i] / weight["init"][i]
            )
        # the same trained logits seen through the other divisor (÷√d_k ↔ ÷d_k)
        other = "mup" if scaling == "sqrt" else "sqrt"
        raw = np.median(result["spread_std_final"][:, k], axis=-1)
        view = raw / np.array([divisor(other, int(d)) for d in dks])
        out[f"after.slope.{scaling}_as_{other}.final"] = log_slope(dks, view)
    out["after.spread_dk_min"], out["after.spread_dk_max"] = float(dks.min()), float(dks.max())
    return out
