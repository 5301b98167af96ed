from __future__ import annotations

from attention_explained.figures import _data
from attention_explained.figures._plots import training_panels
from attention_explained.figures.registry import figure
from attention_explained.figures.style import themed

ID = "training-loss"


@figure(
    ID,
    description="Training loss against step for none / ÷√d_k / QK-norm, one panel per d_k (SGD)",
    data=_data.training,
)
def draw(data, lang: str, theme: str):
    runs = data["sgd"]
    with themed(theme) as pal:
        fig, axes = training_panels(ID, runs, "loss", lang, pal)
        axes[0].set_ylim(bottom=0)
    return fig
