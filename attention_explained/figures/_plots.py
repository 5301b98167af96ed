"""Small plotting helpers that more than one figure uses."""

from __future__ import annotations

import numpy as np

from attention_explained.figures import _data
from attention_explained.figures.strings import text


def sweep_panel(ax, data, metric: str, lang: str, pal, *, log_y: bool = False) -> None:
    """One metric against d for the three scaling rules, mean line with a ±std band."""
    for scale, marker in zip(_data.SCALES, ("o", "s", "^"), strict=True):
        dims, mean, std = _data.sweep_series(data, scale, metric)
        colour = pal.series[scale]
        ax.plot(
            dims,
            mean,
            marker=marker,
            ms=4.5,
            lw=1.6,
            color=colour,
            label=text("common", scale, lang),
        )
        low = np.maximum(mean - std, mean * 0.05) if log_y else mean - std
        ax.fill_between(dims, low, mean + std, color=colour, alpha=0.18, lw=0)
    ax.set_xscale("log", base=2)
    ticks = _data.SWEEP_DIMS[::2]
    ax.set_xticks(ticks, [str(d) for d in ticks])
    if log_y:
        ax.set_yscale("log")
    ax.set_xlabel(text("common", "dim", lang))
    ax.grid(True, lw=0.5)


def sweep_legend(fig, ax, lang: str, pal) -> None:
    """One legend under both panels, titled with what the bands summarise."""
    handles, labels = ax.get_legend_handles_labels()
    legend = fig.legend(
        handles,
        labels,
        loc="outside lower center",
        ncol=len(labels),
        frameon=False,
        title=text("common", "seeds", lang, n=len(_data.SWEEP_SEEDS)),
        title_fontsize=9,
    )
    legend.get_title().set_color(pal.muted)
