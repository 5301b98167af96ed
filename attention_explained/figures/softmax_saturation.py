from __future__ import annotations

import math

import matplotlib.pyplot as plt

from attention_explained.figures import _data
from attention_explained.figures._plots import sweep_legend, sweep_panel
from attention_explained.figures.registry import figure
from attention_explained.figures.strings import text
from attention_explained.figures.style import themed

ID = "softmax-saturation"


@figure(
    ID, description="Row entropy and max weight against d, for none / √d / unit", data=_data.sweep
)
def draw(data, lang: str, theme: str):
    n = _data.LENGTH
    with themed(theme) as pal:
        fig, (left, right) = plt.subplots(1, 2, figsize=(10, 4.3), layout="constrained")
        sweep_panel(left, data, "entropy", lang, pal)
        left.axhline(math.log(n), color=pal.muted, ls=":", lw=1.2)
        left.text(
            1,
            math.log(n) - 0.05,
            text(ID, "uniform", lang, n=n),
            color=pal.muted,
            va="top",
            fontsize=9,
        )
        left.set_ylim(-0.1, math.log(n) + 0.15)
        left.set_ylabel(text(ID, "entropy", lang))
        sweep_panel(right, data, "max_weight", lang, pal)
        right.axhline(1 / n, color=pal.muted, ls=":", lw=1.2)
        right.text(
            1,
            1 / n + 0.02,
            text(ID, "uniform_max", lang, n=n),
            color=pal.muted,
            va="bottom",
            fontsize=9,
        )
        right.set_ylim(0, 1.04)
        right.set_ylabel(text(ID, "max_weight", lang))
        sweep_legend(fig, right, lang, pal)
        fig.suptitle(text(ID, "title", lang, n=n), fontweight="bold")
    return fig
