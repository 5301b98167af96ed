from __future__ import annotations

import math

import numpy as np

from attention_explained.content import data as experiments
from attention_explained.content.printing import Spread
from attention_explained.figures.registry import figure
from attention_explained.figures.strings import text
from attention_explained.figures.style import mixed_font, narrow, panels, themed

NARROW = True  # drawn for a phone's column too (style.panels)
ID = "logit-histograms"
STRINGS = {
    "alt": {
        "ko": "로짓 히스토그램 4개. 행은 dₖ=10과 dₖ=1024, 열은 스케일링 없음과 ÷√dₖ이고, 같은 "
        "열의 두 패널은 가로축을 공유한다. 스케일링하지 않으면 dₖ=1024의 로짓이 dₖ=10보다 약 "
        "10배 넓게 퍼진다(이론 표준편차 3√dₖ: 96과 9.5). √dₖ로 나누면 두 히스토그램의 너비가 "
        "같아지고 표준편차는 둘 다 약 3이다. 네 패널 모두 시드별로 측정한 표준편차의 범위 "
        "안에 이론값이 들어간다.",
        "en": "Four histograms of logits. Rows are dₖ=10 and dₖ=1024, columns are no scaling "
        "and ÷√dₖ, and the two panels of a column share their horizontal axis. Unscaled, "
        "the logits at dₖ=1024 spread about 10 times wider than at dₖ=10 (theoretical "
        "standard deviation 3√dₖ: 96 and 9.5). Divided by √dₖ the two histograms have the "
        "same width, both with a standard deviation of about 3. In all four panels the "
        "theoretical value lies inside the range of the standard deviations measured seed by "
        "seed.",
    },
    "col_raw": {
        "ko": "$\\mathbf{q}\\cdot\\mathbf{k}$ (스케일링 없음)",
        "en": "$\\mathbf{q}\\cdot\\mathbf{k}$ (no scaling)",
    },
    "col_sqrt": {
        "ko": "$\\mathbf{q}\\cdot\\mathbf{k}\\,/\\sqrt{d_k}$",
        "en": "$\\mathbf{q}\\cdot\\mathbf{k}\\,/\\sqrt{d_k}$",
    },
    "row": {"ko": "$d_k = {d}$", "en": "$d_k = {d}$"},
    "sigma_raw": {"ko": "3√dₖ", "en": "3√dₖ"},
    "sigma_sqrt": {"ko": "3", "en": "3"},
    "measured": {
        "ko": "표준편차\n측정 {std}\n이론 {theory} = {sigma:.2f}",
        "en": "std\nmeasured {std}\ntheory {theory} = {sigma:.2f}",
    },
    "xlabel": {"ko": "로짓", "en": "logit"},
    "title": {
        "ko": "로짓의 퍼짐은 √dₖ에 비례하고, ÷√dₖ 뒤에는 dₖ와 상관없다",
        "en": "The spread of the logits grows with √dₖ; ÷√dₖ takes it away",
    },
    "subtitle": {
        "ko": "A, B ~ uniform[−3, 3] 독립, {n}×{n} 로짓 × 시드 {seeds}개 = 패널마다 {total}개\n"
        "점선: 이론 표준편차 ±3√dₖ (÷√dₖ 뒤에는 ±3)",
        "en": "A, B ~ uniform[−3, 3] independent; {n}×{n} logits × {seeds} seeds = {total} per "
        "panel\ndashed: theoretical standard deviation ±3√dₖ (±3 after ÷√dₖ)",
    },
}
ALT_CLAIMS = ("figures.logit_std_near_theory",)
BINS_PER_STD = 5  # bin width = theoretical std / 5 in every panel
REACH = 4.2  # x-axis: ±4.2 theoretical std of the wider panel in each column


def logits() -> dict:
    """The note's logits A·Bᵀ at d_k = 10 and 1024, pooled over the site's seeds, with theory.

    The same 30×30 samples the prose's variance numbers use (``std.measured.d<d>``).
    """
    from attention_explained import logit_variance, make_dot_product_tensor

    out = {}
    for dim in experiments.HEATMAP_DIMS:
        seeds = [
            make_dot_product_tensor(experiments.LENGTH, dim, seed=s).numpy().ravel()
            for s in experiments.SWEEP_SEEDS
        ]
        raw = np.concatenate(seeds)
        std = np.array([x.std() for x in seeds])  # seed by seed, as the prose prints it
        out[dim] = {
            "raw": raw,
            "sqrt": raw / math.sqrt(dim),
            "theory": logit_variance(dim),
            "seed_std": {"raw": std, "sqrt": std / math.sqrt(dim)},
        }
    return out


def measured_std(data: dict, dim: int, column: str) -> str:
    """The measured std as the range over the seeds (as ``std.measured.d<d>`` prints it): a
    rerun on other seeds moves the pooled value by more than its last digit."""
    std = data[dim]["seed_std"][column]
    spec = ".1f" if column == "raw" else ".2f"
    return str(Spread(float(np.std(data[dim][column])), std.min(), std.max(), spec))


def theory_std(data: dict, dim: int, column: str) -> float:
    """3√d_k raw, 3 after ÷√d_k."""
    std = math.sqrt(data[dim]["theory"])
    return std if column == "raw" else std / math.sqrt(dim)


@figure(
    ID,
    description="Histograms of the note's logits at d_k = 10 and 1024, raw and ÷√d_k, std marked",
    data=logits,
)
def draw(data, lang: str, theme: str):
    dims, columns = experiments.HEATMAP_DIMS, ("raw", "sqrt")
    with themed(theme) as pal:
        fig, axes = panels(
            len(dims),
            2,
            figsize=(7.4, 5.8),
            panel_height=2.2,
            layout="constrained",
            sharex="col",
            squeeze=False,
            order="col",
        )
        for c, column in enumerate(columns):
            reach = REACH * max(theory_std(data, d, column) for d in dims)
            colour = pal.series["none" if column == "raw" else "sqrt"]
            for r, dim in enumerate(dims):
                ax, values = axes[r, c], data[dim][column]
                sigma = theory_std(data, dim, column)
                edges = np.arange(-REACH * sigma, REACH * sigma + 1e-9, sigma / BINS_PER_STD)
                ax.hist(
                    values,
                    bins=edges,
                    density=True,
                    histtype="stepfilled",
                    color=colour,
                    alpha=0.35,
                    lw=0,
                )
                ax.hist(values, bins=edges, density=True, histtype="step", color=colour, lw=1.2)
                peak = np.histogram(values, bins=edges, density=True)[0].max()
                ax.vlines([-sigma, sigma], 0, 1.04 * peak, color=pal.text, ls="--", lw=1.0)
                label = text(ID, f"sigma_{column}", lang)
                std = measured_std(data, dim, column)
                note = text(ID, "measured", lang, theory=label, sigma=sigma, std=std)
                ax.text(
                    0.98,
                    0.95,
                    note,
                    transform=ax.transAxes,
                    ha="right",
                    va="top",
                    fontsize=10.5,
                    color=pal.text,
                    **mixed_font(note),
                )
                ax.set_xlim(-reach, reach)
                ax.set_ylim(0, 1.6 * peak)  # room for the note above the bars
                ax.set_yticks([])
                ax.spines["left"].set_visible(False)
                ax.grid(True, axis="x", lw=0.5)
                if r == 0 or narrow():  # stacked: each panel says what it shows
                    head = text(ID, f"col_{column}", lang)
                    ax.set_title(head, fontweight="bold", **mixed_font(head))
                if c == 0 or narrow():
                    row = text(ID, "row", lang, d=dim)
                    ax.set_ylabel(row, **mixed_font(row))
            axes[-1, c].set_xlabel(text(ID, "xlabel", lang))
        title = text(ID, "title", lang)
        fig.suptitle(title, fontweight="bold", **mixed_font(title))
        sub = text(
            ID,
            "subtitle",
            lang,
            n=experiments.LENGTH,
            seeds=len(experiments.SWEEP_SEEDS),
            total=experiments.LENGTH**2 * len(experiments.SWEEP_SEEDS),
        )
        fig.supxlabel(sub, fontsize=10, color=pal.muted, **mixed_font(sub))
    return fig
