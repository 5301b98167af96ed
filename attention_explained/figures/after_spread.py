from __future__ import annotations

import numpy as np

from attention_explained.content import data as experiments
from attention_explained.content.printing import Spread
from attention_explained.figures.registry import figure
from attention_explained.figures.strings import text
from attention_explained.figures.style import narrow, panels, themed
from attention_explained.fits import divisor, log_slope  # not after_training: no TensorFlow

NARROW = True  # drawn for a phone's column too (style.panels)
ID = "after-spread"
STRINGS = {
    "alt": {
        "ko": "세 패널. 첫 패널은 ÷√dₖ로 학습한 모델, 둘째 패널은 ÷dₖ(μP)로 학습한 모델의 "
        "로짓 표준편차를 헤드 차원 dₖ에 대해 로그-로그로 그렸다(점선: 학습 전, 실선: "
        "학습 후, 범례에 지수 a). ÷√dₖ는 학습 전에는 평평하지만 학습 후에는 dₖ가 "
        "클수록 커진다. ÷dₖ는 학습 전에는 dₖ가 클수록 작아지고, 학습 후에는 평평하다. "
        "셋째 패널은 쿼리와 그 정답 키의 평균 코사인으로, 학습 전에는 0 근처, 학습 후에는 두 "
        "모델 모두 0.5보다 크다.",
        "en": "Three panels. The first two: the logit standard deviation against the "
        "head dimension d_k, log-log, for a model trained with ÷√d_k and one trained "
        "with ÷d_k (μP); dashed before training, solid after, fitted exponents in the "
        "legend. ÷√d_k is flat before training but grows with d_k after it. ÷d_k "
        "shrinks with d_k before training and is flat after it. The third: the mean cosine "
        "between a query and its target key, near 0 before training and above 0.5 after "
        "it for both.",
    },
    "mup": {"ko": "÷dₖ (μP)", "en": "÷dₖ (μP)"},
    "init": {"ko": "학습 전: {a}", "en": "before training: {a}"},
    "final": {"ko": "학습 후: {a}", "en": "after training: {a}"},
    "slope": {"ko": "지수 a (표준편차 ∝ dₖᵃ)", "en": "exponent a (std ∝ dₖᵃ)"},
    "cos_init": {"ko": "{s}, 학습 전", "en": "{s}, before"},
    "cos_final": {"ko": "{s}, 학습 후", "en": "{s}, after"},
    "panel_sqrt": {
        "ko": "÷√dₖ로 학습: 로짓 표준편차",
        "en": "trained with ÷√dₖ: logit std",
    },
    "panel_mup": {
        "ko": "÷dₖ(μP)로 학습: 로짓 표준편차",
        "en": "trained with ÷dₖ (μP): logit std",
    },
    "panel_cos": {"ko": "쿼리–정답 키 코사인", "en": "cosine of query and target key"},
    "ylabel": {"ko": "로짓 표준편차 (로그 축)", "en": "logit std (log scale)"},
    "dk": {"ko": "헤드 차원 dₖ", "en": "head dimension dₖ"},
    "title": {
        "ko": "로짓의 퍼짐: 학습 전과 후 (시드 {n}개의 중앙값)",
        "en": "The logit spread before and after training (median of {n} seeds)",
    },
}
SHARED_STRINGS = {
    "sqrt": "sqrt_dk",
}
ALT_CLAIMS = (
    "after.spread_flat_at_init",
    "after.sqrt_spread_grows_after_training",
    "after.mup_spread_flat_after_training",
    "after.training_aligns_q_and_k",
)


@figure(
    ID,
    description="Logit std against d_k before and after training, ÷√d_k vs ÷d_k (log-log, "
    "with fitted slopes), and the matched query–key cosine",
    data=experiments.after_training,
)
def draw(data, lang: str, theme: str):
    dks = data["spread_d_k"]
    with themed(theme) as pal:
        fig, axes = panels(1, 3, figsize=(11, 4.2), layout="constrained")
        axes[1].sharey(axes[0])  # one scale for both divisors: the levels compare directly
        colours = {"sqrt": pal.series["sqrt"], "mup": pal.accent}
        for k, scaling in enumerate(data["spread_scaling"]):
            ax = axes[k]
            scale = np.array([divisor(scaling, int(d)) for d in dks])
            for when, style, marker in (("init", "--", "o"), ("final", "-", "s")):
                runs = data[f"spread_std_{when}"][:, k] / scale[:, None]  # [d_k, seed]
                mid = np.median(runs, -1)
                # the median curve's exponent, printed as its range over the seeds (as the
                # page prints after.slope.*): one value's second decimal moves on a rerun
                seeds = [log_slope(dks, runs[:, j]) for j in range(runs.shape[1])]
                slope = Spread(log_slope(dks, mid), min(seeds), max(seeds), ".2f")
                ax.plot(
                    dks,
                    mid,
                    ls=style,
                    marker=marker,
                    ms=5,
                    lw=1.6,
                    color=colours[scaling],
                    label=text(ID, when, lang, a=str(slope)),
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
        for ax in axes[:2] if narrow() else axes[:1]:
            ax.set_ylabel(text(ID, "ylabel", lang))
        axes[2].set_title(text(ID, "panel_cos", lang))
        axes[2].set_ylim(-0.1, 1.0)
        axes[2].axhline(0, color=pal.muted, lw=0.8)
        if narrow():  # under its panel: the panel is too low to keep the lines clear
            axes[2].legend(loc="upper center", bbox_to_anchor=(0.5, -0.3), ncols=2)
        else:
            # between the 0 line and the lines above it (the ÷√d_k cosine ends near 0.55)
            axes[2].legend(loc="lower right", bbox_to_anchor=(1.0, 0.1), fontsize=8.5)
        for ax in axes:
            ax.set_xscale("log", base=2)
            ax.set_xticks(dks, [str(int(d)) for d in dks])
            ax.minorticks_off()
            ax.set_xlabel(text(ID, "dk", lang))
            ax.grid(True, lw=0.5)
        fig.suptitle(text(ID, "title", lang, n=len(data["seed"])), fontweight="bold")
    return fig
