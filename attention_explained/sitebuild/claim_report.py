"""``python -m attention_explained claims``: every claim, where it is stated, and its margin.

One line per registered claim: its name, whether it holds, its margin (see
:mod:`attention_explained.content.margin`), the pages that mark it with
``<!-- claim: … -->``, the figures whose alt text states it (``ALT_CLAIMS``), and the numbers
the check read. The pages are read from ``docs/`` as written, so a claim that no page or
figure states shows up as stated nowhere, and a marker naming an unknown claim is reported.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from attention_explained.sitebuild._internal.claims import CLAIM_MARKER

__all__ = [  # the promised interface (tests/test_api.py pins it); the rest may change
    "rows",
]

FIGURE_LINK = re.compile(r"figures/([a-z0-9-]+)\.svg")


@dataclass(frozen=True)
class Row:
    name: str
    holds: bool
    margin: str
    pages: tuple[str, ...]
    figures: tuple[str, ...]
    numbers: dict[str, float]

    def line(self) -> str:
        where = ", ".join(self.pages) or "no page"
        if self.figures:
            where += "; figures: " + ", ".join(self.figures)
        read = ", ".join(f"{k}={v:.4g}" for k, v in sorted(self.numbers.items()))
        verdict = "holds" if self.holds else "FAILS"
        return f"{self.name}  {verdict}  margin {self.margin}  [{where}]  {read}"


def page_files(docs: Path) -> list[Path]:
    return sorted(p for p in docs.rglob("*.md") if p.is_file())


def where_stated(
    docs: Path, alt_claims: Mapping[str, tuple[str, ...]]
) -> tuple[dict[str, set[str]], dict[str, set[str]]]:
    """claim → the pages that mark it, and claim → ``figure (page, …)`` for alt-text claims."""
    pages: dict[str, set[str]] = {}
    shown: dict[str, set[str]] = {}  # figure id → pages that show it
    for path in page_files(docs):
        text = path.read_text(encoding="utf-8")
        rel = path.relative_to(docs).as_posix()
        for name in CLAIM_MARKER.findall(text):
            pages.setdefault(name, set()).add(rel)
        for figure in FIGURE_LINK.findall(text):
            shown.setdefault(figure, set()).add(rel)
    figures: dict[str, set[str]] = {}
    for figure, names in alt_claims.items():
        for name in names:
            figures.setdefault(name, set()).add(figure)
            pages.setdefault(name, set()).update(shown.get(figure, ()))
    return pages, figures


def rows(
    values: Mapping[str, float], docs: Path, alt_claims: Mapping[str, tuple[str, ...]]
) -> tuple[list[Row], list[str]]:
    """A row per registered claim, and the problems: unknown markers, claims stated nowhere."""
    from attention_explained.content import margin as claim_margin
    from attention_explained.content import pages as claims

    registered = claims.registered()
    pages, figures = where_stated(docs, alt_claims)
    problems = [
        f"{', '.join(sorted(pages[name]))}: unknown claim {name!r}"
        for name in sorted(pages)
        if name not in registered
    ]
    out = []
    for name in sorted(registered):
        with claims.judging(name):
            verdict = claims.evaluate(name, values)
            margin = claim_margin.margin(name, values)
        out.append(
            Row(
                name,
                verdict.holds,
                margin.text(),
                tuple(sorted(pages.get(name, ()))),
                tuple(sorted(figures.get(name, ()))),
                verdict.numbers,
            )
        )
        if not pages.get(name):
            problems.append(f"claim {name!r} is registered but no page or figure states it")
    return out, problems
