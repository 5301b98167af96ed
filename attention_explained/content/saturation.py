"""The saturation page: the seed-0 heatmaps' numbers and self-attention's diagonal."""

from __future__ import annotations

import math
from collections.abc import Mapping
from itertools import pairwise

import numpy as np

from attention_explained import runs
from attention_explained.content import data
from attention_explained.content.figures import scaled_flat_from_16
from attention_explained.content.registry import Number, claim, hi, lo, numbers
from attention_explained.content.shared import close, row_softmax
from attention_explained.settings import (
    HEATMAP_SEED,
    LENGTH,
    SCALES,
    SELF_ATTENTION_DIM,
    SELF_ATTENTION_SEED,
)
from attention_explained.settings import PROSE_DIMS as WIDTHS

EXAMPLE_DIM = 1024  # the note's large width
EXAMPLE_ROW = 0  # query 0 of the heatmap sample (seed ``settings.HEATMAP_SEED``)
EXAMPLE_RANKS = (1, 2, 3, 15)  # the three largest logits of the row and its median one


def _small(value: float) -> Number:
    """Weights and derivatives span 1 to 1e-90: fixed decimals above 1e-3, else 1.2e−9."""
    return Number(value, ".3f" if abs(value) >= 1e-3 or value == 0 else ".1e")


@numbers
def _example_numbers(out: dict[str, str]) -> None:
    """One row in numbers (the saturation page's fold): four logits of one row, raw and ÷√d.

    The row is query 0 of the heatmap sample at d = 1024 (the same seed as the figures).
    The softmax runs over the whole row of n keys; for the keys ranked 1st, 2nd, 3rd and
    15th by logit it gives the logit, its weight and p(1 − p), the diagonal of the softmax
    Jacobian (how much gradient the logit passes to itself). The row's spread and its
    ‖J‖_F complete the picture.
    """
    from attention_explained import make_dot_product_tensor, softmax_jacobian

    # float64 in every run: one sample's logits, quoted to 0.1, must not move with rounding
    raw = make_dot_product_tensor(LENGTH, EXAMPLE_DIM, seed=HEATMAP_SEED, dtype="float64")
    raw = raw.numpy()[EXAMPLE_ROW]
    order = np.argsort(-raw)
    out["example.dim"] = str(EXAMPLE_DIM)
    out["example.row"] = str(EXAMPLE_ROW)
    out["example.seed"] = str(HEATMAP_SEED)
    for scale, logits in (("none", raw), ("sqrt", raw / math.sqrt(EXAMPLE_DIM))):
        shifted = np.exp(logits - logits.max())
        total = shifted.sum()
        p = shifted / total
        rest = (total - shifted) / total  # 1 − p without cancellation when p ≈ 1
        out[f"example.std.{scale}"] = Number(logits.std(), ".1f")
        out[f"example.jacobian_fro.{scale}"] = _small(
            float(np.linalg.norm(softmax_jacobian(p[None, :]).numpy()[0]))
        )
        entropy = -np.sum(p * np.log(np.maximum(p, 1e-300)))
        out[f"example.entropy.{scale}"] = Number(float(entropy), ".2f")
        for rank in EXAMPLE_RANKS:
            j = order[rank - 1]
            key = f"r{rank}.{scale}"
            out[f"example.logit.{key}"] = Number(logits[j], ".1f" if scale == "none" else ".2f")
            out[f"example.weight.{key}"] = _small(p[j])
            out[f"example.slope.{key}"] = _small(p[j] * rest[j])
        gap = logits[order[0]] - logits[order[1]]
        out[f"example.gap12.{scale}"] = Number(gap, ".1f" if scale == "none" else ".2f")


@claim(
    "saturation.example_top_weight",
    statement="in the example row the top key takes > 0.99 of the weight unscaled and < 0.9 "
    "after ÷√d",
    counterexample={"example.weight.r1.sqrt": 0.995},
)
def _example_top_weight(v: Mapping[str, float]) -> bool:
    return v["example.weight.r1.none"] > 0.99 and v["example.weight.r1.sqrt"] < 0.9


@claim(
    "saturation.example_slopes",
    statement="in the example row every key shown has p(1 − p) < 1e-3 unscaled, while after "
    "÷√d the two largest logits both have p(1 − p) > 0.05",
    counterexample={"example.slope.r3.none": 0.2},
)
def _example_slopes(v: Mapping[str, float]) -> bool:
    return all(v[f"example.slope.r{r}.none"] < 1e-3 for r in EXAMPLE_RANKS) and all(
        v[f"example.slope.r{r}.sqrt"] > 0.05 for r in (1, 2)
    )


@claim(
    "saturation.example_jacobian_collapses",
    statement="the example row's ‖J‖_F unscaled is less than a tenth of its ‖J‖_F after ÷√d",
    counterexample={"example.jacobian_fro.none": 0.2},
)
def _example_jacobian(v: Mapping[str, float]) -> bool:
    return 10 * v["example.jacobian_fro.none"] < v["example.jacobian_fro.sqrt"]


@claim(
    "saturation.example_row_below_panel_mean",
    statement="the example row's top weight after ÷√d is below the mean row max weight of the "
    "seed-0 d = 1024 ÷√d heatmap panel (the row is less peaked than the average row)",
    counterexample={"example.weight.r1.sqrt": 0.9},
)
def _example_below_panel(v: Mapping[str, float]) -> bool:
    return v["example.weight.r1.sqrt"] < v["heatmap.max_weight.d1024.sqrt"]


@claim(
    "saturation.unscaled_d1024_near_one_hot",
    statement="unscaled at d = 1024 the row max weight, averaged over a seed's rows, is > 0.9 "
    "on every seed",
    counterexample={"sweep.max_weight.d1024.none:low": 0.6},
)
def _unscaled_one_hot(v: Mapping[str, float]) -> bool:
    return lo(v, "sweep.max_weight.d1024.none") > 0.9


def _std_theory(v: Mapping[str, float], dim: int, scale: str) -> float:
    """Theoretical std of the note's logits: 3√d raw, 3 after ÷√d, 1 after ÷(3√d)."""
    return {"none": v[f"std.theory.d{dim}"], "sqrt": 3.0, "unit": 1.0}[scale]


@numbers
def _heatmap_numbers(out: dict[str, str]) -> None:

    for (dim, scale), panel in data.heatmaps().items():
        out[f"heatmap.max_weight.d{dim}.{scale}"] = Number(panel["max_weight"], ".2f")
        out[f"heatmap.entropy.d{dim}.{scale}"] = Number(panel["entropy"], ".2f")
        out[f"heatmap.min.d{dim}.{scale}"] = Number(panel["logit_min"], ".1f")
        out[f"heatmap.max.d{dim}.{scale}"] = Number(panel["logit_max"], ".1f")


@numbers
def _self_attention_numbers(out: dict[str, str]) -> None:
    """Queries = keys (X·Xᵀ, no projections): the diagonal ‖x‖² dominates even after ÷√d."""
    from attention_explained._tf import tf
    from attention_explained.tensors import uniform_pair

    dim = SELF_ATTENTION_DIM
    x, _ = uniform_pair(LENGTH, dim, seed=SELF_ATTENTION_SEED, dtype=runs.current().dtype)
    scaled = (tf.linalg.matmul(x, x, transpose_b=True) / math.sqrt(dim)).numpy()
    off = scaled[~np.eye(LENGTH, dtype=bool)]
    weights = tf.nn.softmax(scaled, axis=-1).numpy()
    out["self.diag_scaled.d1024"] = Number(np.diag(scaled).mean(), ".1f")
    out["self.offdiag_std_scaled.d1024"] = Number(off.std(), ".2f")
    out["self.diag_weight.d1024"] = Number(np.diag(weights).mean(), ".3f")


@claim(
    "saturation.heatmap_panels",
    statement="in the seed-0 heatmaps the unscaled d = 1024 rows average a max weight > 0.95; "
    "÷√d stays peaked (mean max weight 0.4–0.8) at both widths; ÷(3√d) is spread wider "
    "(entropy above 80% of log n)",
    counterexample={"heatmap.max_weight.d1024.sqrt": 0.97},
)
def _heatmap_panels(v: Mapping[str, float]) -> bool:
    return (
        v["heatmap.max_weight.d1024.none"] > 0.95
        and all(0.4 < v[f"heatmap.max_weight.d{d}.sqrt"] < 0.8 for d in WIDTHS)
        and all(v[f"heatmap.entropy.d{d}.unit"] > 0.8 * v["theory.log_n"] for d in WIDTHS)
    )


@claim(
    "saturation.ranges_like_the_note",
    statement="the seed-0 logit ranges show the note's pattern: hundreds either side of 0 for "
    "raw d = 1024, tens for raw d = 10, about ten (5 to 20) for both ÷√d cases",
    counterexample={"heatmap.max.d1024.none": 40.0},
)
def _ranges_like_note(v: Mapping[str, float]) -> bool:
    def extreme(d: int, s: str) -> float:
        return max(abs(v[f"heatmap.min.d{d}.{s}"]), abs(v[f"heatmap.max.d{d}.{s}"]))

    def both_sides(d: int, s: str, low: float, high: float) -> bool:
        return all(low <= abs(v[f"heatmap.{m}.d{d}.{s}"]) < high for m in ("min", "max"))

    return (
        both_sides(1024, "none", 100, 1000)
        and both_sides(10, "none", 10, 100)
        and all(5 <= extreme(d, "sqrt") <= 20 for d in WIDTHS)
    )


@claim(
    "saturation.range_three_to_four_std",
    statement="in every seed-0 panel the largest |logit| lies 2.5 to 4.5 theoretical stds from 0",
    counterexample={"heatmap.max.d10.none": 100.0},
)
def _range_in_std(v: Mapping[str, float]) -> bool:
    for d in WIDTHS:
        for s in SCALES:
            extreme = max(abs(v[f"heatmap.min.d{d}.{s}"]), abs(v[f"heatmap.max.d{d}.{s}"]))
            if not 2.5 <= extreme / _std_theory(v, d, s) <= 4.5:
                return False
    return True


@claim(
    "saturation.sqrt_same_at_both_widths",
    statement="after ÷√d (and after ÷(3√d)) the d = 10 and d = 1024 rows of the 8-seed table "
    "overlap as printed: each entropy and max-weight range at one width shares a value with "
    "the other's at the printed digits (.2f)",
    counterexample={"sweep.entropy.d10.sqrt": 2.5},
)
def _sqrt_same(v: Mapping[str, float]) -> bool:
    def overlap_as_printed(metric: str, s: str) -> bool:  # the printed ranges (.2f) meet
        a, b = f"sweep.{metric}.d10.{s}", f"sweep.{metric}.d1024.{s}"
        low = max(round(lo(v, a), 2), round(lo(v, b), 2))
        return low <= min(round(hi(v, a), 2), round(hi(v, b), 2))

    return all(
        overlap_as_printed(m, s) for m in ("entropy", "max_weight") for s in ("sqrt", "unit")
    )


@claim(
    "saturation.unscaled_entropy_falls_with_width",
    statement="unscaled, the entropy falls and the max weight rises from d = 10 to d = 1024",
    counterexample={"sweep.entropy.d1024.none": 3.0},
)
def _unscaled_trend(v: Mapping[str, float]) -> bool:
    return hi(v, "sweep.entropy.d1024.none") < lo(v, "sweep.entropy.d10.none") and lo(
        v, "sweep.max_weight.d1024.none"
    ) > hi(v, "sweep.max_weight.d10.none")


@claim(
    "saturation.unscaled_d1024_one_key",
    statement="unscaled at d = 1024 the mean row entropy H is below 0.2 nats on every seed, so "
    "e^H, the effective number of keys a query looks at, is under 1.25 (one key per query)",
    counterexample={"sweep.entropy.d1024.none": 1.0},
)
def _one_key(v: Mapping[str, float]) -> bool:
    return math.exp(hi(v, "sweep.entropy.d1024.none")) < 1.25


@claim(
    "saturation.sqrt_still_peaked",
    statement="after ÷√d at d = 1024 the max weight is still above 0.4 (n = 30: uniform is "
    "1/30) and the entropy below 60% of log n; ÷(3√d) spreads further",
    counterexample={"sweep.max_weight.d1024.sqrt": 0.1},
)
def _sqrt_peaked(v: Mapping[str, float]) -> bool:
    return (
        lo(v, "sweep.max_weight.d1024.sqrt") > 0.4
        and hi(v, "sweep.entropy.d1024.sqrt") < 0.6 * v["theory.log_n"]
        and hi(v, "sweep.max_weight.d1024.unit") < lo(v, "sweep.max_weight.d1024.sqrt")
        and lo(v, "sweep.entropy.d1024.unit") > hi(v, "sweep.entropy.d1024.sqrt")
    )


@claim(
    "saturation.self_diagonal_dominates",
    statement="with X·Xᵀ/√d at d = 1024 the diagonal sits 25 to 40 off-diagonal stds above "
    "0, and each token gives itself a weight > 0.99",
    counterexample={"self.diag_weight.d1024": 0.5},
)
def _self_diagonal(v: Mapping[str, float]) -> bool:
    ratio = v["self.diag_scaled.d1024"] / v["self.offdiag_std_scaled.d1024"]
    return 25 <= ratio <= 40 and v["self.diag_weight.d1024"] > 0.99


@claim(
    "saturation.scaled_curves_flat_from_16",
    statement="in the saturation figure, ÷√d and ÷(3√d) entropy and max weight stay within 15% "
    "over every plotted d from 16 to 4096, and ÷√d's entropy at the smallest d is more than "
    "15% above that range (it still changes with d there)",
    counterexample={"figures.sweep_small_d_rise.entropy.sqrt": 0.01},
)
def _scaled_curves_flat(v: Mapping[str, float]) -> bool:
    return scaled_flat_from_16(v)


# -- exercises -------------------------------------------------------------------------------

EXERCISE_EXPLORER_SEED = 0  # the explorer's defaults: seed 0, n = 30, uniform[−3, 3]


SELF_SMALL_DKS = (1, 4, 8)  # exercise 4: X·Xᵀ/√d_k below d_k = 16


@numbers
def _exercise_numbers(out: dict[str, str]) -> None:
    """Exercise 3 (the explorer at d = 1024, seed 0) and exercise 4 (X·Xᵀ/√d at d = 16)."""
    from attention_explained import explorer
    from attention_explained.tensors import uniform_pair

    for scale in SCALES:
        stats = explorer.statistics(EXERCISE_EXPLORER_SEED, 1024, LENGTH, scale)
        for metric in ("max_weight", "entropy"):
            name = f"saturation.exercise.explorer.{metric}.d1024.{scale}"
            out[name] = Number(stats[metric], ".3f")  # as the explorer prints it
    x, _ = uniform_pair(LENGTH, 16, seed=SELF_ATTENTION_SEED)  # d = 1024: the self.* numbers
    x = np.asarray(x, dtype=np.float64)
    scaled = x @ x.T / math.sqrt(16)
    out["saturation.exercise.self.diag_scaled.d16"] = Number(np.diag(scaled).mean(), ".1f")
    weight = np.diag(row_softmax(scaled)).mean()
    out["saturation.exercise.self.diag_weight.d16"] = Number(weight, ".3f")
    # The same draw at smaller d_k (what the notebook's cell gives with 1, 4 or 8): how small
    # d_k must be for X·Xᵀ/√d_k's diagonal to stop taking most of each row's weight.
    for dk in SELF_SMALL_DKS:
        xs = np.asarray(uniform_pair(LENGTH, dk, seed=SELF_ATTENTION_SEED)[0], dtype=np.float64)
        weight = np.diag(row_softmax(xs @ xs.T / math.sqrt(dk))).mean()
        out[f"saturation.exercise.self.diag_weight.d{dk}"] = Number(weight, ".2f")


@claim(
    "saturation.exercise.explorer_d1024",
    statement="in the explorer (seed 0, n = 30, d = 1024) the unscaled rows are one-hot "
    "(max weight > 0.95, entropy < 0.1), ÷√d is still peaked (max weight > 0.4) and ÷σ²√d "
    "spreads the weights (entropy > 80% of log n)",
    counterexample={"saturation.exercise.explorer.max_weight.d1024.none": 0.6},
)
def _explorer_d1024(v: Mapping[str, float]) -> bool:
    mw = {
        s: v[f"saturation.exercise.explorer.max_weight.d1024.{s}"] for s in ("none", "sqrt", "unit")
    }
    return (
        mw["none"] > 0.95
        and v["saturation.exercise.explorer.entropy.d1024.none"] < 0.1
        and mw["none"] > mw["sqrt"] > 0.4 > mw["unit"]
        and v["saturation.exercise.explorer.entropy.d1024.unit"] > 0.8 * v["theory.log_n"]
    )


@claim(
    "saturation.exercise.self_weight_grows_with_d",
    statement="with X·Xᵀ/√d each token already gives itself more than 0.9 of its weight at "
    "d = 16 (diagonal near 3√16 = 12), and still more at d = 1024",
    counterexample={"saturation.exercise.self.diag_weight.d16": 0.4},
)
def _self_weight(v: Mapping[str, float]) -> bool:
    w16, w1024 = v["saturation.exercise.self.diag_weight.d16"], v["self.diag_weight.d1024"]
    return 0.9 < w16 < w1024 and close(v["saturation.exercise.self.diag_scaled.d16"], 12, 0.1)


@claim(
    "saturation.exercise.self_weight_small_dk",
    statement="with X·Xᵀ/√d_k on the page's sample (uniform[−3, 3]) the mean self-weight rises "
    "with d_k through 1, 4, 8 and 16, stays under one half at d_k = 1 and 4 and is above one "
    "half from d_k = 8 on",
    counterexample={"saturation.exercise.self.diag_weight.d4": 0.6},
)
def _self_weight_small(v: Mapping[str, float]) -> bool:
    w = [v[f"saturation.exercise.self.diag_weight.d{dk}"] for dk in (*SELF_SMALL_DKS, 16)]
    rises = all(a < b for a, b in pairwise(w))
    return rises and w[0] < w[1] < 0.5 < w[2]
