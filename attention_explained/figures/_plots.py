"""Small plotting helpers that more than one figure uses."""

from __future__ import annotations

import numpy as np

from attention_explained.figures import _data
from attention_explained.figures.strings import text
from attention_explained.figures.style import mixed_font


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
    label = text("common", "dim", lang)
    ax.set_xlabel(label, **mixed_font(label))
    ax.grid(True, lw=0.5)


def band_legend(fig, ax, title: str, pal, *, frameon: bool | None = None) -> None:
    """One legend in a row under the panels, titled (muted) with what the bands summarise.

    ``frameon=None`` keeps the theme's legend frame.
    """
    handles, labels = ax.get_legend_handles_labels()
    legend = fig.legend(
        handles,
        labels,
        loc="outside lower center",
        ncol=len(labels),
        frameon=frameon,
        title=title,
        title_fontsize=9,
    )
    legend.get_title().set_color(pal.muted)


def sweep_legend(fig, ax, lang: str, pal) -> None:
    """One legend under both panels, titled with what the bands summarise."""
    title = text("common", "seeds", lang, n=len(_data.SWEEP_SEEDS))
    band_legend(fig, ax, title, pal, frameon=False)


TRAINING_COLOUR = {"none": "none", "sqrt": "sqrt", "qknorm": "unit"}  # scaling → palette series


def training_panels(figure_id: str, runs, metric: str, lang: str, pal, *, log_y: bool = False):
    """One panel per d_k of ``metric`` against step: median over seeds with a min–max band."""
    import matplotlib.pyplot as plt
    from matplotlib.ticker import NullLocator

    fig, axes = plt.subplots(1, 3, figsize=(10, 3.9), sharey=True, layout="constrained")
    for ax, dk in zip(axes, runs["d_k"].tolist(), strict=True):
        for scaling in runs["scaling"]:
            steps, mid, low, high = _data.training_band(runs, metric, dk, scaling, log=log_y)
            colour = pal.series[TRAINING_COLOUR[scaling]]
            ax.fill_between(steps, low, high, color=colour, alpha=0.2, lw=0)
            ax.plot(steps, mid, color=colour, lw=1.6, label=text(figure_id, scaling, lang))
        if log_y:
            ax.set_yscale("log")
            ax.yaxis.set_minor_locator(NullLocator())  # 150 tick marks would cost ~15 KB
        ax.set_title(text(figure_id, "panel", lang, d=dk))
        ax.set_xticks(range(0, len(runs["step"]) + 1, 100))
        ax.grid(True, lw=0.5)
    axes[1].set_xlabel(text(figure_id, "step", lang))
    ylabel = text(figure_id, "ylabel", lang)
    axes[0].set_ylabel(ylabel, **mixed_font(ylabel))
    band_legend(fig, axes[0], text(figure_id, "band", lang, n=len(runs["seed"])), pal)
    title = text(figure_id, "title", lang)
    fig.suptitle(title, fontweight="bold", **mixed_font(title))
    return fig, axes
