"""The after-training page: the AdamW learning-rate sweep and the logits' spread."""

from __future__ import annotations

import math
from collections.abc import Mapping
from itertools import pairwise

from attention_explained import settings
from attention_explained.content import data
from attention_explained.content.registry import (
    Number,
    attach_seed_ranges,
    claim,
    hi,
    lo,
    numbers,
    one_seed,
)

AFTER_SPECS = {  # by the second part of the name
    "final_loss": ".2f",
    "best_loss": ".2f",
    "sensitivity": ".2f",
    "max_logit": ".0f",
    "final_entropy": ".3f",
    "std_init": ".2f",
    "std_final": ".2f",
    "max_init": ".1f",
    "max_final": ".1f",
    "cos_init": ".3f",
    "cos_final": ".2f",
    "slope": ".2f",
    "slope_max": ".2f",
    "slope_len": ".2f",
    "len_final": ".1f",
    "grow_std": ".1f",
    "grow_len": ".1f",
    "grow_weight": ".1f",
    "weight_growth": ".1f",
    "logit_growth": ".0f",
    "init_loss": ".2f",
    "log_n": ".2f",
}
# Exercise 1 compares this logit (about 3.5) with a bound of about 4: it needs a decimal.
AFTER_NAME_SPECS = {
    "after.max_logit.d16.qknorm.lr0.001": ".1f",
    # the weights' growth: at the digits the independent rerun's seeds still overlap
    "after.slope_len.sqrt.init": ".1f",
    "after.grow_len.d16.sqrt": ".0f",
    "after.grow_std.d16.sqrt": ".0f",
    "after.grow_std.d1024.sqrt": ".0f",
    "after.weight_growth.d16.sqrt.lr0.3": ".0f",
    "after.weight_growth.d256.sqrt.lr0.3": ".0f",
}


def _after_spec(name: str) -> str:
    """The print format of the after-training number ``name``."""
    return AFTER_NAME_SPECS.get(name, AFTER_SPECS.get(name.split(".")[1], "g"))


@numbers
def _after_numbers(out: dict[str, str]) -> None:
    """After training (docs/after-training.md): the AdamW learning-rate sweep and the spread."""
    from attention_explained import after_training

    result = data.after_training()
    for name, value in after_training.summary(result).items():
        out[name] = value if isinstance(value, str) else Number(value, _after_spec(name))
    # every seed-dependent number prints as its range over the seeds
    axes = {name: -2 for name in after_training.CURVES}  # [d_k, scaling, lr, seed, step]
    for when in ("init", "final"):
        axes |= {f"spread_{p}_{when}": -1 for p in after_training.PROBES}  # [.., seed]
    per_seed = [
        after_training.summary(one_seed(result, j, axes)) for j in range(len(result["seed"]))
    ]
    attach_seed_ranges(
        out,
        [{k: Number(v, _after_spec(k)) for k, v in p.items()} for p in per_seed],
        # the best rate of the median curve, which the claims read; the seed count, which
        # over single-seed summaries would be 1
        keep=(".best_lr.", "after.seeds"),
    )
    out["after.final_window"] = str(settings.AFTER_FINAL)
    out["after.low_lr"] = Number(settings.AFTER_LOW_LR, "g")  # the max-logit figure's low rate


# The sweep's d_k values and learning rates, and the spread's d_k values, come from settings.
_LRS = [f"lr{lr:g}" for lr in settings.AFTER_LEARNING_RATES]
_TOP, _LOW = _LRS[-1], _LRS[0]
_DK_SMALL, _DK_LARGE = min(settings.AFTER_SWEEP_DKS), max(settings.AFTER_SWEEP_DKS)
_SPREAD = [f"d{dk}" for dk in settings.AFTER_SPREAD_DKS]


def _over_best(v: Mapping[str, float], dk: int, scaling: str, lr: str) -> float:
    """A run's final loss at one learning rate, as a multiple of its best final loss: the
    smallest the printed ranges allow (lowest seed's loss over the highest seed's best)."""
    return lo(v, f"after.final_loss.d{dk}.{scaling}.{lr}") / hi(
        v, f"after.best_loss.d{dk}.{scaling}"
    )


def _over_best_at_most(v: Mapping[str, float], dk: int, scaling: str, lr: str) -> float:
    """The largest multiple the printed ranges allow (highest seed's loss over lowest best)."""
    return hi(v, f"after.final_loss.d{dk}.{scaling}.{lr}") / lo(
        v, f"after.best_loss.d{dk}.{scaling}"
    )


@claim(
    "after.sqrt_logits_grow_with_lr",
    statement="the largest ÷√d_k logit over training rises with every step up in learning rate, "
    "by over 10× from the lowest to the highest rate, at every d_k of the sweep",
    counterexample={f"after.max_logit.d{_DK_LARGE}.sqrt.{_TOP}": 1.0},
)
def _sqrt_logits_grow(v: Mapping[str, float]) -> bool:
    for dk in settings.AFTER_SWEEP_DKS:
        top = [
            (lo(v, name), hi(v, name))
            for name in (f"after.max_logit.d{dk}.sqrt.{lr}" for lr in _LRS)
        ]
        if any(b[0] <= a[1] for a, b in pairwise(top)) or top[-1][0] < 10 * top[0][1]:
            return False
    return True


@claim(
    "after.sqrt_max_logit_in_thousands",
    statement=f"at d_k = {_DK_LARGE} and the highest rate the largest ÷√d_k logit is in the "
    "thousands (1000 to 9999)",
    counterexample={f"after.max_logit.d{_DK_LARGE}.sqrt.{_TOP}": 500.0},
)
def _sqrt_max_logit_thousands(v: Mapping[str, float]) -> bool:
    name = f"after.max_logit.d{_DK_LARGE}.sqrt.{_TOP}"
    return 1000 <= lo(v, name) <= hi(v, name) < 10000


@claim(
    "after.sqrt_entropy_collapses_at_high_lr",
    statement="at the highest learning rate the final ÷√d_k attention entropy is below "
    "0.05 nats at every d_k of the sweep (log n ≈ 2.77 is the uniform maximum)",
    counterexample={f"after.final_entropy.d{_DK_SMALL}.sqrt.{_TOP}": 0.5},
)
def _sqrt_entropy_collapses(v: Mapping[str, float]) -> bool:
    return all(
        hi(v, f"after.final_entropy.d{dk}.sqrt.{_TOP}") < 0.05 for dk in settings.AFTER_SWEEP_DKS
    )


@claim(
    "after.sqrt_fails_at_high_lr",
    statement="at the highest learning rate the ÷√d_k final loss is more than 5× its best "
    "final loss, at every d_k of the sweep",
    counterexample={f"after.final_loss.d{_DK_LARGE}.sqrt.{_TOP}": 0.3},
)
def _sqrt_fails_high(v: Mapping[str, float]) -> bool:
    return all(_over_best(v, dk, "sqrt", _TOP) > 5 for dk in settings.AFTER_SWEEP_DKS)


@claim(
    "after.qknorm_logits_bounded",
    statement="with QK-norm the largest logit at the highest learning rate stays under 1/10 "
    "of the ÷√d_k one, and under 50, at every d_k of the sweep",
    counterexample={f"after.max_logit.d{_DK_SMALL}.qknorm.{_TOP}": 500.0},
)
def _qknorm_bounded(v: Mapping[str, float]) -> bool:
    return all(
        hi(v, f"after.max_logit.d{dk}.qknorm.{_TOP}")
        < min(50.0, lo(v, f"after.max_logit.d{dk}.sqrt.{_TOP}") / 10)
        for dk in settings.AFTER_SWEEP_DKS
    )


@claim(
    "after.qknorm_least_sensitive",
    statement="QK-norm has the lowest LR sensitivity (Wortsman et al.'s measure) of the three "
    "scalings at every d_k of the sweep",
    counterexample={f"after.sensitivity.d{_DK_LARGE}.qknorm": 5.0},
)
def _qknorm_least_sensitive(v: Mapping[str, float]) -> bool:
    return all(
        hi(v, f"after.sensitivity.d{dk}.qknorm")
        < min(lo(v, f"after.sensitivity.d{dk}.{s}") for s in ("none", "sqrt"))
        for dk in settings.AFTER_SWEEP_DKS
    )


@claim(
    "after.qknorm_best_at_high_lr",
    statement="at the highest learning rate QK-norm's final loss is within 1.5× of its best",
    counterexample={f"after.final_loss.d{_DK_SMALL}.qknorm.{_TOP}": 3.0},
)
def _qknorm_high_ok(v: Mapping[str, float]) -> bool:
    return all(_over_best_at_most(v, dk, "qknorm", _TOP) < 1.5 for dk in settings.AFTER_SWEEP_DKS)


@claim(
    "after.qknorm_gap_larger_at_large_dk",
    statement="QK-norm's lead over ÷√d_k in LR sensitivity is larger at the largest d_k of "
    "the sweep than at the smallest, on the printed seed ranges (the least lead they allow at "
    "the largest d_k beats the most they allow at the smallest)",
    counterexample={f"after.sensitivity.d{_DK_LARGE}.qknorm": 0.7},
)
def _qknorm_gap(v: Mapping[str, float]) -> bool:
    def gap(dk: int, at_least: bool) -> float:  # the lead the printed ranges allow
        sqrt, qknorm = f"after.sensitivity.d{dk}.sqrt", f"after.sensitivity.d{dk}.qknorm"
        if at_least:
            return lo(v, sqrt) - hi(v, qknorm)
        return hi(v, sqrt) - lo(v, qknorm)

    return gap(_DK_LARGE, True) > gap(_DK_SMALL, False)


@claim(
    "after.qknorm_best_lr_at_grid_top_small_dk",
    statement="at the smallest d_k of the sweep QK-norm's best learning rate is the highest "
    "one in the grid, so the grid does not show where QK-norm gets worse",
    counterexample={f"after.best_lr.d{_DK_SMALL}.qknorm": 0.01},
)
def _qknorm_best_at_top(v: Mapping[str, float]) -> bool:
    return v[f"after.best_lr.d{_DK_SMALL}.qknorm"] == max(settings.AFTER_LEARNING_RATES)


@claim(
    "after.qknorm_like_sqrt_at_low_lr_small_dk",
    statement="at the smallest d_k, at the two lowest learning rates, QK-norm's and ÷√d_k's "
    "final losses differ by less than 20% on the printed seed ranges (its g starts at √d_k and "
    "moves about η per step)",
    counterexample={f"after.final_loss.d{_DK_SMALL}.qknorm.{_LOW}": 1.0},
)
def _qknorm_like_sqrt_low(v: Mapping[str, float]) -> bool:
    return all(_qknorm_loss_near_sqrt(v, lr) for lr in _LRS[:2])


def _qknorm_loss_near_sqrt(v: Mapping[str, float], lr: str) -> bool:
    """At the smallest d_k and rate ``lr``, QK-norm's and ÷√d_k's final losses differ by less
    than 20% on their printed seed ranges (each end of one against the far end of the other)."""
    qknorm, sqrt = (f"after.final_loss.d{_DK_SMALL}.{s}.{lr}" for s in ("qknorm", "sqrt"))
    return lo(v, qknorm) / hi(v, sqrt) > 0.8 and hi(v, qknorm) / lo(v, sqrt) < 1.2


@claim(
    "after.low_lr_undertrained_small_dk",
    statement="at the smallest d_k and the lowest learning rate every scaling's final loss is "
    "more than 3× its best: the step budget is too short there, so the LR sensitivity also "
    "counts under-training",
    counterexample={f"after.final_loss.d{_DK_SMALL}.qknorm.{_LOW}": 0.2},
)
def _low_lr_undertrained(v: Mapping[str, float]) -> bool:
    return all(_over_best(v, _DK_SMALL, s, _LOW) > 3 for s in settings.AFTER_SWEEP_SCALINGS)


@claim(
    "after.low_entropy_in_good_runs",
    statement="entropy is low in good runs too: at the largest d_k, QK-norm's final entropy at "
    "the highest rate is below 0.1 nats, and at the figure's low rate every scaling ends below "
    "0.2 nats",
    counterexample={f"after.final_entropy.d{_DK_LARGE}.qknorm.{_TOP}": 1.0},
)
def _low_entropy_good(v: Mapping[str, float]) -> bool:
    low = f"lr{settings.AFTER_LOW_LR:g}"
    return hi(v, f"after.final_entropy.d{_DK_LARGE}.qknorm.{_TOP}") < 0.1 and all(
        hi(v, f"after.final_entropy.d{_DK_LARGE}.{s}.{low}") < 0.2
        for s in settings.AFTER_SWEEP_SCALINGS
    )


FAILED_OVER_BEST = 3  # "failed": above the best rate, a final loss over 3× the best one
FAILED_LOGIT = 100  # "a largest logit of 100 or more"


def _failed_runs(v: Mapping[str, float], surely: bool) -> list[tuple[int, str, str]]:
    """(d_k, scaling, rate) of every run above its best rate with a loss over 3× its best:
    on every seed the printed ranges allow (``surely``), or on any."""
    over = _over_best if surely else _over_best_at_most
    return [
        (dk, s, f"lr{rate:g}")
        for dk in settings.AFTER_SWEEP_DKS
        for s in settings.AFTER_SWEEP_SCALINGS
        for rate in settings.AFTER_LEARNING_RATES
        if rate > v[f"after.best_lr.d{dk}.{s}"] and over(v, dk, s, f"lr{rate:g}") > FAILED_OVER_BEST
    ]


@claim(
    "after.failed_runs_have_huge_logits",
    statement="every run above its best learning rate whose final loss is more than 3× its "
    "best (a failed run; there is at least one at every d_k of the sweep) had a largest "
    "logit of at least 100",
    counterexample={f"after.max_logit.d{_DK_LARGE}.sqrt.{_TOP}": 50.0},
)
def _failed_have_huge_logits(v: Mapping[str, float]) -> bool:
    every_dk = {dk for dk, _, _ in _failed_runs(v, True)} == set(settings.AFTER_SWEEP_DKS)
    return every_dk and all(
        lo(v, f"after.max_logit.d{dk}.{s}.{lr}") >= FAILED_LOGIT
        for dk, s, lr in _failed_runs(v, False)
    )


@claim(
    "after.huge_logits_without_failure_unscaled",
    statement=f"without scaling at d_k = {_DK_LARGE} the largest logit passes 100 even at its "
    "best learning rate, so large logits alone do not mark a failed run",
    counterexample={f"after.max_logit.d{_DK_LARGE}.none.{lr}": 50.0 for lr in _LRS},
)
def _huge_logits_unscaled(v: Mapping[str, float]) -> bool:
    best = v[f"after.best_lr.d{_DK_LARGE}.none"]
    # the grid rate nearest the best one (a margin probe moves ``best`` off the grid)
    near = min(settings.AFTER_LEARNING_RATES, key=lambda r: abs(math.log(r / best)))
    return lo(v, f"after.max_logit.d{_DK_LARGE}.none.lr{near:g}") > FAILED_LOGIT


@claim(
    "after.sqrt_best_lr_lower_at_large_dk",
    statement="÷√d_k's best learning rate is lower at the larger d_k of the sweep, and each "
    "d_k's best rate gives the other d_k a higher final loss than its own best, on the printed "
    "seed ranges",
    counterexample={f"after.best_lr.d{_DK_LARGE}.sqrt": 1.0},
)
def _sqrt_best_lr_shifts(v: Mapping[str, float]) -> bool:
    small, large = (v[f"after.best_lr.d{dk}.sqrt"] for dk in (_DK_SMALL, _DK_LARGE))
    if not large < small:
        return False

    def cost(dk: int, rate: float) -> float:  # the loss at the grid rate nearest ``rate``
        near = min(settings.AFTER_LEARNING_RATES, key=lambda r: abs(math.log(r / rate)))
        return _over_best(v, dk, "sqrt", f"lr{near:g}")

    return cost(_DK_LARGE, small) > 1 and cost(_DK_SMALL, large) > 1


@claim(
    "after.sqrt_logits_larger_at_large_dk",
    statement="at every learning rate of the sweep the largest ÷√d_k logit during training is "
    "larger at the larger d_k than at the smaller one",
    counterexample={f"after.max_logit.d{_DK_LARGE}.sqrt.{_LOW}": 1.0},
)
def _sqrt_logits_larger(v: Mapping[str, float]) -> bool:
    return all(
        lo(v, f"after.max_logit.d{_DK_LARGE}.sqrt.{lr}")
        > hi(v, f"after.max_logit.d{_DK_SMALL}.sqrt.{lr}")
        for lr in _LRS
    )


@claim(
    "after.spread_flat_at_init",
    statement="at initialisation the ÷√d_k logit std has a log-log slope against d_k within "
    "±0.1 of 0, and the ÷d_k one within ±0.1 of −0.5",
    counterexample={"after.slope.sqrt.init": 0.3},
)
def _flat_at_init(v: Mapping[str, float]) -> bool:
    return all(
        abs(x) < 0.1 for x in (lo(v, "after.slope.sqrt.init"), hi(v, "after.slope.sqrt.init"))
    ) and all(
        abs(x + 0.5) < 0.1 for x in (lo(v, "after.slope.mup.init"), hi(v, "after.slope.mup.init"))
    )


@claim(
    "after.sqrt_spread_grows_after_training",
    statement="after training with ÷√d_k the logit std grows with d_k (slope > 0.1) but more "
    "slowly than √d_k (slope < 0.4)",
    counterexample={"after.slope.sqrt.final": 0.02},
)
def _sqrt_spread_grows(v: Mapping[str, float]) -> bool:
    return 0.1 < lo(v, "after.slope.sqrt.final") <= hi(v, "after.slope.sqrt.final") < 0.4


@claim(
    "after.mup_spread_flat_after_training",
    statement="after training with ÷d_k the logit std is flat in d_k (|slope| < 0.1), so q·k "
    "itself grows like d_k; consistent with the same share of aligned terms at every width: "
    "its matched cosine is above 0.5 at every d_k and varies by less than 0.05 across them",
    counterexample={f"after.cos_final.{_SPREAD[0]}.mup": 0.6},
)
def _mup_flat(v: Mapping[str, float]) -> bool:
    low = [lo(v, f"after.cos_final.{d}.mup") for d in _SPREAD]
    high = [hi(v, f"after.cos_final.{d}.mup") for d in _SPREAD]
    slope = (lo(v, "after.slope.mup.final"), hi(v, "after.slope.mup.final"))
    return all(abs(x) < 0.1 for x in slope) and min(low) > 0.5 and max(high) - min(low) < 0.05


@claim(
    "after.max_follows_spread",
    statement="the largest logit follows the std: after training its log-log slope against d_k "
    "is above 0.1 with ÷√d_k and within ±0.1 of 0 with ÷d_k",
    counterexample={"after.slope_max.sqrt.final": 0.0},
)
def _max_follows(v: Mapping[str, float]) -> bool:
    mup = (lo(v, "after.slope_max.mup.final"), hi(v, "after.slope_max.mup.final"))
    return lo(v, "after.slope_max.sqrt.final") > 0.1 and all(abs(x) < 0.1 for x in mup)


@claim(
    "after.training_aligns_q_and_k",
    statement="matched query–key cosines start near 0 and end above 0.5 for both scalings at "
    "every d_k, on every seed: every initial |cos| is under a quarter of every final cos",
    counterexample={f"after.cos_final.{_SPREAD[-1]}.sqrt": 0.2},
)
def _aligned(v: Mapping[str, float]) -> bool:
    return all(
        max(abs(lo(v, f"after.cos_init.{d}.{s}")), abs(hi(v, f"after.cos_init.{d}.{s}")))
        < lo(v, f"after.cos_final.{d}.{s}") / 4
        and lo(v, f"after.cos_final.{d}.{s}") > 0.5
        for d in _SPREAD
        for s in ("sqrt", "mup")
    )


@claim(
    "after.sqrt_alignment_falls_with_dk",
    statement="with ÷√d_k the final matched cosine falls as d_k grows; with ÷d_k it varies "
    "by less than 0.05 across d_k",
    counterexample={f"after.cos_final.{_SPREAD[-1]}.mup": 0.5},
)
def _alignment_trend(v: Mapping[str, float]) -> bool:
    sqrt = [
        (lo(v, f"after.cos_final.{d}.sqrt"), hi(v, f"after.cos_final.{d}.sqrt")) for d in _SPREAD
    ]
    mup_low = [lo(v, f"after.cos_final.{d}.mup") for d in _SPREAD]
    mup_high = [hi(v, f"after.cos_final.{d}.mup") for d in _SPREAD]
    falls = all(b[1] < a[0] for a, b in pairwise(sqrt))
    return falls and max(mup_high) - min(mup_low) < 0.05


# The after-training figures' alt texts (figures/after_*.py, shown on this page only): the
# sweep at its smallest and largest d_k, the largest-logit figure at its largest d_k at the
# low rate (settings.AFTER_LOW_LR) and the highest.
_FIGURE_LOW = f"lr{settings.AFTER_LOW_LR:g}"


@claim(
    "figures.after_lr_sensitivity_curves",
    statement="at every d_k of the sweep, ÷√d_k and no scaling have their best learning rate "
    "inside the grid and a final loss over 3× their best at the highest rate (a U); QK-norm "
    "is under-trained at the lowest rate (over 1.5× its best), within 1.5× of its best at "
    "the two highest rates, and below both others at the highest",
    counterexample={f"after.final_loss.d{_DK_SMALL}.qknorm.{_LRS[-2]}": 2.0},
)
def _after_lr_sensitivity(v: Mapping[str, float]) -> bool:
    low, high = settings.AFTER_LEARNING_RATES[0], settings.AFTER_LEARNING_RATES[-1]
    for dk in settings.AFTER_SWEEP_DKS:
        for s in ("none", "sqrt"):
            if not low < v[f"after.best_lr.d{dk}.{s}"] < high:
                return False
            if _over_best(v, dk, s, _TOP) <= 3:
                return False
        if _over_best(v, dk, "qknorm", _LOW) <= 1.5:
            return False
        if any(_over_best_at_most(v, dk, "qknorm", lr) >= 1.5 for lr in _LRS[-2:]):
            return False
        top = {s: f"after.final_loss.d{dk}.{s}.{_TOP}" for s in ("none", "sqrt", "qknorm")}
        if hi(v, top["qknorm"]) >= min(lo(v, top["none"]), lo(v, top["sqrt"])):
            return False
    return True


@claim(
    "figures.after_max_logit_runaway",
    statement="at the sweep's largest d_k and the highest learning rate the largest logit of "
    "÷√d_k and of no scaling exceeds 1000 and their final entropy is below 0.05 nats; "
    "QK-norm's largest logit stays below 50 at the low and the highest rate",
    counterexample={f"after.max_logit.d{_DK_LARGE}.qknorm.{_FIGURE_LOW}": 80.0},
)
def _after_max_logit(v: Mapping[str, float]) -> bool:
    dk = _DK_LARGE
    runaway = all(
        lo(v, f"after.max_logit.d{dk}.{s}.{_TOP}") > 1000
        and hi(v, f"after.final_entropy.d{dk}.{s}.{_TOP}") < 0.05
        for s in ("none", "sqrt")
    )
    bounded = all(hi(v, f"after.max_logit.d{dk}.qknorm.{lr}") < 50 for lr in (_FIGURE_LOW, _TOP))
    return runaway and bounded


# -- exercises -------------------------------------------------------------------------------


@numbers
def _exercise_numbers(out: dict[str, str]) -> None:
    """Exercise 1 (how far g moves), 2 (the exponent from two points), 3 (the best-rate ratio)."""
    from attention_explained import after_training

    summary = after_training.summary(data.after_training())
    bound = math.sqrt(16) + summary["after.lr_min"] * summary["after.steps"]
    out["after.exercise.g_bound.d16"] = Number(bound, ".2f")
    # Adam's largest step, in units of η: one large gradient after many tiny ones.
    beta1, beta2 = settings.AFTER_ADAM_BETAS
    out["after.exercise.adam_max_step"] = Number((1 - beta1) / math.sqrt(1 - beta2), ".1f")
    std16, std1024 = (summary[f"after.std_final.d{d}.sqrt"] for d in (16, 1024))
    slope = math.log(std1024 / std16) / math.log(1024 / 16)
    # One digit: the rerun's fresh seeds move the second (0.20 on the build's, 0.21 on its own).
    out["after.exercise.two_point_slope.sqrt"] = Number(slope, ".1f")
    ratio = summary["after.best_lr.d16.sqrt"] / summary["after.best_lr.d256.sqrt"]
    out["after.exercise.best_lr_ratio.sqrt"] = Number(ratio, "g")


@claim(
    "after.exercise.qknorm_under_g_bound",
    statement="at d_k = 16 and the lowest rate, QK-norm's largest logit stays under "
    "√16 + η·steps, the most g can grow at about η per step",
    counterexample={"after.max_logit.d16.qknorm.lr0.001": 6.0},
)
def _under_bound(v: Mapping[str, float]) -> bool:
    bound = v["after.exercise.g_bound.d16"]
    return abs(bound - (4 + v["after.lr_min"] * v["after.steps"])) < 1e-9 and (
        hi(v, "after.max_logit.d16.qknorm.lr0.001") <= bound
    )


@claim(
    "after.exercise.two_point_slope",
    statement="the exponent from the d_k = 16 and 1024 stds of the ÷√d_k model alone lies "
    "between 0 and 0.5, and every seed's least-squares fit over all d_k rounds to it at its "
    "printed digit (one decimal)",
    counterexample={"after.exercise.two_point_slope.sqrt": 0.3},
)
def _two_point(v: Mapping[str, float]) -> bool:
    two = v["after.exercise.two_point_slope.sqrt"]
    fit = (lo(v, "after.slope.sqrt.final"), hi(v, "after.slope.sqrt.final"))
    return 0 < two < 0.5 and all(f"{x:.1f}" == f"{two:.1f}" for x in fit)


_GRID = sorted(settings.AFTER_LEARNING_RATES)
_ONE_STEP = [b / a for a, b in pairwise(_GRID)]  # the ratios of neighbouring rates
_WIDER = [b / a for i, a in enumerate(_GRID) for b in _GRID[i + 2 :]]  # two or more steps


@claim(
    "after.exercise.best_lr_ratio",
    statement="the ÷√d_k best learning rate at d_k = 16 over that at 256 is one grid step, and "
    "one step is the ratio of grid rates nearest the predicted √(256/16) = 4",
    counterexample={"after.exercise.best_lr_ratio.sqrt": 1.0},
)
def _best_lr_ratio(v: Mapping[str, float]) -> bool:
    ratio = v["after.exercise.best_lr_ratio.sqrt"]

    def off(r: float) -> float:
        return abs(math.log(r / 4))

    one_step_nearest = max(map(off, _ONE_STEP)) < min(map(off, _WIDER), default=math.inf)
    return one_step_nearest and any(math.isclose(ratio, r) for r in _ONE_STEP)


@claim(
    "after.exercise.low_rate_larger_sqrt_logits_same_loss",
    statement="at the smallest d_k and the two lowest rates ÷√d_k's largest logit is larger "
    "than QK-norm's on every seed, yet their final losses differ by less than 20% on the "
    "printed seed ranges",
    counterexample={f"after.max_logit.d{_DK_SMALL}.sqrt.{_LOW}": 1.0},
)
def _low_rate_logits_losses(v: Mapping[str, float]) -> bool:
    return all(
        lo(v, f"after.max_logit.d{_DK_SMALL}.sqrt.{lr}")
        > hi(v, f"after.max_logit.d{_DK_SMALL}.qknorm.{lr}")
        and _qknorm_loss_near_sqrt(v, lr)
        for lr in _LRS[:2]
    )


# -- do W_Q and W_K grow? (the hypothesis of the spread section, measured) ---------------------


@claim(
    "after.weights_grow_at_high_lr",
    statement="÷√d_k, on every seed: at the highest rate ‖W_Q‖·‖W_K‖ ends more than 10 times its "
    "start at both d_k and the largest logit grows by more; at the lowest rate the weights' "
    "product changes by under 10% while the largest logit grows by more than that",
    counterexample={f"after.weight_growth.d{_DK_SMALL}.sqrt.{_TOP}:low": 2.0},
)
def _weights_grow(v: Mapping[str, float]) -> bool:
    def ends(name: str) -> tuple[float, float]:
        return lo(v, name), hi(v, name)

    high = all(
        ends(f"after.weight_growth.d{dk}.sqrt.{_TOP}")[0] > 10
        and ends(f"after.logit_growth.d{dk}.sqrt.{_TOP}")[0]
        > ends(f"after.weight_growth.d{dk}.sqrt.{_TOP}")[1]
        for dk in (_DK_SMALL, _DK_LARGE)
    )
    low = all(
        abs(ends(f"after.weight_growth.d{dk}.sqrt.{_LOW}")[1] - 1) < 0.1
        and ends(f"after.logit_growth.d{dk}.sqrt.{_LOW}")[0]
        > ends(f"after.weight_growth.d{dk}.sqrt.{_LOW}")[1]
        for dk in (_DK_SMALL, _DK_LARGE)
    )
    return high and low


@claim(
    "after.lengths_share_falls_with_dk",
    statement="÷√d_k at the spread's rate, on every seed: over training the mean ‖W_Q q‖·‖W_K x‖ "
    "grows less at d_k = 1024 than at 16 (under 1.5 times there) while the logits' std grows "
    "more (over 5 times there)",
    counterexample={f"after.grow_len.d{max(settings.AFTER_SPREAD_DKS)}.sqrt:high": 3.0},
)
def _lengths_share(v: Mapping[str, float]) -> bool:
    small, large = _SPREAD[0], _SPREAD[-1]
    length = [
        (lo(v, f"after.grow_len.{d}.sqrt"), hi(v, f"after.grow_len.{d}.sqrt"))
        for d in (small, large)
    ]
    std = [
        (lo(v, f"after.grow_std.{d}.sqrt"), hi(v, f"after.grow_std.{d}.sqrt"))
        for d in (small, large)
    ]
    return (
        length[1][1] < length[0][0]
        and length[1][1] < 1.5
        and std[1][0] > std[0][1]
        and std[1][0] > 5
    )


@claim(
    "after.lengths_cap_the_exponent",
    statement="after training, the ÷√d_k view of the lengths ‖W_Q q‖·‖W_K x‖ grows with d_k by an "
    "exponent below 0.45 on every seed (about 0.5 before training), and the logits' exponent is "
    "below it on every seed",
    counterexample={"after.slope_len.sqrt.final:high": 0.5},
)
def _lengths_cap(v: Mapping[str, float]) -> bool:
    return (
        hi(v, "after.slope_len.sqrt.final") < 0.45
        and lo(v, "after.slope_len.sqrt.init") > 0.45
        and hi(v, "after.slope_len.sqrt.init") < 0.55
        and hi(v, "after.slope.sqrt.final") < lo(v, "after.slope_len.sqrt.final")
    )
