"""The site on a phone: a 375 px wide touch screen (Chromium's mobile emulation).

No page scrolls sideways; wide math and tables scroll inside their own box, which the
keyboard can reach and which has a name; axe-core finds nothing serious at this width either;
and the Explorer works by touch (taps and drags on its sliders, dispatched as touch events).
Served and guarded like tests/test_browser.py: requests leaving 127.0.0.1 are blocked.
"""

from __future__ import annotations

import pytest
from browser_support import (
    ALL_PAGES,
    Session,
    blocking_violations,
    explorer_state,
    localized,
    open_ready,
    screenshot,
    wait_for_explorer,
)
from site_build import LANGS

pytestmark = [pytest.mark.browser, pytest.mark.site]

PHONE = {"width": 375, "height": 800}


@pytest.fixture
def phone_session(open_session):
    """Factory: a touch-screen, mobile-emulating context 375 px wide, closed after the test."""

    def open_(color_scheme: str = "light") -> Session:
        return open_session(
            color_scheme,
            console=False,
            viewport=PHONE,
            device_scale_factor=2,
            is_mobile=True,
            has_touch=True,
        )

    return open_


def open_phone_page(server, phone_session, path: str):
    session = phone_session()
    page = session.page
    open_ready(page, server.url(path))
    return session, page


WIDER_THAN_SCREEN = """() => { const W = document.documentElement.clientWidth;
    const free = e => { for (let a = e.parentElement; a && a !== document.body; a = a.parentElement)
        if (getComputedStyle(a).overflowX !== 'visible') return false; return true; };
    return [...document.querySelectorAll('body *')]
        .filter(e => e.getBoundingClientRect().right > W + 1 && free(e))
        .slice(0, 5).map(e => e.tagName.toLowerCase() + '.' + String(e.className).split(' ')[0]
            + ' ' + (e.textContent || '').trim().slice(0, 50)); }"""

UNREACHABLE_SCROLL_BOXES = """() => [...document.querySelectorAll('.md-content *')]
    .filter(e => ['auto', 'scroll'].includes(getComputedStyle(e).overflowX)
        && e.scrollWidth > e.clientWidth + 1 && e.getClientRects().length)
    .filter(e => !(e.tabIndex >= 0 && (e.getAttribute('aria-label') || '').trim()))
    .map(e => e.tagName.toLowerCase() + '.' + String(e.className).split(' ')[0]
        + ' ' + (e.textContent || '').trim().slice(0, 50))"""


@pytest.mark.parametrize(("lang", "path"), ALL_PAGES, ids=[f"{lg}:/{p}" for lg, p in ALL_PAGES])
def test_no_page_scrolls_sideways_at_375px(server, phone_session, axe, lang, path):
    session, page = open_phone_page(server, phone_session, path)
    widths = page.evaluate(
        "() => [document.scrollingElement.scrollWidth, document.scrollingElement.clientWidth]"
    )
    problems = []
    if widths[0] > widths[1]:
        wide = page.evaluate(WIDER_THAN_SCREEN)
        problems.append(f"the page scrolls sideways: {widths[0]} px > {widths[1]} px: {wide}")
    unreachable = page.evaluate(UNREACHABLE_SCROLL_BOXES)
    if unreachable:
        problems.append(f"sideways scroll boxes without tabindex and a label: {unreachable}")
    problems += blocking_violations(axe, page)
    problems += [f"blocked request off 127.0.0.1: {url}" for url in session.blocked]
    problems += session.errors
    assert not problems, f"/{path} at 375 px ({lang}):\n" + "\n".join(problems)


@pytest.mark.parametrize("lang", LANGS)
def test_the_home_formula_fits_a_narrow_window_without_scrolling(server, open_session, lang):
    """The formula under the answer is whole in a 390 px window, set in its math font (in some
    loads it was 391.3 px wide and its last "V" touched the edge, readers 23-29; extra.css sets
    display math 4 % smaller in narrow windows, and this fails when the formula grows). Only
    with the served font: the fallback before it arrives is the system's own math font, which
    differs from machine to machine."""
    session = open_session(console=False, viewport={"width": 390, "height": 900})
    page = session.page
    page.goto(server.url(localized("", lang)), wait_until="load")
    # wait for the math font itself: fonts.ready alone may come before its load starts
    family = page.evaluate(
        "() => getComputedStyle(document.querySelector('div.arithmatex > math'))"
        ".fontFamily.split(',')[0]"
    )
    load = f"() => document.fonts.load('16px {family}').then(faces => faces.length)"
    assert page.evaluate(load), f"{lang}: the math font {family} did not load"
    # the formula's rightmost glyph against its box's right edge, unrounded (it was 1.3 px
    # over, which scrollWidth may round away)
    right, edge = page.evaluate(
        """() => { const d = document.querySelector('.md-typeset div.arithmatex');
            const r = [...d.querySelectorAll('math *')]
                .map(e => e.getBoundingClientRect().right);
            return [Math.max(...r), d.getBoundingClientRect().right]; }"""
    )
    assert right <= edge, f"{lang}: {right} > {edge}"


# (page, selector of the box, what is in it): content that is wider than a phone on purpose.
WIDE_CONTENT = [
    ("multi-head/", ".md-typeset div.arithmatex", "display math"),  # MultiHead(Q, K, V) = …
    ("training/", ".md-typeset .md-typeset__scrollwrap", "table"),
]


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize(("page_path", "selector", "what"), WIDE_CONTENT)
def test_wide_math_and_tables_scroll_in_their_own_box(
    server, phone_session, lang, page_path, selector, what
):
    path = localized(page_path, lang)
    session, page = open_phone_page(server, phone_session, path)
    boxes = page.locator(f"{selector}[tabindex='0']")
    assert boxes.count() >= 1, f"/{path}: no {what} scrolls in its own focusable box at 375 px"
    box = boxes.first
    # a table may sit in a fold (details, method and seeds): the reader opens it first
    box.evaluate(
        "e => { for (let d = e.closest('details'); d; d = d.parentElement.closest('details'))"
        " d.open = true }"
    )
    label = box.get_attribute("aria-label") or ""
    assert label and (("옆으로" in label) if lang == "ko" else ("sideways" in label)), label
    assert box.evaluate("e => e.scrollWidth > e.clientWidth"), f"the {what} box does not scroll"
    # Reached with the keyboard, it scrolls with the arrow keys.
    box.focus()
    assert page.evaluate("() => document.activeElement.getAttribute('aria-label')") == label
    for _ in range(5):
        page.keyboard.press("ArrowRight")
    page.wait_for_function(
        "([s, l]) => [...document.querySelectorAll(s)].find(e => e.getAttribute('aria-label')"
        " === l && e === document.activeElement).scrollLeft > 0",
        arg=[selector, label],
    )
    assert page.evaluate("() => document.scrollingElement.scrollLeft") == 0
    screenshot(page, lang, f"phone-{page_path.strip('/')}")
    session.assert_clean()


def drag(session, page, x0: float, x1: float, y: float, steps: int = 12):
    """A one-finger horizontal drag, as touch events (Playwright's touchscreen only taps)."""
    cdp = session.context.new_cdp_session(page)
    cdp.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [{"x": x0, "y": y}]})
    for i in range(1, steps + 1):
        x = x0 + (x1 - x0) * i / steps
        cdp.send(
            "Input.dispatchTouchEvent", {"type": "touchMove", "touchPoints": [{"x": x, "y": y}]}
        )
    cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
    cdp.detach()


@pytest.mark.parametrize("lang", LANGS)
def test_explorer_works_by_touch(server, phone_session, lang):
    session, page = open_phone_page(server, phone_session, localized("explorer/", lang))
    wait_for_explorer(page)
    slider = page.locator("#ae-explorer-dim")
    slider.scroll_into_view_if_needed()
    box = slider.bounding_box()
    y = box["y"] + box["height"] / 2
    start = explorer_state(page)
    shown = page.locator('[data-stat="max_weight"]')
    before = shown.inner_text()

    # A tap near the right end of the d slider jumps to a large d: the weights saturate.
    page.touchscreen.tap(box["x"] + box["width"] * 0.92, y)
    tapped = explorer_state(page)
    assert tapped["dim"] > 1000, (start["dim"], tapped["dim"])
    assert shown.inner_text() != before
    assert page.locator("label[for='ae-explorer-dim'] output").inner_text() == str(tapped["dim"])
    saturated = float(shown.inner_text())

    # A drag to the left brings d back down, update by update.
    drag(session, page, box["x"] + box["width"] * 0.92, box["x"] + box["width"] * 0.1, y)
    page.wait_for_function(f"() => aeExplorer.state.dim < {tapped['dim']}")
    dragged = explorer_state(page)
    assert dragged["dim"] < 8, dragged["dim"]
    assert dragged["updates"] >= tapped["updates"] + 3, "the drag did not move the slider live"
    assert float(shown.inner_text()) < saturated

    # The n slider and a scale radio, by touch too.
    length = page.locator("#ae-explorer-length").bounding_box()
    drag(
        session,
        page,
        length["x"] + length["width"] * 0.9,
        length["x"] + length["width"] * 0.3,
        length["y"] + length["height"] / 2,
    )
    page.wait_for_function(f"() => aeExplorer.state.length < {dragged['length']}")
    page.locator("label[for='ae-explorer-scale-sqrt']").tap()
    assert explorer_state(page)["scale"] == "sqrt"
    page.locator("#ae-explorer-new-sample").tap()
    assert explorer_state(page)["seed"] == dragged["seed"] + 1
    assert page.evaluate("() => document.scrollingElement.scrollLeft") == 0
    assert page.evaluate(
        "() => document.scrollingElement.scrollWidth <= document.scrollingElement.clientWidth"
    )
    page.evaluate("() => document.querySelector('#ae-explorer').scrollIntoView()")
    screenshot(page, lang, "phone-explorer-touch")
    session.assert_clean()


@pytest.mark.parametrize("lang", LANGS)
def test_the_pencil_table_fits_a_phone(server, phone_session, lang):
    """The home page's pencil table is what a reader checks by hand: on a phone it is whole on
    the screen, not behind a sideways scroll (Material's 5rem minimum per column and 1.25em
    padding pushed it 44 px wider than 390 px; extra.css narrows both on phones)."""
    session, page = open_phone_page(server, phone_session, localized("", lang))
    wrap = page.locator("#pencil-example ~ .md-typeset__scrollwrap").first
    wrap.scroll_into_view_if_needed()
    widths = wrap.evaluate("e => [e.scrollWidth, e.clientWidth, e.querySelectorAll('th').length]")
    assert widths[2] == 4, f"not the pencil table: {widths}"
    assert widths[0] <= widths[1], f"the pencil table scrolls sideways at 375 px: {widths}"
    session.assert_clean()


@pytest.mark.parametrize("lang", LANGS)
def test_korean_figure_captions_stand_upright(server, phone_session, lang):
    """Hangul has no italic: a Korean caption under a figure is upright (the browser slanted
    it), an English one stays italic (extra.css); also a caption in two parts around a claim
    marker (saturation's curves)."""
    for path in ("gradients/", "saturation/"):
        session, page = open_phone_page(server, phone_session, localized(path, lang))
        styles = page.evaluate(
            """() => [...document.querySelectorAll('.md-typeset p:has(> picture) + p > em')]
                .map(e => getComputedStyle(e).fontStyle)"""
        )
        assert len(styles) >= 2, (path, styles)
        assert set(styles) == {"normal" if lang == "ko" else "italic"}, (path, styles)
        session.assert_clean()
