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
