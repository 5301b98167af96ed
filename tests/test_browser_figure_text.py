"""Every figure's smallest text, as Chromium shows it: at least 9 CSS px on a 390 px phone
and on a 1280 px screen, in both languages and both themes.

The figures' text is drawn as paths, so the browser cannot tell its size. Each SVG records its
smallest font size on its root when the package draws it (``data-smallest-text-pt``, see
``figures.style.to_bytes``); on screen that text is that size × the width the ``<img>`` is
shown at / the SVG's own width (pt). The test loads every figure the page shows in its theme
(lazy images are made eager, so the ones below the fold load too), reads the variant the
browser chose (``currentSrc``: a ``<picture>`` serves the narrow one on phones) and computes it,
then switches the page to the other theme with the header's toggle and does the same.
"""

from __future__ import annotations

import pytest
from browser_support import ALL_PAGES, SCHEMES, press_palette_toggle, scheme, wait_for_math
from site_build import LANGS, localized

pytestmark = [pytest.mark.browser, pytest.mark.site]

MIN_PX = 9.0
SCREENS = {"phone": {"width": 390, "height": 844}, "desktop": {"width": 1280, "height": 900}}

# Every figure the reader sees in the page's theme, loaded, with its shown width and the
# numbers its SVG records.
MEASURE = """async () => {
    const shown = [...document.querySelectorAll('.md-content img')]
        .filter(img => /\\/figures\\//.test(img.getAttribute('src') || ''))
        .filter(img => getComputedStyle(img).display !== 'none');
    for (const img of shown) img.loading = 'eager';
    await Promise.all(shown.map(img => img.decode().catch(() => null)));
    return Promise.all(shown.map(async img => {
        const svg = await (await fetch(img.currentSrc)).text();
        const root = (svg.match(/<svg\\b[^>]*>/) || [''])[0];
        const attr = name => (root.match(new RegExp(name + '="([0-9.]+)(pt)?"')) || [])[1];
        return {src: img.currentSrc, shown: img.getBoundingClientRect().width,
                width_pt: parseFloat(attr('width')),
                smallest_pt: parseFloat(attr('data-smallest-text-pt'))};
    }));
}"""


def smallest_text_problems(figures: list[dict], where: str) -> list[str]:
    """Each figure whose smallest text is under ``MIN_PX`` on screen, or that says nothing."""
    problems = []
    for fig in figures:
        name = fig["src"].rsplit("/", 1)[-1]
        if not fig["smallest_pt"] or not fig["width_pt"] or not fig["shown"]:
            problems.append(f"{where} {name}: not shown, or no smallest text recorded ({fig})")
            continue
        px = fig["smallest_pt"] * fig["shown"] / fig["width_pt"]
        if px < MIN_PX:
            problems.append(
                f"{where} {name}: smallest text {px:.2f} CSS px < {MIN_PX} ({fig['smallest_pt']}"
                f" pt in {fig['width_pt']} pt shown {fig['shown']:.0f} px wide)"
            )
    return problems


def test_a_figure_below_the_rule_is_named():
    """The check itself: 8.5 pt text in a 345.6 pt SVG shown 358 px wide is 8.8 px."""
    small = {"src": "/figures/x.narrow.svg", "shown": 358, "width_pt": 345.6, "smallest_pt": 8.5}
    assert smallest_text_problems([small], "ko:/x/") == [
        "ko:/x/ x.narrow.svg: smallest text 8.80 CSS px < 9.0"
        " (8.5 pt in 345.6 pt shown 358 px wide)"
    ]
    assert smallest_text_problems([{**small, "smallest_pt": 9.0}], "") == []


THEME_OF = {scheme: theme for theme, scheme in SCHEMES.items()}


@pytest.mark.parametrize("screen", SCREENS)
@pytest.mark.parametrize("lang", LANGS)
def test_every_figure_text_is_at_least_9_css_px(server, open_session, lang, screen):
    session = open_session("light", viewport=SCREENS[screen], console=False)
    page, problems = session.page, []
    measured = dict.fromkeys(SCHEMES, 0)
    for page_lang, path in ALL_PAGES:
        if page_lang != lang:
            continue
        response = page.goto(server.url(path), wait_until="load")
        assert response is not None and response.ok, f"{path}: HTTP {response and response.status}"
        wait_for_math(page)
        # the page opens in the theme the last one was left in (Material keeps the choice)
        first = THEME_OF[scheme(page)]
        for theme in (first, next(t for t in SCHEMES if t != first)):
            if theme != first:
                press_palette_toggle(page, theme)
            figures = page.evaluate(MEASURE)
            measured[theme] += len(figures)
            problems += smallest_text_problems(figures, f"{lang}:/{path} ({theme}, {screen})")
    assert min(measured.values()) >= 15, f"figures measured per theme: {measured}"
    assert not problems, "\n".join(problems)


def test_the_heatmap_notebook_plot_has_no_background(built_site):
    """The notebook's plot is a PNG in the page: with an opaque white background it was a
    white box on the dark theme. Its corners must be transparent."""
    import base64
    import io
    import re

    from PIL import Image

    for lang in LANGS:
        page = built_site.root / localized("notebooks/heatmaps/", lang) / "index.html"
        pngs = re.findall(r'src="data:image/png;base64,([^"]+)"', page.read_text("utf-8"))
        assert pngs, f"{page}: no plot"
        for data in pngs:
            image = Image.open(io.BytesIO(base64.b64decode(data))).convert("RGBA")
            w, h = image.size
            corners = [image.getpixel(xy)[3] for xy in ((0, 0), (w - 1, 0), (0, h - 1))]
            assert corners == [0, 0, 0], f"{page}: an opaque background ({corners})"
