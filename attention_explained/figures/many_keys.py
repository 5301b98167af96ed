from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
from matplotlib.ticker import NullLocator

from attention_explained.content import data as experiments
from attention_explained.figures.registry import figure
from attention_explained.figures.strings import text
from attention_explained.figures.style import legend_font, mixed_font, themed
from attention_explained.settings import MANY_KEYS_D_K

ID = "many-keys"
STRINGS = {
    "alt": {
        "ko": "로그-로그 그래프. 가로축은 한 행의 키 개수 n(4에서 4096), 세로축은 행 최대 "
        "가중치의 평균이다. dₖ = 64에서 √dₖ로 나눈 뒤, 분산 1인 성분과 노트의 "
        "uniform[−3, 3] 성분 모두 n이 커질수록 최대 가중치가 줄지만, 균등한 1/n 점선보다 "
        "점점 더 위에 있다. 노트의 성분은 어느 n에서나 더 뾰족하다.",
        "en": "Log-log plot of the mean row max weight against the number of keys n in a "
        "row (4 to 4096), after dividing by √dₖ at dₖ = 64. For unit-variance components and "
        "for the note's uniform[−3, 3] components alike, the max weight falls as n grows, "
        "but sits ever further above the dotted uniform line 1/n. The note's components "
        "are more peaked at every n.",
    },
    "title": {"ko": "키가 많을수록 (dₖ = {d}, ÷√dₖ)", "en": "More keys (dₖ = {d}, ÷√dₖ)"},
    "xlabel": {"ko": "한 행의 키 개수 $n$", "en": "keys per row $n$"},
    "ylabel": {"ko": "행 최대 가중치 (평균)", "en": "row max weight (mean)"},
    "unit": {"ko": "분산 1인 성분", "en": "unit-variance components"},
    "note": {"ko": "노트의 uniform[−3, 3]", "en": "the note's uniform[−3, 3]"},
    "uniform": {"ko": "균등: $1/n$", "en": "uniform: $1/n$"},
    "band": {"ko": "띠: 시드 {n}개의 범위", "en": "bands: range over {n} seeds"},
}
SHARED_STRINGS: dict[str, str] = {}
ALT_CLAIMS = (
    "beyond.keys.max_weight_falls_relative_grows",
    "beyond.keys.note_components_stay_peaked",
)
FONT = 13  # every text at least 13 pt: the figure is read on a phone


@figure(
    ID,
    description="Mean row max weight ÷√d_k against the number of keys n at d_k = 64, for "
    "unit-variance and the note's components, with the uniform 1/n",
    data=experiments.many_keys,
)
def draw(data, lang: str, theme: str):
    lengths = data["unit"]["length"]
    with themed(theme) as pal, plt.rc_context({"font.size": FONT, "axes.titlesize": FONT + 1}):
        fig, ax = plt.subplots(figsize=(6.4, 5.2), layout="constrained")
        for name, colour, marker in (("note", "none", "s"), ("unit", "sqrt", "o")):
            weights = data[name]["max_weight"]  # [seed, length]
            ax.fill_between(
                lengths, weights.min(0), weights.max(0), color=pal.series[colour], alpha=0.2, lw=0
            )
            ax.plot(
                lengths,
                np.median(weights, 0),
                marker=marker,
                ms=5,
                color=pal.series[colour],
                lw=1.8,
                label=text(ID, name, lang),
            )
        ax.plot(lengths, 1 / lengths, ":", color=pal.muted, lw=1.6, label=text(ID, "uniform", lang))
        ax.set_xscale("log", base=2)
        ax.set_yscale("log")
        ax.yaxis.set_minor_locator(NullLocator())
        ax.set_yticks([1e-3, 1e-2, 1e-1, 1], ["0.001", "0.01", "0.1", "1"])
        ax.set_xticks(lengths[::2], [str(int(n)) for n in lengths[::2]])
        ax.tick_params(labelsize=FONT)
        xlabel, ylabel = text(ID, "xlabel", lang), text(ID, "ylabel", lang)
        ax.set_xlabel(xlabel, fontsize=FONT, **mixed_font(xlabel))
        ax.set_ylabel(ylabel, fontsize=FONT)
        ax.grid(True, which="major", lw=0.5)
        labels = ax.get_legend_handles_labels()[1]
        legend = ax.legend(
            loc="lower left",
            fontsize=FONT,
            title=text(ID, "band", lang, n=weights.shape[0]),
            title_fontsize=FONT,
            prop=legend_font(labels) | {"size": FONT} if legend_font(labels) else {"size": FONT},
        )
        legend.get_title().set_color(pal.muted)
        ax.set_title(text(ID, "title", lang, d=MANY_KEYS_D_K), loc="left", fontweight="bold")
    return fig
