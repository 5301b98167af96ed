"""How the prose prints a number: :class:`Number`, :class:`Spread` (a range over seeds), and the
rule that a printed number agrees with the rerun at its printed digits.

Kept apart from :mod:`attention_explained.content.registry` so that a figure that prints a
number like the prose imports only this, and its cache key covers how a number prints and
none of the registry's claim machinery. (Every page module, and with them every claim, is
loaded by :mod:`attention_explained.content.pages`, which nothing a figure imports reaches.)
"""

from __future__ import annotations

from collections.abc import Mapping

MINUS = "\u2212"


class Number(str):
    """A number as the prose prints it, keeping the value it was printed from (for claims)."""

    value: float
    spec: str

    def __new__(cls, value: float, spec: str) -> Number:
        text = super().__new__(cls, format(value, spec).replace("-", MINUS))
        text.value, text.spec = float(value), spec
        return text


def _unsigned_zero(text: str) -> str:
    """ "-0.00" (a tiny negative rounded away) as "0.00": a range never ends at minus zero."""
    return text.lstrip("-") if text.startswith("-") and not text.strip("-0.") else text


class Spread(Number):
    """A number measured on several seeds, printed as its range over them ("0.50–0.62").

    Its ``value`` (what the claims read) is still the number the page's sentence is about,
    e.g. the median over seeds; ``low`` and ``high`` are the smallest and largest single-seed
    values. Pages print ranges because a rerun on other seeds moves these numbers by more
    than their last digit; the rerun's range must still overlap this one at the printed
    digits (:func:`agrees_at_printed_digits`, tests/test_claims_rerun.py).
    """

    low: float
    high: float

    def __new__(cls, value: float, low: float, high: float, spec: str) -> Spread:
        lo, hi = (_unsigned_zero(format(x, spec)) for x in (low, high))
        text = lo if lo == hi else (f"{lo}–{hi}" if low >= 0 else f"{lo} – {hi}")
        spread = str.__new__(cls, text.replace("-", MINUS))
        spread.value, spread.spec = float(value), spec
        spread.low, spread.high = float(low), float(high)
        return spread


def printed_bounds(text: str) -> tuple[float, float] | None:
    """The smallest and largest value ``text`` shows, at the digits it is printed with: a
    :class:`Spread`'s two ends, a :class:`Number`'s one value twice; ``None`` for plain text
    (a count, a name)."""
    if isinstance(text, Spread):
        low, high = (float(format(x, text.spec)) for x in (text.low, text.high))
        return low, high
    if isinstance(text, Number):  # its own text is the value at its digits (a "d" spec too)
        value = float(text.replace(MINUS, "-"))
        return value, value
    return None


def agrees_at_printed_digits(build: str, rerun: str) -> bool:
    """Whether a number printed as ``build`` still reads true on a rerun that prints ``rerun``.

    Rounded to the printed digits, the two must share a value: a single number prints the
    same on both runs, and a range over seeds overlaps the rerun's range over its seeds (a
    range the rerun lies wholly outside would print a precision the experiment lacks).
    Plain text must be the same text.
    """
    old, new = printed_bounds(build), printed_bounds(rerun)
    if old is None or new is None:
        return str(build) == str(rerun)
    return max(old[0], new[0]) <= min(old[1], new[1])


def reprint(out: dict[str, str], specs: Mapping[str, str]) -> None:
    """Print the numbers ``specs`` names (name → format) with those digits instead: where the
    rerun contradicts the default digits (:func:`agrees_at_printed_digits`)."""
    for name, spec in specs.items():
        text = out[name]
        if isinstance(text, Spread):
            out[name] = Spread(text.value, text.low, text.high, spec)
        elif isinstance(text, Number):
            out[name] = Number(text.value, spec)
        else:
            raise ValueError(f"{name!r} is not a number, so it has no digits to print")
