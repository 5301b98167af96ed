"""Small NumPy helpers of the after-training experiment that figures use too.

Kept apart from ``after_training`` (which imports TensorFlow) so that the processes that only
draw figures never import TensorFlow.
"""

from __future__ import annotations

import math
from collections.abc import Iterable

import numpy as np


def divisor(scaling: str, d_k: int) -> float:
    """The factor a model's raw q·k is divided by: √d_k for ÷√d_k, d_k for μP's ÷d_k."""
    return {"sqrt": math.sqrt(d_k), "mup": float(d_k), "none": 1.0}[scaling]


def log_slope(dks: Iterable[int], values: Iterable[float]) -> float:
    """Least-squares slope of log(values) against log(d_k): the exponent a in value ∝ d_k^a."""
    x = np.log(np.asarray(list(dks), dtype=float))
    y = np.log(np.asarray(list(values), dtype=float))
    return float(np.polyfit(x, y, 1)[0])
