"""The beyond page: soft-capping the note's logits."""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np

from attention_explained import runs
from attention_explained.content.registry import Number, claim, numbers
from attention_explained.settings import LENGTH
from attention_explained.settings import PROSE_SEEDS as SEEDS

BEYOND_CAP = 50.0  # Gemma 2's attention-logit cap


@numbers
def _beyond_numbers(out: dict[str, str]) -> None:
    """Soft-capping cap·tanh(z/cap) on the note's unscaled logits at d = 1024 (beyond page)."""
    from attention_explained import make_dot_product_tensor, max_weight

    dim, cap = 1024, BEYOND_CAP
    capped = []
    for seed in runs.current().seeds(SEEDS):
        z = make_dot_product_tensor(LENGTH, dim, seed=seed).numpy().astype(np.float64)
        z = cap * np.tanh(z / cap)
        weights = np.exp(z - z.max(axis=-1, keepdims=True))
        weights /= weights.sum(axis=-1, keepdims=True)
        capped.append(np.mean(max_weight(weights)))
    out["beyond.cap"] = Number(cap, "g")
    out["beyond.capped_max_weight.d1024"] = Number(float(np.mean(capped)), ".2f")


@claim(
    "beyond.capping_flattens_the_note_logits",
    statement="soft-capping the note's unscaled d = 1024 logits lowers the mean row max weight "
    "(to below 0.6, from the uncapped value)",
    counterexample={"beyond.capped_max_weight.d1024": 0.99},
)
def _capping_flattens(v: Mapping[str, float]) -> bool:
    capped = v["beyond.capped_max_weight.d1024"]
    return capped < 0.6 and capped < v["sweep.max_weight.d1024.none"]
