"""The home page (docs/index.md, index.en.md): the worked example, one row at d = 1024."""

from __future__ import annotations

import math
from collections.abc import Mapping

import numpy as np

from attention_explained.content.registry import Number, claim, numbers
from attention_explained.settings import HEATMAP_SEED, LENGTH
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
    "index.unscaled_d1024_near_one_hot",
    statement="unscaled at d = 1024 the row max weight, averaged over rows and seeds, is > 0.95",
    counterexample={"sweep.max_weight.d1024.none": 0.6},
)
def _unscaled_one_hot(v: Mapping[str, float]) -> bool:
    return v["sweep.max_weight.d1024.none"] > 0.95


@claim(
    "index.pattern_holds_over_seeds",
    statement="over all seeds the seed-0 picture holds: unscaled d = 1024 max weight > 0.95, "
    "÷√d max weight 0.4–0.8 at both widths, ÷(3√d) entropy above 80% of log n",
    counterexample={"sweep.max_weight.d10.sqrt": 0.95},
)
def _pattern_over_seeds(v: Mapping[str, float]) -> bool:
    return (
        v["sweep.max_weight.d1024.none"] > 0.95
        and all(0.4 < v[f"sweep.max_weight.d{d}.sqrt"] < 0.8 for d in WIDTHS)
        and all(v[f"sweep.entropy.d{d}.unit"] > 0.8 * v["theory.log_n"] for d in WIDTHS)
    )
