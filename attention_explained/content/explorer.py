"""The explorer page: its claims read the shared sweep (``content/shared.py``)."""

from __future__ import annotations

from collections.abc import Mapping

from attention_explained.content.registry import claim, hi, lo, overlap


def _lo(v: Mapping[str, float], metric: str, dim: int, scale: str) -> float:
    """The smallest single-seed value of a sweep number (the pages print its seed range)."""
    return lo(v, f"sweep.{metric}.d{dim}.{scale}")


def _hi(v: Mapping[str, float], metric: str, dim: int, scale: str) -> float:
    return hi(v, f"sweep.{metric}.d{dim}.{scale}")


@claim(
    "explorer.unscaled_saturates_as_d_grows",
    statement="without scaling, from d = 10 to d = 1024, on every seed, the max weight rises to "
    "above 0.9, the entropy falls to below 0.2 nats and ‖J‖_F falls to below 0.1 (the printed "
    "ranges at d = 1024 lie beyond those at d = 10)",
    counterexample={"sweep.max_weight.d1024.none": 0.5},
)
def _explorer_unscaled(v: Mapping[str, float]) -> bool:
    return (
        _lo(v, "max_weight", 1024, "none") > max(0.9, _hi(v, "max_weight", 10, "none"))
        and _hi(v, "entropy", 1024, "none") < min(0.2, _lo(v, "entropy", 10, "none"))
        and _hi(v, "jacobian_fro", 1024, "none") < min(0.1, _lo(v, "jacobian_fro", 10, "none"))
    )


@claim(
    "explorer.sqrt_hardly_moves_with_d",
    statement="with ÷√d the max weight, entropy and ‖J‖_F move so little between d = 10 and "
    "d = 1024 that each one's seed range at d = 10 overlaps its range at d = 1024, while "
    "without scaling the two ranges are apart; the max weight stays above 0.4 (peaked)",
    counterexample={"sweep.entropy.d1024.sqrt": 0.5},
)
def _explorer_sqrt(v: Mapping[str, float]) -> bool:
    def name(metric: str, dim: int, scale: str) -> str:
        return f"sweep.{metric}.d{dim}.{scale}"

    metrics = ("max_weight", "entropy", "jacobian_fro")
    return (
        all(overlap(v, name(m, 10, "sqrt"), name(m, 1024, "sqrt")) for m in metrics)
        and not any(overlap(v, name(m, 10, "none"), name(m, 1024, "none")) for m in metrics)
        and min(_lo(v, "max_weight", d, "sqrt") for d in (10, 1024)) > 0.4
    )


@claim(
    "explorer.unit_spreads_weights",
    statement="with ÷σ²√d, at d = 10 and 1024, the entropy is higher (above 80% of log n) and "
    "the max weight lower than with ÷√d, and ‖J‖_F is a little smaller than with ÷√d "
    "(between 60% and 100% of it) but above its value for uniform weights",
    counterexample={"sweep.jacobian_fro.d1024.unit": 0.4},
)
def _explorer_unit(v: Mapping[str, float]) -> bool:
    return all(
        _lo(v, "entropy", d, "unit") > max(_hi(v, "entropy", d, "sqrt"), 0.8 * v["theory.log_n"])
        and _hi(v, "max_weight", d, "unit") < _lo(v, "max_weight", d, "sqrt")
        and 0.6 * _hi(v, "jacobian_fro", d, "sqrt")
        < _lo(v, "jacobian_fro", d, "unit")
        <= _hi(v, "jacobian_fro", d, "unit")
        < _lo(v, "jacobian_fro", d, "sqrt")
        and _lo(v, "jacobian_fro", d, "unit") > v["theory.jacobian_fro_uniform"]
        for d in (10, 1024)
    )
