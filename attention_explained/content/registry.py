"""The registry every page module writes into: its numbers (``@numbers``) and claims (``@claim``).

:func:`compute` and :func:`values` run every registered number producer once per process;
:func:`evaluate_all` judges every registered claim over the values. Both load the page modules
first (:func:`load_pages`), so a caller never has to know which page holds what.

Content layer: imports neither matplotlib nor MkDocs (the producers import TensorFlow lazily).
"""

from __future__ import annotations

import math
import traceback
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import cache
from typing import Any

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


def load_pages() -> None:
    """Import every page module, so that all numbers and claims are registered.

    A new page adds its module here (the only line outside the page that a new page needs).
    """
    from attention_explained.content import (  # noqa: F401
        after_training,
        beyond,
        explorer,
        figures,
        gradients,
        index,
        initialisation,
        multi_head,
        notebook_heatmaps,
        notebook_sweep_and_keras,
        saturation,
        scaled_dot_product,
        shared,
        training,
    )


def measure() -> dict[str, str]:
    """Every registered number, by name (sorted), run once per process and per run: the
    build's, or the independent rerun's (:mod:`attention_explained.runs`)."""
    from attention_explained import runs

    return _measure(runs.current())


@cache
def _measure(run) -> dict[str, str]:
    load_pages()
    return run_producers(_PRODUCERS)


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


measure.cache_clear = _measure.cache_clear  # type: ignore[attr-defined]  # both runs


def compute() -> dict[str, str]:
    """All named numbers, already formatted for the prose (Unicode minus, fixed decimals)."""
    return {name: str(text) for name, text in measure().items()}


LOW, HIGH = ":low", ":high"  # a Spread's per-seed extremes, as values() names them


def low(name: str) -> str:
    """The name under which :func:`values` holds the smallest single-seed value of the
    :class:`Spread` ``name``: what a claim about "every seed" reads (``v[low(name)] > 10``)."""
    return name + LOW


def high(name: str) -> str:
    """The name of the largest single-seed value of the :class:`Spread` ``name``."""
    return name + HIGH


def values() -> dict[str, float]:
    """The same names as :func:`compute`, unrounded: what the claims are checked against.

    A :class:`Spread` (a number measured on several seeds, printed as its range) adds its
    per-seed extremes as :func:`low` and :func:`high`; its own name holds the value its
    sentence is about (a median, say), which a threshold check must not read
    (:func:`median_reads`, tests/test_content_claims.py).
    """
    out: dict[str, float] = {}
    for name, text in measure().items():
        out[name] = text.value if isinstance(text, Number) else float(text)
        if isinstance(text, Spread):
            out[low(name)], out[high(name)] = text.low, text.high
    return out


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


def median_reads(name: str, values: Mapping[str, float]) -> list[str]:
    """The :class:`Spread` central values (medians, means over seeds) that claim ``name``
    reads on ``values``, unless the claim says why it may (``median_because``).

    A sentence beside a printed range reads as "on every seed", so its check compares the
    per-seed extremes (:func:`low`, :func:`high`) with the bound, not the median. A Spread
    every seed gives the same value (a setting, ``log n``) may be read as it is.
    """
    spec = registered()[name]
    return [] if spec.median_because else spread_reads(spec.check, values)


def spread_reads(check: Check, values: Mapping[str, float]) -> list[str]:
    """The names of :class:`Spread` central values ``check`` reads on ``values`` (sorted),
    leaving out those every seed gives the same (their extremes equal)."""
    reading = _Reading(values)
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
    threshold beside a printed range (:func:`median_reads`).
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


def registered() -> dict[str, Claim]:
    """Every claim of every page, by name."""
    load_pages()
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
    spec = registered()[name]
    reading = _Reading(values)
    holds = bool(spec.check(reading))
    return Verdict(holds, spec.statement, dict(reading.read))


class ClaimCheckError(RuntimeError):
    """A claim's check raised instead of judging. The message names the claim, its check's
    module and line, and the error: what a build or ``claims`` prints, without a traceback."""


@contextmanager
def judging(name: str) -> Iterator[None]:
    """Turn an error raised while claim ``name`` is judged into a :class:`ClaimCheckError`."""
    try:
        yield
    except ClaimCheckError:
        raise
    except Exception as exc:
        check = registered()[name].check
        module = getattr(check, "__module__", None) or "?"
        where = f"{module}.{getattr(check, '__qualname__', repr(check))}"
        code = getattr(check, "__code__", None)
        lines = [
            frame.lineno
            for frame in traceback.extract_tb(exc.__traceback__)
            if code is not None and frame.filename == code.co_filename
        ]
        at = f" at line {lines[-1]} of {module}" if lines else ""
        said = exc.args[0] if isinstance(exc, KeyError) and exc.args else exc
        raise ClaimCheckError(
            f"claim {name!r}: its check {where} raised {type(exc).__name__}{at}: {said}"
        ) from exc


def evaluate_all(values: Mapping[str, float]) -> dict[str, dict[str, Any]]:
    """Every registered claim's verdict, as JSON-ready dicts keyed by name; a check that
    raises stops it with a :class:`ClaimCheckError` naming the claim."""
    out = {}
    for name in sorted(registered()):
        with judging(name):
            verdict = evaluate(name, values)
        out[name] = {
            "holds": verdict.holds,
            "statement": verdict.statement,
            "numbers": verdict.numbers,
        }
    return out
