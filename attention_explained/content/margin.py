"""How far a claim's numbers are from flipping its verdict.

A check reads some numbers and says yes or no. Its *margin* is the smallest relative change
of one of those numbers that flips the verdict: +12 % means "the claim holds, and moving
``training.final_loss.d1024.none`` by 12 % would break it"; −3 % means "it fails, and a 3 %
move of that number would make it hold". The search moves one number at a time, up and down,
by a fraction ε of its size (of 1 for a number that is 0), and bisects on ε up to
``LIMIT``; a claim that no such move flips has a margin of at least ``LIMIT``.

This treats every check as a black box, so it needs nothing from the checks themselves and
cannot disagree with them. It is a local measure: it says how close the numbers are to the
nearest edge, not how likely a rerun is to cross it (that is what ``claims --rerun`` tests).

Content layer: judges the claims through :mod:`attention_explained.content.pages` (which
loads every page); imports neither matplotlib nor MkDocs.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass

from attention_explained.content import pages as claims

LIMIT = 1.0  # search moves of up to 100 % of a number's size
_STEPS = 30  # bisection steps: ε to within LIMIT / 2**30


@dataclass(frozen=True)
class Margin:
    """``fraction`` ≥ 0 (``None`` when no move up to LIMIT flips it), signed by the verdict."""

    holds: bool
    fraction: float | None  # smallest relative move that flips the verdict
    number: str | None  # the number whose move flips it first
    direction: int  # +1: the number has to grow; −1: shrink; 0: nothing flips it

    def text(self) -> str:
        if self.fraction is None:
            return f"{'+' if self.holds else '−'}>{LIMIT:.0%} (no single number flips it)"
        sign = "+" if self.holds else "−"
        way = "up" if self.direction > 0 else "down"
        return f"{sign}{self.fraction:.1%} ({self.number} {way})"


class _Moved(Mapping[str, float]):
    """``values`` with one number replaced, without copying the other thousand."""

    def __init__(self, values: Mapping[str, float], number: str, value: float):
        self._values, self._number, self._value = values, number, value

    def __getitem__(self, name: str) -> float:
        return self._value if name == self._number else self._values[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self._values)

    def __len__(self) -> int:
        return len(self._values)


def margin(name: str, values: Mapping[str, float]) -> Margin:
    """The smallest one-number relative move that flips claim ``name`` on ``values``."""
    verdict = claims.evaluate(name, values)
    best: tuple[float, str, int] | None = None
    for number, value in sorted(verdict.numbers.items()):
        size = abs(value) if value else 1.0
        for direction in (1, -1):

            def flips(eps: float, number=number, value=value, size=size, direction=direction):
                moved = _Moved(values, number, value + direction * eps * size)
                try:
                    return claims.evaluate(name, moved).holds != verdict.holds
                except (ArithmeticError, ValueError):  # e.g. a ratio over a number moved to 0
                    return False

            if not flips(LIMIT):
                # nothing up to LIMIT flips it this way; a coarse scan catches a window
                grid = [LIMIT * k / 16 for k in range(1, 16)]
                hit = next((eps for eps in grid if flips(eps)), None)
                if hit is None:
                    continue
                high = hit
            else:
                high = LIMIT
            low = 0.0
            for _ in range(_STEPS):
                mid = (low + high) / 2
                low, high = (low, mid) if flips(mid) else (mid, high)
            if best is None or high < best[0]:
                best = (high, number, direction)
    if best is None:
        return Margin(verdict.holds, None, None, 0)
    return Margin(verdict.holds, best[0], best[1], best[2])
