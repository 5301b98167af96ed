"""Every experimental number the site's prose quotes, computed here and nowhere else.

Pages write ``{{ae:<name>}}``; the MkDocs plugin replaces it with ``compute()[name]``.
So text, figures and notebooks can never disagree about a number.
"""

from __future__ import annotations

import math

import numpy as np

LENGTH = 30
SEEDS = tuple(range(8))
DIMS = (10, 1024)
SCALES = ("none", "sqrt", "unit")

_MINUS = "\u2212"


def _fmt(value: float, spec: str) -> str:
    return format(value, spec).replace("-", _MINUS)


def _heatmap_numbers(out: dict[str, str]) -> None:
    from attention_explained.figures import _data

    for (dim, scale), panel in _data.heatmaps().items():
        out[f"heatmap.max_weight.d{dim}.{scale}"] = _fmt(panel["max_weight"], ".2f")
        out[f"heatmap.entropy.d{dim}.{scale}"] = _fmt(panel["entropy"], ".2f")
        out[f"heatmap.min.d{dim}.{scale}"] = _fmt(panel["logit_min"], ".1f")
        out[f"heatmap.max.d{dim}.{scale}"] = _fmt(panel["logit_max"], ".1f")


def _sweep_numbers(out: dict[str, str]) -> None:
    from attention_explained import saturation_sweep

    table = saturation_sweep(DIMS, length=LENGTH, seeds=SEEDS, scales=SCALES)
    specs = {
        "logit_std": ".2f",
        "entropy": ".2f",
        "max_weight": ".2f",
        "jacobian_fro": ".3f",
        "grad_norm": ".3f",
    }
    for i, (dim, scale) in enumerate(zip(table["dim"], table["scale"], strict=True)):
        for metric, spec in specs.items():
            out[f"sweep.{metric}.d{dim}.{scale}"] = _fmt(table[f"{metric}_mean"][i], spec)


def _variance_numbers(out: dict[str, str]) -> None:
    from attention_explained import logit_variance, make_dot_product_tensor

    for dim in DIMS:
        entries = np.concatenate(
            [make_dot_product_tensor(LENGTH, dim, seed=s).numpy().ravel() for s in SEEDS]
        )
        out[f"variance.measured.d{dim}"] = _fmt(entries.var(), ".0f")
        out[f"variance.measured_sqrt.d{dim}"] = _fmt((entries / math.sqrt(dim)).var(), ".2f")
        out[f"std.measured.d{dim}"] = _fmt(entries.std(), ".1f")
        out[f"std.theory.d{dim}"] = _fmt(math.sqrt(logit_variance(dim)), ".1f")


def _self_attention_numbers(out: dict[str, str]) -> None:
    """Queries = keys (X·Xᵀ, no projections): the diagonal ‖x‖² dominates even after ÷√d."""
    from attention_explained._tf import tf
    from attention_explained.tensors import uniform_pair

    dim = 1024
    x, _ = uniform_pair(LENGTH, dim, seed=0)
    scaled = (tf.linalg.matmul(x, x, transpose_b=True) / math.sqrt(dim)).numpy()
    off = scaled[~np.eye(LENGTH, dtype=bool)]
    weights = tf.nn.softmax(scaled, axis=-1).numpy()
    out["self.diag_scaled.d1024"] = _fmt(np.diag(scaled).mean(), ".1f")
    out["self.offdiag_std_scaled.d1024"] = _fmt(off.std(), ".2f")
    out["self.diag_weight.d1024"] = _fmt(np.diag(weights).mean(), ".3f")


def _keras_numbers(out: dict[str, str]) -> None:
    from attention_explained.equivalence import compare_with_keras

    result = compare_with_keras()
    out["keras.max_abs_diff.output"] = _fmt(result["output"], ".1e")
    out["keras.max_abs_diff.scores"] = _fmt(result["scores"], ".1e")


def compute() -> dict[str, str]:
    """All named numbers, already formatted for the prose (Unicode minus, fixed decimals)."""
    out: dict[str, str] = {
        "n": str(LENGTH),
        "seeds": str(len(SEEDS)),
        "theory.log_n": _fmt(math.log(LENGTH), ".2f"),
        "theory.jacobian_fro_uniform": _fmt(math.sqrt(LENGTH - 1) / LENGTH, ".3f"),
    }
    for part in (
        _heatmap_numbers,
        _sweep_numbers,
        _variance_numbers,
        _self_attention_numbers,
        _keras_numbers,
    ):
        part(out)
    return dict(sorted(out.items()))
