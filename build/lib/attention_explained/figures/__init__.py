"""The figure layer: one small drawing function per figure, registered under a stable id.

Each figure lives in its own module, named after its id (``logit-variance`` →
``logit_variance.py``), so the cache can tell from the files alone which figure changed.
Importing this package is cheap: figure modules, matplotlib and TensorFlow load on demand.
"""

from __future__ import annotations

from attention_explained.figures.registry import (
    FIGURE_IDS,
    LANGS,
    THEMES,
    FigureSpec,
    get,
    load_all,
    module_name,
)
from attention_explained.figures.render import FigureError, draw, render

__all__ = [
    "FIGURE_IDS",
    "LANGS",
    "THEMES",
    "FigureError",
    "FigureSpec",
    "draw",
    "get",
    "load_all",
    "module_name",
    "render",
]
