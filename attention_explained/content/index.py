"""The home page (docs/index.md, index.en.md): the pencil-sized example, one row at d = 1024."""

from __future__ import annotations

import itertools
import math
from collections.abc import Mapping

import numpy as np

from attention_explained.content.registry import Number, claim, hi, lo, numbers
from attention_explained.settings import HEATMAP_SEED, LENGTH, PENCIL_KEYS, PENCIL_QUERY
from attention_explained.settings import PROSE_DIMS as WIDTHS

EXAMPLE_DIM = 1024  # the note's large width
EXAMPLE_ROW = 0  # query 0 of the heatmap sample (seed ``settings.HEATMAP_SEED``)
EXAMPLE_RANKS = (1, 2, 3, 15)  # the three largest logits of the row and its median one


def _small(value: float) -> Number:
    """Weights and derivatives span 1 to 1e-90: fixed decimals above 1e-3, else 1.2e−9."""
    return Number(value, ".3f" if abs(value) >= 1e-3 or value == 0 else ".1e")


@numbers
def _example_numbers(out: dict[str, str]) -> None:
    """The home page's worked example: four logits of one row, raw and ÷√d.

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
    "index.example_top_weight",
    statement="in the example row the top key takes > 0.99 of the weight unscaled and < 0.9 "
    "after ÷√d",
    counterexample={"example.weight.r1.sqrt": 0.995},
)
def _example_top_weight(v: Mapping[str, float]) -> bool:
    return v["example.weight.r1.none"] > 0.99 and v["example.weight.r1.sqrt"] < 0.9


@claim(
    "index.example_slopes",
    statement="in the example row every key shown has p(1 − p) < 1e-3 unscaled, while after "
    "÷√d the two largest logits both have p(1 − p) > 0.05",
    counterexample={"example.slope.r3.none": 0.2},
)
def _example_slopes(v: Mapping[str, float]) -> bool:
    return all(v[f"example.slope.r{r}.none"] < 1e-3 for r in EXAMPLE_RANKS) and all(
        v[f"example.slope.r{r}.sqrt"] > 0.05 for r in (1, 2)
    )


@claim(
    "index.example_jacobian_collapses",
    statement="the example row's ‖J‖_F unscaled is less than a tenth of its ‖J‖_F after ÷√d",
    counterexample={"example.jacobian_fro.none": 0.2},
)
def _example_jacobian(v: Mapping[str, float]) -> bool:
    return 10 * v["example.jacobian_fro.none"] < v["example.jacobian_fro.sqrt"]


@claim(
    "index.example_row_below_panel_mean",
    statement="the example row's top weight after ÷√d is below the mean row max weight of the "
    "seed-0 d = 1024 ÷√d heatmap panel (the row is less peaked than the average row)",
    counterexample={"example.weight.r1.sqrt": 0.9},
)
def _example_below_panel(v: Mapping[str, float]) -> bool:
    return v["example.weight.r1.sqrt"] < v["heatmap.max_weight.d1024.sqrt"]


@claim(
    "index.unscaled_d1024_near_one_hot",
    statement="unscaled at d = 1024 the row max weight, averaged over a seed's rows, is > 0.9 "
    "on every seed",
    counterexample={"sweep.seed_min.max_weight.d1024.none": 0.6},
)
def _unscaled_one_hot(v: Mapping[str, float]) -> bool:
    return v["sweep.seed_min.max_weight.d1024.none"] > 0.9


@claim(
    "index.pattern_holds_over_seeds",
    statement="on every seed the seed-0 picture holds: unscaled d = 1024 mean max weight > 0.9, "
    "÷√d mean max weight 0.4–0.8 at both widths, ÷(3√d) entropy above 80% of log n",
    counterexample={"sweep.seed_max.max_weight.d10.sqrt": 0.95},
)
def _pattern_over_seeds(v: Mapping[str, float]) -> bool:
    return (
        v["sweep.seed_min.max_weight.d1024.none"] > 0.9
        and all(
            v[f"sweep.seed_min.max_weight.d{d}.sqrt"] > 0.4
            and v[f"sweep.seed_max.max_weight.d{d}.sqrt"] < 0.8
            for d in WIDTHS
        )
        and all(v[f"sweep.seed_min.entropy.d{d}.unit"] > 0.8 * v["theory.log_n"] for d in WIDTHS)
    )


@numbers
def _summary_numbers(out: dict[str, str]) -> None:
    """How many logits one seed of the note's experiment has (the std is pooled over them)."""
    out["index.logits_per_seed"] = str(LENGTH * LENGTH)


@claim(
    "index.training_cost_grows_with_dk",
    statement="on the training page (one SGD learning rate), unscaled attention has more "
    "examples sending no gradient at step 0 as d_k grows (16 → 128 → 1024), and its accuracy "
    "gap to ÷√d_k is larger at d_k = 1024 than at 16 and 128 on every seed",
    counterexample={"training.acc_gap_min.d1024": 1.0},
)
def _training_cost(v: Mapping[str, float]) -> bool:
    starved = [f"training.init_starved.d{dk}.none" for dk in (16, 128, 1024)]
    rises = all(hi(v, a) < lo(v, b) for a, b in itertools.pairwise(starved))
    gap_small = max(v[f"training.acc_gap_max.d{dk}"] for dk in (16, 128))
    return rises and v["training.acc_gap_min.d1024"] > gap_small


# -- the pencil-sized example: one query, three keys, d_k = 4 -------------------------------

PENCIL_KEY_NUMBERS = tuple(range(1, len(PENCIL_KEYS) + 1))  # keys are numbered from 1


@numbers
def _pencil_numbers(out: dict[str, str]) -> None:
    """The home page's first example, small enough to redo by hand: raw and ÷√d_k.

    The vectors are ``settings.PENCIL_QUERY`` and ``PENCIL_KEYS``; the weights come from the
    package's own attention (identity values, so the output row is the weight row).
    """
    from attention_explained import scaled_dot_product_attention

    query = np.array([PENCIL_QUERY], dtype=np.float64)
    keys = np.array(PENCIL_KEYS, dtype=np.float64)
    d_k = query.shape[1]
    out["index.pencil.dk"] = str(d_k)
    out["index.pencil.sqrt_dk"] = Number(math.sqrt(d_k), "g")
    for i, component in enumerate(PENCIL_QUERY, 1):
        out[f"index.pencil.q.c{i}"] = Number(component, "d")
    for j, key in zip(PENCIL_KEY_NUMBERS, PENCIL_KEYS, strict=True):
        for i, component in enumerate(key, 1):
            out[f"index.pencil.k{j}.c{i}"] = Number(component, "d")
    for scale in ("none", "sqrt"):
        _, weights = scaled_dot_product_attention(query, keys, np.eye(len(keys)), scale=scale)
        weights = weights.numpy()[0]
        logits = (keys @ query[0]) * (1.0 if scale == "none" else 1.0 / math.sqrt(d_k))
        out[f"index.pencil.exp_sum.{scale}"] = Number(float(np.exp(logits).sum()), ".1f")
        for j, logit, weight in zip(PENCIL_KEY_NUMBERS, logits, weights, strict=True):
            key = f"k{j}.{scale}"
            out[f"index.pencil.logit.{key}"] = Number(logit, ".0f" if scale == "none" else ".1f")
            out[f"index.pencil.exp.{key}"] = Number(float(np.exp(logit)), ".1f")
            out[f"index.pencil.weight.{key}"] = _small(weight)
            out[f"index.pencil.slope.{key}"] = _small(weight * (1.0 - weight))


@claim(
    "index.pencil_scaling_lowers_top_weight",
    statement="in the pencil example ÷√d_k lowers the top key's weight and keeps the keys' order",
    counterexample={"index.pencil.weight.k1.sqrt": 0.999},
)
def _pencil_top_weight(v: Mapping[str, float]) -> bool:
    rows = [
        [v[f"index.pencil.weight.k{j}.{s}"] for j in PENCIL_KEY_NUMBERS] for s in ("none", "sqrt")
    ]
    kept = all(row == sorted(row, reverse=True) for row in rows)
    return kept and v["index.pencil.weight.k1.sqrt"] < v["index.pencil.weight.k1.none"]


@claim(
    "index.pencil_slopes_grow",
    statement="in the pencil example ÷√d_k raises p(1 − p) for every key, towards its 0.25 maximum",
    counterexample={"index.pencil.slope.k2.sqrt": 0.001},
)
def _pencil_slopes(v: Mapping[str, float]) -> bool:
    return all(
        v[f"index.pencil.slope.k{j}.none"] < v[f"index.pencil.slope.k{j}.sqrt"] <= 0.25
        for j in PENCIL_KEY_NUMBERS
    )
