"""The training figures' panels: one metric against step, one panel per d_k (SGD grid)."""

from __future__ import annotations

from attention_explained.content import data as experiments
from attention_explained.figures.plots import TRAINING_COLOUR, band_legend
from attention_explained.figures.strings import text
from attention_explained.figures.style import mixed_font, narrow, panels

SHARED_STRINGS = {  # what these panels draw: name here → name in figures/strings.py
    "none": "none",
    "sqrt": "sqrt_dk_math",
    "qknorm": "qknorm",
    "panel": "panel_dk",
    "step": "step",
    "band": "band_sgd",
}


def training_panels(figure_id: str, runs, metric: str, lang: str, pal, *, log_y: bool = False):
    """One panel per d_k of ``metric`` against step: median over seeds with a min–max band."""
    from matplotlib.ticker import NullLocator

    fig, axes = panels(1, 3, figsize=(10, 3.9), sharey=True, layout="constrained")
    for ax, dk in zip(axes, runs["d_k"].tolist(), strict=True):
        for scaling in runs["scaling"]:
            steps, mid, low, high = experiments.training_band(runs, metric, dk, scaling, log=log_y)
            colour = pal.series[TRAINING_COLOUR[scaling]]
            ax.fill_between(steps, low, high, color=colour, alpha=0.2, lw=0)
            ax.plot(steps, mid, color=colour, lw=1.6, label=text(__name__, scaling, lang))
        if log_y:
            ax.set_yscale("log")
            ax.yaxis.set_minor_locator(NullLocator())  # 150 tick marks would cost ~15 KB
        ax.set_title(text(__name__, "panel", lang, d=dk))
        ax.set_xticks(range(0, len(runs["step"]) + 1, 100))
        ax.grid(True, lw=0.5)
    axes[-1 if narrow() else 1].set_xlabel(text(__name__, "step", lang))
    ylabel = text(figure_id, "ylabel", lang)
    for ax in axes if narrow() else axes[:1]:  # stacked panels each have their own y-axis
        ax.set_ylabel(ylabel, **mixed_font(ylabel))
    band_legend(fig, axes[0], text(__name__, "band", lang, n=len(runs["seed"])), pal)
    title = text(figure_id, "title", lang)
    fig.suptitle(title, fontweight="bold", **mixed_font(title))
    return fig, axes
