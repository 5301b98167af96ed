"""The initialisation page: what real layers start with (Keras, PyTorch, the note)."""

from __future__ import annotations

import math
from collections.abc import Mapping
from itertools import pairwise

import numpy as np

from attention_explained import settings
from attention_explained.content import data
from attention_explained.content.registry import (
    Number,
    attach_seed_ranges,
    claim,
    hi,
    lo,
    numbers,
)

_KD = settings.INIT_KEY_DIMS
_H = settings.INIT_HEADS
_DM = settings.INIT_ACROSS_D_MODEL
_SMALL, _LARGE = min(settings.INIT_ACROSS_KEY_DIMS), max(settings.INIT_ACROSS_KEY_DIMS)
_TINY = "keras314"  # Var(q_m) of a few hundredths: one more digit


# at the default digits the rerun's seeds lie outside the build's range (1.59 against 1.60)
_FEWER_DIGITS = {f"init.std_sqrt.keras.dm{_DM}.k{_SMALL}": ".1f"}


def _spec(quantity: str, scheme: str) -> str:
    """How the page prints ``quantity`` of ``scheme``."""
    if quantity.startswith("max"):
        return ".3f"
    if quantity == "std_raw":
        return ".2f" if scheme == _TINY else ".1f"
    return ".3f" if scheme == _TINY else ".2f"


def _points() -> dict[str, tuple[str, int, int, int]]:
    """Name suffix → grid point ``(scheme, d_model, h, key_dim)``."""
    from attention_explained.initialisation import SCHEMES

    out = {f"{s}.d{k}": (s, _H * k, _H, k) for s in SCHEMES for k in _KD}
    out |= {
        f"{s}.h{h}": (s, h * 64, h, 64) for s in ("keras", _TINY) for h in settings.INIT_HEAD_COUNTS
    }
    out |= {f"keras.dm{_DM}.k{k}": ("keras", _DM, _H, k) for k in settings.INIT_ACROSS_KEY_DIMS}
    return out


def _summary(grid: dict, seeds: slice) -> dict[str, Number]:
    """Every quantity at every point, the median over the ``seeds`` rows."""
    from attention_explained.initialisation import QUANTITIES

    out = {}
    for suffix, point in _points().items():
        rows = grid[point][seeds]
        for i, quantity in enumerate(QUANTITIES):
            value = float(np.median(rows[:, i]))
            name = f"init.{quantity}.{suffix}"
            out[name] = Number(value, _FEWER_DIGITS.get(name, _spec(quantity, point[0])))
    return out


@numbers
def _init_numbers(out: dict[str, str]) -> None:
    """Initialisation (docs/initialisation.md): Var(q_m), logit std and max weight per layer."""
    from attention_explained.initialisation import predicted_var_q, same_as_lecun

    grid = data.initialisation()
    n_seeds = len(settings.INIT_SEEDS)
    part = _summary(grid, slice(None))
    attach_seed_ranges(part, [_summary(grid, slice(j, j + 1)) for j in range(n_seeds)])
    out |= part
    errors = []
    for suffix, point in _points().items():
        predicted = predicted_var_q(*point)
        out[f"init.formula.{suffix}"] = Number(predicted, _spec("var_q", point[0]))
        errors += [abs(v / predicted - 1) for v in grid[point][:, 0]]
    # in per cent, as every printed number is a plain number ("2.5", the page adds the "%")
    out["init.worst_formula_error"] = Number(100 * max(errors), ".1f")
    out["init.lecun_difference"] = Number(same_as_lecun(num_heads=_H, key_dim=64), "g")
    out["init.heads"] = Number(_H, "d")
    out["init.d_model.d64"] = Number(_H * 64, "d")
    out["init.across_d_model"] = Number(_DM, "d")
    out["init.seeds"] = Number(n_seeds, "d")
    out["init.batch"] = Number(settings.INIT_BATCH, "d")
    out["init.dk_min"], out["init.dk_max"] = Number(min(_KD), "d"), Number(max(_KD), "d")


def _extremes(v: Mapping[str, float], name: str) -> tuple[float, float]:
    return lo(v, name), hi(v, name)


def _within(v: Mapping[str, float], name: str, target: float, tolerance: float) -> bool:
    """Every seed's value of ``name`` within ``tolerance`` (relative) of ``target``."""
    return all(abs(x / target - 1) <= tolerance for x in _extremes(v, name))


@claim(
    "init.layers_follow_formula",
    statement="at every measured point and seed, Var(q_m) is within 5% of the variance the "
    "initialiser's documented formula predicts (Keras ≥ 3.15 and ≤ 3.14, PyTorch, the note)",
    counterexample={"init.worst_formula_error": 30.0},
)
def _follow_formula(v: Mapping[str, float]) -> bool:
    return v["init.worst_formula_error"] <= 5.0


@claim(
    "init.keras_is_lecun_at_the_tie",
    statement="Keras ≥ 3.15's glorot_uniform query kernel at d_model = h·key_dim is the "
    "lecun_uniform one, draw for draw, and Var(q_m) is within 5% of 1 at every key_dim and h "
    "measured with d_model = h·key_dim, on every seed",
    counterexample={"init.lecun_difference": 0.01},
)
def _keras_is_lecun(v: Mapping[str, float]) -> bool:
    ties = [f"init.var_q.keras.d{k}" for k in _KD]
    ties += [f"init.var_q.keras.h{h}" for h in settings.INIT_HEAD_COUNTS]
    return v["init.lecun_difference"] == 0 and all(_within(v, n, 1.0, 0.05) for n in ties)


@claim(
    "init.keras314_nearly_uniform",
    statement="with Keras ≤ 3.14's fans at h = 8, key_dim = 64, the ÷√d_k logits' std is "
    "below 0.05 and the mean largest weight is within 10% of the uniform 1/n, on every seed; "
    "unscaled the std is still below 0.3",
    counterexample={"init.max_sqrt.keras314.d64:high": 0.1},
)
def _keras314_uniform(v: Mapping[str, float]) -> bool:
    uniform = 1 / v["n"]
    return (
        _extremes(v, "init.std_sqrt.keras314.d64")[1] < 0.05
        and _extremes(v, "init.std_raw.keras314.d64")[1] < 0.3
        and _within(v, "init.max_sqrt.keras314.d64", uniform, 0.10)
    )


@claim(
    "init.torch_half",
    statement="PyTorch's default gives Var(q_m) within 5% of 1/2 at every d_k measured, on "
    "every seed, and a ÷√d_k mean largest weight below 3/n",
    counterexample={"init.max_sqrt.torch.d64:high": 0.2},
)
def _torch_half(v: Mapping[str, float]) -> bool:
    return all(_within(v, f"init.var_q.torch.d{k}", 0.5, 0.05) for k in _KD) and all(
        _extremes(v, f"init.max_sqrt.torch.d{k}")[1] < 3 / v["n"] for k in _KD
    )


@claim(
    "init.note_saturates_keras_does_not",
    statement="÷√d_k at every d_k measured: the note's σ² = 3 components give a mean largest "
    "weight above 0.45 on every seed, Keras ≥ 3.15's default below 0.2",
    counterexample={"init.max_sqrt.note.d16:low": 0.3},
)
def _note_vs_keras(v: Mapping[str, float]) -> bool:
    return all(
        _extremes(v, f"init.max_sqrt.note.d{k}")[0] > 0.45
        and _extremes(v, f"init.max_sqrt.keras.d{k}")[1] < 0.2
        for k in _KD
    )


@claim(
    "init.unscaled_keras_peaks_with_dk",
    statement="without ÷√d_k, Keras ≥ 3.15's default logits have std within 10% of √d_k, and "
    "the mean largest weight rises with d_k to above 0.8 at the largest d_k, on every seed",
    counterexample={f"init.max_raw.keras.d{max(_KD)}:low": 0.5},
)
def _unscaled_keras(v: Mapping[str, float]) -> bool:
    grows = all(
        _extremes(v, f"init.max_raw.keras.d{a}")[1] < _extremes(v, f"init.max_raw.keras.d{b}")[0]
        for a, b in pairwise(_KD)
    )
    return (
        grows
        and _extremes(v, f"init.max_raw.keras.d{max(_KD)}")[0] > 0.8
        and all(_within(v, f"init.std_raw.keras.d{k}", math.sqrt(k), 0.10) for k in _KD)
    )


@claim(
    "init.sqrt_holds_spread_at_the_tie",
    statement="with d_model = h·key_dim (Keras ≥ 3.15, PyTorch, the note), the ÷√d_k std stays "
    "within 5% of √Var(q_m)·√Var(k_m) = σ² at every d_k and seed: 1, 1/2 and 3",
    counterexample={f"init.std_sqrt.torch.d{max(_KD)}:high": 0.7},
)
def _sqrt_holds(v: Mapping[str, float]) -> bool:
    targets = {"keras": 1.0, "torch": 0.5, "note": 3.0}
    return all(
        _within(v, f"init.std_sqrt.{s}.d{k}", t, 0.05) for s, t in targets.items() for k in _KD
    )


@claim(
    "init.keras_spread_depends_on_key_dim",
    statement="Keras ≥ 3.15 at a fixed d_model = 512 and h = 8: the ÷√key_dim std falls as "
    "key_dim grows (16, 64, 256) on every seed, from above 1.5 to below 0.5; Keras ≤ 3.14's "
    "Var(q_m) falls with key_dim at every d_k measured",
    counterexample={f"init.std_sqrt.keras.dm{_DM}.k{_LARGE}:high": 1.2},
)
def _depends_on_key_dim(v: Mapping[str, float]) -> bool:
    small = _extremes(v, f"init.std_sqrt.keras.dm{_DM}.k{_SMALL}")
    middle = _extremes(v, "init.std_sqrt.keras.d64")  # d_model = 512 = 8·64
    large = _extremes(v, f"init.std_sqrt.keras.dm{_DM}.k{_LARGE}")
    old = [_extremes(v, f"init.var_q.{_TINY}.d{k}") for k in _KD]
    return (
        small[0] > 1.5 > middle[1]
        and middle[0] > large[1]
        and large[1] < 0.5
        and all(a[0] > b[1] for a, b in pairwise(old))
    )


@claim(
    "init.figure",
    statement="the figure: the raw std grows with d_k for the note, Keras ≥ 3.15 and PyTorch, "
    "and their ÷√d_k std is flat, within 5% of 3, 1 and 1/2 on every seed; Keras ≤ 3.14's "
    "÷√d_k std falls (at the largest d_k under half that at the smallest)",
    counterexample={f"init.std_sqrt.keras314.d{max(_KD)}:high": 0.09},
)
def _figure(v: Mapping[str, float]) -> bool:
    from attention_explained.initialisation import SCHEMES

    raw_grows = all(
        hi(v, f"init.std_raw.{s}.d{a}") < lo(v, f"init.std_raw.{s}.d{b}")
        for s in SCHEMES
        for a, b in pairwise(_KD)
        if s != _TINY
    )
    # the caption's levels: σ_q σ_k = 3 (uniform[−3, 3]), 1 (Keras ≥ 3.15), 1/2 (PyTorch)
    flat = all(
        level * 0.95 < lo(v, f"init.std_sqrt.{s}.d{k}")
        and hi(v, f"init.std_sqrt.{s}.d{k}") < level * 1.05
        for s, level in (("note", 3.0), ("keras", 1.0), ("torch", 0.5))
        for k in _KD
    )
    tiny = hi(v, f"init.std_sqrt.{_TINY}.d{max(_KD)}") < 0.5 * lo(
        v, f"init.std_sqrt.{_TINY}.d{min(_KD)}"
    )
    return raw_grows and flat and tiny
