"""Markdown rewriting as pure functions: numbers and figure lines."""

from __future__ import annotations

import pytest

from attention_explained.sitebuild.markdown import (
    MarkdownError,
    expand_numbers,
    figure_ids_in,
    rewrite_figures,
)


def test_placeholders_take_the_numbers_with_or_without_spaces():
    text = "std {{ae:std.d10}}, n {{ ae:n }}."
    assert expand_numbers(text, {"std.d10": "9.5", "n": "30"}, "p.md") == "std 9.5, n 30."


def test_an_unknown_number_names_itself_and_the_page():
    with pytest.raises(MarkdownError, match=r"unknown number \{\{ae:nope\}\} in p\.md"):
        expand_numbers("{{ae:nope}}", {"n": "30"}, "p.md")


def test_a_malformed_placeholder_is_refused():
    with pytest.raises(MarkdownError, match="malformed"):
        expand_numbers("{{ae:n", {"n": "30"}, "p.md")


def test_a_figure_line_becomes_light_and_dark_variants_with_alt_text():
    out = rewrite_figures("![](figures/a.svg)", ["a"], lambda i: f"alt of {i} [x]", "p.md")
    assert out == (
        "![alt of a (x)](figures/a.svg#only-light){ loading=lazy }"
        "![alt of a (x)](figures/a.dark.svg#only-dark){ loading=lazy }"
    )
    assert "![mine](figures/a.svg#only-light)" in rewrite_figures(
        "![mine](figures/a.svg)", ["a"], str, "p.md"
    )


def test_an_unknown_figure_lists_the_valid_ids():
    with pytest.raises(MarkdownError, match=r"unknown figure 'figures/b\.svg' in p\.md.*a, c"):
        rewrite_figures("![](figures/b.svg)", ["a", "c"], str, "p.md")


def test_figure_ids_in_reads_a_page_in_order():
    assert figure_ids_in("![](figures/b.svg) text ![x](figures/a.svg)") == ["b", "a"]
