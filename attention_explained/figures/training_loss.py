from __future__ import annotations

from attention_explained.content import data as experiments
from attention_explained.figures.registry import figure
from attention_explained.figures.style import themed
from attention_explained.figures.training_plots import training_panels

NARROW = True  # drawn for a phone's column too (style.panels)
ID = "training-loss"
STRINGS = {
    "alt": {
        "ko": "세 패널(dₖ = 16, 128, 1024)에 학습 스텝에 따른 손실을 스케일링 방식마다 "
        "그렸다. 세 방식 모두 학습하지만, 스케일링 없는 어텐션의 마지막 손실은 dₖ가 "
        "커질수록 높아진다. 모든 dₖ에서 마지막 손실이 가장 낮은 것은 QK 정규화, "
        "그다음이 ÷√dₖ, 가장 높은 것이 스케일링 없음이다.",
        "en": "Three panels (d_k = 16, 128, 1024) of training loss against step for each "
        "scaling. All three learn, but the final loss of unscaled attention is higher "
        "the larger d_k is. At every d_k QK-norm ends lowest, ÷√d_k next and no "
        "scaling highest.",
    },
    "ylabel": {"ko": "손실", "en": "loss"},
    "title": {
        "ko": "학습 손실: $d_k$가 크면 스케일링 없는 어텐션이 뒤처진다",
        "en": "Training loss: without scaling, attention lags at large $d_k$",
    },
}
ALT_CLAIMS = ("figures.training_loss_order",)


@figure(
    ID,
    description="Training loss against step for none / ÷√d_k / QK-norm, one panel per d_k (SGD)",
    data=experiments.training,
)
def draw(data, lang: str, theme: str):
    runs = data["sgd"]
    with themed(theme) as pal:
        fig, axes = training_panels(ID, runs, "loss", lang, pal)
        axes[0].set_ylim(bottom=0)
    return fig
