"""The Korean term sheet in CONTRIBUTING.md, read as data: the term test and search use it."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

__all__ = [  # the promised interface (tests/test_api.py pins it); the rest may change
    "TERM_SHEET",
    "Term",
    "load_term_sheet",
]

TERM_SHEET = Path(__file__).resolve().parents[2] / "CONTRIBUTING.md"
HEADING = "## Korean term sheet"
# A variant followed by this mark is a whole word (a noun for Kiwi), not a substring:
# `층`(낱말) rules out 층 in "여러 층으로" but not the 층 inside 계층.
WORD_MARK = "(낱말)"
VARIANT = re.compile(r"`([^`]+)`(" + re.escape(WORD_MARK) + ")?")


@dataclass(frozen=True)
class Term:
    concept: str
    term: str  # the one Korean term the site uses
    english: str
    variants: tuple[str, ...]  # what readers may search with; never in the text
    words: tuple[str, ...] = ()  # the variants ruled out only as whole words (WORD_MARK)


def load_term_sheet(path: Path = TERM_SHEET) -> list[Term]:
    """Rows of the table under ``## Korean term sheet``; raises if the table is missing."""
    text = Path(path).read_text(encoding="utf-8")
    _, found, rest = text.partition(HEADING)
    if not found:
        raise ValueError(f"{path}: no '{HEADING}' section")
    lines = rest.splitlines()
    start = next((i for i, line in enumerate(lines) if line.startswith("|")), len(lines))
    rows = []
    for line in lines[start:]:  # the first table only
        if not line.startswith("|"):
            break
        rows.append(line)
    terms = []
    for line in rows[2:]:  # header and rule
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if len(cells) != 4:
            raise ValueError(f"{path}: term sheet row has {len(cells)} cells: {line!r}")
        concept, term, english, variants = cells
        found_variants = VARIANT.findall(variants)
        terms.append(
            Term(
                concept,
                term,
                english,
                tuple(v for v, _ in found_variants),
                tuple(v for v, mark in found_variants if mark),
            )
        )
    if not terms:
        raise ValueError(f"{path}: the term sheet has no rows")
    return terms
