"""Sentences about measured results, as named checks over the numbers the build computed.

A page that says, in words, something the numbers must bear out ("QK-norm has the lowest
loss at every d_k") marks the sentence with ``<!-- claim: <name> -->``. Each name is a
check registered here with :func:`claim`. The build evaluates every check over
:func:`attention_explained.quantities.values` and refuses to build a page that states a
claim its numbers contradict, so a dependency bump makes the site say something true or
stop. Each check also carries a ``counterexample``: numbers that contradict it, which the
tests feed it to prove the check can fail.

Core layer: imports neither matplotlib nor MkDocs.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

Check = Callable[[Mapping[str, float]], bool]


@dataclass(frozen=True)
class Claim:
    name: str
    statement: str  # the claim in plain English, for error messages and the tests
    check: Check
    counterexample: Mapping[str, float]  # values that, laid over the real ones, break it


@dataclass(frozen=True)
class Verdict:
    holds: bool
    statement: str
    numbers: dict[str, float] = field(default_factory=dict)  # what the check read

    def explain(self) -> str:
        read = ", ".join(f"{k} = {v:.6g}" for k, v in sorted(self.numbers.items()))
        return f"{self.statement} (numbers read: {read or 'none'})"


_CLAIMS: dict[str, Claim] = {}


def claim(name: str, *, statement: str, counterexample: Mapping[str, float]):
    """Register ``check(values) -> bool`` as the claim ``name``."""

    def register(check: Check) -> Check:
        if name in _CLAIMS:
            raise ValueError(f"claim {name!r} is registered twice")
        if not counterexample:
            raise ValueError(f"claim {name!r} needs a counterexample that contradicts it")
        _CLAIMS[name] = Claim(name, statement, check, dict(counterexample))
        return check

    return register


def registered() -> dict[str, Claim]:
    return dict(_CLAIMS)


class _Reading(Mapping[str, float]):
    """The values, recording which names a check reads (so errors can show them)."""

    def __init__(self, values: Mapping[str, float]):
        self._values, self.read = values, {}

    def __getitem__(self, name: str) -> float:
        try:
            value = self._values[name]
        except KeyError:
            raise KeyError(f"claim reads an unknown number {name!r}") from None
        self.read[name] = value
        return value

    def __iter__(self) -> Iterator[str]:
        return iter(self._values)

    def __len__(self) -> int:
        return len(self._values)


def evaluate(name: str, values: Mapping[str, float]) -> Verdict:
    """Run one check; a check that reads an unknown number raises ``KeyError``."""
    spec = _CLAIMS[name]
    reading = _Reading(values)
    holds = bool(spec.check(reading))
    return Verdict(holds, spec.statement, dict(reading.read))


def evaluate_all(values: Mapping[str, float]) -> dict[str, dict[str, Any]]:
    """Every registered claim's verdict, as JSON-ready dicts keyed by name."""
    out = {}
    for name in sorted(_CLAIMS):
        verdict = evaluate(name, values)
        out[name] = {
            "holds": verdict.holds,
            "statement": verdict.statement,
            "numbers": verdict.numbers,
        }
    return out


# -- the claims ----------------------------------------------------------------------------
# Grouped by the page that states them. Names: <page>.<what is claimed>.

# training.md


@claim(
    "training.qknorm_lowest_final_loss",
    statement="QK-norm has the lowest final SGD loss at every d_k",
    counterexample={"training.final_loss.d16.qknorm": 9.0},
)
def _qknorm_lowest(v: Mapping[str, float]) -> bool:
    return all(
        v[f"training.final_loss.d{dk}.qknorm"]
        < min(v[f"training.final_loss.d{dk}.{other}"] for other in ("none", "sqrt"))
        for dk in (16, 128, 1024)
    )


# figures: the measured results that figure alt texts state (ALT_CLAIMS in figures/strings.py).
# The build checks them wherever a page shows the figure.

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
    statement="the measured std of the logits is within 3% of 3√d at d=10 and d=1024 "
    "(and so within 3% of 3 after ÷√d)",
    counterexample={"std.measured.d10": 12.0},
)
def _logit_std(v: Mapping[str, float]) -> bool:
    return all(abs(v[f"std.measured.d{d}"] / v[f"std.theory.d{d}"] - 1) < 0.03 for d in (10, 1024))


@claim(
    "figures.logit_variance_on_theory",
    statement="at every plotted d the measured logit variance is within 10% of 9d",
    counterexample={"figures.variance_max_rel_dev": 0.4},
)
def _variance_on_theory(v: Mapping[str, float]) -> bool:
    return v["figures.variance_max_rel_dev"] < 0.1


@claim(
    "figures.saturation_unscaled_saturates_scaled_flat",
    statement="unscaled, row entropy falls towards 0 (< 0.1) and the max weight climbs towards 1 "
    "(> 0.95) from d=10 to d=1024; with ÷√d and ÷(3√d) both change by under 10%",
    counterexample={"sweep.entropy.d1024.sqrt": 0.5},
)
def _saturation(v: Mapping[str, float]) -> bool:
    entropy = v["sweep.entropy.d10.none"] > v["sweep.entropy.d1024.none"]
    weight = v["sweep.max_weight.d10.none"] < v["sweep.max_weight.d1024.none"]
    ends = v["sweep.entropy.d1024.none"] < 0.1 and v["sweep.max_weight.d1024.none"] > 0.95
    flat = all(_flat(v, m, s) for m in ("entropy", "max_weight") for s in ("sqrt", "unit"))
    return entropy and weight and ends and flat


@claim(
    "figures.gradient_unscaled_collapses_scaled_flat",
    statement="unscaled, ‖J‖_F and the logit gradient fall more than 5-fold from d=10 to "
    "d=1024; with ÷√d and ÷(3√d) both change by under 10%",
    counterexample={"sweep.grad_norm.d1024.none": 0.15},
)
def _gradient(v: Mapping[str, float]) -> bool:
    metrics = ("jacobian_fro", "grad_norm")
    collapse = all(v[f"sweep.{m}.d1024.none"] < v[f"sweep.{m}.d10.none"] / 5 for m in metrics)
    return collapse and all(_flat(v, m, s) for m in metrics for s in ("sqrt", "unit"))


@claim(
    "figures.training_loss_order",
    statement="every run's final loss is below its first; at every d_k QK-norm ends lowest, "
    "÷√d_k next, no scaling highest; the unscaled final loss rises with d_k",
    counterexample={"training.final_loss.d128.none": 0.2},
)
def _training_loss(v: Mapping[str, float]) -> bool:
    final = {
        (d, s): v[f"training.final_loss.d{d}.{s}"] for d in _DKS for s in ("none", "sqrt", "qknorm")
    }
    learn = all(final[d, s] < v[f"training.init_loss.d{d}.{s}"] for d, s in final)
    order = all(final[d, "qknorm"] < final[d, "sqrt"] < final[d, "none"] for d in _DKS)
    rises = final[16, "none"] < final[128, "none"] < final[1024, "none"]
    return learn and order and rises


@claim(
    "figures.training_entropy_unscaled_low",
    statement="÷√d_k and QK-norm start above 80% of log n; unscaled starts lower, lower for "
    "larger d_k, and ends below 0.05 nats",
    counterexample={"training.final_entropy.d16.none": 0.5},
)
def _training_entropy(v: Mapping[str, float]) -> bool:
    top = 0.8 * v["training.log_n"]
    start = {
        (d, s): v[f"training.init_entropy.d{d}.{s}"]
        for d in _DKS
        for s in ("none", "sqrt", "qknorm")
    }
    high = all(start[d, s] > top for d in _DKS for s in ("sqrt", "qknorm"))
    low = all(start[d, "none"] < min(start[d, "sqrt"], start[d, "qknorm"]) for d in _DKS)
    falling = start[16, "none"] > start[128, "none"] > start[1024, "none"]
    ends = all(v[f"training.final_entropy.d{d}.none"] < 0.05 for d in _DKS)
    return high and low and falling and ends


@claim(
    "figures.training_gradient_unscaled_large_then_vanishes",
    statement="unscaled attention starts with a larger W^Q/W^K gradient than ÷√d_k and QK-norm "
    "at every d_k; at d_k=1024 over 10% of its last steps have a gradient under the quiet "
    "threshold (orders of magnitude below its start), which no ÷√d_k or QK-norm step has",
    counterexample={"training.quiet_steps.d1024.none": 0.0},
)
def _training_gradient(v: Mapping[str, float]) -> bool:
    larger = all(
        v[f"training.init_gradnorm.d{d}.none"]
        > max(v[f"training.init_gradnorm.d{d}.{s}"] for s in ("sqrt", "qknorm"))
        for d in _DKS
    )
    drops = v["training.init_gradnorm.d1024.none"] > 100 * v["training.quiet_below"]
    quiet = v["training.quiet_steps.d1024.none"] > 10
    others = all(v[f"training.quiet_steps.d{d}.{s}"] == 0 for d in _DKS for s in ("sqrt", "qknorm"))
    return larger and drops and quiet and others


def _training(v: Mapping[str, float], metric: str, dk: int, scaling: str, opt: str = "") -> float:
    return v[f"training.{opt + '.' if opt else ''}{metric}.d{dk}.{scaling}"]


@claim(
    "training.unscaled_init_entropy_falls_with_dk",
    statement="without scaling, the step-0 attention entropy is lower at larger d_k, and at "
    "d_k = 1024 it is below 5% of log n (weight on a single item)",
    counterexample={"training.init_entropy.d1024.none": 0.9},
)
def _unscaled_init_entropy(v: Mapping[str, float]) -> bool:
    e = [_training(v, "init_entropy", dk, "none") for dk in (16, 128, 1024)]
    return e[0] > e[1] > e[2] and e[2] < 0.05 * v["training.log_n"]


@claim(
    "training.entropy_figure",
    statement="at every d_k, unscaled attention starts with a lower entropy than ÷√d_k and "
    "QK-norm and ends below 0.05 nats; ÷√d_k and QK-norm start above 80% of log n",
    counterexample={"training.final_entropy.d128.none": 0.5},
)
def _entropy_figure(v: Mapping[str, float]) -> bool:
    log_n = v["training.log_n"]
    return all(
        _training(v, "init_entropy", dk, "none")
        < min(_training(v, "init_entropy", dk, s) for s in ("sqrt", "qknorm"))
        and _training(v, "final_entropy", dk, "none") < 0.05
        and min(_training(v, "init_entropy", dk, s) for s in ("sqrt", "qknorm")) > 0.8 * log_n
        for dk in (16, 128, 1024)
    )


@claim(
    "training.unscaled_starves_examples_at_start",
    statement="at step 0 and d_k = 1024, far more examples send no gradient without scaling "
    "than with ÷√d_k (at least a quarter of them, against under 1%)",
    counterexample={"training.init_starved.d1024.none": 0.5},
)
def _starved_at_start(v: Mapping[str, float]) -> bool:
    return (
        _training(v, "init_starved", 1024, "none")
        > 25
        > 1
        > _training(v, "init_starved", 1024, "sqrt")
    )


@claim(
    "training.unscaled_larger_w_gradient",
    statement="at step 0 and d_k = 1024 the gradient reaching W^Q, W^K is larger without "
    "scaling than with ÷√d_k (the quoted ratio is above 1)",
    counterexample={"training.init_gradnorm_ratio.d1024": 0.8},
)
def _larger_w_gradient(v: Mapping[str, float]) -> bool:
    return v["training.init_gradnorm_ratio.d1024"] > 1 and _training(
        v, "init_gradnorm", 1024, "none"
    ) > _training(v, "init_gradnorm", 1024, "sqrt")


@claim(
    "training.gradient_figure",
    statement="the unscaled W-gradient starts largest at every d_k, and at d_k = 1024 it ends "
    "more than 100 times below its start, while ÷√d_k's shrinks less than 10 times",
    counterexample={"training.gradnorm_shrink.d1024.none": 20.0},
)
def _gradient_figure(v: Mapping[str, float]) -> bool:
    largest = all(
        _training(v, "init_gradnorm", dk, "none")
        > max(_training(v, "init_gradnorm", dk, s) for s in ("sqrt", "qknorm"))
        for dk in (16, 128, 1024)
    )
    return (
        largest
        and _training(v, "gradnorm_shrink", 1024, "none") > 100
        and _training(v, "gradnorm_shrink", 1024, "sqrt") < 10
    )


@claim(
    "training.starvation_grows_in_training",
    statement="unscaled at d_k = 1024, more examples send no gradient at the end than at the "
    "start, and more of the last steps are quiet than with ÷√d_k or QK-norm",
    counterexample={"training.quiet_steps.d1024.none": 0.0},
)
def _starvation_grows(v: Mapping[str, float]) -> bool:
    return _training(v, "final_starved", 1024, "none") > _training(
        v, "init_starved", 1024, "none"
    ) and _training(v, "quiet_steps", 1024, "none") > max(
        _training(v, "quiet_steps", 1024, s) for s in ("sqrt", "qknorm")
    )


@claim(
    "training.small_dk_unscaled_learns",
    statement="at d_k = 16 unscaled attention still learns: accuracy above 90% and within 5 "
    "points of ÷√d_k, with under 1% of examples starved at step 0",
    counterexample={"training.final_acc.d16.none": 60.0},
)
def _small_dk_learns(v: Mapping[str, float]) -> bool:
    acc = _training(v, "final_acc", 16, "none")
    return (
        acc > 90
        and _training(v, "final_acc", 16, "sqrt") - acc < 5
        and _training(v, "init_starved", 16, "none") < 1
    )


@claim(
    "training.large_dk_unscaled_behind",
    statement="at d_k = 1024 unscaled attention is clearly behind ÷√d_k: its final loss is "
    "more than twice as high, its accuracy lower, and its smoothed loss goes below the "
    "threshold later",
    counterexample={"training.final_loss.d1024.none": 0.3},
)
def _large_dk_behind(v: Mapping[str, float]) -> bool:
    return (
        _training(v, "final_loss", 1024, "none") > 2 * _training(v, "final_loss", 1024, "sqrt")
        and _training(v, "final_acc", 1024, "none") < _training(v, "final_acc", 1024, "sqrt")
        and _training(v, "first_below", 1024, "none") > _training(v, "first_below", 1024, "sqrt")
    )


@claim(
    "training.unscaled_still_falling",
    statement="unscaled at d_k = 1024 the loss has not levelled off: the mean over the last "
    "100 steps is below the mean over the 100 before, by more than twice ÷√d_k's drop",
    counterexample={"training.tail_drop.d1024.none": -0.01},
)
def _still_falling(v: Mapping[str, float]) -> bool:
    drop = _training(v, "tail_drop", 1024, "none")
    return drop > 0 and drop > 2 * _training(v, "tail_drop", 1024, "sqrt")


@claim(
    "training.loss_figure",
    statement="without scaling the loss goes below the threshold later and ends higher as d_k "
    "grows (16 → 128 → 1024)",
    counterexample={"training.first_below.d128.none": 5.0},
)
def _loss_figure(v: Mapping[str, float]) -> bool:
    first = [_training(v, "first_below", dk, "none") for dk in (16, 128, 1024)]
    final = [_training(v, "final_loss", dk, "none") for dk in (16, 128, 1024)]
    return first[0] < first[1] < first[2] and final[0] < final[1] < final[2]


@claim(
    "training.frozen_errors_are_most_errors",
    statement="unscaled at d_k = 1024, most of the wrong examples are frozen (saturated on the "
    "wrong item): frozen errors are over half of all errors",
    counterexample={"training.final_stuck.d1024.none": 1.0},
)
def _frozen_most(v: Mapping[str, float]) -> bool:
    errors = 100 - _training(v, "final_acc", 1024, "none")
    return _training(v, "final_stuck", 1024, "none") > 0.5 * errors


@claim(
    "training.gap_grows_with_dk",
    statement="the accuracy gap between ÷√d_k and no scaling grows with d_k (16 → 128 → 1024)",
    counterexample={"training.final_acc.d1024.none": 97.0},
)
def _gap_grows(v: Mapping[str, float]) -> bool:
    gap = [
        _training(v, "final_acc", dk, "sqrt") - _training(v, "final_acc", dk, "none")
        for dk in (16, 128, 1024)
    ]
    return gap[0] < gap[1] < gap[2]


@claim(
    "training.adam_does_not_undo_saturation",
    statement="with Adam at d_k = 1024 the unscaled model stays within 3 points of its SGD "
    "accuracy, below ÷√d_k with Adam, and keeps at least half its SGD frozen errors",
    counterexample={"training.adam.final_stuck.d1024.none": 0.0},
)
def _adam_no_rescue(v: Mapping[str, float]) -> bool:
    adam = _training(v, "final_acc", 1024, "none", "adam")
    return (
        abs(adam - _training(v, "final_acc", 1024, "none")) < 3
        and adam < _training(v, "final_acc", 1024, "sqrt", "adam")
        and _training(v, "final_stuck", 1024, "none", "adam")
        >= 0.5 * _training(v, "final_stuck", 1024, "none")
    )


@claim(
    "training.adam_scaled_learn_well",
    statement="with Adam at d_k = 1024, ÷√d_k and QK-norm both reach at least 95% accuracy "
    "with under 1% frozen errors",
    counterexample={"training.adam.final_acc.d1024.sqrt": 80.0},
)
def _adam_scaled_fine(v: Mapping[str, float]) -> bool:
    return all(
        _training(v, "final_acc", 1024, s, "adam") >= 95
        and _training(v, "final_stuck", 1024, s, "adam") < 1
        for s in ("sqrt", "qknorm")
    )


# explorer.md


def _sweep(v: Mapping[str, float], metric: str, dim: int, scale: str) -> float:
    return v[f"sweep.{metric}.d{dim}.{scale}"]


@claim(
    "explorer.unscaled_saturates_as_d_grows",
    statement="without scaling, from d = 10 to d = 1024 the max weight rises to above 0.95, "
    "the entropy falls to below 0.1 nats and ‖J‖_F falls to below 0.05",
    counterexample={"sweep.max_weight.d1024.none": 0.5},
)
def _explorer_unscaled(v: Mapping[str, float]) -> bool:
    return (
        _sweep(v, "max_weight", 1024, "none") > max(0.95, _sweep(v, "max_weight", 10, "none"))
        and _sweep(v, "entropy", 1024, "none") < min(0.1, _sweep(v, "entropy", 10, "none"))
        and _sweep(v, "jacobian_fro", 1024, "none")
        < min(0.05, _sweep(v, "jacobian_fro", 10, "none"))
    )


@claim(
    "explorer.sqrt_hardly_moves_with_d",
    statement="with ÷√d the max weight, entropy and ‖J‖_F change little between d = 10 and "
    "d = 1024 (by < 0.05, < 0.1 nats, < 0.02), and the max weight stays above 0.4 (peaked)",
    counterexample={"sweep.entropy.d1024.sqrt": 0.5},
)
def _explorer_sqrt(v: Mapping[str, float]) -> bool:
    def moves(metric: str) -> float:
        return abs(_sweep(v, metric, 1024, "sqrt") - _sweep(v, metric, 10, "sqrt"))

    return (
        moves("max_weight") < 0.05
        and moves("entropy") < 0.1
        and moves("jacobian_fro") < 0.02
        and min(_sweep(v, "max_weight", d, "sqrt") for d in (10, 1024)) > 0.4
    )


@claim(
    "explorer.unit_spreads_weights",
    statement="with ÷σ²√d, at d = 10 and 1024, the entropy is higher (above 80% of log n) and "
    "the max weight lower than with ÷√d, and ‖J‖_F is a little smaller than with ÷√d "
    "(between 60% and 100% of it) but above its value for uniform weights",
    counterexample={"sweep.jacobian_fro.d1024.unit": 0.4},
)
def _explorer_unit(v: Mapping[str, float]) -> bool:
    return all(
        _sweep(v, "entropy", d, "unit")
        > max(_sweep(v, "entropy", d, "sqrt"), 0.8 * v["theory.log_n"])
        and _sweep(v, "max_weight", d, "unit") < _sweep(v, "max_weight", d, "sqrt")
        and 0.6 * _sweep(v, "jacobian_fro", d, "sqrt")
        < _sweep(v, "jacobian_fro", d, "unit")
        < _sweep(v, "jacobian_fro", d, "sqrt")
        and _sweep(v, "jacobian_fro", d, "unit") > v["theory.jacobian_fro_uniform"]
        for d in (10, 1024)
    )


# beyond.md


@claim(
    "beyond.capping_flattens_the_note_logits",
    statement="soft-capping the note's unscaled d = 1024 logits lowers the mean row max weight "
    "(to below 0.6, from the uncapped value)",
    counterexample={"beyond.capped_max_weight.d1024": 0.99},
)
def _capping_flattens(v: Mapping[str, float]) -> bool:
    capped = v["beyond.capped_max_weight.d1024"]
    return capped < 0.6 and capped < v["sweep.max_weight.d1024.none"]


# multi-head.md


@claim(
    "multi-head.matches_keras",
    statement="with the same weights, our MultiHeadAttention matches keras.layers."
    "MultiHeadAttention to float32 rounding: max |Δ| of outputs and weights ≤ 1e-5",
    counterexample={"keras.max_abs_diff.output": 0.01},
)
def _matches_keras(v: Mapping[str, float]) -> bool:
    return all(0 <= v[f"keras.max_abs_diff.{what}"] <= 1e-5 for what in ("output", "scores"))


# notebooks/heatmaps.md (its cells draw the same seed-0 tensors as the heatmap.* numbers)


def _heatmap_range(v: Mapping[str, float], dim: int, scale: str) -> float:
    return v[f"heatmap.max.d{dim}.{scale}"] - v[f"heatmap.min.d{dim}.{scale}"]


@claim(
    "notebooks.heatmaps.sqrt_ranges_alike",
    statement="after ÷√d the logit ranges at d = 10 and d = 1024 are within 1.5× of each "
    "other, while the raw ranges differ by more than 5×",
    counterexample={"heatmap.max.d1024.sqrt": 40.0},
)
def _nb_ranges(v: Mapping[str, float]) -> bool:
    def ratio(scale: str) -> float:
        a, b = _heatmap_range(v, 10, scale), _heatmap_range(v, 1024, scale)
        return max(a, b) / min(a, b)

    return ratio("sqrt") < 1.5 and ratio("none") > 5


@claim(
    "notebooks.heatmaps.raw_d1024_on_one_key",
    statement="unscaled at d = 1024 the mean max weight is above 0.95 and the entropy below "
    "0.1 nats",
    counterexample={"heatmap.max_weight.d1024.none": 0.7},
)
def _nb_raw_one_key(v: Mapping[str, float]) -> bool:
    return v["heatmap.max_weight.d1024.none"] > 0.95 and v["heatmap.entropy.d1024.none"] < 0.1


@claim(
    "notebooks.heatmaps.sqrt_about_half_on_one_key",
    statement="after ÷√d about half of each row's weight is on one key: mean max weight "
    "between 0.4 and 0.65 at d = 10 and d = 1024",
    counterexample={"heatmap.max_weight.d10.sqrt": 0.9},
)
def _nb_sqrt_half(v: Mapping[str, float]) -> bool:
    return all(0.4 < v[f"heatmap.max_weight.d{d}.sqrt"] < 0.65 for d in (10, 1024))


# notebooks/sweep-and-keras.md (nbsweep.* and nbkeras.* repeat the notebook's own calls)

_NB_DIMS = (4, 64, 1024)


def _nb(v: Mapping[str, float], metric: str, dim: int, scale: str) -> float:
    return v[f"nbsweep.{metric}.d{dim}.{scale}"]


@claim(
    "notebooks.sweep.unscaled_collapses",
    statement="without a divisor, from d = 4 to 64 to 1024 the entropy falls, the max weight "
    "rises, ‖J‖_F and the gradient fall; at d = 1024 they are < 0.1, > 0.95, < 0.05, < 0.05",
    counterexample={"nbsweep.grad_norm.d1024.none": 0.5},
)
def _nb_unscaled(v: Mapping[str, float]) -> bool:
    def series(metric: str) -> list[float]:
        return [_nb(v, metric, d, "none") for d in _NB_DIMS]

    e, m, j, g = (series(k) for k in ("entropy", "max_weight", "jacobian_fro", "grad_norm"))
    return (
        e[0] > e[1] > e[2]
        and m[0] < m[1] < m[2]
        and j[0] > j[1] > j[2]
        and g[0] > g[1] > g[2]
        and e[2] < 0.1
        and j[2] < 0.05
        and g[2] < 0.05
        and m[2] > 0.95
    )


@claim(
    "notebooks.sweep.scaled_rows_flat",
    statement="divided by √d or 3√d, each metric (entropy, max weight, ‖J‖_F, gradient) stays "
    "within 1.25× of its smallest value across d = 4, 64, 1024",
    counterexample={"nbsweep.entropy.d1024.sqrt": 0.2},
)
def _nb_flat(v: Mapping[str, float]) -> bool:
    for scale in ("sqrt", "unit"):
        for metric in ("entropy", "max_weight", "jacobian_fro", "grad_norm"):
            xs = [_nb(v, metric, d, scale) for d in _NB_DIMS]
            if max(xs) >= 1.25 * min(xs):
                return False
    return True


@claim(
    "notebooks.sweep.sqrt_jacobian_above_uniform",
    statement="with ÷√d, ‖J‖_F is above its value for uniform weights, √(n−1)/n, at every d",
    counterexample={"nbsweep.jacobian_fro.d64.sqrt": 0.1},
)
def _nb_jacobian(v: Mapping[str, float]) -> bool:
    return all(
        _nb(v, "jacobian_fro", d, "sqrt") > v["theory.jacobian_fro_uniform"] for d in _NB_DIMS
    )


@claim(
    "notebooks.sweep.key_dim_d_model_times_h_params",
    statement="key_dim = 32 (= d_model) gives about h = 4 times the parameters of key_dim = 8 "
    "(within 10%)",
    counterexample={"nbkeras.params.key_dim32": 8448.0},
)
def _nb_params(v: Mapping[str, float]) -> bool:
    ratio = v["nbkeras.params.key_dim32"] / v["nbkeras.params.key_dim8"]
    return abs(ratio / v["nbkeras.num_heads"] - 1) < 0.1


# after-training.md
# The sweep's d_k values and learning rates, and the spread's d_k values, come from settings.

from itertools import pairwise  # noqa: E402

from attention_explained import settings as _s  # noqa: E402

_LRS = [f"lr{lr:g}" for lr in _s.AFTER_LEARNING_RATES]
_TOP, _LOW = _LRS[-1], _LRS[0]
_DK_SMALL, _DK_LARGE = min(_s.AFTER_SWEEP_DKS), max(_s.AFTER_SWEEP_DKS)


def _over_best(v: Mapping[str, float], dk: int, scaling: str, lr: str) -> float:
    """A run's final loss at one learning rate, as a multiple of its best final loss."""
    return v[f"after.final_loss.d{dk}.{scaling}.{lr}"] / v[f"after.best_loss.d{dk}.{scaling}"]


@claim(
    "after.sqrt_logits_grow_with_lr",
    statement="the largest ÷√d_k logit over training rises with every step up in learning rate, "
    "by over 10× from the lowest to the highest rate, at every d_k of the sweep",
    counterexample={f"after.max_logit.d{_DK_LARGE}.sqrt.{_TOP}": 1.0},
)
def _sqrt_logits_grow(v: Mapping[str, float]) -> bool:
    for dk in _s.AFTER_SWEEP_DKS:
        top = [v[f"after.max_logit.d{dk}.sqrt.{lr}"] for lr in _LRS]
        if any(b <= a for a, b in pairwise(top)) or top[-1] < 10 * top[0]:
            return False
    return True


@claim(
    "after.sqrt_entropy_collapses_at_high_lr",
    statement="at the highest learning rate the final ÷√d_k attention entropy is below "
    "0.05 nats at every d_k of the sweep (log n ≈ 2.77 is the uniform maximum)",
    counterexample={f"after.final_entropy.d{_DK_SMALL}.sqrt.{_TOP}": 0.5},
)
def _sqrt_entropy_collapses(v: Mapping[str, float]) -> bool:
    return all(v[f"after.final_entropy.d{dk}.sqrt.{_TOP}"] < 0.05 for dk in _s.AFTER_SWEEP_DKS)


@claim(
    "after.sqrt_fails_at_high_lr",
    statement="at the highest learning rate the ÷√d_k final loss is more than 5× its best "
    "final loss, at every d_k of the sweep",
    counterexample={f"after.final_loss.d{_DK_LARGE}.sqrt.{_TOP}": 0.3},
)
def _sqrt_fails_high(v: Mapping[str, float]) -> bool:
    return all(_over_best(v, dk, "sqrt", _TOP) > 5 for dk in _s.AFTER_SWEEP_DKS)


@claim(
    "after.qknorm_logits_bounded",
    statement="with QK-norm the largest logit at the highest learning rate stays under 1/10 "
    "of the ÷√d_k one, and under 50, at every d_k of the sweep",
    counterexample={f"after.max_logit.d{_DK_SMALL}.qknorm.{_TOP}": 500.0},
)
def _qknorm_bounded(v: Mapping[str, float]) -> bool:
    return all(
        v[f"after.max_logit.d{dk}.qknorm.{_TOP}"]
        < min(50.0, v[f"after.max_logit.d{dk}.sqrt.{_TOP}"] / 10)
        for dk in _s.AFTER_SWEEP_DKS
    )


@claim(
    "after.qknorm_least_sensitive",
    statement="QK-norm has the lowest LR sensitivity (Wortsman et al.'s measure) of the three "
    "scalings at every d_k of the sweep",
    counterexample={f"after.sensitivity.d{_DK_LARGE}.qknorm": 5.0},
)
def _qknorm_least_sensitive(v: Mapping[str, float]) -> bool:
    return all(
        v[f"after.sensitivity.d{dk}.qknorm"]
        < min(v[f"after.sensitivity.d{dk}.{s}"] for s in ("none", "sqrt"))
        for dk in _s.AFTER_SWEEP_DKS
    )


@claim(
    "after.qknorm_best_at_high_lr",
    statement="at the highest learning rate QK-norm's final loss is within 1.5× of its best",
    counterexample={f"after.final_loss.d{_DK_SMALL}.qknorm.{_TOP}": 3.0},
)
def _qknorm_high_ok(v: Mapping[str, float]) -> bool:
    return all(_over_best(v, dk, "qknorm", _TOP) < 1.5 for dk in _s.AFTER_SWEEP_DKS)


@claim(
    "after.qknorm_gap_larger_at_large_dk",
    statement="QK-norm's lead over ÷√d_k in LR sensitivity is more than twice as large at the "
    "largest d_k of the sweep as at the smallest",
    counterexample={f"after.sensitivity.d{_DK_LARGE}.qknorm": 0.7},
)
def _qknorm_gap(v: Mapping[str, float]) -> bool:
    def gap(dk: int) -> float:
        return v[f"after.sensitivity.d{dk}.sqrt"] - v[f"after.sensitivity.d{dk}.qknorm"]

    return gap(_DK_LARGE) > 2 * gap(_DK_SMALL)


@claim(
    "after.qknorm_best_lr_at_grid_top_small_dk",
    statement="at the smallest d_k of the sweep QK-norm's best learning rate is the highest "
    "one in the grid, so the grid does not show where QK-norm gets worse",
    counterexample={f"after.best_lr.d{_DK_SMALL}.qknorm": 0.01},
)
def _qknorm_best_at_top(v: Mapping[str, float]) -> bool:
    return v[f"after.best_lr.d{_DK_SMALL}.qknorm"] == max(_s.AFTER_LEARNING_RATES)


@claim(
    "after.qknorm_like_sqrt_at_low_lr_small_dk",
    statement="at the smallest d_k, at the two lowest learning rates, QK-norm's final loss is "
    "within 5% of ÷√d_k's (its g starts at √d_k and moves about η per step)",
    counterexample={f"after.final_loss.d{_DK_SMALL}.qknorm.{_LOW}": 1.0},
)
def _qknorm_like_sqrt_low(v: Mapping[str, float]) -> bool:
    return all(
        abs(
            v[f"after.final_loss.d{_DK_SMALL}.qknorm.{lr}"]
            / v[f"after.final_loss.d{_DK_SMALL}.sqrt.{lr}"]
            - 1
        )
        < 0.05
        for lr in _LRS[:2]
    )


@claim(
    "after.low_lr_undertrained_small_dk",
    statement="at the smallest d_k and the lowest learning rate every scaling's final loss is "
    "more than 3× its best: the step budget is too short there, so the LR sensitivity also "
    "counts under-training",
    counterexample={f"after.final_loss.d{_DK_SMALL}.qknorm.{_LOW}": 0.2},
)
def _low_lr_undertrained(v: Mapping[str, float]) -> bool:
    return all(_over_best(v, _DK_SMALL, s, _LOW) > 3 for s in _s.AFTER_SWEEP_SCALINGS)


@claim(
    "after.low_entropy_in_good_runs",
    statement="entropy is low in good runs too: at the largest d_k, QK-norm's final entropy at "
    "the highest rate is below 0.1 nats, and at the figure's low rate every scaling ends below "
    "0.2 nats",
    counterexample={f"after.final_entropy.d{_DK_LARGE}.qknorm.{_TOP}": 1.0},
)
def _low_entropy_good(v: Mapping[str, float]) -> bool:
    low = f"lr{_s.AFTER_LOW_LR:g}"
    return v[f"after.final_entropy.d{_DK_LARGE}.qknorm.{_TOP}"] < 0.1 and all(
        v[f"after.final_entropy.d{_DK_LARGE}.{s}.{low}"] < 0.2 for s in _s.AFTER_SWEEP_SCALINGS
    )


@claim(
    "after.sqrt_best_lr_lower_at_large_dk",
    statement="÷√d_k's best learning rate is lower at the larger d_k of the sweep",
    counterexample={f"after.best_lr.d{_DK_LARGE}.sqrt": 1.0},
)
def _sqrt_best_lr_shifts(v: Mapping[str, float]) -> bool:
    return v[f"after.best_lr.d{_DK_LARGE}.sqrt"] < v[f"after.best_lr.d{_DK_SMALL}.sqrt"]


@claim(
    "after.spread_flat_at_init",
    statement="at initialisation the ÷√d_k logit std has a log-log slope against d_k within "
    "±0.1 of 0, and the ÷d_k one within ±0.1 of −0.5",
    counterexample={"after.slope.sqrt.init": 0.3},
)
def _flat_at_init(v: Mapping[str, float]) -> bool:
    return abs(v["after.slope.sqrt.init"]) < 0.1 and abs(v["after.slope.mup.init"] + 0.5) < 0.1


@claim(
    "after.sqrt_spread_grows_after_training",
    statement="after training with ÷√d_k the logit std grows with d_k (slope > 0.1) but more "
    "slowly than √d_k (slope < 0.4)",
    counterexample={"after.slope.sqrt.final": 0.02},
)
def _sqrt_spread_grows(v: Mapping[str, float]) -> bool:
    return 0.1 < v["after.slope.sqrt.final"] < 0.4


@claim(
    "after.mup_spread_flat_after_training",
    statement="after training with ÷d_k the logit std is flat in d_k (|slope| < 0.1), while "
    "the same q·k divided by √d_k grows like √d_k (slope within 0.4–0.6)",
    counterexample={"after.slope.mup.final": 0.3},
)
def _mup_flat(v: Mapping[str, float]) -> bool:
    return abs(v["after.slope.mup.final"]) < 0.1 and 0.4 < v["after.slope.mup_as_sqrt.final"] < 0.6


_SPREAD = [f"d{dk}" for dk in _s.AFTER_SPREAD_DKS]


@claim(
    "after.max_follows_spread",
    statement="the largest logit follows the std: after training its log-log slope against d_k "
    "is above 0.1 with ÷√d_k and within ±0.1 of 0 with ÷d_k",
    counterexample={"after.slope_max.sqrt.final": 0.0},
)
def _max_follows(v: Mapping[str, float]) -> bool:
    return v["after.slope_max.sqrt.final"] > 0.1 and abs(v["after.slope_max.mup.final"]) < 0.1


@claim(
    "after.training_aligns_q_and_k",
    statement="matched query–key cosines start near 0 (|cos| < 0.1) and end above 0.5 for "
    "both scalings at every d_k",
    counterexample={f"after.cos_final.{_SPREAD[-1]}.sqrt": 0.2},
)
def _aligned(v: Mapping[str, float]) -> bool:
    return all(
        abs(v[f"after.cos_init.{d}.{s}"]) < 0.1 and v[f"after.cos_final.{d}.{s}"] > 0.5
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
    sqrt = [v[f"after.cos_final.{d}.sqrt"] for d in _SPREAD]
    mup = [v[f"after.cos_final.{d}.mup"] for d in _SPREAD]
    return all(b < a for a, b in pairwise(sqrt)) and max(mup) - min(mup) < 0.05


# -- proseA: index.md, scaled-dot-product.md, saturation.md, gradients.md ----------------


def _close(value: float, target: float, rel: float) -> bool:
    return abs(value / target - 1) <= rel


def _std_theory(v: Mapping[str, float], dim: int, scale: str) -> float:
    """Theoretical std of the note's logits: 3√d raw, 3 after ÷√d, 1 after ÷(3√d)."""
    return {"none": v[f"std.theory.d{dim}"], "sqrt": 3.0, "unit": 1.0}[scale]


_WIDTHS = (10, 1024)
_SCALES = ("none", "sqrt", "unit")

# index.md (the worked example: one row of the seed-0 sample at d = 1024)

_EXAMPLE_RANKS = (1, 2, 3, 15)


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
    return all(v[f"example.slope.r{r}.none"] < 1e-3 for r in _EXAMPLE_RANKS) and all(
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
        and all(0.4 < v[f"sweep.max_weight.d{d}.sqrt"] < 0.8 for d in _WIDTHS)
        and all(v[f"sweep.entropy.d{d}.unit"] > 0.8 * v["theory.log_n"] for d in _WIDTHS)
    )


# scaled-dot-product.md


@claim(
    "scaled-dot-product.variance_follows_9d",
    statement="the measured logit variance is within 5% of 9d unscaled and of 9 after ÷√d, "
    "at d = 10 and d = 1024",
    counterexample={"variance.measured_sqrt.d1024": 1.0},
)
def _variance_9d(v: Mapping[str, float]) -> bool:
    return all(
        _close(v[f"variance.measured.d{d}"], 9 * d, 0.05)
        and _close(v[f"variance.measured_sqrt.d{d}"], 9, 0.05)
        for d in _WIDTHS
    )


@claim(
    "scaled-dot-product.temperature_panels",
    statement="in the temperature figure the top key takes > 0.9 of the weight at τ = 1 and "
    "most of it (> 0.5) at τ = √d_k/4, less than half at τ = √d_k and less still at τ = 3√d_k",
    counterexample={"temperature.top_weight.sqrt": 0.8},
)
def _temperature_panels(v: Mapping[str, float]) -> bool:
    top = {t: v[f"temperature.top_weight.{t}"] for t in ("1", "quarter", "sqrt", "unit")}
    return top["1"] > 0.9 and top["quarter"] > 0.5 and top["unit"] < top["sqrt"] < 0.5


@claim(
    "scaled-dot-product.temperature_same_top_key",
    statement="the temperature figure's highlighted top key is the same key in every panel",
    counterexample={"temperature.top_key.unit": 99.0},
)
def _temperature_same_key(v: Mapping[str, float]) -> bool:
    keys = {v[f"temperature.top_key.{t}"] for t in ("1", "quarter", "sqrt", "unit")}
    return len(keys) == 1


# saturation.md (the heatmap figure is also on index.md)


@claim(
    "saturation.heatmap_panels",
    statement="in the seed-0 heatmaps the unscaled d = 1024 rows average a max weight > 0.95; "
    "÷√d stays peaked (mean max weight 0.4–0.8) at both widths; ÷(3√d) is spread wider "
    "(entropy above 80% of log n)",
    counterexample={"heatmap.max_weight.d1024.sqrt": 0.97},
)
def _heatmap_panels(v: Mapping[str, float]) -> bool:
    return (
        v["heatmap.max_weight.d1024.none"] > 0.95
        and all(0.4 < v[f"heatmap.max_weight.d{d}.sqrt"] < 0.8 for d in _WIDTHS)
        and all(v[f"heatmap.entropy.d{d}.unit"] > 0.8 * v["theory.log_n"] for d in _WIDTHS)
    )


@claim(
    "saturation.ranges_like_the_note",
    statement="the seed-0 logit ranges show the note's pattern: hundreds either side of 0 for "
    "raw d = 1024, tens for raw d = 10, about ten (5 to 20) for both ÷√d cases",
    counterexample={"heatmap.max.d1024.none": 40.0},
)
def _ranges_like_note(v: Mapping[str, float]) -> bool:
    def extreme(d: int, s: str) -> float:
        return max(abs(v[f"heatmap.min.d{d}.{s}"]), abs(v[f"heatmap.max.d{d}.{s}"]))

    def both_sides(d: int, s: str, low: float, high: float) -> bool:
        return all(low <= abs(v[f"heatmap.{m}.d{d}.{s}"]) < high for m in ("min", "max"))

    return (
        both_sides(1024, "none", 100, 1000)
        and both_sides(10, "none", 10, 100)
        and all(5 <= extreme(d, "sqrt") <= 20 for d in _WIDTHS)
    )


@claim(
    "saturation.range_three_to_four_std",
    statement="in every seed-0 panel the largest |logit| lies 2.5 to 4.5 theoretical stds from 0",
    counterexample={"heatmap.max.d10.none": 100.0},
)
def _range_in_std(v: Mapping[str, float]) -> bool:
    for d in _WIDTHS:
        for s in _SCALES:
            extreme = max(abs(v[f"heatmap.min.d{d}.{s}"]), abs(v[f"heatmap.max.d{d}.{s}"]))
            if not 2.5 <= extreme / _std_theory(v, d, s) <= 4.5:
                return False
    return True


@claim(
    "saturation.sqrt_same_at_both_widths",
    statement="after ÷√d (and after ÷(3√d)) the d = 10 and d = 1024 rows of the 8-seed table "
    "nearly match: entropy within 0.15 nats, max weight within 0.06",
    counterexample={"sweep.entropy.d10.sqrt": 2.5},
)
def _sqrt_same(v: Mapping[str, float]) -> bool:
    return all(
        abs(v[f"sweep.entropy.d10.{s}"] - v[f"sweep.entropy.d1024.{s}"]) < 0.15
        and abs(v[f"sweep.max_weight.d10.{s}"] - v[f"sweep.max_weight.d1024.{s}"]) < 0.06
        for s in ("sqrt", "unit")
    )


@claim(
    "saturation.unscaled_entropy_falls_with_width",
    statement="unscaled, the entropy falls and the max weight rises from d = 10 to d = 1024",
    counterexample={"sweep.entropy.d1024.none": 3.0},
)
def _unscaled_trend(v: Mapping[str, float]) -> bool:
    return (
        v["sweep.entropy.d1024.none"] < v["sweep.entropy.d10.none"]
        and v["sweep.max_weight.d1024.none"] > v["sweep.max_weight.d10.none"]
    )


@claim(
    "saturation.unscaled_d1024_one_key",
    statement="unscaled at d = 1024 the mean row entropy is below 0.1 nats (one key per query)",
    counterexample={"sweep.entropy.d1024.none": 1.0},
)
def _one_key(v: Mapping[str, float]) -> bool:
    return v["sweep.entropy.d1024.none"] < 0.1


@claim(
    "saturation.sqrt_still_peaked",
    statement="after ÷√d at d = 1024 the max weight is still above 0.4 (n = 30: uniform is "
    "1/30) and the entropy below 60% of log n; ÷(3√d) spreads further",
    counterexample={"sweep.max_weight.d1024.sqrt": 0.1},
)
def _sqrt_peaked(v: Mapping[str, float]) -> bool:
    return (
        v["sweep.max_weight.d1024.sqrt"] > 0.4
        and v["sweep.entropy.d1024.sqrt"] < 0.6 * v["theory.log_n"]
        and v["sweep.max_weight.d1024.unit"] < v["sweep.max_weight.d1024.sqrt"]
        and v["sweep.entropy.d1024.unit"] > v["sweep.entropy.d1024.sqrt"]
    )


@claim(
    "saturation.self_diagonal_dominates",
    statement="with X·Xᵀ/√d at d = 1024 the diagonal sits 25 to 40 off-diagonal stds above "
    "0, and each token gives itself a weight > 0.99",
    counterexample={"self.diag_weight.d1024": 0.5},
)
def _self_diagonal(v: Mapping[str, float]) -> bool:
    ratio = v["self.diag_scaled.d1024"] / v["self.offdiag_std_scaled.d1024"]
    return 25 <= ratio <= 40 and v["self.diag_weight.d1024"] > 0.99


# gradients.md


@claim(
    "gradients.unscaled_jacobian_tenfold_smaller",
    statement="unscaled at d = 1024 the mean ‖J‖_F is less than a tenth of its value after ÷√d",
    counterexample={"sweep.jacobian_fro.d1024.none": 0.1},
)
def _jacobian_tenfold(v: Mapping[str, float]) -> bool:
    return 10 * v["sweep.jacobian_fro.d1024.none"] < v["sweep.jacobian_fro.d1024.sqrt"]


@claim(
    "gradients.sharper_sqrt_larger_jacobian",
    statement="÷√d (sharper) has a larger mean ‖J‖_F than ÷(3√d) at d = 10 and d = 1024",
    counterexample={"sweep.jacobian_fro.d10.unit": 0.4},
)
def _sharper_larger(v: Mapping[str, float]) -> bool:
    return all(
        v[f"sweep.jacobian_fro.d{d}.sqrt"] > v[f"sweep.jacobian_fro.d{d}.unit"] for d in _WIDTHS
    )


@claim(
    "gradients.unscaled_collapses_scaled_flat",
    statement="unscaled, ‖J‖_F and ‖∂L/∂z‖ fall more than fivefold from d = 10 to d = 1024; "
    "after ÷√d or ÷(3√d) both stay within 25%",
    counterexample={"sweep.grad_norm.d1024.sqrt": 0.001},
)
def _collapse_flat(v: Mapping[str, float]) -> bool:
    for metric in ("jacobian_fro", "grad_norm"):
        if not v[f"sweep.{metric}.d1024.none"] * 5 < v[f"sweep.{metric}.d10.none"]:
            return False
        for s in ("sqrt", "unit"):
            if not _close(v[f"sweep.{metric}.d1024.{s}"], v[f"sweep.{metric}.d10.{s}"], 0.25):
                return False
    return True
