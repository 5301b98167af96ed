"""The built site as a link preview, a search engine and an LLM read it: the description, the
Open Graph and Twitter card with a figure the site serves, JSON-LD in the page's language, the
sitemap's lastmod from git with its hreflang alternates, llms.txt per language; and the home
page's PDF links hidden while the build has no PDFs."""

from __future__ import annotations

import html
import json
import os
import re
import subprocess
import xml.etree.ElementTree as ET

import pytest
from PIL import Image
from site_build import DOCS, LANGS, REPO, localized, source_name, unlocalized

pytestmark = pytest.mark.site

LOCALE = {"ko": "ko_KR", "en": "en_US"}
SITEMAP = "{http://www.sitemaps.org/schemas/sitemap/0.9}"
XHTML = "{http://www.w3.org/1999/xhtml}"


def meta(page_html: str, key: str) -> list[str]:
    pattern = rf'<meta (?:property|name)="{re.escape(key)}" content="([^"]*)"'
    return [html.unescape(v) for v in re.findall(pattern, page_html)]


def site_url() -> str:
    config = (REPO / "mkdocs.yml").read_text(encoding="utf-8")
    default = re.search(r'site_url: !ENV \[SITE_URL, "([^"]+)"\]', config).group(1)
    return os.environ.get("SITE_URL", default)


def served(built_site, url: str):
    """The file an absolute URL of this site names."""
    base = site_url()
    assert url.startswith(base), url
    return built_site.root / url[len(base) :]


def source_of(built_site, page) -> str:
    """docs/ path of a built page (index.html → index.md / index.en.md)."""
    lang = built_site.page_lang(page)
    rel = unlocalized(built_site.page_path(page), lang)
    stem = rel.strip("/") or "index"
    candidates = [source_name(stem, lang)]
    return next(c for c in candidates if (DOCS / c).is_file())


def test_every_page_has_its_own_description_and_a_card(built_site):
    seen = {}
    for page in built_site.pages():
        text = page.read_text(encoding="utf-8")
        lang = built_site.page_lang(page)
        (description,) = meta(text, "description")
        assert description not in seen, f"{page}: same description as {seen.get(description)}"
        seen[description] = page
        assert meta(text, "og:description") == [description]
        assert meta(text, "twitter:description") == [description]
        assert meta(text, "og:locale") == [LOCALE[lang]]
        assert meta(text, "og:locale:alternate") == [v for k, v in LOCALE.items() if k != lang]
        assert meta(text, "twitter:card") == ["summary_large_image"]
        (url,) = meta(text, "og:url")
        assert served(built_site, url) / "index.html" == page
        (image,) = meta(text, "og:image")
        assert meta(text, "twitter:image") == [image]
        assert served(built_site, image).is_file(), f"{page}: og:image {image} is not served"
        # a PNG (no card renderer shows SVG), wide enough for a large card, with a white ground
        assert meta(text, "og:image:type") == ["image/png"]
        with Image.open(served(built_site, image)) as card:
            assert card.format == "PNG" and card.width >= 1200 and card.height >= 300, image
            assert card.convert("RGB").getpixel((1, 1)) == (255, 255, 255), image
        # the card shows a figure in the page's language
        assert ("/en/figures/" in image) == (lang == "en"), image
        assert meta(text, "og:image:alt")[0].strip()


def test_a_page_with_figures_shows_its_first_one(built_site):
    text = (built_site.root / "en/saturation/index.html").read_text(encoding="utf-8")
    first = re.search(r'<img [^>]*src="(?:\.\./)*figures/([\w-]+)\.svg', text).group(1)
    assert meta(text, "og:image")[0].endswith(f"/en/figures/{first}.png")


def test_json_ld_is_in_the_page_language(built_site):
    for page in built_site.pages():
        text = page.read_text(encoding="utf-8")
        blocks = re.findall(r'<script type="application/ld\+json">(.*?)</script>', text, re.S)
        assert len(blocks) == 1, page
        data = json.loads(blocks[0])
        assert data["inLanguage"] == built_site.page_lang(page)
        assert "TechArticle" in data["@type"] and data["@context"] == "https://schema.org"
        assert data["description"] == meta(text, "description")[0]
        assert data["url"] == meta(text, "og:url")[0]


def git_date(path: str) -> str:
    """Independently of share.py: the UTC date of the last commit touching docs/<path>."""
    result = subprocess.run(
        ["git", "log", "-1", "--format=%cd", "--date=format-local:%Y-%m-%d", "--", f"docs/{path}"],
        cwd=REPO,
        capture_output=True,
        text=True,
        check=True,
        env={**os.environ, "TZ": "UTC"},
    )
    return result.stdout.strip()


def test_sitemap_lastmod_is_each_page_s_last_commit_and_keeps_hreflang(built_site):
    root = ET.parse(built_site.root / "sitemap.xml").getroot()
    urls = root.findall(f"{SITEMAP}url")
    assert len(urls) == len(built_site.pages())
    dates = set()
    for url in urls:
        loc = url.findtext(f"{SITEMAP}loc")
        page = served(built_site, loc) / "index.html"
        expected = git_date(source_of(built_site, page))
        if expected:  # a page committed at least once (a new, uncommitted one gets the build's)
            assert url.findtext(f"{SITEMAP}lastmod") == expected, loc
            dates.add(expected)
        langs = {link.get("hreflang") for link in url.findall(f"{XHTML}link")}
        assert set(LANGS) <= langs, (loc, langs)
        page_text = page.read_text(encoding="utf-8")
        ld = json.loads(re.search(r'ld\+json">(.*?)</script>', page_text, re.S).group(1))
        assert ld["dateModified"] == url.findtext(f"{SITEMAP}lastmod")


@pytest.mark.parametrize("lang", LANGS)
def test_llms_txt_lists_every_page_of_its_language(built_site, lang):
    folder = built_site.root / localized("", lang)
    text = (folder / "llms.txt").read_text(encoding="utf-8")
    assert text.startswith("# ")
    pages = [p for p in built_site.pages() if built_site.page_lang(p) == lang]
    for page in pages:
        (url,) = meta(page.read_text(encoding="utf-8"), "og:url")
        (description,) = meta(page.read_text(encoding="utf-8"), "description")
        assert text.count(f"]({url}): {description}") == 1, (lang, url)


@pytest.mark.parametrize("lang", LANGS)
def test_pdf_links_are_hidden_while_the_build_has_no_pdf(built_site, lang):
    home = built_site.root / localized("", lang) / "index.html"
    text = home.read_text(encoding="utf-8")
    # (a fresh build has no pdf/ folder: test_pdf.py may print editions into it afterwards,
    # which leaves the built pages as they were)
    local = r'<p( hidden data-ae-pdf)?>(?:(?!</p>).)*?href="(?![a-z]+://)[^"]*\.pdf"'
    marks = re.findall(local, text, re.S)
    assert marks and all(marks), "a visible paragraph links a PDF the build lacks"
    if '<h2 id="pdf"' in text:
        assert '<h2 id="pdf" hidden data-ae-pdf' in text
