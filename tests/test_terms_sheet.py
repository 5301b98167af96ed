"""The term sheet parser reads CONTRIBUTING.md's table and refuses a broken one."""

from __future__ import annotations

import pytest

from attention_explained.sitebuild.terms import load_term_sheet


def test_sheet_lists_terms_with_their_search_variants():
    terms = {t.term: t for t in load_term_sheet()}
    assert "그래디언트" in terms["기울기"].variants
    assert all("`" not in v for t in terms.values() for v in t.variants)


def test_word_mark_makes_a_variant_a_whole_word(tmp_path):
    path = tmp_path / "C.md"
    path.write_text(
        "## Korean term sheet\n\n| a | b | c | d |\n|---|---|---|---|\n"
        "| layer | 레이어 | layer | `층`(낱말), `출력층` |\n",
        encoding="utf-8",
    )
    (term,) = load_term_sheet(path)
    assert term.variants == ("층", "출력층") and term.words == ("층",)
    sheet = {t.term: t for t in load_term_sheet()}
    assert "층" in sheet["레이어"].words and "폭" in sheet["너비"].words


def test_missing_or_malformed_sheet_is_refused(tmp_path):
    path = tmp_path / "C.md"
    path.write_text("# nothing here\n", encoding="utf-8")
    with pytest.raises(ValueError, match="no '## Korean term sheet'"):
        load_term_sheet(path)
    path.write_text("## Korean term sheet\n\n| a | b |\n|---|---|\n| x | y |\n", encoding="utf-8")
    with pytest.raises(ValueError, match="2 cells"):
        load_term_sheet(path)
