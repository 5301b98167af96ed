from __future__ import annotations

import matplotlib.pyplot as plt

from attention_explained.figures import _data
from attention_explained.figures.registry import figure
from attention_explained.figures.strings import text
from attention_explained.figures.style import mixed_font, themed

ID = "saturation-heatmaps"


@figure(
    ID, description="The note's heatmaps done right: d=10/1024 × none/√d/3√d", data=_data.heatmaps
)
def draw(panels, lang: str, theme: str):
    dims, scales = _data.HEATMAP_DIMS, _data.SCALES
    with themed(theme) as pal:
        fig, axes = plt.subplots(
            len(dims), len(scales), figsize=(10.2, 7.4), layout="constrained", squeeze=False
        )
        for r, dim in enumerate(dims):
            for c, scale in enumerate(scales):
                ax, panel = axes[r, c], panels[dim, scale]
                image = ax.imshow(
                    panel["weights"], cmap="cividis", vmin=0.0, vmax=1.0, interpolation="none"
                )
                ax.set_xticks([0, 29], ["1", "30"])
                ax.set_yticks([0, 29], ["1", "30"])
                ax.tick_params(length=2)
                for spine in ax.spines.values():
                    spine.set_visible(False)
                if r == 0:
                    head = text(ID, f"col_{scale}", lang)
                    ax.set_title(head, fontweight="bold", **mixed_font(head))
                if c == 0:
                    row = text(ID, "row", lang, d=dim) + "\n" + text(ID, "query", lang)
                    ax.set_ylabel(row, **mixed_font(row))
                stats = text(ID, "panel", lang, mw=panel["max_weight"], h=panel["entropy"])
                key = text(ID, "key", lang) + "\n" + stats
                ax.set_xlabel(key, color=pal.text, fontsize=9.5, **mixed_font(key))
        bar = fig.colorbar(image, ax=axes, shrink=0.8, pad=0.02)
        label = text(ID, "colorbar", lang)
        bar.set_label(label, **mixed_font(label))
        bar.outline.set_visible(False)
        fig.suptitle(text(ID, "title", lang, seed=_data.HEATMAP_SEED), color=pal.text)
    return fig
