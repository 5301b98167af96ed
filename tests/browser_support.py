"""Helpers for the browser tests: a static server under the site prefix, a system Chromium
through Playwright, and sessions that record blocked requests and console errors.

The fixtures built on these (``server``, ``browser``, ``open_session``) live in conftest.py.
"""

from __future__ import annotations

import contextlib
import os
import re
from dataclasses import dataclass, field
from urllib.parse import unquote, urlsplit

import pytest
from site_build import LANGS, REPO, localized, source_pages

from attention_explained.edition import browser as sitebrowser
from attention_explained.edition.browser import (  # noqa: F401  (re-exported for conftest)
    PrefixHandler,
    QuietServer,
    find_chromium,
    launch,
)

try:
    from playwright.sync_api import Error as PlaywrightError
    from playwright.sync_api import sync_playwright
except ImportError:  # pragma: no cover - reported by the `browser` fixture
    sync_playwright = None
    PlaywrightError = Exception


SCREENSHOTS = REPO / "test-artifacts" / "screenshots"
TEST_ARGS = ("--disable-quic",)  # on top of edition.browser.CHROMIUM_ARGS
VIEWPORT = {"width": 1280, "height": 900}
HANGUL = re.compile(r"[\uac00-\ud7a3]")
# TeX that would only be visible if MathJax failed to typeset it.
RAW_TEX = ("$$", "\\frac", "\\sqrt{", "\\(", "\\[")
RAW_INLINE_MATH = re.compile(r"\$[^$\s][^$\n]{0,120}\$")
# Playwright's deadline for every wait: far above a busy machine's slowest page (~10 s), so
# only a hang reaches it.
TIMEOUT_MS = 120_000


# --------------------------------------------------------------------------- server


def site_prefix() -> str:
    """The path of `site_url` in the real site's mkdocs.yml."""
    return sitebrowser.site_prefix(REPO / "mkdocs.yml")


@dataclass
class Server:
    origin: str  # http://127.0.0.1:port
    prefix: str  # /attention_explained/

    def url(self, page: str) -> str:
        """URL of a site-relative page folder such as "en/saturation/"."""
        return f"{self.origin}{self.prefix}{page}"

    def page_of(self, url: str) -> str:
        """Site-relative page folder of a URL served by us (inverse of `url`)."""
        parts = urlsplit(url)
        assert f"{parts.scheme}://{parts.netloc}" == self.origin, url
        assert parts.path.startswith(self.prefix), url
        return unquote(parts.path[len(self.prefix) :])


# --------------------------------------------------------------------------- browser


def no_browser(reason: str):
    message = (
        f"{reason}. The browser tests drive a system Chromium through Playwright: "
        "install it with `sudo apt-get install chromium` (or set CHROMIUM_PATH) and "
        "`pip install playwright` (never `playwright install`)."
    )
    if os.environ.get("CI") == "true":
        pytest.fail(message, pytrace=False)
    pytest.skip(message)


@dataclass
class Session:
    """One browser context and page, with everything that went wrong in it."""

    context: object
    page: object
    blocked: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    pooled: object = field(default=None, repr=False)  # the PagePool's entry it came from

    def assert_clean(self):
        problems = [f"blocked request off 127.0.0.1: {url}" for url in self.blocked]
        problems += self.errors
        assert not problems, f"{self.page.url}:\n" + "\n".join(problems)


RESET_PATH = "/__ae_reset__"  # a blank page on a visited origin, answered by the pool's route
RESET_TIMEOUT_MS = 10_000  # each navigation of a reset: far above its ~0.1 s, below a hang's


class PagePool:
    """Pages kept open between the tests of a module, one idle page per set of context
    options, each handed out afresh.

    Opening a page costs Chromium about a CPU-second (a new renderer and everything it
    loads); navigating a page already open costs a third of that, with the same pages
    loaded. So a page goes back to the pool after its test and is made as a new one is:

    - no cookie, permission, geolocation, extra header or offline mode; the storage of every
      origin it visited cleared (local, session, IndexedDB, Cache Storage: Material keeps the
      palette there, answers.js the last answer typed), and no history to go back to;
    - no HTTP cache to clear: Playwright turns it off in a context with a route, and each
      pooled context has ours, so every file is fetched again, as in a new context;
    - the routes a test added removed (ours, which blocks requests off 127.0.0.1, put back),
      the emulated media and the viewport of its options restored.

    The test's document is left (for about:blank) before any route is touched, so what it
    still sends is blocked and recorded by nobody, as when a context closed. What a reset
    cannot undo makes the pool close the page instead (``_Pooled.reusable``): the test's own
    event listeners (``listener_counts``), exposed bindings or WebSocket routes, another page
    in the context (a popup), a closed or crashed page, a reset that fails or hangs. Init
    scripts cannot be seen from here: a test that adds one asks for ``fresh=True``
    (tests/test_browser_pool.py checks the test files for that), as does one that must see
    Chromium's own first state. Tests never share a page at once: a second session in one
    test gets a page of its own."""

    def __init__(self, browser, timeout_ms: int):
        self.browser = browser
        self.timeout_ms = timeout_ms
        self.idle: dict[str, list[_Pooled]] = {}

    def take(self, color_scheme: str, console: bool, fresh: bool, options: dict) -> Session:
        key = repr((color_scheme, sorted(options.items())))
        idle = self.idle.setdefault(key, [])
        pooled = idle.pop() if idle and not fresh else _Pooled(self, key, color_scheme, options)
        pooled.fresh = fresh
        return pooled.start(console)

    def give_back(self, session: Session) -> None:
        pooled = session.pooled
        try:
            reused = not pooled.fresh and pooled.reset()
        except Exception:  # whatever went wrong, this page is not handed out again
            reused = False
        if reused:
            self.idle[pooled.key].append(pooled)
        else:
            with contextlib.suppress(PlaywrightError):
                pooled.context.close()

    def close(self) -> None:
        for pages in self.idle.values():
            for pooled in pages:
                pooled.context.close()
        self.idle.clear()


def listener_counts(target) -> dict[str, int]:
    """The listeners on a Playwright page or context, by event (its event emitter's own
    count; Playwright is pinned in constraints.txt, and tests/test_browser_pool.py checks
    that a listener a test adds is seen)."""
    emitter = target._impl_obj
    return {name: emitter.listener_count(name) for name in emitter.event_names()}


class _Pooled:
    """One pooled context and its page, its listeners reporting to the current session."""

    def __init__(self, pool: PagePool, key: str, color_scheme: str, options: dict):
        self.key, self.color_scheme, self.options = key, color_scheme, options
        self.session: Session | None = None
        self.console = True
        self.fresh = False
        self.origins: set[str] = set()
        self.context = pool.browser.new_context(
            color_scheme=color_scheme, service_workers="block", **options
        )
        self.timeout_ms = pool.timeout_ms
        self.context.set_default_timeout(pool.timeout_ms)
        self.page = self.context.new_page()
        self.context.route("**/*", self._route)
        self.page.on("console", self._console)
        self.page.on("pageerror", self._page_error)
        self.page.on("framenavigated", self._navigated)
        self.cdp = self.context.new_cdp_session(self.page)
        self.listeners = (listener_counts(self.page), listener_counts(self.context))

    def start(self, console: bool) -> Session:
        self.console = console
        self.session = Session(self.context, self.page, pooled=self)
        return self.session

    def _route(self, route) -> None:
        url = route.request.url
        if is_local(url):
            route.continue_()
        else:
            if self.session is not None:
                self.session.blocked.append(url)
            route.abort("blockedbyclient")

    def _console(self, message) -> None:
        if self.session is not None and self.console and message.type == "error":
            where = message.location.get("url", "") if message.location else ""
            self.session.errors.append(f"console: {message.text} [{where}]")

    def _page_error(self, error) -> None:
        if self.session is not None:
            self.session.errors.append(f"pageerror: {error}")

    def _navigated(self, frame) -> None:
        parts = urlsplit(frame.url)
        if parts.scheme in ("http", "https"):
            self.origins.add(f"{parts.scheme}://{parts.netloc}")

    def reusable(self) -> bool:
        """Whether the test left nothing that :meth:`reset` cannot undo: the page open and
        alone in its context, no listener, binding or WebSocket route of the test's own."""
        if self.page.is_closed() or self.context.pages != [self.page]:
            return False
        if (listener_counts(self.page), listener_counts(self.context)) != self.listeners:
            return False
        return not any(
            target._impl_obj._bindings or target._impl_obj._web_socket_routes
            for target in (self.page, self.context)
        )

    def reset(self) -> bool:
        """Make the page as a new one would be; False if it cannot be (then it is closed).
        Each navigation waits at most ``RESET_TIMEOUT_MS``: a page that hangs is closed, not
        waited on. Session storage belongs to the tab, so it is cleared from a page of each
        origin; the CDP call clears the origin's other storage."""
        self.session = None
        if not self.reusable():
            return False
        timeout = RESET_TIMEOUT_MS
        # Leave the test's document first, while our route still blocks what it sends.
        self.page.goto("about:blank", timeout=timeout)
        self.page.unroute_all(behavior="ignoreErrors")
        self.context.unroute_all(behavior="ignoreErrors")
        self.context.route("**/*", self._route)
        blank = lambda route: route.fulfill(body="<!doctype html><title>reset</title>")  # noqa: E731
        self.page.route(f"**{RESET_PATH}", blank)  # a page's route comes before the context's
        for origin in sorted(self.origins):
            self.page.goto(origin + RESET_PATH, timeout=timeout)
            self.page.evaluate("() => { localStorage.clear(); sessionStorage.clear() }")
            self.cdp.send("Storage.clearDataForOrigin", {"origin": origin, "storageTypes": "all"})
        self.page.unroute_all(behavior="ignoreErrors")
        self.page.goto("about:blank", timeout=timeout)
        self.cdp.send("Page.resetNavigationHistory")
        self.origins.clear()
        self.context.clear_cookies()
        self.context.clear_permissions()
        self.context.set_geolocation(None)
        self.context.set_offline(False)
        self.context.set_extra_http_headers({})
        self.page.set_extra_http_headers({})
        self.page.set_default_timeout(self.timeout_ms)
        self.page.emulate_media(
            media="null",
            color_scheme=self.color_scheme,
            reduced_motion="null",
            forced_colors="null",
            contrast="null",
        )
        if "viewport" in self.options:
            self.page.set_viewport_size(self.options["viewport"])
        return self.page.url == "about:blank"


def is_local(url: str) -> bool:
    parts = urlsplit(url)
    return parts.scheme not in ("http", "https", "ws", "wss") or parts.hostname == "127.0.0.1"


def screenshot(page, lang: str, name: str):
    path = SCREENSHOTS / lang / f"{name}.png"
    path.parent.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(path), full_page=True)
    assert path.stat().st_size > 10_000, f"{path}: suspiciously small screenshot"


def scheme(page) -> str | None:
    return page.evaluate("() => document.body.getAttribute('data-md-color-scheme')")


SCHEMES = {"light": "default", "dark": "slate"}  # Material's palette scheme for each theme


def press_palette_toggle(page, theme: str) -> None:
    """Switch the page to ``theme`` with the header's palette toggle, as a reader does, and
    wait until the scheme is set and its colour transitions are over (a colour read in the
    middle of one is neither theme's)."""
    page.locator('form[data-md-component="palette"] label.md-header__button:visible').click()
    page.wait_for_function(
        """scheme => document.body.getAttribute('data-md-color-scheme') === scheme
            && document.getAnimations().every(a => !(a instanceof CSSTransition))""",
        arg=SCHEMES[theme],
    )


def wait_for_math(page):
    """Wait until the page's math can be drawn: it is MathML made at build time, so this
    means the served math font has loaded (document.fonts settles)."""
    page.wait_for_load_state("domcontentloaded")
    page.evaluate("() => document.fonts.ready.then(() => true)")


SCROLL_BOXES_MARKED = "() => document.documentElement.hasAttribute('data-ae-scrollboxes')"


def open_ready(page, url: str, wait_until: str = "load"):
    """Open ``url`` and wait until the page can be read and measured: the load event, the
    fonts (the math), and a11y.js's pass over the scroll boxes (which gives each wide box its
    focusability and name). Returns the response, checked.

    Not a quiet network by default (``networkidle``: half a second or more a page, for
    nothing most tests read). The test that every page makes no request off 127.0.0.1
    (test_browser.py::test_page_renders_cleanly_and_axe_finds_nothing_serious_in_either_theme)
    asks for it (``wait_until="networkidle"``), to see late requests too."""
    response = page.goto(url, wait_until=wait_until)
    assert response is not None and response.ok, f"{url}: HTTP {response and response.status}"
    wait_for_math(page)
    page.wait_for_function(SCROLL_BOXES_MARKED)
    return response


def wait_for_explorer(page) -> None:
    """Wait until the Explorer has drawn its first sample and checked itself against the
    package's reference values (``aeExplorer.state.selfCheck``): what a11y and layout checks
    read is then on the page."""
    page.wait_for_function("() => window.aeExplorer && aeExplorer.state.selfCheck")


def explorer_state(page) -> dict:
    """The Explorer's state (``window.aeExplorer.state``) as plain JSON."""
    return page.evaluate("() => JSON.parse(JSON.stringify(aeExplorer.state))")


def all_pages() -> list[tuple[str, str]]:
    """(language, site-relative page folder) of every page, both languages."""
    return [(lang, localized(page, lang)) for lang in LANGS for page in source_pages()]


ALL_PAGES = all_pages()


BLOCKING = ("serious", "critical")  # axe impacts that fail a test


def blocking_violations(axe, page) -> list[str]:
    """Serious and critical axe violations, one line per rule: id, impact, targets."""
    # Violations only: every rule still runs on every element; axe just does not collect
    # the passing and inapplicable nodes (about 40 % of its time on the long pages).
    results = axe.run(page, options={"resultTypes": ["violations"]})
    lines = []
    for violation in results.response["violations"]:
        if violation["impact"] not in BLOCKING:
            continue
        targets = [" ".join(map(str, node["target"])) for node in violation["nodes"]]
        shown = ", ".join(targets[:6]) + (f" … (+{len(targets) - 6})" if len(targets) > 6 else "")
        lines.append(
            f"{violation['id']} [{violation['impact']}] on {len(targets)} element(s): {shown}"
        )
    return lines
