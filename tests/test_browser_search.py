"""Search in the reader's language, typed into the real search box in Chromium.

- results come only from the page's language (Korean pages at /, English pages under /en/);
- Korean words with particles and endings find the pages of their stem, typed as a Korean IME
  delivers them (composed text: fill(), then a key press, since Material searches on keyup);
- every "쓰지 않는 표기" variant of the term sheet finds a page, other than the glossary, that
  uses the term it stands for (the variants themselves appear only on the glossary), and only
  as a whole word: 폭발 does not find the pages of 너비 although 폭 does.

The site, server and browser come from the fixtures in conftest.py. Screenshots of a Korean and
an English search go to test-artifacts/screenshots/<lang>/search.png.
"""

from __future__ import annotations

import re

import pytest
from browser_support import localized, open_ready, screenshot
from site_build import DOCS, LANGS, lang_of_path, sources

from attention_explained.sitebuild.terms import load_term_sheet

pytestmark = [pytest.mark.browser, pytest.mark.site]

BOX = "input.md-search__input"
LINKS = "a.md-search-result__link"
ITEMS = ".md-search-result__list > li"  # one per page found, with its sections' links
META = ".md-search-result__meta"  # "12 matching documents", "12개의 일치하는 문서"
META_IS = "([selector, text]) => document.querySelector(selector).textContent === text"
META_IS_NOT = "([selector, text]) => document.querySelector(selector).textContent !== text"
MORE_ITEMS = "([selector, shown]) => document.querySelectorAll(selector).length > shown"
# Material renders the next four results when the result list's scroll box reaches its end
# (a scroll event there); a box already at its end is scrolled away from it first.
TO_THE_END = """async () => { const box = document.querySelector('.md-search__scrollwrap');
    box.scrollTop = 0;
    await new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)));
    box.scrollTop = box.scrollHeight; }"""
LINK_HREFS = "links => links.map(a => a.href)"


def korean_sources() -> dict[str, str]:
    """Korean page folder -> Markdown source (front matter and all)."""
    pages = {}
    for md in sorted(DOCS.rglob("*.md")):
        if re.search(r"\.[a-z]{2}\.md$", md.name):
            continue
        rel = md.relative_to(DOCS).with_suffix("").as_posix()
        page = "" if rel == "index" else rel.removesuffix("/index") + "/"
        pages[page] = md.read_text(encoding="utf-8")
    return pages


class SearchBox:
    """One page whose search box takes query after query."""

    def __init__(self, session, server, lang: str):
        self.session, self.server, self.lang = session, server, lang
        self.page = session.page
        open_ready(self.page, server.url(localized("", lang)))
        self.page.click(BOX)
        # Material's messages in the page's language ("search.result.none", ...)
        self.words = self.page.evaluate(
            "() => JSON.parse(document.getElementById('__config').textContent).translations"
        )

    def _type(self, query: str):
        self.page.fill(BOX, query)
        self.page.press(BOX, "End")  # composed text sends no key events; Material needs one

    def search(self, query: str, expect: bool = True) -> list[str]:
        """Site-relative pages of the results for `query`, best first; [] only if not expect."""
        page = self.page
        # An empty box first: Material answers it with its placeholder, so the next message
        # ("12 matching documents", "no matching documents") can only be the query's answer.
        self._type("")
        page.wait_for_function(META_IS, arg=[META, self.words["search.result.placeholder"]])
        self._type(query)
        page.wait_for_function(META_IS_NOT, arg=[META, self.words["search.result.placeholder"]])
        meta = page.locator(META).inner_text()
        if meta == self.words["search.result.none"]:
            if not expect:
                return []
            pytest.fail(f"searching {query!r} on /{localized('', self.lang)}: no results ({meta})")
        # Material writes the number of pages found, renders the first ten with it, and four
        # more each time the list's end scrolls into view: scroll until all are there.
        total = int(re.search(r"\d+", page.locator(META).inner_text()).group())
        page.wait_for_function(MORE_ITEMS, arg=[ITEMS, min(total, 10) - 1])  # the first ten
        while (shown := page.locator(ITEMS).count()) < total:
            page.evaluate(TO_THE_END)
            page.wait_for_function(MORE_ITEMS, arg=[ITEMS, shown])
        hrefs = page.eval_on_selector_all(LINKS, LINK_HREFS)
        pages = [self.server.page_of(href.split("#")[0].split("?")[0]) for href in hrefs]
        return list(dict.fromkeys(pages))  # in order of rank, each page once


@pytest.fixture
def ko_box(open_session, server):
    return SearchBox(open_session(), server, "ko")


@pytest.fixture
def en_box(open_session, server):
    return SearchBox(open_session(), server, "en")


# --------------------------------------------------------------------------- first visit

SEARCH_FILES = ("search/search_index.json", "workers/search.", "search/ko.json", "lunr/")


def search_requests(urls: list[str]) -> list[str]:
    """The requests among `urls` that only search needs (index, Material's worker, lunr)."""
    return [url for url in urls if any(part in url for part in SEARCH_FILES)]


@pytest.mark.parametrize("opening", ["click", "keyboard shortcut"])
def test_the_index_is_fetched_when_search_opens_and_the_first_key_press_searches(
    open_session, server, opening
):
    session = open_session()
    page = session.page
    requested: list[str] = []
    session.context.on("request", lambda request: requested.append(request.url))
    page.goto(server.url("gradients/"), wait_until="networkidle")
    assert not search_requests(requested), f"fetched before search opened: {requested}"

    if opening == "click":
        page.click(BOX)
    else:
        page.keyboard.press("/")  # Material's shortcut (also f, s) focuses the search box
    page.wait_for_function(f"() => document.activeElement.matches('{BOX}')")
    # At once: the Korean query goes in before the index has arrived, then one key press.
    page.fill(BOX, "야코비안을")
    page.press(BOX, "End")
    page.wait_for_selector(LINKS, timeout=10_000)
    pages = [server.page_of(h.split("#")[0]) for h in page.eval_on_selector_all(LINKS, LINK_HREFS)]
    assert "gradients/" in pages, pages
    assert any("search/search_index.json" in url for url in requested), requested
    session.assert_clean()


# --------------------------------------------------------------------------- language

LANGUAGE_QUERIES = {
    # Each occurs in pages of both languages: without the filter both would be listed.
    "en": ["jacobian", "softmax", "QK-norm", "entropy", "d_k"],
    "ko": ["야코비안", "softmax", "소프트맥스", "QK", "entropy"],
}


@pytest.mark.parametrize("lang", LANGS)
def test_results_come_only_from_the_readers_language(lang, request):
    box = request.getfixturevalue(f"{lang}_box")
    shown_other = 0
    for query in LANGUAGE_QUERIES[lang]:
        pages = box.search(query)
        wrong = [p for p in pages if lang_of_path(p) != lang]
        assert not wrong, f"{query!r} on the {lang} site lists other languages' pages: {wrong}"
        shown_other += len(pages)
    assert shown_other, "no results at all"
    if lang == "ko":
        box.search("야코비안을")
        screenshot(box.page, lang, "search")
    else:
        box.search("jacobian")
        screenshot(box.page, lang, "search")
    box.session.assert_clean()


def test_the_language_queries_occur_in_both_languages():
    """The queries above only test the filter if the other languages' pages contain them."""
    for lang, queries in LANGUAGE_QUERIES.items():
        for query in queries:
            for other in LANGS:
                hits = [p for p in sources(other) if query.lower() in p.read_text("utf-8").lower()]
                assert hits, f"{query!r} ({lang}) occurs in no {other} page"


# --------------------------------------------------------------------------- particles

PARTICLE_QUERIES = [
    # (query as a Korean IME delivers it, its stem)
    ("야코비안을", "야코비안"),
    ("기울기가", "기울기"),
    ("포화된", "포화"),
    ("스케일링하지", "스케일링"),
    ("소프트맥스의", "소프트맥스"),
    ("엔트로피는", "엔트로피"),
    ("로짓이", "로짓"),
]


def stem_only_pages(query: str, stem: str) -> set[str]:
    """Korean pages with the stem but without the query: Lunr's prefix search for the query
    as typed cannot find them, only the reduction to the stem can."""
    return {p for p, text in korean_sources().items() if stem in text and query not in text}


@pytest.mark.parametrize(("query", "stem"), PARTICLE_QUERIES)
def test_some_page_has_the_stem_but_not_the_query(query, stem):
    assert stem_only_pages(query, stem), f"every page with {stem!r} has {query!r}: pick another"


def test_korean_words_with_particles_and_endings_find_their_pages(ko_box):
    missing = []
    for query, stem in PARTICLE_QUERIES:
        pages = ko_box.search(query)
        if not set(pages) & stem_only_pages(query, stem):
            missing.append(f"{query!r} -> {pages}: none of {sorted(stem_only_pages(query, stem))}")
    assert not missing, "\n".join(missing)
    ko_box.session.assert_clean()


# --------------------------------------------------------------------------- synonyms

TERMS = load_term_sheet()
SYNONYMS = [(variant, term.term) for term in TERMS for variant in term.variants]


def test_every_glossary_synonym_finds_the_pages_of_its_term(ko_box):
    """The page of a term is the best result of searching for the term itself; the
    variant must find it too (without the mapping most variants find only the glossary)."""
    assert SYNONYMS, "the term sheet lists no variants"
    missing = []
    for variant, term in SYNONYMS:
        found = ko_box.search(term, expect=False)
        if not found:
            missing.append(f"{term!r} (for {variant!r}) is on no page: the content lacks it")
            continue
        top = found[0]
        pages = ko_box.search(variant)
        if top not in pages:
            missing.append(f"{variant!r} -> {term!r}: found {pages}, not {top!r}")
    assert not missing, "\n".join(missing)
    ko_box.session.assert_clean()


# A word that begins or ends with a variant is another word: 폭발 (explosion) is not 폭
# (width, a variant of 너비), 계층 (hierarchy) is not 층 (a variant of 레이어).
LONGER_WORDS = [("폭발", "폭"), ("계층", "층")]


def term_only_pages(word: str, variant: str) -> set[str]:
    """Korean pages with the variant's term but without `word`: only a synonym applied to
    part of `word` could list them."""
    term = dict(SYNONYMS)[variant]
    return {p for p, text in korean_sources().items() if term in text and word not in text}


@pytest.mark.parametrize(("word", "variant"), LONGER_WORDS)
def test_some_page_has_the_term_but_not_the_longer_word(word, variant):
    assert variant in dict(SYNONYMS), f"{variant!r} is no variant in the term sheet"
    assert term_only_pages(word, variant), f"every page of {variant!r}'s term has {word!r}"


def test_a_synonym_applies_to_whole_words_not_to_a_longer_word(ko_box):
    sources = korean_sources()
    wrong = []
    for word, variant in LONGER_WORDS:
        listed = set(ko_box.search(word, expect=False)) & term_only_pages(word, variant)
        if listed:
            wrong.append(f"{word!r} lists pages of {dict(SYNONYMS)[variant]!r}: {sorted(listed)}")
        # The variant on its own still finds them where it does not occur: the synonym's work.
        by_term = {p for p in term_only_pages(word, variant) if variant not in sources[p]}
        if not set(ko_box.search(variant)) & by_term:
            wrong.append(f"{variant!r} finds none of {sorted(by_term)}")
    assert not wrong, "\n".join(wrong)
    ko_box.session.assert_clean()
