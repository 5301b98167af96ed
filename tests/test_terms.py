"""Korean pages, notebooks and figure strings follow the term sheet in CONTRIBUTING.md.

- A variant the sheet rules out ("쓰지 않는 표기") appears nowhere in Korean text except on
  the glossary page (where it is listed as a search synonym) and as the English gloss in
  parentheses directly after its term ("QK 정규화(QK-norm)").
- An English gloss in parentheses after a Korean word ("쿼리(query)") appears at most once
  per page: at the term's first use.

A failure names the file, the line and the term to use instead.
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass
from pathlib import Path

import pytest

from attention_explained.sitebuild.terms import Term, load_term_sheet

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
# Each figure module holds its own strings; figures/strings.py the shared ones.
FIGURE_MODULES = sorted((ROOT / "attention_explained" / "figures").glob("*.py"))
GLOSSARY = DOCS / "glossary.md"

FENCE = re.compile(r"^\s*(```|~~~)")
INLINE_CODE = re.compile(r"`[^`\n]*`")
COMMENT = re.compile(r"<!--.*?-->")
URL = re.compile(r"\]\([^)\s]*\)|https?://\S+")
# An English gloss: "(query)", "(scaled dot-product attention)", "(QK-norm)" right after Hangul.
GLOSS = re.compile(r"(?<=[\uac00-\ud7a3])\s?\(([A-Za-z][A-Za-z0-9 .\-]*)\)")


@dataclass(frozen=True)
class Line:
    path: Path
    number: int
    text: str  # code, comments and link targets blanked out (same length)

    def where(self) -> str:
        path = self.path.relative_to(ROOT) if self.path.is_relative_to(ROOT) else self.path
        return f"{path}:{self.number}"


def _blank(pattern: re.Pattern, text: str) -> str:
    return pattern.sub(lambda m: " " * len(m.group(0)), text)


def _markdown_lines(path: Path) -> list[Line]:
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
        text = _blank(URL, _blank(COMMENT, _blank(INLINE_CODE, raw)))
        lines.append(Line(path, number, text))
    return lines


def _korean_pages() -> list[Path]:
    return sorted(p for p in DOCS.rglob("*.md") if not p.name.endswith(".en.md"))


def _korean_figure_strings(path: Path | None = None) -> list[Line]:
    """Every ``"ko": "..."`` string of the figure modules (or of ``path``), one Line per line."""
    if path is None:
        return [line for module in FIGURE_MODULES for line in _korean_figure_strings(module)]
    source = path.read_text(encoding="utf-8")
    source_lines = source.splitlines()
    found = []
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.Dict):
            continue
        for key, value in zip(node.keys, node.values, strict=True):
            if not (isinstance(key, ast.Constant) and key.value == "ko"):
                continue
            for number in range(value.lineno, value.end_lineno + 1):
                text = source_lines[number - 1]
                # Only the "ko" string itself: an "en" string may share the source line.
                end = value.end_col_offset if number == value.end_lineno else len(text)
                start = value.col_offset if number == value.lineno else 0
                text = " " * start + text[start:end]
                found.append(Line(path, number, text))
    return sorted(found, key=lambda line: line.number)


def _allowed_glosses(text: str, terms: list[Term]) -> str:
    """Blank out "(…)" directly after a term: that is where its English gloss may stand."""
    for term in terms:
        text = re.sub(
            re.escape(term.term) + r"\s?\([^)]*\)",
            lambda m, t=term.term: t + " " * (len(m.group(0)) - len(t)),
            text,
        )
    return text


def variant_violations(lines: list[Line], terms: list[Term]) -> list[str]:
    problems = []
    for line in lines:
        text = _allowed_glosses(line.text, terms)
        for term in terms:  # a variant inside the sheet's own term is the term, not a variant
            text = text.replace(term.term, " " * len(term.term))
        for term in terms:
            for variant in term.variants:
                if variant in text:
                    problems.append(
                        f"{line.where()}: '{variant}' is ruled out by the term sheet; "
                        f"write '{term.term}'"
                    )
    return problems


def gloss_violations(lines: list[Line]) -> list[str]:
    """An English gloss in parentheses after a Korean word: at most once per page."""
    problems = []
    seen: dict[str, Line] = {}
    for line in lines:
        for match in GLOSS.finditer(line.text):
            gloss = match.group(1).strip()
            first = seen.get(gloss.lower())
            if first is None:
                seen[gloss.lower()] = line
                continue
            problems.append(
                f"{line.where()}: English gloss '({gloss})' repeated (first at line "
                f"{first.number}); give it only at the term's first use on the page"
            )
    return problems


@pytest.fixture(scope="module")
def terms() -> list[Term]:
    return load_term_sheet()


# -- the checks themselves can fail ------------------------------------------------------


def test_variant_check_names_file_line_and_term(tmp_path, terms):
    page = tmp_path / "page.md"
    page.write_text(
        "# 제목\n\nQK 정규화(QK-norm)는 좋습니다.\n\n그래디언트가 사라집니다.\n"
        "```python\nx = '그래디언트'\n```\n`균등 분포`는 코드입니다.\n",
        encoding="utf-8",
    )
    problems = variant_violations(_markdown_lines(page), terms)
    assert len(problems) == 1, problems
    assert "page.md:5" in problems[0] and "'그래디언트'" in problems[0]
    assert "write '기울기'" in problems[0]


def test_gloss_check_flags_a_repeat_on_the_same_page(tmp_path):
    page = tmp_path / "page.md"
    page.write_text(
        "쿼리(query)와 키(key)를 봅니다.\n\n다시 쿼리(Query)입니다. 기울기(gradient)\n\n"
        "`키(key)`는 코드입니다. 기울기(gradient)와 기울기(gradient)\n",
        encoding="utf-8",
    )
    problems = gloss_violations(_markdown_lines(page))
    assert len(problems) == 3, problems
    assert "page.md:3" in problems[0] and "'(Query)' repeated (first at line 1)" in problems[0]
    assert all("page.md:5" in p and "(gradient)" in p for p in problems[1:])


def test_figure_strings_are_read_from_the_ko_entries(tmp_path, terms):
    path = tmp_path / "strings.py"
    path.write_text(
        'S = {"a": {"t": {"ko": "균등 분포",\n "en": "균등 분포"},\n'
        ' "u": {"ko": "그래디언트 "\n "크기", "en": "x"},\n'
        ' "v": {"ko": "QK 정규화", "en": "QK-norm"}}}\n',
        encoding="utf-8",
    )
    problems = variant_violations(_korean_figure_strings(path), terms)
    assert [p.split(": ")[0].rsplit(":", 1)[1] for p in problems] == ["1", "3"]


# 임베딩 차원 is d_model only: "임베딩 차원 d" for the width of q and k is the misuse to catch.
EMBEDDING_MISUSE = re.compile(r"임베딩 차원\s*\$?d(?!\S*model)")


def embedding_violations(lines: list[Line]) -> list[str]:
    return [
        f"{line.where()}: '임베딩 차원' names d_model only; for the width of q and k "
        "(d, d_k) write '헤드 차원'"
        for line in lines
        if EMBEDDING_MISUSE.search(line.text)
    ]


def test_embedding_check_tells_d_model_from_d(tmp_path):
    page = tmp_path / "page.md"
    page.write_text(
        "임베딩 차원 $d_\\text{model}$은 512입니다.\n임베딩 차원 d_model\n"
        "임베딩 차원(embedding dimension)\n임베딩 차원 d (쿼리·키 폭)\n임베딩 차원 $d$\n"
        "임베딩 차원 $d_{{\\mathrm{{model}}}} = {dm}$\n",
        encoding="utf-8",
    )
    problems = embedding_violations(_markdown_lines(page))
    assert [p.split(": ")[0].rsplit(":", 1)[1] for p in problems] == ["4", "5"], problems


# -- the site follows the sheet ------------------------------------------------------------


def test_korean_pages_use_only_sheet_terms(terms):
    problems = []
    for page in _korean_pages():
        if page == GLOSSARY:
            continue
        lines = _markdown_lines(page)
        problems += variant_violations(lines, terms) + embedding_violations(lines)
    assert not problems, "\n".join(problems)


def test_korean_figure_strings_use_only_sheet_terms(terms):
    lines = _korean_figure_strings()
    assert len({line.path for line in lines}) > 10  # every figure module was read
    problems = variant_violations(lines, terms) + embedding_violations(lines)
    assert not problems, "\n".join(problems)


def test_english_glosses_once_per_page():
    problems = []
    for page in _korean_pages():
        if page == GLOSSARY:
            continue
        problems += gloss_violations(_markdown_lines(page))
    assert not problems, "\n".join(problems)


def test_glossary_lists_every_variant_as_a_synonym_of_its_term(terms):
    """Search maps each variant to its term: the glossary row of the term lists them all."""
    rows = [line for line in GLOSSARY.read_text(encoding="utf-8").splitlines() if "|" in line]
    problems = []
    for term in terms:
        if not term.variants:
            continue
        row = next((r for r in rows if r.split("|")[1].strip().startswith(term.term)), None)
        if row is None:
            problems.append(f"docs/glossary.md has no row for '{term.term}'")
            continue
        missing = [v for v in term.variants if v not in row]
        if missing:
            problems.append(f"docs/glossary.md: row '{term.term}' lacks {missing}")
    assert not problems, "\n".join(problems)
