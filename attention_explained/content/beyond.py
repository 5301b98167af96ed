"""The beyond page: soft-capping the note's logits, many keys, causal masks."""

from __future__ import annotations

import math
from collections.abc import Mapping

import numpy as np

from attention_explained import runs
from attention_explained.content.registry import Number, Spread, claim, hi, lo, numbers
from attention_explained.content.shared import close, note_logits
from attention_explained.settings import (
    CAUSAL_D_K,
    CAUSAL_LENGTH,
    LENGTH,
    MANY_KEYS_D_K,
    MANY_KEYS_QUERIES,
    SELF_ATTENTION_DIM,
    SELF_ATTENTION_SEED,
)
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


# -- many keys: ÷√d_k fixes the spread in d_k, not in n ----------------------------------------

KEYS_SHOWN = (16, 4096)  # the two context lengths the prose compares


def add_seed_spread(out: dict[str, str], name: str, values, spec: str) -> None:
    """``name``: a number measured once per seed, printed as its range (value: the median);
    the claims read its per-seed extremes with ``registry.lo`` and ``registry.hi``."""
    values = np.asarray(values, dtype=float)
    low, high = float(values.min()), float(values.max())
    out[name] = Spread(float(np.median(values)), low, high, spec)


@numbers
def _many_keys_numbers(out: dict[str, str]) -> None:
    """One query against n keys at d_k = 64, ÷√d_k (content.data.many_keys)."""
    from attention_explained.content.data import many_keys

    data = many_keys()
    unit, note = data["unit"], data["note"]
    lengths = list(unit["length"])
    out["beyond.keys.d_k"] = str(MANY_KEYS_D_K)
    out["beyond.keys.queries"] = str(MANY_KEYS_QUERIES)
    out["beyond.keys.seeds"] = str(unit["max_weight"].shape[0])
    long = [j for j, n in enumerate(lengths) if n >= KEYS_SHOWN[0]]
    add_seed_spread(out, "beyond.keys.std", unit["logit_std"][:, long].ravel(), ".2f")
    # σ√(2 ln n) with each seed's own σ, less the row's largest logit: > 0 while under the bound
    bound = unit["logit_std"] * np.sqrt(2 * np.log(unit["length"]))[None, :]
    out["beyond.keys.bound_margin"] = Number(float(np.min(bound - unit["max_logit"])), ".2f")
    specs = {"max_weight": ".3f", "max_logit": ".1f"}
    for n in KEYS_SHOWN:
        j = lengths.index(n)
        out[f"beyond.keys.n{n}"] = str(n)
        out[f"beyond.keys.sqrt_2ln.n{n}"] = Number(math.sqrt(2 * math.log(n)), ".1f")
        for metric, spec in specs.items():
            add_seed_spread(out, f"beyond.keys.{metric}.n{n}", unit[metric][:, j], spec)
        add_seed_spread(out, f"beyond.keys.relative.n{n}", n * unit["max_weight"][:, j], ".1f")
        add_seed_spread(out, f"beyond.keys.note.max_weight.n{n}", note["max_weight"][:, j], ".2f")


@claim(
    "beyond.keys.std_flat",
    statement="with unit-variance components at d_k = 64, the ÷√d_k logits' standard deviation "
    "lies within 0.9–1.1 at every n ≥ 16 on every seed",
    counterexample={"beyond.keys.std:low": 0.5},
)
def _keys_std_flat(v: Mapping[str, float]) -> bool:
    return lo(v, "beyond.keys.std") >= 0.9 and hi(v, "beyond.keys.std") <= 1.1


@claim(
    "beyond.keys.max_logit_grows_under_bound",
    statement="the mean largest ÷√d_k logit of a row grows from n = 16 to n = 4096 on every "
    "seed (lowest seed at 4096 above the highest at 16) and stays below σ√(2 ln n) at every n",
    counterexample={"beyond.keys.bound_margin": -0.1},
)
def _keys_max_logit(v: Mapping[str, float]) -> bool:
    grows = lo(v, "beyond.keys.max_logit.n4096") > hi(v, "beyond.keys.max_logit.n16")
    return grows and v["beyond.keys.bound_margin"] > 0


@claim(
    "beyond.keys.max_weight_falls_relative_grows",
    statement="from n = 16 to n = 4096 the mean max weight falls on every seed, while the max "
    "weight relative to the uniform 1/n (n·p_max) grows on every seed",
    counterexample={"beyond.keys.relative.n4096:low": 2.0},
)
def _keys_max_weight(v: Mapping[str, float]) -> bool:
    weight, relative = "beyond.keys.max_weight", "beyond.keys.relative"
    falls = hi(v, f"{weight}.n4096") < lo(v, f"{weight}.n16")
    return falls and lo(v, f"{relative}.n4096") > hi(v, f"{relative}.n16")


@claim(
    "beyond.keys.note_components_stay_peaked",
    statement="with the note's uniform[−3, 3] components (÷√d_k logits of std 3) the mean max "
    "weight is higher than with unit-variance components at n = 16 and n = 4096, on every seed",
    counterexample={"beyond.keys.note.max_weight.n4096:low": 0.004},
)
def _keys_note(v: Mapping[str, float]) -> bool:
    return all(
        lo(v, f"beyond.keys.note.max_weight.n{n}") > hi(v, f"beyond.keys.max_weight.n{n}")
        for n in KEYS_SHOWN
    )


# -- causal masks: row i has i keys ------------------------------------------------------------


@numbers
def _causal_numbers(out: dict[str, str]) -> None:
    """Mean row entropy, full and causal, as a ratio to log n and to each row's own log i."""
    from attention_explained.in_practice import causal_entropy

    per_seed = [causal_entropy(seed=s) for s in runs.current().seeds(SEEDS)]
    out["beyond.causal.n"] = str(CAUSAL_LENGTH)
    out["beyond.causal.d_k"] = str(CAUSAL_D_K)
    for name in ("full.naive", "causal.naive", "causal.per_row"):
        add_seed_spread(out, f"beyond.causal.{name}", [r[name] for r in per_seed], ".2f")
    gaps = [r["full.naive"] - r["causal.per_row"] for r in per_seed]
    add_seed_spread(out, "beyond.causal.per_row_gap", gaps, ".2f")


@claim(
    "beyond.causal.per_row_removes_the_mask",
    statement="under a causal mask the mean entropy ÷ log n falls more than 0.1 below full "
    "attention's on every seed, while each row's entropy ÷ log of its own number of keys stays "
    "within 0.05 of full attention's",
    counterexample={"beyond.causal.per_row_gap:high": 0.2},
)
def _causal(v: Mapping[str, float]) -> bool:
    full = lo(v, "beyond.causal.full.naive")
    naive = hi(v, "beyond.causal.causal.naive")
    gap = (lo(v, "beyond.causal.per_row_gap"), hi(v, "beyond.causal.per_row_gap"))
    return naive < full - 0.1 and gap[0] > -0.05 and gap[1] < 0.05


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
