"""The explorer page: its claims read the shared sweep (``content/shared.py``)."""

from __future__ import annotations

from collections.abc import Mapping

from attention_explained.content.registry import claim


def _sweep(v: Mapping[str, float], metric: str, dim: int, scale: str) -> float:
    return v[f"sweep.{metric}.d{dim}.{scale}"]


@claim(
    "explorer.unscaled_saturates_as_d_grows",
    statement="without scaling, from d = 10 to d = 1024 the max weight rises to above 0.95, "
    "the entropy falls to below 0.1 nats and ‖J‖_F falls to below 0.05",
    counterexample={"sweep.max_weight.d1024.none": 0.5},
)
def _explorer_unscaled(v: Mapping[str, float]) -> bool:
    return (
        _sweep(v, "max_weight", 1024, "none") > max(0.95, _sweep(v, "max_weight", 10, "none"))
        and _sweep(v, "entropy", 1024, "none") < min(0.1, _sweep(v, "entropy", 10, "none"))
        and _sweep(v, "jacobian_fro", 1024, "none")
        < min(0.05, _sweep(v, "jacobian_fro", 10, "none"))
    )


@claim(
    "explorer.sqrt_hardly_moves_with_d",
    statement="with ÷√d the max weight, entropy and ‖J‖_F each change between d = 10 and "
    "d = 1024 by less than half their unscaled change, and the max weight stays above "
    "0.4 (peaked)",
    counterexample={"sweep.entropy.d1024.sqrt": 0.5},
)
def _explorer_sqrt(v: Mapping[str, float]) -> bool:
    def moves(metric: str, scale: str) -> float:
        return abs(_sweep(v, metric, 1024, scale) - _sweep(v, metric, 10, scale))

    return (
        all(
            moves(m, "sqrt") < 0.5 * moves(m, "none")
            for m in ("max_weight", "entropy", "jacobian_fro")
        )
        and min(_sweep(v, "max_weight", d, "sqrt") for d in (10, 1024)) > 0.4
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
        _sweep(v, "entropy", d, "unit")
        > max(_sweep(v, "entropy", d, "sqrt"), 0.8 * v["theory.log_n"])
        and _sweep(v, "max_weight", d, "unit") < _sweep(v, "max_weight", d, "sqrt")
        and 0.6 * _sweep(v, "jacobian_fro", d, "sqrt")
        < _sweep(v, "jacobian_fro", d, "unit")
        < _sweep(v, "jacobian_fro", d, "sqrt")
        and _sweep(v, "jacobian_fro", d, "unit") > v["theory.jacobian_fro_uniform"]
        for d in (10, 1024)
    )
