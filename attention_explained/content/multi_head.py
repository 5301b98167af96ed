"""The multi-head page: our MultiHeadAttention against Keras'."""

from __future__ import annotations

import math
from collections.abc import Mapping

import numpy as np

from attention_explained import runs
from attention_explained.content.registry import Number, claim, hi, lo, numbers, per_seed_ranges
from attention_explained.content.shared import note_logits, row_means
from attention_explained.settings import PROSE_SEEDS as SEEDS


@numbers
def _keras_numbers(out: dict[str, str]) -> None:
    from attention_explained.equivalence import compare_with_keras

    result = compare_with_keras()
    out["keras.max_abs_diff.output"] = Number(result["output"], ".1e")
    out["keras.max_abs_diff.scores"] = Number(result["scores"], ".1e")


@claim(
    "multi-head.matches_keras",
    statement="with the same weights, our MultiHeadAttention matches keras.layers."
    "MultiHeadAttention to float32 rounding: max |Δ| of outputs and weights ≤ 1e-5",
    counterexample={"keras.max_abs_diff.output": 0.01},
)
def _matches_keras(v: Mapping[str, float]) -> bool:
    return all(0 <= v[f"keras.max_abs_diff.{what}"] <= 1e-5 for what in ("output", "scores"))


# -- exercises -------------------------------------------------------------------------------

EXERCISE_MHA = (512, 8)  # exercise 2: d_model and h of the paper's base model


@numbers
def _exercise_numbers(out: dict[str, str]) -> None:
    """Exercise 2: unit-variance components in heads of d_k = d_model/h, ÷√d_k and ÷√d_model."""
    per_seed_ranges(_exercise_measured, out, runs.current().seeds(SEEDS))


def _exercise_measured(out: dict[str, str], seeds: tuple[int, ...]) -> None:
    d_model, heads = EXERCISE_MHA
    d_k = d_model // heads
    root3 = math.sqrt(3.0)  # uniform[−√3, √3] has variance 1
    for name, divisor in (("head", d_k), ("model", d_model)):
        rows = [row_means(note_logits(d_k, s, -root3, root3) / math.sqrt(divisor)) for s in seeds]
        weight = float(np.mean([w for w, _ in rows]))
        out[f"multi-head.exercise.max_weight.{name}"] = Number(weight, ".3f")


@claim(
    "multi-head.exercise.dmodel_divisor_flattens",
    statement="with unit-variance components and d_k = 64, dividing by √512 instead of √64 "
    "lowers the mean max weight, on every seed, from above 4/n to about twice the uniform 1/n "
    "(between 1.5/n and 2.5/n; n = 30)",
    counterexample={"multi-head.exercise.max_weight.model:high": 0.171},
)
def _dmodel_divisor(v: Mapping[str, float]) -> bool:
    uniform = v["theory.uniform_weight"]
    model = "multi-head.exercise.max_weight.model"
    return (
        1.5 * uniform
        < lo(v, model)
        <= hi(v, model)
        < 2.5 * uniform
        < 4 * uniform
        < lo(v, "multi-head.exercise.max_weight.head")
    )


@claim(
    "multi-head.exercise.param_count_by_hand",
    statement="Keras' count_params() for MultiHeadAttention(num_heads=4, key_dim=k) on 32-wide "
    "inputs equals 3(32·4k + 4k) + (4k·32 + 32), for k = 8 and k = 32",
    counterexample={"nbkeras.params.key_dim8": 4000},
)
def _param_count(v: Mapping[str, float]) -> bool:
    def by_hand(k: int, d: int = 32, h: int = 4) -> int:
        return 3 * (d * h * k + h * k) + (h * k * d + d)

    return all(v[f"nbkeras.params.key_dim{k}"] == by_hand(k) for k in (8, 32))
