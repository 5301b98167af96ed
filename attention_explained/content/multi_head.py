"""The multi-head page: our MultiHeadAttention against Keras'."""

from __future__ import annotations

from collections.abc import Mapping

from attention_explained.content.registry import Number, claim, numbers


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
