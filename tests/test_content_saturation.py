"""content/saturation.py: self-attention's diagonal, against the theory."""

from __future__ import annotations

import math

import pytest

from attention_explained.content.registry import MINUS


def _value(numbers: dict[str, str], name: str) -> float:
    return float(numbers[name].replace(MINUS, "-"))


@pytest.mark.grid
def test_self_attention_diagonal_dominates(content_numbers):
    """X·Xᵀ/√d: diagonal ‖x‖²/√d has mean 3√d = 96 at d = 1024 and std √7.2 per entry."""
    assert abs(_value(content_numbers, "self.diag_scaled.d1024") - 96.0) < 5 * math.sqrt(7.2 / 30)
    # 435 distinct off-diagonal pairs: relative SE of the std ≈ ½·√(2/435) ≈ 0.034; 5 SE.
    assert _value(content_numbers, "self.offdiag_std_scaled.d1024") == pytest.approx(3.0, rel=0.17)
    assert _value(content_numbers, "self.diag_weight.d1024") > 0.99
