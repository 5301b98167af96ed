"""Korean pages, notebooks, figure strings and nav labels follow the term sheet in CONTRIBUTING.md.

The checks live in ``attention_explained/lint/terms.py`` (what each rules out is in its
docstring) and read text through ``attention_explained/lint/text.py``. Here: each check can
fail, on small pages written here, and the whole site passes them. A failure names the file,
the line and the term to use instead.
"""

from __future__ import annotations

import shutil

import pytest

from attention_explained.cli import main
from attention_explained.lint import pages
from attention_explained.lint.terms import (
    ENGLISH_NOTE_SYMBOL,
    all_violations,
    calque_violations,
    divisor_violations,
    embedding_violations,
    gloss_violations,
    glossary_violations,
    notation_violations,
    parameter_violations,
    spacing_violations,
    variant_violations,
    word_violations,
)
from attention_explained.lint.text import (
    CONFIG,
    DOCS,
    FIGURES,
    PDF_COVER,
    TEMPLATE_WORDS,
    Line,
    all_config_lines,
    all_figure_strings,
    config_lines,
    english_pages,
    every_text_line,
    figure_strings,
    korean_pages,
    markdown_lines,
)
from attention_explained.sitebuild.search import kiwi_analyser
from attention_explained.sitebuild.terms import Term, load_term_sheet

GLOSSARY = DOCS / "glossary.md"


@pytest.fixture(scope="module")
def terms() -> list[Term]:
    return load_term_sheet()


@pytest.fixture(scope="module")
def analyse():
    return kiwi_analyser()


# -- the checks themselves can fail ------------------------------------------------------


def test_variant_check_names_file_line_and_term(tmp_path, terms):
    page = tmp_path / "page.md"
    page.write_text(
        "# 제목\n\nQK 정규화(QK-norm)는 좋습니다.\n\n그래디언트가 사라집니다.\n"
        "```python\nx = '그래디언트'\n```\n`균등 분포`는 코드입니다.\n",
        encoding="utf-8",
    )
    problems = variant_violations(markdown_lines(page), terms)
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
    problems = gloss_violations(markdown_lines(page))
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
    problems = variant_violations(figure_strings(path), terms)
    assert [p.split(": ")[0].rsplit(":", 1)[1] for p in problems] == ["1", "3"]
    path.write_text('S = {"sqrt": {"ko": "÷√d", "en": "÷√d"}, "ok": {"ko": "÷√dₖ"}}\n')
    problems = notation_violations(figure_strings(path), prose=False)
    assert len(problems) == 1 and "'√d'" in problems[0], problems


def test_embedding_check_tells_d_model_from_d(tmp_path):
    page = tmp_path / "page.md"
    page.write_text(
        "임베딩 차원 $d_\\text{model}$은 512입니다.\n임베딩 차원 d_model\n"
        "임베딩 차원(embedding dimension)\n임베딩 차원 d (쿼리·키 폭)\n임베딩 차원 $d$\n"
        "임베딩 차원 $d_{{\\mathrm{{model}}}} = {dm}$\n",
        encoding="utf-8",
    )
    problems = embedding_violations(markdown_lines(page))
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
    problems = word_violations(markdown_lines(page), terms, analyse)
    problems += variant_violations(markdown_lines(page), terms)
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
    problems = spacing_violations(markdown_lines(page), analyse)
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
    problems = notation_violations(markdown_lines(page))
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
    problems = notation_violations(markdown_lines(page), patterns=ENGLISH_NOTE_SYMBOL)
    lines = sorted(set(_line_numbers(problems)), key=int)
    assert lines == ["1", "3", "6", "7", "9", "10"], problems
    # The note's own page is where its d is set out: nothing there is flagged.
    note = tmp_path / "note.en.md"
    note.write_text(page.read_text(encoding="utf-8"), encoding="utf-8")
    lines = [Line(DOCS / "note.en.md", n.number, n.text) for n in markdown_lines(note)]
    assert notation_violations(lines, patterns=ENGLISH_NOTE_SYMBOL) == []


def test_parameters_are_not_called_weights(tmp_path):
    page = tmp_path / "page.md"
    page.write_text(
        "같은 초기 가중치로 시작합니다\n가중치 $W^Q$, $W^K$가 커져야\n가중치 감쇠 값\n"
        "가중치를 복사해\n어텐션 가중치 $p_{ij}$\n두 모델의 가중치가 같으므로\n가장 큰 가중치\n"
        "모든 키가 같은 가중치를 받으면\n",
        encoding="utf-8",
    )
    problems = parameter_violations(markdown_lines(page))
    assert _line_numbers(problems) == ["1", "2", "4", "6"], problems


def test_calques_are_caught(tmp_path):
    page = tmp_path / "page.md"
    page.write_text(
        "- **가져갈 것**: 요점\n- **해 볼 것**: 실습\n3번에 따라 분산입니다\n"
        "6번이 포화를 요약합니다\n시드 3번이 아니라 세 번째 성질에 따르면\n",
        encoding="utf-8",
    )
    assert _line_numbers(calque_violations(markdown_lines(page))) == ["1", "2", "3", "4"]


def test_glossary_check_names_the_row_that_lacks_a_variant(tmp_path, terms):
    listed = [t for t in terms if t.variants]
    dot = next(t for t in listed if t.term == "내적")
    rows = [
        f"| {t.term} | {', '.join(t.variants[:-1] if t is dot else t.variants)} |" for t in listed
    ]
    glossary = tmp_path / "glossary.md"
    glossary.write_text("| 용어 | 다른 표기 |\n|---|---|\n" + "\n".join(rows) + "\n")
    row = 3 + listed.index(dot)
    assert glossary_violations(glossary, terms) == [
        f"{glossary}:{row}: row '내적' lacks ['{dot.variants[-1]}']"
    ]
    glossary.write_text("| 용어 | 다른 표기 |\n|---|---|\n" + "\n".join(rows[2:]) + "\n")
    assert [p.split(": ", 1)[1] for p in glossary_violations(glossary, terms)] == [
        f"no row for '{t.term}'" for t in listed[:2]
    ]


def test_mkdocs_nav_labels_are_read(tmp_path, terms, analyse):
    config = tmp_path / "mkdocs.yml"
    config.write_text(
        "nav:\n  - 홈: index.md  # 첫 층\n  - 직접 해보기: explorer.md\n  - √d 너머: beyond.md\n",
        encoding="utf-8",
    )
    lines = config_lines(config)
    problems = all_violations(lines, terms, analyse, prose=False)
    assert sorted(_line_numbers(problems)) == ["3", "4"], problems


# -- the site follows the sheet ------------------------------------------------------------


def test_korean_pages_use_only_sheet_terms(terms, analyse):
    assert GLOSSARY in korean_pages() and len(korean_pages()) > 10, "Korean pages not read"
    problems = pages.korean_page_problems(terms, analyse)
    assert not problems, "\n".join(problems)


def test_korean_glossary_writes_d_k_for_the_head_dimension():
    """The glossary may list the variants, so only its notation is checked."""
    problems = pages.glossary_notation_problems()
    assert not problems, "\n".join(problems)


def test_english_pages_write_d_k_for_the_head_dimension():
    read = english_pages()
    assert len(read) > 10 and DOCS / "note.en.md" in read, read
    problems = pages.english_page_problems()
    assert not problems, "\n".join(problems)


def test_english_figure_strings_and_titles_write_d_k_for_the_head_dimension():
    lines = all_figure_strings("en")
    assert len({line.path for line in lines}) > 10, f"figure modules under {FIGURES} not read"
    config = all_config_lines()
    assert {line.path for line in config} == {CONFIG} and len(config) > 10, "mkdocs.yml not read"
    problems = pages.english_figure_and_title_problems()
    assert not problems, "\n".join(problems)


def test_korean_figure_strings_use_only_sheet_terms(terms, analyse):
    lines = all_figure_strings()  # each figure module holds its own strings
    assert len({line.path for line in lines}) > 10, f"figure modules under {FIGURES} not read"
    problems = pages.korean_figure_problems(terms, analyse)
    assert not problems, "\n".join(problems)


def test_korean_nav_and_titles_use_only_sheet_terms(terms, analyse):
    assert len(config_lines()) > 10, "mkdocs.yml's Korean lines not read"
    problems = pages.korean_title_problems(terms, analyse)
    assert not problems, "\n".join(problems)


def test_english_glosses_once_per_page():
    problems = pages.repeated_gloss_problems()
    assert not problems, "\n".join(problems)


def test_glossary_lists_every_variant_as_a_synonym_of_its_term(terms):
    """Search maps each variant to its term: the glossary row of the term lists them all."""
    problems = pages.glossary_row_problems(terms)
    assert not problems, "\n".join(problems)


# -- every place text lives: scripts, template overrides, the PDF cover --------------------


def test_divisor_check_catches_sigma_squared(tmp_path):
    page = tmp_path / "page.md"
    page.write_text("# T\n\n$\\div\\sigma^2\\sqrt{d_k}$\n\n$\\sigma_q\\sigma_k\\sqrt{d_k}$\n")
    assert _line_numbers(divisor_violations(markdown_lines(page))) == ["3"]
    script = [Line(tmp_path / "x.js", 1, 'scaleUnit: "÷σ²√" + DK')]
    assert len(divisor_violations(script)) == 1


def test_one_divisor_notation_everywhere_text_lives():
    read = {line.path for line in every_text_line()}
    assert PDF_COVER in read and any(p.suffix == ".js" for p in read), "sources not read"
    assert any(p.suffix == ".html" for p in read), "template overrides not read"
    assert TEMPLATE_WORDS in read, "the template overrides' words not read"
    problems = pages.divisor_problems()
    assert not problems, "\n".join(problems)


def test_scripts_templates_and_pdf_cover_use_only_sheet_terms(terms, analyse):
    """Korean strings outside the pages: the explorer, search, the overrides, the PDF cover."""
    lines = pages.korean_script_lines()
    assert any(line.path.suffix == ".js" for line in lines), "no Korean script strings read"
    assert not any("workers" in line.path.parts for line in lines), "the search worker read"
    problems = pages.script_problems(terms, analyse)
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
    problems = all_violations(markdown_lines(page), terms, analyse)
    assert sorted(_line_numbers(problems)) == ["3", "5", "7"], problems


# -- the command: python -m attention_explained lint ---------------------------------------
# In this process, after the tests above: Kiwi is loaded once and each line analysed once.


def test_lint_pages_finds_nothing_on_the_site(capsys):
    code = main(["lint", "--pages"])
    out, err = capsys.readouterr()
    assert code == 0, out + err
    (summary,) = out.splitlines()
    assert summary.startswith("pages: 0 problems in "), summary
    assert int(summary.split(" in ")[1].split()[0]) > 60, summary  # every place was read


def test_lint_pages_names_each_culprit_of_a_broken_copy(tmp_path, capsys):
    docs = tmp_path / "docs"
    shutil.copytree(DOCS, docs)
    page = docs / "gradients.md"
    text = page.read_text(encoding="utf-8")
    page.write_text(text + "\n그래디언트가 사라집니다.\n", encoding="utf-8")
    script = docs / "assets" / "javascripts" / "explorer.js"
    script.write_text(script.read_text(encoding="utf-8") + '// "여러 층으로"\n', encoding="utf-8")
    code = main(["lint", "--pages", "--docs", str(docs)])
    out, err = capsys.readouterr()
    assert code == 1, out + err
    *problems, summary = out.splitlines()
    assert problems == [
        f"{script}:{len(script.read_text(encoding='utf-8').splitlines())}: '층' is ruled out "
        "by the term sheet; write '레이어'",
        f"{page}:{len(text.splitlines()) + 2}: '그래디언트' is ruled out by the term sheet; "
        "write '기울기'",
    ], out
    assert summary.startswith("pages: 2 problems in "), summary


def test_lint_alone_checks_the_imports_and_the_pages(capsys):
    code = main(["lint"])
    out, err = capsys.readouterr()
    assert code == 0, out + err
    lines = out.splitlines()
    assert lines[-2].endswith(" modules, 0 import circles"), lines[-2:]
    assert lines[-1].startswith("pages: 0 problems in "), lines[-1]
