"""content/multi_head.py: our MultiHeadAttention matches Keras' to float32 rounding."""

from __future__ import annotations

import pytest

from attention_explained.content.registry import MINUS


def _value(numbers: dict[str, str], name: str) -> float:
    return float(numbers[name].replace(MINUS, "-"))


@pytest.mark.grid
def test_keras_numbers(content_numbers):
    for name in ("keras.max_abs_diff.output", "keras.max_abs_diff.scores"):
        assert 0 <= _value(content_numbers, name) <= 1e-5
