"""The experiments' data that figures and page numbers share, computed once per process (the
asset step keeps the grid experiments between processes: :data:`KEEPER`).

Figures draw it and the page modules quote it, so a figure and the sentence beside it read the
same run. Each function reads :func:`attention_explained.runs.current`: the build's run,
or the independent rerun of ``claims --rerun`` (experiment seeds shifted, float64); seeded
illustrations (the heatmap sample) keep their seed, since the pages describe that sample.
Public: figures, content modules, the worker and the tests import it by name.
"""

from __future__ import annotations

import functools
import math
import os
from collections.abc import Callable
from functools import lru_cache
from typing import Any, Protocol

import numpy as np

from attention_explained import runs
from attention_explained.settings import (  # figures read these from here too
    AFTER_SEEDS,
    HEATMAP_DIMS,
    HEATMAP_SEED,
    LENGTH,
    SCALES,
    SWEEP_DIMS,
    SWEEP_SEEDS,
    TRAINING_ADAM_DKS,
    TRAINING_EVERY,
    TRAINING_SEEDS,
    TRAINING_SMOOTH,
)


def per_run(compute):
    """Cache ``compute(run)`` for each run; the result is called with no arguments and
    computes for :func:`attention_explained.runs.current` (``cache_info`` counts both runs)."""
    cached = lru_cache(maxsize=2)(compute)

    @functools.wraps(compute)
    def for_current_run():
        return cached(runs.current())

    for_current_run.cache_info, for_current_run.cache_clear = cached.cache_info, cached.cache_clear
    return for_current_run


@per_run
def heatmaps(run: runs.Run) -> dict:
    """Softmax weights of the note's experiment, with each panel's mean max weight and entropy."""
    from attention_explained import attention_entropy, make_dot_product_tensor, max_weight
    from attention_explained._tf import tf
    from attention_explained.stats import scale_factor

    panels = {}
    for dim in HEATMAP_DIMS:
        raw = make_dot_product_tensor(LENGTH, dim, seed=HEATMAP_SEED, dtype=run.dtype)
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


@per_run
def sweep(run: runs.Run) -> dict[str, np.ndarray]:
    from attention_explained import saturation_sweep

    seeds = run.seeds(SWEEP_SEEDS)
    return saturation_sweep(SWEEP_DIMS, length=LENGTH, seeds=seeds, scales=SCALES, dtype=run.dtype)


def sweep_series(data: dict[str, np.ndarray], scale: str, metric: str):
    """(dims, mean, std) of one metric for one scaling rule."""
    rows = data["scale"] == scale
    return data["dim"][rows], data[f"{metric}_mean"][rows], data[f"{metric}_std"][rows]


def moving_average(curves: np.ndarray, window: int = TRAINING_SMOOTH) -> np.ndarray:
    """Each ``[seed, step]`` curve smoothed: step s is the mean of steps max(0, s − window + 1) … s.

    The training figures draw it and the training page quotes where it first drops below a loss.
    """
    total = np.cumsum(curves, axis=-1)
    count = np.arange(1, curves.shape[-1] + 1)
    width = np.minimum(count, window)
    before = np.pad(total, ((0, 0), (1, 0)))[:, count - width]  # sum of the steps before it
    return (total - before) / width


def logit_variances(dims: tuple[int, ...], seeds: tuple[int, ...]) -> dict[str, np.ndarray]:
    """Sample variance and std of the note's q·k entries at each width, pooled over ``seeds``.

    ``raw``/``std`` are unscaled, ``scaled`` is after ÷√d, ``theory`` is 9d. The logit-variance
    figure plots them; the scaled-dot-product page and the figures' claims quote them.
    ``seeds`` are the build's; the current run shifts them and sets the precision.
    """
    run = runs.current()
    return _logit_variances(tuple(dims), run.seeds(seeds), run.dtype)


@lru_cache(maxsize=32)
def _logit_variances(dims: tuple[int, ...], seeds: tuple[int, ...], dtype: str) -> dict:
    from attention_explained import logit_variance, make_dot_product_tensor

    raw, scaled, std = [], [], []
    for dim in dims:
        entries = np.concatenate(
            [
                make_dot_product_tensor(LENGTH, int(dim), seed=s, dtype=dtype).numpy().ravel()
                for s in seeds
            ]
        )
        raw.append(entries.var())
        scaled.append((entries / math.sqrt(dim)).var())
        std.append(entries.std())
    theory = np.array([logit_variance(int(d)) for d in dims])
    return {
        "dim": np.asarray(dims),
        "raw": np.array(raw),
        "scaled": np.array(scaled),
        "std": np.array(std),
        "theory": theory,
    }


EXPERIMENT_LOG = "ATTENTION_EXPLAINED_EXPERIMENT_LOG"


class Keeper(Protocol):
    """Where finished experiments are kept between processes (the asset step's cache:
    ``sitebuild._internal.experiments``)."""

    def load(self, name: str, run: runs.Run) -> Any | None: ...

    def save(self, name: str, run: runs.Run, result: Any) -> None: ...


# Set by the asset step for the time it computes; None: every process runs its experiments.
KEEPER: Keeper | None = None


def kept_or_run(name: str, run: runs.Run, compute: Callable[[], Any]) -> Any:
    """``compute()``, or what :data:`KEEPER` kept of experiment ``name`` for ``run``."""
    keeper = KEEPER
    if keeper is not None:
        found = keeper.load(name, run)
        if found is not None:
            return found
    _log_run(name)
    result = compute()
    if keeper is not None:
        keeper.save(name, run, result)
    return result


def _log_run(name: str) -> None:
    """Append ``name`` to the file ``$ATTENTION_EXPLAINED_EXPERIMENT_LOG`` names, if set: how a
    test counts the experiment runs a build makes (a claim or number edit must make none)."""
    path = os.environ.get(EXPERIMENT_LOG)
    if path:
        with open(path, "a", encoding="utf-8") as log:
            log.write(name + "\n")


@per_run
def training(run: runs.Run) -> dict[str, dict[str, np.ndarray]]:
    """The training comparison, run once per process: the SGD grid and Adam at d_k = 1024."""
    from attention_explained.training import run_grid

    seeds, dtype = run.seeds(TRAINING_SEEDS), run.dtype
    return kept_or_run(
        "training",
        run,
        lambda: {
            "sgd": run_grid(seeds=seeds, dtype=dtype),
            "adam": run_grid(dks=TRAINING_ADAM_DKS, optimizer="adam", seeds=seeds, dtype=dtype),
        },
    )


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
    count = np.arange(1, curves.shape[-1] + 1)
    smooth = moving_average(curves)
    if log:
        smooth = 10.0**smooth
    keep = np.unique(np.append(np.arange(0, curves.shape[-1], TRAINING_EVERY), count[-1] - 1))
    smooth = smooth[:, keep]
    return runs["step"][keep], np.median(smooth, axis=0), smooth.min(axis=0), smooth.max(axis=0)


@per_run
def after_training(run: runs.Run) -> dict[str, np.ndarray]:
    """Both after-training experiments (LR sweep and spread), run once per process."""
    from attention_explained.after_training import run as run_after

    return kept_or_run(
        "after-training", run, lambda: run_after(seeds=run.seeds(AFTER_SEEDS), dtype=run.dtype)
    )


@per_run
def many_keys(run: runs.Run) -> dict[str, dict[str, np.ndarray]]:
    """One query against n keys at d_k = 64, ÷√d_k, by component range (beyond page, figure)."""
    from attention_explained.in_practice import many_keys as measure
    from attention_explained.settings import MANY_KEYS_HALF_WIDTHS, MANY_KEYS_SEEDS

    seeds = run.seeds(MANY_KEYS_SEEDS)
    return {
        name: measure(half_width=half_width, seeds=seeds)
        for name, half_width in MANY_KEYS_HALF_WIDTHS.items()
    }


@per_run
def initialisation(run: runs.Run) -> dict:
    """What real layers start with (docs/initialisation.md): every measurement, once per run."""
    from attention_explained import initialisation as init
    from attention_explained.settings import INIT_SEEDS

    return kept_or_run(
        "initialisation", run, lambda: init.grid(seeds=run.seeds(INIT_SEEDS), dtype=run.dtype)
    )
