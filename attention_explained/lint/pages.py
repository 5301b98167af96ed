"""Every content check over the real site (``python -m attention_explained lint --pages``).

One function per check, each over the places it reads, returning ``path:line: message``
problems; ``tests/test_terms.py`` and ``tests/test_prose.py`` call the same functions, so the
command finds what the tests find. :func:`check` runs them all.

- the term sheet (:mod:`.terms`): Korean pages and notebooks (the glossary aside: it lists the
  variants as search synonyms), Korean figure strings, mkdocs.yml's Korean lines, the Korean
  strings of the scripts, template overrides and PDF cover; the glossary row of each term;
  an English gloss once per page;
- the head dimension's notation d_k: every page and notebook in both languages, the figure
  strings in both, every line of mkdocs.yml;
- the unit-variance divisor σ_qσ_k√d_k: everywhere text lives;
- prose (:mod:`.prose`): hedges and bare links on every page of both languages, late glosses on
  the Korean pages (the pages directly in ``docs/``; notebooks aside).

Only the pages' folder can be pointed elsewhere (``docs``, with its scripts, glossary and note
page); the figure strings, mkdocs.yml, the template overrides, the PDF cover and the term sheet
are the repository's.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from attention_explained.lint import prose
from attention_explained.lint.terms import (
    ENGLISH_NOTE_SYMBOL,
    all_violations,
    divisor_violations,
    gloss_violations,
    glossary_violations,
    notation_violations,
    note_pages,
    variant_violations,
    word_violations,
)
from attention_explained.lint.text import (
    CONFIG,
    DOCS,
    HANGUL,
    Line,
    all_config_lines,
    all_figure_strings,
    config_lines,
    english_pages,
    every_text_line,
    figure_modules,
    korean_pages,
    markdown_lines,
    source_text_lines,
)
from attention_explained.sitebuild.search import Analyser, kiwi_analyser
from attention_explained.sitebuild.terms import TERM_SHEET, Term, load_term_sheet


def glossary(docs: Path = DOCS) -> Path:
    return docs / "glossary.md"


# -- the term sheet ----------------------------------------------------------------------


def korean_page_problems(terms: list[Term], analyse: Analyser, docs: Path = DOCS) -> list[str]:
    """Korean pages and notebooks, the glossary aside: every term sheet check."""
    problems = []
    for page in korean_pages(docs):
        if page == glossary(docs):
            continue
        problems += all_violations(markdown_lines(page), terms, analyse, exempt=note_pages(docs))
    return problems


def glossary_notation_problems(docs: Path = DOCS) -> list[str]:
    """The glossary may list the variants, so only its notation is checked."""
    return notation_violations(markdown_lines(glossary(docs)), exempt=note_pages(docs))


def glossary_row_problems(terms: list[Term], docs: Path = DOCS) -> list[str]:
    """The glossary row of each term lists all of its variants (search's synonyms)."""
    return glossary_violations(glossary(docs), terms)


def repeated_gloss_problems(docs: Path = DOCS) -> list[str]:
    """An English gloss at most once per Korean page or notebook (the glossary aside)."""
    problems = []
    for page in korean_pages(docs):
        if page == glossary(docs):
            continue
        problems += gloss_violations(markdown_lines(page))
    return problems


def korean_figure_problems(terms: list[Term], analyse: Analyser) -> list[str]:
    """The Korean figure strings (each figure module holds its own)."""
    return all_violations(all_figure_strings("ko"), terms, analyse, prose=False)


def korean_title_problems(terms: list[Term], analyse: Analyser, config: Path = CONFIG) -> list[str]:
    """mkdocs.yml's Korean lines: nav labels and titles."""
    return all_violations(config_lines(config), terms, analyse, prose=False)


def korean_script_lines(docs: Path = DOCS) -> list[Line]:
    """The Korean lines of the scripts, the template overrides and the PDF cover. The search
    worker's Korean is its own documentation of the variants (폭, 층): not read."""
    return [
        line
        for line in source_text_lines(docs)
        if HANGUL.search(line.text) and "workers" not in line.path.parts
    ]


def script_problems(terms: list[Term], analyse: Analyser, docs: Path = DOCS) -> list[str]:
    """Korean strings outside the pages: the explorer, search, the overrides, the PDF cover."""
    lines = korean_script_lines(docs)
    return variant_violations(lines, terms) + word_violations(lines, terms, analyse)


# -- notation ------------------------------------------------------------------------------


def english_page_problems(docs: Path = DOCS) -> list[str]:
    """The English pages and notebooks write d_k for the head dimension."""
    return [
        problem
        for page in english_pages(docs)
        for problem in notation_violations(
            markdown_lines(page), patterns=ENGLISH_NOTE_SYMBOL, exempt=note_pages(docs)
        )
    ]


def english_figure_and_title_problems(config: Path = CONFIG) -> list[str]:
    """The English figure strings and every line of mkdocs.yml write d_k too."""
    lines = all_figure_strings("en") + all_config_lines(config)
    return notation_violations(lines, prose=False, patterns=ENGLISH_NOTE_SYMBOL)


def divisor_problems(docs: Path = DOCS) -> list[str]:
    """One notation for the unit-variance divisor everywhere text lives."""
    return divisor_violations(every_text_line(docs))


# -- prose -----------------------------------------------------------------------------------


def prose_pages(docs: Path = DOCS) -> list[Path]:
    """The pages the prose checks read: those directly in ``docs`` (notebooks aside)."""
    return sorted(docs.glob("*.md"))


def prose_problems(docs: Path = DOCS) -> list[str]:
    """Hedges and bare links on every page, late glosses on the Korean ones but the glossary."""
    problems = []
    for page in prose_pages(docs):
        problems += prose.hedge_problems(page) + prose.bare_link_problems(page)
        if prose.lang_of(page) == "ko" and page != glossary(docs):
            problems += prose.late_gloss_problems(page)
    return problems


# -- all of them -------------------------------------------------------------------------------


@dataclass(frozen=True)
class Report:
    problems: list[str]  # "path:line: message", by file and line
    files: list[Path]  # every file read

    def summary(self) -> str:
        count = len(self.problems)
        return (
            f"pages: {count} problem{'' if count == 1 else 's'} in {len(self.files)} files "
            "(pages, notebooks, figure strings, mkdocs.yml, scripts, templates, the PDF cover; "
            "term sheet: CONTRIBUTING.md)"
        )


def files_read(docs: Path = DOCS) -> list[Path]:
    """Every file the checks read."""
    paths = {*docs.rglob("*.md"), *figure_modules(), CONFIG, TERM_SHEET}
    paths |= {line.path for line in source_text_lines(docs)}
    return sorted(paths)


WHERE = re.compile(r"^(.*?):(\d+): ")


def by_place(problem: str) -> tuple[str, int, str]:
    match = WHERE.match(problem)
    return (match.group(1), int(match.group(2)), problem) if match else (problem, 0, problem)


def check(
    docs: Path = DOCS, *, terms: list[Term] | None = None, analyse: Analyser | None = None
) -> Report:
    """Every check (Kiwi is loaded unless ``analyse`` is given; the term sheet is
    CONTRIBUTING.md's unless ``terms`` is)."""
    docs = Path(docs)
    if not docs.is_dir() or not any(docs.glob("*.md")):
        raise ValueError(f"--docs must be a folder of pages (*.md), got {str(docs)!r}")
    if terms is None:
        terms = load_term_sheet()
    if analyse is None:
        analyse = kiwi_analyser()
    problems = (
        korean_page_problems(terms, analyse, docs)
        + glossary_notation_problems(docs)
        + glossary_row_problems(terms, docs)
        + repeated_gloss_problems(docs)
        + korean_figure_problems(terms, analyse)
        + korean_title_problems(terms, analyse)
        + script_problems(terms, analyse, docs)
        + english_page_problems(docs)
        + english_figure_and_title_problems()
        + divisor_problems(docs)
        + prose_problems(docs)
    )
    return Report(sorted(problems, key=by_place), files_read(docs))
