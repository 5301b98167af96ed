"""Markdown rewriting, as pure functions: ``{{ae:name}}`` placeholders and figure lines.

The numbers exist before any page is rendered (the asset step makes them); they are filled
in by :mod:`attention_explained.sitebuild.markdown_numbers`, which reads ``PLACEHOLDER``.

Claim markers are checked by :mod:`attention_explained.sitebuild._internal.claims`.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable

PLACEHOLDER = re.compile(r"\{\{\s*ae:([^}\s]*)\s*\}\}")
FIGURE_LINE = re.compile(r"!\[([^\]]*)\]\(figures/([^)\s#]+)\.svg\)")


class MarkdownError(ValueError):
    """A page refers to a number or figure that does not exist; the message says which."""


def has_numbers(markdown: str) -> bool:
    return "{{" in markdown and "ae:" in markdown


def figures_without_alt(markdown: str) -> list[str]:
    """Figure ids whose line leaves the alt text to the package (and so states its claims)."""
    return [m.group(2) for m in FIGURE_LINE.finditer(markdown) if not m.group(1)]


def figure_ids_in(markdown: str) -> list[str]:
    """The figure ids a page shows, in order."""
    return [m.group(2) for m in FIGURE_LINE.finditer(markdown)]


NARROW_MEDIA = "screen and (max-width: 59.984375em)"  # Material's sidebar breakpoint (60em)
_FIGURE_IMG = re.compile(
    r'<img\b[^>]*?\bsrc="(?P<dir>[^"]*?figures/)(?P<id>[^"/]+?)(?P<dark>\.dark)?\.svg'
    r'#only-(?:light|dark)"[^>]*>'
)


def narrow_sources(html: str, narrow_ids: Iterable[str]) -> str:
    """Put each figure ``<img>`` whose id is in ``narrow_ids`` in a ``<picture>`` whose
    ``<source>`` serves its narrow variant (``<id>.narrow[.dark].svg``, drawn for a phone's
    column) on screens narrower than ``NARROW_MEDIA``; the ``<img>`` keeps its attributes, so
    the theme switch (``#only-light``/``#only-dark``), alt text and lazy loading stay."""
    wanted = set(narrow_ids)

    def replace(match: re.Match) -> str:
        if match["id"] not in wanted:
            return match.group(0)
        narrow = f"{match['dir']}{match['id']}.narrow{match['dark'] or ''}.svg"
        return (
            f'<picture><source media="{NARROW_MEDIA}" srcset="{narrow}" type="image/svg+xml">'
            f"{match.group(0)}</picture>"
        )

    return _FIGURE_IMG.sub(replace, html)


def rewrite_figures(
    markdown: str, figure_ids: Iterable[str], alt_text: Callable[[str], str], where: str
) -> str:
    """``![alt](figures/<id>.svg)`` → the light and the dark variant, each lazily loaded.

    An empty alt takes the figure's own alt text (``alt_text(id)``).
    """
    known = tuple(figure_ids)

    def replace(match: re.Match) -> str:
        alt, figure_id = match.group(1), match.group(2)
        if figure_id not in known:
            raise MarkdownError(
                f"unknown figure 'figures/{figure_id}.svg' in {where}; "
                f"valid ids: {', '.join(known)}"
            )
        alt = (alt or alt_text(figure_id)).replace("[", "(").replace("]", ")")
        return (
            f"![{alt}](figures/{figure_id}.svg#only-light){{ loading=lazy }}"
            f"![{alt}](figures/{figure_id}.dark.svg#only-dark){{ loading=lazy }}"
        )

    return FIGURE_LINE.sub(replace, markdown)
