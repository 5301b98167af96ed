"""Helpers for the browser tests: a static server under the site prefix, a system Chromium
through Playwright, and sessions that record blocked requests and console errors.

The fixtures built on these (``server``, ``browser``, ``open_session``) live in conftest.py.
"""

from __future__ import annotations

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

    def assert_clean(self):
        problems = [f"blocked request off 127.0.0.1: {url}" for url in self.blocked]
        problems += self.errors
        assert not problems, f"{self.page.url}:\n" + "\n".join(problems)


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
