from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np

from attention_explained.figures import _data
from attention_explained.figures.registry import figure
from attention_explained.figures.strings import text
from attention_explained.figures.style import themed
from attention_explained.fits import divisor, log_slope  # not after_training: no TensorFlow

ID = "after-spread"


@figure(
    ID,
    description="Logit std against d_k before and after training, ÷√d_k vs ÷d_k (log-log, "
    "with fitted slopes), and the matched query–key cosine",
    data=_data.after_training,
)
def draw(data, lang: str, theme: str):
    dks = data["spread_d_k"]
    with themed(theme) as pal:
        fig, axes = plt.subplots(1, 3, figsize=(11, 4.2), layout="constrained")
        axes[1].sharey(axes[0])  # one scale for both divisors: the levels compare directly
        colours = {"sqrt": pal.series["sqrt"], "mup": pal.accent}
        for k, scaling in enumerate(data["spread_scaling"]):
            ax = axes[k]
            scale = np.array([divisor(scaling, int(d)) for d in dks])
            for when, style, marker in (("init", "--", "o"), ("final", "-", "s")):
                runs = data[f"spread_std_{when}"][:, k] / scale[:, None]  # [d_k, seed]
                mid = np.median(runs, -1)
                slope = log_slope(dks, mid)
                ax.plot(
                    dks,
                    mid,
                    ls=style,
                    marker=marker,
                    ms=5,
                    lw=1.6,
                    color=colours[scaling],
                    label=text(ID, when, lang, a=f"{slope:+.2f}".replace("-", "\u2212")),
                )
                cos = np.median(data[f"spread_cosine_{when}"][:, k], -1)
                axes[2].plot(
                    dks,
                    cos,
                    ls=style,
                    marker=marker,
                    ms=5,
                    lw=1.6,
                    color=colours[scaling],
                    label=text(ID, f"cos_{when}", lang, s=text(ID, scaling, lang)),
                )
            ax.set_yscale("log")
            ax.set_title(text(ID, f"panel_{scaling}", lang))
            ax.legend(loc="best", title=text(ID, "slope", lang), title_fontsize=9)
        axes[0].set_ylabel(text(ID, "ylabel", lang))
        axes[2].set_title(text(ID, "panel_cos", lang))
        axes[2].set_ylim(-0.1, 1.0)
        axes[2].axhline(0, color=pal.muted, lw=0.8)
        axes[2].legend(loc="center right", fontsize=8.5)
        for ax in axes:
            ax.set_xscale("log", base=2)
            ax.set_xticks(dks, [str(int(d)) for d in dks])
            ax.minorticks_off()
            ax.set_xlabel(text(ID, "dk", lang))
            ax.grid(True, lw=0.5)
        fig.suptitle(text(ID, "title", lang, n=len(data["seed"])), fontweight="bold")
    return fig
