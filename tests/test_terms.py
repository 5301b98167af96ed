"""Korean pages, notebooks, figure strings and nav labels follow the term sheet in CONTRIBUTING.md.

- A variant the sheet rules out ("쓰지 않는 표기") appears nowhere in Korean text except on
  the glossary page (where it is listed as a search synonym) and as the English gloss in
  parentheses directly after its term ("QK 정규화(QK-norm)"). A variant marked (낱말) is
  matched as a whole noun by Kiwi: 층 in "여러 층으로", not in 계층.
- An English gloss in parentheses after a Korean word ("쿼리(query)") appears at most once
  per page: at the term's first use.
- d_k has one name and one symbol (헤드 차원, √d_k), the auxiliary 보다 is written apart
  (해 보기), and 가중치 never names the parameters W^Q, W^K.
- The English pages, figure strings and titles write the head dimension d_k as the Korean
  ones do (√d_k, d_k = 1024, ÷√dₖ): the study note's bare d only in its own words, on the
  page that sets out the note claim by claim and in quotations of it.

A failure names the file, the line and the term to use instead.
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass
from itertools import pairwise
from pathlib import Path

import pytest

from attention_explained.sitebuild.search import kiwi_analyser
from attention_explained.sitebuild.terms import Term, load_term_sheet

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
FIGURES = ROOT / "attention_explained" / "figures"
CONFIG = ROOT / "mkdocs.yml"
GLOSSARY = DOCS / "glossary.md"
# The page that sets out the study note claim by claim may quote the note's own symbol d.
NOTE_PAGES = frozenset(DOCS / name for name in ("note.md", "note.en.md"))
HANGUL = re.compile(r"[\uac00-\ud7a3]")

FENCE = re.compile(r"^\s*(```|~~~)")
INLINE_CODE = re.compile(r"`[^`\n]*`")
COMMENT = re.compile(r"<!--.*?-->")
URL = re.compile(r"\]\([^)\s]*\)|https?://\S+")
# The text of a link to the note page may name what the note calls d ("노트가 d라고 부르는 것").
NOTE_LINK_TEXT = re.compile(r"\[[^\]\n]*\](?=\((?:\.\./)*note(?:\.md|/))")
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
        text = _blank(URL, _blank(NOTE_LINK_TEXT, _blank(COMMENT, _blank(INLINE_CODE, raw))))
        lines.append(Line(path, number, text))
    return lines


def _korean_pages() -> list[Path]:
    return sorted(p for p in DOCS.rglob("*.md") if not p.name.endswith(".en.md"))


def _korean_figure_strings(path: Path, lang: str = "ko") -> list[Line]:
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


def _all_korean_figure_strings() -> list[Line]:
    return [line for path in sorted(FIGURES.rglob("*.py")) for line in _korean_figure_strings(path)]


def _config_lines(path: Path = CONFIG) -> list[Line]:
    """The Korean lines of mkdocs.yml (nav labels, their translations, titles); no comments."""
    lines = []
    for number, raw in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        text = raw.split(" #", 1)[0]
        if HANGUL.search(text) and not text.lstrip().startswith("#"):
            lines.append(Line(path, number, text))
    return lines


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
    variants = [v for term in terms for v in term.variants]
    # Only a term that holds a variant is blanked first (QK 정규화 is not 'QK-norm'); a shorter
    # term inside a variant is not (내적 in 내적 값, 가중치 in 가중치 감쇠).
    shielding = [t for t in terms if any(v in t.term for v in variants)]
    problems = []
    for line in lines:
        text = _allowed_glosses(line.text, terms)
        for term in shielding:  # a variant inside the sheet's own term is the term, not a variant
            text = text.replace(term.term, " " * len(term.term))
        for term in terms:
            for variant in term.variants:
                if variant not in term.words and variant in text:
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


NOUN_TAGS = frozenset({"NNG", "NNP", "NNB"})


def word_violations(lines: list[Line], terms: list[Term], analyse) -> list[str]:
    """Variants marked (낱말): a noun Kiwi reads as exactly that word (층, not 계층)."""
    words = {word: term for term in terms for word in term.words}
    problems = []
    for line in lines:
        if not any(word in line.text for word in words):
            continue
        morphemes = analyse(line.text)
        for (form, tag, start, length), after in zip(
            morphemes, [*morphemes[1:], None], strict=True
        ):
            # 폭넓게: Kiwi may read 폭 + 넓다; a stem glued to a verb is a compound, not the noun.
            compound = after is not None and after[2] == start + length and after[1][0] == "V"
            if tag in NOUN_TAGS and form in words and not compound:
                problems.append(
                    f"{line.where()}: '{form}' is ruled out by the term sheet; "
                    f"write '{words[form].term}'"
                )
    return problems


def spacing_violations(lines: list[Line], analyse) -> list[str]:
    """The auxiliary 보다 stands apart from its verb: 해 보기, 확인해 보세요 (not 해보기)."""
    problems = []
    for line in lines:
        morphemes = analyse(line.text)
        for before, (form, tag, start, _) in pairwise(morphemes):
            if (
                form == "보"
                and tag == "VX"
                and before[1] == "EC"
                and before[2] + before[3] == start
            ):
                word = re.search(r"\S*$", line.text[:start]).group(0) + line.text[start : start + 2]
                problems.append(
                    f"{line.where()}: '{word.strip()}': write the auxiliary 보다 apart "
                    "from its verb ('해 보기', '확인해 보세요')"
                )
    return problems


QUOTE = re.compile(r'"[^"\n]*"|“[^”\n]*”')
# The note's bare symbol for d_k: √d, \sqrt{d}, "노트의 d", "차원 d", "d = 1024".
NOTE_SYMBOL = [
    (re.compile(r"\\sqrt\{d\}|√d(?![_ₖA-Za-z0-9{])"), "write √d_k ($\\sqrt{d_k}$, ÷√dₖ)"),
    (
        re.compile(r"노트(?:의|가|에서)\s*\$d\$"),
        "the note's d is 헤드 차원 $d_k$: say it once, on the note page",
    ),
    (re.compile(r"차원\s*\$d\$"), "write 헤드 차원 $d_k$"),
    (
        re.compile(r"쿼리와 키 벡터의 길이|(?:쿼리와 |쿼리·)?키 벡터 하나의 길이"),
        "write 헤드 차원 $d_k$",
    ),
    (re.compile(r"(?<![\w\\])d\s*=\s*\{?\d"), "write d_k = … (the head dimension)"),
    (re.compile(r"\$d\$|(?<![A-Za-z_\\{$])d(?=[\uac00-\ud7a3])"), "write $d_k$ (dₖ outside math)"),
]


# The same in English: √d, "d = 1024", $d$, 9d, [30, d], 1/d, "against d", "as d grows".
ENGLISH_NOTE_SYMBOL = [
    NOTE_SYMBOL[0],
    (re.compile(r"(?<![\w\\])d\s*=\s*\{?\d"), "write d_k = … (the head dimension)"),
    (re.compile(r"\$d\$"), "write $d_k$ (dₖ outside math)"),
    (
        re.compile(r"(?<![\w\\.])\d+d(?![\w{ₖ])|,\s*d\]|(?<![\w\\])1/d(?![\w{ₖ])"),
        "write 9d_k, [30, d_k], 1/d_k (the head dimension)",
    ),
    (
        re.compile(
            r"\b(?:dimension|against|by|over|every|each|at)\s+d\b(?![_ₖ'’])"
            r"|(?<![\w\\'’])d\s+(?:grows|is large|increases)"
        ),
        "write dₖ ($d_k$): the head dimension",
    ),
]


def notation_violations(
    lines: list[Line], *, prose: bool = True, patterns=NOTE_SYMBOL
) -> list[str]:
    """d_k keeps its subscript outside quotations of the note ("÷√d" in the note's words).

    Only prose has quotations: in figure strings and mkdocs.yml a quote delimits a string."""
    problems = []
    for line in lines:
        if line.path in NOTE_PAGES:
            continue
        text = _blank(QUOTE, line.text) if prose else line.text
        for pattern, advice in patterns:
            for match in pattern.finditer(text):
                problems.append(f"{line.where()}: '{match.group(0)}': {advice}")
    return problems


# 가중치 is an attention weight p_ij; the learned W^Q, W^K, W^V, W^O are 파라미터.
PARAMETER_AS_WEIGHT = re.compile(
    r"(?:초기|학습된|학습되는|레이어의|모델의)\s*가중치(?!\s*감쇠)"
    r"|가중치\s*\$?\\?(?:mathbf\{)?W"
    r"|가중치(?:를|도)?\s*(?:복사|생성|만들|만든|만드)"
    r"|가중치의 모양|가중치는 쿼리, 키"
)


def parameter_violations(lines: list[Line]) -> list[str]:
    return [
        f"{line.where()}: '{match.group(0)}': 가중치 names attention weights only; "
        "the learned W^Q, W^K, W^V are 파라미터 (or 투영 행렬)"
        for line in lines
        for match in PARAMETER_AS_WEIGHT.finditer(line.text)
    ]


# Calques a Korean reader stumbles on, each with what Korean writes instead.
CALQUES = [
    (re.compile(r"가져갈 것"), "a box label 'takeaway': write '핵심'"),
    (re.compile(r"해 볼 것"), "a box label 'try this': write '실습' or '직접 해 보기'"),
    (
        re.compile(r"(?<![\d.])(?<!시드 )\d번(?:에 따라|이 |을 보면)"),
        "'3번에 따라' for a list item: name it ('세 번째 성질')",
    ),
]


def calque_violations(lines: list[Line]) -> list[str]:
    return [
        f"{line.where()}: '{match.group(0)}' reads translated: {advice}"
        for line in lines
        for pattern, advice in CALQUES
        for match in pattern.finditer(line.text)
    ]


@pytest.fixture(scope="module")
def terms() -> list[Term]:
    return load_term_sheet()


@pytest.fixture(scope="module")
def analyse():
    return kiwi_analyser()


def all_violations(lines: list[Line], terms: list[Term], analyse, *, prose=True) -> list[str]:
    return (
        variant_violations(lines, terms)
        + embedding_violations(lines)
        + word_violations(lines, terms, analyse)
        + spacing_violations(lines, analyse)
        + notation_violations(lines, prose=prose)
        + parameter_violations(lines)
        + calque_violations(lines)
    )


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
    path.write_text('S = {"sqrt": {"ko": "÷√d", "en": "÷√d"}, "ok": {"ko": "÷√dₖ"}}\n')
    problems = notation_violations(_korean_figure_strings(path), prose=False)
    assert len(problems) == 1 and "'√d'" in problems[0], problems


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


def _line_numbers(problems: list[str]) -> list[str]:
    return [p.split(": ")[0].rsplit(":", 1)[1] for p in problems]


def test_word_variants_are_whole_nouns_not_syllables(tmp_path, terms, analyse):
    page = tmp_path / "page.md"
    page.write_text(
        "여러 층으로 쌓인 레이어\n계층 구조와 층위\n두 폭이 같아집니다\n"
        "폭발하는 로짓, 폭넓게, 폭주만 막습니다\n출력층의 소프트맥스\n층의 깊이가 아니라\n",
        encoding="utf-8",
    )
    problems = word_violations(_markdown_lines(page), terms, analyse)
    problems += variant_violations(_markdown_lines(page), terms)
    assert sorted(_line_numbers(problems)) == ["1", "3", "5", "6"], problems
    assert any("'층'" in p and "write '레이어'" in p for p in problems)
    assert any("'폭'" in p and "write '너비'" in p for p in problems)


def test_auxiliary_bo_is_written_apart(tmp_path, analyse):
    page = tmp_path / "page.md"
    page.write_text(
        "# 직접 해보기\n직접 해 보기\n확인해보세요.\n재 보세요.\n돌려봅니다.\n"
        "포화 들여다보기\n보기 두 개\n",
        encoding="utf-8",
    )
    problems = spacing_violations(_markdown_lines(page), analyse)
    assert _line_numbers(problems) == ["1", "3", "5"], problems
    assert "'해보기'" in problems[0]


def test_notation_check_wants_the_subscript_outside_the_notes_words(tmp_path):
    page = tmp_path / "page.md"
    page.write_text(
        "$\\sqrt{d}$로 나눕니다\n$\\sqrt{d_k}$로 나눕니다\n노트의 $d$는 헤드 차원입니다\n"
        '÷√d 뒤의 분산\n÷√dₖ, ÷√d_k, $\\sqrt{d_\\text{model}}$\n노트는 "÷√d"라고 썼습니다\n'
        "$d = 1024$에서\n$d_k = 1024$, $9d$, $3\\sqrt{d_k}$\n**차원 $d$**: 슬라이더\n"
        "쿼리와 키 벡터 하나의 길이\n토큰 벡터 하나의 길이\n"
        "**d로 나누면?** $d$가 커지면\nd2l은 $d_k$가, dₖ로 나누면\n"
        "[노트가 d라고 부르는 것](note.md#d-is-dk), [노트의 d](../../note/#d-is-dk)\n",
        encoding="utf-8",
    )
    problems = notation_violations(_markdown_lines(page))
    lines = sorted(set(_line_numbers(problems)), key=int)
    assert lines == ["1", "3", "4", "7", "9", "10", "12"], problems


def test_english_notation_check_wants_d_k_but_lets_the_note_speak(tmp_path):
    page = tmp_path / "page.en.md"
    page.write_text(
        "divide by $\\sqrt{d}$\ndivide by $\\sqrt{d_k}$ at $d_k = 1024$\n"
        "## ÷√d leaves variance 9\n## ÷√dₖ leaves variance 9, $\\sqrt{d_\\text{model}}$\n"
        'the note writes "divided by √d" and "at d = 1024"\n'
        "at $d = 1024$ and $d=10$\n$9d$ and $[30, d]$ and μP's $1/d$\n"
        "$9d_k$, $[30, d_k]$, $1/d_k$\n"
        "**Dimension $d$**: the slider\nagainst d on log scales, as d grows\n"
        "against $d_k$, as dₖ grows, d2l's $d_k$, an odd d-dimensional, 3D plots\n"
        "[what the note calls d](note.md#d-is-dk), `d = 1024` in code\n",
        encoding="utf-8",
    )
    problems = notation_violations(_markdown_lines(page), patterns=ENGLISH_NOTE_SYMBOL)
    lines = sorted(set(_line_numbers(problems)), key=int)
    assert lines == ["1", "3", "6", "7", "9", "10"], problems
    # The note's own page is where its d is set out: nothing there is flagged.
    note = tmp_path / "note.en.md"
    note.write_text(page.read_text(encoding="utf-8"), encoding="utf-8")
    lines = [Line(DOCS / "note.en.md", n.number, n.text) for n in _markdown_lines(note)]
    assert notation_violations(lines, patterns=ENGLISH_NOTE_SYMBOL) == []


def test_parameters_are_not_called_weights(tmp_path):
    page = tmp_path / "page.md"
    page.write_text(
        "같은 초기 가중치로 시작합니다\n가중치 $W^Q$, $W^K$가 커져야\n가중치 감쇠 값\n"
        "가중치를 복사해\n어텐션 가중치 $p_{ij}$\n두 모델의 가중치가 같으므로\n가장 큰 가중치\n"
        "모든 키가 같은 가중치를 받으면\n",
        encoding="utf-8",
    )
    problems = parameter_violations(_markdown_lines(page))
    assert _line_numbers(problems) == ["1", "2", "4", "6"], problems


def test_calques_are_caught(tmp_path):
    page = tmp_path / "page.md"
    page.write_text(
        "- **가져갈 것**: 요점\n- **해 볼 것**: 실습\n3번에 따라 분산입니다\n"
        "6번이 포화를 요약합니다\n시드 3번이 아니라 세 번째 성질에 따르면\n",
        encoding="utf-8",
    )
    assert _line_numbers(calque_violations(_markdown_lines(page))) == ["1", "2", "3", "4"]


def test_mkdocs_nav_labels_are_read(tmp_path, terms, analyse):
    config = tmp_path / "mkdocs.yml"
    config.write_text(
        "nav:\n  - 홈: index.md  # 첫 층\n  - 직접 해보기: explorer.md\n  - √d 너머: beyond.md\n",
        encoding="utf-8",
    )
    lines = _config_lines(config)
    problems = all_violations(lines, terms, analyse, prose=False)
    assert sorted(_line_numbers(problems)) == ["3", "4"], problems


# -- the site follows the sheet ------------------------------------------------------------


def test_korean_pages_use_only_sheet_terms(terms, analyse):
    problems = []
    for page in _korean_pages():
        if page == GLOSSARY:
            continue
        problems += all_violations(_markdown_lines(page), terms, analyse)
    assert not problems, "\n".join(problems)


def test_korean_glossary_writes_d_k_for_the_head_dimension():
    """The glossary may list the variants, so only its notation is checked."""
    problems = notation_violations(_markdown_lines(GLOSSARY))
    assert not problems, "\n".join(problems)


def _english_pages() -> list[Path]:
    return sorted(DOCS.rglob("*.en.md"))


def test_english_pages_write_d_k_for_the_head_dimension():
    pages = _english_pages()
    assert len(pages) > 10 and DOCS / "note.en.md" in pages, pages
    problems = []
    for page in pages:
        problems += notation_violations(_markdown_lines(page), patterns=ENGLISH_NOTE_SYMBOL)
    assert not problems, "\n".join(problems)


def test_english_figure_strings_and_titles_write_d_k_for_the_head_dimension():
    modules = sorted(FIGURES.rglob("*.py"))
    lines = [line for path in modules for line in _korean_figure_strings(path, "en")]
    assert len({line.path for line in lines}) > 10, f"figure modules under {FIGURES} not read"
    config = [
        Line(CONFIG, n, raw.split(" #", 1)[0])
        for n, raw in enumerate(CONFIG.read_text(encoding="utf-8").splitlines(), 1)
        if not raw.lstrip().startswith("#")
    ]
    problems = notation_violations(lines + config, prose=False, patterns=ENGLISH_NOTE_SYMBOL)
    assert not problems, "\n".join(problems)


def test_korean_figure_strings_use_only_sheet_terms(terms, analyse):
    lines = _all_korean_figure_strings()  # each figure module holds its own strings
    assert len({line.path for line in lines}) > 10, f"figure modules under {FIGURES} not read"
    problems = all_violations(lines, terms, analyse, prose=False)
    assert not problems, "\n".join(problems)


def test_korean_nav_and_titles_use_only_sheet_terms(terms, analyse):
    problems = all_violations(_config_lines(), terms, analyse, prose=False)
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


# -- every place text lives: scripts, template overrides, the PDF cover --------------------

JAVASCRIPTS = DOCS / "assets" / "javascripts"
OVERRIDES = ROOT / "overrides"
PDF_COVER = ROOT / "attention_explained" / "edition" / "pdf.py"
# The unit-variance divisor has one notation: σ_qσ_k√d_k (3√d_k as the note's instance).
SIGMA_SQUARED_DIVISOR = re.compile(r"σ²\s*√|σ\^2\s*√|\\sigma\^2\s*\\sqrt|\\sigma\^\{2\}\s*\\sqrt")


def _source_text_lines() -> list[Line]:
    """Every line of the explorer's and search's scripts, the template overrides and the PDF
    step (its cover): the strings a reader sees that live outside the pages."""
    paths = [
        *sorted(JAVASCRIPTS.rglob("*.js")),
        *sorted(OVERRIDES.rglob("*.html")),
        PDF_COVER,
    ]
    return [
        Line(path, number, raw)
        for path in paths
        for number, raw in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
    ]


def _every_text_line() -> list[Line]:
    """Pages (both languages), notebooks, figure strings (both languages), nav labels and the
    source text lines above."""
    pages = [line for path in sorted(DOCS.rglob("*.md")) for line in _markdown_lines(path)]
    figures = [
        line
        for path in sorted(FIGURES.rglob("*.py"))
        for lang in ("ko", "en")
        for line in _korean_figure_strings(path, lang)
    ]
    return pages + figures + _config_lines() + _source_text_lines()


def divisor_violations(lines: list[Line]) -> list[str]:
    return [
        f"{line.where()}: write the unit-variance divisor as σ_qσ_k√d_k "
        f"($\\sigma_q\\sigma_k\\sqrt{{d_k}}$), or 3√d_k for the note's components"
        for line in lines
        if SIGMA_SQUARED_DIVISOR.search(line.text)
    ]


def test_divisor_check_catches_sigma_squared(tmp_path):
    page = tmp_path / "page.md"
    page.write_text("# T\n\n$\\div\\sigma^2\\sqrt{d_k}$\n\n$\\sigma_q\\sigma_k\\sqrt{d_k}$\n")
    assert _line_numbers(divisor_violations(_markdown_lines(page))) == ["3"]
    script = [Line(tmp_path / "x.js", 1, 'scaleUnit: "÷σ²√" + DK')]
    assert len(divisor_violations(script)) == 1


def test_one_divisor_notation_everywhere_text_lives():
    lines = _every_text_line()
    read = {line.path for line in lines}
    assert PDF_COVER in read and any(p.suffix == ".js" for p in read), "sources not read"
    assert any(p.suffix == ".html" for p in read), "template overrides not read"
    problems = divisor_violations(lines)
    assert not problems, "\n".join(problems)


def test_scripts_templates_and_pdf_cover_use_only_sheet_terms(terms, analyse):
    """Korean strings outside the pages: the explorer, search, the overrides, the PDF cover."""
    # The search worker's Korean is its own documentation of the variants (폭, 층): not read.
    lines = [
        line
        for line in _source_text_lines()
        if HANGUL.search(line.text) and "workers" not in line.path.parts
    ]
    assert any(line.path.suffix == ".js" for line in lines), "no Korean script strings read"
    problems = variant_violations(lines, terms) + word_violations(lines, terms, analyse)
    assert not problems, "\n".join(problems)


def test_raw_logit_and_weight_decay_have_one_name(tmp_path, terms, analyse):
    """The raw q·k is 스케일링 전 로짓 (not 내적 값, not 점수); weight decay is 웨이트 디케이
    (가중치 감쇠 reads as a decay of the attention weights)."""
    sheet = {term.term: term for term in terms}
    assert {"내적 값", "점수"} <= set(sheet["스케일링 전 로짓"].variants)
    assert "가중치 감쇠" in sheet["웨이트 디케이"].variants
    page = tmp_path / "page.md"
    page.write_text(
        "# T\n\n내적 값이 커지면\n\n점수를 나눕니다\n\n가중치 감쇠를 씁니다\n\n"
        "스케일링 전 로짓이 커지면\n\n웨이트 디케이를 씁니다\n"
    )
    problems = all_violations(_markdown_lines(page), terms, analyse)
    assert sorted(_line_numbers(problems)) == ["3", "5", "7"], problems
