"""The browser tests' page pool (browser_support.PagePool): a page handed out again is in a
new page's state, and a page whose state the pool cannot undo is never handed out again.

Each test takes pages from a pool of its own (not the module's), so what it leaves behind
reaches no other test.
"""

from __future__ import annotations

import pytest
from browser_support import TIMEOUT_MS, VIEWPORT, PagePool, open_ready

pytestmark = [pytest.mark.browser, pytest.mark.site]

PAGE = "gradients/"
OPTIONS = {"viewport": VIEWPORT}
# Material's stylesheet, on every page
STYLESHEET = "() => performance.getEntriesByType('resource').filter(e => e.name.includes('/main.'))"


@pytest.fixture
def pool(browser):
    pool = PagePool(browser, TIMEOUT_MS)
    yield pool
    pool.close()


def take(pool: PagePool, **kwargs):
    return pool.take("light", True, kwargs.pop("fresh", False), {**OPTIONS, **kwargs})


def fetched(page) -> bool:
    """Whether Material's stylesheet came whole over the network: its transfer holds its
    body (from the HTTP cache it is 0 bytes; revalidated, a 304's headers)."""
    return page.evaluate(f"() => ({STYLESHEET})().every(e => e.transferSize > e.encodedBodySize)")


def test_a_page_handed_out_again_keeps_nothing_of_the_test_before(pool, server):
    first = take(pool)
    page = first.page
    open_ready(page, server.url(PAGE))
    page.evaluate(
        """() => { localStorage.setItem('ae-test', '1'); sessionStorage.setItem('ae-test', '1');
                   document.cookie = 'ae-test=1; path=/' }"""
    )
    # No HTTP cache, even within a session (our route turns it off): nothing to clear
    open_ready(page, server.url("saturation/"))
    assert fetched(page), "the stylesheet came from the HTTP cache"
    page.route("**/extra.css", lambda route: route.abort())
    page.emulate_media(media="print", color_scheme="dark")
    page.set_viewport_size({"width": 400, "height": 300})
    page.evaluate("() => console.error('from the first test')")
    pool.give_back(first)

    second = take(pool)
    assert second.page is page, "the pool opened a new page: nothing was reused"
    assert second.errors == [] and second.blocked == []
    open_ready(page, server.url(PAGE))
    state = page.evaluate(
        """() => ({local: localStorage.getItem('ae-test'),
                   session: sessionStorage.getItem('ae-test'),
                   cookie: document.cookie, print: matchMedia('print').matches,
                   dark: matchMedia('(prefers-color-scheme: dark)').matches,
                   width: innerWidth,
                   extra: performance.getEntriesByType('resource')
                       .some(e => e.name.endsWith('/extra.css') && e.responseStatus === 200)})"""
    )
    assert state == {
        "local": None,
        "session": None,
        "cookie": "",
        "print": False,
        "dark": False,
        "width": VIEWPORT["width"],
        "extra": True,  # False: the route the first test added still blocks it
    }
    assert fetched(page), "the stylesheet came from the first test's HTTP cache"


def test_the_byte_count_sees_the_http_cache_of_a_context_without_a_route(browser, server):
    """What makes the no-cache checks above mean something: without a route, the second page
    takes its stylesheets from the cache, and ``fetched`` says so."""
    context = browser.new_context(service_workers="block")
    try:
        page = context.new_page()
        open_ready(page, server.url(PAGE))
        assert fetched(page)
        open_ready(page, server.url("saturation/"))
        assert not fetched(page)
    finally:
        context.close()


def test_the_session_handed_out_again_still_blocks_and_records_requests_off_the_machine(
    pool, server
):
    first = take(pool)
    open_ready(first.page, server.url(PAGE))
    pool.give_back(first)
    second = take(pool)
    assert second.page is first.page
    open_ready(second.page, server.url(PAGE))
    second.page.evaluate("() => fetch('https://example.invalid/x').catch(() => null)")
    second.page.evaluate("() => setTimeout(() => { throw new Error('ae-test') })")
    second.page.wait_for_function("() => new Promise(done => setTimeout(() => done(true)))")
    assert second.blocked == ["https://example.invalid/x"]
    assert any("ae-test" in error for error in second.errors), second.errors
    assert first.blocked == [] and first.errors == [], "the first session got the second's"


def test_a_page_with_a_listener_of_its_test_is_closed_not_handed_out(pool, server):
    first = take(pool)
    first.context.on("request", lambda request: None)
    pool.give_back(first)
    assert first.page.is_closed()
    assert take(pool).page is not first.page


@pytest.mark.parametrize("closed", ["page", "fresh"])
def test_a_closed_or_fresh_page_is_never_handed_out(pool, closed):
    first = take(pool, fresh=closed == "fresh")
    if closed == "page":
        first.page.close()
    pool.give_back(first)
    assert first.page.is_closed()
    assert take(pool).page is not first.page


def test_pages_of_other_options_are_not_mixed(pool):
    wide = take(pool)
    pool.give_back(wide)
    narrow = take(pool, viewport={"width": 390, "height": 844})
    assert narrow.page is not wide.page
    assert narrow.page.viewport_size == {"width": 390, "height": 844}
