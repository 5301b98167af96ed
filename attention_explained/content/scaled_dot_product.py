"""The scaled-dot-product page: the logits' variance and the temperature figure's row."""

from __future__ import annotations

import math
from collections.abc import Mapping

import numpy as np

from attention_explained import runs
from attention_explained.content.registry import Number, claim, numbers
from attention_explained.content.shared import close
from attention_explained.settings import PROSE_DIMS as WIDTHS
from attention_explained.settings import TEMPERATURE_D_K as TEMPERATURE_DK
from attention_explained.settings import TEMPERATURE_KEYS, TEMPERATURE_SEED


@numbers
def _temperature_numbers(out: dict[str, str]) -> None:
    """Largest weight and its key in the temperature figure, at τ = 1, √d_k/4, √d_k, 3√d_k."""
    from attention_explained import make_dot_product_tensor

    logits = make_dot_product_tensor(
        TEMPERATURE_KEYS, TEMPERATURE_DK, seed=TEMPERATURE_SEED, dtype=runs.current().dtype
    )
    row = logits.numpy()[0].astype(np.float64)
    root = math.sqrt(TEMPERATURE_DK)
    for name, tau in (("1", 1.0), ("quarter", root / 4), ("sqrt", root), ("unit", 3 * root)):
        z = row / tau
        p = np.exp(z - z.max())
        p /= p.sum()
        out[f"temperature.top_weight.{name}"] = Number(p.max(), ".2f")
        out[f"temperature.top_key.{name}"] = str(int(np.argmax(p)) + 1)


@claim(
    "scaled-dot-product.variance_follows_9d",
    statement="the measured logit variance is within 5% of 9d unscaled and of 9 after ÷√d, "
    "at d = 10 and d = 1024",
    counterexample={"variance.measured_sqrt.d1024": 1.0},
)
def _variance_9d(v: Mapping[str, float]) -> bool:
    return all(
        close(v[f"variance.measured.d{d}"], 9 * d, 0.05)
        and close(v[f"variance.measured_sqrt.d{d}"], 9, 0.05)
        for d in WIDTHS
    )


@claim(
    "scaled-dot-product.temperature_panels",
    statement="in the temperature figure the top key takes > 0.9 of the weight at τ = 1 and "
    "most of it (> 0.5) at τ = √d_k/4, less than half at τ = √d_k and less still at τ = 3√d_k",
    counterexample={"temperature.top_weight.sqrt": 0.8},
)
def _temperature_panels(v: Mapping[str, float]) -> bool:
    top = {t: v[f"temperature.top_weight.{t}"] for t in ("1", "quarter", "sqrt", "unit")}
    return top["1"] > 0.9 and top["quarter"] > 0.5 and top["unit"] < top["sqrt"] < 0.5


@claim(
    "scaled-dot-product.temperature_same_top_key",
    statement="the temperature figure's highlighted top key is the same key in every panel",
    counterexample={"temperature.top_key.unit": 99.0},
)
def _temperature_same_key(v: Mapping[str, float]) -> bool:
    keys = {v[f"temperature.top_key.{t}"] for t in ("1", "quarter", "sqrt", "unit")}
    return len(keys) == 1
