"""The heatmaps notebook (docs/notebooks/heatmaps.md): its cells draw the seed-0 tensors of
the saturation page's ``heatmap.*`` numbers, so its claims read those."""

from __future__ import annotations

from collections.abc import Mapping

from attention_explained.content.registry import claim


def _heatmap_range(v: Mapping[str, float], dim: int, scale: str) -> float:
    return v[f"heatmap.max.d{dim}.{scale}"] - v[f"heatmap.min.d{dim}.{scale}"]


@claim(
    "notebooks.heatmaps.sqrt_ranges_alike",
    statement="after ÷√d the logit ranges at d = 10 and d = 1024 are within 1.5× of each "
    "other, while the raw ranges differ by more than 5×",
    counterexample={"heatmap.max.d1024.sqrt": 40.0},
)
def _nb_ranges(v: Mapping[str, float]) -> bool:
    def ratio(scale: str) -> float:
        a, b = _heatmap_range(v, 10, scale), _heatmap_range(v, 1024, scale)
        return max(a, b) / min(a, b)

    return ratio("sqrt") < 1.5 and ratio("none") > 5


@claim(
    "notebooks.heatmaps.raw_d1024_on_one_key",
    statement="unscaled at d = 1024 the mean max weight is above 0.95 and the entropy below "
    "0.1 nats",
    counterexample={"heatmap.max_weight.d1024.none": 0.7},
)
def _nb_raw_one_key(v: Mapping[str, float]) -> bool:
    return v["heatmap.max_weight.d1024.none"] > 0.95 and v["heatmap.entropy.d1024.none"] < 0.1


@claim(
    "notebooks.heatmaps.sqrt_about_half_on_one_key",
    statement="after ÷√d about half of each row's weight is on one key: mean max weight "
    "between 0.4 and 0.65 at d = 10 and d = 1024",
    counterexample={"heatmap.max_weight.d10.sqrt": 0.9},
)
def _nb_sqrt_half(v: Mapping[str, float]) -> bool:
    return all(0.4 < v[f"heatmap.max_weight.d{d}.sqrt"] < 0.65 for d in (10, 1024))
