"""The registry every page module writes into: its numbers (``@numbers``) and claims (``@claim``).

A leaf: it imports no page module, so every page module can import it. What a page needs is
here: the types (:class:`Number`, :class:`Spread`, :class:`Claim`, :class:`Verdict`), the two
decorators that register a page's number producers and claims in this module's tables, and
helpers that take the values as arguments (:func:`lo`, :func:`hi`, :func:`spread_reads`, …).
The whole-site queries, which need every page loaded first (the numbers, the values, every
registered claim and its verdict), are in :mod:`attention_explained.content.pages`, which also
lists the page modules.

Content layer: imports neither matplotlib nor MkDocs.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field

from attention_explained.content.printing import (  # noqa: F401  (the page modules' names)
    MINUS,
    Number,
    Spread,
    agrees_at_printed_digits,
    printed_bounds,
    reprint,
)

Producer = Callable[[dict[str, str]], None]
Check = Callable[[Mapping[str, float]], bool]


def one_seed(result: dict, j: int, axes: Mapping[str, int]) -> dict:
    """``result`` with only its ``j``-th seed: ``axes`` names each per-seed array's seed axis."""
    import numpy as np

    out = dict(result)
    out["seed"] = result["seed"][j : j + 1]
    for name, axis in axes.items():
        out[name] = np.take(result[name], [j], axis=axis)
    return out


def attach_seed_ranges(
    out: dict[str, str], per_seed: list[dict[str, str]], keep: tuple[str, ...] = ()
) -> None:
    """Turn every number of ``out`` into a :class:`Spread` over the single-seed ``per_seed``.

    Names containing a part in ``keep`` stay single numbers (a grid point the median curve
    picks, say, where a range of single-seed picks would describe another quantity).
    """
    for name, text in out.items():
        if not isinstance(text, Number) or any(part in name for part in keep):
            continue
        seeds = [p[name].value for p in per_seed if isinstance(p.get(name), Number)]
        finite = [v for v in seeds if math.isfinite(v)]
        if len(finite) == len(per_seed):  # a range, even when every seed gave the same
            out[name] = Spread(text.value, min(finite), max(finite), text.spec)


def per_seed_ranges(produce, out: dict[str, str], seeds: tuple[int, ...]) -> None:
    """``produce(out, seeds)`` on all seeds, then as ranges over the seeds one by one."""
    produce(out, seeds)
    parts: list[dict[str, str]] = [{} for _ in seeds]
    for part, seed in zip(parts, seeds, strict=True):
        produce(part, (seed,))
    attach_seed_ranges(out, parts)


_PRODUCERS: list[Producer] = []


def numbers(produce: Producer) -> Producer:
    """Register ``produce(out)``, which adds a page's named numbers to the dict ``out``."""
    if produce in _PRODUCERS:
        raise ValueError(f"number producer {produce.__qualname__!r} is registered twice")
    _PRODUCERS.append(produce)
    return produce


def producers_so_far() -> list[Producer]:
    """The number producers registered so far, in order: those of the page modules imported
    by now (:func:`attention_explained.content.pages.measure` loads every page first)."""
    return list(_PRODUCERS)


def run_producers(producers: list[Producer]) -> dict[str, str]:
    """The numbers ``producers`` add, by name (sorted); a name two of them add is refused,
    naming the second."""
    out: dict[str, str] = {}
    for produce in producers:
        part: dict[str, str] = {}
        produce(part)
        clash = sorted(set(part) & set(out))
        if clash:
            raise ValueError(f"{produce.__module__}.{produce.__qualname__} redefines {clash}")
        out |= part
    return dict(sorted(out.items()))


LOW, HIGH = ":low", ":high"  # a Spread's per-seed extremes, as pages.values() names them


def low(name: str) -> str:
    """The name under which :func:`attention_explained.content.pages.values` holds the
    smallest single-seed value of the :class:`Spread` ``name``: what a claim about "every
    seed" reads (``v[low(name)] > 10``)."""
    return name + LOW


def high(name: str) -> str:
    """The name of the largest single-seed value of the :class:`Spread` ``name``."""
    return name + HIGH


def lo(v: Mapping[str, float], name: str) -> float:
    """The smallest single-seed value of ``name`` if it is a :class:`Spread`, else its value:
    what a threshold "above x on every seed" compares."""
    return v[low(name)] if low(name) in v else v[name]


def hi(v: Mapping[str, float], name: str) -> float:
    """The largest single-seed value of ``name`` if it is a :class:`Spread`, else its value."""
    return v[high(name)] if high(name) in v else v[name]


def apart_at_most(v: Mapping[str, float], a: str, b: str) -> float:
    """The largest gap between ``a`` and ``b`` that their printed ranges allow: what "a and b
    are within x of each other" must keep under x."""
    return max(hi(v, a) - lo(v, b), hi(v, b) - lo(v, a))


def overlap(v: Mapping[str, float], a: str, b: str) -> bool:
    """Whether the printed seed ranges of ``a`` and ``b`` share a value."""
    return max(lo(v, a), lo(v, b)) <= min(hi(v, a), hi(v, b))


def is_spread(name: str, values: Mapping[str, float]) -> bool:
    """Whether ``name`` is a :class:`Spread`'s central value (its extremes are in ``values``)."""
    return low(name) in values and high(name) in values


def spread_reads(check: Check, values: Mapping[str, float]) -> list[str]:
    """The names of :class:`Spread` central values ``check`` reads on ``values`` (sorted),
    leaving out those every seed gives the same (their extremes equal)."""
    reading = Reading(values)
    check(reading)
    return sorted(
        n for n in reading.read if is_spread(n, values) and values[low(n)] != values[high(n)]
    )


@dataclass(frozen=True)
class Claim:
    name: str
    statement: str  # the claim in plain English, for error messages and the tests
    check: Check
    counterexample: Mapping[str, float]  # values that, laid over the real ones, break it
    median_because: str = ""  # why it may read a Spread's median (its sentence is about it)


def describe_numbers(numbers: Mapping[str, float]) -> str:
    """``a = 1, b = 2.5``: the numbers a verdict was judged on, as every message prints them."""
    return ", ".join(f"{k} = {v:.6g}" for k, v in sorted(numbers.items()))


@dataclass(frozen=True)
class Verdict:
    holds: bool
    statement: str
    numbers: dict[str, float] = field(default_factory=dict)  # what the check read

    def explain(self) -> str:
        return f"{self.statement} (numbers read: {describe_numbers(self.numbers) or 'none'})"


_CLAIMS: dict[str, Claim] = {}


def claim(
    name: str,
    *,
    statement: str,
    counterexample: Mapping[str, float],
    median_because: str = "",
):
    """Register ``check(values) -> bool`` as the claim ``name``.

    ``median_because`` lets the check read a :class:`Spread`'s median (or mean) and says why:
    only for a sentence about that central value (a median curve, a pick on it), never for a
    threshold beside a printed range (:func:`attention_explained.content.pages.median_reads`).
    """

    def register(check: Check) -> Check:
        if name in _CLAIMS:
            raise ValueError(f"claim {name!r} is registered twice")
        if not counterexample:
            raise ValueError(f"claim {name!r} needs a counterexample that contradicts it")
        _CLAIMS[name] = Claim(name, statement, check, with_extremes(counterexample), median_because)
        return check

    return register


def with_extremes(counterexample: Mapping[str, float]) -> dict[str, float]:
    """``counterexample`` with each number's per-seed extremes set to it as well (unless it
    names them itself): a number moved to 0.5 is 0.5 on every seed, so a check that reads
    :func:`lo` or :func:`hi` sees the move too."""
    out = dict(counterexample)
    for name, value in counterexample.items():
        if not name.endswith((LOW, HIGH)):
            out.setdefault(low(name), value)
            out.setdefault(high(name), value)
    return out


def claims_so_far() -> dict[str, Claim]:
    """The claims registered so far, by name: those of the page modules imported by now
    (:func:`attention_explained.content.pages.registered` loads every page first)."""
    return dict(_CLAIMS)


class Reading(Mapping[str, float]):
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


class ClaimCheckError(RuntimeError):
    """A claim's check raised instead of judging. The message names the claim, its check's
    module and line, and the error: what a build or ``claims`` prints, without a traceback
    (raised by :func:`attention_explained.content.pages.judging`)."""
