from __future__ import annotations

import math

from attention_explained.content import data as experiments
from attention_explained.figures.registry import figure
from attention_explained.figures.strings import text
from attention_explained.figures.style import themed
from attention_explained.figures.training_plots import training_panels

NARROW = True  # drawn for a phone's column too (style.panels)
ID = "training-entropy"
STRINGS = {
    "alt": {
        "ko": "세 패널(dₖ = 16, 128, 1024)에 어텐션 행 엔트로피(내트)를 학습 스텝에 "
        "대해 그렸다. ÷√dₖ와 QK 정규화는 최댓값 log 16의 80% 안팎이나 그 위에서 시작해 "
        "학습하면서 천천히 내려온다. 스케일링 없는 어텐션은 처음부터 낮고(dₖ가 클수록 "
        "더 낮다) 끝에는 0에 가깝다.",
        "en": "Three panels (d_k = 16, 128, 1024) of the attention rows' entropy (nats) "
        "against step. ÷√d_k and QK-norm start at about 80% of the maximum, log 16, or above, and "
        "come down slowly as they learn. Unscaled attention starts low, lower for larger "
        "d_k, and ends near 0.",
    },
    "title": {
        "ko": "행 엔트로피: 스케일링이 없으면 처음부터 포화된다",
        "en": "Row entropy: without scaling attention starts saturated",
    },
}
SHARED_STRINGS = {
    "uniform": "uniform_log",
    "ylabel": "row_entropy",
}
ALT_CLAIMS = ("figures.training_entropy_unscaled_low",)


@figure(
    ID,
    description="Mean attention entropy against step for none / ÷√d_k / QK-norm, per d_k (SGD)",
    data=experiments.training,
)
def draw(data, lang: str, theme: str):
    runs = data["sgd"]
    with themed(theme) as pal:
        fig, axes = training_panels(ID, runs, "entropy", lang, pal)
        n = int(runs["n_items"])
        for ax in axes:
            ax.axhline(math.log(n), color=pal.muted, ls=":", lw=1.2)
        axes[-1].text(
            runs["step"][-1],
            math.log(n) - 0.06,
            text(ID, "uniform", lang, n=n),
            color=pal.muted,
            ha="right",
            va="top",
            fontsize=9,
        )
        axes[0].set_ylim(-0.05, math.log(n) + 0.15)
    return fig
