from __future__ import annotations

import math

import matplotlib.pyplot as plt
import numpy as np

from attention_explained.figures import _data
from attention_explained.figures.registry import figure
from attention_explained.figures.strings import text
from attention_explained.figures.style import legend_font, mixed_font, themed

ID = "logit-variance"


def variance_by_dim() -> dict[str, np.ndarray]:
    """Sample variance of q·k entries, pooled over seeds, raw and ÷√d, with the theory."""
    from attention_explained import logit_variance, make_dot_product_tensor

    dims = np.asarray(_data.SWEEP_DIMS)
    raw, scaled = [], []
    for dim in dims:
        entries = np.concatenate(
            [
                make_dot_product_tensor(_data.LENGTH, int(dim), seed=s).numpy().ravel()
                for s in _data.SWEEP_SEEDS
            ]
        )
        raw.append(entries.var())
        scaled.append((entries / math.sqrt(dim)).var())
    theory = np.array([logit_variance(int(d)) for d in dims])
    return {"dim": dims, "raw": np.array(raw), "scaled": np.array(scaled), "theory": theory}


@figure(
    ID,
    description="Var(q·k) against d: measured vs theory 9d, and flat 9 after ÷√d",
    data=variance_by_dim,
)
def draw(data, lang: str, theme: str):
    with themed(theme) as pal:
        fig, ax = plt.subplots(figsize=(7.2, 4.6), layout="constrained")
        dims = data["dim"]
        ax.loglog(
            dims,
            data["theory"],
            color=pal.series["none"],
            lw=1.4,
            alpha=0.55,
            label=text(ID, "theory_none", lang),
        )
        ax.loglog(
            dims,
            data["theory"] / dims,
            color=pal.series["sqrt"],
            lw=1.4,
            alpha=0.55,
            ls="--",
            label=text(ID, "theory_sqrt", lang),
        )
        ax.loglog(
            dims,
            data["raw"],
            "o",
            color=pal.series["none"],
            ms=6,
            label=text(ID, "measured_none", lang),
        )
        ax.loglog(
            dims,
            data["scaled"],
            "s",
            color=pal.series["sqrt"],
            ms=5.5,
            label=text(ID, "measured_sqrt", lang),
        )
        ax.set_xscale("log", base=2)
        ax.set_xticks(dims[::2], [str(int(d)) for d in dims[::2]])
        xlabel, ylabel = text(ID, "dim", lang), text(ID, "ylabel", lang)
        ax.set_xlabel(xlabel, **mixed_font(xlabel))
        ax.set_ylabel(ylabel, **mixed_font(ylabel))
        ax.grid(True, which="major", lw=0.5)
        ax.legend(loc="upper left", prop=legend_font(ax.get_legend_handles_labels()[1]))
        ax.set_title(text(ID, "title", lang), loc="left", fontweight="bold")
    return fig
