"""The beyond page: soft-capping the note's logits."""

from __future__ import annotations

import math
from collections.abc import Mapping

import numpy as np

from attention_explained import runs
from attention_explained.content.registry import Number, Spread, claim, hi, lo, numbers
from attention_explained.content.shared import close, note_logits
from attention_explained.settings import LENGTH, SELF_ATTENTION_DIM, SELF_ATTENTION_SEED
from attention_explained.settings import PROSE_SEEDS as SEEDS

BEYOND_CAP = 50.0  # Gemma 2's attention-logit cap


@numbers
def _beyond_numbers(out: dict[str, str]) -> None:
    """Soft-capping cap·tanh(z/cap) on the note's unscaled logits at d = 1024 (beyond page)."""
    from attention_explained import make_dot_product_tensor, max_weight

    dim, cap = 1024, BEYOND_CAP
    capped = []
    for seed in runs.current().seeds(SEEDS):
        z = make_dot_product_tensor(LENGTH, dim, seed=seed).numpy().astype(np.float64)
        z = cap * np.tanh(z / cap)
        weights = np.exp(z - z.max(axis=-1, keepdims=True))
        weights /= weights.sum(axis=-1, keepdims=True)
        capped.append(np.mean(max_weight(weights)))
    out["beyond.cap"] = Number(cap, "g")
    # A range over the seeds, like the uncapped max weight it is compared with.
    out["beyond.capped_max_weight.d1024"] = Spread(
        float(np.mean(capped)), min(capped), max(capped), ".2f"
    )


@claim(
    "beyond.capping_flattens_the_note_logits",
    statement="soft-capping the note's unscaled d = 1024 logits lowers the mean row max weight "
    "(to below 0.6, from the uncapped value) on every seed: the capped range lies below both",
    counterexample={"beyond.capped_max_weight.d1024:high": 0.99},
)
def _capping_flattens(v: Mapping[str, float]) -> bool:
    capped = hi(v, "beyond.capped_max_weight.d1024")
    return capped < 0.6 and capped < lo(v, "sweep.max_weight.d1024.none")


# -- exercises -------------------------------------------------------------------------------

EXERCISE_G_DK = 64  # exercise 1: QK-norm's g starts at √d_k, here for d_k = 64


@numbers
def _exercise_numbers(out: dict[str, str]) -> None:
    """Exercise 1 (QK-norm's largest weight), 2 (the cap's slope), 3 (queries = keys)."""
    from attention_explained.tensors import uniform_pair

    for key, g in (("half", math.log(LENGTH - 1) / 2), ("start", math.sqrt(EXERCISE_G_DK))):
        rest = (LENGTH - 1) * math.exp(-2 * g)  # the best key at +g, every other at −g
        out[f"beyond.exercise.worst_weight.{key}"] = Number(1 / (1 + rest), ".3f")
        out[f"beyond.exercise.worst_rest.{key}"] = Number(rest / (1 + rest), ".1e")  # 1 − p
    out["beyond.exercise.g_half"] = Number(math.log(LENGTH - 1) / 2, ".2f")
    out["beyond.exercise.g_start"] = Number(math.sqrt(EXERCISE_G_DK), "g")
    top = note_logits(1024, 0).max()  # the heatmap sample's largest: heatmap.max.d1024.none
    out["beyond.exercise.cap_slope"] = Number(1 - math.tanh(top / BEYOND_CAP) ** 2, ".1e")
    for dim in (64, 1024):  # ‖x‖²/√d at 1024 is the saturation page's self.diag_scaled
        x, _ = uniform_pair(LENGTH, dim, seed=SELF_ATTENTION_SEED)
        norms = np.sum(np.asarray(x, dtype=np.float64) ** 2, axis=-1)
        if dim != SELF_ATTENTION_DIM:
            by_sqrt = norms.mean() / math.sqrt(dim)
            out[f"beyond.exercise.aligned.sqrt.d{dim}"] = Number(by_sqrt, ".1f")
        out[f"beyond.exercise.aligned.by_d.d{dim}"] = Number(norms.mean() / dim, ".2f")


@claim(
    "beyond.exercise.qknorm_bound",
    statement="with QK-norm's |z| ≤ g and n = 30 keys, g = ln(n − 1)/2 allows a largest weight "
    "of exactly 1/2, and g = √64 = 8 allows one within 1e-5 of 1",
    counterexample={"beyond.exercise.worst_rest.start": 0.1},
)
def _qknorm_bound(v: Mapping[str, float]) -> bool:
    return (
        abs(v["beyond.exercise.worst_weight.half"] - 0.5) < 1e-9
        and abs(v["beyond.exercise.g_half"] - 0.5 * math.log(v["n"] - 1)) < 1e-9
        and v["beyond.exercise.worst_rest.start"] < 1e-5
    )


@claim(
    "beyond.exercise.cap_slope_vanishes",
    statement="at the largest unscaled d = 1024 logit of the heatmap sample the soft cap's "
    "slope 1 − tanh²(z/50) is below 1e-3",
    counterexample={"beyond.exercise.cap_slope": 0.5},
)
def _cap_slope(v: Mapping[str, float]) -> bool:
    return v["beyond.exercise.cap_slope"] < 1e-3 and v["heatmap.max.d1024.none"] > 100


@claim(
    "beyond.exercise.aligned_grows_like_d",
    statement="with queries equal to keys, ‖x‖²/d stays within 5% of 3 at d = 64 and d = 1024, "
    "while ‖x‖²/√d grows with d (within 10% of 3√d)",
    counterexample={"beyond.exercise.aligned.by_d.d1024": 9.0},
)
def _aligned(v: Mapping[str, float]) -> bool:
    by_sqrt = (v["beyond.exercise.aligned.sqrt.d64"], v["self.diag_scaled.d1024"])
    return all(close(v[f"beyond.exercise.aligned.by_d.d{d}"], 3, 0.05) for d in (64, 1024)) and all(
        close(z, 3 * d**0.5, 0.1) for z, d in zip(by_sqrt, (64, 1024), strict=True)
    )
