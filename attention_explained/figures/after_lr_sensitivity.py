from __future__ import annotations

import numpy as np

from attention_explained import settings
from attention_explained.content import data as experiments
from attention_explained.figures.plots import TRAINING_COLOUR, band_legend
from attention_explained.figures.registry import figure
from attention_explained.figures.strings import text
from attention_explained.figures.style import narrow, panels, themed

NARROW = True  # drawn for a phone's column too (style.panels)
ID = "after-lr-sensitivity"
STRINGS = {
    "alt": {
        "ko": "두 패널(헤드 차원 dₖ가 작을 때와 클 때)에 학습률(로그 축)에 따른 최종 "
        "손실을 스케일링 방식마다 그렸다. ÷√dₖ와 스케일링 없음은 좋은 학습률 구간이 "
        "좁은 U자 모양이고, 학습률이 높으면 손실이 크게 오른다. dₖ가 크면 ÷√dₖ의 "
        "가장 좋은 학습률이 한 단계 낮다. QK 정규화는 가장 낮은 학습률에서는 "
        "다른 방식처럼 덜 학습되지만, 가장 높은 학습률까지 손실이 낮게 유지되어 그곳에서 "
        "두 방식보다 낮다.",
        "en": "Two panels (a small and a large head dimension d_k) of the final loss "
        "against the learning rate (log axis) for each scaling. ÷√d_k and no scaling "
        "make a U with a narrow range of good learning rates, and their loss shoots up "
        "at high rates; at the larger d_k the best rate of ÷√d_k is one grid step "
        "lower. QK-norm is under-trained at the lowest rate like the others, but stays "
        "low up to the highest rate, where it ends below both.",
    },
    "panel": {"ko": "dₖ = {d}", "en": "dₖ = {d}"},
    "lr": {"ko": "학습률 (로그 축)", "en": "learning rate (log scale)"},
    "ylabel": {
        "ko": "최종 손실 (마지막 {n}스텝 평균)",
        "en": "final loss (mean of the last {n} steps)",
    },
    "title": {
        "ko": "학습률 민감도: 최종 손실과 학습률",
        "en": "Learning-rate sensitivity: final loss against learning rate",
    },
}
SHARED_STRINGS = {
    "none": "none",
    "sqrt": "sqrt_dk",
    "qknorm": "qknorm",
    "band": "band_adamw",
}
ALT_CLAIMS = (
    "figures.after_lr_sensitivity_curves",
    "after.sqrt_best_lr_lower_at_large_dk",
)
MARKER = {"none": "o", "sqrt": "s", "qknorm": "^"}


@figure(
    ID,
    description="Final AdamW loss against learning rate for none / ÷√d_k / QK-norm, per d_k",
    data=experiments.after_training,
)
def draw(data, lang: str, theme: str):
    rates = data["learning_rate"]
    # each seed's mean loss over its last steps: [d_k, scaling, lr, seed]
    final = data["loss"][..., -settings.AFTER_FINAL :].mean(-1)
    with themed(theme) as pal:
        fig, axes = panels(
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
        for ax in axes if narrow() else axes[:1]:
            ax.set_ylabel(text(ID, "ylabel", lang, n=settings.AFTER_FINAL))
        band_legend(fig, axes[0], text(ID, "band", lang, n=len(data["seed"])), pal)
        fig.suptitle(text(ID, "title", lang), fontweight="bold")
    return fig
