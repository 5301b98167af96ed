"""The built site's names for its pages: nav labels, headings, <title>s, footers, per language."""

from __future__ import annotations

import html
import re

import pytest
from site_build import LANGS

pytestmark = pytest.mark.site

HANGUL = re.compile(r"[\uac00-\ud7a3]")
TAG = re.compile(r"<[^>]+>")
ACTIVE_LINK = re.compile(
    r'<a href="\./" class="md-nav__link md-nav__link--active">(.*?)</a>', re.DOTALL
)
FIRST_H1 = re.compile(r"<h1\b[^>]*>(.*?)</h1>", re.DOTALL)
TITLE = re.compile(r"<title>(.*?)</title>", re.DOTALL)
COPYRIGHT = re.compile(r'<div class="md-copyright__highlight">(.*?)</div>', re.DOTALL)
# What TeX looks like when it was not typeset: a subscript or superscript marker, a
# backslash command, or a dollar sign.
RAW_TEX = re.compile(r"[_^]\{?\w|\\[A-Za-z]+|\$")


def text_of(fragment: str) -> str:
    """The visible text of an HTML fragment, without the permalink mark, spaces collapsed."""
    text = html.unescape(TAG.sub("", fragment)).replace("¶", "")
    return " ".join(text.split())


def pages_of(built_site, lang: str):
    return [p for p in built_site.pages() if built_site.page_lang(p) == lang]


def is_home(built_site, page) -> bool:
    return page.parent in (built_site.root, built_site.root / "en")


@pytest.mark.parametrize("lang", LANGS)
def test_every_nav_label_is_its_pages_heading(built_site, lang):
    """A reader who clicks a label lands on a page with that name (the home page is "홈"/"Home")."""
    checked = 0
    for page in pages_of(built_site, lang):
        if is_home(built_site, page):
            continue
        source = page.read_text(encoding="utf-8")
        link, heading = ACTIVE_LINK.search(source), FIRST_H1.search(source)
        assert link and heading, f"{page}: no active nav link or no <h1>"
        assert text_of(link.group(1)) == text_of(heading.group(1)), (
            f"{page.relative_to(built_site.root)}: nav label {text_of(link.group(1))!r} "
            f"but heading {text_of(heading.group(1))!r}; make the label in mkdocs.yml "
            "(nav, or nav_translations for English) the page's # heading"
        )
        checked += 1
    assert checked >= 10


@pytest.mark.parametrize("lang", LANGS)
def test_titles_and_headings_hold_no_raw_tex(built_site, lang):
    """<title> and <h1> are plain text: √dₖ, never √d_k or $d_k$."""
    for page in pages_of(built_site, lang):
        source = page.read_text(encoding="utf-8")
        for name, pattern in (("<title>", TITLE), ("<h1>", FIRST_H1)):
            found = pattern.search(source)
            assert found, f"{page}: no {name}"
            text = text_of(found.group(1))
            assert not RAW_TEX.search(text), f"{page.relative_to(built_site.root)}: {name} {text!r}"


@pytest.mark.parametrize("lang", LANGS)
def test_each_home_page_is_titled_with_the_site_name_alone(built_site, lang):
    """Both home pages read like Korean's: the site name, with no "홈 - "/"Home - " before it."""
    homes = [page for page in pages_of(built_site, lang) if is_home(built_site, page)]
    assert len(homes) == 1, homes
    title = text_of(TITLE.search(homes[0].read_text(encoding="utf-8")).group(1))
    other = next(page for page in pages_of(built_site, lang) if not is_home(built_site, page))
    other_title = text_of(TITLE.search(other.read_text(encoding="utf-8")).group(1))
    site_name = other_title.rsplit(" - ", 1)[1]
    assert title == site_name, f"{homes[0].relative_to(built_site.root)}: <title> {title!r}"


def test_each_language_has_its_own_footer(built_site):
    """Korean pages give the licence in Korean, English pages in English: CC BY 4.0 and MIT."""
    for page in built_site.pages():
        lang = built_site.page_lang(page)
        found = COPYRIGHT.search(page.read_text(encoding="utf-8"))
        assert found, f"{page}: no footer line"
        line = text_of(found.group(1))
        assert "CC BY 4.0" in line and "MIT" in line, f"{page}: {line!r}"
        if lang == "ko":
            assert HANGUL.search(line) and not re.search(r"\b(Text|Code)\b", line), (
                f"{page}: Korean footer {line!r}"
            )
        else:
            assert not HANGUL.search(line), f"{page}: English footer {line!r}"
