from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np

from attention_explained.content import data as experiments
from attention_explained.figures.registry import figure
from attention_explained.figures.strings import text
from attention_explained.figures.style import NARROW_WIDTH, mixed_font, narrow, themed

NARROW = True  # drawn for a phone's column too (style.panels)
ID = "saturation-heatmaps"
STRINGS = {
    "alt": {
        "ko": "무작위 쿼리와 키로 만든 소프트맥스 어텐션 가중치 히트맵 6개. 행은 dₖ=10과 "
        "dₖ=1024, 열은 스케일링 없음, ÷√dₖ, ÷(3√dₖ)이고, 세로축은 쿼리 i, 가로축은 키 j다. "
        "dₖ=1024에서 스케일링하지 않으면 각 행이 거의 한 칸(가중치 1에 가까움)만 밝고, "
        "÷√dₖ는 덜 뾰족하며, ÷(3√dₖ)는 각 행의 가중치가 여러 키에 퍼진다.",
        "en": "Six heatmaps of softmax attention weights from random queries and keys. "
        "Rows are dₖ=10 and dₖ=1024; columns are no scaling, ÷√dₖ and ÷(3√dₖ); the vertical "
        "axis is query i, the horizontal axis key j. Unscaled at dₖ=1024 each row lights "
        "up almost a single cell (weight near 1); ÷√dₖ is less peaked, and ÷(3√dₖ) spreads "
        "each row's weight over many keys.",
    },
    "col_none": {
        "ko": "$\\mathbf{q}_i\\cdot\\mathbf{k}_j$ (스케일링 없음)",
        "en": "$\\mathbf{q}_i\\cdot\\mathbf{k}_j$ (no scaling)",
    },
    "col_sqrt": {
        "ko": "$\\mathbf{q}_i\\cdot\\mathbf{k}_j\\,/\\sqrt{d_k}$",
        "en": "$\\mathbf{q}_i\\cdot\\mathbf{k}_j\\,/\\sqrt{d_k}$",
    },
    "col_unit": {
        "ko": "$\\mathbf{q}_i\\cdot\\mathbf{k}_j\\,/\\,(3\\sqrt{d_k})$ (분산 1)",
        "en": "$\\mathbf{q}_i\\cdot\\mathbf{k}_j\\,/\\,(3\\sqrt{d_k})$ (unit variance)",
    },
    "row": {"ko": "$d_k = {d}$", "en": "$d_k = {d}$"},
    "query": {"ko": "쿼리 $i$", "en": "query $i$"},
    "key": {"ko": "키 $j$", "en": "key $j$"},
    "colorbar": {"ko": "어텐션 가중치 $p_{ij}$", "en": "attention weight $p_{ij}$"},
    "panel": {
        "ko": "행 최대 가중치 평균 {mw:.2f}\n엔트로피 {h:.2f} 내트",
        "en": "mean row max weight {mw:.2f}\nentropy {h:.2f} nats",
    },
    "title": {
        "ko": "30×30 어텐션 가중치: 쿼리와 키 ~ uniform[−3, 3] (시드 {seed})",
        "en": "30×30 attention weights: queries and keys ~ uniform[−3, 3] (seed {seed})",
    },
}
ALT_CLAIMS = ("figures.heatmaps_peaked_unscaled_spread_scaled",)


@figure(
    ID,
    description="The note's heatmaps done right: d_k=10/1024 × none/√d_k/3√d_k",
    data=experiments.heatmaps,
)
def draw(panels, lang: str, theme: str):
    dims, scales = experiments.HEATMAP_DIMS, experiments.SCALES
    with themed(theme) as pal:
        if narrow():  # a phone: one row per scaling (its name above), d_k side by side
            fig = plt.figure(figsize=(NARROW_WIDTH, 9.4), layout="constrained")
            rows = fig.subfigures(len(scales) + 1, 1, height_ratios=[1] * len(scales) + [0.22])
            axes = np.array([sub.subplots(1, len(dims)) for sub in rows[:-1]]).T
            for sub, scale in zip(rows, scales, strict=False):
                head = text(ID, f"col_{scale}", lang)
                sub.suptitle(head, fontweight="bold", **mixed_font(head))
        else:
            fig, axes = plt.subplots(
                len(dims), len(scales), figsize=(10.2, 7.4), layout="constrained", squeeze=False
            )
        for r, dim in enumerate(dims):
            for c, scale in enumerate(scales):
                ax, panel = axes[r, c], panels[dim, scale]
                image = ax.imshow(
                    panel["weights"], cmap="cividis", vmin=0.0, vmax=1.0, interpolation="none"
                )
                ax.set_xticks([0, 29], ["1", "30"])
                ax.set_yticks([0, 29], ["1", "30"])
                ax.tick_params(length=2)
                for spine in ax.spines.values():
                    spine.set_visible(False)
                head = text(ID, f"col_{scale}", lang)
                row = text(ID, "row", lang, d=dim)
                if narrow():
                    ax.set_title(row)
                    if r == 0:
                        query = text(ID, "query", lang)
                        ax.set_ylabel(query, **mixed_font(query))
                else:
                    if r == 0:
                        ax.set_title(head, fontweight="bold", **mixed_font(head))
                    if c == 0:
                        side = row + "\n" + text(ID, "query", lang)
                        ax.set_ylabel(side, **mixed_font(side))
                stats = text(ID, "panel", lang, mw=panel["max_weight"], h=panel["entropy"])
                key = text(ID, "key", lang) + "\n" + stats
                size = 11 if narrow() else 9.5  # a phone shows the narrow variant at 1:1
                ax.set_xlabel(key, color=pal.text, fontsize=size, **mixed_font(key))
        if narrow():  # the colour scale in a row of its own, under the panels
            bar = rows[-1].colorbar(
                image, cax=rows[-1].add_axes((0.15, 0.75, 0.7, 0.2)), orientation="horizontal"
            )
        else:
            bar = fig.colorbar(image, ax=axes, shrink=0.8, pad=0.02)
        label = text(ID, "colorbar", lang)
        bar.set_label(label, **mixed_font(label))
        bar.outline.set_visible(False)
        fig.suptitle(text(ID, "title", lang, seed=experiments.HEATMAP_SEED), color=pal.text)
    return fig
