from __future__ import annotations

import math

from attention_explained.figures import _data
from attention_explained.figures._plots import training_panels
from attention_explained.figures.registry import figure
from attention_explained.figures.strings import text
from attention_explained.figures.style import themed

ID = "training-entropy"


@figure(
    ID,
    description="Mean attention entropy against step for none / ÷√d_k / QK-norm, per d_k (SGD)",
    data=_data.training,
)
def draw(data, lang: str, theme: str):
    runs = data["sgd"]
    with themed(theme) as pal:
        fig, axes = training_panels(ID, runs, "entropy", lang, pal)
        n = int(runs["n_items"])
        for ax in axes:
            ax.axhline(math.log(n), color=pal.muted, ls=":", lw=1.2)
        axes[-1].text(
            runs["step"][-1],
            math.log(n) - 0.06,
            text(ID, "uniform", lang, n=n),
            color=pal.muted,
            ha="right",
            va="top",
            fontsize=9,
        )
        axes[0].set_ylim(-0.05, math.log(n) + 0.15)
    return fig
