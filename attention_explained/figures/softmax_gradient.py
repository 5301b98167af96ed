from __future__ import annotations

from attention_explained.content import data as experiments
from attention_explained.figures.registry import figure
from attention_explained.figures.strings import text
from attention_explained.figures.style import mixed_font, panels, themed
from attention_explained.figures.sweep_plots import sweep_legend, sweep_panel

NARROW = True  # drawn for a phone's column too (style.panels)
ID = "softmax-gradient"
STRINGS = {
    "alt": {
        "ko": "두 패널. 첫 패널은 소프트맥스 야코비안의 프로베니우스 노름, 둘째 패널은 로짓에 "
        "대한 기울기 노름을 dₖ에 대해 로그 축으로 그렸다. 스케일링이 없으면 둘 다 dₖ가 "
        "커질수록 0에 가까워지고, 스케일링하면 그린 범위 전체에서 거의 평평하다(가장 큰 "
        "값이 가장 작은 값의 1.3배 미만).",
        "en": "Two panels on a log scale against dₖ: the Frobenius norm of the softmax "
        "Jacobian, then the norm of the gradient with respect to the logits. "
        "Without scaling both collapse towards 0 as dₖ grows; with scaling they stay nearly "
        "flat over the whole plotted range (the largest value under 1.3 times the smallest).",
    },
    "jacobian": {
        "ko": "$\\|J\\|_F$ (프로베니우스 노름)",
        "en": "$\\|J\\|_F$ (Frobenius norm)",
    },
    "grad": {
        "ko": "$\\|\\partial L/\\partial z\\|$ (측정값)",
        "en": "$\\|\\partial L/\\partial z\\|$ (measured)",
    },
    "title": {
        "ko": "포화된 소프트맥스는 기울기를 거의 넘기지 않는다",
        "en": "A saturated softmax passes almost no gradient",
    },
}
ALT_CLAIMS = ("figures.gradient_unscaled_collapses_scaled_flat",)


@figure(
    ID,
    description="‖J‖_F and the measured gradient norm against d_k: the vanishing gradient",
    data=experiments.sweep,
)
def draw(data, lang: str, theme: str):
    with themed(theme) as pal:
        fig, (left, right) = panels(1, 2, figsize=(10, 4.3), layout="constrained")
        sweep_panel(left, data, "jacobian_fro", lang, pal, log_y=True)
        label = text(ID, "jacobian", lang)
        left.set_ylabel(label, **mixed_font(label))
        sweep_panel(right, data, "grad_norm", lang, pal, log_y=True)
        label = text(ID, "grad", lang)
        right.set_ylabel(label, **mixed_font(label))
        sweep_legend(fig, right, lang, pal)
        fig.suptitle(text(ID, "title", lang), fontweight="bold")
    return fig
