from __future__ import annotations

import matplotlib.pyplot as plt

from attention_explained.figures.registry import figure
from attention_explained.figures.strings import text
from attention_explained.figures.style import NARROW_WIDTH, legend_font, mixed_font, narrow, themed

ID = "attention-graph"
NARROW = True  # drawn for a phone's column too: the flow runs downwards there
STRINGS = {
    "alt": {
        "ko": "쿼리 하나의 어텐션 계산 그래프. 쿼리 q와 키 k_j에서 로짓 z_j = q·k_j/√dₖ를 "
        "만들고, 소프트맥스(야코비안 J가 있는 곳)를 지나 가중치 p_j가 되며, 출력 "
        "o = Σ p_j v_j에서 밸류 v_j와 만난다. 점선 화살표는 손실 L에서 거슬러 오는 "
        "기울기다. 쿼리와 키로 가는 기울기는 J를 지나고, 밸류로 가는 기울기 "
        "p_j ∂L/∂o는 J를 지나지 않는다.",
        "en": "Computation graph of attention for one query. The query q and the keys k_j "
        "give the logits z_j = q·k_j/√d_k, the softmax (where the Jacobian J sits) turns "
        "them into the weights p_j, and the output o = Σ p_j v_j brings in the values "
        "v_j. Dashed arrows are the gradient flowing back from the loss L. The gradient "
        "to the query and the keys passes through J; the gradient to the values, "
        "p_j ∂L/∂o, does not.",
    },
    "query": {"ko": "쿼리", "en": "query"},
    "keys": {"ko": "키", "en": "keys"},
    "logits": {"ko": "로짓", "en": "logits"},
    "softmax": {"ko": "소프트맥스", "en": "softmax"},
    "jacobian": {"ko": "야코비안 $J$", "en": "Jacobian $J$"},
    "weights": {"ko": "가중치", "en": "weights"},
    "output": {"ko": "출력", "en": "output"},
    "values": {"ko": "밸류", "en": "values"},
    "loss": {"ko": "손실", "en": "loss"},
    "forward": {"ko": "순전파", "en": "forward pass"},
    "through": {"ko": "$J$를 지나는 기울기", "en": "gradient through $J$"},
    "skips": {"ko": "$J$를 지나지 않는 기울기", "en": "gradient that skips $J$"},
    "note": {
        "ko": "소프트맥스가 포화되면 $J \\approx 0$이라 쿼리·키로 가는 기울기는 사라진다.\n"
        "밸류로 가는 기울기는 $J$를 지나지 않지만, 가중치를 독차지한 키의 밸류로만 간다.",
        "en": "Saturated, $J \\approx 0$: the gradient to the query and keys vanishes.\n"
        "The one to the values skips $J$ but reaches only the winning key's value.",
    },
    "note_narrow": {
        "ko": "소프트맥스가 포화되면 $J \\approx 0$이라\n쿼리·키로 가는 기울기는 사라진다.\n"
        "밸류로 가는 기울기는 $J$를 지나지 않지만\n독차지한 키의 밸류로만 간다.",
        "en": "A saturated softmax has $J \\approx 0$:\n"
        "the gradient to the query and keys vanishes.\n"
        "The one to the values skips $J$ but reaches\n"
        "only the winning key's value.",
    },
    "title": {
        "ko": "쿼리·키로 가는 기울기만 야코비안 $J$를 지난다",
        "en": "Only the gradient to the query and keys passes through $J$",
    },
    "title_narrow": {
        "ko": "쿼리·키로 가는 기울기만\n야코비안 $J$를 지난다",
        "en": "Only the gradient to the query\nand keys passes through $J$",
    },
}

# Node centres in data units (the axes span 0–9.8 × −0.9–5.7). Forward runs left to right
# along y = 3; the loss sits above the output, the value vectors below it, and the captions of
# that column go to its right.
NODES = {
    "q": (0.55, 4.1, r"$\mathbf{q}$", "query"),
    "k": (0.55, 1.9, r"$\mathbf{k}_j$", "keys"),
    "z": (2.45, 3.0, r"$z_j$", "logits"),
    "softmax": (4.35, 3.0, "softmax", "jacobian"),
    "p": (6.15, 3.0, r"$p_j$", "weights"),
    "o": (7.75, 3.0, r"$\mathbf{o}$", "output"),
    "v": (7.75, 0.75, r"$\mathbf{v}_j$", "values"),
    "L": (7.75, 5.1, r"$L$", "loss"),
}
BESIDE = ("o", "v", "L")  # captioned on the right
FORMULAS = {  # under the caption, pure mathtext
    "z": r"$\mathbf{q}\cdot\mathbf{k}_j/\sqrt{d_k}$",
    "o": r"$\Sigma_j\, p_j\mathbf{v}_j$",
}


# The phone's layout (axes 0–6 × 0–10.4): the forward chain runs down x = 3.1 with its
# captions on the left; the gradient through J bows back up on the right; the values come in
# from the right of the output, the loss sits under it.
NODES_NARROW = {
    "q": (1.75, 9.3, r"$\mathbf{q}$", "query"),
    "k": (4.45, 9.3, r"$\mathbf{k}_j$", "keys"),
    "z": (3.1, 7.75, r"$z_j$", "logits"),
    "softmax": (3.1, 6.2, "softmax", "jacobian"),
    "p": (3.1, 4.65, r"$p_j$", "weights"),
    "o": (3.1, 3.1, r"$\mathbf{o}$", "output"),
    "v": (5.35, 3.1, r"$\mathbf{v}_j$", "values"),
    "L": (3.1, 1.55, r"$L$", "loss"),
}
ABOVE_NARROW = ("q", "k")  # captioned above; "v" below; the chain on its left


def graph() -> dict:
    """The graph is fixed: no data, only the layout."""
    return {"nodes": NODES}


def _node(ax, key, pal, lang, *, face, nodes=NODES):
    x, y, label, caption = nodes[key]
    box = ax.text(
        x,
        y,
        text(ID, "softmax", lang) if key == "softmax" else label,
        ha="center",
        va="center",
        fontsize=13 if key == "softmax" else 16,
        color=pal.text,
        zorder=5,
        bbox={"boxstyle": "round,pad=0.45", "fc": face, "ec": pal.muted, "lw": 1.2},
    )
    under = text(ID, caption, lang)
    if key in FORMULAS:
        under += "\n" + FORMULAS[key]
    if nodes is NODES_NARROW:
        where = "above" if key in ABOVE_NARROW else "below" if key == "v" else "left"
    else:
        where = "right" if key in BESIDE else "below"
    ax.text(
        {"right": x + 0.42, "left": x - (1.0 if key == "softmax" else 0.5)}.get(where, x),
        {"above": y + 0.5, "below": y - 0.55}.get(where, y),
        under,
        ha={"right": "left", "left": "right"}.get(where, "center"),
        va={"above": "bottom", "below": "top"}.get(where, "center"),
        fontsize=13,
        color=pal.accent if key == "softmax" else pal.muted,
        fontweight="bold" if key == "softmax" else "normal",
        linespacing=1.5,
        **mixed_font(under),
    )
    return box


def _arrow(ax, start, end, colour, *, dashed=False, rad=0.0, width=1.4):
    return ax.annotate(
        "",
        xy=(0.5, 0.5),
        xycoords=end,
        xytext=(0.5, 0.5),
        textcoords=start,
        arrowprops={
            "arrowstyle": "-|>",
            "color": colour,
            "lw": width,
            "ls": (0, (4, 2.5)) if dashed else "-",
            "mutation_scale": 14,
            "shrinkA": 2,
            "shrinkB": 2,
            "patchA": start.get_bbox_patch(),
            "patchB": end.get_bbox_patch(),
            "connectionstyle": f"arc3,rad={rad}",
        },
        zorder=3,
    )


# What differs between the two layouts; the drawing below is one. ``backward``: the gradient
# through J, arrow by arrow with its bow; ``dl_do`` and ``skip_label``: where the two gradient
# labels go (x, y, ha, va); ``legend``: its placement; ``note``/``title``: the string keys.
LAYOUTS = {
    "wide": {
        "figsize": (6.3, 4.7),
        "xlim": (0, 9.8),
        "ylim": (-0.55, 5.7),
        "nodes": NODES,
        "loss_bow": 0.45,  # from the loss down to the output, bowed left
        "dl_do": (7.02, 4.05, "right", "center"),
        # up the chain through J, bowed above the forward chain
        "backward": [
            ("o", "p", 0.45),
            ("p", "softmax", 0.45),
            ("softmax", "z", 0.45),
            ("z", "q", 0.3),
            ("z", "k", -0.3),
        ],
        "values_bow": 0.45,  # from the output down to the values, left of the forward arrow
        "skip_label": (7.02, 1.45, "right", "center"),
        "legend": {"loc": "upper left", "bbox_to_anchor": (0.0, 1.02)},
        "note": ("note", -0.5, "bottom"),
        "title": "title",
    },
    "narrow": {
        "figsize": (NARROW_WIDTH, 8.7),  # room for the note's four lines above the legend
        "xlim": (0, 6.2),
        "ylim": (-3.0, 10.4),
        "nodes": NODES_NARROW,
        "loss_bow": -0.5,  # from the loss up to the output, bowed left
        "dl_do": (2.55, 2.3, "right", "center"),
        # up the chain through J, bowed right
        "backward": [
            ("o", "p", 0.5),
            ("p", "softmax", 0.5),
            ("softmax", "z", 0.5),
            ("z", "k", 0.3),
            ("z", "q", 0.3),
        ],
        "values_bow": 0.5,  # from the output to the values, under the forward arrow
        "skip_label": (4.25, 1.95, "center", "top"),
        "legend": {"loc": "lower left", "bbox_to_anchor": (0.0, 0.0), "frameon": False},
        "note": ("note_narrow", 0.75, "top"),
        "title": "title_narrow",
    },
}
FORWARD = [
    ("q", "z"),
    ("k", "z"),
    ("z", "softmax"),
    ("softmax", "p"),
    ("p", "o"),
    ("v", "o"),
    ("o", "L"),
]


@figure(
    ID,
    description="Computation graph q, k → z → softmax (J) → p → o ← v, with the two gradient paths",
    data=graph,
)
def draw(data, lang: str, theme: str):
    """Wide: forward left to right; on a phone (``narrow()``) the same graph flows downwards."""
    layout = LAYOUTS["narrow" if narrow() else "wide"]
    with themed(theme) as pal:
        fig, ax = plt.subplots(figsize=layout["figsize"], layout="constrained")
        ax.set_xlim(*layout["xlim"])
        ax.set_ylim(*layout["ylim"])
        ax.axis("off")
        face = {key: pal.box for key in NODES}
        face["softmax"] = pal.accent + "33"
        nodes = {
            key: _node(ax, key, pal, lang, face=face[key], nodes=layout["nodes"]) for key in NODES
        }
        through, skips = pal.series["none"], pal.series["unit"]
        for a, b in FORWARD:
            _arrow(ax, nodes[a], nodes[b], pal.muted)
        _arrow(ax, nodes["L"], nodes["o"], pal.text, dashed=True, rad=layout["loss_bow"], width=2.0)
        x, y, ha, va = layout["dl_do"]
        ax.text(x, y, r"$\partial L/\partial\mathbf{o}$", ha=ha, va=va, fontsize=13, color=pal.text)
        for a, b, rad in layout["backward"]:
            _arrow(ax, nodes[a], nodes[b], through, dashed=True, rad=rad, width=2.0)
        _arrow(ax, nodes["o"], nodes["v"], skips, dashed=True, rad=layout["values_bow"], width=2.0)
        x, y, ha, va = layout["skip_label"]
        label = r"$p_j\,\partial L/\partial\mathbf{o}$"
        ax.text(x, y, label, ha=ha, va=va, fontsize=13, color=skips)
        handles = [
            plt.Line2D([], [], color=pal.muted, lw=1.4),
            plt.Line2D([], [], color=through, lw=2.0, ls=(0, (4, 2.5))),
            plt.Line2D([], [], color=skips, lw=2.0, ls=(0, (4, 2.5))),
        ]
        labels = [text(ID, key, lang) for key in ("forward", "through", "skips")]
        prop = {**(legend_font(labels) or {}), "size": 12.5}
        ax.legend(handles, labels, prop=prop, handlelength=2.6, **layout["legend"])
        key, y, va = layout["note"]
        note = text(ID, key, lang)
        ax.text(
            0.0, y, note, fontsize=12.5, color=pal.text, va=va, linespacing=1.5, **mixed_font(note)
        )
        title = text(ID, layout["title"], lang)
        fig.suptitle(title, fontweight="bold", **mixed_font(title))
    return fig
