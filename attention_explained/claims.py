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
