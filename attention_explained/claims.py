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
