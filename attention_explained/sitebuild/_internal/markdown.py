"""Markdown rewriting, as pure functions: ``{{ae:name}}`` numbers and figure lines.

Numbers go in twice. ``mark_numbers`` turns each ``{{ae:name}}`` into a token that
Markdown leaves alone, so a page can be rendered before the numbers exist (they come from
the training grids, the slowest part of a cold build); ``fill_numbers`` puts the numbers in
the page's HTML and in the search index once they do. A number inside math or a heading
would be typeset or turned into an anchor as its token, so the rendered page is checked for
that (``misplaced_numbers``).

Claim markers are checked by :mod:`attention_explained.sitebuild._internal.claims`.
"""

from __future__ import annotations

import hashlib
import html
import json
import re
from collections.abc import Callable, Iterable, Mapping

PLACEHOLDER = re.compile(r"\{\{\s*ae:([^}\s]*)\s*\}\}")
TOKEN = re.compile(r"aenum[0-9a-f]{12}x")  # letters and digits: Markdown has no syntax for it
FIGURE_LINE = re.compile(r"!\[([^\]]*)\]\(figures/([^)\s#]+)\.svg\)")


class MarkdownError(ValueError):
    """A page refers to a number or figure that does not exist; the message says which."""


def has_numbers(markdown: str) -> bool:
    return "{{" in markdown and "ae:" in markdown


def number_token(name: str) -> str:
    """The stand-in for ``{{ae:name}}`` until the numbers exist; the same in every build."""
    return f"aenum{hashlib.sha256(name.encode('utf-8')).hexdigest()[:12]}x"


def mark_numbers(markdown: str, where: str) -> tuple[str, dict[str, str]]:
    """Replace every ``{{ae:name}}`` with its token; return the Markdown and token → name."""
    names: dict[str, str] = {}

    def replace(match: re.Match) -> str:
        name = match.group(1)
        token = number_token(name)
        if names.setdefault(token, name) != name:  # 48 bits: never seen, but never silent
            raise MarkdownError(f"{where}: numbers {name!r} and {names[token]!r} share a token")
        return token

    marked = PLACEHOLDER.sub(replace, markdown)
    if "{{ae:" in marked.replace(" ", ""):
        raise MarkdownError(f"malformed {{{{ae:...}}}} placeholder in {where}")
    return marked, names


def fill_numbers(
    text: str,
    names: Mapping[str, str],
    numbers: Mapping[str, str],
    where: str,
    *,
    escape: Callable[[str], str] = html.escape,
) -> str:
    """Put ``numbers[name]`` (escaped for the file: HTML or JSON) where each token stands.

    Raises naming a number that ``numbers`` does not have, or a token nobody marked.
    """

    def replace(match: re.Match) -> str:
        token = match.group(0)
        name = names.get(token)
        if name is None:
            raise MarkdownError(f"{where}: {token} stands for no {{{{ae:...}}}} number")
        if name not in numbers:
            raise MarkdownError(
                f"unknown number {{{{ae:{name}}}}} in {where}; "
                "list the names with `python -m attention_explained numbers`"
            )
        return escape(numbers[name])

    return TOKEN.sub(replace, text)


def json_string(value: str) -> str:
    """``value`` as it appears inside a JSON string written with ``ensure_ascii``."""
    return json.dumps(value)[1:-1]


_HEADING = re.compile(r"<h(?P<tag>[1-6])\b[^>]*>(?P<body>.*?)</h(?P=tag)>", re.S)


def misplaced_numbers(rendered: str) -> list[str]:
    """Where a number token sits in a page's HTML that it must not: inside math (it would
    be typeset letter by letter) or in a heading (its anchor would change with the number)."""
    from attention_explained.sitebuild._internal.math import ARITHMATEX

    problems = []
    for kind, pattern in (("math", ARITHMATEX), ("a heading", _HEADING)):
        for match in pattern.finditer(rendered):
            if TOKEN.search(match["body"]):
                problems.append(f"a number inside {kind}: {match.group(0)[:120]}")
    return problems


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
