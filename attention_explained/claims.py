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
