"""First visit of every page, both languages: within the byte budget, nothing off 127.0.0.1.

The budget (`phone.BUDGET_BYTES`, 200 KB compressed) counts every request, a web worker's too,
and the search index is not among them: it is fetched when the reader opens search
(tests/test_browser_search.py checks that search then works at once).

The bytes are deterministic (the same files, gzip-compressed as GitHub Pages serves text), so
they are a test; the throttled timings are not, and live in `make bench` (benchmarks/phone.py).
The page is opened in a fresh Chromium context (empty cache) at a phone's viewport.
"""

from __future__ import annotations

import os
import sys

import pytest
from site_build import LANGS, REPO, localized, source_pages

sys.path.insert(0, str(REPO / "benchmarks"))
import phone

pytestmark = [pytest.mark.browser, pytest.mark.site]

PAGES = [(lang, localized(p, lang)) for lang in LANGS for p in source_pages()]


@pytest.fixture(scope="module")
def phone_browser(built_site):
    try:
        import playwright.sync_api
    except ImportError:
        playwright = None
    else:
        playwright = True
    if playwright is None or phone.find_chromium() is None:
        message = "the first-visit test needs Playwright and a system Chromium"
        if os.environ.get("CI") == "true":
            pytest.fail(message, pytrace=False)
        pytest.skip(message)
    with phone.serve(built_site.root, phone.site_prefix()) as base, phone.chromium() as browser:
        yield base, browser


@pytest.mark.parametrize(("lang", "path"), PAGES, ids=[f"{lg}:/{p}" for lg, p in PAGES])
def test_first_visit_is_within_the_byte_budget(phone_browser, lang, path):
    base, browser = phone_browser
    visit = phone.first_visit(browser, base + path, path, throttle=False)
    largest = sorted(visit.urls, key=lambda u: -u[1])[:5]
    detail = "\n".join(f"  {size / 1000:6.1f} KB  {url}" for url, size, *_ in largest)
    assert not visit.off_machine, f"/{path}: requests off 127.0.0.1: {visit.off_machine}"
    assert not visit.failed, f"/{path}: failed requests: {visit.failed}"
    assert visit.compressed <= phone.BUDGET_BYTES, (
        f"/{path}: first visit {visit.compressed / 1000:.1f} KB > "
        f"{phone.BUDGET_BYTES / 1000:.0f} KB; largest:\n{detail}"
    )
    # The budget counts what the page really loads: its HTML and the theme's bundle.
    urls = [url for url, *_ in visit.urls]
    assert not [u for u in urls if "search_index.json" in u], f"/{path}: the search index loaded"
    assert any(url.endswith("/" + path) or url.endswith(path) for url in urls), urls
    assert any("bundle" in url and url.endswith(".js") for url in urls), urls
