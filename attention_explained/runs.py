"""Which run the experiments come from: the build's, or the independent rerun.

The build trains and samples with the seeds in :mod:`attention_explained.settings`, in
float32. ``python -m attention_explained claims --rerun`` asks whether every claim would
still hold on an *independent* run: every experiment's seeds shifted by
``RERUN.seed_offset`` (so no seed is shared with the build) and float64 wherever the build
runs float32. A seeded illustration (one sample a page shows and describes) keeps its seed
and is only recomputed in float64, since its sentences are about that very sample. The data layer
reads :func:`current` and keys its caches by it; :func:`using` switches it for a block.

Core layer: imports neither matplotlib nor MkDocs.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass


@dataclass(frozen=True)
class Run:
    name: str
    seed_offset: int  # added to every seed of the build
    dtype: str  # "float32" or "float64"

    def seeds(self, seeds: Iterable[int]) -> tuple[int, ...]:
        return tuple(int(s) + self.seed_offset for s in seeds)

    def seed(self, seed: int) -> int:
        return int(seed) + self.seed_offset


BUILD = Run("build", 0, "float32")
# Far above every seed the build uses (the largest is 4294967295 in the explorer's reference
# inputs, which are not experiments and are not rerun).
RERUN = Run("rerun", 1000, "float64")

_current = [BUILD]


def current() -> Run:
    return _current[-1]


@contextmanager
def using(run: Run) -> Iterator[Run]:
    """Compute everything inside the block from ``run``."""
    _current.append(run)
    try:
        yield run
    finally:
        _current.pop()


def describe(run: Run) -> list[str]:
    """What ``run`` computes, experiment by experiment, for the claims command to print."""
    from attention_explained import settings as s

    def seeds(values: Iterable[int]) -> str:
        shifted = run.seeds(values)
        return f"seeds {', '.join(map(str, shifted))}"

    return [
        f"run: {run.name} (seeds shifted by {run.seed_offset}, {run.dtype})",
        f"training, SGD at d_k {s.TRAINING_DKS} and Adam at d_k {s.TRAINING_ADAM_DKS}: "
        f"{seeds(s.TRAINING_SEEDS)}, {run.dtype}",
        f"after training, AdamW sweep and spread: {seeds(s.AFTER_SEEDS)}, {run.dtype}",
        f"saturation sweeps and logit variance: {seeds(s.PROSE_SEEDS)}, {run.dtype}",
        f"notebook sweep: {seeds(range(4))}, {run.dtype}",
        f"many keys: {seeds(s.MANY_KEYS_SEEDS)}, float64; causal entropy and double scaling: "
        f"{seeds(s.PROSE_SEEDS)}, float64; float16 overflow: {seeds(s.FP16_SEEDS)}, float16 "
        "(the experiment's own precision); value_dim: seed 0, float64",
        "seeded illustrations (heatmaps and worked example: seed "
        f"{s.HEATMAP_SEED}; self-attention: seed {s.SELF_ATTENTION_SEED}; temperature: seed "
        f"{s.TEMPERATURE_SEED}): the same samples, since their sentences are about them, "
        f"in {run.dtype}",
    ]
