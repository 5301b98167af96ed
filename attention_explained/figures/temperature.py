from __future__ import annotations

import math

import numpy as np

from attention_explained.figures.registry import figure
from attention_explained.figures.strings import text
from attention_explained.figures.style import mixed_font, narrow, panels, themed
from attention_explained.settings import TEMPERATURE_D_K as D_K
from attention_explained.settings import TEMPERATURE_KEYS as N_KEYS
from attention_explained.settings import TEMPERATURE_SEED as SEED

NARROW = True  # drawn for a phone's column too (style.panels)
ID = "temperature"
STRINGS = {
    "alt": {
        "ko": "한 쿼리의 어텐션 가중치를 온도 τ를 바꿔 가며 그린 막대그래프 4개. τ = 1"
        "(스케일링 없음)이면 한 키에 거의 모든 가중치가 몰리고, τ = √dₖ(논문의 선택)와 "
        "τ = 3√dₖ로 갈수록 퍼진다. 가장 큰 가중치를 받는 키는 모든 패널에서 같다.",
        "en": "Four bar charts of one query's attention weights as the temperature τ "
        "changes. At τ = 1 (no scaling) almost all weight goes to one key; at τ = √d_k "
        "(the paper's choice) and τ = 3√d_k it spreads out. The key with the largest "
        "weight is the same in every panel.",
    },
    "panel": {"ko": "$\\tau = {label}$", "en": "$\\tau = {label}$"},
    "paper": {"ko": "논문의 선택", "en": "the paper's choice"},
    "unit": {"ko": "분산 1", "en": "unit variance"},
    "key": {"ko": "키 $j$", "en": "key $j$"},
    "weight": {"ko": "가중치", "en": "weight"},
    "argmax": {"ko": "τ = 1과 같은 키", "en": "same key as τ = 1"},
    "title": {
        "ko": "쿼리 하나의 가중치 "
        "$\\mathrm{{softmax}}(\\mathbf{{q}}\\cdot\\mathbf{{k}}_j/\\tau)$, "
        "$d_k = {d}$, 키 {n}개",
        "en": "One query's weights "
        "$\\mathrm{{softmax}}(\\mathbf{{q}}\\cdot\\mathbf{{k}}_j/\\tau)$, "
        "$d_k = {d}$, {n} keys",
    },
}
SHARED_STRINGS = {
    "none": "none",
}


def one_row() -> dict:
    """Weights of one query over N_KEYS keys at τ = 1, √d_k/4, √d_k and 3√d_k."""
    from attention_explained import make_dot_product_tensor
    from attention_explained._tf import tf

    logits = make_dot_product_tensor(N_KEYS, D_K, seed=SEED)[0]
    root = math.sqrt(D_K)
    temps = [  # mathtext labels
        (1.0, "1"),
        (root / 4, rf"\sqrt{{d_k}}/4 = {root / 4:g}"),
        (root, rf"\sqrt{{d_k}} = {root:g}"),
        (3 * root, rf"3\sqrt{{d_k}} = {3 * root:g}"),
    ]
    rows = [tf.nn.softmax(logits / tau).numpy() for tau, _ in temps]
    best = {int(np.argmax(row)) for row in rows}
    if len(best) != 1:  # dividing by τ > 0 keeps the order; the figure's alt text says so
        raise ValueError(f"the largest weight moved between temperatures: keys {sorted(best)}")
    return {
        "labels": [label for _, label in temps],
        "taus": [t for t, _ in temps],
        "weights": np.array(rows),
    }


ALT_CLAIMS = (
    "scaled-dot-product.temperature_panels",
    "scaled-dot-product.temperature_same_top_key",
)


@figure(ID, description="One row of attention weights under several temperatures τ", data=one_row)
def draw(data, lang: str, theme: str):
    weights, labels = data["weights"], data["labels"]
    keys = np.arange(1, weights.shape[1] + 1)
    with themed(theme) as pal:
        fig, axes = panels(
            1, len(labels), figsize=(8.8, 3.2), sharey=True, panel_height=2.1, layout="constrained"
        )
        for ax, row, label, tau in zip(axes, weights, labels, data["taus"], strict=True):
            best = int(np.argmax(row))
            colours = [pal.accent if j == best else pal.series["sqrt"] for j in range(len(row))]
            ax.bar(keys, row, color=colours, width=0.8)
            title = text(ID, "panel", lang, label=label)
            if tau == 1:
                title += "\n(" + text(ID, "none", lang) + ")"
            elif math.isclose(tau, math.sqrt(D_K)):
                title += "\n(" + text(ID, "paper", lang) + ")"
            elif math.isclose(tau, 3 * math.sqrt(D_K)):
                title += "\n(" + text(ID, "unit", lang) + ")"
            ax.set_title(title, fontsize=10.5)
            ax.set_xticks([1, best + 1, len(row)])
            key = text(ID, "key", lang)
            ax.set_xlabel(key, **mixed_font(key))
            ax.set_ylim(0, 1.15)
            ax.set_yticks([0, 0.25, 0.5, 0.75, 1.0])
            if tau != 1:  # the same key as in the τ = 1 panel
                ax.annotate(
                    text(ID, "argmax", lang),
                    xy=(best + 1, row[best]),
                    xytext=(0, 6),
                    textcoords="offset points",
                    ha="center",
                    fontsize=8.5,
                    color=pal.accent,
                )
        for ax in axes if narrow() else axes[:1]:
            ax.set_ylabel(text(ID, "weight", lang))
        title = text(ID, "title", lang, d=D_K, n=weights.shape[1])
        fig.suptitle(title, fontweight="bold", **mixed_font(title))
    return fig
