"""Every figure in every variant: renders, reproducible, Hangul-safe, described in ko and en."""

from __future__ import annotations

import re
import subprocess
import sys
import warnings
from pathlib import Path

import pytest

from attention_explained.figures import FIGURE_IDS, LANGS, THEMES, draw, render
from attention_explained.figures.render import FigureError, variant_name
from attention_explained.figures.strings import STRINGS, alt_text
from attention_explained.figures.style import MissingGlyphError, to_bytes

HANGUL = re.compile(r"[\uac00-\ud7a3]")
MAX_FIGURE_BYTES = 120_000


@pytest.fixture(scope="module")
def rendered(tmp_path_factory) -> Path:
    """All 28 variants, rendered in this process with warnings recorded."""
    out = tmp_path_factory.mktemp("figures")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        render(FIGURE_IDS, out)
    glyphs = [str(w.message) for w in caught if "missing from" in str(w.message)]
    assert not glyphs, glyphs
    return out


def test_every_variant_is_rendered(rendered):
    expected = {
        variant_name(i, lang, theme) for i in FIGURE_IDS for lang in LANGS for theme in THEMES
    }
    assert {p.name for p in rendered.iterdir()} == expected


@pytest.mark.parametrize("figure_id", FIGURE_IDS)
def test_variants_are_light_svgs_with_text_as_paths(rendered, figure_id):
    for lang in LANGS:
        for theme in THEMES:
            svg = (rendered / variant_name(figure_id, lang, theme)).read_text(encoding="utf-8")
            assert svg.lstrip().startswith("<?xml") and "<svg" in svg
            assert "<text" not in svg, "text must be drawn as paths so no Hangul font is needed"
            assert "<dc:date>" not in svg, "a date in the SVG breaks byte-identical builds"
            assert len(svg.encode()) <= MAX_FIGURE_BYTES, f"{figure_id} {lang} {theme}: too big"


@pytest.mark.parametrize("figure_id", FIGURE_IDS)
def test_languages_and_themes_really_differ(rendered, figure_id):
    read = lambda lang, theme: (rendered / variant_name(figure_id, lang, theme)).read_bytes()  # noqa: E731
    assert read("ko", "light") != read("en", "light"), "labels must be in the reader's language"
    assert read("ko", "light") != read("ko", "dark"), "dark variant must change colours"


@pytest.mark.parametrize("figure_id", FIGURE_IDS)
def test_recoloured_dark_variant_equals_drawing_it_directly(rendered, figure_id):
    """The renderer draws light and recolours it; that must be exactly the dark drawing."""
    direct = to_bytes(draw(figure_id, "ko", "dark"), "svg")
    assert (rendered / variant_name(figure_id, "ko", "dark")).read_bytes() == direct


def test_a_fresh_process_renders_identical_bytes(rendered, tmp_path):
    """Two builds give byte-identical figures: re-render everything through the CLI."""
    result = subprocess.run(
        [sys.executable, "-m", "attention_explained", "figures", "--out", str(tmp_path)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    for path in rendered.iterdir():
        assert (tmp_path / path.name).read_bytes() == path.read_bytes(), path.name
    assert f"[{len(FIGURE_IDS)}/{len(FIGURE_IDS)}]" in result.stderr


def test_missing_glyph_is_an_error_not_a_warning():
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots()
    ax.set_title("\U00013000")  # an Egyptian hieroglyph: in neither DejaVu Sans nor NanumGothic
    with pytest.raises(MissingGlyphError, match="missing"):
        to_bytes(fig, "svg")


def test_hangul_and_unicode_minus_need_no_warning():
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots()
    ax.plot([-2, 2], [-1, 1])
    ax.set_title("어텐션 가중치 −3 … 3")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert to_bytes(fig, "svg")


def test_font_order_keeps_dejavu_first():
    import matplotlib

    import attention_explained.figures.style  # noqa: F401  (registers the font)

    families = matplotlib.rcParams["font.family"]
    assert families[0] == "DejaVu Sans" and "NanumGothic" in families


def test_png_has_no_software_string():
    import matplotlib.pyplot as plt

    fig, _ = plt.subplots()
    assert b"Software" not in to_bytes(fig, "png")
    assert b"matplotlib" not in to_bytes(plt.subplots()[0], "png").lower()


@pytest.mark.parametrize("figure_id", FIGURE_IDS)
def test_alt_text_in_both_languages(figure_id):
    assert HANGUL.search(alt_text(figure_id, "ko"))
    assert not HANGUL.search(alt_text(figure_id, "en"))
    assert len(alt_text(figure_id, "en")) > 40


def test_string_table_is_complete():
    for figure_id, entries in STRINGS.items():
        for key, entry in entries.items():
            assert set(entry) == set(LANGS), f"{figure_id}.{key} must have exactly ko and en"
            assert all(text.strip() for text in entry.values()), f"{figure_id}.{key} is empty"
    assert set(FIGURE_IDS) <= set(STRINGS)


def test_draw_validates_its_arguments():
    with pytest.raises(ValueError, match="lang"):
        draw("temperature", lang="fr")
    with pytest.raises(ValueError, match="theme"):
        draw("temperature", theme="sepia")
    with pytest.raises(ValueError, match="valid ids"):
        draw("no-such-figure")


def test_a_failing_figure_names_id_lang_and_theme(monkeypatch, tmp_path):
    from dataclasses import replace

    from attention_explained.figures import get, registry

    def broken(data, lang, theme):
        raise RuntimeError("boom")

    monkeypatch.setitem(
        registry._REGISTRY, "softmax-curve", replace(get("softmax-curve"), draw=broken)
    )
    with pytest.raises(FigureError, match=r"softmax-curve.*lang=ko, theme=light.*boom"):
        render(["softmax-curve"], tmp_path)
