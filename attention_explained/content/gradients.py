"""The gradients page: its claims read the shared sweep (``content/shared.py``)."""

from __future__ import annotations

from collections.abc import Mapping

from attention_explained.content.figures import scaled_gradient_flat
from attention_explained.content.registry import claim
from attention_explained.settings import PROSE_DIMS as WIDTHS


@claim(
    "gradients.unscaled_jacobian_tenfold_smaller",
    statement="unscaled at d = 1024 the mean ‖J‖_F is less than a seventh of its value after ÷√d",
    counterexample={"sweep.jacobian_fro.d1024.none": 0.1},
)
def _jacobian_tenfold(v: Mapping[str, float]) -> bool:
    return 7 * v["sweep.jacobian_fro.d1024.none"] < v["sweep.jacobian_fro.d1024.sqrt"]


@claim(
    "gradients.sharper_sqrt_larger_jacobian",
    statement="÷√d (sharper) has a larger mean ‖J‖_F than ÷(3√d) at d = 10 and d = 1024",
    counterexample={"sweep.jacobian_fro.d10.unit": 0.4},
)
def _sharper_larger(v: Mapping[str, float]) -> bool:
    return all(
        v[f"sweep.jacobian_fro.d{d}.sqrt"] > v[f"sweep.jacobian_fro.d{d}.unit"] for d in WIDTHS
    )


@claim(
    "gradients.unscaled_collapses_scaled_flat",
    statement="unscaled, ‖J‖_F and ‖∂L/∂z‖ fall more than fivefold from d = 10 to d = 1024; "
    "after ÷√d or ÷(3√d) both stay within 30% over the whole plotted range (d = 1 to 4096)",
    counterexample={"figures.sweep_spread.jacobian_fro.unit.all": 0.5},
)
def _collapse_flat(v: Mapping[str, float]) -> bool:
    for metric in ("jacobian_fro", "grad_norm"):
        if not v[f"sweep.{metric}.d1024.none"] * 5 < v[f"sweep.{metric}.d10.none"]:
            return False
    return scaled_gradient_flat(v)
