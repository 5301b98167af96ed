"""The gradients page: its claims read the shared sweep (``content/shared.py``)."""

from __future__ import annotations

import itertools
import math
from collections.abc import Mapping

import numpy as np

from attention_explained.content.figures import scaled_gradient_flat
from attention_explained.content.registry import Number, claim, hi, lo, numbers
from attention_explained.content.shared import close
from attention_explained.settings import LENGTH, SATURATED_SLOPE, SCALES
from attention_explained.settings import PROSE_DIMS as WIDTHS


@claim(
    "gradients.unscaled_jacobian_under_a_third",
    statement="unscaled at d = 1024 the mean ‖J‖_F is less than a third of its value after ÷√d "
    "on every seed and on the printed ranges (three times the largest unscaled seed's is below "
    "the smallest ÷√d seed's; a fifth fails on the rerun's fresh seeds)",
    counterexample={"sweep.jacobian_fro.d1024.none:high": 0.1},
)
def _jacobian_under_a_third(v: Mapping[str, float]) -> bool:
    return 3 * hi(v, "sweep.jacobian_fro.d1024.none") < lo(v, "sweep.jacobian_fro.d1024.sqrt")


@claim(
    "gradients.sharper_sqrt_larger_jacobian",
    statement="÷√d (sharper) has a larger mean ‖J‖_F than ÷(3√d) at d = 10 and d = 1024",
    counterexample={"sweep.jacobian_fro.d10.unit": 0.4},
)
def _sharper_larger(v: Mapping[str, float]) -> bool:
    return all(
        lo(v, f"sweep.jacobian_fro.d{d}.sqrt") > hi(v, f"sweep.jacobian_fro.d{d}.unit")
        for d in WIDTHS
    )


@claim(
    "gradients.unscaled_collapses_scaled_flat",
    statement="unscaled, ‖J‖_F and ‖∂L/∂z‖ fall more than fivefold from d = 10 to d = 1024; "
    "after ÷√d or ÷(3√d) both stay within 30% over the whole plotted range (d = 1 to 4096)",
    counterexample={"figures.sweep_spread.jacobian_fro.unit.all": 0.5},
    median_because="its sentence is the figure's caption, about the plotted curves: the means "
    "over the seeds at each d_k",
)
def _collapse_flat(v: Mapping[str, float]) -> bool:
    for metric in ("jacobian_fro", "grad_norm"):
        if not v[f"sweep.{metric}.d1024.none"] * 5 < v[f"sweep.{metric}.d10.none"]:
            return False
    return scaled_gradient_flat(v)


# -- the two-logit bridge: how many logit gaps fall where the slope is flat ------------------

FLAT_DIM = 1024  # the saturation page's large d_k


def flat_gap(slope: float = SATURATED_SLOPE) -> float:
    """The |z| beyond which the two-logit softmax's slope p(1 − p) is below ``slope``."""
    p = (1 + math.sqrt(1 - 4 * slope)) / 2  # the larger root of p(1 − p) = slope
    return math.log(p / (1 - p))


@numbers
def flat_share_numbers(out: dict[str, str]) -> None:
    """The shaded region's edge, and the share (%) of gaps between two logits beyond it at
    d = 1024, unscaled and ÷√d. A logit there is a sum of 1024 independent products, so the
    gap of two independent logits is taken as normal with √2 times their std (the variance
    law's std); tests/test_content_gradients.py checks the shares on sampled logits."""
    from attention_explained.stats import logit_variance

    gap = flat_gap()
    out["gradients.flat_gap"] = Number(gap, ".1f")
    sigma = math.sqrt(logit_variance(FLAT_DIM))
    for name, divisor in (("none", 1.0), ("sqrt", math.sqrt(FLAT_DIM))):
        spread = math.sqrt(2) * sigma / divisor
        beyond = math.erfc(gap / (spread * math.sqrt(2)))  # P(|N(0, spread²)| > gap)
        out[f"gradients.flat_share.{name}"] = Number(100 * beyond, ".0f")


@claim(
    "gradients.gaps_flat_unscaled_sloped_scaled",
    statement="at d = 1024, more than 90% of the gaps between two logits lie in the flat region "
    "(p(1 − p) < 0.01) unscaled, and fewer than a third after ÷√d",
    counterexample={"gradients.flat_share.sqrt": 60.0},
)
def _gaps(v: Mapping[str, float]) -> bool:
    return v["gradients.flat_share.none"] > 90 and v["gradients.flat_share.sqrt"] < 100 / 3


# -- exercises -------------------------------------------------------------------------------


@numbers
def _exercise_numbers(out: dict[str, str]) -> None:
    """Exercise 1 (p(1 − p) at a gap of 96), 2 (the uniform row's J), 3 (the explorer, d = 64)."""
    from attention_explained import explorer, softmax_jacobian
    from attention_explained.stats import logit_variance

    gap = math.sqrt(logit_variance(1024))  # 3√1024 = 96: the unscaled logits' std
    p = 1 / (1 + math.exp(-gap))
    out["gradients.exercise.slope_at_gap"] = Number(math.exp(-gap) * p * p, ".1e")  # p(1 − p)
    out["gradients.exercise.exp_minus_gap"] = Number(math.exp(-gap), ".1e")
    uniform = np.full((1, LENGTH), 1 / LENGTH)
    eig = np.linalg.eigvalsh(softmax_jacobian(uniform).numpy()[0].astype(np.float64))
    out["gradients.exercise.trace_uniform"] = Number(eig.sum(), ".3f")
    out["gradients.exercise.top_eig_uniform"] = Number(eig.max(), ".3f")
    for scale in SCALES:
        stats = explorer.statistics(0, 64, LENGTH, scale)  # the explorer's seed 0, n = 30
        out[f"gradients.exercise.explorer.jacobian_fro.d64.{scale}"] = Number(
            stats["jacobian_fro"], ".3f"
        )


@claim(
    "gradients.exercise.uniform_jacobian_spectrum",
    statement="the uniform row's Jacobian, computed numerically, has trace 1 − 1/n and largest "
    "eigenvalue 1/n, while (1/2, 1/2, 0, …) has ‖J‖_F = 1/2 > √(n − 1)/n",
    counterexample={"gradients.exercise.top_eig_uniform": 0.5},
)
def _uniform_spectrum(v: Mapping[str, float]) -> bool:
    n = v["n"]
    return (
        abs(v["gradients.exercise.trace_uniform"] - (1 - 1 / n)) < 1e-6
        and abs(v["gradients.exercise.top_eig_uniform"] - 1 / n) < 1e-6
        and v["theory.jacobian_fro_uniform"] < 0.5
    )


@claim(
    "gradients.exercise.slope_at_gap_is_tiny",
    statement="at a logit gap of 96 (the unscaled std at d = 1024) p(1 − p) is below 1e-40 and "
    "within 1% of e^−96",
    counterexample={"gradients.exercise.slope_at_gap": 0.01},
)
def _slope_tiny(v: Mapping[str, float]) -> bool:
    slope = v["gradients.exercise.slope_at_gap"]
    return (
        v["std.theory.d1024"] == 96
        and slope < 1e-40
        and close(slope, v["gradients.exercise.exp_minus_gap"], 0.01)
    )


@claim(
    "gradients.exercise.explorer_sqrt_larger_jacobian",
    statement="in the explorer (seed 0, n = 30, d = 64) ‖J‖_F is larger with ÷√d than with ÷σ²√d, "
    "both are above the uniform row's √(n − 1)/n, and unscaled is below it",
    counterexample={"gradients.exercise.explorer.jacobian_fro.d64.unit": 0.9},
)
def _explorer_jacobian(v: Mapping[str, float]) -> bool:
    sqrt, unit = (v[f"gradients.exercise.explorer.jacobian_fro.d64.{s}"] for s in ("sqrt", "unit"))
    none = v["gradients.exercise.explorer.jacobian_fro.d64.none"]
    return sqrt > unit > v["theory.jacobian_fro_uniform"] > none


@claim(
    "gradients.training_cost_grows_with_dk",
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
