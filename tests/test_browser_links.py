"""Chromium: every link a reader can click on a local build leads somewhere.

Each page of both languages is opened as a reader opens it (scripts run); every visible
link to this site is followed once (the same GET a click makes) and must not answer 404 or
any other error. A local build has no PDF edition, so the home page's PDF links must not be
among the visible links (attention_explained/pdf_links.py hides them).
"""

from __future__ import annotations

from urllib.parse import urldefrag

import pytest
from browser_support import ALL_PAGES, is_local

pytestmark = [pytest.mark.site, pytest.mark.browser]

VISIBLE_LINKS = """() => [...document.querySelectorAll('a[href]')]
  .filter(a => a.getClientRects().length > 0 && getComputedStyle(a).visibility !== 'hidden')
  .map(a => a.href)"""


@pytest.fixture(scope="module")
def visible_links(server, browser):
    """URL (without fragment) → the first page that shows a link to it."""
    context = browser.new_context(service_workers="block")
    links: dict[str, str] = {}
    try:
        page = context.new_page()
        for _, folder in ALL_PAGES:
            page.goto(server.url(folder))
            page.wait_for_load_state("load")
            for href in page.evaluate(VISIBLE_LINKS):
                url, _ = urldefrag(href)
                if url.startswith(server.origin) and is_local(url):
                    links.setdefault(url, folder)
    finally:
        context.close()
    return links


def test_every_visible_link_on_every_page_resolves(visible_links, browser):
    # every page is linked from the navigation, so each is among the links followed
    assert len(visible_links) >= len(ALL_PAGES), visible_links
    context = browser.new_context(service_workers="block")
    try:
        broken = []
        for url, where in sorted(visible_links.items()):
            response = context.request.get(url, max_redirects=5)
            if response.status >= 400:
                broken.append(f"{response.status} {url} (linked from {where})")
    finally:
        context.close()
    assert not broken, "\n".join(broken)


def test_no_visible_link_to_a_pdf_edition_the_build_lacks(visible_links):
    assert not [url for url in visible_links if url.endswith(".pdf")]
