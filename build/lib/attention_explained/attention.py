"""Scaled dot-product attention and multi-head attention, written out so each step is visible."""

from __future__ import annotations

import math
import numbers

import keras

from attention_explained import _validate, settings
from attention_explained._tf import tf

SCALES = ("sqrt", "none")


def logit_factor(scale: str | float, d_k: int) -> float:
    """The number the logits q·k are multiplied by: 1/√d_k, 1, or a positive float."""
    if isinstance(scale, str):
        _validate.choice("scale", scale, SCALES)
        return settings.scale_factor(scale, d_k)
    if isinstance(scale, bool) or not isinstance(scale, numbers.Real):
        raise TypeError(f"scale must be 'sqrt', 'none' or a positive float, got {scale!r}")
    if not (math.isfinite(scale) and scale > 0):
        raise ValueError(f"scale must be 'sqrt', 'none' or a finite float > 0, got {scale}")
    return float(scale)


def _as_float_tensor(name: str, value, *, min_rank: int = 2) -> tf.Tensor:
    tensor = tf.convert_to_tensor(value)
    if not tensor.dtype.is_floating:
        tensor = tf.cast(tensor, tf.float32)
    if tensor.shape.rank is None or tensor.shape.rank < min_rank:
        raise ValueError(f"{name} must have rank >= {min_rank} ([..., L, d]), got {tensor.shape}")
    if tensor.shape.num_elements() == 0:
        raise ValueError(f"{name} must not be empty, got shape {tensor.shape}")
    # Checked eagerly only: inside tf.function the values are symbolic.
    if tf.executing_eagerly() and not bool(tf.reduce_all(tf.math.is_finite(tensor))):
        raise ValueError(f"{name} contains NaN or inf; every entry must be finite")
    return tensor


def _check_mask(mask, logits_shape: tf.TensorShape) -> tf.Tensor:
    mask = tf.convert_to_tensor(mask)
    if mask.dtype != tf.bool:
        raise TypeError(f"mask must be boolean (True = may attend), got dtype {mask.dtype.name}")
    try:
        broadcast = tf.broadcast_static_shape(mask.shape, logits_shape)
    except ValueError:
        broadcast = None
    if broadcast is None or broadcast != logits_shape:
        raise ValueError(
            f"mask of shape {mask.shape} does not broadcast to the logits' shape "
            f"{logits_shape} ([..., Lq, Lk])"
        )
    return mask


def scaled_dot_product_attention(
    query, key, value, *, mask=None, scale: str | float = "sqrt"
) -> tuple[tf.Tensor, tf.Tensor]:
    """softmax(scale · QKᵀ) V over the last two axes; returns ``(output, weights)``.

    Shapes: query ``[..., Lq, d_k]``, key ``[..., Lk, d_k]``, value ``[..., Lk, d_v]``.
    ``mask`` is boolean, broadcastable to ``[..., Lq, Lk]``, True where a query may attend.
    A row with nothing to attend to gets all-zero weights instead of the NaN that
    softmax over an all −∞ row would give.
    """
    query = _as_float_tensor("query", query)
    key = _as_float_tensor("key", key)
    value = _as_float_tensor("value", value)
    key, value = tf.cast(key, query.dtype), tf.cast(value, query.dtype)
    d_k = query.shape[-1]
    if key.shape[-1] != d_k:
        raise ValueError(
            f"query and key must have the same width d_k, got query [..., {d_k}] "
            f"and key [..., {key.shape[-1]}]"
        )
    if key.shape[-2] != value.shape[-2]:
        raise ValueError(
            f"key and value must have the same length Lk, got key {key.shape} "
            f"and value {value.shape}"
        )
    factor = logit_factor(scale, d_k)
    # tf.constant in the query's dtype: tf.cast(0.37, float64) would go through float32.
    logits = tf.linalg.matmul(query, key, transpose_b=True) * tf.constant(factor, query.dtype)
    if mask is None:
        weights = tf.nn.softmax(logits, axis=-1)
    else:
        mask = _check_mask(mask, logits.shape)
        logits = tf.where(mask, logits, logits.dtype.min)
        weights = tf.where(mask, tf.nn.softmax(logits, axis=-1), tf.zeros_like(logits))
    return tf.linalg.matmul(weights, value), weights


class MultiHeadAttention(keras.layers.Layer):
    """Multi-head attention built from its parts: Linear → attention per head → concat → Linear.

    ``key_dim`` is the per-head width d_k (as in ``keras.layers.MultiHeadAttention``), so a
    model width d_model with h heads usually takes ``key_dim = d_model // h``. The weights
    have the same order and shapes as Keras' layer, so ``set_weights`` moves between them.
    """

    def __init__(
        self,
        num_heads: int,
        key_dim: int,
        value_dim: int | None = None,
        use_bias: bool = True,
        **kwargs,
    ):
        super().__init__(**kwargs)
        self.num_heads = _validate.positive_int("num_heads", num_heads)
        self.key_dim = _validate.positive_int("key_dim", key_dim)
        self.value_dim = (
            self.key_dim if value_dim is None else _validate.positive_int("value_dim", value_dim)
        )
        if not isinstance(use_bias, bool):
            raise TypeError(f"use_bias must be True or False, got {use_bias!r}")
        self.use_bias = use_bias

    def build(self, query_shape, value_shape, key_shape=None):
        key_shape = value_shape if key_shape is None else key_shape
        heads, d_k, d_v = self.num_heads, self.key_dim, self.value_dim
        d_out = query_shape[-1]
        # Creation order = Keras' get_weights() order: query, key, value, output.
        for name, width, head_dim in (
            ("query", query_shape[-1], d_k),
            ("key", key_shape[-1], d_k),
            ("value", value_shape[-1], d_v),
        ):
            kernel = self.add_weight(name=f"{name}_kernel", shape=(width, heads, head_dim))
            setattr(self, f"{name}_kernel", kernel)
            bias = (
                self.add_weight(name=f"{name}_bias", shape=(heads, head_dim), initializer="zeros")
                if self.use_bias
                else None
            )
            setattr(self, f"{name}_bias", bias)
        self.output_kernel = self.add_weight(name="output_kernel", shape=(heads, d_v, d_out))
        self.output_bias = (
            self.add_weight(name="output_bias", shape=(d_out,), initializer="zeros")
            if self.use_bias
            else None
        )

    def _project(self, x, kernel, bias):
        """[B, L, width] → [B, h, L, head_dim]: one Linear layer per head, done at once."""
        heads = tf.einsum("bld,dhk->bhlk", x, kernel)
        return heads if bias is None else heads + bias[None, :, None, :]

    def call(self, query, value, key=None, attention_mask=None, return_attention_scores=False):
        key = value if key is None else key
        q = self._project(query, self.query_kernel, self.query_bias)
        k = self._project(key, self.key_kernel, self.key_bias)
        v = self._project(value, self.value_kernel, self.value_bias)
        mask = None
        if attention_mask is not None:
            mask = tf.cast(attention_mask, tf.bool)[:, None, :, :]  # same mask for every head
        heads, scores = scaled_dot_product_attention(q, k, v, mask=mask, scale="sqrt")
        # Concatenate the heads: [B, h, Lq, d_v] → [B, Lq, h·d_v], then the output Linear.
        batch, length = tf.shape(heads)[0], tf.shape(heads)[2]
        concat = tf.reshape(
            tf.transpose(heads, [0, 2, 1, 3]),
            [batch, length, self.num_heads * self.value_dim],
        )
        kernel = tf.reshape(self.output_kernel, [self.num_heads * self.value_dim, -1])
        output = tf.linalg.matmul(concat, kernel)
        if self.output_bias is not None:
            output = output + self.output_bias
        return (output, scores) if return_attention_scores else output

    def get_config(self):
        return {
            **super().get_config(),
            "num_heads": self.num_heads,
            "key_dim": self.key_dim,
            "value_dim": self.value_dim,
            "use_bias": self.use_bias,
        }
