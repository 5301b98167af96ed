"""Markdown rewriting, as pure functions: ``{{ae:name}}`` numbers and figure lines.

Claim markers are checked by :mod:`attention_explained.sitebuild.claims`.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping

PLACEHOLDER = re.compile(r"\{\{\s*ae:([^}\s]*)\s*\}\}")
FIGURE_LINE = re.compile(r"!\[([^\]]*)\]\(figures/([^)\s#]+)\.svg\)")


class MarkdownError(ValueError):
    """A page refers to a number or figure that does not exist; the message says which."""


def has_numbers(markdown: str) -> bool:
    return "{{" in markdown and "ae:" in markdown


def expand_numbers(markdown: str, numbers: Mapping[str, str], where: str) -> str:
    """Replace every ``{{ae:name}}`` with ``numbers[name]``; raise naming an unknown one."""

    def replace(match: re.Match) -> str:
        name = match.group(1)
        if name not in numbers:
            raise MarkdownError(
                f"unknown number {{{{ae:{name}}}}} in {where}; "
                "list the names with `python -m attention_explained numbers`"
            )
        return numbers[name]

    expanded = PLACEHOLDER.sub(replace, markdown)
    if "{{ae:" in expanded.replace(" ", ""):
        raise MarkdownError(f"malformed {{{{ae:...}}}} placeholder in {where}")
    return expanded


def figures_without_alt(markdown: str) -> list[str]:
    """Figure ids whose line leaves the alt text to the package (and so states its claims)."""
    return [m.group(2) for m in FIGURE_LINE.finditer(markdown) if not m.group(1)]


def figure_ids_in(markdown: str) -> list[str]:
    """The figure ids a page shows, in order."""
    return [m.group(2) for m in FIGURE_LINE.finditer(markdown)]


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
