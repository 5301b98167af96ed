"""Why Transformer attention divides q·k by √d_k: the math behind the attention_explained site.

Attributes load lazily (PEP 562) so that tools which only need the package's metadata, such as
the MkDocs plugin on a warm cache, never pay for importing TensorFlow.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING

__version__ = "0.1.0"

_LAZY = {
    "make_dot_product_tensor": "attention_explained.tensors",
    "scaled_dot_product_attention": "attention_explained.attention",
    "MultiHeadAttention": "attention_explained.attention",
    "logit_variance": "attention_explained.stats",
    "softmax_jacobian": "attention_explained.stats",
    "attention_entropy": "attention_explained.stats",
    "max_weight": "attention_explained.stats",
    "saturation_sweep": "attention_explained.stats",
}

__all__ = [
    "MultiHeadAttention",
    "__version__",
    "attention_entropy",
    "logit_variance",
    "make_dot_product_tensor",
    "max_weight",
    "saturation_sweep",
    "scaled_dot_product_attention",
    "softmax_jacobian",
]

if TYPE_CHECKING:
    from attention_explained.attention import MultiHeadAttention, scaled_dot_product_attention
    from attention_explained.stats import (
        attention_entropy,
        logit_variance,
        max_weight,
        saturation_sweep,
        softmax_jacobian,
    )
    from attention_explained.tensors import make_dot_product_tensor


def __getattr__(name: str):
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'attention_explained' has no attribute {name!r}")
    value = getattr(import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(__all__)
