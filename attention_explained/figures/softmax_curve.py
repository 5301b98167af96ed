from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np

from attention_explained.figures.registry import figure
from attention_explained.figures.strings import text
from attention_explained.figures.style import legend_font, mixed_font, themed

ID = "softmax-curve"
SATURATED = 0.01


def two_logit_softmax() -> dict[str, np.ndarray]:
    """p = softmax([z, 0])₁ and ∂p/∂z, the latter read off the core's softmax Jacobian."""
    from attention_explained import softmax_jacobian
    from attention_explained._tf import tf

    z = np.linspace(-10, 10, 401)
    logits = tf.stack([tf.constant(z), tf.zeros(len(z), tf.float64)], axis=-1)
    probs = tf.nn.softmax(logits, axis=-1)
    slope = softmax_jacobian(probs)[:, 0, 0]  # = p(1 − p)
    return {"z": z, "p": probs[:, 0].numpy(), "slope": slope.numpy()}


@figure(
    ID, description="softmax of two logits [z, 0] and its derivative p(1−p)", data=two_logit_softmax
)
def draw(data, lang: str, theme: str):
    z, p, slope = data["z"], data["p"], data["slope"]
    with themed(theme) as pal:
        fig, ax = plt.subplots(figsize=(7.2, 4.2), layout="constrained")
        flat = slope < SATURATED
        ax.fill_between(
            z,
            0,
            1.05,
            where=flat,
            color=pal.series["none"],
            alpha=0.10,
            lw=0,
            label=text(ID, "saturated", lang),
        )
        ax.plot(z, p, color=pal.series["sqrt"], lw=2, label=text(ID, "p", lang))
        ax.plot(z, slope, color=pal.series["none"], lw=2, label=text(ID, "dp", lang))
        peak = text(ID, "peak", lang)
        ax.annotate(
            peak,
            xy=(0, 0.25),
            xytext=(2.2, 0.42),
            color=pal.text,
            arrowprops={"arrowstyle": "->", "color": pal.muted},
            **mixed_font(peak),
        )
        ax.set_xlim(z[0], z[-1])
        ax.set_ylim(0, 1.05)
        zlabel = text(ID, "zlabel", lang)
        ax.set_xlabel(zlabel, **mixed_font(zlabel))
        ax.grid(True, lw=0.5)
        ax.legend(loc="upper left", prop=legend_font(ax.get_legend_handles_labels()[1]))
        ax.set_title(text(ID, "title", lang), loc="left", fontweight="bold")
    return fig
