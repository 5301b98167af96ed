from __future__ import annotations

import numpy as np

from attention_explained import settings
from attention_explained.figures.registry import figure
from attention_explained.figures.strings import text
from attention_explained.figures.style import legend_font, mixed_font, panels, themed

NARROW = True  # drawn for a phone's column too (style.panels)
ID = "softmax-curve"
STRINGS = {
    "alt": {
        "ko": "두 로짓 [z, 0]의 소프트맥스 p = σ(z)와 그 도함수 p(1−p)를 z에 대해 그린 "
        "그래프. 도함수는 z = 0에서 최댓값 0.25이고, |z|가 커져 p가 0이나 1에 가까워질수록 "
        "0에 가까워진다.",
        "en": "The softmax of two logits [z, 0], p = σ(z), and its derivative p(1−p) "
        "against z. The derivative peaks at 0.25 at z = 0 and approaches 0 as |z| grows "
        "and p approaches 0 or 1.",
    },
    "p": {
        "ko": "$p = \\mathrm{softmax}([z, 0])_1$",
        "en": "$p = \\mathrm{softmax}([z, 0])_1$",
    },
    "dp": {
        "ko": "$\\partial p/\\partial z = p(1 - p)$",
        "en": "$\\partial p/\\partial z = p(1 - p)$",
    },
    "zlabel": {"ko": "로짓 차이 $z$", "en": "logit gap $z$"},
    "saturated": {"ko": "포화: $p(1 - p) < 0.01$", "en": "saturated: $p(1 - p) < 0.01$"},
    "peak": {"ko": "최댓값 0.25 ($z = 0$)", "en": "max 0.25 at $z = 0$"},
    "title": {
        "ko": "p가 0이나 1에 가까워질수록 도함수는 0에 가까워진다",
        "en": "As p approaches 0 or 1, the derivative approaches 0",
    },
}
SATURATED = settings.SATURATED_SLOPE


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
        fig, ax = panels(1, 1, figsize=(7.2, 4.2), panel_height=3.4, layout="constrained")
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
