"""Render figure variants to files: each figure's data once, then its lang × theme variants."""

from __future__ import annotations

import os
import tempfile
from collections.abc import Callable, Iterable
from pathlib import Path

from attention_explained.figures.registry import LANGS, THEMES, check_ids, get, layouts


class FigureError(RuntimeError):
    """A figure failed; the message names the figure id, language and theme."""


def variant_name(
    figure_id: str, lang: str, theme: str, fmt: str = "svg", layout: str = "wide"
) -> str:
    """``<id>.<lang>.<theme>.<fmt>``, or ``<id>.<lang>.<theme>.narrow.<fmt>`` for phones."""
    return f"{figure_id}.{lang}.{theme}.{'narrow.' if layout == 'narrow' else ''}{fmt}"


def card_name(figure_id: str, lang: str) -> str:
    """``<id>.<lang>.card.png``: the light wide variant as a shared link's preview image."""
    return f"{figure_id}.{lang}.card.png"


def write_atomic(path: Path, payload: bytes) -> None:
    """Write via a temp file in the same folder and rename, so readers never see half a file."""
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(handle, "wb") as out:
            out.write(payload)
        os.chmod(tmp, 0o644)  # mkstemp makes 0600; figures are public files
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def draw(figure_id: str, lang: str = "en", theme: str = "light", layout: str = "wide"):
    """Return the matplotlib Figure ``figure_id`` as the site shows it, for notebooks and REPLs
    (``layout="narrow"``: the variant phones get, for a figure that has one)."""
    from attention_explained import _validate

    _validate.choice("lang", lang, LANGS)
    _validate.choice("theme", theme, THEMES)
    _validate.choice("layout", layout, layouts(figure_id))
    spec = get(figure_id)
    return drawn(spec, spec.data(), lang, theme, layout)


def drawn(spec, data, lang: str, theme: str, layout: str):
    """``spec`` drawn in ``layout``, its text made readable in the column it is shown in."""
    from attention_explained.figures import style

    # the wide variant is the phone's too when the figure has no narrow one
    column = style.COLUMN_PX["narrow" if layouts(spec.id) == ("wide",) else layout]
    with style.layout(layout):
        fig = spec.draw(data, lang, theme)
        style.fit_to_column(fig, column)
    return fig


def render(
    ids: Iterable[str],
    out_dir: Path,
    *,
    langs: Iterable[str] = LANGS,
    themes: Iterable[str] = THEMES,
    progress: Callable[[int, int, str], None] | None = None,
    data: dict | None = None,
    cards: bool = False,
) -> list[Path]:
    """Write ``<id>.<lang>.<theme>.<fmt>`` for every requested variant; return the paths.

    ``data`` may hold figures' data computed elsewhere (by id); the rest is computed here.
    ``cards``: also each language's light wide variant as a PNG preview (:func:`card_name`).
    """
    from attention_explained.figures import style

    ids, langs, themes = check_ids(ids), list(langs), list(themes)
    written = []
    for n, figure_id in enumerate(ids, start=1):
        if progress:
            progress(n, len(ids), figure_id)
        spec = get(figure_id)
        try:
            figure_data = data[figure_id] if data and figure_id in data else spec.data()
        except Exception as exc:
            raise FigureError(f"figure {figure_id!r}: computing its data failed: {exc!r}") from exc
        shapes = layouts(figure_id)
        for lang in langs:
            for layout in shapes:
                done: dict[str, bytes] = {}
                for theme in themes:
                    try:
                        if spec.fmt == "svg" and done:  # same drawing, other palette
                            source, svg = next(iter(done.items()))
                            payload = style.recolour_svg(svg, source, theme)
                        else:
                            fig = drawn(spec, figure_data, lang, theme, layout)
                            payload = style.to_bytes(fig, spec.fmt)
                            done[theme] = payload
                            if cards and layout == "wide" and theme == "light":
                                # after the variant: the card takes its layout, and the
                                # variant is the same with or without a card
                                card = Path(out_dir) / card_name(figure_id, lang)
                                write_atomic(card, style.card_png(fig))
                                written.append(card)
                    except Exception as exc:
                        where = f"lang={lang}, theme={theme}, layout={layout}"
                        raise FigureError(
                            f"figure {figure_id!r} ({where}) failed: {exc!r}"
                        ) from exc
                    name = variant_name(figure_id, lang, theme, spec.fmt, layout)
                    path = Path(out_dir) / name
                    write_atomic(path, payload)
                    written.append(path)
    return written
