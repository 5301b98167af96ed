from __future__ import annotations

import math

import numpy as np
from matplotlib.ticker import NullLocator

from attention_explained import settings
from attention_explained.content import data as experiments
from attention_explained.figures.plots import TRAINING_COLOUR, band_legend
from attention_explained.figures.registry import figure
from attention_explained.figures.strings import text
from attention_explained.figures.style import narrow, panels, themed

NARROW = True  # drawn for a phone's column too (style.panels)
ID = "after-max-logit"
STRINGS = {
    "alt": {
        "ko": "네 패널. 학습 스텝에 따른 가장 큰 로짓(로그 축)과 어텐션 엔트로피를 "
        "낮은 학습률과 높은 학습률에서 그렸고, 학습률은 패널 제목에 있다. 높은 "
        "학습률에서 ÷√dₖ와 스케일링 없음의 가장 큰 로짓은 수천까지 치솟고 엔트로피는 "
        "0 가까이 무너진다. QK 정규화의 로짓은 두 학습률 모두에서 수십 아래에 머문다.",
        "en": "Four panels: the largest logit against step (log axis) and the attention "
        "entropy, at a low and a high learning rate named in the panel titles. At the high "
        "rate the largest logit of ÷√d_k and of no scaling "
        "shoots up into the thousands and the entropy collapses close to 0. QK-norm's "
        "logits stay below a few tens at both rates.",
    },
    "panel": {"ko": "학습률 {lr}", "en": "learning rate {lr}"},
    "ylabel_logit": {
        "ko": "배치에서 가장 큰 로짓 (로그 축)",
        "en": "largest logit in the batch (log scale)",
    },
    "title": {
        "ko": "학습률별 가장 큰 로짓과 엔트로피 (dₖ = {d})",
        "en": "Largest logit and entropy by learning rate (dₖ = {d})",
    },
}
SHARED_STRINGS = {
    "none": "none",
    "sqrt": "sqrt_dk",
    "qknorm": "qknorm",
    "band": "band_adamw",
    "step": "step",
    "uniform": "uniform_log",
    "ylabel_entropy": "row_entropy",
}
ALT_CLAIMS = ("figures.after_max_logit_runaway",)
EVERY = 5  # one point per 5 steps: the curves stay readable, the SVG under 120 KB
WINDOW = {"max_logit": np.max, "entropy": np.mean}  # a window's point keeps its peak logit


@figure(
    ID,
    description="Largest logit and attention entropy against step at a low and a high "
    "AdamW learning rate, for none / ÷√d_k / QK-norm at the sweep's largest d_k",
    data=experiments.after_training,
)
def draw(data, lang: str, theme: str):
    i = int(np.argmax(data["sweep_d_k"]))
    rates = list(data["learning_rate"])
    chosen = [rates.index(settings.AFTER_LOW_LR), len(rates) - 1]
    steps = data["step"][::EVERY]
    n = int(data["n_items"])
    with themed(theme) as pal:
        fig, axes = panels(
            2,
            2,
            figsize=(9.6, 6.4),
            sharex=True,
            sharey="row",
            order="col",
            layout="constrained",
        )
        for col, j in enumerate(chosen):
            for k, scaling in enumerate(data["sweep_scaling"]):
                colour = pal.series[TRAINING_COLOUR[scaling]]
                label = text(ID, scaling, lang)
                for row, metric in enumerate(("max_logit", "entropy")):
                    runs = data[metric][i, k, j]  # [seed, step]
                    windows = runs.reshape(len(runs), len(steps), EVERY)
                    curves = WINDOW[metric](windows, axis=-1)  # [seed, window]
                    ax = axes[row, col]
                    ax.fill_between(
                        steps, curves.min(0), curves.max(0), color=colour, alpha=0.18, lw=0
                    )
                    ax.plot(steps, np.median(curves, 0), color=colour, lw=1.6, label=label)
            axes[0, col].set_title(text(ID, "panel", lang, lr=f"{rates[j]:g}"))
            axes[1, col].axhline(math.log(n), color=pal.muted, ls=":", lw=1.2)
            axes[1, col].set_xlabel(text(ID, "step", lang))
        axes[0, 0].set_yscale("log")
        axes[0, 0].yaxis.set_minor_locator(NullLocator())
        for col in range(2 if narrow() else 1):  # stacked panels each have their own y-axis
            axes[0, col].set_ylabel(text(ID, "ylabel_logit", lang))
            axes[1, col].set_ylabel(text(ID, "ylabel_entropy", lang))
        axes[1, 0].set_ylim(-0.05, math.log(n) + 0.2)
        axes[1, 1].text(
            steps[-1],
            math.log(n) - 0.08,
            text(ID, "uniform", lang, n=n),
            color=pal.muted,
            ha="right",
            va="top",
            fontsize=9,
        )
        for ax in axes.flat:
            ax.grid(True, lw=0.5)
        band_legend(fig, axes[0, 0], text(ID, "band", lang, n=len(data["seed"])), pal)
        fig.suptitle(text(ID, "title", lang, d=int(data["sweep_d_k"][i])), fontweight="bold")
    return fig
