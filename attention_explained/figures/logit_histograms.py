from __future__ import annotations

import math

import matplotlib.pyplot as plt
import numpy as np

from attention_explained.figures import _data
from attention_explained.figures.registry import figure
from attention_explained.figures.strings import text
from attention_explained.figures.style import mixed_font, themed

ID = "logit-histograms"
BINS_PER_STD = 5  # bin width = theoretical std / 5 in every panel
REACH = 4.2  # x-axis: ±4.2 theoretical std of the wider panel in each column


def logits() -> dict:
    """The note's logits A·Bᵀ at d = 10 and 1024, pooled over the site's seeds, with theory.

    The same 30×30 samples the prose's variance numbers use (``std.measured.d<d>``).
    """
    from attention_explained import logit_variance, make_dot_product_tensor

    out = {}
    for dim in _data.HEATMAP_DIMS:
        raw = np.concatenate(
            [
                make_dot_product_tensor(_data.LENGTH, dim, seed=s).numpy().ravel()
                for s in _data.SWEEP_SEEDS
            ]
        )
        out[dim] = {"raw": raw, "sqrt": raw / math.sqrt(dim), "theory": logit_variance(dim)}
    return out


def theory_std(data: dict, dim: int, column: str) -> float:
    """3√d raw, 3 after ÷√d."""
    std = math.sqrt(data[dim]["theory"])
    return std if column == "raw" else std / math.sqrt(dim)


@figure(
    ID,
    description="Histograms of the note's logits at d = 10 and 1024, raw and ÷√d, std marked",
    data=logits,
)
def draw(data, lang: str, theme: str):
    dims, columns = _data.HEATMAP_DIMS, ("raw", "sqrt")
    with themed(theme) as pal:
        fig, axes = plt.subplots(
            len(dims), 2, figsize=(7.4, 5.8), layout="constrained", sharex="col", squeeze=False
        )
        for c, column in enumerate(columns):
            reach = REACH * max(theory_std(data, d, column) for d in dims)
            colour = pal.series["none" if column == "raw" else "sqrt"]
            for r, dim in enumerate(dims):
                ax, values = axes[r, c], data[dim][column]
                sigma = theory_std(data, dim, column)
                edges = np.arange(-REACH * sigma, REACH * sigma + 1e-9, sigma / BINS_PER_STD)
                ax.hist(
                    values,
                    bins=edges,
                    density=True,
                    histtype="stepfilled",
                    color=colour,
                    alpha=0.35,
                    lw=0,
                )
                ax.hist(values, bins=edges, density=True, histtype="step", color=colour, lw=1.2)
                peak = np.histogram(values, bins=edges, density=True)[0].max()
                ax.vlines([-sigma, sigma], 0, 1.04 * peak, color=pal.text, ls="--", lw=1.0)
                label = text(ID, f"sigma_{column}", lang)
                note = text(
                    ID, "measured", lang, theory=label, sigma=sigma, std=float(np.std(values))
                )
                ax.text(
                    0.98,
                    0.95,
                    note,
                    transform=ax.transAxes,
                    ha="right",
                    va="top",
                    fontsize=10.5,
                    color=pal.text,
                    **mixed_font(note),
                )
                ax.set_xlim(-reach, reach)
                ax.set_ylim(0, 1.6 * peak)  # room for the note above the bars
                ax.set_yticks([])
                ax.spines["left"].set_visible(False)
                ax.grid(True, axis="x", lw=0.5)
                if r == 0:
                    head = text(ID, f"col_{column}", lang)
                    ax.set_title(head, fontweight="bold", **mixed_font(head))
                if c == 0:
                    row = text(ID, "row", lang, d=dim)
                    ax.set_ylabel(row, **mixed_font(row))
            axes[-1, c].set_xlabel(text(ID, "xlabel", lang))
        title = text(ID, "title", lang)
        fig.suptitle(title, fontweight="bold", **mixed_font(title))
        sub = text(
            ID,
            "subtitle",
            lang,
            n=_data.LENGTH,
            seeds=len(_data.SWEEP_SEEDS),
            total=_data.LENGTH**2 * len(_data.SWEEP_SEEDS),
        )
        fig.supxlabel(sub, fontsize=10, color=pal.muted, **mixed_font(sub))
    return fig
