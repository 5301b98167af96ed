"""``{{ae:…}}`` filled while Markdown renders (markdown_numbers.py), with plain Python-Markdown:
no MkDocs, no build. The numbers are written here as the package prints them."""

from __future__ import annotations

import html
import json

import markdown
import pytest

from attention_explained.sitebuild._internal.markdown import MarkdownError
from attention_explained.sitebuild.markdown_numbers import NumbersExtension, fill_placeholders

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


# -- a Korean particle right after a number (_internal/particles.py) -----------------------
# Each number with how it is read aloud, its last syllable and so the form each particle
# takes, written out by hand: 0.821 영점팔이일 (일: ㄹ), 0.82 영점팔이 (이: vowel), 30 삼십
# (십: ㅂ), 1024 천이십사 (사: vowel), 3 삼 (ㅁ), 8 팔 (ㄹ), 6 육 (ㄱ), 5 오 (vowel), 0.50
# 영점오영 (영: ㅇ), a range by its last number.
PARTICLES = {
    "a": "0.821",
    "b": "0.82",
    "c": "30",
    "d": "1024",
    "e": "3",
    "f": "8",
    "g": "6",
    "h": "5",
    "i": "0.50",
    "j": "0.815–0.821",
}


@pytest.mark.parametrize(
    ("written", "printed"),
    [
        ("{{ae:a}}가 커집니다", "0.821이 커집니다"),
        ("{{ae:b}}이 커집니다", "0.82가 커집니다"),
        ("{{ae:c}}는 작습니다", "30은 작습니다"),
        ("{{ae:d}}은 큽니다", "1024는 큽니다"),
        ("{{ae:a}}를 넘고", "0.821을 넘고"),
        ("{{ae:h}}을 넘고", "5를 넘고"),
        ("{{ae:e}}와 {{ae:h}}과 {{ae:c}}와", "3과 5와 30과"),
        ("{{ae:f}}으로 줄고", "8로 줄고"),  # after ㄹ: 로
        ("{{ae:g}}로 줄고", "6으로 줄고"),
        ("{{ae:h}}으로 줄고", "5로 줄고"),
        ("{{ae:i}}가 되고", "0.50이 되고"),
        ("값은 {{ae:j}}는 아닙니다.", "값은 0.815–0.821은 아닙니다."),
        ("({{ae:b}}가)", "(0.82가)"),
        ("{{ae:a}}이.", "0.821이."),
    ],
)
def test_a_particle_after_a_number_on_a_korean_page_takes_the_numbers_form(written, printed):
    assert fill_placeholders(written, PARTICLES, "page.md", "ko") == printed


@pytest.mark.parametrize(
    "written",
    [
        "{{ae:b}}입니다",  # the copula, not a particle: 이 followed by a syllable
        "{{ae:a}}이고",
        "{{ae:b}}로그 축",  # a word that starts like a particle
        "{{ae:a}}가지",
        "$n = {{ae:a}}$",
        "{{ae:a}} 이하",  # a space: the next word, not a particle
    ],
)
def test_what_only_looks_like_a_particle_is_left_as_written(written):
    expected = written.replace("{{ae:a}}", "0.821").replace("{{ae:b}}", "0.82")
    assert fill_placeholders(written, PARTICLES, "page.md", "ko") == expected


def test_a_page_in_another_language_keeps_what_follows_a_number():
    assert fill_placeholders("{{ae:a}}가", PARTICLES, "page.en.md", "en") == "0.821가"
    assert fill_placeholders("{{ae:a}}가", PARTICLES, "page.md") == "0.821가"  # no language


def test_a_particle_after_a_number_with_no_korean_reading_is_an_error_naming_it():
    with pytest.raises(MarkdownError) as caught:
        fill_placeholders("x\n{{ae:p}}가 오릅니다", {"p": "12%"}, "after-training.md", "ko")
    assert str(caught.value).startswith(
        "number {{ae:p}} in after-training.md, line 2, has the particle '가' after it, but "
        "'12%' ends in '%'"
    )
    assert fill_placeholders("{{ae:p}} 오릅니다", {"p": "12%"}, "a.md", "ko") == "12% 오릅니다"


def test_the_markdown_extension_writes_the_particle_on_a_korean_page(manifest):
    html_ko = render("{{ae:after.d_model}}는 작습니다.", manifest, lang="ko", where="a.md")
    assert html_ko == "<p>16은 작습니다.</p>"  # 십육: 육, a final consonant
