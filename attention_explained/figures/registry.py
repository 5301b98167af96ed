"""Figure ids, their modules, and the ``@figure`` decorator that registers a drawing function."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from importlib import import_module
from typing import Any

from attention_explained.settings import LANGS  # noqa: F401 - re-exported as figures.LANGS

THEMES = ("light", "dark")

# The stable ids, in reading order. Adding a figure: add its id here and a module
# attention_explained/figures/<id with "_" for "-">.py that decorates one function.
FIGURE_IDS = (
    "saturation-heatmaps",
    "logit-histograms",
    "logit-variance",
    "softmax-saturation",
    "softmax-gradient",
    "softmax-curve",
    "attention-graph",
    "init-logit-std",
    "temperature",
    "multi-head-diagram",
    "training-loss",
    "training-entropy",
    "training-gradient",
    "after-lr-sensitivity",
    "after-max-logit",
    "after-spread",
    "many-keys",
)


@dataclass(frozen=True)
class FigureSpec:
    id: str
    description: str
    draw: Callable[..., Any]  # draw(data, lang, theme) -> matplotlib Figure
    data: Callable[[], Any]  # computed once, shared by the four variants
    fmt: str = "svg"


# Every registered figure by id, filled as the figure modules are imported. Public so that a
# test can put a broken spec in one figure's place (monkeypatch.setitem) and see it named.
REGISTRY: dict[str, FigureSpec] = {}


def module_name(figure_id: str) -> str:
    return "attention_explained.figures." + figure_id.replace("-", "_")


def figure(figure_id: str, *, description: str, data: Callable[[], Any], fmt: str = "svg"):
    """Register ``draw(data, lang, theme)`` under ``figure_id``; its module must match the id."""

    def decorate(draw):
        if figure_id not in FIGURE_IDS:
            raise ValueError(f"figure id {figure_id!r} is not listed in FIGURE_IDS")
        if draw.__module__ != module_name(figure_id):
            raise ValueError(f"figure {figure_id!r} must live in {module_name(figure_id)}")
        REGISTRY[figure_id] = FigureSpec(figure_id, description, draw, data, fmt)
        return draw

    return decorate


def check_ids(ids) -> list[str]:
    """Return ``ids`` as a list, or raise naming the unknown ones and the valid ids."""
    unknown = [i for i in ids if i not in FIGURE_IDS]
    if unknown:
        raise ValueError(
            f"unknown figure id(s): {', '.join(unknown)}; valid ids: {', '.join(FIGURE_IDS)}"
        )
    return list(ids)


def get(figure_id: str) -> FigureSpec:
    check_ids([figure_id])
    if figure_id not in REGISTRY:
        import_module(module_name(figure_id))
    return REGISTRY[figure_id]


def layouts(figure_id: str) -> tuple[str, ...]:
    """The layouts ``figure_id`` is drawn in: "wide", and "narrow" for phones if its module
    says ``NARROW = True`` (its drawing then uses ``style.panels`` or ``style.narrow()``)."""
    spec = get(figure_id)
    return (
        ("wide", "narrow")
        if getattr(import_module(spec.draw.__module__), "NARROW", False)
        else ("wide",)
    )


def load_all() -> list[FigureSpec]:
    return [get(i) for i in FIGURE_IDS]
