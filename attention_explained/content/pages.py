"""The page list, and the whole-site queries that need every page loaded.

:func:`load_pages` imports every page module, so that all their numbers and claims are
registered (:mod:`attention_explained.content.registry`). :func:`compute` and :func:`values`
run every registered number producer once per process; :func:`evaluate_all` judges every
registered claim over the values. Each loads the page modules first, so a caller never has
to know which page holds what.

Imports the registry and the page modules; no page module imports this one (a page module
imports the registry, a leaf), so there is no import circle between them.

Content layer: imports neither matplotlib nor MkDocs (the producers import TensorFlow lazily).
"""

from __future__ import annotations

import traceback
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from functools import cache
from typing import Any

from attention_explained.content.registry import (
    Claim,
    ClaimCheckError,
    Number,
    Reading,
    Spread,
    Verdict,
    claims_so_far,
    high,
    low,
    producers_so_far,
    run_producers,
    spread_reads,
)


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
    return run_producers(producers_so_far())


measure.cache_clear = _measure.cache_clear  # type: ignore[attr-defined]  # both runs


def compute() -> dict[str, str]:
    """All named numbers, already formatted for the prose (Unicode minus, fixed decimals)."""
    return {name: str(text) for name, text in measure().items()}


def values() -> dict[str, float]:
    """The same names as :func:`compute`, unrounded: what the claims are checked against.

    A :class:`Spread` (a number measured on several seeds, printed as its range) adds its
    per-seed extremes as :func:`~attention_explained.content.registry.low` and
    :func:`~attention_explained.content.registry.high`; its own name holds the value its
    sentence is about (a median, say), which a threshold check must not read
    (:func:`median_reads`, tests/test_content_claims.py).
    """
    out: dict[str, float] = {}
    for name, text in measure().items():
        out[name] = text.value if isinstance(text, Number) else float(text)
        if isinstance(text, Spread):
            out[low(name)], out[high(name)] = text.low, text.high
    return out


def registered() -> dict[str, Claim]:
    """Every claim of every page, by name."""
    load_pages()
    return claims_so_far()


def median_reads(name: str, values: Mapping[str, float]) -> list[str]:
    """The :class:`Spread` central values (medians, means over seeds) that claim ``name``
    reads on ``values``, unless the claim says why it may (``median_because``).

    A sentence beside a printed range reads as "on every seed", so its check compares the
    per-seed extremes (:func:`~attention_explained.content.registry.low`,
    :func:`~attention_explained.content.registry.high`) with the bound, not the median. A
    Spread every seed gives the same value (a setting, ``log n``) may be read as it is.
    """
    spec = registered()[name]
    return [] if spec.median_because else spread_reads(spec.check, values)


def evaluate(name: str, values: Mapping[str, float]) -> Verdict:
    """Run one check; a check that reads an unknown number raises ``KeyError``."""
    spec = registered()[name]
    reading = Reading(values)
    holds = bool(spec.check(reading))
    return Verdict(holds, spec.statement, dict(reading.read))


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
