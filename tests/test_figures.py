"""Every figure in every variant: renders, reproducible, Hangul-safe, described in ko and en."""

from __future__ import annotations

import json
import math
import re
import warnings
from pathlib import Path

import numpy as np
import pytest

from attention_explained.figures import FIGURE_IDS, LANGS, THEMES, draw, render
from attention_explained.figures.registry import layouts
from attention_explained.figures.render import FigureError, variant_name
from attention_explained.figures.strings import SHARED, alt_text, figure_strings
from attention_explained.figures.style import (
    COLUMN_PX,
    MIN_TEXT_PX,
    NARROW_WIDTH,
    PHONE_TEXT_PX,
    MissingGlyphError,
    fit_to_column,
    layout,
    panels,
    to_bytes,
)

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


@pytest.mark.grid  # `rendered` draws the training figures: the full grids
def test_every_variant_is_rendered(rendered):
    expected = {
        variant_name(i, lang, theme, layout=shape)
        for i in FIGURE_IDS
        for lang in LANGS
        for theme in THEMES
        for shape in layouts(i)
    }
    assert {p.name for p in rendered.iterdir()} == expected


def test_a_card_is_the_light_wide_drawing_as_a_1200_px_png_on_white(tmp_path):
    from PIL import Image

    written = render(["softmax-curve"], tmp_path, langs=["ko"], themes=["light"], cards=True)
    card = tmp_path / "softmax-curve.ko.card.png"
    assert card in written
    assert not (tmp_path / "softmax-curve.en.card.png").exists()
    with Image.open(card) as image:
        assert image.format == "PNG" and image.width == 1200
        assert image.convert("RGB").getpixel((0, 0)) == (255, 255, 255)
        assert image.convert("L").getextrema()[0] < 100  # it has a drawing on it
    # without cards=True (the CLI's default) no PNG is written
    assert render(["softmax-curve"], tmp_path / "none", langs=["ko"], themes=["light"])
    assert not list((tmp_path / "none").glob("*.png"))


SVG_WIDTH = re.compile(r'<svg\b[^>]*\bwidth="([0-9.]+)pt"')
SMALLEST = re.compile(r'<svg\b[^>]*\bdata-smallest-text-pt="([0-9.]+)"')


def shown_text_px(svg: str, column_px: float) -> float:
    """The smallest text of ``svg`` in CSS px when it is shown ``column_px`` wide."""
    width = float(SVG_WIDTH.search(svg).group(1))
    return float(SMALLEST.search(svg).group(1)) * min(column_px, width * 4 / 3) / width


@pytest.mark.grid  # `rendered` draws the training figures: the full grids
@pytest.mark.parametrize("figure_id", FIGURE_IDS)
def test_every_variant_reads_at_its_floor_in_the_narrowest_column_it_is_shown_in(
    rendered, figure_id
):
    """What tests/test_browser_figure_text.py measures in Chromium, from the files: a narrow
    variant in a phone's column (at least PHONE_TEXT_PX), a wide one in the desktop's, or in a
    phone's if it is the only one (at least MIN_TEXT_PX)."""
    shapes = layouts(figure_id)
    for lang in LANGS:
        for shape in shapes:
            column = COLUMN_PX["narrow" if shapes == ("wide",) else shape]
            svg = (rendered / variant_name(figure_id, lang, "light", layout=shape)).read_text()
            px = shown_text_px(svg, column)
            floor = PHONE_TEXT_PX if shape == "narrow" else MIN_TEXT_PX
            assert px >= floor, f"{figure_id} {lang} {shape}: {px:.2f} px at {column} px"


@pytest.mark.grid  # `rendered` draws the training figures: the full grids
@pytest.mark.parametrize("figure_id", FIGURE_IDS)
def test_variants_are_light_svgs_with_text_as_paths(rendered, figure_id):
    for lang in LANGS:
        for theme in THEMES:
            svg = (rendered / variant_name(figure_id, lang, theme)).read_text(encoding="utf-8")
            assert svg.lstrip().startswith("<?xml") and "<svg" in svg
            assert "<text" not in svg, "text must be drawn as paths so no Hangul font is needed"
            assert "<dc:date>" not in svg, "a date in the SVG breaks byte-identical builds"
            assert len(svg.encode()) <= MAX_FIGURE_BYTES, f"{figure_id} {lang} {theme}: too big"


@pytest.mark.grid  # `rendered` draws the training figures: the full grids
@pytest.mark.parametrize("figure_id", FIGURE_IDS)
def test_languages_and_themes_really_differ(rendered, figure_id):
    read = lambda lang, theme: (rendered / variant_name(figure_id, lang, theme)).read_bytes()  # noqa: E731
    assert read("ko", "light") != read("en", "light"), "labels must be in the reader's language"
    assert read("ko", "light") != read("ko", "dark"), "dark variant must change colours"


@pytest.mark.grid  # `rendered` draws the training figures: the full grids
@pytest.mark.parametrize("figure_id", FIGURE_IDS)
def test_recoloured_dark_variant_equals_drawing_it_directly(rendered, figure_id):
    """The renderer draws light and recolours it; that must be exactly the dark drawing."""
    direct = to_bytes(draw(figure_id, "ko", "dark"), "svg")
    assert (rendered / variant_name(figure_id, "ko", "dark")).read_bytes() == direct


@pytest.mark.grid  # `rendered` draws the training figures: the full grids
@pytest.mark.site  # the fresh processes are the shared build's drawing processes
def test_a_fresh_process_renders_identical_bytes(rendered, built_site):
    """Two builds give byte-identical figures: every variant drawn in this process (after
    whatever this test process ran before) is the one the shared build's drawing processes,
    freshly spawned, drew from data computed in the asset step's process."""
    manifest = json.loads((built_site.cache / "manifest.json").read_text(encoding="utf-8"))
    built = {}
    for entry in manifest["languages"].values():
        for files in entry["figures"].values():
            built.update({Path(rel).name: built_site.cache / rel for rel in files.values()})
    for path in rendered.iterdir():
        assert path.name in built, f"{path.name}: not in the shared build"
        assert built[path.name].read_bytes() == path.read_bytes(), path.name


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


def test_an_svg_records_its_smallest_text_and_the_column_raises_it():
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(7.2, 3))
    ax.set_title("title", fontsize=12)
    ax.text(0.5, 0.5, "small note", fontsize=6.5)
    ax.text(0.5, 0.2, "hidden", fontsize=3).set_visible(False)  # a hidden text is not seen
    assert SMALLEST.search(to_bytes(fig, "svg").decode()).group(1) == "6.5"
    fig, ax = plt.subplots(figsize=(7.2, 3))
    ax.text(0.5, 0.5, "small note", fontsize=6.5)
    fit_to_column(fig, 336)  # 518.4 pt shown 336 px wide: 9 px needs 13.9 pt
    svg = to_bytes(fig, "svg").decode()
    assert SMALLEST.search(svg).group(1) == "13.9"
    assert shown_text_px(svg, 336) >= MIN_TEXT_PX


def test_narrow_panels_stack_with_the_same_shape_and_sharing():
    import matplotlib.pyplot as plt

    with layout("narrow"):
        fig, axes = panels(2, 2, figsize=(9, 6), sharey="row", sharex=True, order="col")
    assert axes.shape == (2, 2) and fig.get_figwidth() == NARROW_WIDTH
    tops = [ax.get_position().y0 for ax in (axes[0, 0], axes[1, 0], axes[0, 1], axes[1, 1])]
    assert tops == sorted(tops, reverse=True), "stacked column by column, top to bottom"
    assert len({ax.get_position().x0 for ax in axes.flat}) == 1, "one column"
    axes[0, 0].set_ylim(0, 7)
    axes[1, 1].set_xlim(0, 3)
    assert axes[0, 1].get_ylim() == (0, 7) and axes[1, 0].get_ylim() != (0, 7), "rows share y"
    assert all(ax.get_xlim() == (0, 3) for ax in axes.flat), "all share x"
    plt.close(fig)
    fig, axes = panels(1, 3, figsize=(10, 4))  # wide: plain plt.subplots
    assert axes.shape == (3,) and fig.get_figwidth() == 10
    plt.close(fig)


def test_a_narrow_title_wraps_between_words_outside_math():
    import matplotlib.pyplot as plt

    long = "Training loss: without scaling, attention lags at large $d_k = 1024$ and more"
    with layout("narrow"):
        fig, _ = panels(1, 1, figsize=(7, 4))
        title = fig.suptitle(long, fontweight="bold")
        fit_to_column(fig, COLUMN_PX["narrow"])
    lines = title.get_text().split("\n")
    assert len(lines) > 1 and " ".join(lines) == long
    assert all(line.count("$") % 2 == 0 for line in lines), lines
    renderer = fig.canvas.get_renderer()
    for line in lines:
        title.set_text(line)
        assert title.get_window_extent(renderer).width <= fig.bbox.width
    plt.close(fig)


def test_a_narrow_y_label_fits_the_height_of_its_panel():
    """Stacked on a phone, a y label longer than its panel ran into the panel under it
    (after-lr-sensitivity's "final loss (mean of the last 20 steps)"): it wraps instead."""
    import matplotlib.pyplot as plt

    long = "final loss (mean of the last 20 steps, a long label)"
    with layout("narrow"):
        fig, axes = panels(2, 1, figsize=(7, 4))
        for ax in axes:
            ax.set_ylabel(long)
        fit_to_column(fig, COLUMN_PX["narrow"])
    renderer = fig.canvas.get_renderer()
    for ax in axes:
        label = ax.yaxis.label
        assert "\n" in label.get_text() and " ".join(label.get_text().split("\n")) == long
        height = label.get_window_extent(renderer).height
        assert height <= 1.05 * ax.get_window_extent(renderer).height
    plt.close(fig)


def test_a_narrow_title_keeps_parentheses_and_brackets_whole():
    """A phone's title broke "(시드 0)" into "(시드" and "0)" (reader 15): a wrap happens only
    between words outside $…$, (…) and […]."""
    from attention_explained.figures.style import wrap_outside_math

    def fits(width):
        return lambda line: len(line) <= width

    assert wrap_outside_math("weights (seed 0) more", fits(13)).split("\n") == [
        "weights",
        "(seed 0) more",
    ]
    assert wrap_outside_math("keys ~ uniform[−3, 3]", fits(14)).split("\n") == [
        "keys ~",
        "uniform[−3, 3]",
    ]
    assert wrap_outside_math("a $b + c$ d", fits(3)).split("\n") == ["a", "$b + c$", "d"]
    # a group that cannot fit on a line of its own is broken after all
    assert wrap_outside_math("loss (mean of the last steps)", fits(12)).split("\n") == [
        "loss (mean",
        "of the last",
        "steps)",
    ]


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


def _all_strings() -> dict[str, dict[str, dict[str, str]]]:
    """Each figure's strings (its own and the shared ones it names), and the shared table."""
    return {"shared": SHARED, **{figure_id: figure_strings(figure_id) for figure_id in FIGURE_IDS}}


def test_string_table_is_complete():
    strings = _all_strings()
    for figure_id, entries in strings.items():
        for key, entry in entries.items():
            assert set(entry) == set(LANGS), f"{figure_id}.{key} must have exactly ko and en"
            assert all(text.strip() for text in entry.values()), f"{figure_id}.{key} is empty"
    assert set(FIGURE_IDS) <= set(strings)


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
        registry.REGISTRY, "softmax-curve", replace(get("softmax-curve"), draw=broken)
    )
    with pytest.raises(FigureError, match=r"softmax-curve.*lang=ko, theme=light.*boom"):
        render(["softmax-curve"], tmp_path)


# -- the new figures' data -------------------------------------------------------------------


def _std_tolerance(dim: int, n: int, seeds: int, sigmas: float = 4.0) -> float:
    """``sigmas`` standard errors of the sample std of the note's n×n logits over ``seeds``.

    Derived here, not read from the code under test. For z = a·b with independent
    U[−3, 3] components (E a² = 3, E a⁴ = 81/5): Var(z²) = 162d² + 19.44d, and two entries
    sharing a query or a key have Cov(z², z'²) = 9 d Var(a²) = 64.8d (each entry shares with
    2(n − 1) others; disjoint ones are independent). So Var(mean z²) =
    (162d² + 19.44d + 2(n − 1)·64.8d) / (seeds·n²), and SE(std) ≈ SE(var) / (2σ).
    """
    var = 9.0 * dim
    var_of_mean_sq = (162 * dim**2 + 19.44 * dim + 2 * (n - 1) * 64.8 * dim) / (seeds * n * n)
    return sigmas * math.sqrt(var_of_mean_sq) / (2 * math.sqrt(var))


def test_logit_histograms_spread_matches_theory_within_sampling_error():
    from attention_explained.content import data as experiments
    from attention_explained.figures.logit_histograms import logits, theory_std

    data = logits()
    n, seeds = experiments.LENGTH, len(experiments.SWEEP_SEEDS)
    for dim in (10, 1024):
        raw = data[dim]["raw"]
        assert raw.shape == (n * n * seeds,)
        assert theory_std(data, dim, "raw") == pytest.approx(3 * math.sqrt(dim))
        assert theory_std(data, dim, "sqrt") == pytest.approx(3.0)
        tol = _std_tolerance(dim, n, seeds)
        assert abs(raw.std() - 3 * math.sqrt(dim)) < tol, (dim, raw.std(), tol)
        scaled = data[dim]["sqrt"]
        assert abs(scaled.std() - 3.0) < tol / math.sqrt(dim)
        assert abs(raw.mean()) < tol  # centred at 0, as the histograms show
    # the point of the figure: the raw spread grows like √d, ÷√d takes it away
    ratio = data[1024]["raw"].std() / data[10]["raw"].std()
    assert ratio == pytest.approx(math.sqrt(1024 / 10), rel=0.05)
    assert data[1024]["sqrt"].std() == pytest.approx(data[10]["sqrt"].std(), rel=0.05)


def test_temperature_keeps_the_largest_weight_on_one_key():
    from attention_explained.figures.temperature import one_row

    weights = one_row()["weights"]
    assert len({int(np.argmax(row)) for row in weights}) == 1


# -- figure text -------------------------------------------------------------------------------

_MATH = re.compile(r"\$[^$]*\$")


def test_every_figure_has_alt_and_title_in_both_languages():
    strings = _all_strings()
    for figure_id in FIGURE_IDS:
        for key in ("alt", "title"):
            assert set(strings[figure_id][key]) == set(LANGS), f"{figure_id}.{key}"


def test_drawn_strings_have_no_literal_underscores_or_subscript_q():
    """d_k, L_q, W^Q are drawn with mathtext; outside $…$ an underscore would show as is."""
    for figure_id, entries in _all_strings().items():
        for key, entry in entries.items():
            if key == "alt":
                continue
            for lang, label in entry.items():
                plain = _MATH.sub("", label)
                assert "_" not in plain, f"{figure_id}.{key}.{lang}: {label!r}"
                assert label.count("$") % 2 == 0, f"{figure_id}.{key}.{lang}: unbalanced $"


def test_figure_strings_follow_the_conventions():
    everything = [
        (f"{i}.{k}.{lang}", s)
        for i, entries in _all_strings().items()
        for k, entry in entries.items()
        for lang, s in entry.items()
    ]
    for where, s in everything:
        assert "W_Q" not in s and "W_K" not in s and "W_V" not in s, f"{where}: W^Q, not W_Q"
        assert "임베딩 차원 d " not in s and "임베딩 차원 d(" not in s, f"{where}: d is d_k"
        assert "is 0" not in s and "0이 된다" not in s, f"{where}: the derivative approaches 0"
    korean = [(w, s) for w, s in everything if w.endswith(".ko")]
    for where, s in korean:
        assert "QK-norm" not in s, f"{where}: QK 정규화 in Korean"
        assert "균등 분포" not in s and "nats" not in s, where


def test_mixed_hangul_and_math_lines_render_without_missing_glyphs():
    import matplotlib.pyplot as plt

    from attention_explained.figures.style import mixed_font

    label = r"헤드 차원 $d_k = d_{\mathrm{model}}/h$"
    assert mixed_font(label) and not mixed_font("헤드 차원\n$d_k$")
    fig, ax = plt.subplots()
    ax.set_xlabel(label, **mixed_font(label))
    assert to_bytes(fig, "svg")
    fig, ax = plt.subplots()
    ax.set_xlabel(label)  # without it, mathtext has no Hangul
    with pytest.raises(MissingGlyphError):
        to_bytes(fig, "svg")


# -- alt texts that state measured results are checked claims ----------------------------------


def test_alt_claims_name_registered_claims_of_known_figures():
    from attention_explained.content import pages as claims
    from attention_explained.figures.strings import all_alt_claims

    alt_claims = all_alt_claims()
    assert set(alt_claims) <= set(FIGURE_IDS)
    registered = claims.registered()
    for figure_id, names in alt_claims.items():
        assert names, figure_id
        for name in names:
            assert name in registered, f"{figure_id}: {name}"


@pytest.mark.grid  # `rendered` draws the training figures: the full grids
def test_alt_claims_hold_on_the_real_numbers_and_fail_on_their_counterexamples(rendered):
    """``rendered`` first: the training data is then already computed in this process."""
    from attention_explained.content import pages as claims
    from attention_explained.content.pages import values
    from attention_explained.figures.strings import all_alt_claims

    alt_claims = all_alt_claims()
    real = values()
    for figure_id, names in alt_claims.items():
        for name in names:
            spec = claims.registered()[name]
            assert claims.evaluate(name, real).holds, f"{figure_id}: {spec.statement}"
            broken = {**real, **spec.counterexample}
            assert not claims.evaluate(name, broken).holds, f"{name}: counterexample holds"


def test_a_false_alt_claim_names_the_figure_and_the_page():
    from attention_explained.sitebuild._internal.claims import ClaimError
    from attention_explained.sitebuild._internal.figure_claims import check_alt_claims

    verdicts = {"x.y": {"holds": False, "statement": "A beats B", "numbers": {"a": 1.0}}}
    with pytest.raises(ClaimError, match=r"page\.md: .*figure 'fig'.*'x\.y' does not hold"):
        check_alt_claims("fig", verdicts, "page.md", {"fig": ("x.y",)})
    with pytest.raises(ClaimError, match="unknown claim 'z'"):
        check_alt_claims("fig", verdicts, "page.md", {"fig": ("z",)})
    check_alt_claims("other", verdicts, "page.md", {"fig": ("x.y",)})  # no claims: nothing


def test_the_plugin_refuses_a_figure_whose_alt_claim_fails(tmp_path):
    """The build's figure line, with the real ALT_CLAIMS and a verdict that does not hold.

    The page is rendered first; its figure's claims are checked once the verdicts exist.
    """
    from mkdocs.exceptions import PluginError

    from attention_explained.figures.strings import all_alt_claims
    from attention_explained.sitebuild._internal.build import Build
    from attention_explained.sitebuild._internal.cache import AssetCache

    build = Build(AssetCache(tmp_path))
    (name,) = all_alt_claims()["logit-histograms"]
    line = "![](figures/logit-histograms.svg)"
    assert "logit-histograms.dark.svg" in build.figure_lines(line, "ko", "variance.md")
    build.verdicts = {name: {"holds": True, "statement": "s", "numbers": {}}}
    build.check_claims()
    build.verdicts = {name: {"holds": False, "statement": "s", "numbers": {}}}
    with pytest.raises(PluginError, match=r"variance\.md.*logit-histograms"):
        build.check_claims()


def test_mathtext_cache_is_shared_between_figures_and_changes_no_byte(monkeypatch):
    """Drawing a figure twice parses its math once (matplotlib keys its cache on each
    renderer's parser), and the SVG is the same as with matplotlib's own cache."""
    from matplotlib.mathtext import MathTextParser

    from attention_explained.figures import style

    shared = to_bytes(draw("temperature", "ko"), "svg")
    before = style.shared_mathtext_parse.cache_info()
    assert to_bytes(draw("temperature", "ko"), "svg") == shared
    after = style.shared_mathtext_parse.cache_info()
    assert after.misses == before.misses and after.hits > before.hits

    monkeypatch.setattr(MathTextParser, "_parse_cached", style.OWN_MATHTEXT_CACHE)
    assert to_bytes(draw("temperature", "ko"), "svg") == shared
    assert (
        style.shared_mathtext_parse.cache_info() == after
    )  # really drawn without the shared cache


# Left, right, middle, top and bottom name a panel by where the wide layout puts it; on a phone
# the panels of a NARROW figure stack one above another, so such a word points at the wrong one.
PLACE_WORDS = re.compile(
    r"왼쪽|오른쪽|가운데|위 줄|아래 줄|\((?:left|right|middle|top|bottom)\)"
    r"|\b(?:left|right|middle)(?: panel|:| and middle)|on the (?:left|right)\b(?! item)",
    re.I,
)
CAPTIONED = re.compile(
    r"^[ \t]*!\[[^\]]*\]\(figures/([a-z0-9-]+)\.svg\)\s*\n\s*\n[ \t]*(\*.+)$", re.M
)
DOCS = Path(__file__).resolve().parents[1] / "docs"


def _stacks_on_a_phone(figure_id: str) -> bool:
    return "narrow" in layouts(figure_id)


def test_no_caption_or_alt_text_names_a_panel_by_its_place_in_the_wide_layout():
    problems = []
    for page in sorted(DOCS.glob("*.md")):
        for figure_id, caption in CAPTIONED.findall(page.read_text(encoding="utf-8")):
            if _stacks_on_a_phone(figure_id) and PLACE_WORDS.search(caption):
                problems.append(f"{page.name}: {figure_id}: {PLACE_WORDS.search(caption)[0]!r}")
    for figure_id in FIGURE_IDS:
        for lang in LANGS:
            found = _stacks_on_a_phone(figure_id) and PLACE_WORDS.search(alt_text(figure_id, lang))
            if found:
                problems.append(f"{figure_id} alt ({lang}): {found[0]!r}")
    assert not problems, "\n".join(problems)


def test_the_place_check_reads_captions_and_stacked_figures():
    page = "![](figures/softmax-gradient.svg)\n\n*$J$ (왼쪽)와 기울기(오른쪽)*\n"
    assert [m[0] for m in CAPTIONED.findall(page)] == ["softmax-gradient"]
    assert PLACE_WORDS.search(CAPTIONED.findall(page)[0][1])
    assert _stacks_on_a_phone("softmax-gradient")
    assert PLACE_WORDS.search("Left and middle: the std")
    assert PLACE_WORDS.search("a low rate on the left")
    assert not PLACE_WORDS.search("the right item, the rightmost bin, a bright cell")
