"""The logits' std at initialisation against d_k, per initialisation, raw and ÷√d_k."""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np

from attention_explained.content import data as experiments
from attention_explained.figures.registry import figure
from attention_explained.figures.strings import text
from attention_explained.figures.style import themed
from attention_explained.settings import INIT_HEADS, INIT_KEY_DIMS, INIT_SCHEMES

ID = "init-logit-std"
FONT = 13  # pt: the figure is drawn at phone width, every text at least this size
STRINGS = {
    "alt": {
        "ko": "두 패널, 로그-로그 축. 가로축은 헤드 차원 dₖ(헤드 8개, 임베딩 차원 = 8·dₖ), "
        "세로축은 초기화 직후 로짓의 표준편차. 위: 스케일링 전. 노트의 균등분포[−3, 3], "
        "Keras 3.15 이후의 기본값(= LeCun), PyTorch 기본값은 dₖ가 클수록 커진다. 아래: "
        "÷√dₖ 뒤. 이 세 가지는 dₖ와 상관없이 평평하게 각각 약 3, 1, 0.5에 머물고, Keras "
        "3.14까지의 기본값은 다른 셋보다 훨씬 아래에서 dₖ가 클수록 더 작아진다.",
        "en": "Two panels, log-log. The horizontal axis is the head dimension d_k (8 heads, "
        "embedding dimension 8·d_k), the vertical axis the logits' standard deviation right "
        "after initialisation. Top: before scaling, the note's uniform[−3, 3], the Keras ≥ 3.15 "
        "default (= LeCun) and the PyTorch default grow with d_k. Bottom: after ÷√d_k, these "
        "three are flat, at about 3, 1 and 0.5 whatever d_k; the Keras ≤ 3.14 default lies far "
        "below them and gets smaller as d_k grows.",
    },
    "title": {
        "ko": "초기화 직후 로짓의 표준편차",
        "en": "The logits' std right after initialisation",
    },
    "note": {"ko": "노트: 균등분포[−3, 3]", "en": "note: uniform[−3, 3]"},
    "keras": {"ko": "Keras ≥ 3.15 (= LeCun)", "en": "Keras ≥ 3.15 (= LeCun)"},
    "torch": {"ko": "PyTorch", "en": "PyTorch"},
    "keras314": {"ko": "Keras ≤ 3.14", "en": "Keras ≤ 3.14"},
    "raw": {"ko": "스케일링 전 로짓", "en": "logits before scaling"},
    "scaled": {"ko": "÷√dₖ 뒤의 로짓", "en": "logits after ÷√dₖ"},
    "ylabel": {"ko": "표준편차", "en": "std"},
    "dk": {"ko": "헤드 차원 dₖ (헤드 {h}개)", "en": "head dimension dₖ ({h} heads)"},
}
ALT_CLAIMS = ("init.figure", "init.sqrt_holds_spread_at_the_tie")

STYLES = {  # scheme → (palette role, marker, line style): told apart without colour too
    "note": ("none", "o", "-"),
    "keras": ("sqrt", "s", "-"),
    "torch": ("unit", "^", "--"),
    "keras314": ("accent", "D", ":"),
}


@figure(
    ID,
    description="Logit std at initialisation against d_k for the note, Keras (≥ 3.15 and "
    "≤ 3.14) and PyTorch defaults, before and after ÷√d_k (log-log)",
    data=experiments.initialisation,
)
def draw(data, lang: str, theme: str):
    dks = np.array(INIT_KEY_DIMS)
    with themed(theme) as pal:
        fig, axes = plt.subplots(2, 1, figsize=(6.4, 7.6), sharex=True, layout="constrained")
        for scheme in INIT_SCHEMES:
            role, marker, style = STYLES[scheme]
            colour = pal.accent if role == "accent" else pal.series[role]
            points = [data[scheme, INIT_HEADS * k, INIT_HEADS, k] for k in INIT_KEY_DIMS]
            for ax, column in zip(axes, (1, 2), strict=True):  # std_raw, std_sqrt
                mid = [float(np.median(p[:, column])) for p in points]
                ax.plot(dks, mid, ls=style, marker=marker, ms=7, lw=2, color=colour,
                        label=text(ID, scheme, lang))  # fmt: skip
        for ax, key in zip(axes, ("raw", "scaled"), strict=True):
            ax.set_yscale("log")
            ax.set_title(text(ID, key, lang), fontsize=FONT + 1)
            ax.set_ylabel(text(ID, "ylabel", lang), fontsize=FONT)
            ax.grid(True, lw=0.5)
            ax.tick_params(labelsize=FONT)
        axes[1].set_xscale("log", base=2)
        axes[1].set_xticks(dks, [str(int(d)) for d in dks])
        axes[1].minorticks_off()
        axes[1].set_xlabel(text(ID, "dk", lang, h=INIT_HEADS), fontsize=FONT)
        fig.suptitle(text(ID, "title", lang), fontsize=FONT + 1, fontweight="bold")
        handles, labels = axes[0].get_legend_handles_labels()
        fig.legend(handles, labels, loc="outside lower center", ncols=2, fontsize=FONT,
                   frameon=False)  # fmt: skip
    return fig
