"""The browser tests' page pool (browser_support.PagePool): a page handed out again is in a
new page's state, and a page whose state the pool cannot undo is never handed out again.

Each test takes pages from a pool of its own (not the module's), so what it leaves behind
reaches no other test.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from browser_support import (
    TIMEOUT_MS,
    VIEWPORT,
    PagePool,
    PrefixHandler,
    Server,
    open_ready,
    site_prefix,
)

from attention_explained.edition.browser import serve

pytestmark = [pytest.mark.browser, pytest.mark.site]

PAGE = "gradients/"
OPTIONS = {"viewport": VIEWPORT}
# Material's stylesheet, on every page
STYLESHEET = "() => performance.getEntriesByType('resource').filter(e => e.name.includes('/main.'))"


class Cacheable(PrefixHandler):
    """Every file may be kept an hour: a browser with an HTTP cache takes it from there."""

    def end_headers(self):
        self.send_header("Cache-Control", "max-age=3600")
        super().end_headers()


@pytest.fixture(scope="module")
def server(built_site):
    """The built site, every file cacheable (``Cacheable``), so that a file fetched again
    shows there was no cache, not that the cached copy had gone stale."""
    with serve(built_site.root, site_prefix(), handler=Cacheable) as base:
        origin = base[: -len(site_prefix())]
        yield Server(origin, site_prefix())


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
        """() => new Promise(done => {
             localStorage.setItem('ae-test', '1'); sessionStorage.setItem('ae-test', '1');
             document.cookie = 'ae-test=1; path=/';
             indexedDB.open('ae-test').onsuccess = event => { event.target.result.close(); done() }
           })"""
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
        """async () => ({local: localStorage.getItem('ae-test'),
                   databases: (await indexedDB.databases()).map(d => d.name),
                   session: sessionStorage.getItem('ae-test'),
                   cookie: document.cookie, print: matchMedia('print').matches,
                   dark: matchMedia('(prefers-color-scheme: dark)').matches,
                   width: innerWidth,
                   extra: performance.getEntriesByType('resource')
                       .some(e => e.name.endsWith('/extra.css') && e.responseStatus === 200)})"""
    )
    assert state == {
        "local": None,
        "databases": [],
        "session": None,
        "cookie": "",
        "print": False,
        "dark": False,
        "width": VIEWPORT["width"],
        "extra": True,  # False: the route the first test added still blocks it
    }
    page.go_back()
    assert "saturation" not in page.url, "history reached the first test's page"
    assert fetched(page), "the stylesheet came from the first test's HTTP cache"


def test_the_byte_count_sees_the_http_cache_of_a_context_without_a_route(browser, server):
    """What makes the no-cache checks above mean something: without a route, the second page
    takes Material's stylesheet from the cache, and ``fetched`` says so."""
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


def test_what_a_test_set_on_its_context_is_gone_for_the_next(pool, server):
    """Offline mode, extra headers, permissions and geolocation are reset: the next test sees
    what a new context sees."""

    def seen(page) -> dict:
        open_ready(page, server.url(PAGE))
        return page.evaluate(
            """async () => ({online: navigator.onLine,
               clipboard: (await navigator.permissions.query({name: 'clipboard-read'})).state,
               geolocation: (await navigator.permissions.query({name: 'geolocation'})).state})"""
        )

    fresh = take(pool, fresh=True)
    new = seen(fresh.page)
    pool.give_back(fresh)
    first = take(pool)
    first.context.grant_permissions(["clipboard-read", "geolocation"])
    first.context.set_geolocation({"latitude": 37.5, "longitude": 127.0})
    first.context.set_extra_http_headers({"x-ae-test": "1"})
    first.page.set_extra_http_headers({"x-ae-test-page": "1"})
    first.context.set_offline(True)
    pool.give_back(first)
    second = take(pool)
    assert second.page is first.page
    headers: list[dict] = []
    second.page.route(
        "**/gradients/", lambda route: (headers.append(route.request.headers), route.continue_())
    )
    assert seen(second.page) == new
    assert headers and not any(name.startswith("x-ae-test") for name in headers[0])


@pytest.mark.parametrize("left", ["listener", "binding", "popup"])
def test_a_page_left_with_what_a_reset_cannot_undo_is_closed_not_handed_out(pool, server, left):
    first = take(pool)
    open_ready(first.page, server.url(PAGE))
    if left == "listener":
        first.context.on("request", lambda request: None)
    elif left == "binding":
        first.page.expose_function("aeTest", lambda: 1)
    else:
        with first.context.expect_page():
            first.page.evaluate(f"() => {{ window.open({server.url(PAGE)!r}) }}")
    pool.give_back(first)
    assert first.page.is_closed()
    assert take(pool).page is not first.page


def test_a_test_file_that_adds_an_init_script_asks_for_a_fresh_page():
    """Init scripts stay with a page and cannot be seen from the client: the pool would hand
    such a page out again, so a test that adds one must ask for fresh=True."""
    for path in Path(__file__).parent.glob("test_*.py"):
        text = path.read_text(encoding="utf-8")
        if path.name != Path(__file__).name and "add_init_script(" in text:
            assert "fresh=True" in text, f"{path.name} adds an init script to a pooled page"


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
