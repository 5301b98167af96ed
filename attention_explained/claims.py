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


# after-training.md
# The sweep's d_k values and learning rates, and the spread's d_k values, come from settings.

from itertools import pairwise  # noqa: E402

from attention_explained import settings as _s  # noqa: E402

_LRS = [f"lr{lr:g}" for lr in _s.AFTER_LEARNING_RATES]
_TOP, _LOW = _LRS[-1], _LRS[0]
_DK_SMALL, _DK_LARGE = min(_s.AFTER_SWEEP_DKS), max(_s.AFTER_SWEEP_DKS)


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
    return all(
        v[f"after.final_loss.d{dk}.sqrt.{_TOP}"] > 5 * v[f"after.best_loss.d{dk}.sqrt"]
        for dk in _s.AFTER_SWEEP_DKS
    )


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
    return all(
        v[f"after.final_loss.d{dk}.qknorm.{_TOP}"] < 1.5 * v[f"after.best_loss.d{dk}.qknorm"]
        for dk in _s.AFTER_SWEEP_DKS
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
