"""Markdown rewriting as pure functions: figure lines."""

from __future__ import annotations

import pytest

from attention_explained.sitebuild._internal.markdown import (
    NARROW_MEDIA,
    MarkdownError,
    figure_ids_in,
    narrow_sources,
    rewrite_figures,
)


def test_a_figure_line_becomes_light_and_dark_variants_with_alt_text():
    out = rewrite_figures("![](figures/a.svg)", ["a"], lambda i: f"alt of {i} [x]", "p.md")
    assert out == (
        "![alt of a (x)](figures/a.svg#only-light){ loading=lazy }"
        "![alt of a (x)](figures/a.dark.svg#only-dark){ loading=lazy }"
    )
    assert "![mine](figures/a.svg#only-light)" in rewrite_figures(
        "![mine](figures/a.svg)", ["a"], str, "p.md"
    )


def test_a_figure_with_a_narrow_variant_gets_a_picture_for_phones():
    light = '<img alt="A" loading="lazy" src="../figures/a.svg#only-light" />'
    dark = '<img alt="A" loading="lazy" src="../figures/a.dark.svg#only-dark" />'
    other = '<img alt="B" loading="lazy" src="../figures/b.svg#only-light" />'
    out = narrow_sources(f"<p>{light}{dark}{other}</p>", ["a"])
    assert out == (
        f'<p><picture><source media="{NARROW_MEDIA}" srcset="../figures/a.narrow.svg"'
        f' type="image/svg+xml">{light}</picture>'
        f'<picture><source media="{NARROW_MEDIA}" srcset="../figures/a.narrow.dark.svg"'
        f' type="image/svg+xml">{dark}</picture>{other}</p>'
    )
    assert NARROW_MEDIA.startswith("screen and"), "the PDF edition prints the wide variant"


def test_an_unknown_figure_lists_the_valid_ids():
    with pytest.raises(MarkdownError, match=r"unknown figure 'figures/b\.svg' in p\.md.*a, c"):
        rewrite_figures("![](figures/b.svg)", ["a", "c"], str, "p.md")


def test_figure_ids_in_reads_a_page_in_order():
    assert figure_ids_in("![](figures/b.svg) text ![x](figures/a.svg)") == ["b", "a"]
