"""The built site in a real Chromium: every page in both languages (rendered cleanly, and
axe-core in both themes), the language switcher, the light/dark figures, search and the
notebook downloads.

Math is MathML made at build time (sitebuild/_internal/math.py): no page may show
raw TeX, a backslash inside math, an untypeset formula or display math wider than its column.
The site is served from its strict build under the same path prefix as `site_url`, and every
request that leaves 127.0.0.1 is blocked and recorded: a page that needs the network fails.
Screenshots go to test-artifacts/screenshots/<lang>/ (git-ignored).
"""

from __future__ import annotations

import contextlib
from urllib.parse import urljoin, urlsplit

import nbformat
import pytest
from browser_support import (
    ALL_PAGES,
    HANGUL,
    RAW_INLINE_MATH,
    RAW_TEX,
    SCHEMES,
    PlaywrightError,
    blocking_violations,
    localized,
    open_ready,
    press_palette_toggle,
    scheme,
    screenshot,
    wait_for_explorer,
)
from site_build import DOCS, LANGS, unlocalized

pytestmark = [pytest.mark.browser, pytest.mark.site]


def load_all_images(page) -> list[dict]:
    """Make every <img> eager (hidden theme variants are lazy), wait, and describe them all."""
    page.evaluate("() => document.querySelectorAll('img').forEach(i => { i.loading = 'eager'; })")
    with contextlib.suppress(PlaywrightError):  # reported below, image by image
        page.wait_for_function("() => [...document.images].every(i => i.complete)")
    return page.evaluate(
        """() => [...document.images].map(i => ({
            src: i.getAttribute('src'), current: i.currentSrc, complete: i.complete,
            width: i.naturalWidth, displayed: i.offsetParent !== null,
        }))"""
    )


def visible_text_without_code(page) -> str:
    """The page's visible text, with code blocks hidden (code may legitimately show TeX)."""
    return page.evaluate(
        """() => {
            const style = document.createElement('style');
            style.textContent = 'pre, code, .highlight { display: none !important; }';
            document.head.appendChild(style);
            const text = document.body.innerText;
            style.remove();
            return text;
        }"""
    )


def screenshot_name(path: str, lang: str) -> str:
    """ "en/notebooks/heatmaps/" -> "notebooks-heatmaps"; a language's home -> "index"."""
    page = unlocalized(path, lang)
    return page.strip("/").replace("/", "-") or "index"


# --------------------------------------------------------------------------- tests


def test_every_built_page_is_checked(built_site):
    """The per-page test below is parametrized from docs/; it must cover every built page."""
    built = {p.relative_to(built_site.root).parent.as_posix() for p in built_site.pages()}
    built = {"" if page == "." else page + "/" for page in built}
    assert built == {page for _, page in ALL_PAGES}


@pytest.mark.parametrize(("lang", "path"), ALL_PAGES, ids=[f"{lg}:/{p}" for lg, p in ALL_PAGES])
def test_page_renders_cleanly_and_axe_finds_nothing_serious_in_either_theme(
    built_site, server, open_session, axe, lang, path
):
    """Every page as a reader's light system opens it: rendered cleanly (below), then axe-core
    in the light theme and, after the header's toggle, in the dark one. One opening serves
    both (a page opened again cost about a second for the same DOM): a failure names what
    failed, and the axe lines name the theme.

    axe-core comes from the `axe-playwright-python` wheel (it ships axe.min.js), so it runs
    offline. Every rule axe has runs, none is disabled and no element is excluded: a serious
    or critical violation fails, naming the rule, its impact and the elements. The light
    theme is the one a reader's system chooses (`prefers-color-scheme`, which Material's
    palette follows), the dark one is reached with the header's toggle, as a reader does:
    both ways give <body> the same scheme, and no stylesheet of ours reads
    `prefers-color-scheme` itself."""
    assert (built_site.root / path / "index.html").is_file(), f"{path} was not built"
    session = open_session()
    page = session.page
    # a quiet network: a late request off 127.0.0.1 is seen too; a11y.js's pass over the
    # scroll boxes (a box it has not marked focusable yet is an axe violation)
    open_ready(page, server.url(path), wait_until="networkidle")
    if page.locator("#ae-explorer").count():  # axe reads the Explorer's first drawing
        wait_for_explorer(page)
    images = load_all_images(page)
    screenshot(
        page, lang, screenshot_name(path, lang)
    )  # before any assertion: it shows what failed

    problems = []
    if page.evaluate("() => document.documentElement.lang") != lang:
        problems.append(f"<html lang> is not {lang!r}")
    untypeset = page.evaluate(
        """() => [...document.querySelectorAll('.arithmatex')]
            .filter(e => !e.querySelector('math'))
            .map(e => e.textContent.trim().slice(0, 80))"""
    )
    if untypeset:
        problems.append(f"math left untypeset: {untypeset[:5]}")
    tex_errors = page.evaluate(
        "() => [...document.querySelectorAll('merror')].map(e => e.textContent)"
    )
    if tex_errors:
        problems.append(f"TeX errors in the MathML: {tex_errors[:5]}")
    # A backslash drawn inside math is a macro left as text (e.g. \_ in \texttt).
    stray = page.evaluate(
        """() => [...document.querySelectorAll('math')]
            .map(e => e.textContent).filter(t => t.includes(String.fromCharCode(92))).slice(0, 5)"""
    )
    if stray:
        problems.append(f"backslashes drawn inside typeset math: {stray}")
    # Math must be drawn with the served math font, not a fallback.
    if page.evaluate("() => document.querySelector('math') !== null") and not page.evaluate(
        """() => [...document.fonts]
            .some(f => f.family.includes('Math') && f.status === 'loaded')"""
    ):
        problems.append("the math font did not load")
    # Display math wider than the text column is cut off for the reader.
    wide = page.evaluate(
        """() => [...document.querySelectorAll('div.arithmatex')]
            .filter(e => e.scrollWidth > e.clientWidth + 2)
            .map(e => e.textContent.trim().slice(0, 60))"""
    )
    if wide:
        problems.append(f"display math wider than the column: {wide}")
    text = visible_text_without_code(page)
    raw = [token for token in RAW_TEX if token in text] + RAW_INLINE_MATH.findall(text)[:5]
    if raw:
        problems.append(f"raw TeX visible in the page text: {raw}")

    broken = [img["src"][:100] for img in images if not (img["complete"] and img["width"] > 0)]
    if broken:
        problems.append(f"images that did not load: {broken}")
    figures = [img for img in images if "/figures/" in img["current"]]
    shown = [img["src"] for img in figures if img["displayed"]]
    # Light scheme: each figure's light variant is displayed, its dark variant hidden.
    dark = [src for src in shown if ".dark.svg" in src]
    if dark:
        problems.append(f"dark figure variants displayed in the light scheme: {dark}")
    if len(shown) * 2 != len(figures):
        problems.append(f"displayed figures {shown} of {[img['src'] for img in figures]}")

    # axe-core: every rule, nothing excluded; a serious or critical violation fails
    assert scheme(page) == SCHEMES["light"], f"{path}: not in the light theme"
    problems += [f"axe, light theme: {line}" for line in blocking_violations(axe, page)]
    press_palette_toggle(page, "dark")
    problems += [f"axe, dark theme: {line}" for line in blocking_violations(axe, page)]

    problems += [f"blocked request off 127.0.0.1: {url}" for url in session.blocked]
    problems += session.errors
    assert not problems, f"/{path} ({lang}):\n" + "\n".join(problems)


def open_language_menu(page):
    page.hover(".md-select")


@pytest.mark.parametrize("target", ["saturation/", "notebooks/heatmaps/"])
def test_language_switcher_keeps_the_page(server, open_session, target):
    session = open_session()
    page = session.page
    open_ready(page, server.url(target))
    assert page.evaluate("() => document.documentElement.lang") == "ko"

    open_language_menu(page)
    with page.expect_navigation():
        page.click('a.md-select__link[hreflang="en"]')
    assert server.page_of(page.url) == f"en/{target}"
    assert page.evaluate("() => document.documentElement.lang") == "en"

    open_language_menu(page)
    with page.expect_navigation():
        page.click('a.md-select__link[hreflang="ko"]')
    assert server.page_of(page.url) == target
    assert page.evaluate("() => document.documentElement.lang") == "ko"
    page.wait_for_load_state("load")
    session.assert_clean()


SHOWN_FIGURES = """() => [...document.querySelectorAll('article img[src*="figures/"]')]
    .filter(i => i.offsetParent !== null && getComputedStyle(i).display !== 'none')
    .map(i => ({current: i.currentSrc, complete: i.complete, width: i.naturalWidth}))"""


def shown_hero(page) -> dict:
    shown = [
        img
        for img in page.evaluate(SHOWN_FIGURES)
        if "/saturation-heatmaps." in urlsplit(img["current"]).path
    ]
    assert len(shown) == 1, f"expected exactly one displayed saturation-heatmaps variant: {shown}"
    return shown[0]


def wait_until_loaded(page, img_path_suffix: str):
    page.wait_for_function(
        """suffix => [...document.images].some(i => i.offsetParent !== null
            && new URL(i.currentSrc || i.src).pathname.endsWith(suffix)
            && i.complete && i.naturalWidth > 0)""",
        arg=img_path_suffix,
    )


@pytest.mark.parametrize("lang", LANGS)
def test_palette_toggle_swaps_the_figure_variants(server, open_session, lang):
    session = open_session("light")
    page = session.page
    open_ready(page, server.url(localized("saturation/", lang)))
    assert scheme(page) == "default"
    # The saturation page's first figure: bring it on screen, as a reader looking at it would
    # (a lazy image off screen never loads, so it has no current source to compare).
    page.evaluate(
        """() => {
            const selector = 'article img[src*="saturation-heatmaps."]';
            const figures = [...document.querySelectorAll(selector)];
            for (const f of figures) { const d = f.closest('details'); if (d) d.open = true; }
            figures.find(i => i.offsetParent !== null).scrollIntoView({block: 'center'});
        }"""
    )
    wait_until_loaded(page, "/figures/saturation-heatmaps.svg")
    hero = shown_hero(page)
    assert urlsplit(hero["current"]).path.endswith("/figures/saturation-heatmaps.svg"), hero

    press_palette_toggle(page, "dark")
    wait_until_loaded(page, "/figures/saturation-heatmaps.dark.svg")
    hero = shown_hero(page)
    assert urlsplit(hero["current"]).path.endswith("/figures/saturation-heatmaps.dark.svg"), hero
    assert hero["complete"] and hero["width"] > 0, hero

    press_palette_toggle(page, "light")
    hero = shown_hero(page)
    assert urlsplit(hero["current"]).path.endswith("/figures/saturation-heatmaps.svg"), hero
    session.assert_clean()


@pytest.mark.parametrize("lang", LANGS)
def test_a_figure_page_in_dark_mode(server, open_session, lang):
    """A reader whose system prefers dark gets the slate scheme and the dark figures (the
    saturation page: the home page has no figure in its main text)."""
    session = open_session("dark")
    page = session.page
    open_ready(page, server.url(localized("saturation/", lang)))
    load_all_images(page)
    screenshot(page, lang, "saturation-dark")
    assert scheme(page) == "slate"
    shown = page.evaluate(SHOWN_FIGURES)
    assert shown, "no figure displayed on the saturation page"
    for img in shown:
        assert urlsplit(img["current"]).path.endswith(".dark.svg"), f"light figure in dark: {img}"
        assert img["complete"] and img["width"] > 0, f"dark figure not loaded: {img}"
    session.assert_clean()


SEARCHES = [
    # (language, term, source file the term must occur in, page it must find)
    ("ko", "포화", "saturation.md", "saturation/"),
    ("ko", "야코비안", "gradients.md", "gradients/"),
    ("en", "saturation", "saturation.en.md", "en/saturation/"),
    ("en", "Jacobian", "gradients.en.md", "en/gradients/"),
]


@pytest.mark.parametrize(("lang", "term", "source", "expected"), SEARCHES)
def test_search_finds_the_page(server, open_session, lang, term, source, expected):
    assert term.lower() in (DOCS / source).read_text(encoding="utf-8").lower(), (
        f"{term!r} no longer occurs in docs/{source}; pick another search term"
    )
    session = open_session()
    page = session.page
    open_ready(page, server.url(localized("", lang)))
    page.click("input.md-search__input")
    page.fill("input.md-search__input", term)
    # Material searches on keyup; fill() and typed Hangul only send input events.
    page.press("input.md-search__input", "End")
    expected_path = server.prefix + expected
    # Results for *this* term carry it as ?h=... (lower-cased by the search).
    try:
        page.wait_for_function(
            """([path, term]) => [...document.querySelectorAll('a.md-search-result__link')]
                .some(a => {
                    const url = new URL(a.href);
                    return url.pathname === path
                        && (url.searchParams.get('h') || '').toLowerCase() === term;
                })""",
            arg=[expected_path, term.lower()],
        )
    except PlaywrightError:
        meta = page.locator(".md-search-result__meta").inner_text()
        hrefs = page.eval_on_selector_all(
            "a.md-search-result__link", "links => links.map(a => a.href)"
        )
        pytest.fail(
            f"searching {term!r} on /{localized('', lang)} found no {expected}: {meta!r} {hrefs}"
        )
    session.assert_clean()


@pytest.mark.parametrize("lang", LANGS)
def test_notebook_page_shows_outputs_and_offers_the_notebook(server, open_session, lang):
    session = open_session()
    page = session.page
    path = localized("notebooks/heatmaps/", lang)
    open_ready(page, server.url(path))

    outputs = page.locator(".jp-OutputArea-output")
    texts = [
        outputs.nth(i).inner_text().strip()
        for i in range(outputs.count())
        if outputs.nth(i).is_visible()
    ]
    assert any(texts), f"{path}: no visible executed output with text"

    link = page.locator('a[href$=".ipynb"]').locator("visible=true")
    assert link.count() >= 1, f"{path}: no visible link to the executed .ipynb"
    href = urljoin(page.url, link.first.get_attribute("href"))
    assert server.page_of(href) == f"{path}heatmaps.ipynb", href
    response = page.request.get(href)
    assert response.ok, f"{href}: HTTP {response.status}"
    notebook = nbformat.reads(response.text(), as_version=4)
    nbformat.validate(notebook)
    # The Colab install cell (sitebuild/_internal/colab.py) is added after execution, unexecuted.
    install = [c for c in notebook.cells if "colab-install" in c.metadata.get("tags", [])]
    assert notebook.cells[0] in install and len(install) == 1, "no Colab install cell first"
    code = [c for c in notebook.cells if c.cell_type == "code" and c not in install]
    assert code and all(cell.execution_count for cell in code), "the notebook was not executed"
    assert sum(len(cell.outputs) for cell in code) >= len(code) // 2, "too few outputs"
    prose = "".join(cell.source for cell in notebook.cells if cell.cell_type == "markdown")
    title = page.locator("article h1").first.inner_text().replace("¶", "").strip()
    assert title in prose, f"the downloaded notebook is not this page's ({title!r})"
    assert bool(HANGUL.search(prose)) == (lang == "ko"), "the notebook is in the wrong language"
    session.assert_clean()


NOTEBOOK_PAGES = [
    (lang, localized(page, lang))
    for lang in LANGS
    for page in ("notebooks/heatmaps/", "notebooks/sweep-and-keras/")
]


@pytest.mark.parametrize(("lang", "path"), NOTEBOOK_PAGES, ids=[p for _, p in NOTEBOOK_PAGES])
def test_notebook_cells_use_the_articles_full_width(server, open_session, lang, path):
    """The notebook is as wide as the article, not squeezed beside the floated buttons of
    its first line, and printed output keeps each line whole (it scrolls, never wraps)."""
    session = open_session()
    page = session.page
    open_ready(page, server.url(path))
    widths = page.evaluate(
        """() => [document.querySelector('article.md-content__inner').clientWidth,
                  document.querySelector('.jp-Notebook').getBoundingClientRect().width]"""
    )
    assert widths[1] >= widths[0] - 1, f"{path}: notebook {widths[1]} px in a {widths} article"
    wrapped = page.evaluate(
        """() => [...document.querySelectorAll('.jp-OutputArea-output pre')]
            .filter(pre => pre.getClientRects().length)
            .filter(pre => {
                const lines = pre.textContent.replace(/\\n$/, '').split('\\n').length;
                const height = parseFloat(getComputedStyle(pre).lineHeight) * lines;
                return pre.scrollHeight > height + 2;
            })
            .map(pre => pre.textContent.slice(0, 60))"""
    )
    assert not wrapped, f"{path}: printed output wraps onto extra lines: {wrapped}"
    session.assert_clean()
