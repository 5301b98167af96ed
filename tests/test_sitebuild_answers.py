"""Answer markers (sitebuild/_internal/answers.py): the box placeholder after the question, the
checks
that stop the build naming page and exercise, and how a typed answer is read."""

from __future__ import annotations

import pytest

from attention_explained.sitebuild._internal.answers import (
    AnswerError,
    check_answers,
    parse_answer,
    take_answers,
)

PAGE = """## Exercises { #exercises }

**1. First** (recall). No number here.

??? success "Solution"

    Words.

**2. Second** (derivation). Compute the variance. <!-- answer: page.var ±0.01 -->
It goes on on the next line.

??? success "Solution"

    $64/9$ = {{ae:page.var}}.
"""


@pytest.mark.parametrize(
    ("typed", "value"),
    [
        ("0.5", 0.5),
        (".5", 0.5),
        ("1/2", 0.5),
        ("64/9", 64 / 9),
        ("-3", -3.0),
        ("\u22120.5", -0.5),  # U+2212, as the pages print a minus
        ("\uff10\uff0e\uff15", 0.5),  # full-width ０．５ from a Korean IME
        ("\uff0d\uff11", -1.0),  # full-width minus
        (" 0 . 5 ", 0.5),
        ("0.5\u3000", 0.5),  # ideographic space
        ("약 7.1", 7.1),
        ("≈7.1", 7.1),
        ("2e-42", 2e-42),
        ("2×10^-42", 2e-42),
        ("2·10⁻⁴²", 2e-42),
        ("2x10-42", 2e-42),
        ("10^-3", 1e-3),
        ("4,224", 4224.0),
        ("16,800", 16800.0),
        ("1,024.5", 1024.5),
    ],
)
def test_a_typed_answer_is_read_as_the_number_it_states(typed, value):
    assert parse_answer(typed) == pytest.approx(value, rel=1e-12)


@pytest.mark.parametrize(
    ("typed", "why"),
    [
        ("", "empty"),
        ("   ", "empty"),
        ("0,5", "comma"),
        ("0,967", "comma"),  # three digits after a comma, but a leading 0 groups nothing
        ("1,00", "comma"),
        ("abc", "malformed"),
        ("1/0", "malformed"),
        ("0.5.1", "malformed"),
        ("1/2/3", "malformed"),
        ("e^-96", "malformed"),
    ],
)
def test_what_is_no_number_says_why(typed, why):
    assert parse_answer(typed) == why


def test_the_marker_becomes_a_placeholder_in_its_paragraph():
    markdown, answers = take_answers(PAGE, "docs/page.md", {"page.var": "7.11"})
    assert "answer:" not in markdown
    assert [(a.exercise, a.name, a.tolerance) for a in answers] == [
        ("exercise 2", "page.var", "0.01")
    ]
    box = '<span class="ae-answer" data-answer="7.11" data-tolerance="0.01" hidden></span>'
    # An inline placeholder where the marker was, inside the question's paragraph (a <div>
    # in a <p> is invalid HTML); answers.js puts the box after the paragraph.
    assert f"Compute the variance. {box}\nIt goes on on the next line.\n\n??? success" in markdown


def test_a_box_in_a_folded_block_stays_in_its_paragraph():
    folded = (
        '??? note "More"\n\n'
        '    **3. Third** (predict). Guess. <!-- answer: x ±1 "the max" -->\n\n    Next.\n'
    )
    markdown, _ = take_answers(folded, "docs/p.md", {"x": "−2"})
    assert (
        'Guess. <span class="ae-answer" data-answer="−2" data-tolerance="1" '
        'data-label="the max" hidden></span>\n\n    Next.' in markdown
    )


@pytest.mark.parametrize(
    "marker",
    ["<!-- answer: page.var -->", "<!-- answer: page.var 0.01 -->", "<!-- answer: ±0.01 -->"],
)
def test_a_marker_without_a_tolerance_or_name_names_page_and_exercise(marker):
    with pytest.raises(AnswerError, match=r"docs/page\.md, exercise 2: malformed answer marker"):
        take_answers(PAGE.replace("<!-- answer: page.var ±0.01 -->", marker), "docs/page.md", {})


def test_an_unknown_number_names_page_and_exercise():
    _, answers = take_answers(PAGE, "docs/page.md", {"page.var": "7.11"})
    check_answers(answers, {"page.var": "7.11"})  # known and one value: fine
    with pytest.raises(
        AnswerError, match=r"docs/page\.md, exercise 2: .*unknown number 'page\.var'"
    ):
        check_answers(answers, {"page.other": "7.11"})
    with pytest.raises(AnswerError, match=r"exercise 2: .*unknown number 'page\.var'"):
        take_answers(PAGE, "docs/page.md", {"page.other": "7.11"})


def test_a_number_printed_as_a_range_cannot_be_an_answer():
    _, answers = take_answers(PAGE, "docs/page.md", {"page.var": "7.11"})
    with pytest.raises(AnswerError, match=r"exercise 2: .*prints as '0\.51–0\.56'"):
        check_answers(answers, {"page.var": "0.51–0.56"})


QUESTION = (
    "# Bad\n\n**2. A question** (derivation). Compute it.\n{marker}\n\n"
    '??? success "Solution"\n\n    Words.\n'
)


@pytest.mark.site
@pytest.mark.parametrize(
    ("marker", "expected"),
    [
        (
            "<!-- answer: no.such.number ±0.01 -->",
            "index.en.md, exercise 2: the answer marker names unknown number 'no.such.number'",
        ),
        ("<!-- answer: n -->", "index.en.md, exercise 2: malformed answer marker"),
    ],
)
def test_a_bad_marker_fails_the_build_naming_page_and_exercise(
    tmp_path, ae_cache, marker, expected
):
    from site_build import build, make_site

    root = make_site(tmp_path / "bad", ae_cache)
    (root / "docs/index.en.md").write_text(QUESTION.format(marker=marker), encoding="utf-8")
    result = build(root)
    assert result.returncode != 0
    assert expected in result.stderr


@pytest.mark.site
def test_a_good_marker_puts_the_printed_number_in_the_box(tmp_path, ae_cache):
    from site_build import build, make_site

    root = make_site(tmp_path / "good", ae_cache)
    marker = '<!-- answer: n ±0 "n" -->'
    (root / "docs/index.en.md").write_text(QUESTION.format(marker=marker), encoding="utf-8")
    result = build(root)
    assert result.returncode == 0, result.stderr
    page = (root / "site/en/index.html").read_text(encoding="utf-8")
    assert (
        '<span class="ae-answer" data-answer="30" data-tolerance="0" data-label="n" hidden>'
        "</span>" in page
    )
    assert "answer:" not in page
