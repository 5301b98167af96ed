"""Argument checks shared by the public functions, so every error names its argument."""

from __future__ import annotations

import math
import numbers
from collections.abc import Iterable

import numpy as np


def positive_int(name: str, value: object, *, upper: int | None = None) -> int:
    """Return ``value`` as int, or raise naming ``name`` and the accepted range."""
    accepted = f"an integer in [1, {upper}]" if upper else "a positive integer"
    if isinstance(value, bool):  # True is an int to Python, never a size to us
        raise TypeError(f"{name} must be {accepted}, got {value!r}")
    if not isinstance(value, numbers.Integral):
        if isinstance(value, numbers.Real) and float(value).is_integer() and value >= 1:
            value = int(value)
        else:
            raise TypeError(f"{name} must be {accepted}, got {value!r}")
    value = int(value)
    if value < 1 or (upper is not None and value > upper):
        raise ValueError(f"{name} must be {accepted}, got {value}")
    return value


def finite_float(name: str, value: object) -> float:
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise TypeError(f"{name} must be a finite real number, got {value!r}")
    value = float(value)
    if not math.isfinite(value):
        raise ValueError(f"{name} must be a finite real number, got {value}")
    return value


def bounds(minval: object, maxval: object) -> tuple[float, float]:
    low, high = finite_float("minval", minval), finite_float("maxval", maxval)
    if not low < high:
        raise ValueError(f"minval must be smaller than maxval, got minval={low}, maxval={high}")
    return low, high


def seed(value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, numbers.Integral) or value < 0:
        raise TypeError(f"seed must be a non-negative integer, got {value!r}")
    return int(value)


def choice(name: str, value: object, accepted: Iterable[str]) -> str:
    accepted = tuple(accepted)
    if value not in accepted:
        raise ValueError(f"{name} must be one of {', '.join(map(repr, accepted))}; got {value!r}")
    return value  # type: ignore[return-value]


def finite_array(name: str, array: np.ndarray) -> np.ndarray:
    if array.size == 0:
        raise ValueError(f"{name} must not be empty, got shape {tuple(array.shape)}")
    if not np.all(np.isfinite(array)):
        raise ValueError(f"{name} contains NaN or inf; every entry must be finite")
    return array


def sequence(name: str, value: object, items: str) -> list:
    """A non-string iterable as a list, or a TypeError naming ``name``."""
    if isinstance(value, (str, bytes)) or not isinstance(value, Iterable):
        raise TypeError(f"{name} must be an iterable of {items}, got {value!r}")
    return list(value)
