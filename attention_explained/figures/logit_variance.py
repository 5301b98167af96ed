from __future__ import annotations

import numpy as np

from attention_explained.content import data as experiments
from attention_explained.figures.registry import figure
from attention_explained.figures.strings import text
from attention_explained.figures.style import legend_font, mixed_font, panels, themed

NARROW = True  # drawn for a phone's column too (style.panels)
ID = "logit-variance"
STRINGS = {
    "alt": {
        "ko": "로그-로그 그래프. 스케일링 없는 q·k의 분산은 dₖ에 비례해 9dₖ 직선을 따라 "
        "커지고, √dₖ로 나눈 분산은 dₖ와 관계없이 9에 머문다. 측정값이 이론선과 겹친다.",
        "en": "Log-log plot. The variance of unscaled q·k grows in proportion to dₖ, along "
        "the line 9dₖ, while the variance after dividing by √dₖ stays at 9 for every dₖ. "
        "The measured points sit on the theory lines.",
    },
    "title": {"ko": "로짓 분산은 dₖ에 비례한다", "en": "The logit variance grows with dₖ"},
    "ylabel": {
        "ko": "$\\mathrm{Var}(\\mathbf{q}\\cdot\\mathbf{k})$ (로그 축)",
        "en": "$\\mathrm{Var}(\\mathbf{q}\\cdot\\mathbf{k})$ (log scale)",
    },
    "measured_none": {
        "ko": "측정: $\\mathbf{q}\\cdot\\mathbf{k}$",
        "en": "measured: $\\mathbf{q}\\cdot\\mathbf{k}$",
    },
    "measured_sqrt": {
        "ko": "측정: $\\mathbf{q}\\cdot\\mathbf{k}\\,/\\sqrt{d_k}$",
        "en": "measured: $\\mathbf{q}\\cdot\\mathbf{k}\\,/\\sqrt{d_k}$",
    },
    "theory_none": {"ko": "이론: $9d_k$", "en": "theory: $9d_k$"},
    "theory_sqrt": {"ko": "이론: $9$", "en": "theory: $9$"},
}
SHARED_STRINGS = {
    "dim": "dim",
}
ALT_CLAIMS = ("figures.logit_variance_on_theory",)


def variance_by_dim() -> dict[str, np.ndarray]:
    """Sample variance of q·k entries, pooled over seeds, raw and ÷√d_k, with the theory."""
    return experiments.logit_variances(experiments.SWEEP_DIMS, experiments.SWEEP_SEEDS)


@figure(
    ID,
    description="Var(q·k) against d_k: measured vs theory 9d_k, and flat 9 after ÷√d_k",
    data=variance_by_dim,
)
def draw(data, lang: str, theme: str):
    with themed(theme) as pal:
        fig, ax = panels(1, 1, figsize=(7.2, 4.6), panel_height=3.6, layout="constrained")
        dims = data["dim"]
        ax.loglog(
            dims,
            data["theory"],
            color=pal.series["none"],
            lw=1.4,
            alpha=0.55,
            label=text(ID, "theory_none", lang),
        )
        ax.loglog(
            dims,
            data["theory"] / dims,
            color=pal.series["sqrt"],
            lw=1.4,
            alpha=0.55,
            ls="--",
            label=text(ID, "theory_sqrt", lang),
        )
        ax.loglog(
            dims,
            data["raw"],
            "o",
            color=pal.series["none"],
            ms=6,
            label=text(ID, "measured_none", lang),
        )
        ax.loglog(
            dims,
            data["scaled"],
            "s",
            color=pal.series["sqrt"],
            ms=5.5,
            label=text(ID, "measured_sqrt", lang),
        )
        ax.set_xscale("log", base=2)
        ax.set_xticks(dims[::2], [str(int(d)) for d in dims[::2]])
        xlabel, ylabel = text(ID, "dim", lang), text(ID, "ylabel", lang)
        ax.set_xlabel(xlabel, **mixed_font(xlabel))
        ax.set_ylabel(ylabel, **mixed_font(ylabel))
        ax.grid(True, which="major", lw=0.5)
        ax.legend(loc="upper left", prop=legend_font(ax.get_legend_handles_labels()[1]))
        ax.set_title(text(ID, "title", lang), loc="left", fontweight="bold")
    return fig
