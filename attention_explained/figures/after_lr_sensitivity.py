from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np

from attention_explained import settings
from attention_explained.figures import _data
from attention_explained.figures._plots import TRAINING_COLOUR, band_legend
from attention_explained.figures.registry import figure
from attention_explained.figures.strings import text
from attention_explained.figures.style import themed

ID = "after-lr-sensitivity"
MARKER = {"none": "o", "sqrt": "s", "qknorm": "^"}


@figure(
    ID,
    description="Final AdamW loss against learning rate for none / ÷√d_k / QK-norm, per d_k",
    data=_data.after_training,
)
def draw(data, lang: str, theme: str):
    rates = data["learning_rate"]
    # each seed's mean loss over its last steps: [d_k, scaling, lr, seed]
    final = data["loss"][..., -settings.AFTER_FINAL :].mean(-1)
    with themed(theme) as pal:
        fig, axes = plt.subplots(
            1, len(data["sweep_d_k"]), figsize=(9.6, 4.1), sharey=True, layout="constrained"
        )
        for ax, i in zip(axes, range(len(data["sweep_d_k"])), strict=True):
            for k, scaling in enumerate(data["sweep_scaling"]):
                colour = pal.series[TRAINING_COLOUR[scaling]]
                runs = final[i, k]
                ax.fill_between(rates, runs.min(-1), runs.max(-1), color=colour, alpha=0.18, lw=0)
                ax.plot(
                    rates,
                    np.median(runs, -1),
                    marker=MARKER[scaling],
                    ms=5,
                    lw=1.6,
                    color=colour,
                    label=text(ID, scaling, lang),
                )
            ax.set_xscale("log")
            ax.set_title(text(ID, "panel", lang, d=int(data["sweep_d_k"][i])))
            ax.set_xlabel(text(ID, "lr", lang))
            ax.grid(True, lw=0.5)
        axes[0].set_ylim(bottom=0)
        axes[0].set_ylabel(text(ID, "ylabel", lang, n=settings.AFTER_FINAL))
        band_legend(fig, axes[0], text(ID, "band", lang, n=len(data["seed"])), pal)
        fig.suptitle(text(ID, "title", lang), fontweight="bold")
    return fig
