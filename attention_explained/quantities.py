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


EXAMPLE_DIM = 1024  # the note's large width
EXAMPLE_ROW = 0  # query 0 of the heatmap sample (seed ``figures._data.HEATMAP_SEED``)
EXAMPLE_RANKS = (1, 2, 3, 15)  # the three largest logits of the row and its median one


def _small(value: float) -> Number:
    """Weights and derivatives span 1 to 1e-90: fixed decimals above 1e-3, else 1.2e−9."""
    return _fmt(value, ".3f" if abs(value) >= 1e-3 or value == 0 else ".1e")


def _example_numbers(out: dict[str, str]) -> None:
    """The home page's worked example: four logits of one row, raw and ÷√d.

    The row is query 0 of the heatmap sample at d = 1024 (the same seed as the figures).
    The softmax runs over the whole row of n keys; for the keys ranked 1st, 2nd, 3rd and
    15th by logit it gives the logit, its weight and p(1 − p), the diagonal of the softmax
    Jacobian (how much gradient the logit passes to itself). The row's spread and its
    ‖J‖_F complete the picture.
    """
    from attention_explained import make_dot_product_tensor, softmax_jacobian
    from attention_explained.figures._data import HEATMAP_SEED

    raw = make_dot_product_tensor(LENGTH, EXAMPLE_DIM, seed=HEATMAP_SEED).numpy()[EXAMPLE_ROW]
    raw = raw.astype(np.float64)
    order = np.argsort(-raw)
    out["example.dim"] = str(EXAMPLE_DIM)
    out["example.row"] = str(EXAMPLE_ROW)
    out["example.seed"] = str(HEATMAP_SEED)
    for scale, logits in (("none", raw), ("sqrt", raw / math.sqrt(EXAMPLE_DIM))):
        shifted = np.exp(logits - logits.max())
        total = shifted.sum()
        p = shifted / total
        rest = (total - shifted) / total  # 1 − p without cancellation when p ≈ 1
        out[f"example.std.{scale}"] = _fmt(logits.std(), ".1f")
        out[f"example.jacobian_fro.{scale}"] = _small(
            float(np.linalg.norm(softmax_jacobian(p[None, :]).numpy()[0]))
        )
        entropy = -np.sum(p * np.log(np.maximum(p, 1e-300)))
        out[f"example.entropy.{scale}"] = _fmt(float(entropy), ".2f")
        for rank in EXAMPLE_RANKS:
            j = order[rank - 1]
            key = f"r{rank}.{scale}"
            out[f"example.logit.{key}"] = _fmt(logits[j], ".1f" if scale == "none" else ".2f")
            out[f"example.weight.{key}"] = _small(p[j])
            out[f"example.slope.{key}"] = _small(p[j] * rest[j])
        gap = logits[order[0]] - logits[order[1]]
        out[f"example.gap12.{scale}"] = _fmt(gap, ".1f" if scale == "none" else ".2f")


# The temperature figure's row (figures/temperature.py: d_k = 64, 16 keys, seed 3, row 0).
TEMPERATURE_DK, TEMPERATURE_KEYS, TEMPERATURE_SEED = 64, 16, 3


def _temperature_numbers(out: dict[str, str]) -> None:
    """Largest weight and its key in the temperature figure, at τ = 1, √d_k/4, √d_k, 3√d_k."""
    from attention_explained import make_dot_product_tensor

    logits = make_dot_product_tensor(TEMPERATURE_KEYS, TEMPERATURE_DK, seed=TEMPERATURE_SEED)
    row = logits.numpy()[0].astype(np.float64)
    root = math.sqrt(TEMPERATURE_DK)
    for name, tau in (("1", 1.0), ("quarter", root / 4), ("sqrt", root), ("unit", 3 * root)):
        z = row / tau
        p = np.exp(z - z.max())
        p /= p.sum()
        out[f"temperature.top_weight.{name}"] = _fmt(p.max(), ".2f")
        out[f"temperature.top_key.{name}"] = str(int(np.argmax(p)) + 1)


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


def _figure_numbers(out: dict[str, str]) -> None:
    """Unquoted helpers for the figures' alt-text claims (``ALT_CLAIMS`` in figures/strings.py).

    The logit-variance figure plots every sweep width; its alt text says the measured points
    sit on the theory line, so the claim reads the worst relative deviation over all of them
    (÷√d divides measurement and theory alike, so one number covers both series).
    """
    from attention_explained import logit_variance, make_dot_product_tensor
    from attention_explained.figures import _data

    worst = 0.0
    for dim in _data.SWEEP_DIMS:
        entries = np.concatenate(
            [make_dot_product_tensor(LENGTH, dim, seed=s).numpy().ravel() for s in SEEDS]
        )
        worst = max(worst, abs(entries.var() / logit_variance(dim) - 1))
    out["figures.variance_max_rel_dev"] = _fmt(worst, ".3f")


TRAINING_TAIL = 100  # "still falling": mean loss of the last 100 steps against the 100 before
TRAINING_BELOW_LOSS = 1.0  # "falls later": first step the smoothed loss is below this


def _training_shape_numbers(out: dict[str, str]) -> None:
    """The shape of the SGD curves, for the training page's claims about them.

    ``tail_drop``: median over seeds of (mean loss of the ``TRAINING_TAIL`` steps before the
    last ``TRAINING_TAIL``) − (mean loss of the last ``TRAINING_TAIL``); > 0 means still falling.
    ``first_below``: first step at which the median over seeds of each seed's loss, smoothed
    with the figures' moving average, is below ``TRAINING_BELOW_LOSS`` (the step count if never).
    ``gradnorm_shrink``: median over seeds of ‖∂L/∂W‖ at step 0 over the median over seeds of
    its median over the last ``TRAINING_FINAL`` steps.
    ``init_gradnorm_ratio.d1024``: ‖∂L/∂W‖ at step 0, unscaled over ÷√d_k.
    """
    from attention_explained.figures import _data

    sgd = _data.training()["sgd"]
    steps = len(sgd["step"])
    for i, dk in enumerate(sgd["d_k"]):
        for k, scaling in enumerate(sgd["scaling"]):
            key = f"d{dk}.{scaling}"
            loss = sgd["loss"][i, k]  # [seed, step]
            before = loss[:, -2 * TRAINING_TAIL : -TRAINING_TAIL].mean(-1)
            drop = np.median(before - loss[:, -TRAINING_TAIL:].mean(-1))
            out[f"training.tail_drop.{key}"] = _fmt(drop, ".2f")
            total = np.cumsum(loss, axis=-1)
            count = np.arange(1, steps + 1)
            window = np.minimum(count, _data.TRAINING_SMOOTH)
            smooth = (total - np.pad(total, ((0, 0), (1, 0)))[:, count - window]) / window
            below = np.flatnonzero(np.median(smooth, axis=0) < TRAINING_BELOW_LOSS)
            out[f"training.first_below.{key}"] = str(int(below[0]) if below.size else steps)
            grad = sgd["grad_norm"][i, k]
            shrink = np.median(grad[:, 0]) / np.median(np.median(grad[:, -TRAINING_FINAL:], -1))
            out[f"training.gradnorm_shrink.{key}"] = _fmt(shrink, ".0f")
    out["training.tail_window"] = str(TRAINING_TAIL)
    out["training.below_loss"] = _fmt(TRAINING_BELOW_LOSS, "g")
    i = list(sgd["d_k"]).index(1024)
    none, sqrt = (list(sgd["scaling"]).index(name) for name in ("none", "sqrt"))
    start = np.median(sgd["grad_norm"][i, :, :, 0], axis=-1)
    out["training.init_gradnorm_ratio.d1024"] = _fmt(start[none] / start[sqrt], ".0f")


BEYOND_CAP = 50.0  # Gemma 2's attention-logit cap


def _beyond_numbers(out: dict[str, str]) -> None:
    """Soft-capping cap·tanh(z/cap) on the note's unscaled logits at d = 1024 (beyond page)."""
    from attention_explained import make_dot_product_tensor, max_weight

    dim, cap = 1024, BEYOND_CAP
    capped = []
    for seed in SEEDS:
        z = make_dot_product_tensor(LENGTH, dim, seed=seed).numpy().astype(np.float64)
        z = cap * np.tanh(z / cap)
        weights = np.exp(z - z.max(axis=-1, keepdims=True))
        weights /= weights.sum(axis=-1, keepdims=True)
        capped.append(np.mean(max_weight(weights)))
    out["beyond.cap"] = _fmt(cap, "g")
    out["beyond.capped_max_weight.d1024"] = _fmt(float(np.mean(capped)), ".2f")


NOTEBOOK_SWEEP_DIMS = (4, 64, 1024)  # docs/notebooks/sweep-and-keras.md, its first code cell
NOTEBOOK_SWEEP_SEEDS = range(4)


def _notebook_numbers(out: dict[str, str]) -> None:
    """What the sweep-and-keras notebook prints, for the claims its prose makes about it.

    The same calls as the notebook's code cells (the notebook computes them again itself):
    the saturation sweep at d = 4, 64, 1024 with seeds 0–3, and the parameter counts of
    ``keras.layers.MultiHeadAttention(num_heads=4, key_dim=8 or 32)`` on 32-wide inputs.
    """
    import keras

    from attention_explained import saturation_sweep

    table = saturation_sweep(list(NOTEBOOK_SWEEP_DIMS), seeds=NOTEBOOK_SWEEP_SEEDS)
    metrics = ("logit_std", "entropy", "max_weight", "jacobian_fro", "grad_norm")
    for i, (dim, scale) in enumerate(zip(table["dim"], table["scale"], strict=True)):
        for metric in metrics:
            out[f"nbsweep.{metric}.d{int(dim)}.{scale}"] = _fmt(table[f"{metric}_mean"][i], ".3f")
    x = np.zeros((2, 5, 32), dtype="float32")
    for key_dim in (8, 32):
        layer = keras.layers.MultiHeadAttention(num_heads=4, key_dim=key_dim)
        layer(x, x)
        out[f"nbkeras.params.key_dim{key_dim}"] = str(layer.count_params())
    out["nbkeras.num_heads"] = "4"


def _after_numbers(out: dict[str, str]) -> None:
    """After training (docs/after-training.md): the AdamW learning-rate sweep and the spread."""
    from attention_explained import after_training, settings
    from attention_explained.figures import _data

    for name, value in after_training.summary(_data.after_training()).items():
        spec = _AFTER_SPECS.get(name.split(".")[1], "g")
        out[name] = value if isinstance(value, str) else _fmt(value, spec)
    out["after.final_window"] = str(settings.AFTER_FINAL)
    out["after.low_lr"] = _fmt(settings.AFTER_LOW_LR, "g")  # the max-logit figure's low rate


_AFTER_SPECS = {  # by the second part of the name
    "final_loss": ".2f",
    "best_loss": ".2f",
    "sensitivity": ".2f",
    "max_logit": ".0f",
    "final_entropy": ".3f",
    "std_init": ".2f",
    "std_final": ".2f",
    "max_init": ".1f",
    "max_final": ".1f",
    "cos_init": ".3f",
    "cos_final": ".2f",
    "slope": ".2f",
    "slope_max": ".2f",
    "init_loss": ".2f",
    "log_n": ".2f",
}


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
        _training_shape_numbers,
        _beyond_numbers,
        _notebook_numbers,
        _figure_numbers,
        _after_numbers,
        _example_numbers,
        _temperature_numbers,
    ):
        part(out)
    return dict(sorted(out.items()))
