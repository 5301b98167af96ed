"""The PDF edition's fonts and glyph check (edition/pdf.py), without a browser."""

from __future__ import annotations

import pytest
from fontTools.ttLib import TTFont

from attention_explained.edition import pdf

BODY = '"AE Sans", "AE Hangul"'


@pytest.fixture(scope="module")
def coverage(tmp_path_factory):
    """The edition's own fonts (no built site, so no math font)."""
    return pdf.family_coverage(tmp_path_factory.mktemp("no-site"))


def test_every_font_comes_from_a_wheel_and_loads_in_a_browser(tmp_path):
    for family, _weight, _style, package, rel in pdf.FONT_FACES:
        path = pdf.font_file(package, rel)
        served = tmp_path / path.name
        served.write_bytes(pdf.font_bytes(path))
        with TTFont(served) as font:  # still a font, without the tables browsers refuse
            assert not [tag for tag in pdf.EDITOR_TABLES if tag in font], path
            assert font.getBestCmap(), path
        assert f'font-family: "{family}"' in pdf.font_face_css("http://127.0.0.1:1/")
    hangul = [f for f in pdf.FONT_FACES if f[3] == "koreanize_matplotlib"]
    assert hangul and all("NanumGothic" in rel for *_, rel in hangul)  # as the figures use


def test_a_missing_wheel_font_is_named():
    with pytest.raises(pdf.PdfError, match="matplotlib wheel"):
        pdf.font_file("matplotlib", "mpl-data/fonts/ttf/NoSuchFont.ttf")
    with pytest.raises(pdf.PdfError, match="not installed"):
        pdf.font_file("no_such_package_ae", "x.ttf")


def test_korean_and_latin_text_has_glyphs_in_the_editions_fonts(coverage):
    sections = [{"title": "어텐션", "text": {BODY: "어텐션은 q·k를 √d_k로 나눕니다.\n\u00ad"}}]
    assert pdf.missing_glyphs(sections, coverage) == []


def test_text_no_embedded_font_draws_is_named_with_its_page_and_code_point(coverage):
    sections = [
        {"title": "포화", "text": {BODY: "웃음 🙂"}},
        # A system or generic family draws nothing: the machine may not have it.
        {"title": "Glossary", "text": {'"Noto Sans CJK KR", sans-serif': "한"}},
    ]
    problems = pdf.missing_glyphs(sections, coverage)
    assert problems == [("포화", "🙂", BODY), ("Glossary", "한", '"Noto Sans CJK KR", sans-serif')]
    message = pdf.describe_missing(problems)
    assert "포화" in message and "U+1F642" in message and "U+D55C" in message


def test_a_one_letter_mi_is_checked_in_its_italic_form():
    """ϵ in <mi> is drawn as 𝜖 (U+1D716): a font with ϵ but not 𝜖 does not draw it."""
    coverage = {"Math": frozenset({ord("ϵ")})}
    sections = [{"title": "t", "text": {"Math" + pdf.ITALIC_MARK: "ϵ", "Math": "ϵ"}}]
    assert pdf.missing_glyphs(sections, coverage) == [("t", "\U0001d716", "Math")]


BASE = "http://127.0.0.1:8000/fixture/"
THREE = ("ko", "en", "de")


@pytest.mark.parametrize(
    ("path", "lang"),
    [
        ("", "ko"),
        ("saturation/", "ko"),
        ("en/", "en"),
        ("en/saturation/", "en"),
        ("de/", "de"),
        ("de/saturation/", "de"),
        ("design/", "ko"),  # a default-language page whose name starts like a language
        ("english/", "ko"),
    ],
)
def test_the_edition_takes_the_pages_of_its_own_language_only(path, lang):
    """Of a three-language site, each edition keeps its language's pages and no other's:
    a third language's pages are not printed into the default language's edition."""
    for edition in THREE:
        kept = pdf.same_language(BASE + path, BASE, edition, THREE, "ko")
        assert kept == (edition == lang), (path, edition)


def test_the_default_language_is_the_sites_not_korean():
    assert pdf.same_language(BASE, BASE, "en", ("en", "ko"), "en")
    assert not pdf.same_language(BASE + "ko/x/", BASE, "en", ("en", "ko"), "en")
    assert pdf.same_language(BASE + "ko/x/", BASE, "ko", ("en", "ko"), "en")


def test_a_page_off_the_site_is_never_taken():
    assert not pdf.same_language("http://127.0.0.1:9/other/", BASE, "ko", THREE, "ko")


def test_the_sites_languages_come_from_its_i18n_plugin(tmp_path):
    config = tmp_path / "mkdocs.yml"
    config.write_text(
        "site_name: x\nsite_url: https://example.invalid/x/\nplugins:\n  - i18n:\n"
        "      languages:\n        - locale: en\n          name: English\n"
        "        - locale: de\n          name: Deutsch\n          default: true\n"
        "        - locale: ko\n          name: 한국어\n          build: false\n",
        encoding="utf-8",
    )
    assert pdf.site_languages(config) == (("en", "de"), "de")


def test_the_repositorys_site_has_the_packages_languages():
    from attention_explained.settings import LANGS

    assert pdf.site_languages(pdf.DEFAULT_CONFIG) == (LANGS, LANGS[0])


def test_a_language_without_cover_words_is_named(tmp_path):
    config = tmp_path / "mkdocs.yml"
    config.write_text(
        "site_name: x\nsite_url: https://example.invalid/x/\nplugins:\n  - i18n:\n"
        "      languages:\n        - locale: ko\n          name: 한국어\n          default: true\n"
        "        - locale: de\n          name: Deutsch\n",
        encoding="utf-8",
    )
    (tmp_path / "site").mkdir()
    with pytest.raises(pdf.PdfError, match=r"edition/pdf.py TEXT has no entry for language 'de'"):
        pdf.build_pdf(tmp_path / "site", "de", tmp_path / "de.pdf", config)
    with pytest.raises(pdf.PdfError, match=r"site's languages ko, de, got 'fr'"):
        pdf.build_pdf(tmp_path / "site", "fr", tmp_path / "fr.pdf", config)
