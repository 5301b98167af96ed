"""Matplotlib set-up shared by every figure: backend, Hangul font, theme colours, stable output."""

from __future__ import annotations

import dataclasses
import functools
import io
import logging
import re
import warnings
from contextlib import contextmanager
from dataclasses import dataclass
from importlib.util import find_spec
from pathlib import Path

import matplotlib

# TensorFlow's bundled Keras imports matplotlib.pyplot when it can, so choose the backend
# here, before anything imports pyplot, instead of trusting import order.
matplotlib.use("Agg", force=True)

import matplotlib.pyplot as plt
from matplotlib import font_manager
from matplotlib.mathtext import MathTextParser

HANGUL_FONT = "NanumGothic"


def _register_hangul_font() -> None:
    """Add NanumGothic (OFL) from the koreanize-matplotlib wheel without importing the package.

    Importing koreanize_matplotlib would rewrite rcParams as a side effect; we only need
    the font file. DejaVu Sans stays first so that "−" (U+2212) and Latin glyphs come from
    it, and Hangul falls back to NanumGothic glyph by glyph.
    """
    spec = find_spec("koreanize_matplotlib")  # locates the wheel without executing it
    if spec is None or not spec.submodule_search_locations:
        raise RuntimeError("koreanize-matplotlib is not installed; it provides NanumGothic")
    fonts = Path(spec.submodule_search_locations[0]) / "fonts"
    for name in ("NanumGothic.ttf", "NanumGothicBold.ttf"):  # bold titles need the bold face
        font_manager.fontManager.addfont(str(fonts / name))
    # NanumGothicBold's own table says weight 600, so every bold title made matplotlib log
    # "Failed to find font weight bold for NanumGothic, now using 600" (three lines a figure
    # in the asset step's output). It is the family's bold face: file it under bold (700).
    # The same file is chosen as before, so the drawings do not change.
    for i, entry in enumerate(font_manager.fontManager.ttflist):
        if Path(entry.fname).name == "NanumGothicBold.ttf" and entry.weight != 700:
            font_manager.fontManager.ttflist[i] = dataclasses.replace(entry, weight=700)


_register_hangul_font()

matplotlib.rcParams.update(
    {
        "font.family": ["DejaVu Sans", HANGUL_FONT],
        "svg.fonttype": "path",  # text as paths: readers need no Hangul font
        "svg.hashsalt": "attention-explained",  # stable ids inside the SVG
        "svg.image_inline": True,
        "axes.unicode_minus": True,
        "figure.dpi": 100,
        "savefig.dpi": 100,
        "savefig.transparent": True,
        "path.simplify": True,
        "axes.spines.top": False,
        "axes.spines.right": False,
        "font.size": 10.5,
        "axes.titlesize": 11.5,
        "legend.frameon": False,
    }
)


# matplotlib's own parse cache: an lru_cache on a method, so it is keyed on the parser, and
# every figure's renderer makes its own parser. Kept for the test that compares the two
# (and found again when a `mkdocs serve` worker re-imports this module).
OWN_MATHTEXT_CACHE = getattr(MathTextParser._parse_cached, "replaces", MathTextParser._parse_cached)


@functools.lru_cache(maxsize=1024)
def shared_mathtext_parse(output_type, s, dpi, prop, antialiased, load_glyph_flags):
    """The one parse cache behind every renderer's parser (see ``_parse_cached`` below).
    Public so that a test can read its ``cache_info()``: hits, and no new misses."""
    return OWN_MATHTEXT_CACHE.__wrapped__(
        _PARSERS[output_type], s, dpi, prop, antialiased, load_glyph_flags
    )


_PARSERS: dict[str, MathTextParser] = {}


def _parse_cached(self, s, dpi, prop, antialiased, load_glyph_flags):
    """One mathtext cache for every renderer: without it each figure (each ko/en variant)
    parsed the same labels and log-scale tick labels ($10^{2}$) again, a fifth of the
    drawing time. A parse depends on the parser only through its output type."""
    _PARSERS.setdefault(self._output_type, self)
    return shared_mathtext_parse(self._output_type, s, dpi, prop, antialiased, load_glyph_flags)


_parse_cached.replaces = OWN_MATHTEXT_CACHE
MathTextParser._parse_cached = _parse_cached


# -- Readable on a phone ----------------------------------------------------------------
# Text is drawn as paths, so on screen it is its size in pt × the width the <img> is shown
# at / the figure's width in pt. Every variant is drawn for the narrowest column it is served
# in: a figure with a narrow variant (``NARROW = True`` in its module) shows its wide one only
# on screens ≥ ``NARROW_BELOW`` wide (Material's sidebar breakpoint; the column is then
# ≥ ``COLUMN_PX["wide"]``) and its narrow one below; a figure without one shows its only
# variant on a phone too. tests/test_browser_figure_text.py measures the result in Chromium.
MIN_TEXT_PX = 9.0  # the smallest text a reader sees, in CSS px
# ... and in a narrow variant, drawn for phones: readers found 9 px on a phone hard to read
# (Material's body text there is 12.8 px)
PHONE_TEXT_PX = 10.5
NARROW_BELOW = "60em"  # the media query's breakpoint: max-width below it gets the narrow one
# the narrowest content column each is shown in; "narrow": a fold's body on a 390 px phone
# (332 px), since a page may fold a figure with its method
COLUMN_PX = {"wide": 660, "narrow": 330}
NARROW_WIDTH = 4.8  # inches: a narrow variant's width (345.6 pt), panels one above another
NARROW_PANEL_HEIGHT = 2.5  # inches per stacked panel
NARROW_EXTRA_HEIGHT = 1.1  # inches for the title and a legend under the panels
LAYOUTS = ("wide", "narrow")

_layout = ["wide"]


@contextmanager
def layout(name: str):
    """Draw for ``name`` ("wide" or "narrow") inside the block (see :func:`panels`)."""
    if name not in LAYOUTS:
        raise ValueError(f"layout must be one of {', '.join(LAYOUTS)}, not {name!r}")
    _layout.append(name)
    try:
        yield
    finally:
        _layout.pop()


def narrow() -> bool:
    """True while a narrow variant (for a phone's column) is being drawn."""
    return _layout[-1] == "narrow"


def panels(
    nrows: int,
    ncols: int,
    *,
    figsize: tuple[float, float],
    panel_height: float = NARROW_PANEL_HEIGHT,
    sharex: bool | str = False,
    sharey: bool | str = False,
    squeeze: bool = True,
    order: str = "row",
    **kwargs,
):
    """``plt.subplots`` for the wide variant; for the narrow one the same axes array (same
    shape and sharing) with the panels one above another, ``NARROW_WIDTH`` wide, so that the
    figure's code runs unchanged. ``order="col"`` stacks a grid column by column."""
    import numpy as np

    if not narrow():
        return plt.subplots(
            nrows, ncols, figsize=figsize, sharex=sharex, sharey=sharey, squeeze=squeeze, **kwargs
        )
    count = nrows * ncols
    height = count * panel_height + NARROW_EXTRA_HEIGHT
    fig, stacked = plt.subplots(count, 1, figsize=(NARROW_WIDTH, height), squeeze=False, **kwargs)
    axes = stacked.reshape((nrows, ncols) if order == "row" else (ncols, nrows))
    axes = axes if order == "row" else axes.T
    for share, join in ((sharex, "sharex"), (sharey, "sharey")):
        for (r, c), ax in np.ndenumerate(axes):
            first = {True: axes[0, 0], "all": axes[0, 0], "row": axes[r, 0], "col": axes[0, c]}
            leader = first.get(share)
            if leader is not None and leader is not ax:
                getattr(ax, join)(leader)
    if squeeze:
        axes = axes.squeeze()
        return fig, (axes.item() if axes.ndim == 0 else axes)
    return fig, axes


def _texts(fig):
    from matplotlib.text import Text

    return [t for t in fig.findobj(Text) if t.get_visible() and t.get_text().strip()]


def smallest_text_pt(fig) -> float:
    """The smallest font size (pt) of any visible text in ``fig``."""
    return min((t.get_fontsize() for t in _texts(fig)), default=0.0)


def wrap_outside_math(label: str, fits) -> str:
    """``label`` with line breaks at spaces outside ``$…$`` so that each line ``fits``;
    outside parentheses and brackets too (a "(seed 0)" stays whole), unless a line cannot
    fit without breaking inside one."""
    whole = _wrap(label, fits, keep_groups=True)
    if all(fits(line) for line in whole.split("\n")):
        return whole
    return _wrap(label, fits, keep_groups=False)


def _wrap(label: str, fits, *, keep_groups: bool) -> str:
    lines = []
    for line in label.split("\n"):
        words, math, depth = [], False, 0
        start = 0
        for i, char in enumerate(line):
            if char == "$":
                math = not math
            elif math:
                continue
            elif char in "([":
                depth += 1
            elif char in ")]":
                depth = max(0, depth - 1)
            elif char == " " and not (depth and keep_groups):
                words.append(line[start:i])
                start = i + 1
        words.append(line[start:])
        current = words[0]
        for word in words[1:]:
            if fits(current + " " + word):
                current += " " + word
            else:
                lines.append(current)
                current = word
        lines.append(current)
    return "\n".join(lines)


def fit_to_column(fig, column_px: float) -> None:
    """Make ``fig`` readable at ``column_px`` CSS px wide: every text at least
    ``MIN_TEXT_PX`` there (``PHONE_TEXT_PX`` in a narrow variant); in a narrow variant, a
    title or legend entry wider than the figure, or a y label taller than its panel, broken
    into lines (between words, never inside ``$…$``)."""
    width_pt = fig.get_figwidth() * 72
    smallest = PHONE_TEXT_PX if narrow() else MIN_TEXT_PX
    floor = round(smallest * width_pt / column_px + 0.05, 1)
    texts = _texts(fig)
    for t in texts:
        if t.get_fontsize() < floor:
            t.set_fontsize(floor)
    if not narrow():
        return
    renderer = fig.canvas.get_renderer()
    across = fig.get_figwidth() * fig.dpi * 0.94
    owner = {id(ax.yaxis.label): ax for ax in fig.axes}  # a y label's axes
    for t in texts:
        # A horizontal text must fit the figure's width; a y label its axes' height, or it
        # runs into the panel stacked under it.
        upright = not t.get_rotation() % 180
        if upright:
            room = across
        elif id(t) in owner:
            room = owner[id(t)].get_window_extent(renderer).height * 1.05
        else:
            continue

        def length(t=t, upright=upright) -> float:
            extent = t.get_window_extent(renderer)
            return extent.width if upright else extent.height

        label = t.get_text()
        if length() <= room:
            continue

        def fits(candidate: str, t=t, room=room, length=length) -> bool:
            probe = t.get_text()
            t.set_text(candidate)
            size = length()
            t.set_text(probe)
            return size <= room

        t.set_text(wrap_outside_math(label, fits))


@dataclass(frozen=True)
class Palette:
    text: str
    muted: str
    grid: str
    box: str
    series: dict[str, str]  # scaling rule → colour, identical meaning in both themes
    accent: str


# Okabe-Ito based series colours, adjusted for contrast on Material's white and slate pages.
PALETTES = {
    "light": Palette(
        text="#1f2328",
        muted="#59636e",
        grid="#d0d7de",
        box="#f3f4f6",
        series={"none": "#c2410c", "sqrt": "#1d6fb8", "unit": "#0f8a5f", "theory": "#59636e"},
        accent="#7c3aed",
    ),
    "dark": Palette(
        text="#e6edf3",
        muted="#9aa4ae",
        grid="#3d444d",
        box="#2a2f37",
        series={"none": "#fb923c", "sqrt": "#60a5fa", "unit": "#34d399", "theory": "#9aa4ae"},
        accent="#c4b5fd",
    ),
}


def palette(theme: str) -> Palette:
    return PALETTES[theme]


def _colour_map(source: str, target: str) -> dict[str, str]:
    old, new = PALETTES[source], PALETTES[target]
    pairs = {}
    for field in ("text", "muted", "grid", "box", "accent"):
        pairs[getattr(old, field)] = getattr(new, field)
    for role, colour in old.series.items():
        pairs[colour] = new.series[role]
    return pairs


def recolour_svg(svg: bytes, source: str, target: str) -> bytes:
    """The ``target``-theme SVG from the ``source`` one: themes differ only in palette colours.

    Drawing a figure once and swapping its colours halves the render time; the tests check
    that the result is byte-identical to drawing the other theme directly.
    """
    text = svg.decode("utf-8")
    mapping = _colour_map(source, target)
    pattern = re.compile("|".join(re.escape(c) for c in mapping))
    return pattern.sub(lambda m: mapping[m.group(0)], text).encode("utf-8")


@contextmanager
def themed(theme: str):
    """rcParams for one theme; the figure background stays transparent in both."""
    pal = palette(theme)
    with matplotlib.rc_context(
        {
            "text.color": pal.text,
            "axes.labelcolor": pal.text,
            "axes.edgecolor": pal.muted,
            "axes.titlecolor": pal.text,
            "xtick.color": pal.muted,
            "ytick.color": pal.muted,
            "xtick.labelcolor": pal.text,
            "ytick.labelcolor": pal.text,
            "grid.color": pal.grid,
            "axes.facecolor": "none",
            "figure.facecolor": "none",
            "legend.labelcolor": pal.text,
        }
    ):
        yield pal


_HANGUL = re.compile(r"[\uac00-\ud7a3]")


def mixed_font(label: str) -> dict:
    """Text keyword arguments for ``label``: a line mixing Hangul with ``$…$`` math needs them.

    Mathtext draws a line's non-math text with one font and no fallback, so such a line gets
    NanumGothic (Hangul and Latin) as that font; the math itself stays DejaVu. NanumGothic has
    no U+2212, so write minus signs inside ``$…$`` on those lines. A missing glyph still
    fails the build (see :func:`to_bytes`).
    """
    for line in label.split("\n"):
        if "$" in line and _HANGUL.search(line):
            return {"fontfamily": [HANGUL_FONT, "DejaVu Sans"]}
    return {}


def legend_font(labels) -> dict | None:
    """``prop`` for a legend whose labels include a line mixing Hangul with ``$…$``."""
    font = mixed_font("\n".join(labels))
    return {"family": font["fontfamily"]} if font else None


class MissingGlyphError(RuntimeError):
    """A label used a character that no registered font can draw."""


class _GlyphLog(logging.Handler):
    """Collects mathtext's missing-glyph reports, which are log records, not warnings."""

    def __init__(self):
        super().__init__(logging.WARNING)
        self.messages: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        if "glyph" in record.getMessage():
            self.messages.append(record.getMessage())


CARD_WIDTH_PX = 1200  # a shared link's preview (Open Graph, X): PNG, since none shows SVG


def card_png(fig) -> bytes:
    """``fig`` as the PNG a shared link previews, ``CARD_WIDTH_PX`` wide, on a white ground
    (no software string), in the layout :func:`to_bytes` gave it: call it after that.

    Constrained layout is not idempotent (a second pass moves axes by a tenth of a point), so
    it is not run again here: the card shows the variant's own layout, and drawing a card
    first would have changed the variant."""
    fig.set_layout_engine("none")
    buffer = io.BytesIO()
    dpi = CARD_WIDTH_PX / fig.get_figwidth()
    fig.savefig(buffer, format="png", dpi=dpi, metadata={"Software": None}, facecolor="white")
    return buffer.getvalue()


def to_bytes(fig, fmt: str) -> bytes:
    """Serialise ``fig`` reproducibly: no date in SVG, no software string in PNG.

    An SVG records its smallest text on its root (``data-smallest-text-pt``): the text is
    paths, so this is how a browser test learns the size it shows the text at."""
    smallest = smallest_text_pt(fig)
    metadata = {"Date": None, "Creator": None} if fmt == "svg" else {"Software": None}
    buffer = io.BytesIO()
    mathtext_log = _GlyphLog()
    logging.getLogger("matplotlib.mathtext").addHandler(mathtext_log)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        # Every figure uses layout="constrained", so bbox_inches="tight" (a second full draw)
        # would only repeat work.
        fig.savefig(buffer, format=fmt, metadata=metadata)
    plt.close(fig)
    logging.getLogger("matplotlib.mathtext").removeHandler(mathtext_log)
    missing = [str(w.message) for w in caught if "missing from font" in str(w.message)]
    missing += mathtext_log.messages  # "Font 'default' does not have a glyph for ..."
    if missing:
        raise MissingGlyphError("; ".join(sorted(set(missing))))
    payload = buffer.getvalue()
    if fmt != "svg":
        return payload
    svg = compact_svg(payload.decode("utf-8"))
    svg = svg.replace("<svg ", f'<svg data-smallest-text-pt="{smallest:g}" ', 1)
    return svg.encode("utf-8")


_PATH_DATA = re.compile(r' d="([^"]*)"')
_PATH_TOKEN = re.compile(r"[A-Za-z]|-?(?:\d+\.?\d*|\.\d+)(?:e-?\d+)?")


def _compact_path(match: re.Match) -> str:
    """'M 65.895511 -276.184101 \nL ...' → 'M65.9 -276.18L...': 0.01 pt is far below a pixel."""
    out, previous_is_number = [], False
    for token in _PATH_TOKEN.findall(match.group(1)):
        if token[0].isalpha():
            out.append(token)
            previous_is_number = False
            continue
        value = round(float(token), 2) or 0.0  # "or" turns −0.0 into 0.0
        out.append((" " if previous_is_number else "") + format(value, "g"))
        previous_is_number = True
    return f' d="{"".join(out)}"'


_GLYPH = re.compile(r'(<path id="[^"]+" d=")([^"]*)(" transform=")scale\(0\.015625\)(")')
_TRANSLATE = re.compile(r"translate\(([^)]*)\)")
GLYPH_STEP = 16  # glyph outlines in 1/64 units; 16 of them is ~0.03 pt at body text size


def _coarser_glyph(match: re.Match) -> str:
    """Glyph outlines (the bulk of a Korean SVG) on a 16× coarser grid, scaled back up."""
    coarse = re.sub(
        r"-?\d+(?:\.\d+)?",
        lambda n: str(round(float(n.group(0)) / GLYPH_STEP) or 0),
        match.group(2),
    )
    return f"{match.group(1)}{coarse}{match.group(3)}scale({GLYPH_STEP / 64:g}){match.group(4)}"


def _round_translate(match: re.Match) -> str:
    numbers = [format(round(float(n), 2) or 0.0, "g") for n in match.group(1).split()]
    return f"translate({' '.join(numbers)})"


_HASHED_ID = re.compile(r'id="((?:m|p|image)[0-9a-f]{10})"')


def _renumber_ids(svg: str) -> str:
    """Replace matplotlib's content-hash ids (which hash colours too) with m0, m1, …

    The ids then depend only on the drawing's structure, so a figure's light and dark SVGs
    differ in their colours and nowhere else.
    """
    for n, old in enumerate(dict.fromkeys(_HASHED_ID.findall(svg))):
        svg = svg.replace(f'id="{old}"', f'id="i{n}"').replace(f"#{old}", f"#i{n}")
    return svg


def compact_svg(svg: str) -> str:
    """Shorter path data, coarser glyph grids, short ids, no indentation: the same drawing."""
    svg = _GLYPH.sub(_coarser_glyph, _PATH_DATA.sub(_compact_path, svg))
    return _renumber_ids(re.sub(r">\s+<", "><", _TRANSLATE.sub(_round_translate, svg)))
