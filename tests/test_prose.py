"""Main text that reads fast (lint/prose.py): hedges, glosses, bare links in parentheses.

Every page in both languages. The checks read the main text (``reading.main_text``: outside
folded blocks and code), except the gloss check, which reads the page in source order.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from site_build import lang_of_source

from attention_explained.lint import prose

DOCS = Path(__file__).resolve().parents[1] / "docs"
PAGES = sorted(p.name for p in DOCS.glob("*.md"))


def lang_of(name: str) -> str:
    return lang_of_source(name)


@pytest.mark.parametrize("name", PAGES)
def test_at_most_three_hedges_per_1000_characters_of_main_text(name):
    problems = prose.hedge_problems(DOCS / name)
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("name", PAGES)
def test_no_bare_link_in_parentheses(name):
    problems = prose.bare_link_problems(DOCS / name)
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("name", [n for n in PAGES if lang_of(n) == "ko" and n != "glossary.md"])
def test_an_english_gloss_stands_at_the_terms_first_use(name):
    problems = prose.late_gloss_problems(DOCS / name)
    assert not problems, "\n".join(problems)


# -- the checks can fail -----------------------------------------------------------------------


def test_hedges_are_counted_per_1000_characters():
    hedged = "# 제목\n\n값은 대략 3이고 아마 거의 같습니다. 약 {{ae:x}}쯤 됩니다.\n"
    density, found = prose.hedge_density(hedged, "ko")
    assert [note.split()[0] for _, note in found] == ["대략", "약", "-쯤", "아마,", "거의"]
    assert density > prose.MAX_PER_1000
    plain = "# 제목\n\n" + "값은 3입니다. " * 60 + "거의 같습니다.\n"
    assert prose.hedge_density(plain, "ko")[0] <= prose.MAX_PER_1000


def test_hedges_in_folded_blocks_do_not_count_and_words_are_whole():
    page = (
        '# T\n\nThe value is exact.\n\n??? info "How we measured"\n\n    It is probably about 3.\n'
    )
    assert prose.hedge_density(page, "en") == (0.0, [])
    # "about" only before a number, "rather" not in "rather than", 요약 is not 약
    assert prose.hedges("a page about scaling, rather than a guess", "en") == []
    assert len(prose.hedges("about 3, rather large", "en")) == 2
    assert prose.hedges("요약하면 약점은 없습니다", "ko") == []


def test_a_parenthesis_holding_only_a_link_is_caught():
    bad = "# T\n\n분산은 9입니다([왜 1이 아닐까](saturation.md#variance-9)).\n"
    assert prose.bare_links(bad) == ["([왜 1이 아닐까](saturation.md#variance-9))"]
    good = "# T\n\n분산은 9입니다. 그 까닭은 [포화 페이지](saturation.md#variance-9)에 있습니다.\n"
    assert prose.bare_links(good) == []
    folded = '# T\n\n??? note "x"\n\n    분산([왜](a.md)).\n'
    assert prose.bare_links(folded) == []


def test_a_gloss_after_the_terms_first_use_is_caught():
    late = "# 소프트맥스\n\n소프트맥스를 씁니다. 소프트맥스(softmax)는 …\n"
    assert prose.late_glosses(late) == [("소프트맥스", "softmax")]
    first = "# 소프트맥스\n\n## 소프트맥스\n\n소프트맥스(softmax)는 …. 소프트맥스를 씁니다.\n"
    assert prose.late_glosses(first) == []
    # a gloss of a longer term is not a gloss of its last word
    terms = "# T\n\n멀티 헤드 어텐션(multi-head attention)과 교차 엔트로피(cross-entropy).\n"
    assert prose.late_glosses(terms) == []
    assert prose.late_glosses(terms + "\n엔트로피는 … 어텐션(attention)\n") == [
        ("어텐션", "attention")
    ]
    # the front matter's description is for link cards, not the reader: not a first use
    described = '---\ndescription: "소프트맥스의 포화"\n---\n\n# T\n\n소프트맥스(softmax)는 …\n'
    assert prose.late_glosses(described) == []


@pytest.mark.parametrize(
    ("lang", "sentence", "compares"),
    [
        ("en", "The weight is {{ae:x.times}}. <!-- claim: c -->", False),
        ("en", "The share is {{ae:quiet.below.half}}. <!-- claim: c -->", False),
        ("en", "The weight is {{ae:x.w}}, twice the uniform one. <!-- claim: c -->", True),
        ("ko", "가중치는 {{ae:x.w}}로 두 배입니다. <!-- claim: c -->", True),
    ],
)
def test_a_comparison_is_read_in_the_words_not_in_a_number_s_name(lang, sentence, compares):
    found = prose.comparisons(sentence + "\n", lang)
    assert [c.claim for c in found] == (["c"] if compares else [])


def test_problems_name_the_page_and_the_line(tmp_path):
    page = tmp_path / "page.md"
    page.write_text(
        "# 소프트맥스\n\n분산은 9입니다([왜](a.md)).\n\n"
        "소프트맥스를 씁니다. 소프트맥스(softmax)는 대략 아마 거의 같습니다.\n",
        encoding="utf-8",
    )
    (hedged,) = prose.hedge_problems(page)
    assert hedged.startswith(f"{page}:1: ") and "(at most 3)" in hedged
    assert "대략" in hedged and "아마" in hedged and "거의" in hedged
    assert prose.bare_link_problems(page) == [
        f"{page}:3: '([왜](a.md))': write the link into the sentence"
    ]
    (late,) = prose.late_gloss_problems(page)
    assert late.startswith(f"{page}:5: gloss '소프트맥스(softmax)'"), late
