from __future__ import annotations

from attention_explained.figures import _data
from attention_explained.figures._plots import training_panels
from attention_explained.figures.registry import figure
from attention_explained.figures.style import themed

ID = "training-gradient"


@figure(
    ID,
    description="‖∂L/∂W^Q‖, ‖∂L/∂W^K‖ against step (log) for none / ÷√d_k / QK-norm, per d_k (SGD)",
    data=_data.training,
)
def draw(data, lang: str, theme: str):
    runs = data["sgd"]
    with themed(theme) as pal:
        fig, _ = training_panels(ID, runs, "grad_norm", lang, pal, log_y=True)
    return fig
