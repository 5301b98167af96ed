"""The multi-head page: our MultiHeadAttention against Keras'."""

from __future__ import annotations

import math
from collections.abc import Mapping

import numpy as np

from attention_explained import runs, settings
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


# -- where the scale goes in practice ----------------------------------------------------------


@numbers
def _precision_numbers(out: dict[str, str]) -> None:
    """float16: the component size at which QKᵀ at d_k = 128 overflows, raw, with q scaled
    first, and through Keras' two paths (attention_explained.in_practice)."""
    from attention_explained.content.beyond import add_seed_spread
    from attention_explained.in_practice import fp16_overflow_size, keras_fp16_overflow_size

    seeds = runs.current().seeds(settings.FP16_SEEDS)
    d_k = settings.FP16_D_K
    out["multi-head.fp16.d_k"] = str(d_k)
    out["multi-head.fp16.max"] = str(int(settings.FP16_MAX))
    out["multi-head.fp16.seeds"] = str(len(seeds))
    out["multi-head.fp16.theory.aligned"] = Number(math.sqrt(settings.FP16_MAX / d_k), ".1f")
    out["multi-head.fp16.gain"] = Number(d_k**0.25, ".1f")
    sizes = {}
    for pairing in ("aligned", "independent"):
        for name, prescale in (("raw", False), ("pre", True)):
            sizes[name, pairing] = np.array(
                [
                    fp16_overflow_size(seed=s, aligned=pairing == "aligned", prescale=prescale)
                    for s in seeds
                ]
            )
            add_seed_spread(out, f"multi-head.fp16.{name}.{pairing}", sizes[name, pairing], ".0f")
        ratio = sizes["pre", pairing] / sizes["raw", pairing]
        add_seed_spread(out, f"multi-head.fp16.ratio.{pairing}", ratio, ".2f")
    for path, explicit, twin in (("default", False, "raw"), ("explicit", True, "pre")):
        keras = np.array([keras_fp16_overflow_size(seed=s, explicit=explicit) for s in seeds])
        add_seed_spread(out, f"multi-head.fp16.keras.{path}", keras, ".0f")
        mismatch = float(np.max(np.abs(keras / sizes[twin, "aligned"] - 1)))
        out[f"multi-head.fp16.keras.{path}.mismatch"] = Number(mismatch, ".2g")


@claim(
    "multi-head.fp16.prescale_buys_fourth_root",
    statement="in float16 at d_k = 128, multiplying q by 1/√d_k before the product raises the "
    "component size at which QKᵀ overflows by d_k^¼ (within 5%, every seed, q = k and "
    "independent), and q = k overflows below √(65504/128)",
    counterexample={"multi-head.fp16.ratio.aligned:low": 1.0},
)
def _fp16_prescale(v: Mapping[str, float]) -> bool:
    gain = v["multi-head.fp16.d_k"] ** 0.25
    ratios = [
        end(v, f"multi-head.fp16.ratio.{p}") for p in ("aligned", "independent") for end in (lo, hi)
    ]
    below = hi(v, "multi-head.fp16.raw.aligned") <= v["multi-head.fp16.theory.aligned"]
    return below and all(abs(r / gain - 1) <= 0.05 for r in ratios)


@claim(
    "multi-head.fp16.keras_default_overflows_unscaled",
    statement="Keras' float16 MultiHeadAttention overflows, on every seed, at the component "
    "size of the raw QKᵀ on its default path (scale= passed to ops.dot_product_attention) and "
    "at that of the pre-scaled product when it returns the attention scores, each within 5% "
    "(two steps of the size grid; the two sizes are d_k^¼ apart)",
    counterexample={"multi-head.fp16.keras.default.mismatch": 2.36},
)
def _fp16_keras(v: Mapping[str, float]) -> bool:
    # Not exact: how a CPU kernel accumulates a float16 product decides which grid step
    # (2^(1/32), 2.2 %) first overflows, and Keras' einsum and tf.linalg.matmul may differ
    # by a step (they agreed on one machine and were one step apart on an AMD EPYC without
    # float16 oneDNN kernels). 5 % still tells the two paths apart: they differ by d_k^¼.
    apart = v["multi-head.fp16.gain"] - 1
    return all(
        v[f"multi-head.fp16.keras.{p}.mismatch"] <= min(0.05, apart / 4)
        for p in ("default", "explicit")
    )


@numbers
def _double_scale_numbers(out: dict[str, str]) -> None:
    """The double-scaling bug: q pre-scaled and keras.ops.dot_product_attention's default kept."""
    from attention_explained.content.beyond import add_seed_spread
    from attention_explained.in_practice import double_scaled_weights

    per_seed = [double_scaled_weights(seed=s) for s in runs.current().seeds(SEEDS)]
    out["multi-head.double.d_k"] = str(settings.DOUBLE_SCALE_D_K)
    for name in ("once", "twice"):
        weights = [float(w[name].max(axis=-1).mean()) for w in per_seed]
        add_seed_spread(out, f"multi-head.double.max_weight.{name}", weights, ".3f")
    gap = max(
        float(np.abs(w[k] - w[f"{k}.reference"]).max()) for w in per_seed for k in ("once", "twice")
    )
    out["multi-head.double.reference_gap"] = Number(gap, ".1e")


@claim(
    "multi-head.double.scaling_twice_flattens",
    statement="with unit-variance components at d_k = 128 and n = 30, pre-scaling q and keeping "
    "keras.ops.dot_product_attention's default scale leaves a mean max weight below 1.5/n on "
    "every seed (from above 4/n scaled once); Keras matches our NumPy reference to 1e-6",
    counterexample={"multi-head.double.max_weight.twice:high": 0.1},
)
def _double_scaling(v: Mapping[str, float]) -> bool:
    uniform = v["theory.uniform_weight"]
    return (
        hi(v, "multi-head.double.max_weight.twice") < 1.5 * uniform
        and lo(v, "multi-head.double.max_weight.once") > 4 * uniform
        and v["multi-head.double.reference_gap"] < 1e-6
    )


@numbers
def _value_dim_numbers(out: dict[str, str]) -> None:
    """Keras MultiHeadAttention(key_dim=16, value_dim=64): which width sets the scale."""
    from attention_explained.in_practice import value_dim_scales

    case = settings.VALUE_DIM_CASE
    result = value_dim_scales(seed=0)  # one layer, the page's illustration: the same on a rerun
    out["multi-head.value_dim.key_dim"] = str(case["key_dim"])
    out["multi-head.value_dim.value_dim"] = str(case["value_dim"])
    out["multi-head.value_dim.gap.key_dim"] = Number(result["key_dim"], ".0e")
    out["multi-head.value_dim.gap.value_dim"] = Number(result["value_dim"], ".2f")
    out["multi-head.value_dim.value_width"] = Number(result["value_width"], "g")


@claim(
    "multi-head.value_dim.scale_follows_key_dim",
    statement="Keras' attention scores with key_dim = 16, value_dim = 64 equal softmax(q·k/√16) "
    "to 1e-12 and differ from softmax(q·k/√64) by more than 0.1; its values are 64 wide",
    counterexample={"multi-head.value_dim.gap.key_dim": 0.2},
)
def _value_dim(v: Mapping[str, float]) -> bool:
    return (
        v["multi-head.value_dim.gap.key_dim"] < 1e-12
        and v["multi-head.value_dim.gap.value_dim"] > 0.1
        and v["multi-head.value_dim.value_width"] == v["multi-head.value_dim.value_dim"]
    )


@numbers
def _gemma_numbers(out: dict[str, str]) -> None:
    """Gemma 2 27B's query scale, from its configuration (settings.GEMMA2_27B)."""
    g = settings.GEMMA2_27B
    for key in ("d_model", "heads", "head_dim", "query_pre_attn_scalar"):
        out[f"multi-head.gemma.{key}"] = str(g[key])
    out["multi-head.gemma.scale"] = Number(g["query_pre_attn_scalar"] ** -0.5, ".4f")
    out["multi-head.gemma.head_scale"] = Number(g["head_dim"] ** -0.5, ".4f")
    out["multi-head.gemma.ratio"] = Number(
        math.sqrt(g["head_dim"] / g["query_pre_attn_scalar"]), ".3f"
    )


@claim(
    "multi-head.gemma.scale_is_not_head_dim",
    statement="Gemma 2 27B's query_pre_attn_scalar equals d_model/h (4608/32 = 144), not its "
    "head_dim 128, so its logits are √(128/144) times those of 1/√head_dim",
    counterexample={"multi-head.gemma.query_pre_attn_scalar": 128},
)
def _gemma(v: Mapping[str, float]) -> bool:
    g = {k: v[f"multi-head.gemma.{k}"] for k in ("d_model", "heads", "head_dim")}
    scalar = v["multi-head.gemma.query_pre_attn_scalar"]
    return (
        scalar == g["d_model"] / g["heads"] != g["head_dim"]
        and abs(v["multi-head.gemma.ratio"] - math.sqrt(g["head_dim"] / scalar)) < 1e-12
    )
