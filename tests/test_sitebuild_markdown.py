"""Markdown rewriting as pure functions: numbers and figure lines."""

from __future__ import annotations

import json

import pytest
from site_build import DOCS, REPO

from attention_explained.sitebuild._internal.markdown import (
    NARROW_MEDIA,
    PLACEHOLDER,
    TOKEN,
    MarkdownError,
    figure_ids_in,
    fill_numbers,
    json_string,
    mark_numbers,
    misplaced_numbers,
    narrow_sources,
    number_token,
    rewrite_figures,
)


def fill(markdown: str, numbers: dict[str, str], where: str = "p.md") -> str:
    marked, names = mark_numbers(markdown, where)
    return fill_numbers(marked, names, numbers, where)


def test_placeholders_take_the_numbers_with_or_without_spaces():
    text = "std {{ae:std.d10}}, n {{ ae:n }}."
    assert fill(text, {"std.d10": "9.5", "n": "30"}) == "std 9.5, n 30."


def test_a_token_is_made_of_letters_and_digits_and_stable():
    token = number_token("after.final_loss.d16.sqrt.lr0.001")
    assert token.isalnum() and TOKEN.fullmatch(token)
    assert token == number_token("after.final_loss.d16.sqrt.lr0.001") != number_token("n")


def test_numbers_are_escaped_for_the_file_they_go_into():
    marked, names = mark_numbers("x {{ae:a}}", "p.md")
    assert fill_numbers(marked, names, {"a": "<1 & −2"}, "p.md") == "x &lt;1 &amp; −2"
    as_json = fill_numbers(marked, names, {"a": "−2"}, "p.md", escape=json_string)
    assert json.loads(f'"{as_json}"') == "x −2" and "\\u2212" in as_json


def test_an_unknown_number_names_itself_and_the_page():
    with pytest.raises(MarkdownError, match=r"unknown number \{\{ae:nope\}\} in p\.md"):
        fill("{{ae:nope}}", {"n": "30"})


def test_a_token_nobody_marked_is_refused():
    with pytest.raises(MarkdownError, match="stands for no"):
        fill_numbers(number_token("n"), {}, {"n": "30"}, "p.md")


def test_a_malformed_placeholder_is_refused():
    with pytest.raises(MarkdownError, match="malformed"):
        mark_numbers("{{ae:n", "p.md")


def test_a_number_inside_math_or_a_heading_is_found_in_the_rendered_page():
    token = number_token("n")
    assert misplaced_numbers(f"<p>n = {token}</p>") == []
    inline = f'<p><span class="arithmatex">\\(n = {token}\\)</span></p>'
    assert "inside math" in misplaced_numbers(inline)[0]
    heading = f'<h2 id="x">Width {token}</h2>'
    assert "inside a heading" in misplaced_numbers(heading)[0]


@pytest.fixture(scope="module")
def site_markdown():
    """A Markdown converter with the site's own extensions and settings (mkdocs.yml)."""
    import markdown
    from mkdocs.config import load_config

    config = load_config(str(REPO / "mkdocs.yml"))
    return markdown.Markdown(
        extensions=config.markdown_extensions, extension_configs=config.mdx_configs
    )


@pytest.mark.parametrize("page", sorted(p.relative_to(DOCS).as_posix() for p in DOCS.rglob("*.md")))
def test_every_page_renders_the_same_with_numbers_filled_in_after_markdown(site_markdown, page):
    """The pages are rendered before the numbers exist and filled in afterwards; the HTML
    must be what rendering them with the numbers already in place gives, byte for byte."""
    text = (DOCS / page).read_text(encoding="utf-8")
    names = {m.group(1) for m in PLACEHOLDER.finditer(text)}
    numbers = {name: f"−{i}.{i % 7}5" for i, name in enumerate(sorted(names), 1)}
    direct = site_markdown.reset().convert(PLACEHOLDER.sub(lambda m: numbers[m.group(1)], text))
    marked, tokens = mark_numbers(text, page)
    deferred = site_markdown.reset().convert(marked)
    assert misplaced_numbers(deferred) == []
    assert fill_numbers(deferred, tokens, numbers, page) == direct


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
