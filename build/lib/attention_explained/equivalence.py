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
