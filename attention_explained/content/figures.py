"""What the alt texts of figures shown on several pages state about measured results.

Each figure module lists the claims of its alt text in ``ALT_CLAIMS``; the build checks them
wherever a page shows the figure (``sitebuild/_internal/figure_claims.py``). The checks live in the
content layer, so judging them needs neither matplotlib nor a figure's drawing code: here,
or in the page module when only that page shows the figure (``after_training.py``)."""

from __future__ import annotations

from collections.abc import Mapping

from attention_explained.content import data
from attention_explained.content.registry import Number, claim, hi, lo, numbers
from attention_explained.settings import PROSE_SEEDS as SEEDS
from attention_explained.settings import SWEEP_DIMS


@numbers
def _figure_numbers(out: dict[str, str]) -> None:
    """Unquoted helpers for the figures' alt-text claims (each figure module's ``ALT_CLAIMS``).

    The logit-variance figure plots every sweep width; its alt text says the measured points
    sit on the theory line, so the claim reads the worst relative deviation over all of them
    (÷√d divides measurement and theory alike, so one number covers both series).
    """
    measured = data.logit_variances(SWEEP_DIMS, SEEDS)
    worst = 0.0
    for raw, theory in zip(measured["raw"], measured["theory"], strict=True):
        worst = max(worst, abs(raw / float(theory) - 1))
    out["figures.variance_max_rel_dev"] = Number(worst, ".3f")
    # The saturation and gradient figures plot every sweep width: their captions and alt texts
    # speak of the whole curve, so the claims read max/min − 1 over the plotted widths.
    table = data.sweep()
    for scale in ("sqrt", "unit"):
        for metric in ("entropy", "max_weight", "jacobian_fro", "grad_norm"):
            dims, mean, _ = data.sweep_series(table, scale, metric)
            for name, keep in (("all", dims >= 1), ("from16", dims >= 16)):
                spread = mean[keep].max() / mean[keep].min() - 1
                out[f"figures.sweep_spread.{metric}.{scale}.{name}"] = Number(spread, ".3f")
    dims, entropy, _ = data.sweep_series(table, "sqrt", "entropy")
    rise = entropy[dims == dims.min()][0] / entropy[dims >= 16].max() - 1
    out["figures.sweep_small_d_rise.entropy.sqrt"] = Number(rise, ".3f")


_DKS = (16, 128, 1024)


def _flat(v: Mapping[str, float], metric: str, scale: str, within: float = 0.1) -> bool:
    """The sweep value at d = 1024 is within ``within`` (relative) of its value at d = 10."""
    low, high = v[f"sweep.{metric}.d10.{scale}"], v[f"sweep.{metric}.d1024.{scale}"]
    return abs(high - low) <= within * abs(low)


@claim(
    "figures.heatmaps_peaked_unscaled_spread_scaled",
    statement="unscaled at d=1024 the heatmap rows put almost all weight (> 0.95) on one key, "
    "÷√d is less peaked, and ÷(3√d) spreads each row (entropy > 80% of log n)",
    counterexample={"heatmap.max_weight.d1024.none": 0.6},
)
def _heatmaps(v: Mapping[str, float]) -> bool:
    mw = {s: v[f"heatmap.max_weight.d1024.{s}"] for s in ("none", "sqrt", "unit")}
    spread = v["heatmap.entropy.d1024.unit"] > 0.8 * v["theory.log_n"]
    return mw["none"] > 0.95 and mw["none"] > mw["sqrt"] > mw["unit"] and spread


@claim(
    "figures.logit_std_near_theory",
    statement="the theoretical std 3√d (and 3 after ÷√d) lies inside the seed range of the "
    "measured std at d=10 and d=1024, the range each panel prints, and every seed is within "
    "10% of it",
    counterexample={"std.measured.d10": 12.0},
)
def _logit_std(v: Mapping[str, float]) -> bool:
    def inside(d: int) -> bool:
        low, high, theory = (
            lo(v, f"std.measured.d{d}"),
            hi(v, f"std.measured.d{d}"),
            v[f"std.theory.d{d}"],
        )
        return low <= theory <= high and 0.9 * theory < low and high < 1.1 * theory

    return all(inside(d) for d in (10, 1024))


@claim(
    "figures.logit_variance_on_theory",
    statement="at every plotted d the measured logit variance is within 10% of 9d",
    counterexample={"figures.variance_max_rel_dev": 0.4},
)
def _variance_on_theory(v: Mapping[str, float]) -> bool:
    return v["figures.variance_max_rel_dev"] < 0.1


def curve_spread(v: Mapping[str, float], metric: str, scale: str, dims: str) -> float:
    """max/min − 1 of a plotted sweep curve over ``dims`` ("from16" or "all" plotted widths)."""
    return v[f"figures.sweep_spread.{metric}.{scale}.{dims}"]


def scaled_flat_from_16(v: Mapping[str, float]) -> bool:
    """÷√d and ÷(3√d): entropy and max weight within 15% over every plotted d ≥ 16, while
    ÷√d's entropy at the smallest plotted d is more than 15% above all of them."""
    flat = all(
        curve_spread(v, m, s, "from16") < 0.15
        for m in ("entropy", "max_weight")
        for s in ("sqrt", "unit")
    )
    return flat and v["figures.sweep_small_d_rise.entropy.sqrt"] > 0.15


def scaled_gradient_flat(v: Mapping[str, float]) -> bool:
    """‖J‖_F and ‖∂L/∂z‖ after ÷√d and ÷(3√d): max < 1.3 × min over every plotted d."""
    return all(
        curve_spread(v, m, s, "all") < 0.3
        for m in ("jacobian_fro", "grad_norm")
        for s in ("sqrt", "unit")
    )


@claim(
    "figures.saturation_unscaled_saturates_scaled_flat",
    statement="unscaled, row entropy falls towards 0 (< 0.2 on every seed) and the max weight "
    "climbs towards 1 (> 0.9 on every seed) from d=10 to d=1024; with ÷√d and ÷(3√d) both "
    "stay within 15% over every plotted d from 16 to 4096, and ÷√d's entropy is higher at "
    "the smallest d",
    counterexample={"figures.sweep_spread.entropy.sqrt.from16": 0.5},
)
def _saturation(v: Mapping[str, float]) -> bool:
    entropy = lo(v, "sweep.entropy.d10.none") > hi(v, "sweep.entropy.d1024.none")
    weight = hi(v, "sweep.max_weight.d10.none") < lo(v, "sweep.max_weight.d1024.none")
    ends = hi(v, "sweep.entropy.d1024.none") < 0.2 and lo(v, "sweep.max_weight.d1024.none") > 0.9
    return entropy and weight and ends and scaled_flat_from_16(v)


@claim(
    "figures.gradient_unscaled_collapses_scaled_flat",
    statement="unscaled, ‖J‖_F and the logit gradient fall more than 5-fold from d=10 to "
    "d=1024; with ÷√d and ÷(3√d) both stay within 30% over every plotted d (1 to 4096)",
    counterexample={"figures.sweep_spread.grad_norm.sqrt.all": 0.6},
    median_because="the alt text describes the plotted curves, the means over the seeds at "
    "each d_k; the figure draws no per-seed range",
)
def _gradient(v: Mapping[str, float]) -> bool:
    metrics = ("jacobian_fro", "grad_norm")
    collapse = all(v[f"sweep.{m}.d1024.none"] < v[f"sweep.{m}.d10.none"] / 5 for m in metrics)
    return collapse and scaled_gradient_flat(v)


@claim(
    "figures.training_loss_order",
    statement="every run's final loss is below its first; at every d_k QK-norm ends lowest, "
    "÷√d_k next, no scaling highest; the unscaled final loss rises with d_k",
    counterexample={"training.final_loss.d128.none": 0.2},
)
def _training_loss(v: Mapping[str, float]) -> bool:
    names = {
        (d, s): f"training.final_loss.d{d}.{s}" for d in _DKS for s in ("none", "sqrt", "qknorm")
    }
    final = {key: (lo(v, name), hi(v, name)) for key, name in names.items()}
    learn = all(final[d, s][1] < lo(v, f"training.init_loss.d{d}.{s}") for d, s in final)

    def below(a: tuple[float, float], b: tuple[float, float]) -> bool:
        return a[1] < b[0]

    order = all(
        below(final[d, "qknorm"], final[d, "sqrt"]) and below(final[d, "sqrt"], final[d, "none"])
        for d in _DKS
    )
    rises = below(final[16, "none"], final[128, "none"]) and below(
        final[128, "none"], final[1024, "none"]
    )
    return learn and order and rises


@claim(
    "figures.training_entropy_unscaled_low",
    statement="÷√d_k and QK-norm start at about 80% of log n or above (every seed above "
    "75%); unscaled starts lower, lower for larger d_k, and ends below 0.05 nats, on every "
    "seed",
    counterexample={"training.final_entropy.d16.none": 0.5},
)
def _training_entropy(v: Mapping[str, float]) -> bool:
    top = 0.75 * v["training.log_n"]  # "about 80% or above"
    start = {
        (d, s): (lo(v, name), hi(v, name))
        for d in _DKS
        for s in ("none", "sqrt", "qknorm")
        for name in (f"training.init_entropy.d{d}.{s}",)
    }
    high = all(start[d, s][0] > top for d in _DKS for s in ("sqrt", "qknorm"))
    low = all(start[d, "none"][1] < min(start[d, "sqrt"][0], start[d, "qknorm"][0]) for d in _DKS)
    falling = start[16, "none"][0] > start[128, "none"][1] and (
        start[128, "none"][0] > start[1024, "none"][1]
    )
    ends = all(hi(v, f"training.final_entropy.d{d}.none") < 0.05 for d in _DKS)
    return high and low and falling and ends


@claim(
    "figures.training_gradient_unscaled_large_then_vanishes",
    statement="unscaled attention starts with a larger W^Q/W^K gradient than ÷√d_k and QK-norm "
    "at every d_k; at d_k=1024 over 10% of its last steps have a gradient under the quiet "
    "threshold (orders of magnitude below its start), which no ÷√d_k or QK-norm step has; "
    "there ÷√d_k's gradient shrinks a few times (1.5 to 10) and QK-norm's about ten to twenty "
    "times (8 to 30) from start to end",
    counterexample={"training.quiet_steps.d1024.none": 0.0},
)
def _training_gradient(v: Mapping[str, float]) -> bool:
    larger = all(
        lo(v, f"training.init_gradnorm.d{d}.none")
        > max(hi(v, f"training.init_gradnorm.d{d}.{s}") for s in ("sqrt", "qknorm"))
        for d in _DKS
    )
    drops = lo(v, "training.init_gradnorm.d1024.none") > 100 * v["training.quiet_below"]
    quiet = lo(v, "training.quiet_steps.d1024.none") > 10
    others = all(
        hi(v, f"training.quiet_steps.d{d}.{s}") == 0 for d in _DKS for s in ("sqrt", "qknorm")
    )
    sqrt = "training.gradnorm_shrink.d1024.sqrt"
    qknorm = "training.gradnorm_shrink.d1024.qknorm"
    shrink = 1.5 <= lo(v, sqrt) <= hi(v, sqrt) < 10 and 8 <= lo(v, qknorm) <= hi(v, qknorm) < 30
    return larger and drops and quiet and others and shrink
