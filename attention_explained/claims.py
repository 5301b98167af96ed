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
