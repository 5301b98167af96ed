from __future__ import annotations

from attention_explained.content import data as experiments
from attention_explained.figures.registry import figure
from attention_explained.figures.style import themed
from attention_explained.figures.training_plots import training_panels

NARROW = True  # drawn for a phone's column too (style.panels)
ID = "training-gradient"
STRINGS = {
    "alt": {
        "ko": "세 패널(dₖ = 16, 128, 1024)에 W^Q와 W^K의 기울기 노름을 로그 축으로 "
        "그렸다. 스케일링 없는 어텐션은 처음에는 다른 두 방식보다 기울기가 크다. dₖ = "
        "1024에서는 학습이 진행되면서 크게 요동치며 몇 자릿수 아래로 떨어진다. 같은 dₖ에서 "
        "÷√dₖ의 기울기는 몇 배, QK 정규화는 열 배에서 스무 배쯤 줄어들 뿐, 둘 다 기울기 노름이 "
        "기준값 아래로 내려간 스텝은 없다.",
        "en": "Three panels (d_k = 16, 128, 1024) of the gradient norm of W^Q and W^K on "
        "a log scale. Unscaled attention starts with a larger gradient than the other "
        "two. At d_k = 1024 it then swings wildly and drops by orders of magnitude as "
        "training goes on. There ÷√d_k's gradient shrinks a few times, QK-norm's about ten "
        "to twenty times; neither has steps below the quiet threshold.",
    },
    "ylabel": {
        "ko": "$W^Q$, $W^K$의 기울기 노름 (로그 축)",
        "en": "gradient norm of $W^Q$, $W^K$ (log scale)",
    },
    "title": {
        "ko": "쿼리·키 투영의 기울기",
        "en": "The gradient reaching the query and key projections",
    },
}
ALT_CLAIMS = ("figures.training_gradient_unscaled_large_then_vanishes",)


@figure(
    ID,
    description="‖∂L/∂W^Q‖, ‖∂L/∂W^K‖ against step (log) for none / ÷√d_k / QK-norm, per d_k (SGD)",
    data=experiments.training,
)
def draw(data, lang: str, theme: str):
    runs = data["sgd"]
    with themed(theme) as pal:
        fig, _ = training_panels(ID, runs, "grad_norm", lang, pal, log_y=True)
    return fig
