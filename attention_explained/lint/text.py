"""Where the site's text lives, and how each place is read as numbered lines.

The pages and notebooks (``docs/**/*.md``), the figure strings (each figure module's
``{"ko": …, "en": …}`` tables), ``mkdocs.yml`` (nav labels, their translations, titles), and
the text a reader sees outside the pages: the scripts in ``docs/assets/javascripts``, the
template overrides and the PDF cover. Each is read into :class:`Line` objects that the checks
in :mod:`attention_explained.lint.terms` take, so a problem names its file and line.

The paths are those of the repository this package lives in; a check that reads pages takes
the pages' folder as an argument (``python -m attention_explained lint --docs DIR``).
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass
from pathlib import Path

from attention_explained.languages import source_language
from attention_explained.settings import LANGS

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"
FIGURES = ROOT / "attention_explained" / "figures"
CONFIG = ROOT / "mkdocs.yml"
OVERRIDES = ROOT / "overrides"
PDF_COVER = ROOT / "attention_explained" / "edition" / "pdf.py"
TEMPLATE_WORDS = ROOT / "attention_explained" / "sitebuild" / "_internal" / "template_words.py"
HANGUL = re.compile(r"[\uac00-\ud7a3]")

FENCE = re.compile(r"^\s*(```|~~~)")
INLINE_CODE = re.compile(r"`[^`\n]*`")
COMMENT = re.compile(r"<!--.*?-->")
URL = re.compile(r"\]\([^)\s]*\)|https?://\S+")
# The text of a link to the note page may name what the note calls d ("노트가 d라고 부르는 것").
NOTE_LINK_TEXT = re.compile(r"\[[^\]\n]*\](?=\((?:\.\./)*note(?:\.md|/))")


@dataclass(frozen=True)
class Line:
    path: Path
    number: int
    text: str  # code, comments and link targets blanked out (same length)

    def where(self) -> str:
        return where(self.path, self.number)


def where(path: Path, number: int) -> str:
    """``path:line``, the path relative to the repository when it lies inside it."""
    path = path.relative_to(ROOT) if path.is_relative_to(ROOT) else path
    return f"{path}:{number}"


def blank(pattern: re.Pattern, text: str) -> str:
    """``text`` with each match of ``pattern`` replaced by as many spaces (columns kept)."""
    return pattern.sub(lambda m: " " * len(m.group(0)), text)


def markdown_lines(path: Path) -> list[Line]:
    """Prose lines of a Markdown page: fenced code and front matter are skipped."""
    lines, in_fence, in_front = [], False, False
    for number, raw in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if number == 1 and raw.strip() == "---":
            in_front = True
            continue
        if in_front:
            in_front = raw.strip() != "---"
            continue
        if FENCE.match(raw):
            in_fence = not in_fence
            continue
        if in_fence:
            continue
        text = blank(URL, blank(NOTE_LINK_TEXT, blank(COMMENT, blank(INLINE_CODE, raw))))
        lines.append(Line(path, number, text))
    return lines


def korean_pages(docs: Path = DOCS) -> list[Path]:
    """Every Korean page and notebook under ``docs`` (``*.md`` but ``*.<lang>.md``)."""
    return pages_in("ko", docs)


def english_pages(docs: Path = DOCS) -> list[Path]:
    """Every English page and notebook under ``docs``."""
    return pages_in("en", docs)


def pages_in(lang: str, docs: Path = DOCS) -> list[Path]:
    """Every page and notebook under ``docs`` in ``lang`` (by its name: ``x.<lang>.md``, or
    ``x.md`` for the default language, the first of settings.LANGS)."""
    return sorted(p for p in docs.rglob("*.md") if source_language(p.name, LANGS, LANGS[0]) == lang)


def figure_strings(path: Path, lang: str = "ko") -> list[Line]:
    """Every ``"ko": "..."`` string (or `lang`'s) of a figure module's string tables, one Line
    per source line."""
    source = path.read_text(encoding="utf-8")
    source_lines = source.splitlines()
    found = []
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.Dict):
            continue
        for key, value in zip(node.keys, node.values, strict=True):
            if not (isinstance(key, ast.Constant) and key.value == lang):
                continue
            for number in range(value.lineno, value.end_lineno + 1):
                text = source_lines[number - 1]
                # Only this language's string: the other's may share the source line.
                end = value.end_col_offset if number == value.end_lineno else len(text)
                start = value.col_offset if number == value.lineno else 0
                text = " " * start + text[start:end]
                found.append(Line(path, number, text))
    return sorted(found, key=lambda line: line.number)


def figure_modules(figures: Path = FIGURES) -> list[Path]:
    """Every figure module (each holds its own strings; ``strings.py`` the shared ones)."""
    return sorted(figures.rglob("*.py"))


def all_figure_strings(lang: str = "ko", figures: Path = FIGURES) -> list[Line]:
    """``lang``'s strings of every figure module."""
    return [line for path in figure_modules(figures) for line in figure_strings(path, lang)]


def config_lines(path: Path = CONFIG) -> list[Line]:
    """The Korean lines of mkdocs.yml (nav labels, their translations, titles); no comments."""
    lines = []
    for number, raw in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        text = raw.split(" #", 1)[0]
        if HANGUL.search(text) and not text.lstrip().startswith("#"):
            lines.append(Line(path, number, text))
    return lines


def all_config_lines(path: Path = CONFIG) -> list[Line]:
    """Every line of mkdocs.yml but its comments (the English titles and translations too)."""
    return [
        Line(path, n, raw.split(" #", 1)[0])
        for n, raw in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if not raw.lstrip().startswith("#")
    ]


def javascripts(docs: Path = DOCS) -> Path:
    """The folder of the explorer's and search's scripts."""
    return docs / "assets" / "javascripts"


def source_text_lines(
    docs: Path = DOCS, *, overrides: Path = OVERRIDES, pdf_cover: Path = PDF_COVER
) -> list[Line]:
    """Every line of the explorer's and search's scripts, the template overrides and their
    words, and the PDF step (its cover): the strings a reader sees outside the pages."""
    paths = [
        *sorted(javascripts(docs).rglob("*.js")),
        *sorted(overrides.rglob("*.html")),
        TEMPLATE_WORDS,
        pdf_cover,
    ]
    return [
        Line(path, number, raw)
        for path in paths
        for number, raw in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
    ]


def every_text_line(docs: Path = DOCS) -> list[Line]:
    """Pages (both languages), notebooks, figure strings (both languages), nav labels and the
    source text lines above."""
    pages = [line for path in sorted(docs.rglob("*.md")) for line in markdown_lines(path)]
    figures = [
        line for path in figure_modules() for lang in LANGS for line in figure_strings(path, lang)
    ]
    return pages + figures + config_lines() + source_text_lines(docs)
