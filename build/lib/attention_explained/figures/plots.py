"""Small plotting helpers that figures of different groups use (they draw no strings)."""

from __future__ import annotations


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


TRAINING_COLOUR = {"none": "none", "sqrt": "sqrt", "qknorm": "unit"}  # scaling → palette series
