"""TeX → MathML at build time (sitebuild/_internal/math.py): the conversion and its memory."""

from __future__ import annotations

import re

import pytest

from attention_explained.sitebuild._internal import math


@pytest.fixture
def fresh_memory():
    math.forget_conversions()
    yield
    math.forget_conversions()


def test_a_formula_becomes_mathml_with_its_tex_as_alt_text(fresh_memory):
    out = math.tex_to_mathml(r"q\cdot k/\sqrt{d_k}")
    assert out.startswith('<math alttext="q\\cdot k/\\sqrt{d_k}"')
    assert "<msqrt>" in out and "xmlns" not in out
    assert 'display="block"' in math.tex_to_mathml("x", display=True)


@pytest.mark.parametrize(
    "tex", [r"\frac{a}{b}, \lVert x\rVert^2", r"\frac{a}{b} |x|", r"\frac{a}{b} \|x\|"]
)
def test_a_bare_norm_or_bar_keeps_its_size_beside_a_fraction(fresh_memory, tex):
    """Without \\left/\\right, TeX draws ‖ and | at text size; MathML stretches an ``<mo>``
    to its row unless told not to (a tall ‖ beside a fraction, seen on the saturation page)."""
    import xml.etree.ElementTree as ET

    mathml = math.tex_to_mathml(tex).replace("<math ", f'<math xmlns="{math.MATHML_NS}" ', 1)
    bars = [
        element
        for element in ET.fromstring(mathml).iter(f"{{{math.MATHML_NS}}}mo")
        if (element.text or "").strip() in ("‖", "|")
    ]
    assert len(bars) == 2, mathml
    assert all(bar.get("stretchy") == "false" for bar in bars), mathml


def test_a_stretched_bar_still_stretches(fresh_memory):
    mathml = math.tex_to_mathml(r"\left\| \frac{a}{b} \right\|")
    assert 'stretchy="false"' not in mathml, mathml


def test_a_formula_latex2mathml_cannot_read_names_itself(fresh_memory):
    with pytest.raises(math.MathError, match="empty formula"):
        math.tex_to_mathml("   ")


def test_conversions_are_remembered_and_come_back_from_disk(fresh_memory, tmp_path, monkeypatch):
    path = tmp_path / f"mathml-{math.conversions_key()}.json"
    first = math.tex_to_mathml(r"\sqrt{d_k}")
    math.save_conversions(path)
    assert path.is_file()
    math.forget_conversions()  # a later build: only the file remembers

    def fail(tex, display):
        raise AssertionError(f"converted {tex!r} again")

    monkeypatch.setattr(math, "convert_formula", fail)
    math.load_conversions(path)
    assert math.tex_to_mathml(r"\sqrt{d_k}") == first
    with pytest.raises(AssertionError, match="again"):  # never seen: converted
        math.tex_to_mathml("y")
    stamp = path.stat().st_mtime_ns
    math.save_conversions(path)  # nothing new: not rewritten
    assert path.stat().st_mtime_ns == stamp
    math.load_conversions(tmp_path / "missing.json")  # no file: nothing to remember


def test_the_font_covers_what_each_page_draws_now_not_what_it_drew(tmp_path):
    """characters_for remembers pages by their text: an edit that adds a symbol adds it."""
    page = tmp_path / "page.md"
    page.write_text("Intro $q\\cdot k$ and text.\n", encoding="utf-8")
    before = math.characters_for([page])
    assert "∂" not in before
    page.write_text("Intro $q\\cdot k$ and $\\partial L$.\n", encoding="utf-8")
    after = math.characters_for([page])
    assert "∂" in after and before < after


def test_the_font_preload_names_the_root_copy_from_any_page():
    import re

    from attention_explained.sitebuild._internal.math import font_preload

    def href(url: str) -> str:
        return re.search(r'href="([^"]+)"', font_preload(url, "f.woff2")).group(1)

    assert href("") == "assets/math/f.woff2"  # the home page
    assert href("saturation/") == "../assets/math/f.woff2"
    assert href("en/notebooks/heatmaps/") == "../../../assets/math/f.woff2"
    assert href("en/page.html") == "../assets/math/f.woff2"  # without directory URLs
    assert 'as="font" type="font/woff2" crossorigin' in font_preload("", "f.woff2")


ARITY = {"msub": 2, "msup": 2, "munder": 2, "mover": 2, "mfrac": 2, "mroot": 2}
ARITY |= {"msubsup": 3, "munderover": 3}


@pytest.mark.parametrize(
    "tex",
    [r"\max_j p_j", r"\log_2 x", r"\operatorname{softmax}_i(x)", r"\sum_{i=1}^{n} \exp x_i"],
)
def test_a_scripted_operator_keeps_the_children_mathml_requires(fresh_memory, tex):
    """The thin space after a named operator goes after its script, not inside it."""
    import xml.etree.ElementTree as ET

    mathml = math.tex_to_mathml(tex).replace("<math ", f'<math xmlns="{math.MATHML_NS}" ', 1)
    root = ET.fromstring(mathml)
    for element in root.iter():
        name = element.tag.rsplit("}", 1)[-1]
        if name in ARITY:
            children = [child.tag.rsplit("}", 1)[-1] for child in element]
            assert len(children) == ARITY[name], f"{tex}: <{name}> has {children}"
    if tex.startswith((r"\max", r"\log")):  # TeX's thin space still follows the operator
        assert "</msub><mspace" in math.tex_to_mathml(tex)


def test_the_font_keeps_the_italic_form_of_every_letter_a_formula_uses(tmp_path):
    """A one-letter <mi> is drawn in Mathematical Italic: ϵ as U+1D716, ∂ as U+1D715."""
    import unicodedata

    page = tmp_path / "page.md"
    page.write_text("A small $\\epsilon$, $\\partial L$ and $\\vartheta$.\n", encoding="utf-8")
    chars = math.characters_for([page])
    for letter in "ϵ∂ϑ":
        italic = math.ITALIC[letter]
        assert unicodedata.name(italic).startswith("MATHEMATICAL ITALIC"), letter
        assert italic in chars, f"{letter}: its italic form {italic!r} is not in the font"


def inline(tex: str) -> str:
    return f'<span class="arithmatex">\\({tex}\\)</span>'


def test_inline_math_keeps_its_punctuation_and_particle_on_its_line(fresh_memory):
    """A line may not start with the comma or particle written against a formula, nor end
    with the bracket that opens before one: they share a no-break span with the formula."""
    html, count = math.typeset_html(
        f"<p>분산은 {inline('90')}, 표준편차는 {inline('9d_k/d_k = 9')}가 되고"
        f" 값은({inline('x')}) 그리고 {inline('y')} 끝</p>",
        "test",
    )
    assert count == 4
    glued = re.findall(r'<span class="ae-nobr">(.*?<math.*?</math></span>[^<]*)</span>', html)
    assert [re.sub(r"<math.*?</math>", "M", g) for g in glued] == [
        '<span class="arithmatex">M</span>,',
        '<span class="arithmatex">M</span>가',
        '(<span class="arithmatex">M</span>)',
    ], html
    assert ' <span class="arithmatex"><math alttext="y"' in html, "a free formula was wrapped"


def test_only_inline_math_outside_code_is_glued(fresh_memory):
    html, _ = math.typeset_html(
        '<p><div class="arithmatex">\\[a = b\\]</div>,</p>'
        f"<pre><code>f({inline('z')})</code></pre>",
        "test",
    )
    assert "ae-nobr" not in html, html


def test_the_radical_is_no_wider_in_any_form_than_the_glyph_drawn(tmp_path):
    """MathML Core sizes a radical by the widest of its base glyph, size variants and assembly
    parts; Chromium does, Firefox sizes it by the glyph drawn. The subset keeps no form wider
    than the base glyph, so both give an inline √dₖ the same width and no gap after it.
    The numbers are STIX Two Math's own (read with fontTools): a 794-unit √ and 1212-unit parts."""
    from fontTools.ttLib import TTFont

    target = tmp_path / "math.woff2"
    math.subset_math_font(math.font_source(), target, set("√dk"))
    font = TTFont(str(target))
    base = font.getBestCmap()[math.RADICAL]
    variants = font["MATH"].table.MathVariants
    construction = variants.VertGlyphConstruction[variants.VertGlyphCoverage.glyphs.index(base)]
    forms = [record.VariantGlyph for record in construction.MathGlyphVariantRecord]
    if construction.GlyphAssembly is not None:
        forms += [part.glyph for part in construction.GlyphAssembly.PartRecords]
    widths = {font["hmtx"][name][0] for name in forms}
    assert font["hmtx"][base][0] == 794
    assert widths == {794}, widths

    whole = TTFont(str(math.font_source()))
    dropped = math.narrow_radical(whole)  # the source font itself has the wide forms
    assert max(whole["hmtx"][name][0] for name in dropped) == 1212
