from __future__ import annotations

import matplotlib.pyplot as plt

from attention_explained.figures import _data
from attention_explained.figures._plots import sweep_legend, sweep_panel
from attention_explained.figures.registry import figure
from attention_explained.figures.strings import text
from attention_explained.figures.style import mixed_font, themed

ID = "softmax-gradient"


@figure(
    ID,
    description="‖J‖_F and the measured gradient norm against d: the vanishing gradient",
    data=_data.sweep,
)
def draw(data, lang: str, theme: str):
    with themed(theme) as pal:
        fig, (left, right) = plt.subplots(1, 2, figsize=(10, 4.3), layout="constrained")
        sweep_panel(left, data, "jacobian_fro", lang, pal, log_y=True)
        label = text(ID, "jacobian", lang)
        left.set_ylabel(label, **mixed_font(label))
        sweep_panel(right, data, "grad_norm", lang, pal, log_y=True)
        label = text(ID, "grad", lang)
        right.set_ylabel(label, **mixed_font(label))
        sweep_legend(fig, right, lang, pal)
        fig.suptitle(text(ID, "title", lang), fontweight="bold")
    return fig
