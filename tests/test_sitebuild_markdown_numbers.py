"""``{{ae:…}}`` filled while Markdown renders (markdown_numbers.py), with plain Python-Markdown:
no MkDocs, no build. The numbers are written here as the package prints them."""

from __future__ import annotations

import html
import json

import markdown
import pytest

from attention_explained.sitebuild._internal.markdown import MarkdownError
from attention_explained.sitebuild.markdown_numbers import NumbersExtension

EXTENSION = "attention_explained.sitebuild.markdown_numbers"
# Printed as the package prints them: a range with an en dash, U+2212 minus signs, a percent.
NUMBERS = {
    "after.d_model": "16",
    "after.best_loss.d16.none": "0.32–0.39",
    "after.cos_init.d256.sqrt": "−0.025 – −0.003",
    "training.init_starved.d16.none": "12",
}


@pytest.fixture
def manifest(tmp_path):
    """A manifest laid out as ``assets build`` writes it: per language, the numbers file
    relative to the manifest's folder."""
    (tmp_path / "data" / "k").mkdir(parents=True)
    (tmp_path / "data/k/numbers.json").write_text(json.dumps(NUMBERS), encoding="utf-8")
    languages = {lang: {"numbers": "data/k/numbers.json", "figures": {}} for lang in ("ko", "en")}
    path = tmp_path / "manifest.json"
    path.write_text(json.dumps({"format": 1, "languages": languages}), encoding="utf-8")
    return path


def render(text: str, manifest, lang: str = "en", where: str = "page.en.md", extra=()) -> str:
    return markdown.markdown(
        text,
        extensions=[*extra, EXTENSION],
        extension_configs={EXTENSION: {"manifest": str(manifest), "lang": lang, "where": where}},
    )


def test_plain_markdown_fills_the_numbers_from_the_manifest(manifest):
    text = (
        "With $d_\\text{model}$ = {{ae:after.d_model}} the loss ends at "
        "{{ae:after.best_loss.d16.none}}; the cosine starts at {{ ae:after.cos_init.d256.sqrt }}."
        "\n\n{{ae:training.init_starved.d16.none}}% go silent.\n"
    )
    assert render(text, manifest, lang="ko") == (
        "<p>With $d_\\text{model}$ = 16 the loss ends at 0.32–0.39; the cosine starts at "
        "−0.025 – −0.003.</p>\n<p>12% go silent.</p>"
    )


def test_numbers_inside_math_and_headings_are_filled(manifest):
    """Filled before Markdown parses the page: math, which arithmatex takes out before any
    inline pattern runs, has the number, and so do a heading's id and the table of contents
    an engine builds from it (MkDocs' page.toc)."""
    text = "## At d = {{ae:after.d_model}}\n\nThe sum $n = {{ae:after.d_model}}$ holds.\n"
    md = markdown.Markdown(
        extensions=["toc", "pymdownx.arithmatex", EXTENSION],
        extension_configs={EXTENSION: {"manifest": str(manifest), "lang": "en"}},
    )
    assert md.convert(text) == (
        '<h2 id="at-d-16">At d = 16</h2>\n'
        '<p>The sum <span class="arithmatex"><span class="MathJax_Preview">n = 16</span>'
        '<script type="math/tex">n = 16</script></span> holds.</p>'
    )
    assert [(t["id"], t["name"]) for t in md.toc_tokens] == [("at-d-16", "At d = 16")]


def test_an_unknown_name_is_an_error_naming_it_the_page_and_the_line(manifest):
    text = "# Title\n\nA number: {{ae:no.such.number}}.\n"
    with pytest.raises(MarkdownError) as caught:
        render(text, manifest, where="saturation.en.md")
    message = str(caught.value)
    assert "{{ae:no.such.number}}" in message
    assert "saturation.en.md, line 3" in message


def test_a_malformed_placeholder_is_an_error(manifest):
    with pytest.raises(MarkdownError, match=r"malformed .* in page\.en\.md, line 1"):
        render("{{ae:after.d_model}", manifest)


def test_a_number_that_markdown_would_read_as_syntax_is_refused(tmp_path):
    numbers = {"x": "2*3*4"}
    with pytest.raises(MarkdownError, match=r"\{\{ae:x\}\} prints as '2\*3\*4'"):
        markdown.markdown("a {{ae:x}} b", extensions=[NumbersExtension(numbers=numbers)])


def test_a_language_missing_from_the_manifest_is_an_error_naming_it(manifest):
    with pytest.raises(MarkdownError, match=r"no language 'fr' \(it has: en, ko\)"):
        render("text", manifest, lang="fr")


def test_a_missing_manifest_says_to_run_the_asset_step(tmp_path):
    with pytest.raises(MarkdownError, match="assets build"):
        render("text", tmp_path / "manifest.json")


# The site's extensions (mkdocs.yml) that a number can stand in: tables, admonitions, folds,
# attribute lists, Markdown inside HTML, footnotes.
SITE_EXTENSIONS = (
    "abbr",
    "admonition",
    "attr_list",
    "footnotes",
    "md_in_html",
    "tables",
    "toc",
    "pymdownx.details",
    "pymdownx.superfences",
)
PAGE = """\
A loss of {{ae:after.best_loss.d16.none}} at d = {{ae:after.d_model}}.[^1]

| d | loss |
| --- | --- |
| {{ae:after.d_model}} | {{ae:after.best_loss.d16.none}} |

!!! note "At {{ae:after.d_model}}"
    The cosine starts at {{ae:after.cos_init.d256.sqrt}}.

??? info "How we measured"
    {{ae:training.init_starved.d16.none}}% go silent.

<div markdown>
Inside HTML: {{ae:after.d_model}}.
</div>

[^1]: Over {{ae:after.d_model}} seeds.
"""


def test_every_place_the_site_puts_a_number_gets_its_printed_text():
    filled = markdown.markdown(
        PAGE, extensions=[*SITE_EXTENSIONS, NumbersExtension(numbers=NUMBERS)]
    )
    assert "0.32–0.39" in filled and "{{" not in filled
    assert html.escape("−0.025 – −0.003") in filled
