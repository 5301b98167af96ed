"""Proof by numbers that our MultiHeadAttention is Keras' layer, weight for weight."""

from __future__ import annotations

import keras
import numpy as np

from attention_explained.attention import MultiHeadAttention


def compare_with_keras(
    *,
    num_heads: int = 4,
    key_dim: int = 8,
    d_model: int = 32,
    lq: int = 6,
    lk: int = 9,
    batch: int = 2,
    seed: int = 0,
    masked: bool = True,
) -> dict[str, float]:
    """Copy a Keras MultiHeadAttention's weights into ours; return the max |difference|.

    Cross-attention (Lq ≠ Lk) with a random boolean mask in which every query keeps at
    least one key, since the two layers treat an all-masked row differently (Keras gives
    uniform weights, ours gives zeros).
    """
    rng = np.random.default_rng(seed)
    query = rng.standard_normal((batch, lq, d_model)).astype(np.float32)
    value = rng.standard_normal((batch, lk, d_model)).astype(np.float32)
    mask = None
    if masked:
        mask = rng.random((batch, lq, lk)) < 0.7
        mask[..., 0] = True
    keras.utils.set_random_seed(seed)
    theirs = keras.layers.MultiHeadAttention(num_heads=num_heads, key_dim=key_dim)
    ours = MultiHeadAttention(num_heads=num_heads, key_dim=key_dim)
    their_out, their_scores = theirs(
        query, value, attention_mask=mask, return_attention_scores=True
    )
    ours(query, value, attention_mask=mask)
    ours.set_weights(theirs.get_weights())
    our_out, our_scores = ours(query, value, attention_mask=mask, return_attention_scores=True)
    return {
        "output": float(np.max(np.abs(np.asarray(our_out) - np.asarray(their_out)))),
        "scores": float(np.max(np.abs(np.asarray(our_scores) - np.asarray(their_scores)))),
    }


# -- dropping ÷√d_k is a change of initialisation and learning rate ----------------------------

RULES = {  # optimiser → the exponent p of the learning-rate factor d_k^p that matches the models
    "sgd": 0.5,  # SGD's update is proportional to the gradient, which carries d_k^¼
    "adam": 0.25,  # Adam's update does not scale with the gradient: only the weights' d_k^¼
}


def _head_gradients():
    """A compiled (z, ∂L/∂W_Q, ∂L/∂W_K) of the training page's head, built once per process."""
    from attention_explained import settings
    from attention_explained._tf import tf

    @tf.function(reduce_retracing=True)
    def gradients(w_q, w_k, queries, keys, labels, scale):
        with tf.GradientTape() as tape:
            tape.watch([w_q, w_k])
            q = tf.linalg.matmul(queries, w_q)  # [B, d_k]
            k = tf.einsum("bnd,de->bne", keys, w_k)  # [B, n, d_k]
            z = tf.einsum("be,bne->bn", q, k) * scale
            p = tf.nn.softmax(z, axis=-1)
            out = settings.TRAINING_READOUT * p
            loss = tf.reduce_mean(tf.nn.softmax_cross_entropy_with_logits(labels, out))
        g_q, g_k = tape.gradient(loss, [w_q, w_k])
        return z, g_q, g_k

    return gradients


def scaling_equivalence(
    optimizer: str = "adam",
    *,
    d_k: int = 256,
    steps: int = 20,
    seed: int = 0,
    lr_power: float | None = None,
    match_epsilon: bool = False,
) -> dict[str, object]:
    """Train the training page's attention head twice and compare the logits step by step.

    Run A: ÷√d_k, initial W_Q, W_K multiplied by d_k^¼, learning rate η·d_k^p. Run B: no
    scaling, the initial weights of :func:`attention_explained.training.init_weights`,
    learning rate η. η·d_k^p is the training page's rate for ``optimizer``; p is
    ``RULES[optimizer]`` (¼ for Adam, ½ for SGD) unless ``lr_power`` says otherwise. Both runs
    see the same mini-batches. Since W_A = d_k^¼ W_B gives the same logits, the runs stay
    together exactly when the rule is right (Adam: up to its ε, which would have to shrink by
    d_k^¼ too: ``match_epsilon`` divides run A's ε by d_k^¼, and the runs agree to rounding).
    Always float64: this checks an identity, and a saturated unscaled head amplifies float32
    rounding into gaps of several per cent within 20 steps.
    Returns ``relative`` (per step: max |z_A − z_B| / max |z_B| over the batch), ``worst``
    (its maximum) and the settings.
    """
    import math

    from attention_explained import _validate, settings
    from attention_explained._tf import tf
    from attention_explained.training import init_weights, make_task

    optimizer = _validate.choice("optimizer", optimizer, tuple(RULES))
    d_k = _validate.positive_int("d_k", d_k)
    steps = _validate.positive_int("steps", steps)
    seed = _validate.seed(seed)
    power = RULES[optimizer] if lr_power is None else _validate.finite_float("lr_power", lr_power)
    d_model, batch = settings.TRAINING_D_MODEL, settings.TRAINING_BATCH
    task = make_task(seed, d_model=d_model, pool=steps * batch, dtype="float64")
    rate_a = settings.TRAINING_LEARNING_RATES[optimizer]
    beta1, beta2 = settings.ADAM_BETAS
    epsilon = settings.ADAM_EPSILON
    start = [w.astype(np.float64) for w in init_weights(seed, d_model, d_k, dtype="float64")]
    runs = {  # name → (weights, logit scale, learning rate, Adam's ε)
        "a": ([w * d_k**0.25 for w in start], 1 / math.sqrt(d_k), rate_a,
              epsilon / (d_k**0.25 if match_epsilon else 1.0)),
        "b": ([w.copy() for w in start], 1.0, rate_a / d_k**power, epsilon),
    }  # fmt: skip
    moments = {name: ([np.zeros_like(w) for w in start], [np.zeros_like(w) for w in start])
               for name in runs}  # fmt: skip
    gradients = _head_gradients()
    relative = []
    for step in range(steps):
        part = slice(step * batch, (step + 1) * batch)
        keys, queries = tf.constant(task["keys"][part]), tf.constant(task["queries"][part])
        labels = tf.one_hot(task["targets"][part], keys.shape[1], dtype=tf.float64)
        logits = {}
        for name, (weights, scale, rate, eps) in runs.items():
            z, *grads = gradients(*weights, queries, keys, labels, tf.constant(scale, tf.float64))
            logits[name] = z.numpy()
            grads = [g.numpy() for g in grads]
            if optimizer == "sgd":
                for w, g in zip(weights, grads, strict=True):
                    w -= rate * g
                continue
            first, second = moments[name]
            t = step + 1
            step_rate = rate * math.sqrt(1 - beta2**t) / (1 - beta1**t)
            for i, (w, g) in enumerate(zip(weights, grads, strict=True)):
                first[i] = beta1 * first[i] + (1 - beta1) * g
                second[i] = beta2 * second[i] + (1 - beta2) * g**2
                w -= step_rate * first[i] / (np.sqrt(second[i]) + eps)
        gap = np.max(np.abs(logits["a"] - logits["b"])) / np.max(np.abs(logits["b"]))
        relative.append(float(gap))
    return {
        "relative": np.asarray(relative),
        "worst": float(max(relative)),
        "optimizer": optimizer,
        "d_k": d_k,
        "lr_power": power,
        "learning_rate": rate_a,
    }
