"""The scaled-dot-product page: the logits' variance and the temperature figure's row."""

from __future__ import annotations

import math
from collections.abc import Mapping

import numpy as np

from attention_explained import runs
from attention_explained.content.registry import Number, claim, hi, lo, numbers, per_seed_ranges
from attention_explained.content.shared import close, note_logits, row_means
from attention_explained.settings import HEATMAP_SEED, LENGTH, TEMPERATURE_KEYS, TEMPERATURE_SEED
from attention_explained.settings import PROSE_DIMS as WIDTHS
from attention_explained.settings import PROSE_SEEDS as SEEDS
from attention_explained.settings import TEMPERATURE_D_K as TEMPERATURE_DK


@numbers
def _temperature_numbers(out: dict[str, str]) -> None:
    """Largest weight and its key in the temperature figure, at τ = 1, √d_k/4, √d_k, 3√d_k."""
    from attention_explained import make_dot_product_tensor

    logits = make_dot_product_tensor(
        TEMPERATURE_KEYS, TEMPERATURE_DK, seed=TEMPERATURE_SEED, dtype=runs.current().dtype
    )
    row = logits.numpy()[0].astype(np.float64)
    root = math.sqrt(TEMPERATURE_DK)
    for name, tau in (("1", 1.0), ("quarter", root / 4), ("sqrt", root), ("unit", 3 * root)):
        z = row / tau
        p = np.exp(z - z.max())
        p /= p.sum()
        out[f"temperature.top_weight.{name}"] = Number(p.max(), ".2f")
        out[f"temperature.top_key.{name}"] = str(int(np.argmax(p)) + 1)


@claim(
    "scaled-dot-product.variance_follows_9d",
    statement="the measured logit variance is within 5% of 9d unscaled and of 9 after ÷√d, "
    "at d = 10 and d = 1024",
    counterexample={"variance.measured_sqrt.d1024": 1.0},
    median_because="its sentence is the figure's caption, about the plotted points: each the "
    "variance pooled over all seeds' logits (the value this reads)",
)
def _variance_9d(v: Mapping[str, float]) -> bool:
    return all(
        close(v[f"variance.measured.d{d}"], 9 * d, 0.05)
        and close(v[f"variance.measured_sqrt.d{d}"], 9, 0.05)
        for d in WIDTHS
    )


@claim(
    "scaled-dot-product.temperature_panels",
    statement="in the temperature figure the top key takes > 0.9 of the weight at τ = 1 and "
    "most of it (> 0.5) at τ = √d_k/4, less than half at τ = √d_k and less still at τ = 3√d_k",
    counterexample={"temperature.top_weight.sqrt": 0.8},
)
def _temperature_panels(v: Mapping[str, float]) -> bool:
    top = {t: v[f"temperature.top_weight.{t}"] for t in ("1", "quarter", "sqrt", "unit")}
    return top["1"] > 0.9 and top["quarter"] > 0.5 and top["unit"] < top["sqrt"] < 0.5


@claim(
    "scaled-dot-product.temperature_same_top_key",
    statement="the temperature figure's highlighted top key is the same key in every panel",
    counterexample={"temperature.top_key.unit": 99.0},
)
def _temperature_same_key(v: Mapping[str, float]) -> bool:
    keys = {v[f"temperature.top_key.{t}"] for t in ("1", "quarter", "sqrt", "unit")}
    return len(keys) == 1


# -- a reader's question: q * d_k ** -0.5, the query scaled before the product -----------------


@numbers
def prescale_numbers(out: dict[str, str]) -> None:
    """``(q * d_k ** -0.5)·k`` against ``(q·k) / √d_k`` on the note's queries and keys at the
    largest prose width, in float32 (the precision a model runs in): the largest difference
    between the two orders, relative to the largest logit. Not printed: the claim bounds it."""
    import tensorflow as tf

    rng = np.random.default_rng(runs.current().seeds((HEATMAP_SEED,))[0])
    gaps = []
    for d_k in WIDTHS:  # √1024 = 32 scales exactly; √10 rounds
        q, k = (tf.constant(rng.uniform(-3.0, 3.0, (LENGTH, d_k)), tf.float32) for _ in "qk")
        before = tf.linalg.matmul(q * d_k**-0.5, k, transpose_b=True)
        after = tf.linalg.matmul(q, k, transpose_b=True) / math.sqrt(d_k)
        gaps.append(float(tf.reduce_max(tf.abs(before - after)) / tf.reduce_max(tf.abs(after))))
    out["scaled-dot-product.prescale.rel_gap"] = Number(max(gaps), ".1e")


@claim(
    "scaled-dot-product.prescale_same_logits",
    statement="scaling the query by d_k ** -0.5 before the product gives the logits (q·k)/√d_k "
    "to float32 rounding: the largest gap is below 1e-5 of the largest logit (d_k = 10, 1024)",
    counterexample={"scaled-dot-product.prescale.rel_gap": 0.03},
)
def _prescale_same(v: Mapping[str, float]) -> bool:
    return v["scaled-dot-product.prescale.rel_gap"] < 1e-5


# -- exercises -------------------------------------------------------------------------------

EXERCISE_NARROW = (-1.0, 1.0)  # exercise 2: components from uniform[−1, 1] …
EXERCISE_NARROW_DIM = 64  # … at d_k = 64


@numbers
def _exercise_numbers(out: dict[str, str]) -> None:
    """Exercise 2 (uniform[−1, 1] at d_k = 64) and 3 (the note's logits ÷ d), as seed ranges."""
    from attention_explained.stats import logit_variance

    low, high = EXERCISE_NARROW
    theory = logit_variance(EXERCISE_NARROW_DIM, minval=low, maxval=high)
    out["scaled-dot-product.exercise.narrow.var_theory"] = Number(theory, ".2f")
    per_seed_ranges(_exercise_measured, out, runs.current().seeds(SEEDS))


def _exercise_measured(out: dict[str, str], seeds: tuple[int, ...]) -> None:
    dim, (low, high) = EXERCISE_NARROW_DIM, EXERCISE_NARROW
    narrow = np.concatenate([note_logits(dim, s, low, high).ravel() for s in seeds])
    out["scaled-dot-product.exercise.narrow.var_measured"] = Number(narrow.var(), ".2f")
    spread = (narrow / math.sqrt(dim)).std()
    out["scaled-dot-product.exercise.narrow.std_sqrt_measured"] = Number(spread, ".3f")
    by_d = [row_means(note_logits(1024, s) / 1024) for s in seeds]
    weight, entropy = (float(np.mean(column)) for column in zip(*by_d, strict=True))
    out["scaled-dot-product.exercise.by_d.max_weight.d1024"] = Number(weight, ".3f")
    out["scaled-dot-product.exercise.by_d.entropy.d1024"] = Number(entropy, ".3f")


@claim(
    "scaled-dot-product.exercise.narrow_variance",
    statement="for uniform[−1, 1] components at d_k = 64 the derived 64/9 lies inside the "
    "measured seed range of Var(q·k), and 1/3 inside that of the std after ÷√d_k; every seed "
    "within 15% of them",
    counterexample={"scaled-dot-product.exercise.narrow.var_measured": 9.0},
)
def _narrow_variance(v: Mapping[str, float]) -> bool:
    theory = v["scaled-dot-product.exercise.narrow.var_theory"]
    return abs(theory - 64 / 9) < 1e-9 and all(
        lo(v, name) <= target <= hi(v, name)
        and all(close(x(v, name), target, 0.15) for x in (lo, hi))
        for name, target in (
            ("scaled-dot-product.exercise.narrow.var_measured", theory),
            ("scaled-dot-product.exercise.narrow.std_sqrt_measured", 1 / 3),
        )
    )


@claim(
    "scaled-dot-product.exercise.divide_by_d_flattens",
    statement="dividing the note's d = 1024 logits by d leaves rows almost uniform: max weight "
    "below 1.5/n and entropy above 99% of log n",
    counterexample={"scaled-dot-product.exercise.by_d.max_weight.d1024": 0.2},
)
def _by_d_flat(v: Mapping[str, float]) -> bool:
    return (
        hi(v, "scaled-dot-product.exercise.by_d.max_weight.d1024")
        < 1.5 * v["theory.uniform_weight"]
        and lo(v, "scaled-dot-product.exercise.by_d.entropy.d1024") > 0.99 * v["theory.log_n"]
    )
