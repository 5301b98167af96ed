"""Data that several figures share, computed once per process from the core."""

from __future__ import annotations

from functools import lru_cache

import numpy as np

LENGTH = 30
HEATMAP_DIMS = (10, 1024)
HEATMAP_SEED = 0
SWEEP_DIMS = tuple(2**k for k in range(13))  # 1 … 4096
SWEEP_SEEDS = tuple(range(8))
SCALES = ("none", "sqrt", "unit")


@lru_cache(maxsize=1)
def heatmaps() -> dict:
    """Softmax weights of the note's experiment, with each panel's mean max weight and entropy."""
    from attention_explained import attention_entropy, make_dot_product_tensor, max_weight
    from attention_explained._tf import tf
    from attention_explained.stats import scale_factor

    panels = {}
    for dim in HEATMAP_DIMS:
        raw = make_dot_product_tensor(LENGTH, dim, seed=HEATMAP_SEED)
        for scale in SCALES:
            weights = tf.nn.softmax(raw * scale_factor(scale, dim), axis=-1)
            panels[dim, scale] = {
                "weights": weights.numpy(),
                "max_weight": float(np.mean(max_weight(weights))),
                "entropy": float(np.mean(attention_entropy(weights))),
                "logit_min": float(np.min(raw * scale_factor(scale, dim))),
                "logit_max": float(np.max(raw * scale_factor(scale, dim))),
            }
    return panels


@lru_cache(maxsize=1)
def sweep() -> dict[str, np.ndarray]:
    from attention_explained import saturation_sweep

    return saturation_sweep(SWEEP_DIMS, length=LENGTH, seeds=SWEEP_SEEDS, scales=SCALES)


def sweep_series(data: dict[str, np.ndarray], scale: str, metric: str):
    """(dims, mean, std) of one metric for one scaling rule."""
    rows = data["scale"] == scale
    return data["dim"][rows], data[f"{metric}_mean"][rows], data[f"{metric}_std"][rows]
