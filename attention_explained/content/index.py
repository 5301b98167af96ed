"""The home page (docs/index.md, index.en.md): the answer's number, the pencil-sized example at
two head dimensions, and the exercises."""

from __future__ import annotations

import math
from collections.abc import Mapping

import numpy as np

from attention_explained.content.registry import Number, claim, hi, lo, numbers
from attention_explained.settings import (
    PENCIL_AGREEMENTS,
    PENCIL_EXERCISE_AGREEMENTS,
    PENCIL_FIXED_DIVISOR,
    PENCIL_GLOROT_HEADS,
    PENCIL_GLOROT_KEY_DIMS,
    PENCIL_PAPER_D_MODEL,
    PENCIL_PAPER_HEADS,
    UNIFORM_MAX,
    UNIFORM_MIN,
)

# -- the answer in the first lines: 96 → 3 at d_k = 1024 ----------------------------------------

ANSWER_DIM = 1024


@numbers
def answer_numbers(out: dict[str, str]) -> None:
    """The one number of the home page's first lines: the std of q·k for the note's
    uniform[−3, 3] components at d_k = 1024, by the variance law (d_k·σ²·σ², σ² = (b − a)²/12),
    raw and ÷√d_k."""
    variance = (UNIFORM_MAX - UNIFORM_MIN) ** 2 / 12  # one component's
    raw = math.sqrt(ANSWER_DIM * variance * variance)
    out["index.answer.dk"] = str(ANSWER_DIM)
    out["index.answer.std_raw"] = Number(raw, ".0f")
    out["index.answer.std_sqrt"] = Number(raw / math.sqrt(ANSWER_DIM), ".0f")


@claim(
    "index.answer_spread",
    statement="the std of q·k at d_k = 1024 for uniform[−3, 3] components is 96 by the variance "
    "law, 3 after ÷√d_k, and the measured std is within 5% of the law on every seed",
    counterexample={"std.measured.d1024:low": 80.0},
)
def _answer_spread(v: Mapping[str, float]) -> bool:
    raw, scaled = v["index.answer.std_raw"], v["index.answer.std_sqrt"]
    measured = (lo(v, "std.measured.d1024"), hi(v, "std.measured.d1024"))
    return math.isclose(scaled, raw / math.sqrt(ANSWER_DIM)) and all(
        abs(m / raw - 1) < 0.05 for m in measured
    )


# -- the pencil-sized example: ±1 components at d_k and 4·d_k, four divisors ----------------

PENCIL_DIMS = tuple(PENCIL_AGREEMENTS)  # (d_k, 4·d_k)
PENCIL_DIVISORS = ("none", "sqrt", "d", "fixed")  # 1, √d_k, d_k, a constant


def pencil_divisor(name: str, d_k: int) -> float:
    """What the pencil table divides q·k by, for each of its four rows."""
    return {"none": 1.0, "sqrt": math.sqrt(d_k), "d": float(d_k), "fixed": PENCIL_FIXED_DIVISOR}[
        name
    ]


def pencil_vectors(d_k: int, agreements: tuple[int, ...]) -> tuple[np.ndarray, np.ndarray]:
    """A ±1 query of width ``d_k`` and one ±1 key per entry of ``agreements``, agreeing with
    the query in the first that many components and differing in the rest."""
    query = np.where(np.arange(d_k) % 2 == 0, 1.0, -1.0)  # +1, −1, +1, −1, …
    keys = np.array([np.where(np.arange(d_k) < a, query, -query) for a in agreements])
    return query, keys


def _exp(value: float) -> Number:
    """e^z as the table prints it: 1 for z = 0, else three decimals (chained by hand, these
    give the printed weights at their printed digits: tests/test_content_index.py)."""
    return Number(1, "d") if value == 1.0 else Number(value, ".3f")


def _pencil_rows(out: dict[str, str], prefix: str, agreements: dict[int, tuple[int, ...]]) -> None:
    from attention_explained import scaled_dot_product_attention

    for d_k, agree in agreements.items():
        query, keys = pencil_vectors(d_k, agree)
        raw = keys @ query
        out[f"{prefix}.dk{d_k}"] = str(d_k)
        for j, (a, r) in enumerate(zip(agree, raw, strict=True), 1):
            out[f"{prefix}.agree.dk{d_k}.k{j}"] = str(a)
            out[f"{prefix}.raw.dk{d_k}.k{j}"] = Number(r, ".0f")
        for name in PENCIL_DIVISORS:
            divisor = pencil_divisor(name, d_k)
            _, weights = scaled_dot_product_attention(
                query[None, :], keys, np.eye(len(keys)), scale=1.0 / divisor
            )
            p = weights.numpy()[0]
            for j, z in enumerate(raw / divisor, 1):
                key = f"{name}.dk{d_k}.k{j}"
                out[f"{prefix}.z.{key}"] = Number(z, "g")
                out[f"{prefix}.exp.{key}"] = _exp(math.exp(z))
            out[f"{prefix}.p1.{name}.dk{d_k}"] = Number(p[0], ".3f")
            out[f"{prefix}.slope1.{name}.dk{d_k}"] = Number(p[0] * (1 - p[0]), ".2f")


@numbers
def pencil_numbers(out: dict[str, str]) -> None:
    """The home page's first example, small enough to redo by hand (``settings.PENCIL_*``):
    logits, e^z and the top key's weight for each divisor at d_k and 4·d_k. The weights come
    from the package's own attention (identity values, so the output row is the weight row)."""
    out["index.pencil.fixed"] = Number(PENCIL_FIXED_DIVISOR, "g")
    _pencil_rows(out, "index.pencil", PENCIL_AGREEMENTS)
    _pencil_rows(out, "index.exercise.dk64", PENCIL_EXERCISE_AGREEMENTS)


def _spread(v: Mapping[str, float], prefix: str, name: str, d_k: int) -> float:
    """The gap between the top and the bottom key's logit in one row of the table."""
    return v[f"{prefix}.z.{name}.dk{d_k}.k1"] - v[f"{prefix}.z.{name}.dk{d_k}.k3"]


@claim(
    "index.pencil_only_sqrt_keeps_spread",
    statement="in the pencil example, from d_k to 4·d_k the raw spread of the logits doubles, "
    "÷√d_k keeps it, ÷d_k halves it and the fixed divisor doubles it; the top weight is the "
    "same at both widths only with ÷√d_k",
    counterexample={"index.pencil.z.fixed.dk16.k1": 1.0, "index.pencil.z.fixed.dk16.k3": -1.0},
)
def _pencil_spread(v: Mapping[str, float]) -> bool:
    small, large = PENCIL_DIMS
    ratio = {
        n: _spread(v, "index.pencil", n, large) / _spread(v, "index.pencil", n, small)
        for n in PENCIL_DIVISORS
    }
    same_p = {
        n: math.isclose(v[f"index.pencil.p1.{n}.dk{small}"], v[f"index.pencil.p1.{n}.dk{large}"])
        for n in PENCIL_DIVISORS
    }
    return (
        math.isclose(ratio["none"], 2)
        and math.isclose(ratio["sqrt"], 1)
        and math.isclose(ratio["d"], 0.5)
        and math.isclose(ratio["fixed"], 2)
        and same_p == {n: n == "sqrt" for n in PENCIL_DIVISORS}
    )


@claim(
    "index.pencil_fixed_is_the_small_sqrt",
    statement="the pencil table's constant divisor is √d_k of its smaller d_k, held fixed",
    counterexample={"index.pencil.fixed": 3.0},
)
def _pencil_fixed(v: Mapping[str, float]) -> bool:
    return math.isclose(v["index.pencil.fixed"], math.sqrt(v[f"index.pencil.dk{PENCIL_DIMS[0]}"]))


@claim(
    "index.pencil_unscaled_piles_up",
    statement="in the pencil example, unscaled, the top key's weight grows from d_k to 4·d_k "
    "(to > 0.95), ÷d_k drifts it towards the uniform 1/3, and ÷√d_k keeps it in between",
    counterexample={"index.pencil.p1.none.dk16": 0.9},
)
def _pencil_piles_up(v: Mapping[str, float]) -> bool:
    small, large = PENCIL_DIMS
    none_s, none_l = v[f"index.pencil.p1.none.dk{small}"], v[f"index.pencil.p1.none.dk{large}"]
    d_s, d_l = v[f"index.pencil.p1.d.dk{small}"], v[f"index.pencil.p1.d.dk{large}"]
    root = v[f"index.pencil.p1.sqrt.dk{large}"]
    return none_s < none_l and none_l > 0.95 and 1 / 3 < d_l < d_s and d_s < root < none_s


# -- exercises -------------------------------------------------------------------------------


@claim(
    "index.exercise.slope_vanishes",
    statement="exercise 1: unscaled at 4·d_k the top key's p(1 − p) is below 0.05, and after "
    "÷√d_k it is above 0.2 (of the 0.25 maximum)",
    counterexample={"index.pencil.slope1.none.dk16": 0.2},
)
def _exercise_slope(v: Mapping[str, float]) -> bool:
    large = PENCIL_DIMS[1]
    return (
        v[f"index.pencil.slope1.none.dk{large}"] < 0.05
        and 0.2 < v[f"index.pencil.slope1.sqrt.dk{large}"] <= 0.25
    )


@claim(
    "index.exercise.dk64_flattens",
    statement="exercise 2: at d_k = 64 ÷d_k brings the top weight closer to the uniform 1/3 "
    "than at 16, while ÷√d_k gives the same top weight as at 4 and 16",
    counterexample={"index.exercise.dk64.p1.d.dk64": 0.45},
)
def _exercise_dk64(v: Mapping[str, float]) -> bool:
    flat = v["index.exercise.dk64.p1.d.dk64"]
    same = all(
        math.isclose(v["index.exercise.dk64.p1.sqrt.dk64"], v[f"index.pencil.p1.sqrt.dk{d}"])
        for d in PENCIL_DIMS
    )
    return 1 / 3 < flat < v[f"index.pencil.p1.d.dk{PENCIL_DIMS[1]}"] and same


@numbers
def paper_numbers(out: dict[str, str]) -> None:
    """Exercise 3: the paper's head dimension, d_model/h, and its square root."""
    d_k = PENCIL_PAPER_D_MODEL // PENCIL_PAPER_HEADS
    out["index.exercise.paper.d_model"] = str(PENCIL_PAPER_D_MODEL)
    out["index.exercise.paper.heads"] = str(PENCIL_PAPER_HEADS)
    out["index.exercise.paper.d_k"] = str(d_k)
    out["index.exercise.paper.sqrt_dk"] = Number(math.sqrt(d_k), "g")
    out["index.exercise.paper.sqrt_heads"] = Number(math.sqrt(PENCIL_PAPER_HEADS), ".2f")


@claim(
    "index.exercise.paper_head_dim",
    statement="exercise 3: the paper's d_k = d_model/h is 64, its square root 8, and dividing by "
    "√d_model instead makes the logits √h times smaller",
    counterexample={"index.exercise.paper.sqrt_dk": 22.6},
)
def _exercise_paper(v: Mapping[str, float]) -> bool:
    d_model, heads = v["index.exercise.paper.d_model"], v["index.exercise.paper.heads"]
    sqrt_dk = v["index.exercise.paper.sqrt_dk"]
    return math.isclose(sqrt_dk**2, d_model / heads) and math.isclose(
        math.sqrt(d_model) / sqrt_dk, v["index.exercise.paper.sqrt_heads"]
    )


@numbers
def glorot_numbers(out: dict[str, str]) -> None:
    """Exercise 4: the logits' std after ÷√key_dim under Keras 3.15's glorot_uniform query and
    key kernels (fan_in = d_model, fan_out = h·key_dim), Var(q_m) = Var(k_m) =
    2·d_model/(d_model + h·key_dim) for unit-variance inputs, so the std of q·k/√key_dim is that
    variance. The initialisation page measures it on the real layer."""
    out["index.exercise.glorot.heads"] = str(PENCIL_GLOROT_HEADS)
    out["index.exercise.glorot.d_model"] = str(PENCIL_PAPER_D_MODEL)
    for key_dim in PENCIL_GLOROT_KEY_DIMS:
        d_model, fan_out = PENCIL_PAPER_D_MODEL, PENCIL_GLOROT_HEADS * key_dim
        variance = 2 * d_model / (d_model + fan_out)
        out[f"index.exercise.glorot.key_dim{key_dim}"] = str(key_dim)
        out[f"index.exercise.glorot.std.key_dim{key_dim}"] = Number(variance, ".3f")


@claim(
    "index.exercise.glorot_spread_shrinks",
    statement="exercise 4: under Keras 3.15's glorot_uniform defaults at d_model = 512 and h = 8 "
    "the std of the ÷√key_dim logits is 1 at key_dim 64 and falls by more than a quarter at "
    "key_dim 128 (÷√key_dim alone does not keep it the same)",
    counterexample={"index.exercise.glorot.std.key_dim128": 1.0},
)
def _exercise_glorot(v: Mapping[str, float]) -> bool:
    small, large = (v[f"index.exercise.glorot.std.key_dim{k}"] for k in PENCIL_GLOROT_KEY_DIMS)
    return math.isclose(small, 1.0) and large < small * 3 / 4
