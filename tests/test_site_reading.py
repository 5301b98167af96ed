"""The built site: every page prints the reading time computed from its source."""

from __future__ import annotations

import pytest
from site_build import DOCS, LANGS, localized, source_name, source_pages

from attention_explained.sitebuild import reading

pytestmark = pytest.mark.site


def test_every_page_prints_its_computed_reading_time(built_site):
    checked = 0
    for page in source_pages():
        if page.startswith("notebooks/"):
            continue
        name = page.rstrip("/") or "index"
        for lang in LANGS:
            src = DOCS / source_name(name, lang)
            built = built_site.root / localized(page, lang) / "index.html"
            html = built.read_text("utf-8")
            printed = reading.printed_minutes(html, lang)
            expected = reading.reading_time(src.read_text("utf-8"), lang)
            assert printed == expected, (lang, page, printed, expected)
            assert html.count('class="ae-reading-time"') == 1, (lang, page)
            checked += 1
    assert checked >= 20
