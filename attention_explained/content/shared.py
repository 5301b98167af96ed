"""Numbers that several pages quote: the sample size, the 8-seed sweep, the logits' spread.

``n``/``seeds`` and ``theory.*`` are on most pages, ``sweep.*`` on index, saturation,
gradients, explorer and beyond, ``std.*``/``variance.*`` on index, scaled-dot-product and
saturation. Also :func:`close`, which several pages' claims use.
"""

from __future__ import annotations

import math

import numpy as np

from attention_explained import runs
from attention_explained.content import data
from attention_explained.content.registry import Number, numbers, per_seed_ranges
from attention_explained.settings import LENGTH, SCALES
from attention_explained.settings import PROSE_DIMS as DIMS
from attention_explained.settings import PROSE_SEEDS as SEEDS


def close(value: float, target: float, rel: float) -> bool:
    """``value`` is within ``rel`` (relative) of ``target``."""
    return abs(value / target - 1) <= rel


@numbers
def _basics(out: dict[str, str]) -> None:
    out["n"] = str(LENGTH)
    out["seeds"] = str(len(SEEDS))
    out["theory.log_n"] = Number(math.log(LENGTH), ".2f")
    out["theory.uniform_weight"] = Number(1 / LENGTH, ".3f")  # a uniform row's weight
    out["theory.jacobian_fro_uniform"] = Number(math.sqrt(LENGTH - 1) / LENGTH, ".3f")


@numbers
def _sweep_numbers(out: dict[str, str]) -> None:
    """The sweep at the prose's widths: means over the seeds, printed as ranges over them
    (claims that hold on every seed read the ends with ``registry.lo`` and ``registry.hi``).
    """
    per_seed_ranges(_sweep_numbers_of, out, runs.current().seeds(SEEDS))


def _sweep_numbers_of(out: dict[str, str], seeds: tuple[int, ...]) -> None:
    from attention_explained import saturation_sweep

    dtype = runs.current().dtype
    table = saturation_sweep(DIMS, length=LENGTH, seeds=seeds, scales=SCALES, dtype=dtype)
    specs = {
        "logit_std": ".2f",
        "entropy": ".2f",
        "max_weight": ".2f",
        "jacobian_fro": ".3f",
        "grad_norm": ".3f",
    }
    for i, (dim, scale) in enumerate(zip(table["dim"], table["scale"], strict=True)):
        for metric, spec in specs.items():
            out[f"sweep.{metric}.d{dim}.{scale}"] = Number(table[f"{metric}_mean"][i], spec)


@numbers
def _variance_numbers(out: dict[str, str]) -> None:
    """The logits' variance pooled over the seeds, printed as ranges over the seeds."""
    per_seed_ranges(_variance_numbers_of, out, SEEDS)


def _variance_numbers_of(out: dict[str, str], seeds: tuple[int, ...]) -> None:
    measured = data.logit_variances(DIMS, seeds)  # the current run shifts the seeds
    for i, dim in enumerate(DIMS):
        out[f"variance.measured.d{dim}"] = Number(measured["raw"][i], ".0f")
        out[f"variance.measured_sqrt.d{dim}"] = Number(measured["scaled"][i], ".2f")
        out[f"std.measured.d{dim}"] = Number(measured["std"][i], ".1f")
        out[f"std.theory.d{dim}"] = Number(math.sqrt(measured["theory"][i]), ".1f")


def note_logits(dim: int, seed: int, minval: float = -3.0, maxval: float = 3.0) -> np.ndarray:
    """The note's unscaled logits A·Bᵀ ([n, n], as float64) for one seed and component range.

    ``seed`` is used as given: experiments pass ``runs.current().seeds(...)``, a seeded
    illustration its fixed seed. The product runs in the current run's dtype.
    """
    from attention_explained import make_dot_product_tensor

    z = make_dot_product_tensor(
        LENGTH, dim, minval=minval, maxval=maxval, seed=seed, dtype=runs.current().dtype
    )
    return z.numpy().astype(np.float64)


def row_softmax(logits: np.ndarray) -> np.ndarray:
    """The softmax of each row, in float64 (for weights that the float32 core rounds to 1)."""
    weights = np.exp(logits - logits.max(axis=-1, keepdims=True))
    return weights / weights.sum(axis=-1, keepdims=True)


def row_means(logits: np.ndarray) -> tuple[float, float]:
    """Mean row max weight and mean row entropy (nats) of softmax(logits)."""
    p = row_softmax(logits)
    entropy = -np.sum(p * np.log(np.maximum(p, 1e-300)), axis=-1)
    return float(p.max(axis=-1).mean()), float(entropy.mean())
