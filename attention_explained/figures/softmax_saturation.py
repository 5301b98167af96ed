from __future__ import annotations

import math

from attention_explained.content import data as experiments
from attention_explained.figures.registry import figure
from attention_explained.figures.strings import text
from attention_explained.figures.style import panels, themed
from attention_explained.figures.sweep_plots import sweep_legend, sweep_panel

NARROW = True  # drawn for a phone's column too (style.panels)
ID = "softmax-saturation"
STRINGS = {
    "alt": {
        "ko": "두 패널. 첫 패널은 행 엔트로피, 둘째 패널은 행 최대 가중치를 dₖ에 대해 그렸다. "
        "스케일링이 없으면 dₖ가 커질수록 엔트로피는 0으로, 최대 가중치는 1로 다가간다. "
        "÷√dₖ와 ÷(3√dₖ)는 dₖ = 16부터 거의 평평하다. 그린 범위의 끝인 dₖ = 4096까지 두 값 "
        "모두 15% 넘게 변하지 않는다. dₖ가 그보다 작을 때는 ÷√dₖ도 dₖ에 따라 달라진다.",
        "en": "Two panels: row entropy, then row max weight, against dₖ. "
        "Without scaling, entropy falls to 0 and the max weight climbs to 1 as dₖ grows. "
        "With ÷√dₖ and ÷(3√dₖ) both are nearly flat from dₖ = 16 on: up to the last "
        "plotted dₖ = 4096 neither changes by more than 15%. Below that, ÷√dₖ still varies "
        "with dₖ.",
    },
    "max_weight": {"ko": "행 최대 가중치", "en": "row max weight"},
    "uniform_max": {"ko": "균등분포: 1/{n}", "en": "uniform: 1/{n}"},
    # Short: on a phone this figure loads with the page, and each bold Hangul glyph of the
    # title is a path of its own (the page was 0.7 KB over the first-visit budget with
    # "스케일링이 없으면 소프트맥스가 포화된다").
    "title": {
        "ko": "스케일링이 없으면 포화된다 (n = {n})",
        "en": "Without scaling the softmax saturates (n = {n})",
    },
}
SHARED_STRINGS = {
    "entropy": "row_entropy",
    "uniform": "uniform_log",
}
ALT_CLAIMS = ("figures.saturation_unscaled_saturates_scaled_flat",)


@figure(
    ID,
    description="Row entropy and max weight against d_k, for none / √d_k / unit",
    data=experiments.sweep,
)
def draw(data, lang: str, theme: str):
    n = experiments.LENGTH
    with themed(theme) as pal:
        fig, (left, right) = panels(1, 2, figsize=(10, 4.3), layout="constrained")
        sweep_panel(left, data, "entropy", lang, pal)
        left.axhline(math.log(n), color=pal.muted, ls=":", lw=1.2)
        left.text(  # above the line: the ÷3√dₖ curve runs just under it (reader 26)
            1,
            math.log(n) + 0.04,
            text(ID, "uniform", lang, n=n),
            color=pal.muted,
            va="bottom",
            fontsize=9,
        )
        left.set_ylim(-0.1, math.log(n) + 0.4)
        left.set_ylabel(text(ID, "entropy", lang))
        sweep_panel(right, data, "max_weight", lang, pal)
        right.axhline(1 / n, color=pal.muted, ls=":", lw=1.2)
        right.text(  # at the right end, where no curve comes down near 1/n
            0.98,
            1 / n + 0.02,
            text(ID, "uniform_max", lang, n=n),
            color=pal.muted,
            ha="right",
            va="bottom",
            fontsize=9,
            transform=right.get_yaxis_transform(),
        )
        right.set_ylim(0, 1.04)
        right.set_ylabel(text(ID, "max_weight", lang))
        sweep_legend(fig, right, lang, pal)
        fig.suptitle(text(ID, "title", lang, n=n), fontweight="bold")
    return fig
