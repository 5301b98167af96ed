"""The sweep figures' panels: one metric against d for the three scaling rules."""

from __future__ import annotations

import numpy as np

from attention_explained.content import data as experiments
from attention_explained.figures.plots import band_legend
from attention_explained.figures.strings import text
from attention_explained.figures.style import mixed_font

SHARED_STRINGS = {  # what these panels draw: name here → name in figures/strings.py
    "none": "none",
    "sqrt": "sqrt_d",
    "unit": "unit_3sqrt_d",
    "dim": "dim",
    "seeds": "seeds",
}


def sweep_panel(ax, data, metric: str, lang: str, pal, *, log_y: bool = False) -> None:
    """One metric against d for the three scaling rules, mean line with a ±std band."""
    for scale, marker in zip(experiments.SCALES, ("o", "s", "^"), strict=True):
        dims, mean, std = experiments.sweep_series(data, scale, metric)
        colour = pal.series[scale]
        ax.plot(
            dims,
            mean,
            marker=marker,
            ms=4.5,
            lw=1.6,
            color=colour,
            label=text(__name__, scale, lang),
        )
        low = np.maximum(mean - std, mean * 0.05) if log_y else mean - std
        ax.fill_between(dims, low, mean + std, color=colour, alpha=0.18, lw=0)
    ax.set_xscale("log", base=2)
    ticks = experiments.SWEEP_DIMS[::2]
    ax.set_xticks(ticks, [str(d) for d in ticks])
    if log_y:
        ax.set_yscale("log")
    label = text(__name__, "dim", lang)
    ax.set_xlabel(label, **mixed_font(label))
    ax.grid(True, lw=0.5)


def sweep_legend(fig, ax, lang: str, pal) -> None:
    """One legend under both panels, titled with what the bands summarise."""
    title = text(__name__, "seeds", lang, n=len(experiments.SWEEP_SEEDS))
    band_legend(fig, ax, title, pal, frameon=False)
