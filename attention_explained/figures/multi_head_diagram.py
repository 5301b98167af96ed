from __future__ import annotations

import matplotlib.pyplot as plt
from matplotlib.patches import FancyArrowPatch, FancyBboxPatch

from attention_explained.figures.registry import figure
from attention_explained.figures.strings import text
from attention_explained.figures.style import NARROW_WIDTH, mixed_font, narrow, themed

NARROW = True  # drawn for a phone's column too: the flow runs downwards there
ID = "multi-head-diagram"
STRINGS = {
    "alt": {
        "ko": "멀티 헤드 어텐션 구조도. Q(L_q × d_model), K와 V(L_k × d_model, "
        "d_model = 512)가 헤드마다 다른 투영 W^Q_i, W^K_i, W^V_i를 거쳐 헤드 차원 "
        "dₖ = d_model / h = 64로 줄고, h = 8개 헤드에서 각각 스케일드 닷-프로덕트 "
        "어텐션을 계산한 뒤, 결과를 이어 붙여(h·d_v = 512) 마지막 투영 W^O가 "
        "d_model로 되돌린다.",
        "en": "Diagram of multi-head attention. Q (L_q × d_model), K and V (L_k × d_model, "
        "d_model = 512) pass through a separate projection per head, W^Q_i, W^K_i, W^V_i, "
        "down to the head dimension d_k = d_model / h = 64; each of the h = 8 heads runs "
        "scaled dot-product attention; the outputs are concatenated (h·d_v = 512) and a "
        "final projection W^O maps them back to d_model.",
    },
    "linear": {"ko": "선형\n${w}$", "en": "Linear\n${w}$"},
    "sdpa": {
        "ko": "스케일드 닷-프로덕트 어텐션\n$\\mathrm{softmax}(QK^\\top/\\sqrt{d_k})\\,V$",
        "en": "Scaled dot-product attention\n$\\mathrm{softmax}(QK^\\top/\\sqrt{d_k})\\,V$",
    },
    "concat": {"ko": "이어 붙이기", "en": "Concat"},
    "output": {
        "ko": "출력 ($L_q \\times d_{\\mathrm{model}}$)",
        "en": "output ($L_q \\times d_{\\mathrm{model}}$)",
    },
    "heads": {"ko": "헤드 $h = {h}$개", "en": "$h = {h}$ heads"},
    "widths": {
        "ko": "임베딩 차원 $d_{{\\mathrm{{model}}}} = {dm}$ → 헤드 차원 "
        "$d_k = d_v = d_{{\\mathrm{{model}}}}/h = {dk}$",
        "en": "embedding dimension $d_{{\\mathrm{{model}}}} = {dm}$ → head dimension "
        "$d_k = d_v = d_{{\\mathrm{{model}}}}/h = {dk}$",
    },
    "concat_width": {"ko": "$h \\cdot d_v = {w}$", "en": "$h \\cdot d_v = {w}$"},
    "not_layers": {
        "ko": "$d_{\\mathrm{model}}$은 토큰 벡터 하나의 길이다. 쌓은 레이어 수($N = 6$)도, "
        "시퀀스 길이 $L_q$, $L_k$도 아니다.",
        "en": "$d_{\\mathrm{model}}$ is the width of each token vector, not the layer count "
        "($N = 6$) and not the sequence length $L_q$, $L_k$.",
    },
    "title": {
        "ko": "멀티 헤드 어텐션 (Vaswani et al., 2017)",
        "en": "Multi-head attention (Vaswani et al., 2017)",
    },
}


def paper_sizes() -> dict[str, int]:
    """The base model of Vaswani et al. (2017): d_model = 512, h = 8, so d_k = d_v = 64."""
    d_model, heads = 512, 8
    return {"d_model": d_model, "heads": heads, "d_k": d_model // heads}


def _stack(ax, x, y, w, h, label, pal, *, copies=3, face=None, bold=False):
    """A box drawn as a small stack, the way the paper shows "one per head"."""
    for i in reversed(range(copies)):
        ax.add_patch(
            FancyBboxPatch(
                (x + 0.09 * i, y + 0.09 * i),
                w,
                h,
                boxstyle="round,pad=0.02,rounding_size=0.08",
                fc=face or pal.box,
                ec=pal.muted,
                lw=1.0,
                zorder=2 + (copies - i),
            )
        )
    ax.text(
        x + w / 2,
        y + h / 2,
        label,
        ha="center",
        va="center",
        color=pal.text,
        fontsize=9.5,
        zorder=10,
        fontweight="bold" if bold else "normal",
        **mixed_font(label),
    )


def _arrow(ax, start, end, pal):
    ax.add_patch(
        FancyArrowPatch(
            start, end, arrowstyle="-|>", mutation_scale=11, color=pal.muted, lw=1.2, zorder=1
        )
    )


@figure(
    ID,
    description="Structure of multi-head attention with d_model, h and d_k marked",
    data=paper_sizes,
)
def draw(sizes, lang: str, theme: str):
    dm, h, dk = sizes["d_model"], sizes["heads"], sizes["d_k"]
    if narrow():
        return _draw_downwards(sizes, lang, theme)
    with themed(theme) as pal:
        fig, ax = plt.subplots(figsize=(8.8, 3.9), layout="constrained")
        ax.set_xlim(0, 12.4)
        ax.set_ylim(-0.9, 5.0)
        ax.axis("off")
        rows = {"Q": (3.6, "q"), "K": (2.3, "k"), "V": (1.0, "k")}  # keys and values share L_k
        for name, (y, length) in rows.items():
            ax.text(
                0.55,
                y + 0.35,
                f"${name}$\n$L_{length} \\times {dm}$",
                ha="center",
                va="center",
                color=pal.text,
                fontsize=10,
                fontweight="bold",
            )
            weight = f"W_i^{name}"
            _stack(ax, 1.5, y, 1.7, 0.7, text(ID, "linear", lang, w=weight), pal)
            _arrow(ax, (1.05, y + 0.35), (1.5, y + 0.35), pal)
            _arrow(ax, (3.4, y + 0.35), (4.0, 2.65), pal)
        _stack(
            ax,
            4.0,
            1.9,
            3.5,
            1.5,
            text(ID, "sdpa", lang),
            pal,
            face=pal.series["sqrt"] + "33",
            bold=True,
        )
        heads = text(ID, "heads", lang, h=h)
        ax.text(
            5.75,
            3.75,
            heads,
            ha="center",
            color=pal.accent,
            fontsize=10,
            fontweight="bold",
            **mixed_font(heads),
        )
        _arrow(ax, (7.75, 2.65), (8.1, 2.65), pal)
        _stack(ax, 8.1, 2.25, 1.5, 0.8, text(ID, "concat", lang), pal, copies=1)
        ax.text(
            8.85,
            1.85,
            text(ID, "concat_width", lang, w=h * dk),
            ha="center",
            color=pal.muted,
            fontsize=9,
        )
        _arrow(ax, (9.6, 2.65), (10.1, 2.65), pal)
        _stack(ax, 10.1, 2.25, 1.1, 0.8, text(ID, "linear", lang, w="W^O"), pal, copies=1)
        _arrow(ax, (11.2, 2.65), (11.6, 2.65), pal)
        output = text(ID, "output", lang)
        ax.text(
            11.75,
            2.65,
            output,
            rotation=90,
            ha="center",
            va="center",
            color=pal.text,
            fontsize=9.5,
            **mixed_font(output),
        )
        widths = text(ID, "widths", lang, dm=dm, dk=dk)
        ax.text(0.1, -0.05, widths, color=pal.text, fontsize=10, **mixed_font(widths))
        note = text(ID, "not_layers", lang)
        ax.text(0.1, -0.6, note, color=pal.muted, fontsize=9.5, **mixed_font(note))
        ax.set_title(text(ID, "title", lang), loc="left", fontweight="bold")
    return fig


def _draw_downwards(sizes, lang: str, theme: str):
    """The same diagram for a phone's column: Q, K, V at the top, the output at the bottom."""
    dm, h, dk = sizes["d_model"], sizes["heads"], sizes["d_k"]
    with themed(theme) as pal:
        fig, ax = plt.subplots(figsize=(NARROW_WIDTH, 6.4), layout="constrained")
        ax.set_xlim(0, 6.2)
        ax.set_ylim(-1.9, 8.1)
        ax.axis("off")
        columns = {"Q": (1.0, "q"), "K": (3.1, "k"), "V": (5.2, "k")}
        for name, (x, length) in columns.items():
            ax.text(
                x,
                7.55,
                f"${name}$\n$L_{length} \\times {dm}$",
                ha="center",
                va="center",
                color=pal.text,
                fontsize=10,
                fontweight="bold",
            )
            _stack(ax, x - 0.8, 5.5, 1.5, 0.9, text(ID, "linear", lang, w=f"W_i^{name}"), pal)
            _arrow(ax, (x, 7.0), (x, 6.55), pal)
            _arrow(ax, (x, 5.45), (3.1, 4.75), pal)
        _stack(
            ax,
            0.2,
            3.2,
            5.6,
            1.5,
            text(ID, "sdpa", lang),
            pal,
            face=pal.series["sqrt"] + "33",
            bold=True,
        )
        heads = text(ID, "heads", lang, h=h)
        ax.text(
            6.0,
            4.95,
            heads,
            ha="right",
            color=pal.accent,
            fontsize=10,
            fontweight="bold",
            **mixed_font(heads),
        )
        _arrow(ax, (3.1, 3.15), (3.1, 2.75), pal)
        _stack(ax, 2.1, 2.05, 2.0, 0.7, text(ID, "concat", lang), pal, copies=1)
        ax.text(4.3, 2.4, text(ID, "concat_width", lang, w=h * dk), va="center", color=pal.muted)
        _arrow(ax, (3.1, 2.0), (3.1, 1.6), pal)
        _stack(ax, 2.3, 0.6, 1.6, 1.0, text(ID, "linear", lang, w="W^O"), pal, copies=1)
        _arrow(ax, (3.1, 0.55), (3.1, 0.15), pal)
        output = text(ID, "output", lang)
        ax.text(3.1, -0.1, output, ha="center", va="top", color=pal.text, **mixed_font(output))
        widths = text(ID, "widths", lang, dm=dm, dk=dk).replace(" → ", " →\n")
        ax.text(0.0, -0.75, widths, va="top", color=pal.text, **mixed_font(widths))
        note = text(ID, "not_layers", lang)
        ax.text(0.0, -1.45, note, va="top", color=pal.muted, fontsize=9.5, **mixed_font(note))
        ax.set_title(text(ID, "title", lang), loc="left", fontweight="bold")
    return fig
