"""The sweep-and-keras notebook (docs/notebooks/sweep-and-keras.md): what it prints."""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np

from attention_explained import runs
from attention_explained.content.registry import Number, claim, numbers
from attention_explained.settings import PROSE_SEEDS

NOTEBOOK_SWEEP_DIMS = (4, 64, 1024)  # docs/notebooks/sweep-and-keras.md, its first code cell
NOTEBOOK_SWEEP_SEEDS = PROSE_SEEDS  # the notebook sweeps the saturation page's seeds


@numbers
def _notebook_numbers(out: dict[str, str]) -> None:
    """What the sweep-and-keras notebook prints, for the claims its prose makes about it.

    The same calls as the notebook's code cells (the notebook computes them again itself):
    the saturation sweep at d = 4, 64, 1024 with the prose's seeds, and the parameter counts of
    ``keras.layers.MultiHeadAttention(num_heads=4, key_dim=8 or 32)`` on 32-wide inputs.
    """
    import keras

    from attention_explained import saturation_sweep

    run = runs.current()
    table = saturation_sweep(
        list(NOTEBOOK_SWEEP_DIMS), seeds=run.seeds(NOTEBOOK_SWEEP_SEEDS), dtype=run.dtype
    )
    metrics = ("logit_std", "entropy", "max_weight", "jacobian_fro", "grad_norm")
    for i, (dim, scale) in enumerate(zip(table["dim"], table["scale"], strict=True)):
        for metric in metrics:
            out[f"nbsweep.{metric}.d{int(dim)}.{scale}"] = Number(table[f"{metric}_mean"][i], ".3f")
    x = np.zeros((2, 5, 32), dtype="float32")
    for key_dim in (8, 32):
        layer = keras.layers.MultiHeadAttention(num_heads=4, key_dim=key_dim)
        layer(x, x)
        out[f"nbkeras.params.key_dim{key_dim}"] = str(layer.count_params())
    out["nbkeras.num_heads"] = "4"


_NB_DIMS = (4, 64, 1024)


def _nb(v: Mapping[str, float], metric: str, dim: int, scale: str) -> float:
    return v[f"nbsweep.{metric}.d{dim}.{scale}"]


@claim(
    "notebooks.sweep.unscaled_collapses",
    statement="without a divisor, from d = 4 to 64 to 1024 the entropy falls, the max weight "
    "rises, ‖J‖_F and the gradient fall; at d = 1024 they are < 0.1, > 0.95, < 0.05, < 0.05",
    counterexample={"nbsweep.grad_norm.d1024.none": 0.5},
)
def _nb_unscaled(v: Mapping[str, float]) -> bool:
    def series(metric: str) -> list[float]:
        return [_nb(v, metric, d, "none") for d in _NB_DIMS]

    e, m, j, g = (series(k) for k in ("entropy", "max_weight", "jacobian_fro", "grad_norm"))
    return (
        e[0] > e[1] > e[2]
        and m[0] < m[1] < m[2]
        and j[0] > j[1] > j[2]
        and g[0] > g[1] > g[2]
        and e[2] < 0.1
        and j[2] < 0.05
        and g[2] < 0.05
        and m[2] > 0.95
    )


@claim(
    "notebooks.sweep.scaled_rows_flat",
    statement="divided by √d or 3√d, each metric (entropy, max weight, ‖J‖_F, gradient) stays "
    "within 1.3× of its smallest value across d = 4, 64, 1024",
    counterexample={"nbsweep.entropy.d1024.sqrt": 0.2},
)
def _nb_flat(v: Mapping[str, float]) -> bool:
    for scale in ("sqrt", "unit"):
        for metric in ("entropy", "max_weight", "jacobian_fro", "grad_norm"):
            xs = [_nb(v, metric, d, scale) for d in _NB_DIMS]
            if max(xs) >= 1.3 * min(xs):
                return False
    return True


@claim(
    "notebooks.sweep.sqrt_jacobian_above_uniform",
    statement="with ÷√d, ‖J‖_F is above its value for uniform weights, √(n−1)/n, at every d",
    counterexample={"nbsweep.jacobian_fro.d64.sqrt": 0.1},
)
def _nb_jacobian(v: Mapping[str, float]) -> bool:
    return all(
        _nb(v, "jacobian_fro", d, "sqrt") > v["theory.jacobian_fro_uniform"] for d in _NB_DIMS
    )


@claim(
    "notebooks.sweep.key_dim_d_model_times_h_params",
    statement="key_dim = 32 (= d_model) gives about h = 4 times the parameters of key_dim = 8 "
    "(within 10%)",
    counterexample={"nbkeras.params.key_dim32": 8448.0},
)
def _nb_params(v: Mapping[str, float]) -> bool:
    ratio = v["nbkeras.params.key_dim32"] / v["nbkeras.params.key_dim8"]
    return abs(ratio / v["nbkeras.num_heads"] - 1) < 0.1
