"""Every experimental number the site's prose quotes, computed here and nowhere else.

Pages write ``{{ae:<name>}}``; the MkDocs plugin replaces it with ``compute()[name]``.
So text, figures and notebooks can never disagree about a number.
"""

from __future__ import annotations

import math
from functools import cache

import numpy as np

from attention_explained.settings import (
    LENGTH,
    SCALES,
    SELF_ATTENTION_DIM,
    SELF_ATTENTION_SEED,
    TRAINING_FINAL,
    TRAINING_QUIET,
    TRAINING_QUIET_BELOW,
)
from attention_explained.settings import PROSE_DIMS as DIMS
from attention_explained.settings import PROSE_SEEDS as SEEDS

_MINUS = "\u2212"


class Number(str):
    """A number as the prose prints it, keeping the value it was printed from (for claims)."""

    value: float

    def __new__(cls, value: float, spec: str) -> Number:
        text = super().__new__(cls, format(value, spec).replace("-", _MINUS))
        text.value = float(value)
        return text


def _fmt(value: float, spec: str) -> Number:
    return Number(value, spec)


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

    dim = SELF_ATTENTION_DIM
    x, _ = uniform_pair(LENGTH, dim, seed=SELF_ATTENTION_SEED)
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


def _training_numbers(out: dict[str, str]) -> None:
    """The training comparison: settings, the start (step 0) and the end of every run."""
    from attention_explained.figures import _data
    from attention_explained.training import METRICS, POOL, STARVED_BELOW

    runs = _data.training()
    sgd = runs["sgd"]
    n = int(sgd["n_items"])
    readout = float(sgd["readout"])
    out["training.steps"] = str(len(sgd["step"]))
    out["training.seeds"] = str(len(sgd["seed"]))
    out["training.batch"] = str(int(sgd["batch"]))
    out["training.n_items"] = str(n)
    out["training.d_model"] = str(int(sgd["d_model"]))
    out["training.noise"] = _fmt(float(sgd["noise"]), "g")
    out["training.readout"] = _fmt(readout, "g")
    out["training.pool"] = str(POOL)
    out["training.smooth"] = str(_data.TRAINING_SMOOTH)  # the figures' moving average
    out["training.final_window"] = str(TRAINING_FINAL)
    out["training.quiet_window"] = str(TRAINING_QUIET)
    out["training.quiet_below"] = _fmt(TRAINING_QUIET_BELOW, "g")
    out["training.starved_below"] = _fmt(STARVED_BELOW, "g")
    out["training.chance"] = _fmt(100 / n, ".2f")  # accuracy of a random pick, in %
    out["training.log_n"] = _fmt(math.log(n), ".2f")
    # With perfect attention p = e_t the loss is −log softmax(readout·e_t)_t.
    out["training.loss_floor"] = _fmt(math.log1p((n - 1) * math.exp(-readout)), ".3f")
    start_specs = {"entropy": ".2f", "loss": ".2f", "grad_norm": ".2f", "logit_grad": ".3f"}
    final_specs = {"loss": ".2f", "entropy": ".3f"}
    percent = [("init", "starved"), ("final", "starved"), ("final", "accuracy"), ("final", "stuck")]
    names = {"grad_norm": "gradnorm", "accuracy": "acc"}
    for optimizer, result in runs.items():
        prefix = "training" if optimizer == "sgd" else f"training.{optimizer}"
        out[f"{prefix}.lr"] = _fmt(float(result["learning_rate"]), "g")
        # [d_k, scaling]: median over seeds of step 0, and of each seed's last-steps mean.
        start = {m: np.median(result[m][..., 0], axis=-1) for m in METRICS}
        final = {m: np.median(result[m][..., -TRAINING_FINAL:].mean(-1), axis=-1) for m in METRICS}
        tail = result["grad_norm"][..., -TRAINING_QUIET:]
        quiet = np.mean(tail < TRAINING_QUIET_BELOW, axis=(-2, -1))  # pooled over seeds
        for i, dk in enumerate(result["d_k"]):
            for k, scaling in enumerate(result["scaling"]):
                key = f"d{dk}.{scaling}"
                for metric, spec in start_specs.items():
                    name = names.get(metric, metric)
                    out[f"{prefix}.init_{name}.{key}"] = _fmt(start[metric][i, k], spec)
                for metric, spec in final_specs.items():
                    out[f"{prefix}.final_{metric}.{key}"] = _fmt(final[metric][i, k], spec)
                for when, metric in percent:
                    value = (start if when == "init" else final)[metric][i, k]
                    name = names.get(metric, metric)
                    out[f"{prefix}.{when}_{name}.{key}"] = _fmt(100 * value, ".1f")
                out[f"{prefix}.quiet_steps.{key}"] = _fmt(100 * quiet[i, k], ".0f")


def compute() -> dict[str, str]:
    """All named numbers, already formatted for the prose (Unicode minus, fixed decimals)."""
    return {name: str(text) for name, text in _measure().items()}


def values() -> dict[str, float]:
    """The same names as :func:`compute`, unrounded: what the claims are checked against."""
    return {
        name: text.value if isinstance(text, Number) else float(text)
        for name, text in _measure().items()
    }


@cache
def _measure() -> dict[str, str]:
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
        _training_numbers,
    ):
        part(out)
    return dict(sorted(out.items()))
