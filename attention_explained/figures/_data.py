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


TRAINING_SMOOTH = 10  # steps in the moving average of the training curves
TRAINING_EVERY = 5  # plot every 5th smoothed step: the curves stay smooth, the SVGs small


@lru_cache(maxsize=1)
def training() -> dict[str, dict[str, np.ndarray]]:
    """The training comparison, run once per process: the SGD grid and Adam at d_k = 1024."""
    from attention_explained.training import run_grid

    return {"sgd": run_grid(), "adam": run_grid(dks=(1024,), optimizer="adam")}


def training_band(runs: dict[str, np.ndarray], metric: str, dk: int, scaling: str, *, log=False):
    """(steps, median, min, max) over seeds of one metric, each seed's curve smoothed first.

    Step s shows the mean of steps max(0, s − 9) … s (of log10 values when ``log``, i.e. a
    geometric mean), so step 0 is the raw first value. Every ``TRAINING_EVERY``-th step is
    returned, and the last one.
    """
    i = list(runs["d_k"]).index(dk)
    k = list(runs["scaling"]).index(scaling)
    curves = runs[metric][i, k]  # [seed, step]
    if log:
        curves = np.log10(np.maximum(curves, 1e-30))
    total = np.cumsum(curves, axis=-1)
    count = np.arange(1, curves.shape[-1] + 1)
    window = np.minimum(count, TRAINING_SMOOTH)
    before = np.pad(total, ((0, 0), (1, 0)))[:, count - window]  # sum of the steps before it
    smooth = (total - before) / window
    if log:
        smooth = 10.0**smooth
    keep = np.unique(np.append(np.arange(0, curves.shape[-1], TRAINING_EVERY), count[-1] - 1))
    smooth = smooth[:, keep]
    return runs["step"][keep], np.median(smooth, axis=0), smooth.min(axis=0), smooth.max(axis=0)


@lru_cache(maxsize=1)
def after_training() -> dict[str, np.ndarray]:
    """Both after-training experiments (LR sweep and spread), run once per process."""
    from attention_explained.after_training import run

    return run()
